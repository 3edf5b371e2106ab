/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The write side of the review queue: see ngx_http_behave_review_index.h.
 * A call is filed by the webhook commit script itself (same step as its
 * storage); a conversation here, after its turn was stored.
 */


#include "ngx_http_behave_review_index.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_keys.h"

#include "behave_conv_state.h"


#define ngx_http_behave_str(x)      ngx_http_behave_str2(x)
#define ngx_http_behave_str2(x)     #x


/*
 * A filing's arguments, kept for the EVAL that follows a NOSCRIPT, and
 * the conversation's mark, written once the filing succeeded
 */
typedef struct {
    int          argc;
    const char  *argv[10 + BEHAVE_REVIEW_PAIRS_MAX];
    size_t       len[10 + BEHAVE_REVIEW_PAIRS_MAX];
    unsigned     resent:1;
    char        *state_key;
    size_t       state_key_len;
    char         mark[BEHAVE_REVIEW_MARK_LEN + 1];
    char         bytes[1];
} ngx_http_behave_review_bg_t;


static void ngx_http_behave_review_send(int argc, const char **argv,
    const size_t *len, ngx_str_t *state_key, const char *mark);
static void ngx_http_behave_review_filed(redisReply *reply, void *data);
static void ngx_http_behave_review_marked(redisReply *reply, void *data);


/*
 * A flagged conversation turn, sent in the background: at every turn of
 * a flagged conversation, so by EVALSHA (EVAL would make Redis hash the
 * script's text each time), EVAL after a NOSCRIPT.
 * KEYS: index, record, history.  ARGV: id, now (ms), TTL (s), reopened
 * entry, then the record's field/value pairs.
 */
static const char  ngx_http_behave_review_index_script[] =
    "local rv_idx, rv_rec, rv_hist = KEYS[1], KEYS[2], KEYS[3]\n"
    "local rv_id, rv_now, rv_ttl, rv_reopen = ARGV[1], ARGV[2], ARGV[3],\n"
    "    ARGV[4]\n"
    "local rv_pairs = {unpack(ARGV, 5)}\n"
    BEHAVE_REVIEW_LUA_INDEX
    "return 1\n";

static ngx_http_behave_redis_script_t  ngx_http_behave_review_script = {
    "redis.review-file", ngx_http_behave_review_index_script, ""
};


/*
 * A conversation's mark, put after its state (the tail the turn script
 * carries over), or taken off ("").  KEYS: state.  ARGV: the mark.  Run
 * by EVAL: once a filing or a PATCH, not once a turn.
 */
static const char  ngx_http_behave_review_mark_script[] =
    "local st = redis.call('GET', KEYS[1])\n"
    "if not st or #st < " ngx_http_behave_str(BEHAVE_CONV_HEADER_SIZE)
    " or string.sub(st, 1, 2) ~= '" BEHAVE_CONV_STATE_VERSION "' then\n"
    "  return 0\n"
    "end\n"
    "local nr = tonumber(string.sub(st, 51, 51), 16)\n"
    "if not nr then return 0 end\n"
    "local n = " ngx_http_behave_str(BEHAVE_CONV_HEADER_SIZE) "\n"
    "if nr > 0 then\n"
    "  n = n + " ngx_http_behave_str(BEHAVE_CONV_MEANINGS)
    " * " ngx_http_behave_str(BEHAVE_MEANING_DIM)
    " + nr * (4 + " ngx_http_behave_str(BEHAVE_CONV_REC_SIZE) ")\n"
    "end\n"
    "if #st < n or string.sub(st, n + 1) == ARGV[1] then return 0 end\n"
    "redis.call('SET', KEYS[1], string.sub(st, 1, n) .. ARGV[1], 'KEEPTTL')\n"
    "return 1\n";


/* "behave:rv:{<tenant>}:<what><id>" in the request pool, NUL-terminated */

ngx_str_t *
ngx_http_behave_review_key(ngx_http_request_t *r, const char *tenant,
    const char *what, const char *id, size_t id_len)
{
    return ngx_http_behave_redis_key(r, NGX_HTTP_BEHAVE_KEY_RV, tenant, what,
                                     id, id_len);
}


ngx_int_t
ngx_http_behave_review_keys(ngx_http_request_t *r, const char *tenant,
    const char *id, ngx_str_t **keys)
{
    size_t  len;

    len = ngx_strlen(id);

    keys[0] = ngx_http_behave_review_key(r, tenant, "index", "", 0);
    keys[1] = ngx_http_behave_review_key(r, tenant, "r:", id, len);
    keys[2] = ngx_http_behave_review_key(r, tenant, "h:", id, len);
    keys[3] = ngx_http_behave_review_key(r, tenant, "t:", id, len);

    if (keys[0] == NULL || keys[1] == NULL || keys[2] == NULL
        || keys[3] == NULL)
    {
        return NGX_ERROR;
    }

    return NGX_OK;
}


/*
 * Files a flagged conversation in the background, after its turn was
 * stored: the answer does not wait, and a lost write only leaves the
 * queue without it until its next flagged turn (the mark, put after
 * the conversation's state once the filing succeeded, is then still the
 * old one).
 */

