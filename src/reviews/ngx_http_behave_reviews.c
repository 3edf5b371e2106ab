/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The review queue: the entry point of behave_reviews, which routes to
 * the reads (_read.c) and the PATCH (_patch.c); what those share is in
 * _util.c (the writes that file a call or a conversation are in src/infra/
 * and the webhook commit script).
 *
 * Routing inside the location: a URI ending in "/v1/reviews" is the
 * list, "/v1/reviews/<id>" one review; anything else is 404.
 */


#include "ngx_http_behave_reviews.h"
#include "ngx_http_behave_reviews_patch.h"
#include "ngx_http_behave_reviews_read.h"
#include "ngx_http_behave_reviews_util.h"


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
