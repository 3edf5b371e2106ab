/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Usage metering per tenant, the gateway's node-local limit windows and
 * concurrency, in the module's shared memory zone; flushed to Redis.
 */

#ifndef NGX_HTTP_BEHAVE_METER_H
#define NGX_HTTP_BEHAVE_METER_H

#include "ngx_http_behave_common.h"


ngx_int_t ngx_http_behave_meter_init_zone(ngx_shm_zone_t *shm_zone,
    void *data);
void ngx_http_behave_meter_count(ngx_http_request_t *r,
    const behave_key_t *key, ngx_uint_t n, ngx_http_behave_usage_t *usage);
void ngx_http_behave_meter_init_process(ngx_cycle_t *cycle);
ngx_int_t ngx_http_behave_meter_concurrency(ngx_http_request_t *r,
    const char *id, ngx_int_t delta, ngx_uint_t limit);
ngx_int_t ngx_http_behave_meter_window(ngx_http_request_t *r, const char *id,
    ngx_http_behave_limit_t *lim);


#endif /* NGX_HTTP_BEHAVE_METER_H */
