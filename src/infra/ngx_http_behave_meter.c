/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Metering: annotations per tenant per UTC day.
 *
 * Every worker of this nginx counts into the shared memory zone, so the
 * node has one figure without asking anyone.  With behave_redis, each
 * worker also flushes what was counted to Redis every 250ms (INCRBY on
 * behave:usage:{<tenant>}:<yyyymmdd>), and the total Redis answers is
 * what all nodes share: remaining = quota - (shared total + not yet
 * flushed).  A request never waits for Redis.  When Redis has not
 * answered for 5 seconds the node-local count applies and _meta.meter
 * says "local"; deltas that could not be flushed are kept and sent later,
 * so nothing counted is lost.
 *
 * The table is open-addressed and never shrinks: a slot whose day is past
 * is taken over in place, which keeps probe chains intact.
 */


#include "ngx_http_behave_meter.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_stats.h"
#include "ngx_http_behave_util.h"


#define NGX_HTTP_BEHAVE_METER_SLOTS_MAX  4096
#define NGX_HTTP_BEHAVE_METER_FLUSH      250
#define NGX_HTTP_BEHAVE_METER_FRESH      5


typedef struct {
    uint32_t                    hash;
    uint32_t                    day;
    uint64_t                    count;          /* this node, today */
    uint64_t                    unflushed;      /* not yet in Redis */
    uint64_t                    shared;         /* Redis total, last seen */
    time_t                      shared_at;

    /* gateway limits of one key ("key:<hash>" slots), node-local */
    uint64_t                    inflight;
    uint64_t                    minute;
    uint64_t                    minute_count;
    uint64_t                    tokens;
    char                        tenant[BEHAVE_TENANT_MAX + 1];
} ngx_http_behave_meter_slot_t;


typedef struct {
    ngx_uint_t                  index;
    uint32_t                    day;
    uint64_t                    delta;
} ngx_http_behave_meter_flush_t;


struct ngx_http_behave_shm_s {
    ngx_http_behave_stats_t    *stats;
    ngx_uint_t                  nslots;
    ngx_uint_t                  full_logged_day;
    ngx_http_behave_meter_slot_t  slots[1];
};


static ngx_http_behave_meter_slot_t *ngx_http_behave_meter_slot(
    ngx_http_behave_shm_t *sh, const char *tenant, uint32_t day);
static void ngx_http_behave_meter_flush_handler(ngx_event_t *ev);
static ngx_int_t ngx_http_behave_meter_flush_slot(
    ngx_http_behave_main_conf_t *bmcf, ngx_uint_t i, uint32_t day);
static void ngx_http_behave_meter_flushed(redisReply *reply, void *data);
static void ngx_http_behave_meter_noop(redisReply *reply, void *data);


static ngx_event_t                   ngx_http_behave_meter_timer;
static ngx_http_behave_main_conf_t  *ngx_http_behave_meter_conf;


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
        bmcf->stats = omcf->stats;
        return NGX_OK;
    }

    shpool = (ngx_slab_pool_t *) shm_zone->shm.addr;
    bmcf->shpool = shpool;

    if (shm_zone->shm.exists) {
        bmcf->sh = shpool->data;
        bmcf->stats = bmcf->sh->stats;
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

    if (ngx_http_behave_stats_init_zone(shpool, &bmcf->sh->stats) != NGX_OK) {
        return NGX_ERROR;
    }

    bmcf->stats = bmcf->sh->stats;
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
    day = (uint32_t) (ngx_time() / NGX_HTTP_BEHAVE_DAY);

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

    if (bmcf->redis.len) {
        slot->unflushed += n;

        if (ngx_time() - slot->shared_at <= NGX_HTTP_BEHAVE_METER_FRESH) {
            count = slot->shared + slot->unflushed;
            usage->meter = "shared";
        }
    }

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
                slot->unflushed = 0;
                slot->shared = 0;
                slot->shared_at = 0;
                slot->tokens = 0;
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

    ngx_memzero(slot, sizeof(ngx_http_behave_meter_slot_t));
    slot->hash = hash;
    slot->day = day;
    ngx_memcpy(slot->tenant, tenant, len + 1);

    return slot;
}


