/*
 * Copyright (C) ngx_http_behave_module authors
 */

#ifndef NGX_HTTP_BEHAVE_ANALYZE_H
#define NGX_HTTP_BEHAVE_ANALYZE_H

#include "ngx_http_behave_common.h"

#include "behave_annotate.h"
#include "behave_conversation.h"
#include "behave_request.h"
#include "behave_response.h"
#include "behave_routing.h"


/* one /v1/analyze request, from the body handler to the answer */
typedef struct {
    behave_analyze_req_t        req;
    char                       *text;          /* what is analysed */
    size_t                      text_len;
    ngx_uint_t                  redacted;
    ngx_str_t                   conv_key;      /* its Redis key */

    behave_annotation_t         ann;
    behave_routing_t            routing;
    double                      latency_ms;
    ngx_http_behave_usage_t     usage;
} ngx_http_behave_analyze_t;


/* sends the answer, with the conversation block when not NULL */
ngx_int_t ngx_http_behave_analyze_respond(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const behave_conv_result_t *conversation);

/*
 * ngx_http_behave_conversation.c: NGX_DONE when the answer will be sent
 * from the Redis callback, else the result of sending it now (degraded).
 */
ngx_int_t ngx_http_behave_conversation_start(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an);
void ngx_http_behave_conversation_init(void);


#endif /* NGX_HTTP_BEHAVE_ANALYZE_H */
