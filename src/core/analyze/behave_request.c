/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <stdlib.h>
#include <string.h>

#include "base/behave_json.h"
#include "base/behave_json_parse.h"
#include "analyze/behave_request.h"
#include "base/behave_utf8.h"


static behave_err_e behave_analyze_req_message(behave_analyze_req_t *req,
    size_t max_message, behave_error_t *err);
static behave_err_e behave_analyze_req_optional(behave_analyze_req_t *req,
    const behave_json_span_t *metadata, behave_error_t *err);
static behave_err_e behave_analyze_req_members(behave_analyze_req_t *req,
    const char *body, size_t len, behave_json_span_t *metadata,
    behave_error_t *err);
static int behave_analyze_req_simple(const char *body, size_t len,
    size_t max_message, behave_analyze_req_t *req);
static const char *behave_json_plain_string(const char *p, const char *end,
    size_t *len);


/* the members the simple way reads; any other sends the body the long way */
typedef struct {
    const char    *p;
    size_t         len;
} behave_span_t;

enum {
    BEHAVE_F_MESSAGE = 0,
    BEHAVE_F_TEXT,
    BEHAVE_F_CONVERSATION,
    BEHAVE_F_SPEAKER,
    BEHAVE_F_N
};

static const char  *const behave_simple_fields[BEHAVE_F_N] = {
    "message", "text", "conversation_id", "speaker"
};


behave_err_e
behave_analyze_req_parse(const char *body, size_t len, size_t max_message,
    behave_analyze_req_t *req, behave_error_t *err)
{
    behave_json_span_t  metadata = { NULL, 0 };

    memset(req, 0, sizeof(*req));

    if (behave_analyze_req_simple(body, len, max_message, req)) {
        return BEHAVE_OK;
    }

    if (behave_analyze_req_members(req, body, len, &metadata, err)
        != BEHAVE_OK
        || behave_analyze_req_message(req, max_message, err) != BEHAVE_OK
        || behave_analyze_req_optional(req, &metadata, err) != BEHAVE_OK)
    {
        behave_analyze_req_free(req);
        return err->err;
    }

    return BEHAVE_OK;
}


/*
 * The general way, without a tree of the whole body: the body is checked
 * (UTF-8, strict JSON, an object: behave_json_check_object()), then one
 * walk of its top-level members finds the first of each that the request
 * reads.  Only those values become cJSON nodes (a string, or a stand-in
 * of the value's kind that every check refuses alike); metadata stays
 * bytes, which the answer copies.  The rest of the body is never built:
 * a 1 MiB metadata object used to cost a node and a malloc() each.
 */
static behave_err_e
behave_analyze_req_members(behave_analyze_req_t *req, const char *body,
    size_t len, behave_json_span_t *metadata, behave_error_t *err)
{
    size_t               i;
    cJSON               *item;
    behave_json_span_t   span[BEHAVE_F_N + 1];

    static const char  *const names[BEHAVE_F_N + 1] = {
        "message", "text", "conversation_id", "speaker", "metadata"
    };

    if (behave_json_check_object(body, len, err) != BEHAVE_OK) {
        return err->err;
    }

    if (behave_json_members_raw(body, len, names, BEHAVE_F_N + 1, span) != 0)
    {
        return behave_error_set(err, BEHAVE_ERR_INVALID_JSON,
                                "request body must be a JSON object");
    }

    *metadata = span[BEHAVE_F_N];

    req->root = cJSON_CreateObject();
    if (req->root == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    for (i = 0; i < BEHAVE_F_N; i++) {
        if (span[i].p == NULL) {
            continue;
        }

        /* checked JSON: a string parses, and only memory can fail */
        item = (span[i].p[0] == '"')
               ? cJSON_ParseWithLength(span[i].p, span[i].len)
               : (span[i].p[0] == 'n') ? cJSON_CreateNull()
                                       : cJSON_CreateFalse();

        if (item == NULL
            || !cJSON_AddItemToObject(req->root, names[i], item))
        {
            cJSON_Delete(item);
            return behave_error_set(err, BEHAVE_ERR_INTERNAL,
                                    "out of memory");
        }
    }

    return BEHAVE_OK;
}


static behave_err_e
behave_analyze_req_message(behave_analyze_req_t *req, size_t max_message,
    behave_error_t *err)
{
    const char  *name;
    cJSON       *msg;

    name = "message";
    msg = cJSON_GetObjectItemCaseSensitive(req->root, name);

    if (msg == NULL || cJSON_IsNull(msg)) {
        name = "text";
        msg = cJSON_GetObjectItemCaseSensitive(req->root, name);
    }

    if (msg == NULL || cJSON_IsNull(msg)) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "field \"message\" is required");
    }

    if (!cJSON_IsString(msg)) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"%s\" must be a string", name);
    }

    req->message = msg->valuestring;
    req->message_len = strlen(msg->valuestring);

    if (req->message_len > max_message) {
        return behave_error_set(err, BEHAVE_ERR_TOO_LARGE,
                                "field \"%s\" is %zu bytes, the limit is %zu",
                                name, req->message_len, max_message);
    }

    if (strspn(req->message, " \t\r\n") == req->message_len) {
        return behave_error_set(err, BEHAVE_ERR_EMPTY_MESSAGE,
                                "field \"%s\" is empty", name);
    }

    return BEHAVE_OK;
}


