/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "behave_error.h"
#include "behave_json.h"


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
