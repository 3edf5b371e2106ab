/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * POST /v1/analyze: the body parser, then what the glue does with an
 * accepted body (redaction, annotation, routing, the turn record, the
 * conversation block and the answer's JSON).
 *
 * Differential check: a body the one-pass reader takes is read again
 * the general way (an unknown member added in front sends it there);
 * both must find the same message, conversation id and speaker.
 */

#include "fuzz.h"
#include "base/behave_json_parse.h"
#include "analyze/behave_request.h"
#include "analyze/behave_response.h"
#include "text/behave_redact.h"
#include "conversation/behave_turn.h"
#include "base/behave_utf8.h"


#define FUZZ_MAX_MESSAGE  4096


static void fuzz_analyze_both_ways(const uint8_t *data, size_t size,
    const behave_analyze_req_t *req);
static void fuzz_analyze_accepted(behave_analyze_req_t *req);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    behave_err_e           rc;
    behave_error_t         err;
    behave_analyze_req_t   req;
    char                  *json;
    size_t                 len;

    memset(&err, 0, sizeof(err));
    rc = behave_analyze_req_parse((const char *) data, size,
                                  FUZZ_MAX_MESSAGE, &req, &err);

    if (rc != BEHAVE_OK) {
        FUZZ_CHECK(err.err == rc);
        FUZZ_CHECK(memchr(err.message, '\0', sizeof(err.message)) != NULL);

        json = behave_error_json(&err, &len);
        fuzz_check_json(json, len);
        free(json);
        return 0;
    }

    FUZZ_CHECK(req.message != NULL);
    FUZZ_CHECK(req.message_len <= FUZZ_MAX_MESSAGE);
    FUZZ_CHECK(req.conversation_id == NULL
               || behave_conversation_id_valid(req.conversation_id,
                                               req.conversation_id_len));

    if (req.root == NULL) {
        fuzz_analyze_both_ways(data, size, &req);
    }

    /* metadata is echoed as bytes: they must be one valid JSON object */
    if (req.metadata != NULL) {
        size_t       at;
        const char  *why;

        FUZZ_CHECK(req.metadata_len >= 2 && req.metadata[0] == '{');
        FUZZ_CHECK(behave_json_check(req.metadata, req.metadata_len, &at,
                                     &why));
    }

    fuzz_analyze_accepted(&req);
    behave_analyze_req_free(&req);

    return 0;
}


static void
fuzz_analyze_both_ways(const uint8_t *data, size_t size,
    const behave_analyze_req_t *req)
{
    static const char      extra[] = "\"fuzz_other\":0,";
    char                  *body;
    size_t                 brace;
    behave_err_e           rc;
    behave_error_t         err;
    behave_analyze_req_t   other;

    brace = (const uint8_t *) memchr(data, '{', size) - data;

    body = malloc(size + sizeof(extra) - 1);
    FUZZ_CHECK(body != NULL);
    memcpy(body, data, brace + 1);
    memcpy(body + brace + 1, extra, sizeof(extra) - 1);
    memcpy(body + brace + sizeof(extra), data + brace + 1, size - brace - 1);

    rc = behave_analyze_req_parse(body, size + sizeof(extra) - 1,
                                  FUZZ_MAX_MESSAGE, &other, &err);

    FUZZ_CHECK(rc == BEHAVE_OK);
    FUZZ_CHECK(other.root != NULL);
    FUZZ_CHECK(other.message_len == req->message_len);
    FUZZ_CHECK(memcmp(other.message, req->message, req->message_len) == 0);
    FUZZ_CHECK(other.speaker == req->speaker);
    FUZZ_CHECK((other.conversation_id == NULL)
               == (req->conversation_id == NULL));
    FUZZ_CHECK(req->conversation_id == NULL
               || (other.conversation_id_len == req->conversation_id_len
                   && memcmp(other.conversation_id, req->conversation_id,
                             req->conversation_id_len) == 0));

    behave_analyze_req_free(&other);
    free(body);
}


static void
fuzz_analyze_accepted(behave_analyze_req_t *req)
{
    char                  *red, *json, *rec;
    size_t                 cap, red_len, len, max;
    unsigned               found;
    behave_turn_t          turn, back;
    behave_routing_t       routing;
    behave_annotation_t    ann;
    behave_conv_result_t   conv;
    behave_analyze_resp_t  resp;

    /* the redacted text is what a "redacted" tenant analyses and stores */
    cap = BEHAVE_REDACT_BOUND(req->message_len);
    red = malloc(cap);
    FUZZ_CHECK(red != NULL);
    FUZZ_CHECK(behave_redact(req->message, req->message_len, red, cap,
                             &red_len, &found) == 0);
    FUZZ_CHECK(red_len < cap && red[red_len] == '\0');

    behave_annotate(red, red_len, &ann);
    behave_route(&ann, &routing);

    behave_turn_from_annotation(&turn, req->speaker, red, red_len, &ann,
                                (uint64_t) FUZZ_NOW_MS);
    max = behave_turn_encoded_max(&turn);
    rec = malloc(max + 1);
    FUZZ_CHECK(rec != NULL);
    len = behave_turn_encode(&turn, rec, max + 1);
    FUZZ_CHECK(len > 0 && len <= max);

    /* text holding a NUL is refused by the decoder: the glue never
     * stores such a turn (the body's UTF-8 check lets U+0000 through
     * only as an escape, which the parser cuts at) */
    if (behave_utf8_valid_text((const unsigned char *) red, red_len)) {
        FUZZ_CHECK(behave_turn_decode(rec, len, &back) == 0);
        FUZZ_CHECK(back.text_len == red_len);
        FUZZ_CHECK(memcmp(back.text, red, red_len) == 0);
    }

    behave_conversation_assess(NULL, 0, &turn, &conv);

    behave_analyze_resp_init(&resp, "sess_0123456789abcdef", "shared", req,
                             &ann, &routing);

    if (req->conversation_id != NULL) {
        resp.conversation = &conv;
        resp.conversation_id = req->conversation_id;
        resp.redacted = found != 0;
    }

    json = behave_analyze_response_json(&resp, &len);
    fuzz_check_json(json, len);

    free(json);
    free(rec);
    free(red);
}