static behave_err_e
behave_analyze_req_optional(behave_analyze_req_t *req,
    const behave_json_span_t *metadata, behave_error_t *err)
{
    cJSON  *item;

    item = cJSON_GetObjectItemCaseSensitive(req->root, "conversation_id");

    if (item != NULL && !cJSON_IsNull(item)) {
        if (!cJSON_IsString(item)
            || !behave_conversation_id_valid(item->valuestring,
                                             strlen(item->valuestring)))
        {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                       "field \"conversation_id\" must be a string of 1 to "
                       "128 characters from A-Z a-z 0-9 _ . : @ -");
        }

        req->conversation_id = item->valuestring;
        req->conversation_id_len = strlen(item->valuestring);
    }

    req->speaker = BEHAVE_SPEAKER_CUSTOMER;
    item = cJSON_GetObjectItemCaseSensitive(req->root, "speaker");

    if (item != NULL && !cJSON_IsNull(item)) {
        if (cJSON_IsString(item)
            && strcmp(item->valuestring, "agent") == 0)
        {
            req->speaker = BEHAVE_SPEAKER_AGENT;

        } else if (!cJSON_IsString(item)
                   || strcmp(item->valuestring, "customer") != 0)
        {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                       "field \"speaker\" must be \"customer\" or \"agent\"");
        }
    }

    /* echoed as sent: its bytes, never a tree printed again */
    if (metadata->p != NULL && metadata->p[0] != 'n') {
        if (metadata->p[0] != '{') {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                    "field \"metadata\" must be an object");
        }

        req->metadata = metadata->p;
        req->metadata_len = metadata->len;
    }

    return BEHAVE_OK;
}


#define behave_json_ws(c)  ((c) == ' ' || (c) == '\t' || (c) == '\n'          \
                            || (c) == '\r')


/* a string without escapes at p (after its '"'); NULL if it is not one */
static const char *
behave_json_plain_string(const char *p, const char *end, size_t *len)
{
    const char  *s;

    for (s = p; p < end; p++) {
        if (*p == '"') {
            *len = (size_t) (p - s);
            return p + 1;
        }

        if ((unsigned char) *p < 0x20 || *p == '\\') {
            return NULL;
        }
    }

    return NULL;
}


/*
 * Most bodies are a flat object of plain strings: {"message": "..."},
 * maybe with conversation_id and speaker.  Such a body is read here in one
 * pass and one allocation instead of a cJSON tree.  Anything else (other
 * members, escapes, other types, a repeated member, a value the checks
 * would refuse) returns 0 and takes the general way, which then accepts or
 * refuses it with the usual error: both ways agree on every body.
 */
