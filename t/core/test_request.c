/*
 * POST /v1/analyze bodies: the simple ones are read without a cJSON tree,
 * the others by checking the whole body and making cJSON nodes of the
 * members read only (never of metadata); both ways must give the same
 * fields and the same errors, so every case here is one of a pair across
 * that line.
 */

#include <string.h>

#include "base/behave_json.h"
#include "analyze/behave_request.h"
#include "tap.h"


typedef struct {
    const char    *body;
    behave_err_e   err;
    const char    *message;         /* when BEHAVE_OK */
    const char    *conversation_id;
    int            agent;
    int            tree;            /* read through cJSON */
} req_case_t;


static const req_case_t  cases[] = {
    { "{\"message\":\"hello there\"}", BEHAVE_OK, "hello there", NULL, 0, 0 },
    { " {\n\t\"message\" : \"hi\" ,\"speaker\":\"agent\" } \r\n", BEHAVE_OK,
      "hi", NULL, 1, 0 },
    { "{\"text\":\"alias\",\"conversation_id\":\"c-1:x@y.z_\"}", BEHAVE_OK,
      "alias", "c-1:x@y.z_", 0, 0 },
    { "{\"message\":\"m\",\"text\":\"t\",\"speaker\":\"customer\"}",
      BEHAVE_OK, "m", NULL, 0, 0 },
    { "{\"message\":\"caf\xc3\xa9 \xf0\x9f\x98\xa1\"}", BEHAVE_OK,
      "caf\xc3\xa9 \xf0\x9f\x98\xa1", NULL, 0, 0 },

    /* the general way: escapes, other members, other types */
    { "{\"message\":\"say \\\"hi\\\"\"}", BEHAVE_OK, "say \"hi\"", NULL, 0,
      1 },
    { "{\"message\":\"x\",\"metadata\":{\"a\":1}}", BEHAVE_OK, "x", NULL, 0,
      1 },
    { "{\"message\":null,\"text\":\"fallback\"}", BEHAVE_OK, "fallback",
      NULL, 0, 1 },
    { "{\"message\":\"first\",\"message\":\"second\"}", BEHAVE_OK, "first",
      NULL, 0, 1 },
    { "{\"mess\\u0061ge\":\"escaped key\"}", BEHAVE_OK, "escaped key", NULL,
      0, 1 },

    { "{\"metadata\":{\"deep\":[[[{\"message\":\"no\"}]]]},"
      "\"message\":\"after\"}", BEHAVE_OK, "after", NULL, 0, 1 },
    { "\xef\xbb\xbf{\"message\":\"bom\",\"metadata\":{}}", BEHAVE_OK,
      "bom", NULL, 0, 1 },
    { "{\"message\":\"x\",\"metadata\":null}", BEHAVE_OK, "x", NULL, 0,
      1 },
    { "{\"message\":\"x\",\"sp\\u0065aker\":\"agent\","
      "\"conversation_id\":\"c\\u002d1\"}", BEHAVE_OK, "x", "c-1", 1, 1 },

    /* errors, the same whichever way the body went */
    { "{\"message\":{\"a\":[1,2,{}]}}", BEHAVE_ERR_INVALID_FIELD, NULL,
      NULL, 0, 1 },
    { "{\"message\":true}", BEHAVE_ERR_INVALID_FIELD, NULL, NULL, 0, 1 },
    { "{\"text\":[\"x\"]}", BEHAVE_ERR_INVALID_FIELD, NULL, NULL, 0, 1 },
    { "{\"message\":\"x\",\"speaker\":1}", BEHAVE_ERR_INVALID_FIELD, NULL,
      NULL, 0, 1 },
    { "{\"message\":\"x\",\"conversation_id\":{}}",
      BEHAVE_ERR_INVALID_FIELD, NULL, NULL, 0, 1 },
    { "{\"message\":\"x\",\"metadata\":\"s\"}", BEHAVE_ERR_INVALID_FIELD,
      NULL, NULL, 0, 1 },
    { "{\"message\":\"x\",\"metad\\u0061ta\":7}",
      BEHAVE_ERR_INVALID_FIELD, NULL, NULL, 0, 1 },
    { "{\"message\":\"x\",\"metadata\":{}} {}", BEHAVE_ERR_INVALID_JSON,
      NULL, NULL, 0, 1 },
    { "{\"message\":\"x\",\"metadata\":{\"a\":\"\\u0000\"}}",
      BEHAVE_ERR_INVALID_JSON, NULL, NULL, 0, 1 },
    { "", BEHAVE_ERR_INVALID_JSON, NULL, NULL, 0, 1 },
    { "{\"message\":\"x\"", BEHAVE_ERR_INVALID_JSON, NULL, NULL, 0, 1 },
    { "[\"message\"]", BEHAVE_ERR_INVALID_JSON, NULL, NULL, 0, 1 },
    { "{\"message\":\"\xff\"}", BEHAVE_ERR_INVALID_UTF8, NULL, NULL, 0, 1 },
    { "{}", BEHAVE_ERR_MISSING_FIELD, NULL, NULL, 0, 1 },
    { "{\"speaker\":\"agent\"}", BEHAVE_ERR_MISSING_FIELD, NULL, NULL, 0, 1 },
    { "{\"message\":\"\"}", BEHAVE_ERR_EMPTY_MESSAGE, NULL, NULL, 0, 1 },
    { "{\"message\":\" \\t \"}", BEHAVE_ERR_EMPTY_MESSAGE, NULL, NULL, 0, 1 },
    { "{\"message\":\"   \",\"text\":\"ok\"}", BEHAVE_ERR_EMPTY_MESSAGE,
      NULL, NULL, 0, 1 },
    { "{\"message\":42}", BEHAVE_ERR_INVALID_FIELD, NULL, NULL, 0, 1 },
    { "{\"message\":\"x\",\"speaker\":\"bot\"}", BEHAVE_ERR_INVALID_FIELD,
      NULL, NULL, 0, 1 },
    { "{\"message\":\"x\",\"conversation_id\":\"\"}",
      BEHAVE_ERR_INVALID_FIELD, NULL, NULL, 0, 1 },
    { "{\"message\":\"x\",\"conversation_id\":\"a b\"}",
      BEHAVE_ERR_INVALID_FIELD, NULL, NULL, 0, 1 },
    { "{\"message\":\"x\",\"metadata\":[1]}", BEHAVE_ERR_INVALID_FIELD,
      NULL, NULL, 0, 1 },
    { "{\"message\":\"0123456789abcdefX\"}", BEHAVE_ERR_TOO_LARGE, NULL,
      NULL, 0, 1 },
};


