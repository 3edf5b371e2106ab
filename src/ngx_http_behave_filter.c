/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * nginx answers a body over client_max_body_size itself, with an HTML
 * 413, before a content handler runs.  In a behave location that answer
 * is turned into the module's JSON error shape, so clients parse one
 * format whatever refused them.  (A body sent too slowly gets no answer
 * at all: nginx closes the connection.)
 */


#include "ngx_http_behave_filter.h"
#include "ngx_http_behave_util.h"


static ngx_int_t ngx_http_behave_header_filter(ngx_http_request_t *r);
static ngx_int_t ngx_http_behave_body_filter(ngx_http_request_t *r,
    ngx_chain_t *in);


static ngx_http_output_header_filter_pt  ngx_http_next_header_filter;
static ngx_http_output_body_filter_pt    ngx_http_next_body_filter;


ngx_int_t
ngx_http_behave_filter_init(ngx_conf_t *cf)
{
    ngx_http_next_header_filter = ngx_http_top_header_filter;
    ngx_http_top_header_filter = ngx_http_behave_header_filter;

    ngx_http_next_body_filter = ngx_http_top_body_filter;
    ngx_http_top_body_filter = ngx_http_behave_body_filter;

    return NGX_OK;
}


static ngx_int_t
ngx_http_behave_header_filter(ngx_http_request_t *r)
{
    char                        *json;
    size_t                       len;
    ngx_int_t                    rc;
    ngx_buf_t                   *b;
    ngx_chain_t                  out;
    behave_error_t               err;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    /* only nginx's own special responses, never the module's answers */
    if (blcf == NULL || !blcf->surfaces || r != r->main
        || r->headers_out.content_type.len != sizeof("text/html") - 1
        || ngx_strncmp(r->headers_out.content_type.data, "text/html",
                       sizeof("text/html") - 1) != 0)
    {
        return ngx_http_next_header_filter(r);
    }

    if (r->headers_out.status != NGX_HTTP_REQUEST_ENTITY_TOO_LARGE) {
        return ngx_http_next_header_filter(r);
    }

    behave_error_set(&err, BEHAVE_ERR_TOO_LARGE,
                     "the request body is larger than %zu bytes",
                     blcf->max_body_size);

    ctx = ngx_http_behave_get_ctx(r);
    json = behave_error_json(&err, &len);

    if (ctx == NULL || json == NULL) {
        free(json);
        return NGX_ERROR;
    }

    b = ngx_create_temp_buf(r->pool, len);
    if (b == NULL) {
        free(json);
        return NGX_ERROR;
    }

    b->last = ngx_cpymem(b->pos, json, len);
    b->last_buf = 1;
    free(json);

    ctx->error_replaced = 1;

    ngx_str_set(&r->headers_out.content_type, "application/json");
    r->headers_out.content_type_len = r->headers_out.content_type.len;
    r->headers_out.content_length_n = len;

    rc = ngx_http_next_header_filter(r);

    if (rc == NGX_ERROR || rc > NGX_OK || r->header_only) {
        return rc;
    }

    out.buf = b;
    out.next = NULL;

    return ngx_http_next_body_filter(r, &out);
}


/* the HTML page that follows a replaced header is dropped */

static ngx_int_t
ngx_http_behave_body_filter(ngx_http_request_t *r, ngx_chain_t *in)
{
    ngx_http_behave_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (ctx == NULL || !ctx->error_replaced || r != r->main) {
        return ngx_http_next_body_filter(r, in);
    }

    for ( /* void */ ; in; in = in->next) {
        in->buf->pos = in->buf->last;
        in->buf->file_pos = in->buf->file_last;
    }

    /* the JSON may still be waiting for the socket: let it be flushed */
    return ngx_http_next_body_filter(r, NULL);
}
