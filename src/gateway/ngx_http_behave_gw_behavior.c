/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * analyze-behavior with history: each call is analysed over everything
 * the session did so far, from a state of a few KB whatever the
 * session's length (src/core/gateway/behave_gw_session.h).  One script
 * appends this call's events, encoded by the core, to the state and
 * returns the state as it was before; the core applies the batches the
 * state holds and this one, and answers.  Now and then (the core says
 * when) the state is written back folded, in the background, with a
 * compare-and-set on its first bytes: a call that lost it costs only
 * speed, never an event.
 *
 *     behave:beh:{<tenant>:<sha256(session_id), 16 hex>}:s   the state
 *     behave:beh:{<tenant>:<sha256(session_id), 16 hex>}     an older
 *         build's list of events: read once, folded into a state, gone
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
#include "behave_gw_session.h"        /* BEHAVE_GW_STATE_PREFIX */
#include "behave_webhook_parse.h"     /* behave_sha256_hex */


typedef struct {
    ngx_http_behave_gw_t   *gw;
    const char             *argv[6];
    size_t                  len[6];
    u_char                 *batch;
    size_t                  batch_len;
    uint64_t                epoch;
    ngx_uint_t              seeded;
} ngx_http_behave_beh_t;


/*
 * KEYS: state, older list.  ARGV: 1 ttl, 2 this call's batch, 3 the
 * state to start with (empty, or seeded from the older list), 4 "1"
 * when 3 is a seed.  Returns the state before the batch, or the older
 * list when there is no state and no seed yet.
 */
static ngx_http_behave_redis_script_t  ngx_http_behave_beh_script = {
    "redis.behavior-append",
    "local s = redis.call('GET', KEYS[1])\n"
    "if not s then\n"
    "  if ARGV[4] ~= '1' and redis.call('EXISTS', KEYS[2]) == 1 then\n"
    "    return redis.call('LRANGE', KEYS[2], 0, -1)\n"
    "  end\n"
    "  s = ARGV[3]\n"
    "  redis.call('SET', KEYS[1], s .. ARGV[2], 'EX', ARGV[1])\n"
    "  if ARGV[4] == '1' then redis.call('DEL', KEYS[2]) end\n"
    "  return s\n"
    "end\n"
    "redis.call('APPEND', KEYS[1], ARGV[2])\n"
    "redis.call('EXPIRE', KEYS[1], ARGV[1])\n"
    "return s\n",
    ""
};


/*
 * The background rewrite.  KEYS: state.  ARGV: 1 the first bytes of the
 * state as read, 2 how many bytes the new blob replaces, 3 the blob.
 */
static const char  ngx_http_behave_beh_rewrite[] =
    "local s = redis.call('GET', KEYS[1])\n"
    "local n = tonumber(ARGV[2])\n"
    "if not s or #s < n or string.sub(s, 1, #ARGV[1]) ~= ARGV[1] then\n"
    "  return 0\n"
    "end\n"
    "redis.call('SET', KEYS[1], ARGV[3] .. string.sub(s, n + 1), 'KEEPTTL')\n"
    "return 1\n";


static ngx_int_t ngx_http_behave_beh_send(ngx_http_request_t *r,
    ngx_http_behave_beh_t *b, const char **reason);
static void ngx_http_behave_beh_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_beh_seed(ngx_http_request_t *r,
    ngx_http_behave_beh_t *b, redisReply *reply);
static ngx_int_t ngx_http_behave_beh_compute(ngx_http_request_t *r,
    ngx_http_behave_beh_t *b, redisReply *state, const char *history);
static void ngx_http_behave_beh_rewrite_send(ngx_http_behave_beh_t *b,
    redisReply *state, behave_gw_rewrite_t *rw);
static void ngx_http_behave_beh_noop(redisReply *reply, void *data);


void
ngx_http_behave_behavior_init(void)
{
    ngx_http_behave_redis_script_init(&ngx_http_behave_beh_script);
}


