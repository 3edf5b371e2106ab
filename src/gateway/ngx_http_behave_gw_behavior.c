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
 * Most calls read the hot state instead: the checkpoint of the full
 * state and the few events after it (a few hundred bytes, where the full
 * state is KBs), when the call's events pass its gate (they come after
 * the checkpoint and fit in its room); the batch is appended to both.
 * The full state is read when they do not, when the hot state is
 * missing, or when the full one grew too far behind it; such a call
 * writes both back.
 *
 *     behave:beh:{<tenant>:<sha256(session_id), 16 hex>}:s   the state
 *     behave:beh:{<tenant>:<sha256(session_id), 16 hex>}:h   the hot
 *         state: it expires no later than the state
 *     behave:beh:{<tenant>:<sha256(session_id), 16 hex>}     an older
 *         build's list of events: read once, folded into a state, gone
 *
 * Without Redis, or when it does not answer, the call is analysed alone
 * and says so in "history".
 */


#include "ngx_http_behave_gw_behavior.h"
#include "ngx_http_behave_offload.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_util.h"
#include "ngx_http_behave_redis_reply.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_redis_script.h"
#include "ngx_http_behave_beh_append_lua.h"        /* beh_append.lua */
#include "ngx_http_behave_beh_hot_rewrite_lua.h"   /* beh_hot_rewrite.lua */
#include "ngx_http_behave_beh_rewrite_lua.h"       /* beh_rewrite.lua */

#include "base/behave_json.h"
#include "gateway/behave_gateway.h"
#include "gateway/behave_gw_session.h"        /* BEHAVE_GW_STATE_PREFIX */
#include "base/behave_hash.h"             /* behave_sha256_hex */


typedef struct {
    ngx_http_behave_gw_t   *gw;
    ngx_http_behave_redis_args_t  args;     /* beh_append.lua's */
    char                    last_t[8];
    size_t                  last_t_len;     /* 8, or 0: no event */
    u_char                 *batch;
    size_t                  batch_len;
    uint64_t                epoch;
    ngx_uint_t              seeded;
    ngx_uint_t              fresh;
    uint64_t                ttl_key;        /* the state's, hashed */
    time_t                  ttl_at;         /* when the script was sent */
    time_t                  ttl;            /* behave_conversation_ttl */

    /* what the steps that may run in a thread read and write */
    char                   *made;           /* malloc()ed batch */
    int                     rc;             /* behave_err_e */
    behave_error_t          err;
    u_char                 *state;          /* the state read, copied */
    size_t                  state_len;
    const char             *history;
    behave_gw_rewrite_t     rw;
    char                   *out;            /* the answer, malloc()ed */
    size_t                  out_len;
} ngx_http_behave_beh_t;


/*
 * The state's TTL: it is kept at least behave_conversation_ttl after the
 * last call, and at most 1/64 of it more.  Setting it costs the script a
 * Redis command (~6k instructions in Redis, as much as an APPEND of any
 * size), so a worker sets it to the TTL and that slack, and not again for
 * that session until the slack has run out: meanwhile the key outlives
 * any call by the TTL.  A worker remembers the sessions it refreshed in a
 * small direct-mapped table; a session it forgot (another one took its
 * slot, or another worker serves it) is refreshed again, which costs only
 * speed.  A TTL under 64 s has no slack: every call sets it.
 */
#define NGX_HTTP_BEHAVE_BEH_TTL_SLOTS  4096

typedef struct {
    uint64_t                key;
    time_t                  ttl;
    time_t                  at;
} ngx_http_behave_beh_ttl_t;

static ngx_http_behave_beh_ttl_t
    ngx_http_behave_beh_ttls[NGX_HTTP_BEHAVE_BEH_TTL_SLOTS];


static ngx_int_t ngx_http_behave_beh_send(ngx_http_request_t *r,
    ngx_http_behave_beh_t *b, const char **reason);
static ngx_uint_t ngx_http_behave_beh_ttl_due(ngx_http_behave_beh_t *b,
    time_t ttl);
static void ngx_http_behave_beh_ttl_set(ngx_http_behave_beh_t *b);
static void ngx_http_behave_beh_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_beh_seed(ngx_http_request_t *r,
    ngx_http_behave_beh_t *b, redisReply *reply);
static ngx_int_t ngx_http_behave_beh_fresh(ngx_http_request_t *r,
    ngx_http_behave_beh_t *b);
static ngx_int_t ngx_http_behave_beh_send_state(ngx_http_request_t *r,
    ngx_http_behave_beh_t *b, char *blob, size_t len);
