/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The conversation step of /v1/analyze: one Redis script appends the
 * turn's text to the log, pushes its compact record into the
 * conversation's state and returns the state as it was before; the core
 * assesses the turn from that state (src/core/conversation/
 * behave_conv_state.h).  What a turn reads back is the same few hundred
 * bytes however long the conversation is.
 *
 * Two keys per tenant and conversation, their hash tag naming the
 * conversation so that both land in one Redis Cluster slot:
 *
 *     behave:{<tenant>:<conversation_id>}:log     the text, per turn
 *     behave:{<tenant>:<conversation_id>}:state   the state
 *
 * Tenants and ids are restricted to [A-Za-z0-9_.:@-], so neither can
 * close the hash tag or reach another tenant's keys.
 *
 * A conversation written by an older build has a log and no state: the
 * script then returns the log instead, the state is recomputed from it
 * once (the same fold as behave_conversation_assess()) and sent with the
 * turn again as the seed, used only if the state is still missing.
 */


#include "ngx_http_behave_analyze.h"
#include "ngx_http_behave_redis.h"

#include "behave_conversation.h"
#include "behave_conv_state.h"
#include "behave_turn.h"
#include "behave_turn_log.h"


#define NGX_HTTP_BEHAVE_CONV_KEY    "behave:{%s:%s}:log"
#define NGX_HTTP_BEHAVE_STATE_KEY   "behave:{%s:%s}:state"

#define ngx_http_behave_str(x)      ngx_http_behave_str2(x)
#define ngx_http_behave_str2(x)     #x


/*
 * KEYS: log, state.  ARGV: 1 the turn's log record, 2 ttl, 3 "c"
 * customer or "a" agent, 4 severity, 5 "1" when the turn denies a
 * settled issue, 6 an agent turn's claim (0 none), 7 a customer turn's
 * record, 8 its meaning signature, 9 turns of text the log keeps, 10 a
 * seed state or "".  Returns the state before the turn ("" for a new
 * conversation), or { log } when only an older build's log exists.
 *
 * The push is behave_conv_state_push(): keep the two in step.  Past
 * max + max / 2 turns the log's front is cut to the newest max, behind
 * the header "d<turns dropped>" 0xff; records the log should hold and
 * does not (cut short by hand) count as dropped, so that a damaged log is
 * not rewritten again at every turn.
 */
