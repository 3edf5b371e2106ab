/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The header and body filters: nginx's own error pages on the module's
 * locations become JSON errors.
 */

#ifndef NGX_HTTP_BEHAVE_FILTER_H
#define NGX_HTTP_BEHAVE_FILTER_H

#include "ngx_http_behave_common.h"


ngx_int_t ngx_http_behave_filter_init(ngx_conf_t *cf);


#endif /* NGX_HTTP_BEHAVE_FILTER_H */
