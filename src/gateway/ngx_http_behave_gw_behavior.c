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
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_keys.h"

#include "behave_json.h"
#include "behave_gateway.h"
#include "behave_gw_session.h"        /* BEHAVE_GW_STATE_PREFIX */
#include "behave_webhook_parse.h"     /* behave_sha256_hex */


typedef struct {
    ngx_http_behave_gw_t   *gw;
    const char             *argv[9];
    size_t                  len[9];
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
 * KEYS: state, older list, hot state.  ARGV: 1 the state's TTL
 * (behave_conversation_ttl and its slack), 2 this call's batch, 3 the
 * state to start with (empty, or seeded from the older list), 4 "1" when
 * 3 is a seed, 5 the batch's latest t ("" without events), 6 "1" when
 * the state's TTL is due to be set again (ngx_http_behave_beh_ttl_due()).
 * Returns 0, having stored nothing, when there
 * is no state and 3 is empty (the glue sends a new session's state only
 * then, not with every call); {1, the hot state before the batch}
 * when the batch passes the hot state's gate (BEHAVE_GW_HOT_HEAD: room
 * at byte 2, gate at 6, the full state's limit at 18, the frontier at
 * 22; the batch's first event's t at its byte 6): it fits in the room
 * and comes after the gate, or before the frontier (all late), else the
 * state before the batch (the hot one is dropped), or the older list
 * when there is no state and no seed yet.
 */
static ngx_http_behave_redis_script_t  ngx_http_behave_beh_script = {
    "redis.behavior-append",
    "local h = redis.call('GET', KEYS[3])\n"
    "if h then\n"
    "  local room, gate = struct.unpack('<I4d', h, 2)\n"
    "  if #h + #ARGV[2] <= room and (#ARGV[5] < 8\n"
    "      or struct.unpack('<d', ARGV[2], 6) >= gate\n"
    "      or struct.unpack('<d', ARGV[5]) < struct.unpack('<d', h, 22))\n"
    "  then\n"
    "    local n = redis.call('APPEND', KEYS[1], ARGV[2])\n"
    "    if n > #ARGV[2] then\n"
    "      if ARGV[6] == '1' then\n"
    "        redis.call('EXPIRE', KEYS[1], ARGV[1])\n"
    "      end\n"
    "      if n <= struct.unpack('<I4', h, 18) then\n"
    "        redis.call('APPEND', KEYS[3], ARGV[2])\n"
    "        return {1, h}\n"
    "      end\n"
    "      redis.call('DEL', KEYS[3])\n"
    "      return redis.call('GETRANGE', KEYS[1], 0, n - #ARGV[2] - 1)\n"
    "    end\n"
    "    redis.call('DEL', KEYS[1])\n"
    "  end\n"
    "  redis.call('DEL', KEYS[3])\n"
    "end\n"
    "local s = redis.call('GET', KEYS[1])\n"
    "if not s then\n"
    "  if ARGV[4] ~= '1' and redis.call('EXISTS', KEYS[2]) == 1 then\n"
    "    return redis.call('LRANGE', KEYS[2], 0, -1)\n"
    "  end\n"
    "  if #ARGV[3] == 0 then return 0 end\n"
    "  s = ARGV[3]\n"
    "  redis.call('SET', KEYS[1], s .. ARGV[2], 'EX', ARGV[1])\n"
    "  if ARGV[4] == '1' then redis.call('DEL', KEYS[2]) end\n"
    "  return s\n"
    "end\n"
    "redis.call('APPEND', KEYS[1], ARGV[2])\n"
    "if ARGV[6] == '1' then\n"
    "  redis.call('EXPIRE', KEYS[1], ARGV[1])\n"
    "end\n"
    "return s\n",
    ""
};


/*
 * The background rewrite.  KEYS: state, hot state.  ARGV: 1 the first
 * bytes of the state as read, 2 how many bytes the new blob replaces, 3
 * the blob, 4 the hot state ("": none).  The hot state is stored only
 * when no batch came since the state was read (they did not pass its
 * gate), and expires no later than the state.
 */
static const char  ngx_http_behave_beh_rewrite[] =
    "local s = redis.call('GET', KEYS[1])\n"
    "local n = tonumber(ARGV[2])\n"
    "if not s or #s < n or string.sub(s, 1, #ARGV[1]) ~= ARGV[1] then\n"
    "  return 0\n"
    "end\n"
    "redis.call('SET', KEYS[1], ARGV[3] .. string.sub(s, n + 1), 'KEEPTTL')\n"
    "local ttl = redis.call('PTTL', KEYS[1])\n"
    "if #ARGV[4] > 0 and #s == n and ttl > 0 then\n"
    "  redis.call('SET', KEYS[2], ARGV[4], 'PX', ttl)\n"
    "end\n"
    "return 1\n";


/*
 * The hot state's rewrite.  KEYS: hot state.  ARGV: 1 its first bytes
 * as read, 2 its length then, 3 the new one: only while nothing was
 * appended to it since (a batch appended passed the old gate, maybe not
 * the new one).
 */
static const char  ngx_http_behave_beh_hot_rewrite[] =
    "local h = redis.call('GET', KEYS[1])\n"
    "if not h or #h ~= tonumber(ARGV[2])\n"
    "   or string.sub(h, 1, #ARGV[1]) ~= ARGV[1] then\n"
    "  return 0\n"
    "end\n"
    "redis.call('SET', KEYS[1], ARGV[3], 'KEEPTTL')\n"
    "return 1\n";


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
static void ngx_http_behave_beh_eval_bg(const char *script, size_t script_len,
    const char *nkeys, int argc, const char **argv, size_t *len);
