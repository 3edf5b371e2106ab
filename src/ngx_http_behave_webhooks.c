/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C: /v1/webhooks (placeholder until its issue lands).
 */


#include "ngx_http_behave_common.h"


ngx_int_t
ngx_http_behave_webhooks_handler(ngx_http_request_t *r)
{
    if (ngx_http_discard_request_body(r) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    return ngx_http_behave_fail(r, BEHAVE_ERR_NOT_FOUND,
                                "webhooks are not built yet");
}
