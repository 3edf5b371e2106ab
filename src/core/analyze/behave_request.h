/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Parsing and validation of a POST /v1/analyze body (spec 2.2).
 */

#ifndef BEHAVE_REQUEST_H
#define BEHAVE_REQUEST_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "base/behave_error.h"
#include "base/behave_ids.h"            /* the conversation id's rule */
#include "base/behave_json_parse.h"     /* behave_json_parse_object */
#include "conversation/behave_turn.h"           /* behave_speaker_e */



typedef struct {
    cJSON         *root;            /* owns every pointer below, or: */
    char          *strings;         /* the simple body's copies */
    const char    *message;
    size_t         message_len;
    const char    *conversation_id; /* NULL when absent */
    size_t         conversation_id_len;
    behave_speaker_e  speaker;
    const char    *metadata;        /* the raw value in the body (not a
                                       copy: valid while the body is),
                                       NULL when absent */
    size_t         metadata_len;
} behave_analyze_req_t;


/*
 * Parses body[0..len).  On success returns BEHAVE_OK and req owns a cJSON
 * tree to release with behave_analyze_req_free(); on failure fills err and
 * leaves nothing to free.
 */
behave_err_e behave_analyze_req_parse(const char *body, size_t len,
    size_t max_message, behave_analyze_req_t *req, behave_error_t *err);

void behave_analyze_req_free(behave_analyze_req_t *req);


#endif /* BEHAVE_REQUEST_H */
