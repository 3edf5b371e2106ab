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


#include "ngx_http_behave_analyze.h"
#include "ngx_http_behave_redis.h"

#include "behave_conversation.h"
#include "behave_review.h"
#include "behave_turn.h"
#include "behave_turn_log.h"


#define NGX_HTTP_BEHAVE_CONV_KEY  "behave:{%s:%s}:log"


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
    ngx_http_request_t *r, ngx_http_behave_analyze_t *an, redisReply *reply);
static behave_conv_result_t *ngx_http_behave_conversation_degraded(
    ngx_http_request_t *r, ngx_http_behave_analyze_t *an, const char *reason);
static void ngx_http_behave_conversation_turn(ngx_http_behave_analyze_t *an,
    behave_turn_t *turn);
static void ngx_http_behave_conversation_trim(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const behave_turn_log_t *log, size_t max);
static void ngx_http_behave_conversation_trimmed(redisReply *reply,
    void *data);
static void ngx_http_behave_conversation_review(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const behave_conv_result_t *res);


ngx_int_t
ngx_http_behave_conversation_start(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an)
{
    u_char                      *p, *ttl, *rec;
    size_t                       len[8], ttl_len, rec_len;
    const char                  *argv[8], *reason;
    behave_turn_t                turn;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_loc_conf_t  *blcf;

    static const int             argc[3] = { 2, 3, 3 };

    if (!ngx_http_behave_redis_configured(r)) {
        return ngx_http_behave_analyze_respond(r, an,
                   ngx_http_behave_conversation_degraded(r, an,
                       "conversation storage is not configured "
                       "(behave_redis)"));
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    /* the key and the TTL, in the request pool */
    p = ngx_pnalloc(r->pool, sizeof(NGX_HTTP_BEHAVE_CONV_KEY)
                             + BEHAVE_TENANT_MAX + BEHAVE_CONVERSATION_ID_MAX
                             + NGX_TIME_T_LEN);
    if (p == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    an->conv_key.data = p;
    p = ngx_sprintf(p, NGX_HTTP_BEHAVE_CONV_KEY, ctx->key->tenant,
                    an->req.conversation_id);
    an->conv_key.len = p - an->conv_key.data;

    ttl = p;
    p = ngx_sprintf(p, "%T", blcf->conversation_ttl);
    ttl_len = p - ttl;

    ngx_http_behave_conversation_turn(an, &turn);

    rec_len = behave_turn_encoded_max(&turn) + 1;
    rec = ngx_pnalloc(r->pool, rec_len);

    if (rec == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    rec_len = behave_turn_log_record((char *) rec,
                                     behave_turn_encode(&turn, (char *) rec,
                                                        rec_len),
                                     rec_len);
    if (rec_len == 0) {
        return ngx_http_behave_analyze_respond(r, an,
                   ngx_http_behave_conversation_degraded(r, an,
                                                         "turn not storable"));
    }

    /* MULTI, GET key, APPEND key turn, EXPIRE key ttl, EXEC */
    argv[0] = "GET";
    len[0] = sizeof("GET") - 1;
    argv[2] = "APPEND";
    len[2] = sizeof("APPEND") - 1;
    argv[4] = (char *) rec;
    len[4] = rec_len;
    argv[5] = "EXPIRE";
    len[5] = sizeof("EXPIRE") - 1;
    argv[7] = (char *) ttl;
    len[7] = ttl_len;
    argv[1] = argv[3] = argv[6] = (char *) an->conv_key.data;
    len[1] = len[3] = len[6] = an->conv_key.len;

    if (ngx_http_behave_redis_multi(r, "redis.conversation-append", 3, argc,
                                    argv, len,
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
    behave_conv_result_t       *block;
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
 * EXEC answers [ GET, APPEND, EXPIRE ].  The first turn of a conversation
 * has no block (spec 2.4: present once history exists); undecodable
 * records are skipped, not fatal.
 */

static behave_conv_result_t *
ngx_http_behave_conversation_assess(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, redisReply *reply)
{
    size_t                       max, n;
    uint64_t                     first;
    redisReply                  *v;
    behave_turn_t               *turns, current;
    behave_turn_log_t            log;
    behave_conv_result_t        *res;
    ngx_http_behave_loc_conf_t  *blcf;

    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 3) {
        return ngx_http_behave_conversation_degraded(r, an,
                                                     "unexpected reply");
    }

    v = reply->element[0];

    if (v->type == REDIS_REPLY_NIL) {
        return NULL;
    }

    if (v->type != REDIS_REPLY_STRING) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: redis \"%V\": %s", &an->conv_key,
                      v->type == REDIS_REPLY_ERROR ? v->str
                                                   : "not a turn log");
        return ngx_http_behave_conversation_degraded(r, an, "redis error");
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
        return ngx_http_behave_conversation_degraded(r, an, "out of memory");
    }

    n = behave_turn_log_tail(&log, max, turns, &first);

    ngx_http_behave_conversation_turn(an, &current);
    behave_conversation_assess_at(turns, n, (size_t) first, &current, res);

    /* every turn before this one, beyond those read back too */
    res->prior_turns = (size_t) (log.dropped + log.records);

    ngx_http_behave_conversation_trim(r, an, &log, max);

    if (behave_review_wanted(res->review_status)) {
        ngx_http_behave_conversation_review(r, an, res);
    }

    return res;
}


/* needs_review or escalated: the review queue gets the conversation */
static void
ngx_http_behave_conversation_review(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const behave_conv_result_t *res)
{
    ngx_time_t                  *tp;
    behave_review_rec_t         *rec;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_loc_conf_t  *blcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    rec = ngx_palloc(r->pool, sizeof(behave_review_rec_t));
    if (rec == NULL) {
        return;
    }

    tp = ngx_timeofday();

    if (behave_review_rec_conv(rec, res, an->req.conversation_id,
                               res->prior_turns + 1, (int) an->redacted,
                               (int64_t) tp->sec * 1000 + tp->msec)
        != 0)
    {
        return;
    }

    ngx_http_behave_reviews_file(r, ctx->key->tenant, rec,
                                 blcf->conversation_ttl);
}


/* past max + max / 2 turns the front goes, in the background */
static void
ngx_http_behave_conversation_trim(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const behave_turn_log_t *log, size_t max)
{
    u_char      *p;
    size_t       len[7], guard, cut, hlen;
    const char  *argv[7];
    char         header[BEHAVE_TURN_LOG_HEADER_MAX];

    if (!behave_turn_log_trim_args(log, max, &guard, &cut, header, &hlen)) {
        return;
    }

    p = ngx_pnalloc(r->pool, NGX_SIZE_T_LEN);
    if (p == NULL) {
        return;
    }

    argv[0] = "EVAL";
    len[0] = sizeof("EVAL") - 1;
    argv[1] = ngx_http_behave_conversation_trim_script;
    len[1] = sizeof(ngx_http_behave_conversation_trim_script) - 1;
    argv[2] = "1";
    len[2] = 1;
    argv[3] = (char *) an->conv_key.data;
    len[3] = an->conv_key.len;
    argv[4] = log->value;
    len[4] = guard;
    argv[5] = (char *) p;
    len[5] = ngx_sprintf(p, "%uz", cut) - p;
    argv[6] = header;
    len[6] = hlen;

    /* not trimmed now: the next turn past the mark tries again */
    (void) ngx_http_behave_redis_command_bg(7, argv, len,
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


static behave_conv_result_t *
ngx_http_behave_conversation_degraded(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const char *reason)
{
    behave_conv_result_t  *res;

    ngx_http_behave_redis_log_degraded(r, "conversation", reason);

    res = ngx_palloc(r->pool, sizeof(behave_conv_result_t));
    if (res != NULL) {
        behave_conversation_degraded(reason, res);
    }

    return res;
}
