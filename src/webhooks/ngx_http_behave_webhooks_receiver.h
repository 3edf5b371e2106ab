/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C: the receiver, POST /v1/webhooks/<slug>.
 */

#ifndef NGX_HTTP_BEHAVE_WEBHOOKS_RECEIVER_H
#define NGX_HTTP_BEHAVE_WEBHOOKS_RECEIVER_H

#include "ngx_http_behave_common.h"


ngx_int_t ngx_http_behave_webhooks_receive(ngx_http_request_t *r,
    ngx_str_t *slug);


#endif /* NGX_HTTP_BEHAVE_WEBHOOKS_RECEIVER_H */
