/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Reading a reply as the surfaces' callbacks all do: one that cannot be
 * used, and an array of stored JSON texts.
 */

#ifndef NGX_HTTP_BEHAVE_REDIS_REPLY_H
#define NGX_HTTP_BEHAVE_REDIS_REPLY_H

#include <cjson/cJSON.h>

#include "ngx_http_behave_redis.h"


/*
 * 1 when there is no reply (the callback's reason says why) or Redis
 * answered an error, which is logged with what the command was for.
 */
ngx_uint_t ngx_http_behave_redis_failed(ngx_http_request_t *r,
    redisReply *reply, const char *what);

/* each string of an array reply that parses as JSON, appended to arr */
void ngx_http_behave_redis_json_items(const redisReply *reply, cJSON *arr);


#endif /* NGX_HTTP_BEHAVE_REDIS_REPLY_H */