void
ngx_http_behave_review_file(ngx_http_request_t *r, const char *tenant,
    behave_review_rec_t *rec, time_t ttl, ngx_str_t *state_key,
    const char *mark)
{
    u_char      *p;
    size_t       i, len[10 + BEHAVE_REVIEW_PAIRS_MAX];
    ngx_str_t   *keys[4];
    ngx_time_t  *tp;
    const char  *argv[10 + BEHAVE_REVIEW_PAIRS_MAX];

    if (ngx_http_behave_review_keys(r, tenant, rec->id, keys) != NGX_OK) {
        return;
    }

    p = ngx_pnalloc(r->pool, 2 * NGX_INT64_LEN);
    if (p == NULL) {
        return;
    }

    tp = ngx_timeofday();

    if (ngx_http_behave_review_script.sha1[0] == '\0') {
        ngx_http_behave_redis_script_init(&ngx_http_behave_review_script);
    }

    argv[0] = "EVALSHA";
    argv[1] = ngx_http_behave_review_script.sha1;
    argv[2] = "3";
    argv[3] = (char *) keys[0]->data;
    argv[4] = (char *) keys[1]->data;
    argv[5] = (char *) keys[2]->data;
    argv[6] = rec->id;
    argv[7] = (char *) p;
    len[7] = ngx_sprintf(p, "%L", (int64_t) tp->sec * 1000 + tp->msec) - p;
    p += len[7];
    argv[8] = (char *) p;
    len[8] = ngx_sprintf(p, "%T", ttl) - p;

    len[0] = 7;
    len[1] = 40;
    len[2] = 1;
    len[3] = keys[0]->len;
    len[4] = keys[1]->len;
    len[5] = keys[2]->len;
    len[6] = ngx_strlen(rec->id);

    argv[9] = rec->reopened;
    len[9] = ngx_strlen(rec->reopened);

    for (i = 0; i < rec->n; i++) {
        argv[10 + i] = rec->argv[i];
        len[10 + i] = rec->len[i];
    }

    ngx_http_behave_review_send(10 + rec->n, argv, len, state_key, mark);
}


/*
 * The arguments copied, for a second send and the mark; without memory,
 * sent once and no mark written (the next flagged turn files again)
 */

static void
ngx_http_behave_review_send(int argc, const char **argv, const size_t *len,
    ngx_str_t *state_key, const char *mark)
{
    int                           i;
    char                         *q;
    size_t                        size;
    ngx_http_behave_review_bg_t  *bg;

    size = sizeof(ngx_http_behave_review_bg_t);

    for (i = 2; i < argc; i++) {
        size += len[i];
    }

    size += state_key->len;

    bg = ngx_alloc(size, ngx_cycle->log);

    if (bg != NULL) {
        bg->argc = argc;
        bg->resent = 0;
        q = bg->bytes;

        for (i = 2; i < argc; i++) {
            bg->argv[i] = q;
            bg->len[i] = len[i];
            q = (char *) ngx_cpymem(q, argv[i], len[i]);
        }

        bg->state_key = q;
        bg->state_key_len = state_key->len;
        ngx_memcpy(q, state_key->data, state_key->len);
        ngx_cpystrn((u_char *) bg->mark, (u_char *) mark, sizeof(bg->mark));
    }

    if (ngx_http_behave_redis_command_bg(argc, argv, len,
                                         ngx_http_behave_review_filed, bg)
        != NGX_OK)
    {
        ngx_free(bg);
    }
}


static void
ngx_http_behave_review_filed(redisReply *reply, void *data)
{
    ngx_http_behave_review_bg_t  *bg = data;

    if (reply != NULL && reply->type == REDIS_REPLY_ERROR
        && bg != NULL && !bg->resent
        && ngx_strncmp(reply->str, "NOSCRIPT", 8) == 0)
    {
        /* Redis restarted or another node: load it with this filing */
        bg->argv[0] = "EVAL";
        bg->len[0] = 4;
        bg->argv[1] = ngx_http_behave_review_index_script;
        bg->len[1] = ngx_strlen(ngx_http_behave_review_index_script);
        bg->resent = 1;

        if (ngx_http_behave_redis_command_bg(bg->argc, bg->argv, bg->len,
                                             ngx_http_behave_review_filed,
                                             bg)
            == NGX_OK)
        {
            return;
        }
    }

    if (reply != NULL && reply->type == REDIS_REPLY_ERROR) {
        ngx_log_error(NGX_LOG_ERR, ngx_cycle->log, 0,
                      "behave: redis review filing: %s", reply->str);
    }

    /* only a filing that happened is marked as done */
    if (reply != NULL && reply->type == REDIS_REPLY_INTEGER && bg != NULL) {
        ngx_http_behave_review_mark(bg->state_key, bg->state_key_len,
                                    bg->mark);
    }

    ngx_free(bg);
}


/* in the conversation's slot, so not in the filing's script */

void
ngx_http_behave_review_mark(const char *state_key, size_t key_len,
    const char *mark)
{
    size_t       len[5];
    const char  *argv[5];

    argv[0] = "EVAL";
    argv[1] = ngx_http_behave_review_mark_script;
    argv[2] = "1";
    argv[3] = state_key;
    argv[4] = mark;

    len[0] = 4;
    len[1] = sizeof(ngx_http_behave_review_mark_script) - 1;
    len[2] = 1;
    len[3] = key_len;
    len[4] = ngx_strlen(mark);

    (void) ngx_http_behave_redis_command_bg(5, argv, len,
                                            ngx_http_behave_review_marked,
                                            NULL);
}


static void
ngx_http_behave_review_marked(redisReply *reply, void *data)
{
    if (reply != NULL && reply->type == REDIS_REPLY_ERROR) {
        ngx_log_error(NGX_LOG_ERR, ngx_cycle->log, 0,
                      "behave: redis review mark: %s", reply->str);
    }
}
