/*
 * Copyright (C) ngx_http_behave_module authors
 */


#include <openssl/rand.h>

#include "ngx_http_behave_util.h"


/* a monotonic clock with microsecond resolution, for reported latencies */

double
ngx_http_behave_now_ms(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);

    return (double) ts.tv_sec * 1000.0 + (double) ts.tv_nsec / 1e6;
}


/*
 * Identifiers (session ids, trace and span ids) must be unique, not
 * secret: a xoshiro256** generator per worker, seeded from OpenSSL once
 * per process, gives them without a DRBG call (and its getpid() syscall)
 * on every request.  Secrets and slugs use RAND_bytes directly.
 */

static uint64_t    ngx_http_behave_rng[4];

/* "00" .. "ff" */
static const char  ngx_http_behave_hex_pairs[] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static ngx_pid_t   ngx_http_behave_rng_pid;


static uint64_t
ngx_http_behave_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}


static uint64_t
ngx_http_behave_rng_next(void)
{
    uint64_t   r, t, *s;

    s = ngx_http_behave_rng;
    r = ngx_http_behave_rotl(s[1] * 5, 7) * 9;
    t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ngx_http_behave_rotl(s[3], 45);

    return r;
}


/* 2 * bytes hex characters (bytes <= 32), NUL-terminated */

ngx_int_t
ngx_http_behave_random_hex(u_char *out, size_t bytes)
{
    size_t    i;
    uint64_t  v;

    if (bytes > 32) {
        return NGX_ERROR;
    }

    /* a forked worker must not repeat its master's or a sibling's ids */
    if (ngx_http_behave_rng_pid != ngx_pid) {
        if (RAND_bytes((u_char *) ngx_http_behave_rng,
                       sizeof(ngx_http_behave_rng)) != 1)
        {
            return NGX_ERROR;
        }

        ngx_http_behave_rng_pid = ngx_pid;
    }

    /* two hex digits a byte from a table: 40 bytes on every request */
    v = 0;

    for (i = 0; i < bytes; i++) {
        if (i % 8 == 0) {
            v = ngx_http_behave_rng_next();
        }

        ngx_memcpy(out + 2 * i, &ngx_http_behave_hex_pairs[2 * (v & 0xff)],
                   2);
        v >>= 8;
    }

    out[2 * bytes] = '\0';

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


/*
 * What a pool's cleanup frees is registered in one step: the glue's
 * surfaces hold parse trees and buffers from malloc() (the core's), which
 * must go whatever path the request takes.
 */
ngx_int_t
ngx_http_behave_on_cleanup(ngx_pool_t *pool, ngx_pool_cleanup_pt handler,
    void *data)
{
    ngx_pool_cleanup_t  *cln;

    cln = ngx_pool_cleanup_add(pool, 0);
    if (cln == NULL) {
        return NGX_ERROR;
    }

    cln->handler = handler;
    cln->data = data;

    return NGX_OK;
}


void *
ngx_http_behave_pcalloc_owned(ngx_pool_t *pool, size_t size,
    ngx_pool_cleanup_pt handler)
{
    void  *p;

    p = ngx_pcalloc(pool, size);

    if (p == NULL || ngx_http_behave_on_cleanup(pool, handler, p) != NGX_OK) {
        return NULL;
    }

    return p;
}


void *
ngx_http_behave_surface_new(ngx_http_request_t *r, size_t size,
    ngx_pool_cleanup_pt handler)
{
    void                   *s;
    ngx_http_behave_ctx_t  *ctx;

    s = ngx_http_behave_pcalloc_owned(r->pool, size, handler);
    if (s == NULL) {
        return NULL;
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    ctx->surface = s;

    return s;
}


void *
ngx_http_behave_surface(ngx_http_request_t *r)
{
    ngx_http_behave_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    return ctx->surface;
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


/* a handler of one phase, from a postconfiguration */

ngx_int_t
ngx_http_behave_phase_handler_add(ngx_conf_t *cf, ngx_http_phases phase,
    ngx_http_handler_pt handler)
{
    ngx_http_handler_pt        *h;
    ngx_http_core_main_conf_t  *cmcf;

    cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);

    h = ngx_array_push(&cmcf->phases[phase].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    *h = handler;

    return NGX_OK;
}


/*
 * Reads a whole file named by a directive (relative to the prefix) into
 * cf->temp_pool, NUL-terminated; files over max are refused.  Errors name
 * the directive and the file.
 */

char *
ngx_http_behave_conf_read(ngx_conf_t *cf, const char *directive,
    ngx_str_t *file, size_t max, ngx_str_t *text)
{
    char             *rv;
    ssize_t           n;
    ngx_fd_t          fd;
    ngx_file_info_t   fi;

    if (ngx_conf_full_name(cf->cycle, file, 1) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    fd = ngx_open_file(file->data, NGX_FILE_RDONLY, NGX_FILE_OPEN, 0);
    if (fd == NGX_INVALID_FILE) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, ngx_errno,
                           "%s: cannot open \"%V\"", directive, file);
        return NGX_CONF_ERROR;
    }

    rv = NGX_CONF_ERROR;

    if (ngx_fd_info(fd, &fi) == NGX_FILE_ERROR) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, ngx_errno,
                           "%s: cannot stat \"%V\"", directive, file);
        goto done;
    }

    if (ngx_file_size(&fi) > (off_t) max) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "%s: \"%V\" is larger than %uz bytes",
                           directive, file, max);
        goto done;
    }

    text->len = (size_t) ngx_file_size(&fi);
    text->data = ngx_pnalloc(cf->temp_pool, text->len + 1);
    if (text->data == NULL) {
        goto done;
    }

    n = ngx_read_fd(fd, text->data, text->len);

    if (n < 0 || (size_t) n != text->len) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, ngx_errno,
                           "%s: cannot read \"%V\"", directive, file);
        goto done;
    }

    text->data[text->len] = '\0';
    rv = NGX_CONF_OK;

done:

    ngx_close_file(fd);
    return rv;
}


/* a span of the request's trace, noted in its context */

void
ngx_http_behave_span(ngx_http_request_t *r, const char *name,
    double start_ms, const char *error)
{
    ngx_http_behave_ctx_t   *ctx;
    ngx_http_behave_span_t  *s;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (ctx == NULL || ctx->nspans == NGX_HTTP_BEHAVE_SPANS) {
        return;
    }

    s = &ctx->spans[ctx->nspans++];
    s->name = name;
    s->start_ms = start_ms - ctx->started_ms;
    s->dur_ms = ngx_http_behave_now_ms() - start_ms;
    s->error = error;
}