/*
 * The request is validated before anything is stored: a request the core
 * refuses touches no Redis, and what is stored is the core's encoding of
 * the events (behave_gw_behavior_batch()), never the client's JSON.
 */

ngx_int_t
ngx_http_behave_behavior_start(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw)
{
    char                         digest[BEHAVE_SHA256_HEX_SIZE];
    char                        *batch, *blob;
    u_char                      *p;
    cJSON                       *sid;
    size_t                       len, blob_len;
    ngx_int_t                    rc;
    const char                  *reason;
    behave_error_t               err;
    ngx_http_behave_beh_t       *b;
    ngx_http_behave_loc_conf_t  *blcf;

    b = ngx_pcalloc(r->pool, sizeof(ngx_http_behave_beh_t));
    if (b == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    b->gw = gw;
    b->epoch = (uint64_t) gw->now_ms;

    if (behave_gw_behavior_batch(gw->req, &batch, &len, &err) != BEHAVE_OK) {
        return ngx_http_behave_send_error(r, &err);
    }

    b->batch = ngx_pnalloc(r->pool, len);
    if (b->batch == NULL) {
        free(batch);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_memcpy(b->batch, batch, len);
    b->batch_len = len;
    free(batch);

    if (!ngx_http_behave_redis_configured(r)) {
        return ngx_http_behave_beh_compute(r, b, NULL, "request_only");
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);
    sid = cJSON_GetObjectItemCaseSensitive(gw->req, "session_id");

    blob = behave_gw_behavior_new_state(b->epoch, &blob_len);
    p = ngx_pnalloc(r->pool, 2 * (sizeof(NGX_HTTP_BEHAVE_KEY_BEHAVIOR_STATE)
                                  + BEHAVE_TENANT_MAX + 16)
                             + NGX_TIME_T_LEN + (blob ? blob_len : 0));

    if (blob == NULL || p == NULL) {
        free(blob);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* validated: a string of 1..128 bytes without NUL */
    behave_sha256_hex(sid->valuestring, ngx_strlen(sid->valuestring),
                      digest);

    b->argv[0] = (char *) p;
    p = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_BEHAVIOR_STATE, gw->key->tenant,
                    (size_t) 16, digest);
    b->len[0] = p - (u_char *) b->argv[0];

    b->argv[1] = (char *) p;
    p = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_BEHAVIOR, gw->key->tenant,
                    (size_t) 16, digest);
    b->len[1] = p - (u_char *) b->argv[1];

    b->argv[2] = (char *) p;
    p = ngx_sprintf(p, "%T", blcf->conversation_ttl);
    b->len[2] = p - (u_char *) b->argv[2];

    b->argv[3] = (char *) b->batch;
    b->len[3] = b->batch_len;

    b->argv[4] = (char *) p;
    b->len[4] = blob_len;
    ngx_memcpy(p, blob, blob_len);
    free(blob);

    b->argv[5] = "0";
    b->len[5] = 1;

    rc = ngx_http_behave_beh_send(r, b, &reason);

    if (rc != NGX_OK) {
        ngx_http_behave_redis_log_degraded(r, "analyze-behavior", reason);
        return ngx_http_behave_beh_compute(r, b, NULL, "request_only");
    }

    return NGX_DONE;
}


static ngx_int_t
ngx_http_behave_beh_send(ngx_http_request_t *r, ngx_http_behave_beh_t *b,
    const char **reason)
{
    /* the command copies its arguments */
    return ngx_http_behave_redis_eval(r, &ngx_http_behave_beh_script, 2, 6,
                                      b->argv, b->len,
                                      ngx_http_behave_beh_reply, b, reason);
}


static void
ngx_http_behave_beh_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    ngx_http_behave_beh_t  *b = data;

    if (reply != NULL && reply->type == REDIS_REPLY_ARRAY && !b->seeded) {
        ngx_http_behave_finish(r, ngx_http_behave_beh_seed(r, b, reply));
        return;
    }

    if (reply == NULL || reply->type != REDIS_REPLY_STRING) {
        ngx_http_behave_redis_log_degraded(r, "analyze-behavior",
                                           reason ? reason : "bad reply");
        ngx_http_behave_finish(r,
            ngx_http_behave_beh_compute(r, b, NULL, "request_only"));
        return;
    }

    ngx_http_behave_finish(r,
        ngx_http_behave_beh_compute(r, b, reply, "session"));
}