static ngx_http_behave_redis_script_t  ngx_http_behave_conv_script = {
    "redis.conversation-turn",

    "local st = redis.call('GET', KEYS[2])\n"
    "local prev = st\n"
    "if not st then\n"
    "  if ARGV[10] ~= '' then st = ARGV[10] else\n"
    "    local log = redis.call('GET', KEYS[1])\n"
    "    if log then return { log } end\n"
    "    st = 's1' .. '0000000000000000' .. '00ffffffff00'"
    " .. '00ffffffff00' .. '0000000000'\n"
    "    prev = ''\n"
    "  end\n"
    "  prev = prev or st\n"
    "end\n"
    "if #st < 52 or string.sub(st, 1, 2) ~= 's1' then\n"
    "  return redis.error_reply('bad conversation state')\n"
    "end\n"
    "local M, R = " ngx_http_behave_str(BEHAVE_MEANING_DIM) ", "
    ngx_http_behave_str(BEHAVE_CONV_REC_SIZE) "\n"
    "local n = tonumber(string.sub(st, 3, 10), 16)\n"
    "local cu = string.sub(st, 11, 18)\n"
    "local cur, old = string.sub(st, 19, 30), string.sub(st, 31, 42)\n"
    "local dr = tonumber(string.sub(st, 43, 50), 16)\n"
    "local nr, nm = string.sub(st, 51, 51), string.sub(st, 52, 52)\n"
    "local rings = string.sub(st, 53)\n"
    "if ARGV[3] == 'c' then\n"
    "  if #ARGV[7] ~= R or #ARGV[8] ~= M then\n"
    "    return redis.error_reply('bad turn record')\n"
    "  end\n"
    "  local m, r = tonumber(nm, 16), tonumber(nr, 16)\n"
    "  local pk, fr = string.sub(cur, 1, 1), string.sub(cur, 2, 2)\n"
    "  if ARGV[4] > pk then pk = ARGV[4] end\n"
    "  if ARGV[5] == '1' and string.sub(cur, 3, 10) ~= 'ffffffff' then\n"
    "    fr = '1'\n"
    "  end\n"
    "  old, cur = cur, pk .. fr .. 'ffffffff00'\n"
    "  cu = string.format('%08x', tonumber(cu, 16) + 1)\n"
    "  local ms, rs = string.sub(rings, 1, m * M), string.sub(rings, m * M + 1)\n"
    "  if m == " ngx_http_behave_str(BEHAVE_CONV_MEANINGS) " then\n"
    "    ms = string.sub(ms, 1, (m - 1) * M)\n"
    "  else m = m + 1 end\n"
    "  if r == " ngx_http_behave_str(BEHAVE_CONV_RING) " then\n"
    "    rs = string.sub(rs, 1, (r - 1) * (4 + R))\n"
    "  else r = r + 1 end\n"
    "  nr, nm = string.format('%x', r), string.format('%x', m)\n"
    "  rings = ARGV[8] .. ms .. string.char(n % 256,"
    " math.floor(n / 256) % 256, math.floor(n / 65536) % 256,"
    " math.floor(n / 16777216)) .. ARGV[7] .. rs\n"
    "elseif ARGV[6] ~= '0' then\n"
    "  cur = string.sub(cur, 1, 2) .. string.format('%08x%02x', n,"
    " tonumber(ARGV[6]))\n"
    "end\n"
    "n = n + 1\n"
    "redis.call('APPEND', KEYS[1], ARGV[1])\n"
    "local max = tonumber(ARGV[9])\n"
    "if max > 0 and n - dr > max + math.floor(max / 2) then\n"
    "  local log = redis.call('GET', KEYS[1])\n"
    "  local pos = 1\n"
    "  if string.sub(log, 1, 1) == 'd' then\n"
    "    pos = (string.find(log, '\\255', 1, true) or 0) + 1\n"
    "  end\n"
    "  for i = 1, n - dr - max do\n"
    "    local e = string.find(log, '\\255', pos, true)\n"
    "    if not e then break end\n"
    "    pos = e + 1\n"
    "  end\n"
    "  dr = n - max\n"
    "  redis.call('SET', KEYS[1],"
    " 'd' .. dr .. '\\255' .. string.sub(log, pos))\n"
    "end\n"
    "redis.call('EXPIRE', KEYS[1], ARGV[2])\n"
    "redis.call('SET', KEYS[2], 's1' .. string.format('%08x', n) .. cu .. cur"
    " .. old .. string.format('%08x', dr) .. nr .. nm .. rings,"
    " 'EX', ARGV[2])\n"
    "return prev\n",

    ""
};


/* what a turn sends, kept for the second call of an upgrade */
typedef struct {
    ngx_http_behave_analyze_t  *an;
    const char                 *argv[12];
    size_t                      len[12];
    behave_conv_rec_t           rec;
    u_char                      rec_enc[BEHAVE_CONV_REC_SIZE];
    u_char                      num[4][NGX_INT_T_LEN];
    ngx_uint_t                  seeded;
    char                       *seed;
    size_t                      seed_len;
} ngx_http_behave_conv_turn_t;


static void ngx_http_behave_conversation_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_conversation_send(ngx_http_request_t *r,
    ngx_http_behave_conv_turn_t *ct, const char **reason);
static behave_conv_result_t *ngx_http_behave_conversation_assess(
    ngx_http_request_t *r, ngx_http_behave_conv_turn_t *ct,
    redisReply *reply);
static ngx_int_t ngx_http_behave_conversation_upgrade(ngx_http_request_t *r,
    ngx_http_behave_conv_turn_t *ct, redisReply *log);
static behave_conv_result_t *ngx_http_behave_conversation_degraded(
    ngx_http_request_t *r, ngx_http_behave_analyze_t *an, const char *reason);


void
ngx_http_behave_conversation_init(void)
{
    ngx_http_behave_redis_script_init(&ngx_http_behave_conv_script);
}


