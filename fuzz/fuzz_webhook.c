/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A verified post-call webhook body, per provider: the first byte picks
 * the provider (ElevenLabs, Retell, Vapi, Standard Webhooks), the rest
 * is the body.  An accepted transcript then goes where the receiver
 * sends it: the retry key, every turn annotated, the call summary JSON.
 */

#include "fuzz.h"
#include "webhooks/behave_provider.h"
#include "base/behave_time.h"
#include "webhooks/behave_webhook_parse.h"
#include "webhooks/behave_callsum.h"
#include "analyze/behave_request.h"
#include "base/behave_utf8.h"
#include "base/behave_time.h"


static void fuzz_webhook_transcript(const behave_call_t *call);
static void fuzz_webhook_sliced(const behave_call_t *call,
    const behave_callsum_meta_t *meta, const char *json, size_t len);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t                    i, n;
    behave_err_e              rc;
    behave_call_t             call;
    behave_error_t            err;
    const behave_provider_t  *provider;

    if (size == 0) {
        return 0;
    }

    for (n = 0; behave_providers[n] != NULL; n++) {
        /* void */
    }

    provider = behave_providers[data[0] % n];

    memset(&err, 0, sizeof(err));
    rc = behave_call_parse(&call, provider, (const char *) data + 1,
                           size - 1, &err);

    if (rc != BEHAVE_OK) {
        FUZZ_CHECK(err.err == rc);
        FUZZ_CHECK(behave_error_status(rc) >= 400);
        return 0;
    }

    FUZZ_CHECK(call.provider == provider);
    FUZZ_CHECK(call.kind < BEHAVE_EVENT_LAST);
    FUZZ_CHECK(call.event_type != NULL);
    FUZZ_CHECK(behave_event_kind_name(call.kind) != NULL);

    if (call.kind == BEHAVE_EVENT_TRANSCRIPT) {
        FUZZ_CHECK(call.nturns <= BEHAVE_CALL_MAX_TURNS);
        FUZZ_CHECK(call.conversation_id != NULL);
        FUZZ_CHECK(behave_conversation_id_valid(call.conversation_id,
                                                call.conversation_id_len));

        for (i = 0; i < call.nturns; i++) {
            FUZZ_CHECK(call.turns[i].len > 0);
            FUZZ_CHECK(call.turns[i].speaker == 0
                       || call.turns[i].speaker == 1);
            FUZZ_CHECK(call.turns[i].text[call.turns[i].len] == '\0');
        }

        fuzz_webhook_transcript(&call);
    }

    behave_call_free(&call);
    behave_call_free(&call);            /* documented as safe */

    return 0;
}


static void
fuzz_webhook_transcript(const behave_call_t *call)
{
    char                   key[512], ts[32], *json;
    size_t                 len;
    behave_callsum_t       sum;
    behave_callsum_meta_t  meta;

    if (call->call_id != NULL && call->call_id_len < 256) {
        FUZZ_CHECK(behave_call_dedup_key(call, key, sizeof(key)) == 0);
        FUZZ_CHECK(strlen(key) > call->call_id_len);
    }

    FUZZ_CHECK(behave_callsum_run(call, &sum) == 0);
    FUZZ_CHECK(sum.turns <= call->nturns);
    FUZZ_CHECK(sum.review_status <= BEHAVE_REVIEW_ESCALATED);
    FUZZ_CHECK(sum.peak_severity >= 0 && sum.peak_severity <= 4);

    behave_iso8601_ms(call->event_ts_ms, ts, sizeof(ts));

    memset(&meta, 0, sizeof(meta));
    meta.status = "processed";
    meta.delivery_id = "dlv_0123456789abcdef0123456789abcdef";
    meta.provider = call->provider->name;
    meta.event_type = call->event_type;
    meta.call_id = call->call_id;
    meta.conversation_id = call->conversation_id;
    meta.conversation_id_from_var = call->conversation_id_from_var;

    json = behave_callsum_json(&sum, &meta, &len);
    FUZZ_CHECK(json != NULL);
    FUZZ_CHECK(len > 0 && json[len - 1] == '}');
    FUZZ_CHECK(strlen(json) == len);

    fuzz_webhook_sliced(call, &meta, json, len);

    free(json);
}


/* the analysis one turn a step (as the receiver slices it) finds the same */
static void
fuzz_webhook_sliced(const behave_call_t *call,
    const behave_callsum_meta_t *meta, const char *json, size_t len)
{
    char                  *again;
    size_t                 alen;
    behave_callsum_t       sum;
    behave_callsum_job_t  *job;

    job = behave_callsum_begin(call);
    FUZZ_CHECK(job != NULL);

    while (behave_callsum_step(job, 1) == 0) {
        /* void */
    }

    FUZZ_CHECK(behave_callsum_done(job) == call->nturns);
    behave_callsum_finish(job, &sum, NULL);

    again = behave_callsum_json(&sum, meta, &alen);
    FUZZ_CHECK(again != NULL && alen == len && memcmp(again, json, len) == 0);
    free(again);
}
