/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "base/behave_error.h"
#include "base/behave_json.h"


typedef struct {
    int          status;
    const char  *code;
} behave_error_def_t;


static const behave_error_def_t  behave_errors[BEHAVE_ERR_LAST] = {
    [BEHAVE_OK]                  = { 200, "ok" },
    [BEHAVE_ERR_INVALID_JSON]    = { 400, "invalid_json" },
    [BEHAVE_ERR_INVALID_UTF8]    = { 400, "invalid_utf8" },
    [BEHAVE_ERR_MISSING_FIELD]   = { 400, "missing_field" },
    [BEHAVE_ERR_EMPTY_MESSAGE]   = { 400, "empty_message" },
    [BEHAVE_ERR_INVALID_FIELD]   = { 400, "invalid_field" },
    [BEHAVE_ERR_UNAUTHORIZED]    = { 401, "unauthorized" },
    [BEHAVE_ERR_FORBIDDEN]       = { 403, "forbidden" },
    [BEHAVE_ERR_NOT_FOUND]       = { 404, "not_found" },
    [BEHAVE_ERR_METHOD]          = { 405, "method_not_allowed" },
    [BEHAVE_ERR_CONFLICT]        = { 409, "conflict" },
    [BEHAVE_ERR_TOO_LARGE]       = { 413, "payload_too_large" },
    [BEHAVE_ERR_MEDIA_TYPE]      = { 415, "unsupported_media_type" },
    [BEHAVE_ERR_UNPROCESSABLE]   = { 422, "unprocessable" },
    [BEHAVE_ERR_RATE_LIMITED]    = { 429, "rate_limited" },
    [BEHAVE_ERR_INTERNAL]        = { 500, "internal_error" },
    [BEHAVE_ERR_UNAVAILABLE]     = { 503, "unavailable" },
    [BEHAVE_ERR_BAD_REQUEST]     = { 400, "bad_request" },
    [BEHAVE_ERR_TIMEOUT]         = { 408, "request_timeout" },
    [BEHAVE_ERR_URI_TOO_LONG]    = { 414, "uri_too_long" },
    [BEHAVE_ERR_NOT_IMPLEMENTED] = { 501, "not_implemented" },
};


/* nginx's statuses, with what the client is told */
typedef struct {
    int           status;
    behave_err_e  err;
    const char   *message;
} behave_status_def_t;

static const behave_status_def_t  behave_statuses[] = {
    /* error_page turns 494 (a header too large) into 400: one message */
    { 400, BEHAVE_ERR_BAD_REQUEST,
      "the request is malformed (request line, header or body framing), "
      "or a header line or the whole header is too large" },
    { 404, BEHAVE_ERR_NOT_FOUND, "no such resource" },
    { 405, BEHAVE_ERR_METHOD, "the method is not allowed here" },
    { 408, BEHAVE_ERR_TIMEOUT, "the request took too long to arrive" },
    { 413, BEHAVE_ERR_TOO_LARGE, "the request body is too large" },
    { 414, BEHAVE_ERR_URI_TOO_LONG, "the request URI is too long" },
    { 494, BEHAVE_ERR_BAD_REQUEST,
      "a request header line, or the header as a whole, is too large" },
    { 495, BEHAVE_ERR_BAD_REQUEST, "the client certificate is invalid" },
    { 496, BEHAVE_ERR_BAD_REQUEST, "a client certificate is required" },
    { 497, BEHAVE_ERR_BAD_REQUEST, "a plain HTTP request to an HTTPS port" },
    { 500, BEHAVE_ERR_INTERNAL, "internal error" },
    { 501, BEHAVE_ERR_NOT_IMPLEMENTED,
      "not implemented (a Transfer-Encoding other than chunked, or an "
      "unknown method)" },
    { 503, BEHAVE_ERR_UNAVAILABLE, "the service is unavailable" },
};


int
behave_error_status(behave_err_e err)
{
    if ((unsigned) err >= BEHAVE_ERR_LAST) {
        return 500;
    }

    return behave_errors[err].status;
}


const char *
behave_error_code(behave_err_e err)
{
    if ((unsigned) err >= BEHAVE_ERR_LAST) {
        return "internal_error";
    }

    return behave_errors[err].code;
}


behave_err_e
behave_error_for_status(int status, int *sent, behave_error_t *e)
{
    size_t  i;

    for (i = 0; i < sizeof(behave_statuses) / sizeof(behave_statuses[0]);
         i++)
    {
        if (behave_statuses[i].status == status) {
            *sent = behave_errors[behave_statuses[i].err].status;
            return behave_error_set(e, behave_statuses[i].err, "%s",
                                    behave_statuses[i].message);
        }
    }

    if (status >= 400 && status < 500) {
        *sent = status;
        return behave_error_set(e, BEHAVE_ERR_BAD_REQUEST,
                                "the request was refused (HTTP %d)", status);
    }

    *sent = status >= 500 && status < 600 ? status : 500;

    return behave_error_set(e, BEHAVE_ERR_INTERNAL,
                            "the request failed (HTTP %d)", *sent);
}


behave_err_e
behave_error_set(behave_error_t *e, behave_err_e err, const char *fmt, ...)
{
    va_list  ap;

    e->err = err;

    va_start(ap, fmt);
    vsnprintf(e->message, sizeof(e->message), fmt, ap);
    va_end(ap);

    return err;
}


char *
behave_error_json(const behave_error_t *e, size_t *len)
{
    char   *out;
    cJSON  *root, *obj;

    root = cJSON_CreateObject();
    if (root == NULL) {
        return NULL;
    }

    obj = cJSON_AddObjectToObject(root, "error");

    if (obj == NULL
        || cJSON_AddStringToObject(obj, "code", behave_error_code(e->err))
           == NULL
        || cJSON_AddStringToObject(obj, "message", e->message) == NULL)
    {
        cJSON_Delete(root);
        return NULL;
    }

    out = behave_json_print(root, NULL);
    cJSON_Delete(root);

    if (out != NULL && len != NULL) {
        *len = strlen(out);
    }

    return out;
}