/* metadata: the raw bytes of the body, found by behave_json_member_raw */
static void
test_metadata_raw(void)
{
    size_t                 i, n;
    const char            *v;
    behave_error_t         err;
    behave_analyze_req_t   req;

    static const char  body[] =
        "{\"message\":\"x\",\"metadata\":{\"n\":1.50, \"big\":1e400}}";

    static const struct {
        const char  *body;
        const char  *want;           /* NULL: no member */
    }  raw[] = {
        { "{\"metadata\":{\"a\":1.50,\"b\":1e400}}",
          "{\"a\":1.50,\"b\":1e400}" },
        { " { \"x\" : [1, {\"metadata\": 2}, \"}\\\"]\"] ,"
          "\"metadata\" :\t{ \"k\" : \"v\\u00e9\" }\n}",
          "{ \"k\" : \"v\\u00e9\" }" },
        { "{\"meta\\u0064ata\":{\"escaped\":true}}", "{\"escaped\":true}" },
        { "{\"metadata\":{\"first\":1},\"metadata\":{\"second\":2}}",
          "{\"first\":1}" },
        { "{\"metadatax\":{},\"metadat\":{}}", NULL },
        { "{\"m\":\"metadata\",\"n\":-0.0e+1}", NULL },
        { "[{\"metadata\":{}}]", NULL },
    };

    for (i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
        v = NULL;
        n = 0;

        if (raw[i].want == NULL) {
            ok(behave_json_member_raw(raw[i].body, strlen(raw[i].body),
                                      "metadata", &v, &n) != 0,
               "raw %zu: no metadata member", i);
            continue;
        }

        ok(behave_json_member_raw(raw[i].body, strlen(raw[i].body),
                                  "metadata", &v, &n) == 0
           && n == strlen(raw[i].want) && memcmp(v, raw[i].want, n) == 0,
           "raw %zu: the value's bytes as sent", i);
    }

    /* the same walk for several names at once */
    for (i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
        int                  rc;
        behave_json_span_t   sp[2];

        static const char  *const names[2] = { "x", "metadata" };

        rc = behave_json_members_raw(raw[i].body, strlen(raw[i].body), names,
                                     2, sp);

        if (raw[i].body[0] == '[') {
            ok(rc == -1, "members %zu: an array is no object", i);
            continue;
        }

        ok(rc == 0 && (raw[i].want == NULL
                       ? sp[1].p == NULL
                       : sp[1].len == strlen(raw[i].want)
                         && memcmp(sp[1].p, raw[i].want, sp[1].len) == 0),
           "members %zu: metadata's bytes as sent", i);
    }

    {
        behave_json_span_t   sp[2];

        static const char    two[] = "\xef\xbb\xbf {\"b\" : 2 , \"a\":[1,\"]\"]}";
        static const char   *const names[2] = { "a", "b" };

        ok(behave_json_members_raw(two, sizeof(two) - 1, names, 2, sp) == 0
           && sp[0].len == 7 && memcmp(sp[0].p, "[1,\"]\"]", 7) == 0
           && sp[1].len == 1 && sp[1].p[0] == '2',
           "members: a BOM, white space, two names found");
        ok(behave_json_members_raw("{}", 2, names, 2, sp) == 0
           && sp[0].p == NULL && sp[1].p == NULL, "members: an empty object");
    }

    {
        static const char  dup[] =
            "{\"message\":\"x\",\"metadata\":{\"first\":1},"
            "\"metadata\":{\"second\":2}}";

        is_int(behave_analyze_req_parse(dup, sizeof(dup) - 1, 16, &req, &err),
               BEHAVE_OK, "request with metadata twice parses");
        ok(req.metadata != NULL && req.metadata_len == 11
           && memcmp(req.metadata, "{\"first\":1}", 11) == 0,
           "metadata twice: the first one");
        behave_analyze_req_free(&req);
    }

    memset(&err, 0, sizeof(err));
    is_int(behave_analyze_req_parse(body, strlen(body), 16, &req, &err),
           BEHAVE_OK, "request with metadata parses");
    ok(req.metadata != NULL && req.metadata_len == 23
       && memcmp(req.metadata, "{\"n\":1.50, \"big\":1e400}", 23) == 0,
       "request metadata is the raw span");
    behave_analyze_req_free(&req);
}


