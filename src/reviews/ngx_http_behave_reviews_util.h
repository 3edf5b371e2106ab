/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * What the review queue's reads and PATCH share.
 */

#ifndef NGX_HTTP_BEHAVE_REVIEWS_UTIL_H
#define NGX_HTTP_BEHAVE_REVIEWS_UTIL_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_script.h"
#include "ngx_http_behave_review_index.h"
#include "ngx_http_behave_auth.h"
#include "ngx_http_behave_body.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_util.h"

#include "reviews/behave_review.h"


/* the HMGET answer of behave_review.fields' fields, in their order */
void ngx_http_behave_reviews_fields(redisReply *reply,
    behave_review_fields_t *f);
/* 503 with Retry-After */
ngx_int_t ngx_http_behave_reviews_unavailable(ngx_http_request_t *r,
    const char *reason);
/* sends and frees o (no-store); NULL (out of memory) is a 500 */
ngx_int_t ngx_http_behave_reviews_send(ngx_http_request_t *r, cJSON *o);


#endif /* NGX_HTTP_BEHAVE_REVIEWS_UTIL_H */
