/*
 * Copyright (C) ngx_http_behave_module authors
 */


#include "ngx_http_behave_redis_reply.h"


ngx_uint_t
ngx_http_behave_redis_failed(ngx_http_request_t *r, redisReply *reply,
    const char *what)
{
    if (reply == NULL) {
        return 1;
    }

    if (reply->type != REDIS_REPLY_ERROR) {
        return 0;
    }

    ngx_log_error(NGX_LOG_ERR, r->connection->log, 0, "behave: %s: %s",
                  what, reply->str);

    return 1;
}


/* a text that does not parse is passed over: the rest is still read */

void
ngx_http_behave_redis_json_items(const redisReply *reply, cJSON *arr)
{
    size_t   i;
    cJSON   *item;

    for (i = 0; arr != NULL && i < reply->elements; i++) {
        if (reply->element[i]->type != REDIS_REPLY_STRING) {
            continue;
        }

        item = cJSON_ParseWithLength(reply->element[i]->str,
                                     reply->element[i]->len);
        if (item != NULL) {
            cJSON_AddItemToArray(arr, item);
        }
    }
}
