/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The conversation step of /v1/analyze: one atomic Redis transaction
 * appends the turn and returns the turns before it, then the core assesses
 * them.
 *
 * A conversation is one key per tenant, a string in the turn log format
 * (src/core/conversation/behave_turn_log.h), its hash tag naming the conversation so
 * that everything of it lands in one Redis Cluster slot:
 *
 *     behave:{<tenant>:<conversation_id>}:log
 *
 * Tenants and ids are restricted to [A-Za-z0-9_.:@-], so neither can
 * close the hash tag or reach another tenant's keys.
 */


#include "ngx_http_behave_conversation.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_args.h"
#include "ngx_http_behave_redis_keys.h"

#include "behave_request.h"          /* BEHAVE_CONVERSATION_ID_MAX */
#include "behave_turn_log.h"


/*
 * Trims the front of a log, unless its front bytes are no longer those
 * the trimmer saw: another worker trimmed first, or the conversation
 * expired and began again.  Appends after the read are kept, as appends
 * only add at the end.  Rare (once per max / 2 turns): sent as EVAL.
 */
static const char  ngx_http_behave_conversation_trim_script[] =
    "if redis.call('GETRANGE', KEYS[1], 0, #ARGV[1] - 1) ~= ARGV[1] then\n"
    "  return 0\n"
    "end\n"
    "local rest = redis.call('GETRANGE', KEYS[1], ARGV[2], -1)\n"
    "redis.call('SET', KEYS[1], ARGV[3] .. rest, 'KEEPTTL')\n"
    "return 1\n";


static void ngx_http_behave_conversation_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static behave_conv_result_t *ngx_http_behave_conversation_assess(
    ngx_http_request_t *r, ngx_http_behave_conv_t *conv, redisReply *reply);
static ngx_int_t ngx_http_behave_conversation_degraded(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, const char *reason);
static behave_conv_result_t *ngx_http_behave_conversation_block(
    ngx_http_request_t *r, const char *reason);
static void ngx_http_behave_conversation_trim(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, const behave_turn_log_t *log, size_t max);
static void ngx_http_behave_conversation_trimmed(redisReply *reply,
    void *data);


ngx_int_t
ngx_http_behave_conversation_start(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv)
{
    u_char                        *p, *rec;
    size_t                         rec_len;
    ngx_time_t                    *tp;
    const char                    *reason;
    ngx_http_behave_loc_conf_t    *blcf;
    ngx_http_behave_redis_args_t   a;

    static const int               argc[3] = { 2, 3, 3 };

    if (!ngx_http_behave_redis_configured(r)) {
        return ngx_http_behave_conversation_degraded(r, conv,
                   "conversation storage is not configured (behave_redis)");
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    p = ngx_pnalloc(r->pool, sizeof(NGX_HTTP_BEHAVE_KEY_CONVERSATION)
                             + BEHAVE_TENANT_MAX + BEHAVE_CONVERSATION_ID_MAX);
    if (p == NULL) {
        return NGX_ERROR;
    }

    conv->key.data = p;
    conv->key.len = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_CONVERSATION,
                                conv->tenant, conv->conversation_id)
                    - p;

    /* this turn, once: what is stored is what is assessed */
    tp = ngx_timeofday();
    behave_turn_from_annotation(&conv->turn, conv->speaker, conv->text,
                                conv->text_len, conv->ann,
                                (uint64_t) tp->sec * 1000 + tp->msec);

    rec_len = behave_turn_encoded_max(&conv->turn) + 1;
    rec = ngx_pnalloc(r->pool, rec_len);

    if (rec == NULL) {
        return NGX_ERROR;
    }

    rec_len = behave_turn_log_record((char *) rec,
                                     behave_turn_encode(&conv->turn,
                                                        (char *) rec,
                                                        rec_len),
                                     rec_len);
    if (rec_len == 0) {
        return ngx_http_behave_conversation_degraded(r, conv,
                                                     "turn not storable");
    }

    /* MULTI, GET key, APPEND key turn, EXPIRE key ttl, EXEC */
    ngx_http_behave_redis_args_init(&a);
    ngx_http_behave_redis_arg_str(&a, "GET");
    ngx_http_behave_redis_arg_ngx(&a, &conv->key);
    ngx_http_behave_redis_arg_str(&a, "APPEND");
    ngx_http_behave_redis_arg_ngx(&a, &conv->key);
    ngx_http_behave_redis_arg(&a, (char *) rec, rec_len);
    ngx_http_behave_redis_arg_str(&a, "EXPIRE");
    ngx_http_behave_redis_arg_ngx(&a, &conv->key);
    ngx_http_behave_redis_arg_num(&a, blcf->conversation_ttl);

    if (ngx_http_behave_redis_multi(r, "redis.conversation-append", 3, argc,
                                    a.argv, a.len,
                                    ngx_http_behave_conversation_reply, conv,
                                    &reason)
        != NGX_OK)
    {
        return ngx_http_behave_conversation_degraded(r, conv, reason);
    }

    return NGX_DONE;
}


