/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Each provider only says where things are (a behave_call_src_t, its
 * locate: providers/behave_provider_<name>.c); one common path then
 * checks and reads them, so the rules (what is required, how turns,
 * verdicts and times are read) are written once.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "webhooks/behave_webhook_parse.h"
#include "base/behave_ids.h"
#include "base/behave_json_parse.h"
#include "conversation/behave_turn.h"            /* BEHAVE_SPEAKER_* */


static void behave_call_classify(behave_call_t *call, const char *transcript,
    const char *audio, const char *failed);
static behave_err_e behave_call_transcript(behave_call_t *call,
    const behave_call_src_t *src, behave_error_t *err);
static behave_err_e behave_call_turns(behave_call_t *call,
    const behave_call_src_t *src, behave_error_t *err);
static int behave_call_turn(const cJSON *item, const behave_call_src_t *src,
    behave_call_turn_t *turn);
static behave_err_e behave_call_conversation(behave_call_t *call,
    const behave_call_src_t *src, behave_error_t *err);
static behave_verdict_e behave_call_verdict(const cJSON *v);
static int64_t behave_call_time(const cJSON *v);
static const cJSON *behave_call_keys(const cJSON *obj,
    const char *const *keys);
static const char *behave_call_string(const cJSON *item);


static const char  *behave_event_kind_names[BEHAVE_EVENT_LAST] = {
    [BEHAVE_EVENT_TRANSCRIPT]  = "transcript",
    [BEHAVE_EVENT_AUDIO_ONLY]  = "audio_only",
    [BEHAVE_EVENT_FAILED_CALL] = "failed_call",
    [BEHAVE_EVENT_IGNORED]     = "ignored",
    [BEHAVE_EVENT_UNKNOWN]     = "unknown",
};

static const char  *behave_verdict_names[BEHAVE_VERDICT_LAST] = {
    [BEHAVE_VERDICT_UNKNOWN]   = "unknown",
    [BEHAVE_VERDICT_SUCCESS]   = "success",
    [BEHAVE_VERDICT_FAILURE]   = "failure",
};


behave_err_e
behave_call_begin(behave_call_t *call, const behave_provider_t *provider,
    const cJSON *root, behave_call_src_t *src, behave_error_t *err)
{
    memset(call, 0, sizeof(*call));
    memset(src, 0, sizeof(*src));

    call->provider = provider;
    call->event_type = "";

    if (!cJSON_IsObject(root)) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_JSON,
                                "webhook body must be a JSON object");
    }

    return BEHAVE_OK;
}


behave_err_e
behave_call_finish(behave_call_t *call, const behave_call_src_t *src,
    behave_error_t *err)
{
    behave_err_e  rc;

    /* every kind reports the call id when it has one, for the log */
    if (behave_call_string(src->call_id) != NULL
        && src->call_id->valuestring[0] != '\0')
    {
        call->call_id = src->call_id->valuestring;
        call->call_id_len = strlen(call->call_id);
    }

    if (call->kind != BEHAVE_EVENT_TRANSCRIPT) {
        return BEHAVE_OK;
    }

    rc = behave_call_transcript(call, src, err);

    if (rc != BEHAVE_OK) {
        behave_call_free(call);
    }

    return rc;
}


void
behave_call_free(behave_call_t *call)
{
    free(call->turns);
    call->turns = NULL;
    call->nturns = 0;

    if (call->root != NULL) {
        cJSON_Delete(call->root);
        call->root = NULL;
    }
}


const char *
behave_event_kind_name(behave_event_kind_e kind)
{
    if ((unsigned) kind >= BEHAVE_EVENT_LAST) {
        return "unknown";
    }

    return behave_event_kind_names[kind];
}


const char *
behave_verdict_name(behave_verdict_e verdict)
{
    if ((unsigned) verdict >= BEHAVE_VERDICT_LAST) {
        return "unknown";
    }

    return behave_verdict_names[verdict];
}


/* the event kind from the type's name: the providers differ in names only */

static void
behave_call_classify(behave_call_t *call, const char *transcript,
    const char *audio, const char *failed)
{
    const char  *type;

    type = call->event_type;

    if (strcmp(type, transcript) == 0) {
        call->kind = BEHAVE_EVENT_TRANSCRIPT;

    } else if (strcmp(type, audio) == 0) {
        call->kind = BEHAVE_EVENT_AUDIO_ONLY;

    } else if (strcmp(type, failed) == 0) {
        call->kind = BEHAVE_EVENT_FAILED_CALL;

    } else {
        call->kind = BEHAVE_EVENT_UNKNOWN;
    }
}


/*
 * The shape ElevenLabs and the standard format share: {"type": ...,
 * "data": {..., "transcript": [...]}}; the type names the event kind.
 */

