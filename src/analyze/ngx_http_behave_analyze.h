/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface B: POST /v1/analyze.
 */

#ifndef NGX_HTTP_BEHAVE_ANALYZE_H
#define NGX_HTTP_BEHAVE_ANALYZE_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_conversation.h"

#include "text/behave_annotate.h"
#include "analyze/behave_request.h"
#include "analyze/behave_response.h"
#include "text/behave_routing.h"


/* one /v1/analyze request, from the body handler to the answer */
typedef struct {
    behave_analyze_req_t        req;
    char                       *text;          /* what is analysed */
    size_t                      text_len;
    ngx_uint_t                  redacted;

    /* what the step that may run in a thread reads and writes */
    ngx_str_t                   body;          /* filled by the parse */
    ngx_chain_t                *bufs;          /* the body's parts */
    size_t                      max_message_size;
    ngx_flag_t                  redact;
    int                         rc;            /* behave_err_e */
    behave_error_t              err;
    char                       *redacted_text; /* malloc()ed */
    unsigned                    parsed:1;
    unsigned                    unread:1;      /* short read of the body */

    behave_annotation_t         ann;
    behave_routing_t            routing;
    double                      latency_ms;
    ngx_http_behave_usage_t     usage;

    ngx_http_behave_conv_t      conv;          /* with a conversation_id */
} ngx_http_behave_analyze_t;


ngx_int_t ngx_http_behave_analyze_handler(ngx_http_request_t *r);


#endif /* NGX_HTTP_BEHAVE_ANALYZE_H */