static int
behave_analyze_req_simple(const char *body, size_t len, size_t max_message,
    behave_analyze_req_t *req)
{
    char           *o;
    size_t          i, n, klen, total;
    const char     *p, *end, *key;
    behave_span_t   f[BEHAVE_F_N], *msg;

    p = body;
    end = body + len;
    memset(f, 0, sizeof(f));

    if (!behave_utf8_valid((const unsigned char *) body, len)) {
        return 0;
    }

    while (p < end && behave_json_ws(*p)) { p++; }
    if (p == end || *p++ != '{') {
        return 0;
    }

    for ( ;; ) {
        while (p < end && behave_json_ws(*p)) { p++; }
        if (p == end || *p++ != '"') {
            return 0;
        }

        key = p;
        p = behave_json_plain_string(p, end, &klen);
        if (p == NULL) {
            return 0;
        }

        for (i = 0; i < BEHAVE_F_N; i++) {
            if (strlen(behave_simple_fields[i]) == klen
                && memcmp(behave_simple_fields[i], key, klen) == 0)
            {
                break;
            }
        }

        if (i == BEHAVE_F_N || f[i].p != NULL) {
            return 0;
        }

        while (p < end && behave_json_ws(*p)) { p++; }
        if (p == end || *p++ != ':') {
            return 0;
        }

        while (p < end && behave_json_ws(*p)) { p++; }
        if (p == end || *p++ != '"') {
            return 0;
        }

        f[i].p = p;
        p = behave_json_plain_string(p, end, &f[i].len);
        if (p == NULL) {
            return 0;
        }

        while (p < end && behave_json_ws(*p)) { p++; }
        if (p == end) {
            return 0;
        }

        if (*p == '}') {
            break;
        }

        if (*p++ != ',') {
            return 0;
        }
    }

    for (p++; p < end && behave_json_ws(*p); p++) { /* void */ }
    if (p != end) {
        return 0;
    }

    msg = f[BEHAVE_F_MESSAGE].p != NULL ? &f[BEHAVE_F_MESSAGE]
                                        : &f[BEHAVE_F_TEXT];

    if (msg->p == NULL || msg->len > max_message) {
        return 0;
    }

    for (n = 0; n < msg->len && behave_json_ws(msg->p[n]); n++) {
        /* void */
    }

    if (n == msg->len
        || (f[BEHAVE_F_CONVERSATION].p != NULL
            && !behave_conversation_id_valid(f[BEHAVE_F_CONVERSATION].p,
                                             f[BEHAVE_F_CONVERSATION].len))
        || (f[BEHAVE_F_SPEAKER].p != NULL
            && !(f[BEHAVE_F_SPEAKER].len == 5
                 && memcmp(f[BEHAVE_F_SPEAKER].p, "agent", 5) == 0)
            && !(f[BEHAVE_F_SPEAKER].len == 8
                 && memcmp(f[BEHAVE_F_SPEAKER].p, "customer", 8) == 0)))
    {
        return 0;
    }

    /* NUL-terminated copies, as cJSON's strings are */
    total = msg->len + f[BEHAVE_F_CONVERSATION].len + 2;
    o = malloc(total);
    if (o == NULL) {
        return 0;
    }

    req->strings = o;
    req->message = o;
    req->message_len = msg->len;
    memcpy(o, msg->p, msg->len);
    o[msg->len] = '\0';

    req->speaker = f[BEHAVE_F_SPEAKER].len == 5 ? BEHAVE_SPEAKER_AGENT
                                                : BEHAVE_SPEAKER_CUSTOMER;

    if (f[BEHAVE_F_CONVERSATION].p != NULL) {
        o += msg->len + 1;
        memcpy(o, f[BEHAVE_F_CONVERSATION].p, f[BEHAVE_F_CONVERSATION].len);
        o[f[BEHAVE_F_CONVERSATION].len] = '\0';
        req->conversation_id = o;
        req->conversation_id_len = f[BEHAVE_F_CONVERSATION].len;
    }

    return 1;
}


void
behave_analyze_req_free(behave_analyze_req_t *req)
{
    free(req->strings);
    req->strings = NULL;

    if (req->root != NULL) {
        cJSON_Delete(req->root);
        req->root = NULL;
    }
}