static void ngx_http_behave_beh_batch(void *data);
static ngx_int_t ngx_http_behave_beh_batched(ngx_http_request_t *r,
    void *data);
static ngx_int_t ngx_http_behave_beh_compute(ngx_http_request_t *r,
    ngx_http_behave_beh_t *b, redisReply *state, const char *history);
static void ngx_http_behave_beh_run(void *data);
static ngx_int_t ngx_http_behave_beh_computed(ngx_http_request_t *r,
    void *data);
static void ngx_http_behave_beh_rewrite_send(ngx_http_behave_beh_t *b,
    behave_gw_rewrite_t *rw);
static void ngx_http_behave_beh_hot_send(ngx_http_behave_beh_t *b,
    behave_gw_rewrite_t *rw);
static void ngx_http_behave_beh_drop_hot(ngx_http_behave_beh_t *b);
static void ngx_http_behave_beh_cleanup(void *data);
static void ngx_http_behave_beh_noop(redisReply *reply, void *data);


/*
 * The request is validated before anything is stored: a request the core
 * refuses touches no Redis, and what is stored is the core's encoding of
 * the events (behave_gw_behavior_batch()), never the client's JSON.
 */

ngx_int_t
ngx_http_behave_behavior_start(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw)
{
    ngx_http_behave_beh_t  *b;

    b = ngx_http_behave_pcalloc_owned(r->pool, sizeof(ngx_http_behave_beh_t),
                                      ngx_http_behave_beh_cleanup);
    if (b == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    b->gw = gw;
    b->epoch = (uint64_t) gw->now_ms;

    /* 10,000 events are checked and encoded in a thread when there is one */
    return ngx_http_behave_offload(r, gw->body.len, ngx_http_behave_beh_batch,
                                   ngx_http_behave_beh_batched, b);
}


static void
ngx_http_behave_beh_batch(void *data)
{
    ngx_http_behave_beh_t  *b = data;

    b->rc = behave_gw_behavior_batch(b->gw->req, &b->made, &b->batch_len,
                                     &b->err);

    /* here, in the thread with a large batch, not on the event loop */
    if (b->rc == BEHAVE_OK) {
        b->last_t_len = behave_gw_batch_last_t(b->made, b->batch_len,
                                               b->last_t) == 0 ? 8 : 0;
    }
}


static ngx_int_t
ngx_http_behave_beh_batched(ngx_http_request_t *r, void *data)
{
    ngx_http_behave_beh_t  *b = data;

    char                        digest[BEHAVE_SHA256_HEX_SIZE];
    u_char                      *p, *q;
    cJSON                       *sid;
    ngx_int_t                    rc;
    const char                  *reason;
    ngx_http_behave_gw_t        *gw;
    ngx_http_behave_loc_conf_t  *blcf;
    ngx_http_behave_redis_args_t  *a;

    gw = b->gw;

    if (b->rc != BEHAVE_OK) {
        return ngx_http_behave_send_error(r, &b->err);
    }

    b->batch = ngx_pnalloc(r->pool, b->batch_len);
    if (b->batch == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_memcpy(b->batch, b->made, b->batch_len);
    free(b->made);
    b->made = NULL;

    if (!ngx_http_behave_redis_configured(r)) {
        return ngx_http_behave_beh_compute(r, b, NULL, "request_only");
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);
    sid = cJSON_GetObjectItemCaseSensitive(gw->req, "session_id");

    p = ngx_pnalloc(r->pool, 3 * (sizeof(NGX_HTTP_BEHAVE_KEY_BEHAVIOR_STATE)
                                  + BEHAVE_TENANT_MAX + 16)
                             + NGX_TIME_T_LEN);

    if (p == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* validated: a string of 1..128 bytes without NUL */
    behave_sha256_hex(sid->valuestring, ngx_strlen(sid->valuestring),
                      digest);

    a = &b->args;
    ngx_http_behave_redis_args_script(a, &ngx_http_behave_beh_append_script);

    q = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_BEHAVIOR_STATE, gw->key->tenant,
                    (size_t) 16, digest);
    ngx_http_behave_redis_put(a, NGX_HTTP_BEHAVE_BEH_APPEND_KEY_STATE,
                              (char *) p, q - p);

    p = q;
    q = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_BEHAVIOR, gw->key->tenant,
                    (size_t) 16, digest);
    ngx_http_behave_redis_put(a, NGX_HTTP_BEHAVE_BEH_APPEND_KEY_LIST,
                              (char *) p, q - p);

    p = q;
    q = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_BEHAVIOR_HOT, gw->key->tenant,
                    (size_t) 16, digest);
    ngx_http_behave_redis_put(a, NGX_HTTP_BEHAVE_BEH_APPEND_KEY_HOT, (char *) p,
                              q - p);

    ngx_http_behave_redis_put_num(a, NGX_HTTP_BEHAVE_BEH_APPEND_ARG_TTL,
                                  blcf->conversation_ttl
                                  + blcf->conversation_ttl / 64);
    ngx_http_behave_redis_put(a, NGX_HTTP_BEHAVE_BEH_APPEND_ARG_BATCH,
                              (char *) b->batch, b->batch_len);

    /* a new session's state: only when the script finds none */
    ngx_http_behave_redis_put(a, NGX_HTTP_BEHAVE_BEH_APPEND_ARG_SEED, "", 0);
    ngx_http_behave_redis_put(a, NGX_HTTP_BEHAVE_BEH_APPEND_ARG_SEEDED, "0", 1);
    ngx_http_behave_redis_put(a, NGX_HTTP_BEHAVE_BEH_APPEND_ARG_LAST_T,
                              b->last_t, b->last_t_len);
    ngx_http_behave_redis_put(a, NGX_HTTP_BEHAVE_BEH_APPEND_ARG_TTL_DUE,
                              ngx_http_behave_beh_ttl_due(b,
                                                   blcf->conversation_ttl)
                              ? "1" : "0", 1);

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave gateway: behavior batch of %uz bytes for "
                   "\"%s\"%s", b->batch_len, gw->key->tenant,
                   b->last_t_len ? "" : ", no event");

    rc = ngx_http_behave_beh_send(r, b, &reason);

    if (rc != NGX_OK) {
        ngx_http_behave_redis_log_degraded(r, "analyze-behavior", reason);
        return ngx_http_behave_beh_compute(r, b, NULL, "request_only");
    }

    return NGX_DONE;
}


