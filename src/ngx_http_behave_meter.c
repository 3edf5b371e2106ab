/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Node-local metering: annotations per tenant per UTC day, in the shared
 * memory zone, so every worker of this nginx counts against one figure.
 * The table is open-addressed and never shrinks: a slot whose day is past
 * is taken over in place, which keeps probe chains intact.
 */


#include "ngx_http_behave_common.h"


#define NGX_HTTP_BEHAVE_METER_SLOTS_MAX  4096


typedef struct {
    uint32_t                    hash;
    uint32_t                    day;
    uint64_t                    count;
    char                        tenant[BEHAVE_TENANT_MAX + 1];
} ngx_http_behave_meter_slot_t;


struct ngx_http_behave_shm_s {
    ngx_uint_t                  nslots;
    ngx_uint_t                  full_logged_day;
    ngx_http_behave_meter_slot_t  slots[1];
};


static ngx_http_behave_meter_slot_t *ngx_http_behave_meter_slot(
    ngx_http_behave_shm_t *sh, const char *tenant, uint32_t day);


ngx_int_t
ngx_http_behave_meter_init_zone(ngx_shm_zone_t *shm_zone, void *data)
{
    ngx_http_behave_main_conf_t  *omcf = data;

    size_t                        size;
    ngx_uint_t                    n;
    ngx_slab_pool_t              *shpool;
    ngx_http_behave_main_conf_t  *bmcf;

    bmcf = shm_zone->data;

    if (omcf != NULL) {
        bmcf->sh = omcf->sh;
        bmcf->shpool = omcf->shpool;
        return NGX_OK;
    }

    shpool = (ngx_slab_pool_t *) shm_zone->shm.addr;
    bmcf->shpool = shpool;

    if (shm_zone->shm.exists) {
        bmcf->sh = shpool->data;
        return NGX_OK;
    }

    /* a quarter of the zone at most: the rest is for the other counters */
    n = shm_zone->shm.size / 4 / sizeof(ngx_http_behave_meter_slot_t);
    n = ngx_min(n, NGX_HTTP_BEHAVE_METER_SLOTS_MAX);

    size = sizeof(ngx_http_behave_shm_t)
           + (n - 1) * sizeof(ngx_http_behave_meter_slot_t);

    bmcf->sh = ngx_slab_calloc(shpool, size);
    if (bmcf->sh == NULL) {
        return NGX_ERROR;
    }

    bmcf->sh->nslots = n;
    shpool->data = bmcf->sh;
    shpool->log_nomem = 0;

    return NGX_OK;
}


/*
 * Counts n annotations for the key's tenant today and reports what is
 * left of its daily quota.  Going over the quota never refuses a request:
 * it is reported as overage.
 */

void
ngx_http_behave_meter_count(ngx_http_request_t *r, const behave_key_t *key,
    ngx_uint_t n, ngx_http_behave_usage_t *usage)
{
    uint32_t                       day;
    uint64_t                       count;
    ngx_http_behave_shm_t         *sh;
    ngx_http_behave_main_conf_t   *bmcf;
    ngx_http_behave_meter_slot_t  *slot;

    bmcf = ngx_http_get_module_main_conf(r, ngx_http_behave_module);
    sh = bmcf->sh;
    day = (uint32_t) (ngx_time() / 86400);

    usage->meter = "local";
    usage->overage = 0;
    usage->remaining = key->quota ? (long long) key->quota : -1;

    ngx_shmtx_lock(&bmcf->shpool->mutex);

    slot = ngx_http_behave_meter_slot(sh, key->tenant, day);

    if (slot == NULL) {
        if (sh->full_logged_day != day) {
            sh->full_logged_day = day;
            ngx_log_error(NGX_LOG_WARN, r->connection->log, 0,
                          "behave: the metering table is full, tenants "
                          "beyond it are not counted; raise "
                          "behave_shm_size");
        }

        ngx_shmtx_unlock(&bmcf->shpool->mutex);
        return;
    }

    slot->count += n;
    count = slot->count;

    ngx_shmtx_unlock(&bmcf->shpool->mutex);

    if (key->quota == 0) {
        return;
    }

    if (count > key->quota) {
        usage->overage = 1;
        usage->remaining = 0;

    } else {
        usage->remaining = (long long) (key->quota - count);
    }
}


static ngx_http_behave_meter_slot_t *
ngx_http_behave_meter_slot(ngx_http_behave_shm_t *sh, const char *tenant,
    uint32_t day)
{
    size_t                         len;
    uint32_t                       hash;
    ngx_uint_t                     i, k;
    ngx_http_behave_meter_slot_t  *slot, *stale;

    len = ngx_strlen(tenant);
    hash = ngx_crc32_short((u_char *) tenant, len);
    stale = NULL;

    for (i = 0; i < sh->nslots; i++) {
        k = (hash + i) % sh->nslots;
        slot = &sh->slots[k];

        if (slot->tenant[0] == '\0') {
            break;
        }

        if (slot->hash == hash && ngx_strcmp(slot->tenant, tenant) == 0) {
            if (slot->day != day) {
                slot->day = day;
                slot->count = 0;
            }

            return slot;
        }

        if (slot->day != day && stale == NULL) {
            stale = slot;
        }
    }

    if (i == sh->nslots) {
        slot = stale;
        if (slot == NULL) {
            return NULL;
        }
    }

    slot->hash = hash;
    slot->day = day;
    slot->count = 0;
    ngx_memcpy(slot->tenant, tenant, len + 1);

    return slot;
}
