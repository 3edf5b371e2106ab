/*
 * Copyright (C) ngx_http_behave_module authors
 */


#include <openssl/rand.h>

#include "ngx_http_behave_common.h"


/* a monotonic clock with microsecond resolution, for reported latencies */

double
ngx_http_behave_now_ms(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);

    return (double) ts.tv_sec * 1000.0 + (double) ts.tv_nsec / 1e6;
}


/* 2 * bytes hex characters from the OS's randomness, NUL-terminated */

ngx_int_t
ngx_http_behave_random_hex(u_char *out, size_t bytes)
{
    u_char  raw[32];

    if (bytes > sizeof(raw) || RAND_bytes(raw, (int) bytes) != 1) {
        return NGX_ERROR;
    }

    *ngx_hex_dump(out, raw, bytes) = '\0';

    return NGX_OK;
}


ngx_http_behave_ctx_t *
ngx_http_behave_get_ctx(ngx_http_request_t *r)
{
    ngx_http_behave_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (ctx == NULL) {
        ctx = ngx_pcalloc(r->pool, sizeof(ngx_http_behave_ctx_t));
        if (ctx == NULL) {
            return NULL;
        }

        ctx->started_ms = ngx_http_behave_now_ms();
        ngx_http_set_ctx(r, ctx, ngx_http_behave_module);
    }

    return ctx;
}


ngx_table_elt_t *
ngx_http_behave_find_header(ngx_http_request_t *r, ngx_str_t *name)
{
    ngx_uint_t        i;
    ngx_list_part_t  *part;
    ngx_table_elt_t  *h;

    part = &r->headers_in.headers.part;
    h = part->elts;

    for (i = 0; /* void */ ; i++) {

        if (i >= part->nelts) {
            if (part->next == NULL) {
                return NULL;
            }

            part = part->next;
            h = part->elts;
            i = 0;
        }

        if (h[i].key.len == name->len
            && ngx_strncasecmp(h[i].key.data, name->data, name->len) == 0)
        {
            return &h[i];
        }
    }
}
