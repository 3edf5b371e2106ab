/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The write side of the review queue, shared by the surfaces that file
 * into it (a flagged /v1/analyze conversation, a webhook call to review)
 * and by the read API (src/reviews/): the keys of a review, and the
 * background filing of a conversation.  docs/API.md (Reviews).
 *
 *   behave:rv:{<tenant>}:index      zset review id -> time of the finding
 *   behave:rv:{<tenant>}:r:<id>     hash, the record
 *   behave:rv:{<tenant>}:h:<id>     list, the review history, oldest first
 *   behave:rv:{<tenant>}:t:<id>     a call's turns (turn log format)
 */

#ifndef NGX_HTTP_BEHAVE_REVIEW_INDEX_H
#define NGX_HTTP_BEHAVE_REVIEW_INDEX_H

#include "ngx_http_behave_common.h"

#include "reviews/behave_review.h"


/* "behave:rv:{<tenant>}:<what><id>" in the request pool, NUL-terminated */
ngx_str_t *ngx_http_behave_review_key(ngx_http_request_t *r,
    const char *tenant, const char *what, const char *id, size_t id_len);

/* the keys of a review id: index, record, history, turns */
ngx_int_t ngx_http_behave_review_keys(ngx_http_request_t *r,
    const char *tenant, const char *id, ngx_str_t **keys);

/*
 * Files a flagged conversation, in the background (EVAL: rare); once
 * filed, puts mark (behave_review.h) after its state at state_key
 */
void ngx_http_behave_review_file(ngx_http_request_t *r, const char *tenant,
    behave_review_rec_t *rec, time_t ttl, ngx_str_t *state_key,
    const char *mark);

/* a conversation's mark after its state, or none (""): background */
void ngx_http_behave_review_mark(const char *state_key, size_t key_len,
    const char *mark);


#endif /* NGX_HTTP_BEHAVE_REVIEW_INDEX_H */
