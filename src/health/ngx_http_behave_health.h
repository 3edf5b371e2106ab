/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * "behave_health [live] [strict];": liveness and readiness for load
 * balancers and orchestrators, without a key.
 */

#ifndef NGX_HTTP_BEHAVE_HEALTH_H
#define NGX_HTTP_BEHAVE_HEALTH_H

#include "ngx_http_behave_common.h"


#define NGX_HTTP_BEHAVE_HEALTH_LIVE    0x01   /* liveness only */
#define NGX_HTTP_BEHAVE_HEALTH_STRICT  0x02   /* no Redis: 503 */


ngx_int_t ngx_http_behave_health_handler(ngx_http_request_t *r);
char *ngx_http_behave_health_options(ngx_conf_t *cf, ngx_uint_t *options);


#endif /* NGX_HTTP_BEHAVE_HEALTH_H */