behave_err_e
behave_call_typed_data(behave_call_t *call, const cJSON *root,
    behave_call_src_t *src, const behave_call_typed_t *typed,
    behave_error_t *err)
{
    const cJSON   *data;
    behave_err_e   rc;

    rc = behave_call_type(call, cJSON_GetObjectItemCaseSensitive(root, "type"),
                          "type", err);
    if (rc != BEHAVE_OK) {
        return rc;
    }

    behave_call_classify(call, typed->types[0], typed->types[1],
                         typed->types[2]);

    data = cJSON_GetObjectItemCaseSensitive(root, "data");

    src->container = data;
    src->container_name = "data";
    src->turns = behave_call_path(data, "transcript", NULL);
    src->turns_name = "data.transcript";
    src->call_id = behave_call_path(data, typed->call_id, NULL);
    src->call_id_name = typed->call_id_name;
    memcpy(src->role_key, typed->role_key, sizeof(src->role_key));
    memcpy(src->text_key, typed->text_key, sizeof(src->text_key));
    src->verdict = behave_call_keys(data, typed->verdict);
    src->summary = behave_call_keys(data, typed->summary);
    src->time = cJSON_GetObjectItemCaseSensitive(root, typed->time);
    src->conv[0] = behave_call_keys(data, typed->conv);

    return BEHAVE_OK;
}


/* the event type is required of every event: without it we know nothing */
behave_err_e
behave_call_type(behave_call_t *call, const cJSON *type, const char *name,
    behave_error_t *err)
{
    if (type == NULL || cJSON_IsNull(type)) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "missing field: %s", name);
    }

    if (!cJSON_IsString(type) || type->valuestring == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "%s must be a string", name);
    }

    call->event_type = type->valuestring;

    return BEHAVE_OK;
}


/* the rest of a TRANSCRIPT event: what it requires, then what it may have */
static behave_err_e
behave_call_transcript(behave_call_t *call, const behave_call_src_t *src,
    behave_error_t *err)
{
    behave_err_e  rc;

    if (src->container == NULL || cJSON_IsNull(src->container)) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "missing field: %s", src->container_name);
    }

    if (!cJSON_IsObject(src->container)) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "%s must be an object", src->container_name);
    }

    if (call->call_id == NULL) {
        if (src->call_id == NULL || cJSON_IsNull(src->call_id)) {
            return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                    "missing field: %s", src->call_id_name);
        }

        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "%s must be a non-empty string",
                                src->call_id_name);
    }

    rc = behave_call_conversation(call, src, err);
    if (rc != BEHAVE_OK) {
        return rc;
    }

    rc = behave_call_turns(call, src, err);
    if (rc != BEHAVE_OK) {
        return rc;
    }

    call->provider_verdict = behave_call_verdict(src->verdict);
    call->summary = behave_call_string(src->summary);
    call->event_ts_ms = behave_call_time(src->time);

    return BEHAVE_OK;
}


/*
 * Two passes: count and check, then fill, so the array is allocated once
 * at its size and a bad element is reported before anything is kept.
 */
static behave_err_e
behave_call_turns(behave_call_t *call, const behave_call_src_t *src,
    behave_error_t *err)
{
    int                  rc;
    size_t               i, n;
    const cJSON         *item;
    behave_call_turn_t   turn;

    if (src->turns == NULL || cJSON_IsNull(src->turns)) {
        return BEHAVE_OK;
    }

    if (!cJSON_IsArray(src->turns)) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "%s must be an array", src->turns_name);
    }

    i = 0;
    n = 0;

    cJSON_ArrayForEach(item, src->turns) {
        rc = behave_call_turn(item, src, &turn);

        if (rc < 0) {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                    "%s[%zu] is malformed", src->turns_name,
                                    i);
        }

        n += (size_t) rc;
        i++;
    }

    if (n > BEHAVE_CALL_MAX_TURNS) {
        return behave_error_set(err, BEHAVE_ERR_TOO_LARGE,
                                "%s has more than %d turns", src->turns_name,
                                BEHAVE_CALL_MAX_TURNS);
    }

    if (n == 0) {
        return BEHAVE_OK;
    }

    call->turns = malloc(n * sizeof(behave_call_turn_t));
    if (call->turns == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    cJSON_ArrayForEach(item, src->turns) {
        if (behave_call_turn(item, src, &call->turns[call->nturns]) == 1) {
            call->nturns++;
        }
    }

    return BEHAVE_OK;
}


/*
 * One transcript element: 1 a turn to keep, 0 one to skip (a role that is
 * neither side, no text), -1 malformed (not an object, text not a string).
 */