void
ngx_http_behave_meter_init_process(ngx_cycle_t *cycle)
{
    ngx_http_behave_main_conf_t  *bmcf;

    bmcf = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_behave_module);

    if (bmcf == NULL || bmcf->redis.len == 0 || bmcf->sh == NULL) {
        return;
    }

    ngx_http_behave_meter_conf = bmcf;

    ngx_http_behave_meter_timer.handler = ngx_http_behave_meter_flush_handler;
    ngx_http_behave_meter_timer.log = cycle->log;
    ngx_http_behave_meter_timer.data = bmcf;
    ngx_http_behave_meter_timer.cancelable = 1;

    ngx_add_timer(&ngx_http_behave_meter_timer, NGX_HTTP_BEHAVE_METER_FLUSH);
}


static void
ngx_http_behave_meter_flush_handler(ngx_event_t *ev)
{
    uint32_t                      day;
    ngx_uint_t                    i;
    ngx_http_behave_main_conf_t  *bmcf = ev->data;

    if (ngx_exiting || ngx_terminate) {
        return;
    }

    day = (uint32_t) (ngx_time() / NGX_HTTP_BEHAVE_DAY);

    if (ngx_http_behave_redis_connected()) {
        for (i = 0; i < bmcf->sh->nslots; i++) {
            /* a tenant whose cluster node is down waits; others do not */
            (void) ngx_http_behave_meter_flush_slot(bmcf, i, day);
        }
    }

    ngx_add_timer(ev, NGX_HTTP_BEHAVE_METER_FLUSH);
}


/* takes the slot's unflushed delta and sends it; put back on failure */

static ngx_int_t
ngx_http_behave_meter_flush_slot(ngx_http_behave_main_conf_t *bmcf,
    ngx_uint_t i, uint32_t day)
{
    u_char                          key[NGX_HTTP_BEHAVE_KEY_USAGE_SIZE];
    u_char                          num[NGX_INT64_LEN];
    size_t                          len[3];
    ngx_tm_t                        tm;
    const char                     *argv[3];
    ngx_http_behave_meter_slot_t   *slot;
    ngx_http_behave_meter_flush_t  *fl;

    slot = &bmcf->sh->slots[i];

    if (slot->unflushed == 0 || slot->day != day) {
        return NGX_OK;
    }

    fl = ngx_alloc(sizeof(ngx_http_behave_meter_flush_t), ngx_cycle->log);
    if (fl == NULL) {
        return NGX_ERROR;
    }

    ngx_shmtx_lock(&bmcf->shpool->mutex);

    fl->index = i;
    fl->day = day;
    fl->delta = slot->unflushed;
    slot->unflushed = 0;

    ngx_gmtime((time_t) day * NGX_HTTP_BEHAVE_DAY, &tm);
    len[1] = ngx_sprintf(key, NGX_HTTP_BEHAVE_KEY_USAGE, slot->tenant,
                         tm.ngx_tm_year, tm.ngx_tm_mon, tm.ngx_tm_mday)
             - key;

    ngx_shmtx_unlock(&bmcf->shpool->mutex);

    argv[0] = "INCRBY";
    len[0] = sizeof("INCRBY") - 1;
    argv[1] = (char *) key;
    argv[2] = (char *) num;
    len[2] = ngx_sprintf(num, "%uL", fl->delta) - num;

    if (ngx_http_behave_redis_command_bg(3, argv, len,
                                         ngx_http_behave_meter_flushed, fl)
        != NGX_OK)
    {
        ngx_http_behave_meter_flushed(NULL, fl);
        return NGX_ERROR;
    }

    /* two days, so that a late flush of yesterday still finds its key */
    argv[0] = "EXPIRE";
    len[0] = sizeof("EXPIRE") - 1;
    argv[2] = "172800";
    len[2] = sizeof("172800") - 1;

    (void) ngx_http_behave_redis_command_bg(3, argv, len,
                                            ngx_http_behave_meter_noop, NULL);

    return NGX_OK;
}