int
main(void)
{
    size_t                 i;
    behave_error_t         err;
    const req_case_t      *c;
    behave_analyze_req_t   req;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        c = &cases[i];
        memset(&err, 0, sizeof(err));

        is_int(behave_analyze_req_parse(c->body, strlen(c->body), 16, &req,
                                        &err),
               c->err, "case %zu: status", i);

        if (c->err != BEHAVE_OK) {
            ok(req.root == NULL && req.strings == NULL,
               "case %zu: nothing left to free", i);
            continue;
        }

        is_str(req.message, c->message, "case %zu: message", i);
        is_int((int) req.message_len, (int) strlen(c->message),
               "case %zu: message length", i);

        if (c->conversation_id != NULL) {
            is_str(req.conversation_id, c->conversation_id,
                   "case %zu: conversation_id", i);
        } else {
            ok(req.conversation_id == NULL, "case %zu: no conversation", i);
        }

        is_int(req.speaker == BEHAVE_SPEAKER_AGENT, c->agent,
               "case %zu: speaker", i);
        is_int(req.root != NULL, c->tree, "case %zu: read %s", i,
               c->tree ? "through cJSON" : "the simple way");

        behave_analyze_req_free(&req);
        ok(req.root == NULL && req.strings == NULL, "case %zu: freed", i);
    }

    test_metadata_raw();

    return tap_done();
}
