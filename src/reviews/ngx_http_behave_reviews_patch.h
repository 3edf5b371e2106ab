/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * PATCH /v1/reviews/<id>.
 */

#ifndef NGX_HTTP_BEHAVE_REVIEWS_PATCH_H
#define NGX_HTTP_BEHAVE_REVIEWS_PATCH_H

#include "ngx_http_behave_common.h"


ngx_int_t ngx_http_behave_reviews_patch(ngx_http_request_t *r,
    ngx_str_t *id);


#endif /* NGX_HTTP_BEHAVE_REVIEWS_PATCH_H */
