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
#include "ngx_http_behave_redis_script.h"
#include "ngx_http_behave_review_file_lua.h"     /* review_file.lua */
#include "ngx_http_behave_review_mark_lua.h"     /* review_mark.lua */


/* the conversation's mark, written once the filing succeeded */
typedef struct {
    char                         *state_key;
    size_t                        state_key_len;
    char                          mark[BEHAVE_REVIEW_MARK_LEN + 1];
    char                          bytes[1];
} ngx_http_behave_review_bg_t;


static void ngx_http_behave_review_send(ngx_http_behave_redis_args_t *a,
    ngx_str_t *state_key, const char *mark);
static void ngx_http_behave_review_filed(redisReply *reply, void *data);
static void ngx_http_behave_review_marked(redisReply *reply, void *data);


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
    size_t                         i;
    ngx_str_t                     *keys[4];
    ngx_time_t                    *tp;
    ngx_http_behave_redis_args_t   a;

    if (ngx_http_behave_review_keys(r, tenant, rec->id, keys) != NGX_OK) {
        return;
    }

    tp = ngx_timeofday();

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_review_file_script);

    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_REVIEW_FILE_KEY_INDEX,
                                  keys[0]);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_REVIEW_FILE_KEY_RECORD,
                                  keys[1]);
    ngx_http_behave_redis_put_ngx(&a,
                                  NGX_HTTP_BEHAVE_REVIEW_FILE_KEY_HISTORY,
                                  keys[2]);
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_REVIEW_FILE_ARG_ID,
                                  rec->id);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_REVIEW_FILE_ARG_NOW,
                                  (int64_t) tp->sec * 1000 + tp->msec);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_REVIEW_FILE_ARG_TTL,
                                  ttl);
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_REVIEW_FILE_ARG_REOPEN,
                                  rec->reopened);

    for (i = 0; i < rec->n; i++) {
        ngx_http_behave_redis_arg(&a, rec->argv[i], rec->len[i]);
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave review: filing \"%s\" of tenant \"%s\"",
                   rec->id, tenant);

    ngx_http_behave_review_send(&a, state_key, mark);
}


/*
 * The mark copied for when the filing is done; without memory, filed
 * all the same and no mark written (the next flagged turn files again).
 * At every turn of a flagged conversation, so by EVALSHA (EVAL would
 * make Redis hash the script's text each time): the adapter sends it
 * again by EVAL after a NOSCRIPT.
 */

static void
ngx_http_behave_review_send(ngx_http_behave_redis_args_t *a,
    ngx_str_t *state_key, const char *mark)
{
    ngx_http_behave_review_bg_t  *bg;

    bg = ngx_alloc(sizeof(ngx_http_behave_review_bg_t) + state_key->len,
                   ngx_cycle->log);

    if (bg != NULL) {
        bg->state_key = bg->bytes;
        bg->state_key_len = state_key->len;
        ngx_memcpy(bg->bytes, state_key->data, state_key->len);
        ngx_cpystrn((u_char *) bg->mark, (u_char *) mark, sizeof(bg->mark));
    }

    if (ngx_http_behave_redis_run_bg(a, ngx_http_behave_review_filed, bg)
        != NGX_OK)
    {
        ngx_free(bg);
    }
}


static void
ngx_http_behave_review_filed(redisReply *reply, void *data)
{
    ngx_http_behave_review_bg_t  *bg = data;

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
    ngx_http_behave_redis_args_t  a;

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_review_mark_script);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_REVIEW_MARK_KEY_STATE,
                              state_key, key_len);
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_REVIEW_MARK_ARG_MARK,
                                  mark);

    (void) ngx_http_behave_redis_run_bg(&a, ngx_http_behave_review_marked,
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