static void
ngx_http_behave_meter_flushed(redisReply *reply, void *data)
{
    ngx_http_behave_meter_flush_t  *fl = data;

    ngx_http_behave_main_conf_t   *bmcf;
    ngx_http_behave_meter_slot_t  *slot;

    bmcf = ngx_http_behave_meter_conf;

    if (bmcf == NULL) {
        ngx_free(fl);
        return;
    }

    slot = &bmcf->sh->slots[fl->index];

    ngx_shmtx_lock(&bmcf->shpool->mutex);

    if (slot->day == fl->day) {
        if (reply != NULL && reply->type == REDIS_REPLY_INTEGER) {
            slot->shared = (uint64_t) reply->integer;
            slot->shared_at = ngx_time();

        } else {
            slot->unflushed += fl->delta;
        }
    }

    ngx_shmtx_unlock(&bmcf->shpool->mutex);

    ngx_free(fl);
}


static void
ngx_http_behave_meter_noop(redisReply *reply, void *data)
{
}


/*
 * Gateway concurrency of one key on this node: delta +1 takes a place when
 * one is left (NGX_OK) or refuses (NGX_DECLINED); -1 gives it back.
 */

ngx_int_t
ngx_http_behave_meter_concurrency(ngx_http_request_t *r, const char *id,
    ngx_int_t delta, ngx_uint_t limit)
{
    ngx_int_t                      rc;
    ngx_http_behave_main_conf_t   *bmcf;
    ngx_http_behave_meter_slot_t  *slot;

    bmcf = ngx_http_get_module_main_conf(r, ngx_http_behave_module);
    rc = NGX_OK;

    ngx_shmtx_lock(&bmcf->shpool->mutex);

    slot = ngx_http_behave_meter_slot(bmcf->sh, id,
                                      (uint32_t) (ngx_time()
                                                  / NGX_HTTP_BEHAVE_DAY));

    if (slot == NULL) {
        /* no room to count: let it through rather than refuse everyone */

    } else if (delta > 0) {
        if (limit && slot->inflight >= limit) {
            rc = NGX_DECLINED;

        } else {
            slot->inflight++;
        }

    } else if (slot->inflight > 0) {
        slot->inflight--;
    }

    ngx_shmtx_unlock(&bmcf->shpool->mutex);

    return rc;
}


/*
 * The node-local stand-in for the Redis limiter: a fixed one-minute
 * window and the day's tokens.  NGX_DECLINED with lim->reason set when a
 * limit is exhausted; the cost is counted only when allowed.
 */

ngx_int_t
ngx_http_behave_meter_window(ngx_http_request_t *r, const char *id,
    ngx_http_behave_limit_t *lim)
{
    time_t                         now;
    uint64_t                       minute;
    ngx_int_t                      rc;
    ngx_http_behave_main_conf_t   *bmcf;
    ngx_http_behave_meter_slot_t  *slot;

    bmcf = ngx_http_get_module_main_conf(r, ngx_http_behave_module);
    now = ngx_time();
    minute = (uint64_t) now / 60;
    rc = NGX_OK;

    ngx_shmtx_lock(&bmcf->shpool->mutex);

    slot = ngx_http_behave_meter_slot(bmcf->sh, id, (uint32_t) (now / 86400));

    if (slot == NULL) {
        ngx_shmtx_unlock(&bmcf->shpool->mutex);
        lim->remaining = lim->rpm;
        lim->reset = 60 - now % 60;
        return NGX_OK;
    }

    if (slot->minute != minute) {
        slot->minute = minute;
        slot->minute_count = 0;
    }

    lim->reset = 60 - now % 60;

    if (lim->rpm && slot->minute_count >= lim->rpm) {
        lim->reason = "rpm";
        lim->retry_after = lim->reset;
        rc = NGX_DECLINED;

    } else if (lim->tokens_per_day
               && slot->tokens + lim->cost > lim->tokens_per_day)
    {
        lim->reason = "tokens_per_day";
        lim->retry_after = 86400 - now % 86400;
        rc = NGX_DECLINED;

    } else {
        slot->minute_count++;
        slot->tokens += lim->cost;
    }

    lim->remaining = lim->rpm > slot->minute_count
                     ? lim->rpm - slot->minute_count : 0;
    lim->tokens_used = slot->tokens;

    ngx_shmtx_unlock(&bmcf->shpool->mutex);

    return rc;
}