static int
behave_call_turn(const cJSON *item, const behave_call_src_t *src,
    behave_call_turn_t *turn)
{
    size_t        k;
    const char   *role;
    const cJSON  *text;

    if (!cJSON_IsObject(item)) {
        return -1;
    }

    role = NULL;
    text = NULL;

    for (k = 0; k < 2 && src->role_key[k] != NULL && role == NULL; k++) {
        role = behave_call_string(
                   cJSON_GetObjectItemCaseSensitive(item, src->role_key[k]));
    }

    for (k = 0; k < 2 && src->text_key[k] != NULL && text == NULL; k++) {
        text = cJSON_GetObjectItemCaseSensitive(item, src->text_key[k]);
    }

    if (text != NULL && !cJSON_IsNull(text) && !cJSON_IsString(text)) {
        return -1;
    }

    if (role == NULL || behave_call_string(text) == NULL
        || text->valuestring[0] == '\0')
    {
        return 0;
    }

    if (strcasecmp(role, "user") == 0 || strcasecmp(role, "customer") == 0) {
        turn->speaker = BEHAVE_SPEAKER_CUSTOMER;

    } else if (strcasecmp(role, "agent") == 0 || strcasecmp(role, "bot") == 0
               || strcasecmp(role, "assistant") == 0)
    {
        turn->speaker = BEHAVE_SPEAKER_AGENT;

    } else {
        return 0;
    }

    turn->text = text->valuestring;
    turn->len = strlen(text->valuestring);

    return 1;
}


static behave_err_e
behave_call_conversation(behave_call_t *call, const behave_call_src_t *src,
    behave_error_t *err)
{
    size_t       k, len;
    const char  *id;

    for (k = 0; k < 2; k++) {
        if (src->conv[k] == NULL || cJSON_IsNull(src->conv[k])) {
            continue;
        }

        id = behave_call_string(src->conv[k]);
        len = id ? strlen(id) : 0;

        if (id == NULL || !behave_conversation_id_valid(id, len)) {
            call->conversation_var_invalid = 1;
            continue;
        }

        call->conversation_id = id;
        call->conversation_id_len = len;
        call->conversation_id_from_var = 1;

        return BEHAVE_OK;
    }

    if (!behave_conversation_id_valid(call->call_id, call->call_id_len)) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "%s is not a valid conversation id",
                                src->call_id_name);
    }

    call->conversation_id = call->call_id;
    call->conversation_id_len = call->call_id_len;

    return BEHAVE_OK;
}


static behave_verdict_e
behave_call_verdict(const cJSON *v)
{
    const char  *s;

    if (cJSON_IsTrue(v)) {
        return BEHAVE_VERDICT_SUCCESS;
    }

    if (cJSON_IsFalse(v)) {
        return BEHAVE_VERDICT_FAILURE;
    }

    s = behave_call_string(v);

    if (s == NULL) {
        return BEHAVE_VERDICT_UNKNOWN;
    }

    if (strcasecmp(s, "success") == 0 || strcasecmp(s, "true") == 0) {
        return BEHAVE_VERDICT_SUCCESS;
    }

    if (strcasecmp(s, "failure") == 0 || strcasecmp(s, "false") == 0) {
        return BEHAVE_VERDICT_FAILURE;
    }

    return BEHAVE_VERDICT_UNKNOWN;
}


/* unix seconds or milliseconds, as a number or digits; 0 when unusable */
static int64_t
behave_call_time(const cJSON *v)
{
    double       d;
    int64_t      t;
    const char  *s;

    t = 0;

    if (cJSON_IsNumber(v)) {
        d = v->valuedouble;

        if (!(d >= 1.0 && d < 1e16)) {
            return 0;
        }

        t = (int64_t) d;

    } else if ((s = behave_call_string(v)) != NULL) {
        if (*s == '\0' || strlen(s) > 16) {
            return 0;
        }

        for ( /* void */ ; *s; s++) {
            if (*s < '0' || *s > '9') {
                return 0;
            }

            t = t * 10 + (*s - '0');
        }

    } else {
        return 0;
    }

    return t >= 100000000000LL ? t : t * 1000;
}


/* obj.k1.k2...; NULL when any step is missing or not an object */
const cJSON *
behave_call_path(const cJSON *obj, ...)
{
    va_list      ap;
    const char  *key;

    va_start(ap, obj);

    while ((key = va_arg(ap, const char *)) != NULL) {
        if (!cJSON_IsObject(obj)) {
            obj = NULL;
            break;
        }

        obj = cJSON_GetObjectItemCaseSensitive(obj, key);
    }

    va_end(ap);

    return obj;
}


/* behave_call_path() of the NULL-terminated names keys */
static const cJSON *
behave_call_keys(const cJSON *obj, const char *const *keys)
{
    for ( /* void */ ; *keys != NULL; keys++) {
        if (!cJSON_IsObject(obj)) {
            return NULL;
        }

        obj = cJSON_GetObjectItemCaseSensitive(obj, *keys);
    }

    return obj;
}


static const char *
behave_call_string(const cJSON *item)
{
    if (!cJSON_IsString(item) || item->valuestring == NULL) {
        return NULL;
    }

    return item->valuestring;
}