static ngx_uint_t
ngx_http_behave_beh_ttl_due(ngx_http_behave_beh_t *b, time_t ttl)
{
    size_t                      i;
    uint64_t                    h;
    const u_char               *k;
    ngx_http_behave_beh_ttl_t  *e;

    /* FNV-1a of the state's key (its tenant and session digest) */
    h = 0xcbf29ce484222325ULL;
    k = (const u_char *) b->args.argv[NGX_HTTP_BEHAVE_BEH_APPEND_KEY_STATE];

    for (i = 0; i < b->args.len[NGX_HTTP_BEHAVE_BEH_APPEND_KEY_STATE]; i++) {
        h = (h ^ k[i]) * 0x100000001b3ULL;
    }

    b->ttl_key = h | 1;
    b->ttl_at = ngx_time();

    b->ttl = ttl;
    e = &ngx_http_behave_beh_ttls[b->ttl_key
                                  % NGX_HTTP_BEHAVE_BEH_TTL_SLOTS];

    /*
     * set at "at" to ttl + ttl / 64: it still outlives this call by ttl
     * while less than the slack has passed since (a clock set back makes
     * it due at once)
     */
    return !(e->key == b->ttl_key && e->ttl == ttl
             && b->ttl_at >= e->at && b->ttl_at - e->at < ttl / 64);
}


/* the script ran with ARGV 6 "1": the state's TTL was set when sent */

static void
ngx_http_behave_beh_ttl_set(ngx_http_behave_beh_t *b)
{
    ngx_http_behave_beh_ttl_t  *e;

    if (b->args.argv[NGX_HTTP_BEHAVE_BEH_APPEND_ARG_TTL_DUE][0] != '1') {
        return;
    }

    e = &ngx_http_behave_beh_ttls[b->ttl_key
                                  % NGX_HTTP_BEHAVE_BEH_TTL_SLOTS];
    e->key = b->ttl_key;
    e->ttl = b->ttl;
    e->at = b->ttl_at;
}


static ngx_int_t
ngx_http_behave_beh_send(ngx_http_request_t *r, ngx_http_behave_beh_t *b,
    const char **reason)
{
    /* the command copies its arguments */
    return ngx_http_behave_redis_run(r, &b->args, ngx_http_behave_beh_reply,
                                     b, reason);
}


