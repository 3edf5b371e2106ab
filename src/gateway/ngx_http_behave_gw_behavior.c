/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * analyze-behavior with history: a session's events accumulate in Redis,
 * so each call is analysed over everything the session did so far.  One
 * script appends this call's events and returns the earlier ones; the
 * core merges, de-duplicates (a retried call adds nothing) and analyses.
 *
 *     behave:beh:{<tenant>:<sha256(session_id), 16 hex>}   list of events
 *
 * Without Redis, or when it does not answer, the call is analysed alone
 * and says so in "history".
 */


#include "ngx_http_behave_gw_behavior.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_util.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_keys.h"

#include "behave_json.h"
#include "behave_gateway.h"
#include "behave_webhook_parse.h"     /* behave_sha256_hex */


#define NGX_HTTP_BEHAVE_BEH_KEEP       1000    /* events per session */
#define NGX_HTTP_BEHAVE_BEH_PER_CALL   1000    /* events stored per call */


static ngx_http_behave_redis_script_t  ngx_http_behave_beh_script = {
    "redis.behavior-append",
    "local prior = redis.call('LRANGE', KEYS[1], 0, -1)\n"
    "if #ARGV > 2 then redis.call('RPUSH', KEYS[1], unpack(ARGV, 3)) end\n"
    "redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)\n"
    "redis.call('EXPIRE', KEYS[1], ARGV[1])\n"
    "return prior\n",
    ""
};


static void ngx_http_behave_beh_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_beh_compute(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw, cJSON *prior, const char *history);
static ngx_int_t ngx_http_behave_beh_args(cJSON *store, const char **argv,
    size_t *len);
static void ngx_http_behave_beh_args_free(const char **argv, int n);


void
ngx_http_behave_behavior_init(void)
{
    ngx_http_behave_redis_script_init(&ngx_http_behave_beh_script);
}


/*
 * The request is validated before anything is stored: a request the core
 * refuses touches no Redis, and what is stored is the core's reduced form
 * of the events (behave_gw_behavior_store()), never the client's JSON.
 */

ngx_int_t
ngx_http_behave_behavior_start(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw)
{
    int                          n;
    char                         digest[BEHAVE_SHA256_HEX_SIZE];
    u_char                      *p;
    cJSON                       *sid, *store;
    size_t                      *len;
    ngx_int_t                    rc;
    const char                 **argv, *reason;
    behave_error_t               err;
    ngx_http_behave_loc_conf_t  *blcf;

    if (!ngx_http_behave_redis_configured(r)) {
        return ngx_http_behave_beh_compute(r, gw, NULL, "request_only");
    }

    if (behave_gw_behavior_store(gw->req, NGX_HTTP_BEHAVE_BEH_PER_CALL,
                                 &store, &err)
        != BEHAVE_OK)
    {
        return ngx_http_behave_send_error(r, &err);
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);
    sid = cJSON_GetObjectItemCaseSensitive(gw->req, "session_id");

    n = cJSON_GetArraySize(store);

    argv = ngx_palloc(r->pool, (n + 3) * sizeof(char *));
    len = ngx_palloc(r->pool, (n + 3) * sizeof(size_t));
    p = ngx_pnalloc(r->pool, 64 + BEHAVE_TENANT_MAX + 2 * NGX_INT_T_LEN);

    if (argv == NULL || len == NULL || p == NULL) {
        cJSON_Delete(store);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* validated: a string of 1..128 bytes without NUL */
    behave_sha256_hex(sid->valuestring, ngx_strlen(sid->valuestring),
                      digest);

    argv[0] = (char *) p;
    p = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_BEHAVIOR, gw->key->tenant,
                    (size_t) 16, digest);
    len[0] = p - (u_char *) argv[0];

    argv[1] = (char *) p;
    p = ngx_sprintf(p, "%T", blcf->conversation_ttl);
    len[1] = p - (u_char *) argv[1];

    argv[2] = (char *) p;
    p = ngx_sprintf(p, "%d", NGX_HTTP_BEHAVE_BEH_KEEP);
    len[2] = p - (u_char *) argv[2];

    rc = ngx_http_behave_beh_args(store, argv + 3, len + 3);
    cJSON_Delete(store);

    if (rc != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* the command copies its arguments */
    rc = ngx_http_behave_redis_eval(r, &ngx_http_behave_beh_script, 1,
                                    n + 3, argv, len,
                                    ngx_http_behave_beh_reply, gw, &reason);

    ngx_http_behave_beh_args_free(argv + 3, n);

    if (rc != NGX_OK) {
        ngx_http_behave_redis_log_degraded(r, "analyze-behavior", reason);
        return ngx_http_behave_beh_compute(r, gw, NULL, "request_only");
    }

    return NGX_DONE;
}


/* each stored event as compact JSON, walking the list once */

static ngx_int_t
ngx_http_behave_beh_args(cJSON *store, const char **argv, size_t *len)
{
    int     i;
    cJSON  *e;

    i = 0;

    cJSON_ArrayForEach(e, store) {
        argv[i] = behave_json_print(e, &len[i]);

        if (argv[i] == NULL) {
            ngx_http_behave_beh_args_free(argv, i);
            return NGX_ERROR;
        }

        i++;
    }

    return NGX_OK;
}


static void
ngx_http_behave_beh_args_free(const char **argv, int n)
{
    while (n-- > 0) {
        free((char *) argv[n]);
    }
}


static void
ngx_http_behave_beh_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    size_t                 i;
    cJSON                 *prior, *e;
    ngx_http_behave_gw_t  *gw = data;

    if (reply == NULL || reply->type != REDIS_REPLY_ARRAY) {
        ngx_http_behave_redis_log_degraded(r, "analyze-behavior",
                                           reason ? reason : "bad reply");
        ngx_http_behave_finish(r,
            ngx_http_behave_beh_compute(r, gw, NULL, "request_only"));
        return;
    }

    prior = cJSON_CreateArray();

    for (i = 0; prior != NULL && i < reply->elements; i++) {
        if (reply->element[i]->type != REDIS_REPLY_STRING) {
            continue;
        }

        e = cJSON_ParseWithLength(reply->element[i]->str,
                                  reply->element[i]->len);
        if (e != NULL) {
            cJSON_AddItemToArray(prior, e);
        }
    }

    ngx_http_behave_finish(r,
        ngx_http_behave_beh_compute(r, gw, prior, "session"));

    cJSON_Delete(prior);
}


static ngx_int_t
ngx_http_behave_beh_compute(ngx_http_request_t *r, ngx_http_behave_gw_t *gw,
    cJSON *prior, const char *history)
{
    cJSON           *resp;
    behave_err_e     rc;
    behave_error_t   err;

    resp = NULL;
    rc = behave_gw_behavior(gw->req, prior, gw->now_ms, &resp, &err);

    if (rc != BEHAVE_OK) {
        cJSON_Delete(resp);
        return ngx_http_behave_send_error(r, &err);
    }

    cJSON_AddStringToObject(resp, "history", history);

    return ngx_http_behave_send_cjson(r, NGX_HTTP_OK, resp);
}
