/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * ElevenLabs (shared/spec/voice-platforms.md): post_call_transcription,
 * post_call_audio and call_initiation_failure events, signed in one
 * header of "k=v" pairs:
 *
 *   ElevenLabs-Signature: t=<unix s>,v0=<hex>[,v0=...]
 *   over "<t>.<body>", 30 minutes old, 5 minutes ahead at most
 */

#include <stdio.h>
#include <string.h>

#include "behave_provider.h"


static behave_err_e behave_elevenlabs_locate(behave_call_t *call,
    const cJSON *root, behave_call_src_t *src, behave_error_t *err);


static const behave_sig_scheme_t  behave_elevenlabs_scheme = {
    "elevenlabs-signature", "t", "v0", BEHAVE_SIG_SEC_DIGITS, 1000, ".",
    BEHAVE_SIG_ELEVENLABS_MAX_AGE, BEHAVE_SIG_ELEVENLABS_MAX_AHEAD
};


const behave_provider_t  behave_provider_elevenlabs = {
    .name = "elevenlabs",
    .scheme = &behave_elevenlabs_scheme,
    .locate = behave_elevenlabs_locate,
};


static behave_err_e
behave_elevenlabs_locate(behave_call_t *call, const cJSON *root,
    behave_call_src_t *src, behave_error_t *err)
{
    const cJSON   *data;
    behave_err_e   rc;

    rc = behave_call_typed_data(call, root, src, "post_call_transcription",
                                "post_call_audio", "call_initiation_failure",
                                err);
    if (rc != BEHAVE_OK) {
        return rc;
    }

    data = src->container;
    src->call_id = behave_call_path(data, "conversation_id", NULL);
    src->call_id_name = "data.conversation_id";
    src->role_key[0] = "role";
    src->text_key[0] = "message";
    src->verdict = behave_call_path(data, "analysis", "call_successful", NULL);
    src->summary = behave_call_path(data, "analysis", "transcript_summary",
                                    NULL);
    src->time = cJSON_GetObjectItemCaseSensitive(root, "event_timestamp");
    src->conv[0] = behave_call_path(data,
                                    "conversation_initiation_client_data",
                                    "dynamic_variables",
                                    BEHAVE_CONVERSATION_VAR, NULL);

    return BEHAVE_OK;
}