static void
ngx_http_behave_beh_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    ngx_http_behave_beh_t  *b = data;

    /* {1, the hot state} */
    if (reply != NULL && reply->type == REDIS_REPLY_ARRAY
        && reply->elements == 2
        && reply->element[0]->type == REDIS_REPLY_INTEGER
        && reply->element[1]->type == REDIS_REPLY_STRING)
    {
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave gateway: behavior from the hot state, %uz "
                       "bytes", reply->element[1]->len);
        ngx_http_behave_beh_ttl_set(b);
        ngx_http_behave_finish(r,
            ngx_http_behave_beh_compute(r, b, reply->element[1], "session"));
        return;
    }

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave gateway: behavior reply type %d%s%s",
                   reply ? reply->type : -1,
                   reply && reply->type == REDIS_REPLY_INTEGER
                   ? ": a new session" : "",
                   reply && reply->type == REDIS_REPLY_ARRAY
                   ? ": an older build's list" : "");

    if (reply != NULL && reply->type == REDIS_REPLY_INTEGER && !b->fresh
        && !b->seeded)
    {
        ngx_http_behave_finish(r, ngx_http_behave_beh_fresh(r, b));
        return;
    }

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

    ngx_http_behave_beh_ttl_set(b);
    ngx_http_behave_finish(r,
        ngx_http_behave_beh_compute(r, b, reply, "session"));
}


/* a new session: the script again, with the state to start it with */

static ngx_int_t
ngx_http_behave_beh_fresh(ngx_http_request_t *r, ngx_http_behave_beh_t *b)
{
    char    *blob;
    size_t   len;

    blob = behave_gw_behavior_new_state(b->epoch, &len);
    b->fresh = 1;

    return ngx_http_behave_beh_send_state(r, b, blob, len);
}


/*
 * The script again with a state the core made (malloc'ed, freed here):
 * without Redis, the call is answered from its own events
 */
static ngx_int_t
ngx_http_behave_beh_send_state(ngx_http_request_t *r,
    ngx_http_behave_beh_t *b, char *blob, size_t len)
{
    u_char      *p;
    const char  *reason;

    p = blob ? ngx_pnalloc(r->pool, len) : NULL;

    if (p == NULL) {
        free(blob);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_memcpy(p, blob, len);
    free(blob);

    ngx_http_behave_redis_put(&b->args, NGX_HTTP_BEHAVE_BEH_APPEND_ARG_SEED,
                              (char *) p, len);

    if (ngx_http_behave_beh_send(r, b, &reason) != NGX_OK) {
        ngx_http_behave_redis_log_degraded(r, "analyze-behavior", reason);
        return ngx_http_behave_beh_compute(r, b, NULL, "request_only");
    }

    return NGX_DONE;
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
    char    *blob;
    size_t   len;
    cJSON   *prior;

    prior = cJSON_CreateArray();
    ngx_http_behave_redis_json_items(reply, prior);

    blob = prior ? behave_gw_behavior_seed(prior, b->epoch, &len) : NULL;
    cJSON_Delete(prior);

    ngx_http_behave_redis_put(&b->args, NGX_HTTP_BEHAVE_BEH_APPEND_ARG_SEEDED,
                              "1", 1);
    b->seeded = 1;

    return ngx_http_behave_beh_send_state(r, b, blob, len);
}


/*
 * The analysis over the state read and this call's batch, in a thread for
 * a large body: the reply is copied first (hiredis frees it when the
 * callback returns).
 */
static ngx_int_t
ngx_http_behave_beh_compute(ngx_http_request_t *r, ngx_http_behave_beh_t *b,
    redisReply *state, const char *history)
{
    b->history = history;

    if (state != NULL) {
        b->state = ngx_pnalloc(r->pool, state->len + 1);
        if (b->state == NULL) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        ngx_memcpy(b->state, state->str, state->len);
        b->state[state->len] = '\0';
        b->state_len = state->len;
    }

    return ngx_http_behave_offload(r, b->gw->body.len,
                                   ngx_http_behave_beh_run,
                                   ngx_http_behave_beh_computed, b);
}


/* the answer written as text by the core: no tree built for it */

static void
ngx_http_behave_beh_run(void *data)
{
    ngx_http_behave_beh_t  *b = data;

    b->rc = behave_gw_behavior_session_text(b->gw->req, b->gw->now_ms,
                                            (char *) b->state, b->state_len,
                                            (char *) b->batch, b->batch_len,
                                            b->epoch, b->history, &b->out,
                                            &b->out_len, &b->rw, &b->err);
}


static ngx_int_t
ngx_http_behave_beh_computed(ngx_http_request_t *r, void *data)
{
    char                   *out;
    ngx_http_behave_beh_t  *b = data;

    if (b->rc != BEHAVE_OK) {
        return ngx_http_behave_send_error(r, &b->err);
    }

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave gateway: behavior computed, rewrite: %s%s%s",
                   b->state && b->rw.blob ? "state " : "",
                   b->state && b->rw.hot ? "hot " : "",
                   b->state && b->rw.drop_hot ? "drop-hot" : "");

    if (b->state != NULL && b->rw.blob != NULL) {
        ngx_http_behave_beh_rewrite_send(b, &b->rw);

    } else if (b->state != NULL && b->rw.hot != NULL) {
        ngx_http_behave_beh_hot_send(b, &b->rw);

    } else if (b->state != NULL && b->rw.drop_hot) {
        ngx_http_behave_beh_drop_hot(b);
    }

    free(b->rw.blob);
    free(b->rw.hot);
    b->rw.blob = NULL;
    b->rw.hot = NULL;

    out = b->out;
    b->out = NULL;

    return ngx_http_behave_send_malloced(r, NGX_HTTP_OK, out, b->out_len);
}


