/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The review queue: the entry point of behave_reviews, the helpers its
 * read and PATCH paths share, and the background write of a flagged
 * conversation (the webhook commit script files calls itself).
 *
 * Routing inside the location: a URI ending in "/v1/reviews" is the
 * list, "/v1/reviews/<id>" one review; anything else is 404.
 */


#include "ngx_http_behave_reviews.h"


ngx_int_t
ngx_http_behave_reviews_handler(ngx_http_request_t *r)
{
    u_char                      *p, *last;
    ngx_str_t                    id;
    behave_error_t               err;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_loc_conf_t  *blcf;

    static const size_t  plen = sizeof(NGX_HTTP_BEHAVE_RV_PATH) - 1;

    ctx = ngx_http_behave_get_ctx(r);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    last = r->uri.data + r->uri.len;
    p = ngx_strlcasestrn(r->uri.data, last, (u_char *) NGX_HTTP_BEHAVE_RV_PATH,
                         plen - 1);

    ngx_str_null(&id);

    if (p != NULL) {
        p += plen;

        if (p < last && *p == '/' && p + 1 < last) {
            id.data = p + 1;
            id.len = last - p - 1;

        } else if (p != last) {
            p = NULL;
        }
    }

    if (p == NULL) {
        if (ngx_http_discard_request_body(r) != NGX_OK) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        return ngx_http_behave_fail(r, BEHAVE_ERR_NOT_FOUND,
                                    "no such review resource");
    }

    if (r->method != NGX_HTTP_GET
        && (id.len == 0 || r->method != NGX_HTTP_PATCH))
    {
        if (ngx_http_discard_request_body(r) != NGX_OK) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        return ngx_http_behave_method_not_allowed(r, id.len ? "GET, PATCH"
                                                            : "GET");
    }

    if (ngx_http_behave_authenticate(r, blcf->keys, BEHAVE_SCOPE_PORTAL,
                                     &ctx->key, &err)
        != NGX_OK
        || (r->method == NGX_HTTP_PATCH
            && ngx_http_behave_check_body(r, blcf->max_body_size, &err)
               != NGX_OK))
    {
        if (ngx_http_discard_request_body(r) != NGX_OK) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        return ngx_http_behave_send_error(r, &err);
    }

    /* an id that cannot be one is simply not there */
    if (id.len && !behave_review_id_valid((char *) id.data, id.len)) {
        if (ngx_http_discard_request_body(r) != NGX_OK) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        return ngx_http_behave_fail(r, BEHAVE_ERR_NOT_FOUND,
                                    "no such review");
    }

    if (r->method == NGX_HTTP_PATCH) {
        return ngx_http_behave_reviews_patch(r, &id);
    }

    if (ngx_http_discard_request_body(r) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    return id.len ? ngx_http_behave_reviews_get(r, &id)
                  : ngx_http_behave_reviews_list(r);
}


/* the HMGET answer of behave_review.fields' fields, in their order */

void
ngx_http_behave_reviews_fields(redisReply *reply, behave_review_fields_t *f)
{
    size_t       i;
    redisReply  *e;

    ngx_memzero(f, sizeof(behave_review_fields_t));

    for (i = 0; i < reply->elements && i < BEHAVE_RF_LAST; i++) {
        e = reply->element[i];

        if (e->type == REDIS_REPLY_STRING) {
            f->v[i] = e->str;
            f->len[i] = e->len;
        }
    }
}


ngx_int_t
ngx_http_behave_reviews_unavailable(ngx_http_request_t *r,
    const char *reason)
{
    behave_error_t  err;

    if (ngx_http_behave_add_header(r, "Retry-After", "5") != NGX_OK) {
        return NGX_ERROR;
    }

    behave_error_set(&err, BEHAVE_ERR_UNAVAILABLE,
                     "the review store is unavailable (%s); retry later",
                     reason ? reason : "redis error");

    return ngx_http_behave_send_error(r, &err);
}


/* sends and frees o; NULL (out of memory) is a 500 */

ngx_int_t
ngx_http_behave_reviews_send(ngx_http_request_t *r, cJSON *o)
{
    if (o == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* a person's data: no cache keeps it */
    if (ngx_http_behave_add_header(r, "Cache-Control", "no-store")
        != NGX_OK)
    {
        cJSON_Delete(o);
        return NGX_ERROR;
    }

    return ngx_http_behave_send_cjson(r, NGX_HTTP_OK, o);
}
