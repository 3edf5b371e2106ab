/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The review queue: GET /v1/reviews, GET and PATCH /v1/reviews/<id>
 * with a portal key, and the writes that file a flagged call or
 * conversation.  docs/API.md (Reviews) is the reference.
 *
 * Redis keys, every one of a tenant in the slot of {<tenant>} (the same
 * slot as that tenant's webhook keys, so the webhook commit script files
 * a call in the same atomic step that stores it):
 *
 *   behave:rv:{<tenant>}:index      zset review id -> time of the finding
 *   behave:rv:{<tenant>}:r:<id>     hash, the record
 *   behave:rv:{<tenant>}:h:<id>     list, the review history, oldest first
 *   behave:rv:{<tenant>}:t:<id>     a call's turns (turn log format)
 *
 * A conversation's turns are its own log, behave:{<tenant>:<id>}:log.
 */

#ifndef NGX_HTTP_BEHAVE_REVIEWS_H
#define NGX_HTTP_BEHAVE_REVIEWS_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_redis.h"

#include "behave_review.h"


#define NGX_HTTP_BEHAVE_RV_PATH  "/v1/reviews"


extern ngx_http_behave_redis_script_t  ngx_http_behave_rv_list_script;
extern ngx_http_behave_redis_script_t  ngx_http_behave_rv_get_script;
extern ngx_http_behave_redis_script_t  ngx_http_behave_rv_patch_script;
extern const char                      ngx_http_behave_rv_index_script[];


/* ngx_http_behave_reviews_read.c */
ngx_int_t ngx_http_behave_reviews_list(ngx_http_request_t *r);
ngx_int_t ngx_http_behave_reviews_get(ngx_http_request_t *r, ngx_str_t *id);

/* ngx_http_behave_reviews_patch.c */
ngx_int_t ngx_http_behave_reviews_patch(ngx_http_request_t *r,
    ngx_str_t *id);

/* ngx_http_behave_reviews.c */
ngx_str_t *ngx_http_behave_reviews_key(ngx_http_request_t *r,
    const char *tenant, const char *what, const char *id, size_t id_len);
void ngx_http_behave_reviews_fields(redisReply *reply,
    behave_review_fields_t *f);
ngx_int_t ngx_http_behave_reviews_unavailable(ngx_http_request_t *r,
    const char *reason);
ngx_int_t ngx_http_behave_reviews_send(ngx_http_request_t *r, cJSON *o);


#endif /* NGX_HTTP_BEHAVE_REVIEWS_H */
