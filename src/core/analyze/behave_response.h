/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * JSON shaping of the POST /v1/analyze response (spec 2.3).
 */

#ifndef BEHAVE_RESPONSE_H
#define BEHAVE_RESPONSE_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"
#include "analyze/behave_request.h"
#include "base/behave_round.h"           /* behave_round3, for its users */
#include "text/behave_routing.h"


typedef struct {
    const char                 *session_id;
    double                      latency_ms;
    double                      gateway_latency_ms;

    long long                   tenant_remaining;   /* -1: unlimited */
    int                         overage;
    const char                 *meter;              /* "shared", "local" */

    const behave_annotation_t  *annotation;
    const behave_routing_t     *routing;

    const char                 *metadata;      /* raw JSON, may be NULL */
    size_t                      metadata_len;

    /* the conversation block, when there is one */
    const behave_conv_result_t *conversation;
    const char                 *conversation_id;
    int                         redacted;
} behave_analyze_resp_t;


/*
 * The annotation object of spec 2.1, with cultural_context, as compact
 * JSON, malloc()ed; the answer of /v1/analyze writes it the same way.
 */
char *behave_annotation_json(const behave_annotation_t *a, size_t *len);


/*
 * An answer to req with its annotation and routing: the metadata echoed,
 * the tenant unlimited, no conversation and no latencies until the
 * caller sets them.
 */
void behave_analyze_resp_init(behave_analyze_resp_t *resp,
    const char *session_id, const char *meter,
    const behave_analyze_req_t *req, const behave_annotation_t *ann,
    const behave_routing_t *routing);


/*
 * The whole response, malloc()ed and NUL-terminated; NULL when out of
 * memory.
 */
char *behave_analyze_response_json(behave_analyze_resp_t *resp,
    size_t *len);

#endif /* BEHAVE_RESPONSE_H */
