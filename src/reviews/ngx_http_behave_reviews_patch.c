/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * PATCH /v1/reviews/<id>: mark one review reviewed (or not), by whom,
 * with a note.  One script changes the record and appends the history
 * entry, so the history never misses a change that was made.  A
 * conversation's filing mark is then taken off its state (its own slot,
 * another command), so that its next flagged turn files it again and, if
 * marked reviewed, reopens it.
 */


#include "ngx_http_behave_reviews_patch.h"
#include "ngx_http_behave_reviews_util.h"
#include "ngx_http_behave_redis_reply.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_rv_patch_lua.h"           /* rv_patch.lua */

#include "base/behave_json_parse.h"


typedef struct {
    ngx_str_t                   id;
    cJSON                      *root;
} ngx_http_behave_rv_patch_t;


static void ngx_http_behave_reviews_patch_body(ngx_http_request_t *r);
static ngx_int_t ngx_http_behave_reviews_patch_send(ngx_http_request_t *r,
    ngx_http_behave_rv_patch_t *pt);
static void ngx_http_behave_reviews_patch_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static void ngx_http_behave_reviews_patch_cleanup(void *data);
static void ngx_http_behave_reviews_patch_unmark(ngx_http_request_t *r,
    ngx_http_behave_rv_patch_t *pt);


ngx_int_t
ngx_http_behave_reviews_patch(ngx_http_request_t *r, ngx_str_t *id)
{
    ngx_int_t                    rc;
    ngx_http_behave_rv_patch_t  *pt;

    pt = ngx_http_behave_surface_new(r, sizeof(ngx_http_behave_rv_patch_t),
                                     ngx_http_behave_reviews_patch_cleanup);
    if (pt == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    pt->id = *id;

    rc = ngx_http_read_client_request_body(r,
                                        ngx_http_behave_reviews_patch_body);

    if (rc >= NGX_HTTP_SPECIAL_RESPONSE) {
        return rc;
    }

    return NGX_DONE;
}


static void
ngx_http_behave_reviews_patch_cleanup(void *data)
{
    ngx_http_behave_rv_patch_t  *pt = data;

    cJSON_Delete(pt->root);
    pt->root = NULL;
}


static void
ngx_http_behave_reviews_patch_body(ngx_http_request_t *r)
{
    ngx_int_t                    rc;
    ngx_str_t                    body;
    behave_error_t               err;
    ngx_http_behave_rv_patch_t  *pt;
    ngx_http_behave_loc_conf_t  *blcf;

    pt = ngx_http_behave_surface(r);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    rc = ngx_http_behave_body_string(r, blcf->max_body_size, &body);

    if (rc == NGX_DECLINED) {
        rc = ngx_http_behave_fail(r, BEHAVE_ERR_TOO_LARGE,
                 "the request body is larger than behave_max_body_size");

    } else if (rc != NGX_OK) {
        rc = NGX_HTTP_INTERNAL_SERVER_ERROR;

    } else {
        /* UTF-8, strict JSON, an object: as every surface's body */
        pt->root = behave_json_parse_object((char *) body.data, body.len,
                                            &err);

        rc = (pt->root != NULL) ? ngx_http_behave_reviews_patch_send(r, pt)
                                : ngx_http_behave_send_error(r, &err);
    }

    if (rc == NGX_DONE) {
        /* the Redis step answers later: keep the request */
        r->main->count++;
    }

    ngx_http_finalize_request(r, rc);
}


static ngx_int_t
ngx_http_behave_reviews_patch_send(ngx_http_request_t *r,
    ngx_http_behave_rv_patch_t *pt)
{
    char                          *entry;
    size_t                         elen;
    int64_t                        now;
    ngx_str_t                     *rec, *hist;
    ngx_time_t                    *tp;
    const char                    *reason;
    behave_error_t                 err;
    behave_review_patch_t          patch;
    ngx_http_behave_ctx_t         *ctx;
    ngx_http_behave_redis_args_t   a;

    if (behave_review_patch_parse(pt->root, &patch, &err) != BEHAVE_OK) {
        return ngx_http_behave_send_error(r, &err);
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    rec = ngx_http_behave_review_key(r, ctx->key->tenant, "r:",
                                      (char *) pt->id.data, pt->id.len);
    hist = ngx_http_behave_review_key(r, ctx->key->tenant, "h:",
                                       (char *) pt->id.data, pt->id.len);

    if (rec == NULL || hist == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    tp = ngx_timeofday();
    now = (int64_t) tp->sec * 1000 + tp->msec;

    entry = behave_review_patch_entry(&patch, now, &elen);
    if (entry == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_rv_patch_script);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_RV_PATCH_KEY_RECORD,
                                  rec);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_RV_PATCH_KEY_HISTORY,
                                  hist);
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_RV_PATCH_ARG_REVIEWED,
                                  patch.reviewed ? "1" : "0");
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_RV_PATCH_ARG_BY,
                                  patch.by);
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_RV_PATCH_ARG_NOTE,
                                  patch.note);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_RV_PATCH_ARG_NOW, now);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_RV_PATCH_ARG_ENTRY, entry,
                              elen);

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave reviews: \"%V\" marked reviewed %d",
                   &pt->id, patch.reviewed);

    /* the arguments are copied: the entry can go at once */
    if (ngx_http_behave_redis_run(r, &a, ngx_http_behave_reviews_patch_reply,
                                  pt, &reason)
        != NGX_OK)
    {
        free(entry);
        return ngx_http_behave_reviews_unavailable(r, reason);
    }

    free(entry);

    return NGX_DONE;
}