static void ngx_http_behave_beh_drop_hot(ngx_http_behave_beh_t *b);
static void ngx_http_behave_beh_cleanup(void *data);
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
    ngx_pool_cleanup_t     *cln;
    ngx_http_behave_beh_t  *b;

    b = ngx_pcalloc(r->pool, sizeof(ngx_http_behave_beh_t));
    cln = ngx_pool_cleanup_add(r->pool, 0);

    if (b == NULL || cln == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    cln->handler = ngx_http_behave_beh_cleanup;
    cln->data = b;

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
    u_char                      *p;
    cJSON                       *sid;
    ngx_int_t                    rc;
    const char                  *reason;
    ngx_http_behave_gw_t        *gw;
    ngx_http_behave_loc_conf_t  *blcf;

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

    b->argv[0] = (char *) p;
    p = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_BEHAVIOR_STATE, gw->key->tenant,
                    (size_t) 16, digest);
    b->len[0] = p - (u_char *) b->argv[0];

    b->argv[1] = (char *) p;
    p = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_BEHAVIOR, gw->key->tenant,
                    (size_t) 16, digest);
    b->len[1] = p - (u_char *) b->argv[1];

    b->argv[2] = (char *) p;
    p = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_BEHAVIOR_HOT, gw->key->tenant,
                    (size_t) 16, digest);
    b->len[2] = p - (u_char *) b->argv[2];

    b->argv[3] = (char *) p;
    p = ngx_sprintf(p, "%T",
                    blcf->conversation_ttl + blcf->conversation_ttl / 64);
    b->len[3] = p - (u_char *) b->argv[3];

    b->argv[4] = (char *) b->batch;
    b->len[4] = b->batch_len;

    /* a new session's state: only when the script finds none */
    b->argv[5] = "";
    b->len[5] = 0;

    b->argv[6] = "0";
    b->len[6] = 1;

    b->argv[7] = b->last_t;
    b->len[7] = b->last_t_len;

    b->argv[8] = ngx_http_behave_beh_ttl_due(b, blcf->conversation_ttl)
                 ? "1" : "0";
    b->len[8] = 1;

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
    k = (const u_char *) b->argv[0];

    for (i = 0; i < b->len[0]; i++) {
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

    if (b->argv[8][0] != '1') {
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
    return ngx_http_behave_redis_eval(r, &ngx_http_behave_beh_script, 3, 9,
                                      b->argv, b->len,
                                      ngx_http_behave_beh_reply, b, reason);
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
        ngx_http_behave_beh_ttl_set(b);
        ngx_http_behave_finish(r,
            ngx_http_behave_beh_compute(r, b, reply->element[1], "session"));
        return;
    }

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

    b->argv[5] = (char *) p;
    b->len[5] = len;

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
    size_t   i, len;
    cJSON   *prior, *e;

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

    b->argv[6] = "1";
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
    u_char       num[NGX_SIZE_T_LEN];
    size_t       len[9];
    const char  *argv[9];

    argv[3] = b->argv[0];
    len[3] = b->len[0];
    argv[4] = b->argv[2];
    len[4] = b->len[2];
    argv[5] = (char *) b->state;
    len[5] = ngx_min(b->state_len, BEHAVE_GW_STATE_PREFIX);
    argv[6] = (char *) num;
    len[6] = ngx_sprintf(num, "%uz", rw->consumed) - num;
    argv[7] = rw->blob;
    len[7] = rw->len;
    argv[8] = rw->hot ? rw->hot : "";
    len[8] = rw->hot ? rw->hot_len : 0;

    ngx_http_behave_beh_eval_bg(ngx_http_behave_beh_rewrite,
                                sizeof(ngx_http_behave_beh_rewrite) - 1,
                                "2", 9, argv, len);
}


static void
ngx_http_behave_beh_hot_send(ngx_http_behave_beh_t *b,
    behave_gw_rewrite_t *rw)
{
    u_char       num[NGX_SIZE_T_LEN];
    size_t       len[7];
    const char  *argv[7];

    argv[3] = b->argv[2];
    len[3] = b->len[2];
    argv[4] = (char *) b->state;
    len[4] = ngx_min(b->state_len, BEHAVE_GW_HOT_PREFIX);
    argv[5] = (char *) num;
    len[5] = ngx_sprintf(num, "%uz", rw->hot_consumed) - num;
    argv[6] = rw->hot;
    len[6] = rw->hot_len;

    ngx_http_behave_beh_eval_bg(ngx_http_behave_beh_hot_rewrite,
                                sizeof(ngx_http_behave_beh_hot_rewrite) - 1,
                                "1", 7, argv, len);
}


/*
 * A rewrite script sent in the background: the caller fills argv[3] on
 * (its keys, then its arguments); the command's head is filled here
 */
static void
ngx_http_behave_beh_eval_bg(const char *script, size_t script_len,
    const char *nkeys, int argc, const char **argv, size_t *len)
{
    argv[0] = "EVAL";
    len[0] = 4;
    argv[1] = script;
    len[1] = script_len;
    argv[2] = nkeys;
    len[2] = 1;

    /* shed when Redis is behind: the next call tries again */
    (void) ngx_http_behave_redis_command_bg(argc, argv, len,
                                            ngx_http_behave_beh_noop, NULL);
}


/* a damaged hot state: the next call reads the full one */

static void
ngx_http_behave_beh_drop_hot(ngx_http_behave_beh_t *b)
{
    size_t       len[2];
    const char  *argv[2];

    argv[0] = "DEL";
    len[0] = 3;
    argv[1] = b->argv[2];
    len[1] = b->len[2];

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
