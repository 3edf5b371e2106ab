/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface A: the limits of a gateway key (rpm, concurrency, tokens a day).
 */

#ifndef NGX_HTTP_BEHAVE_LIMITS_H
#define NGX_HTTP_BEHAVE_LIMITS_H

#include "ngx_http_behave_gw.h"


ngx_int_t ngx_http_behave_limits_check(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);
ngx_int_t ngx_http_behave_limits_headers(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);


#endif /* NGX_HTTP_BEHAVE_LIMITS_H */