ngx_int_t
ngx_http_behave_conversation_start(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an)
{
    u_char                       *p, *rec;
    size_t                        rec_len, klen;
    ngx_time_t                   *tp;
    const char                   *reason;
    behave_turn_t                 turn;
    ngx_http_behave_ctx_t        *ctx;
    ngx_http_behave_conv_turn_t  *ct;
    ngx_http_behave_loc_conf_t   *blcf;

    if (!ngx_http_behave_redis_configured(r)) {
        return ngx_http_behave_analyze_respond(r, an,
                   ngx_http_behave_conversation_degraded(r, an,
                       "conversation storage is not configured "
                       "(behave_redis)"));
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    ct = ngx_pcalloc(r->pool, sizeof(ngx_http_behave_conv_turn_t));
    klen = sizeof(NGX_HTTP_BEHAVE_STATE_KEY) + BEHAVE_TENANT_MAX
           + BEHAVE_CONVERSATION_ID_MAX;
    p = ngx_pnalloc(r->pool, 2 * klen);

    if (ct == NULL || p == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ct->an = an;

    /* the keys */
    an->conv_key.data = p;
    p = ngx_sprintf(p, NGX_HTTP_BEHAVE_CONV_KEY, ctx->key->tenant,
                    an->req.conversation_id);
    an->conv_key.len = p - an->conv_key.data;

    ct->argv[3] = (char *) p;
    ct->len[3] = ngx_sprintf(p, NGX_HTTP_BEHAVE_STATE_KEY, ctx->key->tenant,
                             an->req.conversation_id) - p;
    ct->argv[2] = (char *) an->conv_key.data;
    ct->len[2] = an->conv_key.len;

    /* the turn, its log record and its compact record, derived once */
    tp = ngx_timeofday();
    behave_turn_from_annotation(&turn, an->req.speaker, an->text,
                                an->text_len, &an->ann,
                                (uint64_t) tp->sec * 1000 + tp->msec);

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

    behave_conversation_record(&turn, &ct->rec);
    behave_conv_rec_encode(&ct->rec, ct->rec_enc);

    ct->argv[4] = (char *) rec;
    ct->len[4] = rec_len;
    ct->argv[5] = (char *) ct->num[0];
    ct->len[5] = ngx_sprintf(ct->num[0], "%T", blcf->conversation_ttl)
                 - ct->num[0];
    ct->argv[6] = ct->rec.customer ? "c" : "a";
    ct->len[6] = 1;
    ct->argv[7] = (char *) ct->num[1];
    ct->len[7] = ngx_sprintf(ct->num[1], "%d", ct->rec.severity)
                 - ct->num[1];
    ct->argv[8] = (ct->rec.flags & BEHAVE_CONV_F_DENIES) ? "1" : "0";
    ct->len[8] = 1;
    ct->argv[9] = (char *) ct->num[2];
    ct->len[9] = ngx_sprintf(ct->num[2], "%ui", (ngx_uint_t) ct->rec.claim)
                 - ct->num[2];
    ct->argv[10] = ct->rec.customer ? (char *) ct->rec_enc : "";
    ct->len[10] = ct->rec.customer ? BEHAVE_CONV_REC_SIZE : 0;
    ct->argv[11] = ct->rec.customer ? (char *) ct->rec.meaning : "";
    ct->len[11] = ct->rec.customer ? BEHAVE_MEANING_DIM : 0;

    if (ngx_http_behave_conversation_send(r, ct, &reason) != NGX_OK) {
        return ngx_http_behave_analyze_respond(r, an,
                   ngx_http_behave_conversation_degraded(r, an, reason));
    }

    return NGX_DONE;
}


/* the script with the turn's arguments, then max_turns and the seed */
static ngx_int_t
ngx_http_behave_conversation_send(ngx_http_request_t *r,
    ngx_http_behave_conv_turn_t *ct, const char **reason)
{
    const char                  *argv[14];
    size_t                       len[14];
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    ngx_memcpy(argv, ct->argv, sizeof(ct->argv));
    ngx_memcpy(len, ct->len, sizeof(ct->len));

    /* argv[0..1] (EVALSHA, sha1) are filled in by the adapter */
    argv[12] = (char *) ct->num[3];
    len[12] = ngx_sprintf(ct->num[3], "%ui", blcf->conversation_max_turns)
              - ct->num[3];

    argv[13] = ct->seeded ? ct->seed : "";
    len[13] = ct->seeded ? ct->seed_len : 0;

    return ngx_http_behave_redis_eval(r, &ngx_http_behave_conv_script, 2, 12,
                                      argv + 2, len + 2,
                                      ngx_http_behave_conversation_reply, ct,
                                      reason);
}


static void
ngx_http_behave_conversation_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    behave_conv_result_t         *block;
    ngx_http_behave_conv_turn_t  *ct = data;

    if (reply == NULL) {
        block = ngx_http_behave_conversation_degraded(r, ct->an, reason);

    } else if (reply->type == REDIS_REPLY_ERROR) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: redis script error: %s", reply->str);
        block = ngx_http_behave_conversation_degraded(r, ct->an,
                                                      "redis error");

    } else if (reply->type == REDIS_REPLY_ARRAY && !ct->seeded) {
        if (ngx_http_behave_conversation_upgrade(r, ct, reply) == NGX_OK) {
            return;                 /* the turn is on its way again */
        }

        block = ngx_http_behave_conversation_degraded(r, ct->an,
                                                      "redis unavailable");

    } else {
        block = ngx_http_behave_conversation_assess(r, ct, reply);
    }

    ngx_http_finalize_request(r,
                              ngx_http_behave_analyze_respond(r, ct->an,
                                                              block));
}


