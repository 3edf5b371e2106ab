/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface A: the gateway of six operations under /api/v1/.
 */

#ifndef NGX_HTTP_BEHAVE_GATEWAY_H
#define NGX_HTTP_BEHAVE_GATEWAY_H

#include "ngx_http_behave_common.h"


ngx_int_t ngx_http_behave_gateway_handler(ngx_http_request_t *r);


#endif /* NGX_HTTP_BEHAVE_GATEWAY_H */
