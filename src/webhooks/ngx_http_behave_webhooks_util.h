/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C: the constants and helpers its management API and its
 * receiver share.
 */

#ifndef NGX_HTTP_BEHAVE_WEBHOOKS_UTIL_H
#define NGX_HTTP_BEHAVE_WEBHOOKS_UTIL_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_script.h"


#define NGX_HTTP_BEHAVE_WH_PATH           "/v1/webhooks"
#define NGX_HTTP_BEHAVE_WH_SECRET_MIN     16
#define NGX_HTTP_BEHAVE_WH_DESCR_MAX      256
#define NGX_HTTP_BEHAVE_WH_DELIVERIES     50
#define NGX_HTTP_BEHAVE_WH_CALL_TTL       (7 * 86400)
#define NGX_HTTP_BEHAVE_WH_SEGMENT_TTL    (30 * 86400)
#define NGX_HTTP_BEHAVE_WH_RETRY_AFTER    "5"

/* the longest endpoint id and slug a URI may carry */
#define NGX_HTTP_BEHAVE_WH_ID_MAX         64
#define NGX_HTTP_BEHAVE_WH_SLUG_MAX       64

/* "wh_" + 32 hex digits, "dlv_" + 32 */
#define NGX_HTTP_BEHAVE_WH_ID_SIZE        40



ngx_int_t ngx_http_behave_webhooks_unavailable(ngx_http_request_t *r,
    const char *what, const char *reason);
/* the script of a: NGX_DONE when handler will answer, else the 503 */
ngx_int_t ngx_http_behave_webhooks_run(ngx_http_request_t *r,
    ngx_http_behave_redis_args_t *a, ngx_http_behave_redis_pt handler,
    void *data, const char *what);
ngx_str_t *ngx_http_behave_webhooks_key(ngx_http_request_t *r,
    const char *tenant, const char *what, const char *id, size_t id_len);
char *ngx_http_behave_webhooks_receiver_url(ngx_http_request_t *r,
    const char *slug);
char *ngx_http_behave_webhooks_pstrdup(ngx_http_request_t *r,
    const char *s, size_t len);


#endif /* NGX_HTTP_BEHAVE_WEBHOOKS_UTIL_H */
