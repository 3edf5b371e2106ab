/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface A: observability/traces.
 */

#ifndef NGX_HTTP_BEHAVE_TRACES_H
#define NGX_HTTP_BEHAVE_TRACES_H

#include "ngx_http_behave_gw.h"


ngx_int_t ngx_http_behave_traces_query(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);


#endif /* NGX_HTTP_BEHAVE_TRACES_H */
