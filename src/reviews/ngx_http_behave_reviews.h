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


#define NGX_HTTP_BEHAVE_RV_PATH  "/v1/reviews"


/* the surface's handler: routes to its reads (_read.c) and PATCH
 * (_patch.c), which share _util.c */
ngx_int_t ngx_http_behave_reviews_handler(ngx_http_request_t *r);


#endif /* NGX_HTTP_BEHAVE_REVIEWS_H */
