/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Small helpers of the glue: clocks, identifiers, the request context,
 * headers, whole files at configuration time.
 */

#ifndef NGX_HTTP_BEHAVE_UTIL_H
#define NGX_HTTP_BEHAVE_UTIL_H

#include "ngx_http_behave_common.h"


char *ngx_http_behave_conf_read(ngx_conf_t *cf, const char *directive,
    ngx_str_t *file, size_t max, ngx_str_t *text);

ngx_int_t ngx_http_behave_phase_handler_add(ngx_conf_t *cf,
    ngx_http_phases phase, ngx_http_handler_pt handler);

ngx_table_elt_t *ngx_http_behave_find_header(ngx_http_request_t *r,
    ngx_str_t *name);
ngx_http_behave_ctx_t *ngx_http_behave_get_ctx(ngx_http_request_t *r);

/* handler(data) when the pool goes; NGX_ERROR when out of memory */
ngx_int_t ngx_http_behave_on_cleanup(ngx_pool_t *pool,
    ngx_pool_cleanup_pt handler, void *data);
/* a zeroed block that handler(block) releases when the pool goes */
void *ngx_http_behave_pcalloc_owned(ngx_pool_t *pool, size_t size,
    ngx_pool_cleanup_pt handler);
/* the request's surface state: made so (after get_ctx()), then read */
void *ngx_http_behave_surface_new(ngx_http_request_t *r, size_t size,
    ngx_pool_cleanup_pt handler);
void *ngx_http_behave_surface(ngx_http_request_t *r);
double ngx_http_behave_now_ms(void);
ngx_int_t ngx_http_behave_random_hex(u_char *out, size_t bytes);

/* a span of the request's trace: name static, start from now_ms() */
void ngx_http_behave_span(ngx_http_request_t *r, const char *name,
    double start_ms, const char *error);


#endif /* NGX_HTTP_BEHAVE_UTIL_H */
