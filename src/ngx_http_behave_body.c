/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Request bodies: the checks made before reading, and the whole body as
 * one string once read, wherever nginx put its parts.
 */


#include "ngx_http_behave_body.h"


static ngx_int_t ngx_http_behave_is_json(ngx_http_request_t *r);
static ngx_http_behave_step_t ngx_http_behave_body_step(
    ngx_http_request_t *r, ngx_int_t rc);


/* what can be refused before a byte of the body is read */

ngx_int_t
ngx_http_behave_check_body(ngx_http_request_t *r, size_t max_body_size,
    behave_error_t *err)
{
    if (!ngx_http_behave_is_json(r)) {
        behave_error_set(err, BEHAVE_ERR_MEDIA_TYPE,
                         "Content-Type must be application/json");
        return NGX_DECLINED;
    }

    if (r->headers_in.content_length_n > (off_t) max_body_size) {
        behave_error_set(err, BEHAVE_ERR_TOO_LARGE,
                         "the request body is larger than %zu bytes",
                         max_body_size);
        return NGX_DECLINED;
    }

    return NGX_OK;
}


/* "application/json" with any parameters, in any case */

static ngx_int_t
ngx_http_behave_is_json(ngx_http_request_t *r)
{
    u_char           *p, *last;
    ngx_table_elt_t  *h;

    static const char  type[] = "application/json";

    h = r->headers_in.content_type;
    if (h == NULL || h->value.len < sizeof(type) - 1) {
        return 0;
    }

    if (ngx_strncasecmp(h->value.data, (u_char *) type, sizeof(type) - 1)
        != 0)
    {
        return 0;
    }

    p = h->value.data + sizeof(type) - 1;
    last = h->value.data + h->value.len;

    while (p < last && (*p == ' ' || *p == '\t')) {
        p++;
    }

    return p == last || *p == ';';
}


ngx_int_t
ngx_http_behave_read_body(ngx_http_request_t *r,
    ngx_http_client_body_handler_pt post_handler)
{
    ngx_int_t  rc;

    rc = ngx_http_read_client_request_body(r, post_handler);

    if (rc >= NGX_HTTP_SPECIAL_RESPONSE) {
        return rc;
    }

    /* the post handler finishes the request */
    return NGX_DONE;
}


/* NGX_DECLINED (too large) and errors answered, NGX_OK goes on */
static ngx_http_behave_step_t
ngx_http_behave_body_step(ngx_http_request_t *r, ngx_int_t rc)
{
    if (rc == NGX_DECLINED) {
        return ngx_http_behave_answered(ngx_http_behave_fail(r,
                   BEHAVE_ERR_TOO_LARGE,
                   "the request body is larger than behave_max_body_size"));
    }

    if (rc != NGX_OK) {
        return ngx_http_behave_answered(NGX_HTTP_INTERNAL_SERVER_ERROR);
    }

    return ngx_http_behave_go_on();
}


ngx_http_behave_step_t
ngx_http_behave_body_take(ngx_http_request_t *r, size_t max_body_size,
    ngx_str_t *body)
{
    return ngx_http_behave_body_step(r,
               ngx_http_behave_body_string(r, max_body_size, body));
}


ngx_http_behave_step_t
ngx_http_behave_body_reserve(ngx_http_request_t *r, size_t max_body_size,
    ngx_str_t *body)
{
    return ngx_http_behave_body_step(r,
               ngx_http_behave_body_size(r, max_body_size, body));
}


ngx_int_t
ngx_http_behave_body_string(ngx_http_request_t *r, size_t max_body_size,
    ngx_str_t *body)
{
    ngx_int_t  rc;

    rc = ngx_http_behave_body_size(r, max_body_size, body);

    if (rc != NGX_OK) {
        return rc;
    }

    if (ngx_http_behave_body_fill(r->request_body ? r->request_body->bufs
                                                   : NULL, body)
        != NGX_OK)
    {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: short read of the request body temp file");
        return NGX_ERROR;
    }

    return NGX_OK;
}


/* the body's size, checked, and a string for it in the pool, not filled */

ngx_int_t
ngx_http_behave_body_size(ngx_http_request_t *r, size_t max_body_size,
    ngx_str_t *body)
{
    u_char       *p;
    off_t         size;
    ngx_chain_t  *cl;

    body->len = 0;
    body->data = (u_char *) "";

    if (r->request_body == NULL || r->request_body->bufs == NULL) {
        return NGX_OK;
    }

    size = 0;

    for (cl = r->request_body->bufs; cl; cl = cl->next) {
        size += ngx_buf_size(cl->buf);
    }

    if (size > (off_t) max_body_size) {
        return NGX_DECLINED;
    }

    p = ngx_pnalloc(r->pool, (size_t) size + 1);
    if (p == NULL) {
        return NGX_ERROR;
    }

    body->data = p;
    body->len = (size_t) size;

    return NGX_OK;
}


/*
 * A body larger than client_body_buffer_size is partly or wholly in a
 * temporary file: each buffer is taken from memory or read back from the
 * file.  The file was written by this worker a moment ago and is in the
 * page cache, so the read does not wait on the disk; 4 MiB of it still
 * take a millisecond or more, which is why this may run in a thread
 * (ngx_http_behave_offload.h): it touches only the chain, its file and
 * the string, and logs nothing.
 */

ngx_int_t
ngx_http_behave_body_fill(ngx_chain_t *bufs, ngx_str_t *body)
{
    u_char       *p;
    ssize_t       n;
    ngx_buf_t    *b;
    ngx_chain_t  *cl;

    if (bufs == NULL) {
        return NGX_OK;
    }

    p = body->data;

    for (cl = bufs; cl; cl = cl->next) {
        b = cl->buf;

        if (b->in_file) {
            n = pread(b->file->fd, p, (size_t) (b->file_last - b->file_pos),
                      b->file_pos);

            if (n != b->file_last - b->file_pos) {
                return NGX_ERROR;
            }

            p += n;
            continue;
        }

        p = ngx_cpymem(p, b->pos, b->last - b->pos);
    }

    *p = '\0';

    return p - body->data == (ssize_t) body->len ? NGX_OK : NGX_ERROR;
}
