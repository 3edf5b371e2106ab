/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The conversation step of /v1/analyze: one Redis script appends the
 * turn's text to the log, pushes its compact record into the
 * conversation's state and returns the state as it was before; the core
 * assesses the turn from that state (src/core/conversation/
 * behave_conv_state.h).  What a turn reads back is the same ~1.5 KB
 * however long the conversation is.
 *
 * Two keys per tenant and conversation (ngx_http_behave_redis_keys.h),
 * their hash tag naming the conversation so that both land in one Redis
 * Cluster slot:
 *
 *     behave:{<tenant>:<conversation_id>}:log     the text, per turn
 *     behave:{<tenant>:<conversation_id>}:state   the state, then the
 *                                                 review's filing mark
 *
 * A flagged turn files the conversation's review (a second script: the
 * queue's keys are in the tenant's slot, not this one) only when the
 * mark, read back with the state, says the review changed or is a
 * minute old (behave_review_mark_due()); the mark is written once that
 * filing succeeded, so a lost filing is tried again at the next flagged
 * turn, and a conversation without a mark (an older build's, or one
 * marked reviewed since: the PATCH takes it off) files at its next one.
 *
 * A conversation written by an older build has a log and no state, or a
 * state of an older version ("s1"): the script then returns the log
 * instead, the state is recomputed from it once (the same fold as
 * behave_conversation_assess()) and sent with the turn again as the
 * seed, used only if the state is still missing or older (an "s1"
 * state's tail, the review's mark, is kept).
 */


#include "ngx_http_behave_conversation.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_redis_script.h"
#include "ngx_http_behave_review_index.h"
#include "ngx_http_behave_conv_turn_lua.h"      /* conv_turn.lua */

#include "analyze/behave_request.h"          /* BEHAVE_CONVERSATION_ID_MAX */
#include "reviews/behave_review.h"
#include "conversation/behave_turn_log.h"


static void ngx_http_behave_conversation_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_conversation_send(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, const char **reason);
static behave_conv_result_t *ngx_http_behave_conversation_assess(
    ngx_http_request_t *r, ngx_http_behave_conv_t *conv, redisReply *reply);
static ngx_int_t ngx_http_behave_conversation_upgrade(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, redisReply *reply);
static ngx_int_t ngx_http_behave_conversation_degraded(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, const char *reason);
static behave_conv_result_t *ngx_http_behave_conversation_block(
    ngx_http_request_t *r, const char *reason);
static void ngx_http_behave_conversation_review(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, const behave_conv_result_t *res);


ngx_int_t
ngx_http_behave_conversation_start(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv)
{
    u_char      *p, *rec;
    size_t       rec_len, room;
    ngx_time_t  *tp;
    const char  *reason;

    if (!ngx_http_behave_redis_configured(r)) {
        return ngx_http_behave_conversation_degraded(r, conv,
                   "conversation storage is not configured (behave_redis)");
    }

    room = sizeof(NGX_HTTP_BEHAVE_KEY_CONV_STATE) + BEHAVE_TENANT_MAX
           + BEHAVE_CONVERSATION_ID_MAX;

    p = ngx_pnalloc(r->pool, 2 * room);
    if (p == NULL) {
        return NGX_ERROR;
    }

    conv->key.data = p;
    conv->key.len = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_CONVERSATION,
                                conv->tenant, conv->conversation_id)
                    - p;

    p += room;
    conv->state_key.data = p;
    conv->state_key.len = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_CONV_STATE,
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

    conv->log_record.data = rec;
    conv->log_record.len = rec_len;

    /* what later turns need of it, derived before Redis (pure core) */
    behave_conversation_record(&conv->turn, &conv->rec);
    behave_conv_rec_encode(&conv->rec, conv->rec_enc);

    if (ngx_http_behave_conversation_send(r, conv, &reason) != NGX_OK) {
        return ngx_http_behave_conversation_degraded(r, conv, reason);
    }

    return NGX_DONE;
}


/* the script with the turn, and the seed when upgrading */
static ngx_int_t
ngx_http_behave_conversation_send(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, const char **reason)
{
    int                            customer;
    ngx_http_behave_loc_conf_t    *blcf;
    ngx_http_behave_redis_args_t   a;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);
    customer = conv->rec.customer;

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_conv_turn_script);

    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_CONV_TURN_KEY_LOG,
                                  &conv->key);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_CONV_TURN_KEY_STATE,
                                  &conv->state_key);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_CONV_TURN_ARG_RECORD,
                                  &conv->log_record);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_CONV_TURN_ARG_TTL,
                                  blcf->conversation_ttl);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_CONV_TURN_ARG_SPEAKER,
                              customer ? "c" : "a", 1);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_CONV_TURN_ARG_SEVERITY,
                                  conv->rec.severity);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_CONV_TURN_ARG_DENIES,
                              (conv->rec.flags & BEHAVE_CONV_F_DENIES)
                              ? "1" : "0", 1);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_CONV_TURN_ARG_CLAIM,
                                  conv->rec.claim);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_CONV_TURN_ARG_REC,
                              (const char *) conv->rec_enc,
                              customer ? BEHAVE_CONV_REC_SIZE : 0);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_CONV_TURN_ARG_MEANING,
                              (const char *) conv->rec.meaning,
                              customer ? BEHAVE_MEANING_DIM : 0);
    ngx_http_behave_redis_put_num(&a,
                                  NGX_HTTP_BEHAVE_CONV_TURN_ARG_MAX_TURNS,
                                  blcf->conversation_max_turns);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_CONV_TURN_ARG_SEED,
                              conv->seeded ? conv->seed : "",
                              conv->seeded ? conv->seed_len : 0);

    ngx_log_debug4(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave conversation: \"%V\" %s turn, severity %d%s",
                   &conv->state_key, customer ? "customer" : "agent",
                   conv->rec.severity, conv->seeded ? ", seeded" : "");

    return ngx_http_behave_redis_run(r, &a,
                                     ngx_http_behave_conversation_reply,
                                     conv, reason);
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

    } else if (reply->type == REDIS_REPLY_ARRAY && !conv->seeded) {
        if (ngx_http_behave_conversation_upgrade(r, conv, reply) == NGX_OK) {
            return;                 /* the turn is on its way again */
        }

        conv->result = ngx_http_behave_conversation_block(r,
                                                     "redis unavailable");

    } else {
        conv->result = ngx_http_behave_conversation_assess(r, conv, reply);
    }

    conv->done(r, conv);
}


