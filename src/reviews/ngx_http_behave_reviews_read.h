/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * GET /v1/reviews and GET /v1/reviews/<id>.
 */

#ifndef NGX_HTTP_BEHAVE_REVIEWS_READ_H
#define NGX_HTTP_BEHAVE_REVIEWS_READ_H

#include "ngx_http_behave_common.h"


ngx_int_t ngx_http_behave_reviews_list(ngx_http_request_t *r);
ngx_int_t ngx_http_behave_reviews_get(ngx_http_request_t *r, ngx_str_t *id);


#endif /* NGX_HTTP_BEHAVE_REVIEWS_READ_H */
