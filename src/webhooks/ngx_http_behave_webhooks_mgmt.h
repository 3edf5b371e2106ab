/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C: the management API, GET, POST and PATCH /v1/webhooks.
 */

#ifndef NGX_HTTP_BEHAVE_WEBHOOKS_MGMT_H
#define NGX_HTTP_BEHAVE_WEBHOOKS_MGMT_H

#include "ngx_http_behave_common.h"


ngx_int_t ngx_http_behave_webhooks_mgmt(ngx_http_request_t *r);


#endif /* NGX_HTTP_BEHAVE_WEBHOOKS_MGMT_H */
