/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Retell (shared/spec/voice-platforms.md): call_analyzed, or call_ended
 * for a call without an analysis, carries the call; signed in one header
 * of "k=v" pairs:
 *
 *   X-Retell-Signature: v=<unix ms>,d=<hex>
 *   over "<body><v>", 5 minutes either way
 */

#include <stdio.h>
#include <string.h>

#include "webhooks/behave_provider.h"


static behave_err_e behave_retell_locate(behave_call_t *call,
    const cJSON *root, behave_call_src_t *src, behave_error_t *err);


static const behave_sig_scheme_t  behave_retell_scheme = {
    "x-retell-signature", "v", "d", BEHAVE_SIG_MS_DIGITS, 1, NULL,
    BEHAVE_SIG_RETELL_TOLERANCE, BEHAVE_SIG_RETELL_TOLERANCE
};


const behave_provider_t  behave_provider_retell = {
    .name = "retell",
    .scheme = &behave_retell_scheme,
    .locate = behave_retell_locate,
};


static behave_err_e
behave_retell_locate(behave_call_t *call, const cJSON *root,
    behave_call_src_t *src, behave_error_t *err)
{
    const char    *event;
    const cJSON   *c, *analysis;
    behave_err_e   rc;

    rc = behave_call_type(call, cJSON_GetObjectItemCaseSensitive(root, "event"),
                          "event", err);
    if (rc != BEHAVE_OK) {
        return rc;
    }

    event = call->event_type;
    c = cJSON_GetObjectItemCaseSensitive(root, "call");

    if (strcmp(event, "call_analyzed") == 0) {
        call->kind = BEHAVE_EVENT_TRANSCRIPT;

    } else if (strcmp(event, "call_ended") == 0) {
        /* with an analysis, the call_analyzed event will carry the call */
        analysis = behave_call_path(c, "call_analysis", NULL);
        call->kind = (analysis == NULL || cJSON_IsNull(analysis))
                     ? BEHAVE_EVENT_TRANSCRIPT : BEHAVE_EVENT_IGNORED;

    } else if (strcmp(event, "call_started") == 0
               || strcmp(event, "transcript_updated") == 0
               || strncmp(event, "transfer_", 9) == 0)
    {
        call->kind = BEHAVE_EVENT_IGNORED;

    } else {
        call->kind = BEHAVE_EVENT_UNKNOWN;
    }

    src->container = c;
    src->container_name = "call";
    src->call_id = behave_call_path(c, "call_id", NULL);
    src->call_id_name = "call.call_id";
    src->turns = behave_call_path(c, "transcript_object", NULL);
    src->turns_name = "call.transcript_object";
    src->role_key[0] = "role";
    src->text_key[0] = "content";
    src->verdict = behave_call_path(c, "call_analysis", "call_successful",
                                    NULL);
    src->summary = behave_call_path(c, "call_analysis", "call_summary", NULL);
    src->time = behave_call_path(c, "end_timestamp", NULL);
    src->conv[0] = behave_call_path(c, "metadata", BEHAVE_CONVERSATION_VAR,
                                    NULL);
    src->conv[1] = behave_call_path(c, "retell_llm_dynamic_variables",
                                    BEHAVE_CONVERSATION_VAR, NULL);

    return BEHAVE_OK;
}
