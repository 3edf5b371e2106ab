/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The conversation step of /v1/analyze: one atomic Redis script appends
 * the turn and returns the turns before it, then the core assesses them.
 *
 * Keys are per tenant, with one hash tag per conversation so that both
 * keys of a conversation land in one Redis Cluster slot:
 *
 *     behave:{<tenant>:<conversation_id>}:turns   list of encoded turns
 *     behave:{<tenant>:<conversation_id>}:n       turns ever appended
 *
 * Tenants and ids are restricted to [A-Za-z0-9_.:@-], so neither can
 * close the hash tag or reach another tenant's keys.
 */


#include "ngx_http_behave_analyze.h"
#include "ngx_http_behave_redis.h"

#include "behave_conversation.h"
#include "behave_turn.h"


/*
 * Append and read in one step: two workers writing one conversation
 * never lose or duplicate a turn, and each sees the turns before its own.
 */
static ngx_http_behave_redis_script_t  ngx_http_behave_conversation_script = {
    "redis.conversation-append",
    "local max = tonumber(ARGV[2])\n"
    "local hist = redis.call('LRANGE', KEYS[1], -max, -1)\n"
    "local n = redis.call('INCR', KEYS[2])\n"
    "redis.call('RPUSH', KEYS[1], ARGV[1])\n"
    "redis.call('LTRIM', KEYS[1], -max, -1)\n"
    "redis.call('EXPIRE', KEYS[1], ARGV[3])\n"
    "redis.call('EXPIRE', KEYS[2], ARGV[3])\n"
    "return {n - 1, hist}\n",
    ""
};


static void ngx_http_behave_conversation_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static cJSON *ngx_http_behave_conversation_assess(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, redisReply *reply);
static cJSON *ngx_http_behave_conversation_degraded(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const char *reason);
static void ngx_http_behave_conversation_turn(ngx_http_behave_analyze_t *an,
    behave_turn_t *turn);


void
ngx_http_behave_conversation_init(void)
{
    ngx_http_behave_redis_script_init(&ngx_http_behave_conversation_script);
}


ngx_int_t
ngx_http_behave_conversation_start(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an)
{
    u_char                      *p;
    size_t                       len[5];
    const char                  *argv[5], *reason;
    behave_turn_t                turn;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_loc_conf_t  *blcf;

    if (!ngx_http_behave_redis_configured(r)) {
        return ngx_http_behave_analyze_respond(r, an,
                   ngx_http_behave_conversation_degraded(r, an,
                       "conversation storage is not configured "
                       "(behave_redis)"));
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    /* keys, the encoded turn, max turns and TTL, all in the request pool */
    p = ngx_pnalloc(r->pool, 2 * (sizeof("behave:{:}:turns") - 1
                                  + BEHAVE_TENANT_MAX
                                  + BEHAVE_CONVERSATION_ID_MAX)
                             + 2 * NGX_INT_T_LEN);
    if (p == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    argv[0] = (char *) p;
    p = ngx_sprintf(p, "behave:{%s:%s}:turns", ctx->key->tenant,
                    an->req.conversation_id);
    len[0] = p - (u_char *) argv[0];

    argv[1] = (char *) p;
    p = ngx_sprintf(p, "behave:{%s:%s}:n", ctx->key->tenant,
                    an->req.conversation_id);
    len[1] = p - (u_char *) argv[1];

    argv[3] = (char *) p;
    p = ngx_sprintf(p, "%ui", blcf->conversation_max_turns);
    len[3] = p - (u_char *) argv[3];

    argv[4] = (char *) p;
    p = ngx_sprintf(p, "%T", blcf->conversation_ttl);
    len[4] = p - (u_char *) argv[4];

    ngx_http_behave_conversation_turn(an, &turn);

    len[2] = behave_turn_encoded_max(&turn);
    argv[2] = ngx_pnalloc(r->pool, len[2]);

    if (argv[2] == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    len[2] = behave_turn_encode(&turn, (char *) argv[2], len[2]);

    if (ngx_http_behave_redis_eval(r, &ngx_http_behave_conversation_script,
                                   2, 5, argv, len,
                                   ngx_http_behave_conversation_reply, an,
                                   &reason)
        != NGX_OK)
    {
        return ngx_http_behave_analyze_respond(r, an,
                   ngx_http_behave_conversation_degraded(r, an, reason));
    }

    return NGX_DONE;
}


static void
ngx_http_behave_conversation_turn(ngx_http_behave_analyze_t *an,
    behave_turn_t *turn)
{
    ngx_time_t  *tp;

    tp = ngx_timeofday();

    behave_turn_from_annotation(turn, an->req.speaker, an->text,
                                an->text_len, &an->ann,
                                (uint64_t) tp->sec * 1000 + tp->msec);
}


static void
ngx_http_behave_conversation_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    cJSON                      *block;
    ngx_http_behave_analyze_t  *an = data;

    if (reply == NULL) {
        block = ngx_http_behave_conversation_degraded(r, an, reason);

    } else if (reply->type == REDIS_REPLY_ERROR) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: redis script error: %s", reply->str);
        block = ngx_http_behave_conversation_degraded(r, an,
                                                      "redis error");

    } else {
        block = ngx_http_behave_conversation_assess(r, an, reply);
    }

    ngx_http_finalize_request(r,
                              ngx_http_behave_analyze_respond(r, an, block));
}


/*
 * The first turn of a conversation has no block (spec 2.4: present once
 * history exists); undecodable entries are skipped, not fatal.
 */

static cJSON *
ngx_http_behave_conversation_assess(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, redisReply *reply)
{
    size_t                       i, n;
    redisReply                  *hist, *e;
    behave_turn_t               *turns, current;
    behave_conv_result_t         res;

    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2
        || reply->element[0]->type != REDIS_REPLY_INTEGER
        || reply->element[1]->type != REDIS_REPLY_ARRAY)
    {
        return ngx_http_behave_conversation_degraded(r, an,
                                                     "unexpected reply");
    }

    if (reply->element[0]->integer <= 0) {
        return NULL;
    }

    hist = reply->element[1];

    turns = ngx_palloc(r->pool, (hist->elements + 1) * sizeof(behave_turn_t));
    if (turns == NULL) {
        return ngx_http_behave_conversation_degraded(r, an, "out of memory");
    }

    n = 0;

    for (i = 0; i < hist->elements; i++) {
        e = hist->element[i];

        if (e->type == REDIS_REPLY_STRING
            && behave_turn_decode(e->str, e->len, &turns[n]) == 0)
        {
            n++;
        }
    }

    ngx_http_behave_conversation_turn(an, &current);
    behave_conversation_assess(turns, n, &current, &res);

    res.prior_turns = (size_t) reply->element[0]->integer;

    return behave_conversation_to_json(&res, an->req.conversation_id,
                                       an->redacted);
}


static cJSON *
ngx_http_behave_conversation_degraded(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const char *reason)
{
    behave_conv_result_t  res;

    ngx_http_behave_redis_log_degraded(r, "conversation", reason);

    behave_conversation_degraded(reason, &res);

    return behave_conversation_to_json(&res, an->req.conversation_id,
                                       an->redacted);
}
