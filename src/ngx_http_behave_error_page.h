/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * behave_error_page: nginx's own refusals in the module's JSON error
 * shape, through the server's error_page.
 */

#ifndef NGX_HTTP_BEHAVE_ERROR_PAGE_H
#define NGX_HTTP_BEHAVE_ERROR_PAGE_H

#include "ngx_http_behave_common.h"


char *ngx_http_behave_error_page(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);


#endif /* NGX_HTTP_BEHAVE_ERROR_PAGE_H */
