/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The gateway's limits (spec section 8), per API key:
 *   rpm             requests per minute, cluster-wide: GCRA in Redis
 *   tokens_per_day  tokens the gateway processed, per UTC day, in Redis
 *   concurrent      requests in flight on this node, in shared memory
 * One Lua script checks both Redis limits and counts the request only
 * when it is allowed, so a refused request costs nothing.  When Redis is
 * unavailable the node-local window of the shared memory zone applies.
 */


#include "ngx_http_behave_limits.h"
#include "ngx_http_behave_meter.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_util.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_redis_script.h"
#include "ngx_http_behave_gw_limits_lua.h"         /* gw_limits.lua */


/* a day's token count outlives its UTC day by one, for late readers */
#define NGX_HTTP_BEHAVE_TOKENS_TTL  (2 * NGX_HTTP_BEHAVE_DAY)


typedef struct {
    ngx_http_request_t         *request;
    u_char                      id[24];
} ngx_http_behave_release_t;


static void ngx_http_behave_limits_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason);
static void ngx_http_behave_limits_local(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);
static void ngx_http_behave_limits_release(void *data);


/*
 * NGX_OK: decided now (gw->limit.reason says whether refused);
 * NGX_DONE: gw->limited_handler runs when Redis answers.
 */

ngx_int_t
ngx_http_behave_limits_check(ngx_http_request_t *r, ngx_http_behave_gw_t *gw)
{
    u_char                        *p, *q;
    time_t                         now;
    ngx_time_t                    *tp;
    const char                    *reason;
    ngx_pool_cleanup_t            *cln;
    ngx_http_behave_release_t     *rel;
    ngx_http_behave_redis_args_t   a;

    ngx_sprintf(gw->limit_id, "key:%*xs%Z", (size_t) 8, gw->key->hash);

    /* concurrency: this node's count, given back when the request ends */
    if (ngx_http_behave_meter_concurrency(r, (char *) gw->limit_id, 1,
                                          gw->limit.concurrent)
        != NGX_OK)
    {
        gw->limit.reason = "concurrent";
        gw->limit.retry_after = 1;
        gw->limit.source = "local";
        gw->limit.remaining = 0;
        gw->limit.reset = 1;
        return NGX_OK;
    }

    /*
     * The place is given back when the request is freed; the cleanup
     * keeps its own copy of the id, because an internal redirect (an
     * error_page) clears the module context that holds gw.
     */
    cln = ngx_pool_cleanup_add(r->pool, sizeof(ngx_http_behave_release_t));
    if (cln == NULL) {
        ngx_http_behave_meter_concurrency(r, (char *) gw->limit_id, -1, 0);
        return NGX_ERROR;
    }

    rel = cln->data;
    rel->request = r;
    ngx_memcpy(rel->id, gw->limit_id, sizeof(rel->id));
    cln->handler = ngx_http_behave_limits_release;

    if (!ngx_http_behave_redis_configured(r) || gw->limit.rpm == 0) {
        ngx_http_behave_limits_local(r, gw);
        return NGX_OK;
    }

    /* the two keys, each with the limit id (24 bytes at most) */
    p = ngx_pnalloc(r->pool, sizeof(NGX_HTTP_BEHAVE_KEY_RATE)
                             + sizeof(NGX_HTTP_BEHAVE_KEY_TOKENS)
                             + 2 * sizeof(gw->limit_id) + NGX_TIME_T_LEN);
    if (p == NULL) {
        return NGX_ERROR;
    }

    tp = ngx_timeofday();
    now = tp->sec;

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_gw_limits_script);

    q = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_RATE, gw->limit_id);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_GW_LIMITS_KEY_RATE,
                              (char *) p, q - p);

    p = ngx_sprintf(q, NGX_HTTP_BEHAVE_KEY_TOKENS, gw->limit_id,
                    now / NGX_HTTP_BEHAVE_DAY);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_GW_LIMITS_KEY_TOKENS,
                              (char *) q, p - q);

    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_GW_LIMITS_ARG_NOW,
                                  (int64_t) now * 1000 + tp->msec);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_GW_LIMITS_ARG_RPM,
                                  gw->limit.rpm);
    ngx_http_behave_redis_put_num(&a,
                                  NGX_HTTP_BEHAVE_GW_LIMITS_ARG_TOKENS_PER_DAY,
                                  gw->limit.tokens_per_day);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_GW_LIMITS_ARG_COST,
                                  gw->limit.cost);

    /* when refused for tokens: the seconds to UTC midnight */
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_GW_LIMITS_ARG_TO_MIDNIGHT,
                                  NGX_HTTP_BEHAVE_DAY
                                  - now % NGX_HTTP_BEHAVE_DAY);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_GW_LIMITS_ARG_TOKENS_TTL,
                                  NGX_HTTP_BEHAVE_TOKENS_TTL);

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave gateway: limits of \"%s\": %ui rpm, cost %ui",
                   gw->limit_id, (ngx_uint_t) gw->limit.rpm,
                   (ngx_uint_t) gw->limit.cost);

    if (ngx_http_behave_redis_run(r, &a, ngx_http_behave_limits_reply, gw,
                                  &reason)
        != NGX_OK)
    {
        ngx_http_behave_limits_local(r, gw);
        return NGX_OK;
    }

    return NGX_DONE;
}


