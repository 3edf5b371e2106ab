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

#include "webhooks/behave_provider.h"


static const behave_sig_scheme_t  behave_elevenlabs_scheme = {
    "elevenlabs-signature", "t", "v0", BEHAVE_SIG_SEC_DIGITS, 1000, ".",
    BEHAVE_SIG_ELEVENLABS_MAX_AGE, BEHAVE_SIG_ELEVENLABS_MAX_AHEAD
};


static const behave_call_typed_t  behave_elevenlabs_typed = {
    .types = { "post_call_transcription", "post_call_audio",
               "call_initiation_failure" },
    .call_id = "conversation_id",
    .call_id_name = "data.conversation_id",
    .role_key = { "role" },
    .text_key = { "message" },
    .verdict = { "analysis", "call_successful" },
    .summary = { "analysis", "transcript_summary" },
    .time = "event_timestamp",
    .conv = { "conversation_initiation_client_data", "dynamic_variables",
              BEHAVE_CONVERSATION_VAR },
};


const behave_provider_t  behave_provider_elevenlabs = {
    .name = "elevenlabs",
    .scheme = &behave_elevenlabs_scheme,
    .typed = &behave_elevenlabs_typed,
};

