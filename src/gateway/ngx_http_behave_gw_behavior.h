/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface A: analyze-behavior with session history.
 */

#ifndef NGX_HTTP_BEHAVE_GW_BEHAVIOR_H
#define NGX_HTTP_BEHAVE_GW_BEHAVIOR_H

#include "ngx_http_behave_gw.h"


ngx_int_t ngx_http_behave_behavior_start(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);


#endif /* NGX_HTTP_BEHAVE_GW_BEHAVIOR_H */