static void
ngx_http_behave_conversation_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    ngx_http_behave_conv_t  *conv = data;

    if (reply == NULL) {
        conv->result = ngx_http_behave_conversation_block(r, reason);

    } else if (reply->type == REDIS_REPLY_ERROR) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: redis script error: %s", reply->str);
        conv->result = ngx_http_behave_conversation_block(r, "redis error");

    } else {
        conv->result = ngx_http_behave_conversation_assess(r, conv, reply);
    }

    conv->done(r, conv);
}


/*
 * EXEC answers [ GET, APPEND, EXPIRE ].  The first turn of a conversation
 * has no block (spec 2.4: present once history exists); undecodable
 * records are skipped, not fatal.
 */

static behave_conv_result_t *
ngx_http_behave_conversation_assess(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, redisReply *reply)
{
    size_t                       max, n;
    uint64_t                     first;
    redisReply                  *v;
    behave_turn_t               *turns;
    behave_turn_log_t            log;
    behave_conv_result_t        *res;
    ngx_http_behave_loc_conf_t  *blcf;

    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 3) {
        return ngx_http_behave_conversation_block(r, "unexpected reply");
    }

    v = reply->element[0];

    if (v->type == REDIS_REPLY_NIL) {
        return NULL;
    }

    if (v->type != REDIS_REPLY_STRING) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: redis \"%V\": %s", &conv->key,
                      v->type == REDIS_REPLY_ERROR ? v->str
                                                   : "not a turn log");
        return ngx_http_behave_conversation_block(r, "redis error");
    }

    behave_turn_log_open(&log, v->str, v->len);

    if (log.records == 0 && log.dropped == 0) {
        return NULL;
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);
    max = blcf->conversation_max_turns;

    turns = ngx_palloc(r->pool,
                       ngx_min(log.records, max) * sizeof(behave_turn_t) + 1);
    res = ngx_palloc(r->pool, sizeof(behave_conv_result_t));

    if (turns == NULL || res == NULL) {
        return ngx_http_behave_conversation_block(r, "out of memory");
    }

    n = behave_turn_log_tail(&log, max, turns, &first);

    behave_conversation_assess_at(turns, n, (size_t) first, &conv->turn, res);

    /* every turn before this one, beyond those read back too */
    res->prior_turns = (size_t) (log.dropped + log.records);

    ngx_http_behave_conversation_trim(r, conv, &log, max);

    return res;
}


/* past max + max / 2 turns the front goes, in the background */
static void
ngx_http_behave_conversation_trim(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, const behave_turn_log_t *log, size_t max)
{
    size_t                         guard, cut, hlen;
    char                           header[BEHAVE_TURN_LOG_HEADER_MAX];
    ngx_http_behave_redis_args_t   a;

    if (!behave_turn_log_trim_args(log, max, &guard, &cut, header, &hlen)) {
        return;
    }

    ngx_http_behave_redis_args_init(&a);
    ngx_http_behave_redis_arg_str(&a, "EVAL");
    ngx_http_behave_redis_arg(&a, ngx_http_behave_conversation_trim_script,
                        sizeof(ngx_http_behave_conversation_trim_script) - 1);
    ngx_http_behave_redis_arg_str(&a, "1");
    ngx_http_behave_redis_arg_ngx(&a, &conv->key);
    ngx_http_behave_redis_arg(&a, log->value, guard);
    ngx_http_behave_redis_arg_num(&a, (int64_t) cut);
    ngx_http_behave_redis_arg(&a, header, hlen);

    /* not trimmed now: the next turn past the mark tries again */
    (void) ngx_http_behave_redis_command_bg(a.argc, a.argv, a.len,
                                      ngx_http_behave_conversation_trimmed,
                                      NULL);
}


static void
ngx_http_behave_conversation_trimmed(redisReply *reply, void *data)
{
    if (reply != NULL && reply->type == REDIS_REPLY_ERROR) {
        ngx_log_error(NGX_LOG_ERR, ngx_cycle->log, 0,
                      "behave: redis conversation trim: %s", reply->str);
    }
}


/* the degraded block for an answer sent now */

static ngx_int_t
ngx_http_behave_conversation_degraded(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, const char *reason)
{
    conv->result = ngx_http_behave_conversation_block(r, reason);

    return NGX_OK;
}


static behave_conv_result_t *
ngx_http_behave_conversation_block(ngx_http_request_t *r, const char *reason)
{
    behave_conv_result_t  *res;

    ngx_http_behave_redis_log_degraded(r, "conversation", reason);

    res = ngx_palloc(r->pool, sizeof(behave_conv_result_t));
    if (res != NULL) {
        behave_conversation_degraded(reason, res);
    }

    return res;
}
