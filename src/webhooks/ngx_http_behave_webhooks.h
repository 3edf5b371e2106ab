/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C: the webhook management API and the receiver of the voice
 * platforms' post-call webhooks.  docs/API.md (Surface C) is the reference;
 * the Redis keys are in ngx_http_behave_redis_keys.h.
 */

#ifndef NGX_HTTP_BEHAVE_WEBHOOKS_H
#define NGX_HTTP_BEHAVE_WEBHOOKS_H

#include "ngx_http_behave_common.h"


ngx_int_t ngx_http_behave_webhooks_handler(ngx_http_request_t *r);


#endif /* NGX_HTTP_BEHAVE_WEBHOOKS_H */