static void
ngx_http_behave_limits_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    ngx_uint_t             i;
    redisReply           **e;
    ngx_http_behave_gw_t  *gw = data;

    if (reply == NULL || reply->type != REDIS_REPLY_ARRAY
        || reply->elements != 6)
    {
        ngx_http_behave_redis_log_degraded(r, "gateway limits",
                                           reason ? reason : "bad reply");
        ngx_http_behave_limits_local(r, gw);
        gw->limited_handler(r, gw);
        return;
    }

    e = reply->element;

    for (i = 0; i < 5; i++) {
        if (e[i]->type != REDIS_REPLY_INTEGER) {
            ngx_http_behave_limits_local(r, gw);
            gw->limited_handler(r, gw);
            return;
        }
    }

    gw->limit.source = "shared";
    gw->limit.remaining = (ngx_uint_t) ngx_max(e[1]->integer, 0);
    gw->limit.reset = (time_t) e[2]->integer;
    gw->limit.retry_after = (time_t) e[3]->integer;
    gw->limit.tokens_used = (uint64_t) e[4]->integer;

    if (e[0]->integer == 0) {
        gw->limit.reason = (e[5]->type == REDIS_REPLY_STRING
                            && ngx_strcmp(e[5]->str, "rpm") == 0)
                           ? "rpm" : "tokens_per_day";

        if (gw->limit.retry_after < 1) {
            gw->limit.retry_after = 1;
        }
    }

    gw->limited_handler(r, gw);
}


static void
ngx_http_behave_limits_local(ngx_http_request_t *r, ngx_http_behave_gw_t *gw)
{
    gw->limit.source = "local";
    (void) ngx_http_behave_meter_window(r, (char *) gw->limit_id, &gw->limit);
}


/* the pool is being destroyed, but the request structure is still there */

static void
ngx_http_behave_limits_release(void *data)
{
    ngx_http_behave_release_t  *rel = data;

    (void) ngx_http_behave_meter_concurrency(rel->request, (char *) rel->id,
                                             -1, 0);
}


/* RateLimit-* on every gateway answer (draft-ietf-httpapi-ratelimit) */

ngx_int_t
ngx_http_behave_limits_headers(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw)
{
    u_char  *limit, *remaining, *reset;

    if (gw->limit.source == NULL) {
        return NGX_OK;
    }

    limit = ngx_pnalloc(r->pool, 3 * (NGX_INT_T_LEN + 1));
    if (limit == NULL) {
        return NGX_ERROR;
    }

    remaining = ngx_sprintf(limit, "%ui%Z", gw->limit.rpm);
    reset = ngx_sprintf(remaining, "%ui%Z", gw->limit.remaining);
    (void) ngx_sprintf(reset, "%T%Z", gw->limit.reset);

    if (ngx_http_behave_add_header(r, "RateLimit-Limit", (char *) limit)
        != NGX_OK
        || ngx_http_behave_add_header(r, "RateLimit-Remaining",
                                      (char *) remaining)
           != NGX_OK
        || ngx_http_behave_add_header(r, "RateLimit-Reset", (char *) reset)
           != NGX_OK)
    {
        return NGX_ERROR;
    }

    return NGX_OK;
}
