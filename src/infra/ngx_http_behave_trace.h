/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The tracer: a trace id for every request a handler takes, its spans in
 * the request context, the sampled ones appended to the tenant's Redis
 * stream in the log phase.
 */

#ifndef NGX_HTTP_BEHAVE_TRACE_H
#define NGX_HTTP_BEHAVE_TRACE_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_stats.h"


ngx_int_t ngx_http_behave_trace_init(ngx_conf_t *cf);

/* the prologue of a handler: its context, counted and traced; NULL: 500 */
ngx_http_behave_ctx_t *ngx_http_behave_trace_enter(ngx_http_request_t *r,
    ngx_http_behave_stat_surface_e surface);

void ngx_http_behave_trace_begin(ngx_http_request_t *r,
    ngx_http_behave_ctx_t *ctx, ngx_uint_t header);
void ngx_http_behave_trace_record(ngx_http_request_t *r,
    ngx_http_behave_ctx_t *ctx, const char *surface, double total_ms);


#endif /* NGX_HTTP_BEHAVE_TRACE_H */
