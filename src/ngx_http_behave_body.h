/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Request bodies: the checks made before reading, the read, and the whole
 * body as one string once read.
 */

#ifndef NGX_HTTP_BEHAVE_BODY_H
#define NGX_HTTP_BEHAVE_BODY_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_reply.h"


ngx_int_t ngx_http_behave_check_body(ngx_http_request_t *r,
    size_t max_body_size, behave_error_t *err);

/* a content handler's last step: what it returns */
ngx_int_t ngx_http_behave_read_body(ngx_http_request_t *r,
    ngx_http_client_body_handler_pt post_handler);

/* NGX_DECLINED when larger than max_body_size, NGX_ERROR */
ngx_int_t ngx_http_behave_body_string(ngx_http_request_t *r,
    size_t max_body_size, ngx_str_t *body);

/*
 * The same in two steps, so that the second may run in a thread: the
 * size checked and the string allocated (NGX_DECLINED when larger than
 * max_body_size, NGX_ERROR), then filled from bufs (r->request_body->bufs;
 * NGX_ERROR on a short read of the temporary file, not logged).
 */
ngx_int_t ngx_http_behave_body_size(ngx_http_request_t *r,
    size_t max_body_size, ngx_str_t *body);
ngx_int_t ngx_http_behave_body_fill(ngx_chain_t *bufs, ngx_str_t *body);

/* the first as a step: 413 or 500 answered, or the string allocated */
ngx_http_behave_step_t ngx_http_behave_body_reserve(ngx_http_request_t *r,
    size_t max_body_size, ngx_str_t *body);

/* the same as a step: 413 or 500 answered, or the body handed back */
ngx_http_behave_step_t ngx_http_behave_body_take(ngx_http_request_t *r,
    size_t max_body_size, ngx_str_t *body);


#endif /* NGX_HTTP_BEHAVE_BODY_H */
