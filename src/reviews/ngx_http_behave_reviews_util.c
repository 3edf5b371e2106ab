/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * What the review queue's reads and PATCH share: a record's fields, the
 * 503 of a store that is away, an answer.
 */


#include "ngx_http_behave_reviews_util.h"


/* the HMGET answer of behave_review.fields' fields, in their order */

void
ngx_http_behave_reviews_fields(redisReply *reply, behave_review_fields_t *f)
{
    size_t       i;
    redisReply  *e;

    ngx_memzero(f, sizeof(behave_review_fields_t));

    for (i = 0; i < reply->elements && i < BEHAVE_RF_LAST; i++) {
        e = reply->element[i];

        if (e->type == REDIS_REPLY_STRING) {
            f->v[i] = e->str;
            f->len[i] = e->len;
        }
    }
}


ngx_int_t
ngx_http_behave_reviews_unavailable(ngx_http_request_t *r,
    const char *reason)
{
    behave_error_t  err;

    if (ngx_http_behave_add_header(r, "Retry-After", "5") != NGX_OK) {
        return NGX_ERROR;
    }

    behave_error_set(&err, BEHAVE_ERR_UNAVAILABLE,
                     "the review store is unavailable (%s); retry later",
                     reason ? reason : "redis error");

    return ngx_http_behave_send_error(r, &err);
}


/* sends and frees o; NULL (out of memory) is a 500 */

ngx_int_t
ngx_http_behave_reviews_send(ngx_http_request_t *r, cJSON *o)
{
    if (o == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* a person's data: no cache keeps it */
    if (ngx_http_behave_add_header(r, "Cache-Control", "no-store")
        != NGX_OK)
    {
        cJSON_Delete(o);
        return NGX_ERROR;
    }

    return ngx_http_behave_send_cjson(r, NGX_HTTP_OK, o);
}