/*
 * The state before this turn; an empty one is a new conversation, whose
 * first turn has no block (spec 2.4: present once history exists).
 */

static behave_conv_result_t *
ngx_http_behave_conversation_assess(ngx_http_request_t *r,
    ngx_http_behave_conv_turn_t *ct, redisReply *reply)
{
    behave_conv_state_t   *st;
    behave_conv_result_t  *res;

    if (reply->type != REDIS_REPLY_STRING) {
        return ngx_http_behave_conversation_degraded(r, ct->an,
                                                     "unexpected reply");
    }

    if (reply->len == 0) {
        return NULL;
    }

    st = ngx_palloc(r->pool, sizeof(behave_conv_state_t));
    res = ngx_palloc(r->pool, sizeof(behave_conv_result_t));

    if (st == NULL || res == NULL) {
        return ngx_http_behave_conversation_degraded(r, ct->an,
                                                     "out of memory");
    }

    if (behave_conv_state_decode(reply->str, reply->len, st) != 0) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: redis \"%V\": not a conversation state",
                      &ct->an->conv_key);
        return ngx_http_behave_conversation_degraded(r, ct->an,
                                                     "redis error");
    }

    behave_conversation_assess_state(st, &ct->rec, res);

    return res;
}


/*
 * An older build's log and no state: the state of every turn it holds
 * (those trimmed off before are counted, not seen), sent back as the seed.
 */

static ngx_int_t
ngx_http_behave_conversation_upgrade(ngx_http_request_t *r,
    ngx_http_behave_conv_turn_t *ct, redisReply *reply)
{
    size_t                n;
    uint64_t              first;
    const char           *reason;
    redisReply           *v;
    behave_turn_t        *turns;
    behave_turn_log_t     log;
    behave_conv_rec_t     rec;
    behave_conv_state_t  *st;
    size_t                i;

    if (reply->elements != 1 || reply->element[0]->type != REDIS_REPLY_STRING)
    {
        return NGX_ERROR;
    }

    v = reply->element[0];
    behave_turn_log_open(&log, v->str, v->len);

    turns = ngx_palloc(r->pool, (log.records + 1) * sizeof(behave_turn_t));
    st = ngx_palloc(r->pool, sizeof(behave_conv_state_t));
    ct->seed = ngx_pnalloc(r->pool, BEHAVE_CONV_STATE_MAX);

    if (turns == NULL || st == NULL || ct->seed == NULL) {
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

    ct->seed_len = behave_conv_state_encode(st, ct->seed);
    ct->seeded = 1;

    ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                  "behave: conversation \"%V\" upgraded from its log "
                  "(%uz turns)", &ct->an->conv_key, n);

    return ngx_http_behave_conversation_send(r, ct, &reason);
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
