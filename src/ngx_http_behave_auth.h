/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * API keys: the keys file at configuration time, the Bearer check on
 * each request.
 */

#ifndef NGX_HTTP_BEHAVE_AUTH_H
#define NGX_HTTP_BEHAVE_AUTH_H

#include "ngx_http_behave_common.h"


char *ngx_http_behave_keys_load(ngx_conf_t *cf, ngx_str_t *file,
    ngx_array_t **keys, time_t *mtime);
ngx_int_t ngx_http_behave_authenticate(ngx_http_request_t *r,
    ngx_array_t *keys, unsigned scope, const behave_key_t **key,
    behave_error_t *err);


#endif /* NGX_HTTP_BEHAVE_AUTH_H */
