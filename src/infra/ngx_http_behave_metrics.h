/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * behave_metrics: the counters in Prometheus's text format.
 */

#ifndef NGX_HTTP_BEHAVE_METRICS_H
#define NGX_HTTP_BEHAVE_METRICS_H

#include "ngx_http_behave_common.h"


ngx_int_t ngx_http_behave_metrics_handler(ngx_http_request_t *r);


#endif /* NGX_HTTP_BEHAVE_METRICS_H */