/*
 * The state before this turn and its review's mark; an empty reply is a
 * new conversation, whose first turn has no block (spec 2.4: present
 * once history exists).
 */

static behave_conv_result_t *
ngx_http_behave_conversation_assess(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, redisReply *reply)
{
    size_t                 len;
    behave_conv_state_t   *st;
    behave_conv_result_t  *res;

    if (reply->type != REDIS_REPLY_STRING) {
        return ngx_http_behave_conversation_block(r, "unexpected reply");
    }

    if (reply->len == 0) {
        return NULL;
    }

    /* the state, then its tail: the review's mark, if any */
    len = behave_conv_state_size(reply->str, reply->len);
    conv->mark = reply->str + len;
    conv->mark_len = reply->len - len;

    st = ngx_palloc(r->pool, sizeof(behave_conv_state_t));
    res = ngx_palloc(r->pool, sizeof(behave_conv_result_t));

    if (st == NULL || res == NULL) {
        return ngx_http_behave_conversation_block(r, "out of memory");
    }

    if (len == 0 || behave_conv_state_decode(reply->str, len, st) != 0) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: redis \"%V\": not a conversation state",
                      &conv->state_key);
        return ngx_http_behave_conversation_block(r, "redis error");
    }

    behave_conversation_assess_state(st, &conv->rec, res);

    if (behave_review_wanted(res->review_status)) {
        ngx_http_behave_conversation_review(r, conv, res);
    }

    return res;
}


/*
 * needs_review or escalated: the review queue gets the conversation, if
 * its mark says the review changed or is due again (behave_review.h)
 */
static void
ngx_http_behave_conversation_review(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, const behave_conv_result_t *res)
{
    char                         mark[BEHAVE_REVIEW_MARK_LEN + 1];
    uint32_t                     fp;
    int64_t                      refresh;
    unsigned                     findings;
    ngx_time_t                  *tp;
    behave_review_rec_t         *rec;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);
    tp = ngx_timeofday();

    /* with behave_redact on, the text stored was the redacted one */
    fp = behave_review_conv_fingerprint(res, (int) blcf->redact, &findings);
    refresh = behave_review_mark_refresh(blcf->conversation_ttl);

    if (!behave_review_mark_due(conv->mark, conv->mark_len, fp, findings,
                                tp->sec, refresh))
    {
        return;
    }

    rec = ngx_palloc(r->pool, sizeof(behave_review_rec_t));
    if (rec == NULL) {
        return;
    }

    if (behave_review_rec_conv(rec, res, conv->conversation_id,
                               res->prior_turns + 1, (int) blcf->redact,
                               (int64_t) tp->sec * 1000 + tp->msec)
        != 0)
    {
        return;
    }

    behave_review_mark_make(mark, conv->mark, conv->mark_len, fp, findings,
                            tp->sec);

    ngx_http_behave_review_file(r, conv->tenant, rec,
                                blcf->conversation_ttl, &conv->state_key,
                                mark);
}


/*
 * An older build's log and no state, or an older state ("s1"): the state
 * of every turn the log holds (those trimmed off before are counted, not
 * seen), sent back as the seed.
 */

static ngx_int_t
ngx_http_behave_conversation_upgrade(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv, redisReply *reply)
{
    size_t                i, n;
    uint64_t              first;
    const char           *reason;
    redisReply           *v;
    behave_turn_t        *turns;
    behave_turn_log_t     log;
    behave_conv_rec_t     rec;
    behave_conv_state_t  *st;

    if (reply->elements != 1 || reply->element[0]->type != REDIS_REPLY_STRING)
    {
        return NGX_ERROR;
    }

    v = reply->element[0];
    behave_turn_log_open(&log, v->str, v->len);

    turns = ngx_palloc(r->pool, (log.records + 1) * sizeof(behave_turn_t));
    st = ngx_palloc(r->pool, sizeof(behave_conv_state_t));
    conv->seed = ngx_pnalloc(r->pool, BEHAVE_CONV_STATE_MAX);

    if (turns == NULL || st == NULL || conv->seed == NULL) {
        return NGX_ERROR;
    }

    n = behave_turn_log_tail(&log, log.records, turns, &first);

    behave_conv_state_init(st);
    st->turns = (uint32_t) first;
    st->dropped = (uint32_t) log.dropped;

    for (i = 0; i < n; i++) {
        behave_conversation_record(&turns[i], &rec);
        behave_conv_state_push(st, &rec);
    }

    /* records that did not decode still count as turns */
    st->turns = (uint32_t) (log.dropped + log.records);

    conv->seed_len = behave_conv_state_encode(st, conv->seed);
    conv->seeded = 1;

    ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                  "behave: conversation \"%V\" upgraded from its log "
                  "(%uz turns)", &conv->key, n);

    return ngx_http_behave_conversation_send(r, conv, &reason);
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
