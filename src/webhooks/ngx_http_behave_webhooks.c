/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C: the entry point of behave_webhooks, which routes to its
 * management API (ngx_http_behave_webhooks_mgmt.c) or its receiver
 * (ngx_http_behave_webhooks_receiver.c).
 *
 * Routing inside the location: a URI ending in "/v1/webhooks" is the
 * management API; "/v1/webhooks/<slug>" is the receiver; anything else
 * is 404.  Matching on the "/v1/webhooks" part, wherever it starts, lets
 * a location be mounted under a prefix.
 */


#include "ngx_http_behave_webhooks.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_trace.h"
#include "ngx_http_behave_webhooks_mgmt.h"
#include "ngx_http_behave_webhooks_receiver.h"
#include "ngx_http_behave_webhooks_util.h"


ngx_int_t
ngx_http_behave_webhooks_handler(ngx_http_request_t *r)
{
    u_char                 *p, *last;
    ngx_str_t               slug;
    behave_error_t          err;
    ngx_http_behave_ctx_t  *ctx;

    static const size_t  plen = sizeof(NGX_HTTP_BEHAVE_WH_PATH) - 1;

    ctx = ngx_http_behave_trace_enter(r, NGX_HTTP_BEHAVE_STAT_WEBHOOKS);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    last = r->uri.data + r->uri.len;
    p = ngx_strlcasestrn(r->uri.data, last, (u_char *) NGX_HTTP_BEHAVE_WH_PATH,
                         plen - 1);

    if (p != NULL) {
        p += plen;

        if (p == last) {
            return ngx_http_behave_webhooks_mgmt(r);
        }

        if (*p == '/' && p + 1 < last) {
            slug.data = p + 1;
            slug.len = last - p - 1;
            ctx->delivery = 1;
            return ngx_http_behave_webhooks_receive(r, &slug);
        }
    }

    behave_error_set(&err, BEHAVE_ERR_NOT_FOUND, "no such webhook resource");

    return ngx_http_behave_refuse(r, &err);
}