static void
ngx_http_behave_reviews_patch_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    size_t                       i, n;
    cJSON                       *o;
    const char                 **hist;
    size_t                      *hlen;
    redisReply                  *h;
    behave_review_fields_t       f;
    ngx_http_behave_rv_patch_t  *pt = data;

    if (ngx_http_behave_redis_failed(r, reply, "reviews patch script")) {
        ngx_http_finalize_request(r,
            ngx_http_behave_reviews_unavailable(r, reason));
        return;
    }

    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2
        || reply->element[0]->type != REDIS_REPLY_ARRAY
        || reply->element[1]->type != REDIS_REPLY_ARRAY)
    {
        ngx_http_finalize_request(r,
            ngx_http_behave_fail(r, BEHAVE_ERR_NOT_FOUND, "no such review"));
        return;
    }

    ngx_http_behave_reviews_fields(reply->element[0], &f);
    ngx_http_behave_reviews_patch_unmark(r, pt);

    h = reply->element[1];
    hist = ngx_palloc(r->pool, (h->elements + 1) * sizeof(char *));
    hlen = ngx_palloc(r->pool, (h->elements + 1) * sizeof(size_t));

    if (hist == NULL || hlen == NULL) {
        ngx_http_finalize_request(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    n = 0;

    for (i = 0; i < h->elements; i++) {
        if (h->element[i]->type == REDIS_REPLY_STRING) {
            hist[n] = h->element[i]->str;
            hlen[n++] = h->element[i]->len;
        }
    }

    /* the review without its transcript: the state that changed */
    o = behave_review_detail_json((char *) pt->id.data, pt->id.len, &f,
                                  hist, hlen, n, NULL, 0, 0, 0);

    if (o != NULL) {
        cJSON_DeleteItemFromObjectCaseSensitive(o, "transcript");
        cJSON_DeleteItemFromObjectCaseSensitive(o, "findings");
        cJSON_DeleteItemFromObjectCaseSensitive(o, "turns_trimmed");
    }

    ngx_http_finalize_request(r, ngx_http_behave_reviews_send(r, o));
}


/*
 * A conversation's review changed by a person: its mark goes, so that
 * the next flagged turn files (and reopens) it.  Taken off after the
 * PATCH, not before: a turn filed in between cannot leave a mark that
 * hides the change.  Lost (Redis blip), the review is filed again at the
 * latest a refresh (a minute) later.
 */

static void
ngx_http_behave_reviews_patch_unmark(ngx_http_request_t *r,
    ngx_http_behave_rv_patch_t *pt)
{
    u_char                 *p, *cid;
    size_t                  n, len;
    ngx_http_behave_ctx_t  *ctx;

    if (pt->id.len <= 5 || ngx_strncmp(pt->id.data, "conv:", 5) != 0) {
        return;
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    n = pt->id.len - 5;

    cid = ngx_pnalloc(r->pool, n + 1);
    p = ngx_pnalloc(r->pool, sizeof(NGX_HTTP_BEHAVE_KEY_CONV_STATE)
                             + ngx_strlen(ctx->key->tenant) + n);
    if (cid == NULL || p == NULL) {
        return;
    }

    ngx_memcpy(cid, pt->id.data + 5, n);
    cid[n] = '\0';

    len = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_CONV_STATE, ctx->key->tenant,
                      cid)
          - p;

    ngx_http_behave_review_mark((char *) p, len, "");
}
