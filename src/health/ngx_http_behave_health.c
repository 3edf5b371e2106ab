/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * "behave_health;": readiness, and with "live" liveness only, as small
 * JSON documents for load balancers and Kubernetes probes.  No key: like
 * behave_metrics and stub_status, the location is meant to be restricted
 * with allow/deny.  Nothing here touches a file or Redis: the key file's
 * age comes from its modification time read at configuration, the Redis
 * state from this worker's connection.
 */


#include "ngx_http_behave_common.h"
#include "ngx_http_behave_health.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_version.h"

#include "text/behave_annotate.h"


#define NGX_HTTP_BEHAVE_HEALTH_MAX  512


static ngx_int_t ngx_http_behave_health_send(ngx_http_request_t *r,
    ngx_uint_t status, u_char *buf, u_char *last);
static u_char *ngx_http_behave_health_keys(u_char *p, u_char *last,
    ngx_http_behave_loc_conf_t *blcf);


ngx_int_t
ngx_http_behave_health_handler(ngx_http_request_t *r)
{
    u_char                      *buf, *p, *last;
    ngx_uint_t                   status;
    const char                  *redis, *state;
    ngx_http_behave_loc_conf_t  *blcf;

    if (r->method != NGX_HTTP_GET && r->method != NGX_HTTP_HEAD) {
        return ngx_http_behave_method_not_allowed(r, "GET, HEAD");
    }

    if (ngx_http_discard_request_body(r) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    buf = ngx_pnalloc(r->pool, NGX_HTTP_BEHAVE_HEALTH_MAX);
    if (buf == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    last = buf + NGX_HTTP_BEHAVE_HEALTH_MAX;

    /* a worker that runs this code is alive: nothing else is asked */

    if (blcf->health & NGX_HTTP_BEHAVE_HEALTH_LIVE) {
        p = ngx_slprintf(buf, last, "{\"status\":\"live\",\"version\":\""
                         NGX_HTTP_BEHAVE_VERSION "\"}");
        return ngx_http_behave_health_send(r, NGX_HTTP_OK, buf, p);
    }

    /*
     * Without Redis the module answers in degraded mode (no conversation
     * context, node-local limits, no webhooks): still worth traffic unless
     * the operator said "strict", so a Redis outage does not take every
     * node out of the balancer at once.
     */

    status = NGX_HTTP_OK;
    state = "ready";

    if (!ngx_http_behave_redis_configured(r)) {
        redis = "not_configured";

    } else if (ngx_http_behave_redis_connected()) {
        redis = "connected";

    } else {
        redis = "disconnected";
        state = "degraded";

        if (blcf->health & NGX_HTTP_BEHAVE_HEALTH_STRICT) {
            state = "not_ready";
            status = NGX_HTTP_SERVICE_UNAVAILABLE;
        }
    }

    p = ngx_slprintf(buf, last, "{\"status\":\"%s\",\"version\":\""
                     NGX_HTTP_BEHAVE_VERSION "\",\"annotator\":\""
                     BEHAVE_FRAMEWORK "\",\"redis\":\"%s\",\"keys\":",
                     state, redis);
    p = ngx_http_behave_health_keys(p, last, blcf);
    p = ngx_slprintf(p, last, "}");

    return ngx_http_behave_health_send(r, status, buf, p);
}


/* the keys this location checks: how many, how old (never which) */

static u_char *
ngx_http_behave_health_keys(u_char *p, u_char *last,
    ngx_http_behave_loc_conf_t *blcf)
{
    time_t  now;

    if (blcf->keys == NULL) {
        return ngx_slprintf(p, last, "null");
    }

    now = ngx_time();

    return ngx_slprintf(p, last, "{\"count\":%ui,\"file_age_seconds\":%T,"
                        "\"loaded_seconds_ago\":%T}", blcf->keys->nelts,
                        ngx_max(now - blcf->keys_mtime, 0),
                        ngx_max(now - blcf->keys_loaded, 0));
}


static ngx_int_t
ngx_http_behave_health_send(ngx_http_request_t *r, ngx_uint_t status,
    u_char *buf, u_char *last)
{
    /* a probe must see this worker's state now, never a cached one */

    if (ngx_http_behave_add_header(r, "Cache-Control", "no-store")
        != NGX_OK)
    {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    return ngx_http_behave_send_json(r, status, buf, last - buf);
}


/* behave_health [live] [strict] */

char *
ngx_http_behave_health_options(ngx_conf_t *cf, ngx_uint_t *options)
{
    ngx_str_t   *value;
    ngx_uint_t   i;

    value = cf->args->elts;
    *options = 0;

    for (i = 1; i < cf->args->nelts; i++) {

        if (ngx_strcmp(value[i].data, "live") == 0) {
            *options |= NGX_HTTP_BEHAVE_HEALTH_LIVE;

        } else if (ngx_strcmp(value[i].data, "strict") == 0) {
            *options |= NGX_HTTP_BEHAVE_HEALTH_STRICT;

        } else {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "behave_health: unknown \"%V\" "
                               "(live, strict)", &value[i]);
            return NGX_CONF_ERROR;
        }
    }

    if (*options == (NGX_HTTP_BEHAVE_HEALTH_LIVE
                     | NGX_HTTP_BEHAVE_HEALTH_STRICT))
    {
        return "takes \"live\" or \"strict\", not both";
    }

    return NGX_CONF_OK;
}
