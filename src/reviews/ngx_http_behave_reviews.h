/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The review queue: GET /v1/reviews, GET and PATCH /v1/reviews/<id>
 * with a portal key, and the writes that file a flagged call or
 * conversation.  docs/API.md (Reviews) is the reference.
 *
 * Redis keys: src/infra/ngx_http_behave_review_index.h; the writes that
 * file a call or a conversation are there and in the webhook commit
 * script, the reads here.
 */

#ifndef NGX_HTTP_BEHAVE_REVIEWS_H
#define NGX_HTTP_BEHAVE_REVIEWS_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_script.h"
#include "ngx_http_behave_review_index.h"
#include "ngx_http_behave_auth.h"
#include "ngx_http_behave_body.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_util.h"

#include "behave_review.h"


#define NGX_HTTP_BEHAVE_RV_PATH  "/v1/reviews"


/* ngx_http_behave_reviews_read.c */
ngx_int_t ngx_http_behave_reviews_list(ngx_http_request_t *r);
ngx_int_t ngx_http_behave_reviews_get(ngx_http_request_t *r, ngx_str_t *id);

/* ngx_http_behave_reviews_patch.c */
ngx_int_t ngx_http_behave_reviews_patch(ngx_http_request_t *r,
    ngx_str_t *id);

/* ngx_http_behave_reviews.c */
ngx_int_t ngx_http_behave_reviews_handler(ngx_http_request_t *r);
void ngx_http_behave_reviews_fields(redisReply *reply,
    behave_review_fields_t *f);
ngx_int_t ngx_http_behave_reviews_unavailable(ngx_http_request_t *r,
    const char *reason);
ngx_int_t ngx_http_behave_reviews_send(ngx_http_request_t *r, cJSON *o);


#endif /* NGX_HTTP_BEHAVE_REVIEWS_H */