/*
 * A session an older build stored as a list of JSON events: folded into
 * a state once, which the script stores with this call's batch (unless
 * another call got there first) and deletes the list.
 */
static ngx_int_t
ngx_http_behave_beh_seed(ngx_http_request_t *r, ngx_http_behave_beh_t *b,
    redisReply *reply)
{
    char        *blob;
    u_char      *p;
    size_t       i, len;
    cJSON       *prior, *e;
    const char  *reason;

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

    blob = prior ? behave_gw_behavior_seed(prior, b->epoch, &len) : NULL;
    cJSON_Delete(prior);

    p = blob ? ngx_pnalloc(r->pool, len) : NULL;

    if (p == NULL) {
        free(blob);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_memcpy(p, blob, len);
    free(blob);

    b->argv[4] = (char *) p;
    b->len[4] = len;
    b->argv[5] = "1";
    b->seeded = 1;

    if (ngx_http_behave_beh_send(r, b, &reason) != NGX_OK) {
        ngx_http_behave_redis_log_degraded(r, "analyze-behavior", reason);
        return ngx_http_behave_beh_compute(r, b, NULL, "request_only");
    }

    return NGX_DONE;
}


static ngx_int_t
ngx_http_behave_beh_compute(ngx_http_request_t *r, ngx_http_behave_beh_t *b,
    redisReply *state, const char *history)
{
    char                 *text;
    size_t                len;
    behave_err_e          rc;
    behave_error_t        err;
    behave_gw_rewrite_t   rw;

    rc = behave_gw_behavior_session_text(b->gw->req, b->gw->now_ms,
                                         state ? state->str : NULL,
                                         state ? state->len : 0,
                                         (char *) b->batch, b->batch_len,
                                         b->epoch, history, &text, &len,
                                         &rw, &err);

    if (rc != BEHAVE_OK) {
        return ngx_http_behave_send_error(r, &err);
    }

    if (rw.blob != NULL) {
        ngx_http_behave_beh_rewrite_send(b, state, &rw);
        free(rw.blob);
    }

    return ngx_http_behave_send_malloced(r, NGX_HTTP_OK, text, len);
}


static void
ngx_http_behave_beh_rewrite_send(ngx_http_behave_beh_t *b, redisReply *state,
    behave_gw_rewrite_t *rw)
{
    u_char       num[NGX_SIZE_T_LEN];
    size_t       len[7];
    const char  *argv[7];

    argv[0] = "EVAL";
    len[0] = 4;
    argv[1] = ngx_http_behave_beh_rewrite;
    len[1] = sizeof(ngx_http_behave_beh_rewrite) - 1;
    argv[2] = "1";
    len[2] = 1;
    argv[3] = b->argv[0];
    len[3] = b->len[0];
    argv[4] = state->str;
    len[4] = ngx_min(state->len, BEHAVE_GW_STATE_PREFIX);
    argv[5] = (char *) num;
    len[5] = ngx_sprintf(num, "%uz", rw->consumed) - num;
    argv[6] = rw->blob;
    len[6] = rw->len;

    /* shed when Redis is behind: the next call tries again */
    (void) ngx_http_behave_redis_command_bg(7, argv, len,
                                            ngx_http_behave_beh_noop, NULL);
}


static void
ngx_http_behave_beh_noop(redisReply *reply, void *data)
{
}
