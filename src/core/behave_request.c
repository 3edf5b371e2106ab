/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <string.h>

#include "behave_request.h"
#include "behave_utf8.h"


static behave_err_e behave_analyze_req_message(behave_analyze_req_t *req,
    size_t max_message, behave_error_t *err);
static behave_err_e behave_analyze_req_optional(behave_analyze_req_t *req,
    behave_error_t *err);


cJSON *
behave_json_parse_object(const char *body, size_t len, behave_error_t *err)
{
    cJSON  *root;

    if (!behave_utf8_valid((const unsigned char *) body, len)) {
        behave_error_set(err, BEHAVE_ERR_INVALID_UTF8,
                         "request body is not valid UTF-8");
        return NULL;
    }

    root = cJSON_ParseWithLength(body, len);

    if (root == NULL) {
        behave_error_set(err, BEHAVE_ERR_INVALID_JSON,
                         "request body is not valid JSON");
        return NULL;
    }

    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        behave_error_set(err, BEHAVE_ERR_INVALID_JSON,
                         "request body must be a JSON object");
        return NULL;
    }

    return root;
}


int
behave_conversation_id_valid(const char *id, size_t len)
{
    size_t  i;
    char    c;

    if (len == 0 || len > BEHAVE_CONVERSATION_ID_MAX) {
        return 0;
    }

    for (i = 0; i < len; i++) {
        c = id[i];

        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || (c >= '0' && c <= '9') || strchr("_.:@-", c) != NULL)
        {
            continue;
        }

        return 0;
    }

    return 1;
}


behave_err_e
behave_analyze_req_parse(const char *body, size_t len, size_t max_message,
    behave_analyze_req_t *req, behave_error_t *err)
{
    memset(req, 0, sizeof(*req));

    req->root = behave_json_parse_object(body, len, err);
    if (req->root == NULL) {
        return err->err;
    }

    if (behave_analyze_req_message(req, max_message, err) != BEHAVE_OK
        || behave_analyze_req_optional(req, err) != BEHAVE_OK)
    {
        behave_analyze_req_free(req);
        return err->err;
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
behave_analyze_req_optional(behave_analyze_req_t *req, behave_error_t *err)
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

    item = cJSON_GetObjectItemCaseSensitive(req->root, "metadata");

    if (item != NULL && !cJSON_IsNull(item)) {
        if (!cJSON_IsObject(item)) {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                    "field \"metadata\" must be an object");
        }

        req->metadata = item;
    }

    return BEHAVE_OK;
}


void
behave_analyze_req_free(behave_analyze_req_t *req)
{
    if (req->root != NULL) {
        cJSON_Delete(req->root);
        req->root = NULL;
    }
}
