/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Sending JSON answers and JSON errors, and the end of a request.
 */


#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_util.h"

#include "base/behave_json.h"


static ngx_int_t ngx_http_behave_send(ngx_http_request_t *r,
    ngx_uint_t status, u_char *json, size_t len, ngx_uint_t copy);
static void ngx_http_behave_free(void *data);


ngx_int_t
ngx_http_behave_send_json(ngx_http_request_t *r, ngx_uint_t status,
    u_char *json, size_t len)
{
    return ngx_http_behave_send(r, status, json, len, 1);
}


/* json (malloc()ed) is sent where it is and freed with the request */

ngx_int_t
ngx_http_behave_send_malloced(ngx_http_request_t *r, ngx_uint_t status,
    char *json, size_t len)
{
    if (json == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (ngx_http_behave_on_cleanup(r->pool, ngx_http_behave_free, json)
        != NGX_OK)
    {
        free(json);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    return ngx_http_behave_send(r, status, (u_char *) json, len, 0);
}


static void
ngx_http_behave_free(void *data)
{
    free(data);
}


static ngx_int_t
ngx_http_behave_send(ngx_http_request_t *r, ngx_uint_t status, u_char *json,
    size_t len, ngx_uint_t copy)
{
    ngx_int_t     rc;
    ngx_buf_t    *b;
    ngx_chain_t   out;

    r->headers_out.status = status;
    r->headers_out.content_length_n = len;
    ngx_str_set(&r->headers_out.content_type, "application/json");
    r->headers_out.content_type_len = r->headers_out.content_type.len;
    r->headers_out.content_type_lowcase = NULL;

    rc = ngx_http_send_header(r);

    if (rc == NGX_ERROR || rc > NGX_OK || r->header_only || len == 0) {
        return rc;
    }

    if (copy) {
        b = ngx_create_temp_buf(r->pool, len);
        if (b == NULL) {
            return NGX_ERROR;
        }

        b->last = ngx_cpymem(b->pos, json, len);

    } else {
        b = ngx_calloc_buf(r->pool);
        if (b == NULL) {
            return NGX_ERROR;
        }

        b->pos = json;
        b->last = json + len;
        b->memory = 1;
    }

    b->last_buf = (r == r->main) ? 1 : 0;
    b->last_in_chain = 1;

    out.buf = b;
    out.next = NULL;

    return ngx_http_output_filter(r, &out);
}


ngx_int_t
ngx_http_behave_send_error(ngx_http_request_t *r, behave_error_t *err)
{
    char       *json;
    size_t      len;
    ngx_uint_t  status, level;

    status = behave_error_status(err->err);

    /* a client's mistake is worth an info line, our own failure more */
    level = (status >= 500) ? NGX_LOG_ERR : NGX_LOG_INFO;

    ngx_log_error(level, r->connection->log, 0,
                  "behave: %d %s: %s", (int) status,
                  behave_error_code(err->err), err->message);

    if (err->err == BEHAVE_ERR_UNAUTHORIZED
        && ngx_http_behave_add_header(r, "WWW-Authenticate",
                                      "Bearer realm=\"behave\"")
           != NGX_OK)
    {
        return NGX_ERROR;
    }

    json = behave_error_json(err, &len);

    return ngx_http_behave_send_malloced(r, status, json, len);
}


ngx_int_t
ngx_http_behave_fail(ngx_http_request_t *r, behave_err_e code,
    const char *message)
{
    behave_error_t  err;

    behave_error_set(&err, code, "%s", message);

    return ngx_http_behave_send_error(r, &err);
}


ngx_int_t
ngx_http_behave_add_header(ngx_http_request_t *r, const char *name,
    const char *value)
{
    ngx_table_elt_t  *h;

    h = ngx_list_push(&r->headers_out.headers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    h->hash = 1;
    h->key.data = (u_char *) name;
    h->key.len = ngx_strlen(name);
    h->value.data = (u_char *) value;
    h->value.len = ngx_strlen(value);

    return NGX_OK;
}


ngx_int_t
ngx_http_behave_refuse(ngx_http_request_t *r, behave_error_t *err)
{
    if (ngx_http_discard_request_body(r) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    return ngx_http_behave_send_error(r, err);
}


ngx_int_t
ngx_http_behave_method_not_allowed(ngx_http_request_t *r, const char *allow)
{
    behave_error_t  err;

    if (ngx_http_discard_request_body(r) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (ngx_http_behave_add_header(r, "Allow", allow) != NGX_OK) {
        return NGX_ERROR;
    }

    behave_error_set(&err, BEHAVE_ERR_METHOD,
                     "method %.*s is not allowed here; allowed: %s",
                     (int) ngx_min(r->method_name.len, 16),
                     r->method_name.data, allow);

    return ngx_http_behave_send_error(r, &err);
}


/* sends obj (consumed; NULL means out of memory) as compact JSON */

ngx_int_t
ngx_http_behave_send_cjson(ngx_http_request_t *r, ngx_uint_t status,
    cJSON *obj)
{
    char    *json;
    size_t   len;

    if (obj == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    json = behave_json_print(obj, &len);
    cJSON_Delete(obj);

    return ngx_http_behave_send_malloced(r, status, json, len);
}


void
ngx_http_behave_finish(ngx_http_request_t *r, ngx_int_t rc)
{
    if (rc == NGX_DONE) {
        /* a Redis step answers later: keep the request until it does */
        r->main->count++;
    }

    ngx_http_finalize_request(r, rc);
}


ngx_int_t
ngx_http_behave_wait(ngx_http_request_t *r)
{
    /* the content phase's NGX_DONE releases what this takes */
    r->main->count++;

    return NGX_DONE;
}