static void
ngx_http_behave_beh_rewrite_send(ngx_http_behave_beh_t *b,
    behave_gw_rewrite_t *rw)
{
    ngx_http_behave_redis_args_t  a, *sent;

    sent = &b->args;  /* the append's: its keys */

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_beh_rewrite_script);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_BEH_REWRITE_KEY_STATE,
                              sent->argv[NGX_HTTP_BEHAVE_BEH_APPEND_KEY_STATE],
                              sent->len[NGX_HTTP_BEHAVE_BEH_APPEND_KEY_STATE]);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_BEH_REWRITE_KEY_HOT,
                              sent->argv[NGX_HTTP_BEHAVE_BEH_APPEND_KEY_HOT],
                              sent->len[NGX_HTTP_BEHAVE_BEH_APPEND_KEY_HOT]);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_BEH_REWRITE_ARG_PREFIX,
                              (char *) b->state,
                              ngx_min(b->state_len, BEHAVE_GW_STATE_PREFIX));
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_BEH_REWRITE_ARG_CONSUMED,
                                  rw->consumed);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_BEH_REWRITE_ARG_BLOB,
                              rw->blob, rw->len);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_BEH_REWRITE_ARG_HOT_STATE,
                              rw->hot ? rw->hot : "",
                              rw->hot ? rw->hot_len : 0);

    /* shed when Redis is behind: the next call tries again */
    (void) ngx_http_behave_redis_run_bg(&a, ngx_http_behave_beh_noop, NULL);
}


static void
ngx_http_behave_beh_hot_send(ngx_http_behave_beh_t *b,
    behave_gw_rewrite_t *rw)
{
    ngx_http_behave_redis_args_t  a, *sent;

    sent = &b->args;  /* the append's: its keys */

    ngx_http_behave_redis_args_script(&a,
                                      &ngx_http_behave_beh_hot_rewrite_script);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_BEH_HOT_REWRITE_KEY_HOT,
                              sent->argv[NGX_HTTP_BEHAVE_BEH_APPEND_KEY_HOT],
                              sent->len[NGX_HTTP_BEHAVE_BEH_APPEND_KEY_HOT]);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_BEH_HOT_REWRITE_ARG_PREFIX,
                              (char *) b->state,
                              ngx_min(b->state_len, BEHAVE_GW_HOT_PREFIX));
    ngx_http_behave_redis_put_num(&a,
                                  NGX_HTTP_BEHAVE_BEH_HOT_REWRITE_ARG_LENGTH,
                                  rw->hot_consumed);
    ngx_http_behave_redis_put(&a,
                              NGX_HTTP_BEHAVE_BEH_HOT_REWRITE_ARG_HOT_STATE,
                              rw->hot, rw->hot_len);

    (void) ngx_http_behave_redis_run_bg(&a, ngx_http_behave_beh_noop, NULL);
}


/* a damaged hot state: the next call reads the full one */

static void
ngx_http_behave_beh_drop_hot(ngx_http_behave_beh_t *b)
{
    size_t       len[2];
    const char  *argv[2];

    argv[0] = "DEL";
    len[0] = 3;
    argv[1] = b->args.argv[NGX_HTTP_BEHAVE_BEH_APPEND_KEY_HOT];
    len[1] = b->args.len[NGX_HTTP_BEHAVE_BEH_APPEND_KEY_HOT];

    (void) ngx_http_behave_redis_command_bg(2, argv, len,
                                            ngx_http_behave_beh_noop, NULL);
}


/* whatever the request's path: what a thread made and nobody took */

static void
ngx_http_behave_beh_cleanup(void *data)
{
    ngx_http_behave_beh_t  *b = data;

    free(b->made);
    free(b->rw.blob);
    free(b->out);
    b->made = NULL;
    b->rw.blob = NULL;
    b->out = NULL;
}


static void
ngx_http_behave_beh_noop(redisReply *reply, void *data)
{
}
