/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C: what its management API and its receiver share.
 */


#include "ngx_http_behave_webhooks_util.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_stats.h"


/*
 * Our own failure: 503 with Retry-After, so that a platform retries and
 * a client knows it may.  Nothing was written when this is answered.
 */

ngx_int_t
ngx_http_behave_webhooks_unavailable(ngx_http_request_t *r, const char *what,
    const char *reason)
{
    behave_error_t          err;
    ngx_http_behave_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (ctx != NULL && ctx->delivery) {
        ngx_http_behave_stats_webhook(NGX_HTTP_BEHAVE_WH_FAILED);
    }

    if (ngx_http_behave_add_header(r, "Retry-After",
                                   NGX_HTTP_BEHAVE_WH_RETRY_AFTER)
        != NGX_OK)
    {
        return NGX_ERROR;
    }

    behave_error_set(&err, BEHAVE_ERR_UNAVAILABLE,
                     "%s is unavailable (%s); retry later", what, reason);

    return ngx_http_behave_send_error(r, &err);
}


/* one of the surface's scripts for this request; what names the 503 */

ngx_int_t
ngx_http_behave_webhooks_run(ngx_http_request_t *r,
    ngx_http_behave_redis_args_t *a, ngx_http_behave_redis_pt handler,
    void *data, const char *what)
{
    const char  *reason;

    if (ngx_http_behave_redis_run(r, a, handler, data, &reason) != NGX_OK)
    {
        return ngx_http_behave_webhooks_unavailable(r, what, reason);
    }

    return NGX_DONE;
}


/* NGX_HTTP_BEHAVE_KEY_WH_TENANT "<what><id>" in the request pool */

ngx_str_t *
ngx_http_behave_webhooks_key(ngx_http_request_t *r, const char *tenant,
    const char *what, const char *id, size_t id_len)
{
    return ngx_http_behave_redis_key(r, NGX_HTTP_BEHAVE_KEY_WH_TENANT, tenant,
                                     what, id, id_len);
}


/*
 * behave_public_url when set, else the scheme and Host of this request:
 * behind a proxy that rewrites Host, set behave_public_url.
 */

char *
ngx_http_behave_webhooks_receiver_url(ngx_http_request_t *r,
    const char *slug)
{
    u_char                      *p;
    size_t                       len;
    ngx_str_t                    base, host;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    base = blcf->public_url;

    while (base.len && base.data[base.len - 1] == '/') {
        base.len--;
    }

    if (r->headers_in.host != NULL) {
        host = r->headers_in.host->value;

    } else {
        host = r->headers_in.server;
    }

    len = base.len + sizeof("https://") - 1 + host.len
          + sizeof(NGX_HTTP_BEHAVE_WH_PATH "/") - 1 + ngx_strlen(slug) + 1;

    p = ngx_pnalloc(r->pool, len);
    if (p == NULL) {
        return NULL;
    }

    if (blcf->public_url.len) {
        ngx_sprintf(p, "%V" NGX_HTTP_BEHAVE_WH_PATH "/%s%Z", &base, slug);

    } else {
        ngx_sprintf(p, "%s://%V" NGX_HTTP_BEHAVE_WH_PATH "/%s%Z",
#if (NGX_HTTP_SSL)
                    r->connection->ssl ? "https" : "http",
#else
                    "http",
#endif
                    &host, slug);
    }

    return (char *) p;
}


char *
ngx_http_behave_webhooks_pstrdup(ngx_http_request_t *r, const char *s,
    size_t len)
{
    u_char  *p;

    p = ngx_pnalloc(r->pool, len + 1);
    if (p == NULL) {
        return NULL;
    }

    ngx_memcpy(p, s, len);
    p[len] = '\0';

    return (char *) p;
}
