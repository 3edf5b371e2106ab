/*
 * Post-call payloads of the four providers into behave_call_t: the
 * samples of shared/data/voice when present, inline bodies always.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testdata.h"
#include "behave_hash.h"
#include "behave_provider.h"
#include "behave_webhook_parse.h"


/* the table's entries by name (behave_provider.h) */
#define EL   behave_provider_find("elevenlabs", 10)
#define RT   behave_provider_find("retell", 6)
#define VP   behave_provider_find("vapi", 4)
#define SW   behave_provider_find("standard", 8)


static char *
load(const char *name, size_t *len)
{
    return testdata_load("voice", name, len);
}


static behave_err_e
parse(behave_call_t *call, const behave_provider_t *p, const char *body,
    behave_error_t *err)
{
    return behave_call_parse(call, p, body, strlen(body), err);
}


/* parses a body that must fail with want; checks the message names field */
static void
fails(const behave_provider_t *p, const char *body, behave_err_e want,
    const char *field, const char *what)
{
    behave_call_t   call;
    behave_error_t  err;

    memset(&err, 0, sizeof(err));
    is_int(parse(&call, p, body, &err), want, "%s", what);
    ok(field == NULL || strstr(err.message, field) != NULL,
       "%s: message names %s", what, field ? field : "-");
    ok(call.root == NULL && call.turns == NULL,
       "%s: nothing left to free", what);
    behave_call_free(&call);
}


static void
test_samples(void)
{
    char            *b;
    size_t           len;
    behave_call_t    call;
    behave_error_t   err;

    b = load("elevenlabs_post_call_transcription.min.json", &len);
    if (b == NULL) {
        skip("samples: shared data absent");
        return;
    }

    is_int(behave_call_parse(&call, EL, b, len, &err), BEHAVE_OK,
           "elevenlabs sample parses");
    is_int(call.kind, BEHAVE_EVENT_TRANSCRIPT, "elevenlabs sample: transcript");
    is_str(call.event_type, "post_call_transcription",
           "elevenlabs sample: raw type");
    is_str(call.call_id, "conv_9001k1zph3fkeh5s8xg9z90swaqa",
           "elevenlabs sample: call id");
    is_str(call.conversation_id, call.call_id,
           "elevenlabs sample: conversation id is the call id");
    ok(!call.conversation_id_from_var && !call.conversation_var_invalid,
       "elevenlabs sample: no variable");
    is_int(call.nturns, 3, "elevenlabs sample: 3 turns");
    ok(call.nturns == 3 && call.turns[0].speaker == 1
       && call.turns[1].speaker == 0 && call.turns[2].speaker == 1,
       "elevenlabs sample: agent, customer, agent");
    is_str(call.nturns == 3 ? call.turns[1].text : NULL,
           "I'd like to move my appointment to Friday.",
           "elevenlabs sample: customer text");
    is_int(call.nturns == 3 ? call.turns[1].len : 0, 42,
           "elevenlabs sample: text length");
    is_int(call.provider_verdict, BEHAVE_VERDICT_SUCCESS,
           "elevenlabs sample: verdict success");
    ok(call.summary != NULL && strncmp(call.summary, "The caller asked", 16)
       == 0, "elevenlabs sample: summary");
    is_int(call.event_ts_ms, 1767225645000LL, "elevenlabs sample: time in ms");
    behave_call_free(&call);
    free(b);

    b = load("elevenlabs_post_call_audio.min.json", &len);
    is_int(behave_call_parse(&call, EL, b, len, &err), BEHAVE_OK,
           "elevenlabs audio sample parses");
    is_int(call.kind, BEHAVE_EVENT_AUDIO_ONLY, "elevenlabs audio: audio_only");
    is_str(call.call_id, "conv_9001k1zph3fkeh5s8xg9z90swaqa",
           "elevenlabs audio: call id for the log");
    ok(call.nturns == 0 && call.conversation_id == NULL,
       "elevenlabs audio: nothing else read");
    behave_call_free(&call);
    free(b);

    b = load("elevenlabs_call_initiation_failure_sip.min.json", &len);
    is_int(behave_call_parse(&call, EL, b, len, &err), BEHAVE_OK,
           "elevenlabs sip failure parses");
    is_int(call.kind, BEHAVE_EVENT_FAILED_CALL, "sip failure: failed_call");
    behave_call_free(&call);
    free(b);

    b = load("elevenlabs_call_initiation_failure_twilio.min.json", &len);
    is_int(behave_call_parse(&call, EL, b, len, &err), BEHAVE_OK,
           "elevenlabs twilio failure parses");
    is_int(call.kind, BEHAVE_EVENT_FAILED_CALL, "twilio failure: failed_call");
    behave_call_free(&call);
    free(b);

    b = load("retell_call_analyzed.min.json", &len);
    is_int(behave_call_parse(&call, RT, b, len, &err), BEHAVE_OK,
           "retell sample parses");
    is_int(call.kind, BEHAVE_EVENT_TRANSCRIPT, "retell sample: transcript");
    is_str(call.event_type, "call_analyzed", "retell sample: raw event");
    is_str(call.call_id, "Jabr9TXYYJHfvl6Syypi88rdAHYHmcq6",
           "retell sample: call id");
    is_str(call.conversation_id, call.call_id,
           "retell sample: conversation id is the call id");
    is_int(call.nturns, 3, "retell sample: 3 turns");
    ok(call.nturns == 3 && call.turns[0].speaker == 1
       && call.turns[1].speaker == 0
       && strcmp(call.turns[1].text, "Move my appointment to Friday.") == 0,
       "retell sample: roles and content");
    is_int(call.provider_verdict, BEHAVE_VERDICT_SUCCESS,
           "retell sample: call_successful true");
    ok(call.summary != NULL, "retell sample: summary");
    is_int(call.event_ts_ms, 1714608491736LL, "retell sample: end time");
    behave_call_free(&call);
    free(b);

    b = load("vapi_end_of_call_report.min.json", &len);
    is_int(behave_call_parse(&call, VP, b, len, &err), BEHAVE_OK,
           "vapi sample parses");
    is_int(call.kind, BEHAVE_EVENT_TRANSCRIPT, "vapi sample: transcript");
    is_str(call.event_type, "end-of-call-report", "vapi sample: raw type");
    is_str(call.call_id, "c8a1d2e0-1b2c-4d5e-8f90-123456789abc",
           "vapi sample: call id");
    is_int(call.nturns, 3, "vapi sample: system message skipped");
    ok(call.nturns == 3 && call.turns[0].speaker == 1
       && call.turns[1].speaker == 0 && call.turns[2].speaker == 1
       && strcmp(call.turns[0].text, "Hi, how can I help?") == 0,
       "vapi sample: bot is agent, user is customer");
    is_int(call.provider_verdict, BEHAVE_VERDICT_SUCCESS,
           "vapi sample: successEvaluation \"true\"");
    ok(call.summary != NULL, "vapi sample: summary");
    is_int(call.event_ts_ms, 1767225645123LL, "vapi sample: time in ms");
    behave_call_free(&call);
    free(b);

    b = load("standardwebhooks_example.min.json", &len);
    is_int(behave_call_parse(&call, SW, b, len, &err), BEHAVE_OK,
           "standard sample parses");
    is_int(call.kind, BEHAVE_EVENT_UNKNOWN,
           "standard sample: contact.created is unknown");
    ok(call.call_id == NULL, "standard sample: no call id");
    behave_call_free(&call);
    free(b);
}


static void
test_elevenlabs(void)
{
    char            key[64];
    behave_call_t   call;
    behave_error_t  err;

    is_int(parse(&call, EL,
                 "{\"type\":\"post_call_transcription\","
                 "\"event_timestamp\":\"1767225645\","
                 "\"data\":{\"conversation_id\":\"conv_1\","
                 "\"transcript\":["
                 "{\"role\":\"agent\",\"message\":\"Hello\"},"
                 "{\"role\":\"user\",\"message\":null},"
                 "{\"role\":\"user\",\"message\":\"\"},"
                 "{\"role\":\"user\",\"message\":\"It still fails\"},"
                 "{\"role\":\"tool\",\"message\":\"x\"},"
                 "{\"message\":\"no role\"}],"
                 "\"analysis\":{\"call_successful\":\"failure\"},"
                 "\"conversation_initiation_client_data\":"
                 "{\"dynamic_variables\":"
                 "{\"behave_conversation_id\":\"acct-42:thread.7\"}}}}",
                 &err),
           BEHAVE_OK, "elevenlabs inline parses");
    is_int(call.nturns, 2, "null, empty and roleless turns skipped");
    ok(call.nturns == 2 && call.turns[0].speaker == 1
       && call.turns[1].speaker == 0
       && strcmp(call.turns[1].text, "It still fails") == 0,
       "order kept");
    is_str(call.conversation_id, "acct-42:thread.7",
           "conversation id from behave_conversation_id");
    ok(call.conversation_id_from_var, "conversation id flagged from var");
    is_int(call.conversation_id_len, 16, "conversation id length");
    is_str(call.call_id, "conv_1", "call id kept apart");
    is_int(call.provider_verdict, BEHAVE_VERDICT_FAILURE, "verdict failure");
    is_str(behave_verdict_name(call.provider_verdict), "failure",
           "verdict name");
    ok(call.summary == NULL, "no summary");
    is_int(call.event_ts_ms, 1767225645000LL, "numeric string timestamp");
    is_int(behave_call_dedup_key(&call, key, sizeof(key)), 0, "dedup key");
    is_str(key, "elevenlabs:conv_1", "dedup key is provider:call id");
    is_int(behave_call_dedup_key(&call, key, 17), -1, "dedup key: cap short");
    behave_call_free(&call);
    behave_call_free(&call);
    ok(call.root == NULL && call.turns == NULL, "free twice is safe");

    is_int(parse(&call, EL,
                 "{\"type\":\"post_call_transcription\","
                 "\"data\":{\"conversation_id\":\"conv_2\","
                 "\"analysis\":{\"call_successful\":\"unknown\"},"
                 "\"conversation_initiation_client_data\":"
                 "{\"dynamic_variables\":"
                 "{\"behave_conversation_id\":\"has space\"}}}}", &err),
           BEHAVE_OK, "elevenlabs without transcript parses");
    is_int(call.nturns, 0, "no transcript: no turns");
    is_str(call.conversation_id, "conv_2", "bad variable: call id used");
    ok(call.conversation_var_invalid && !call.conversation_id_from_var,
       "bad variable flagged");
    is_int(call.provider_verdict, BEHAVE_VERDICT_UNKNOWN, "verdict unknown");
    is_int(call.event_ts_ms, 0, "no timestamp: 0");
    behave_call_free(&call);

    is_int(parse(&call, EL, "{\"type\":\"post_call_transcription_otel\","
                 "\"data\":{}}", &err),
           BEHAVE_OK, "otel parses");
    is_int(call.kind, BEHAVE_EVENT_UNKNOWN, "otel is unknown");
    is_str(behave_event_kind_name(call.kind), "unknown", "kind name");
    behave_call_free(&call);

    fails(EL, "{\"data\":{}}", BEHAVE_ERR_MISSING_FIELD, "type",
          "elevenlabs: no type");
    fails(EL, "{\"type\":7}", BEHAVE_ERR_INVALID_FIELD, "type",
          "elevenlabs: type not a string");
    fails(EL, "{\"type\":\"post_call_transcription\"}",
          BEHAVE_ERR_MISSING_FIELD, "data", "elevenlabs: no data");
    fails(EL, "{\"type\":\"post_call_transcription\",\"data\":[]}",
          BEHAVE_ERR_INVALID_FIELD, "data", "elevenlabs: data not an object");
    fails(EL, "{\"type\":\"post_call_transcription\",\"data\":"
          "{\"transcript\":[]}}",
          BEHAVE_ERR_MISSING_FIELD, "data.conversation_id",
          "elevenlabs: no conversation_id");
    fails(EL, "{\"type\":\"post_call_transcription\",\"data\":"
          "{\"conversation_id\":5}}",
          BEHAVE_ERR_INVALID_FIELD, "data.conversation_id",
          "elevenlabs: conversation_id a number");
    fails(EL, "{\"type\":\"post_call_transcription\",\"data\":"
          "{\"conversation_id\":\"\"}}",
          BEHAVE_ERR_INVALID_FIELD, "data.conversation_id",
          "elevenlabs: conversation_id empty");
    fails(EL, "{\"type\":\"post_call_transcription\",\"data\":"
          "{\"conversation_id\":\"c 1\"}}",
          BEHAVE_ERR_INVALID_FIELD, "data.conversation_id",
          "elevenlabs: conversation_id not a valid id");
    fails(EL, "{\"type\":\"post_call_transcription\",\"data\":"
          "{\"conversation_id\":\"c1\",\"transcript\":{}}}",
          BEHAVE_ERR_INVALID_FIELD, "data.transcript",
          "elevenlabs: transcript not an array");
    fails(EL, "{\"type\":\"post_call_transcription\",\"data\":"
          "{\"conversation_id\":\"c1\",\"transcript\":[{},\"hi\"]}}",
          BEHAVE_ERR_INVALID_FIELD, "data.transcript[1]",
          "elevenlabs: turn not an object");
    fails(EL, "{\"type\":\"post_call_transcription\",\"data\":"
          "{\"conversation_id\":\"c1\",\"transcript\":"
          "[{\"role\":\"user\",\"message\":3}]}}",
          BEHAVE_ERR_INVALID_FIELD, "data.transcript[0]",
          "elevenlabs: message a number");
    fails(EL, "not json", BEHAVE_ERR_INVALID_JSON, NULL,
          "elevenlabs: not JSON");
    fails(EL, "[1,2]", BEHAVE_ERR_INVALID_JSON, NULL,
          "elevenlabs: not an object");
    fails(EL, "{\"type\":\"\xff\"}", BEHAVE_ERR_INVALID_UTF8, NULL,
          "elevenlabs: not UTF-8");

    /* audio and failures need nothing but their type */
    is_int(parse(&call, EL, "{\"type\":\"post_call_audio\"}", &err),
           BEHAVE_OK, "audio without data accepted");
    is_int(call.kind, BEHAVE_EVENT_AUDIO_ONLY, "audio without data: kind");
    is_int(behave_call_dedup_key(&call, key, sizeof(key)), -1,
           "dedup key needs a call id");
    behave_call_free(&call);
}


static void
test_retell(void)
{
    behave_call_t   call;
    behave_error_t  err;

    is_int(parse(&call, RT,
                 "{\"event\":\"call_ended\",\"call\":{\"call_id\":\"r1\","
                 "\"end_timestamp\":1714608491736,"
                 "\"metadata\":{\"behave_conversation_id\":\"from-meta\"},"
                 "\"retell_llm_dynamic_variables\":"
                 "{\"behave_conversation_id\":\"from-vars\"},"
                 "\"transcript_object\":["
                 "{\"role\":\"user\",\"content\":\"hello\"}]}}", &err),
           BEHAVE_OK, "retell call_ended parses");
    is_int(call.kind, BEHAVE_EVENT_TRANSCRIPT,
           "call_ended without analysis is analysed");
    is_str(call.conversation_id, "from-meta", "metadata wins");
    is_int(call.provider_verdict, BEHAVE_VERDICT_UNKNOWN,
           "no analysis: verdict unknown");
    is_int(call.nturns, 1, "one turn");
    behave_call_free(&call);

    is_int(parse(&call, RT,
                 "{\"event\":\"call_analyzed\",\"call\":{\"call_id\":\"r2\","
                 "\"metadata\":{\"behave_conversation_id\":17},"
                 "\"retell_llm_dynamic_variables\":"
                 "{\"behave_conversation_id\":\"from-vars\"},"
                 "\"call_analysis\":{\"call_successful\":false}}}", &err),
           BEHAVE_OK, "retell call_analyzed parses");
    is_str(call.conversation_id, "from-vars",
           "dynamic variable used when metadata is unusable");
    ok(call.conversation_var_invalid, "unusable metadata flagged");
    is_int(call.provider_verdict, BEHAVE_VERDICT_FAILURE,
           "call_successful false is failure");
    is_int(call.nturns, 0, "no transcript_object: no turns");
    behave_call_free(&call);

    is_int(parse(&call, RT,
                 "{\"event\":\"call_ended\",\"call\":{\"call_id\":\"r3\","
                 "\"call_analysis\":{\"call_successful\":true}}}", &err),
           BEHAVE_OK, "retell call_ended with analysis parses");
    is_int(call.kind, BEHAVE_EVENT_IGNORED,
           "call_ended with analysis is ignored");
    behave_call_free(&call);

    is_int(parse(&call, RT, "{\"event\":\"call_started\",\"call\":{}}", &err),
           BEHAVE_OK, "retell call_started parses");
    is_int(call.kind, BEHAVE_EVENT_IGNORED, "call_started ignored");
    behave_call_free(&call);

    is_int(parse(&call, RT, "{\"event\":\"transfer_bridged\"}", &err),
           BEHAVE_OK, "retell transfer parses");
    is_int(call.kind, BEHAVE_EVENT_IGNORED, "transfer_* ignored");
    behave_call_free(&call);

    is_int(parse(&call, RT, "{\"event\":\"call_exploded\"}", &err),
           BEHAVE_OK, "retell unknown event parses");
    is_int(call.kind, BEHAVE_EVENT_UNKNOWN, "unknown event is unknown");
    behave_call_free(&call);

    fails(RT, "{\"call\":{}}", BEHAVE_ERR_MISSING_FIELD, "event",
          "retell: no event");
    fails(RT, "{\"event\":\"call_analyzed\"}", BEHAVE_ERR_MISSING_FIELD,
          "call", "retell: no call");
    fails(RT, "{\"event\":\"call_analyzed\",\"call\":{}}",
          BEHAVE_ERR_MISSING_FIELD, "call.call_id", "retell: no call_id");
    fails(RT, "{\"event\":\"call_analyzed\",\"call\":{\"call_id\":\"r\","
          "\"transcript_object\":\"Agent: hi\"}}",
          BEHAVE_ERR_INVALID_FIELD, "call.transcript_object",
          "retell: transcript_object a string");
}


static void
test_vapi(void)
{
    behave_call_t   call;
    behave_error_t  err;

    is_int(parse(&call, VP,
                 "{\"message\":{\"type\":\"end-of-call-report\","
                 "\"timestamp\":1767225645,"
                 "\"call\":{\"id\":\"v1\",\"assistantOverrides\":"
                 "{\"variableValues\":{\"behave_conversation_id\":\"vv\"}}},"
                 "\"artifact\":{\"messages\":["
                 "{\"role\":\"system\",\"message\":\"prompt\"},"
                 "{\"role\":\"assistant\",\"message\":\"Hi\"},"
                 "{\"role\":\"tool_calls\",\"message\":\"x\"},"
                 "{\"role\":\"user\",\"content\":\"Hello\"}]},"
                 "\"analysis\":{\"successEvaluation\":\"false\"}}}", &err),
           BEHAVE_OK, "vapi inline parses");
    is_str(call.conversation_id, "vv", "variableValues used");
    is_int(call.nturns, 2, "system and tool messages skipped");
    ok(call.nturns == 2 && call.turns[0].speaker == 1
       && call.turns[1].speaker == 0
       && strcmp(call.turns[1].text, "Hello") == 0,
       "assistant is agent; content read when message absent");
    is_int(call.provider_verdict, BEHAVE_VERDICT_FAILURE,
           "successEvaluation \"false\"");
    is_int(call.event_ts_ms, 1767225645000LL, "seconds become ms");
    behave_call_free(&call);

    is_int(parse(&call, VP,
                 "{\"message\":{\"type\":\"end-of-call-report\","
                 "\"call\":{\"id\":\"v2\",\"metadata\":"
                 "{\"behave_conversation_id\":\"md\"},\"assistantOverrides\":"
                 "{\"variableValues\":{\"behave_conversation_id\":\"vv\"}}},"
                 "\"analysis\":{\"successEvaluation\":\"\"}}}", &err),
           BEHAVE_OK, "vapi metadata parses");
    is_str(call.conversation_id, "md", "call.metadata wins");
    is_int(call.provider_verdict, BEHAVE_VERDICT_UNKNOWN,
           "successEvaluation \"\" is unknown");
    behave_call_free(&call);

    is_int(parse(&call, VP, "{\"message\":{\"type\":\"status-update\"}}",
                 &err),
           BEHAVE_OK, "vapi status-update parses");
    is_int(call.kind, BEHAVE_EVENT_IGNORED, "status-update ignored");
    behave_call_free(&call);

    fails(VP, "{\"type\":\"end-of-call-report\"}", BEHAVE_ERR_MISSING_FIELD,
          "message", "vapi: no message");
    fails(VP, "{\"message\":\"x\"}", BEHAVE_ERR_INVALID_FIELD, "message",
          "vapi: message not an object");
    fails(VP, "{\"message\":{}}", BEHAVE_ERR_MISSING_FIELD, "message.type",
          "vapi: no type");
    fails(VP, "{\"message\":{\"type\":\"end-of-call-report\"}}",
          BEHAVE_ERR_MISSING_FIELD, "message.call", "vapi: no call");
    fails(VP, "{\"message\":{\"type\":\"end-of-call-report\",\"call\":{}}}",
          BEHAVE_ERR_MISSING_FIELD, "message.call.id", "vapi: no call id");
}


static void
test_standard(void)
{
    behave_call_t   call;
    behave_error_t  err;

    is_int(parse(&call, SW,
                 "{\"type\":\"call.transcript\",\"timestamp\":1767225645123,"
                 "\"data\":{\"call_id\":\"s1\",\"conversation_id\":\"ours\","
                 "\"transcript\":["
                 "{\"speaker\":\"customer\",\"text\":\"My card was charged "
                 "twice\"},"
                 "{\"speaker\":\"agent\",\"text\":\"Refunded.\"},"
                 "{\"role\":\"user\",\"message\":\"Thanks\"}],"
                 "\"verdict\":\"success\",\"summary\":\"refund\"}}", &err),
           BEHAVE_OK, "standard transcript parses");
    is_int(call.kind, BEHAVE_EVENT_TRANSCRIPT, "call.transcript");
    is_str(call.call_id, "s1", "standard call id");
    is_str(call.conversation_id, "ours", "standard conversation id");
    is_int(call.nturns, 3, "standard turns, role/message accepted");
    ok(call.nturns == 3 && call.turns[0].speaker == 0
       && call.turns[1].speaker == 1 && call.turns[2].speaker == 0,
       "standard speakers");
    is_int(call.provider_verdict, BEHAVE_VERDICT_SUCCESS, "standard verdict");
    is_str(call.summary, "refund", "standard summary");
    is_int(call.event_ts_ms, 1767225645123LL, "standard ms timestamp");
    behave_call_free(&call);

    is_int(parse(&call, SW, "{\"type\":\"call.audio\",\"data\":{}}", &err),
           BEHAVE_OK, "standard audio parses");
    is_int(call.kind, BEHAVE_EVENT_AUDIO_ONLY, "call.audio");
    behave_call_free(&call);

    is_int(parse(&call, SW, "{\"type\":\"call.failed\"}", &err),
           BEHAVE_OK, "standard failure parses");
    is_int(call.kind, BEHAVE_EVENT_FAILED_CALL, "call.failed");
    behave_call_free(&call);

    fails(SW, "{\"type\":\"call.transcript\",\"data\":{}}",
          BEHAVE_ERR_MISSING_FIELD, "data.call_id", "standard: no call_id");
}


static void
test_tree_and_limits(void)
{
    char            *big, *p;
    cJSON           *root;
    size_t           i;
    behave_call_t    call;
    behave_error_t   err;

    root = cJSON_Parse("{\"type\":\"call.transcript\",\"data\":"
                       "{\"call_id\":\"t1\",\"transcript\":"
                       "[{\"speaker\":\"agent\",\"text\":\"hi\"}]}}");
    is_int(behave_call_parse_json(&call, SW, root, &err), BEHAVE_OK,
           "borrowed tree parses");
    ok(call.root == NULL, "borrowed tree not owned");
    behave_call_free(&call);
    ok(cJSON_GetObjectItem(root, "data") != NULL, "tree alive after free");
    cJSON_Delete(root);

    big = malloc(64 + 40 * (BEHAVE_CALL_MAX_TURNS + 1));
    p = big + sprintf(big, "{\"type\":\"call.transcript\",\"data\":"
                           "{\"call_id\":\"t2\",\"transcript\":[");

    for (i = 0; i <= BEHAVE_CALL_MAX_TURNS; i++) {
        p += sprintf(p, "%s{\"speaker\":\"agent\",\"text\":\"t\"}",
                     i ? "," : "");
    }

    strcpy(p, "]}}");

    is_int(parse(&call, SW, big, &err), BEHAVE_ERR_TOO_LARGE,
           "more than BEHAVE_CALL_MAX_TURNS turns refused");
    ok(call.turns == NULL, "too many turns: nothing allocated");

    /* exactly the limit passes */
    p = strrchr(big, '{');
    strcpy(p - 1, "]}}");
    is_int(parse(&call, SW, big, &err), BEHAVE_OK, "the limit itself passes");
    is_int(call.nturns, BEHAVE_CALL_MAX_TURNS, "all turns kept");
    behave_call_free(&call);
    free(big);
}


static void
test_sha256(void)
{
    char  hex[BEHAVE_SHA256_HEX_SIZE];

    is_int(behave_sha256_hex("abc", 3, hex), 0, "sha256 abc");
    is_str(hex, "ba7816bf8f01cfea414140de5dae2223"
                "b00361a396177a9cb410ff61f20015ad",
           "sha256 abc digest");
    behave_sha256_hex("", 0, hex);
    is_str(hex, "e3b0c44298fc1c149afbf4c8996fb924"
                "27ae41e4649b934ca495991b7852b855",
           "sha256 empty digest");
}


int
main(void)
{
    test_samples();
    test_elevenlabs();
    test_retell();
    test_vapi();
    test_standard();
    test_tree_and_limits();
    test_sha256();

    is_str(behave_event_kind_name(BEHAVE_EVENT_TRANSCRIPT), "transcript",
           "kind name transcript");
    is_str(behave_event_kind_name(BEHAVE_EVENT_FAILED_CALL), "failed_call",
           "kind name failed_call");
    is_str(behave_verdict_name(BEHAVE_VERDICT_SUCCESS), "success",
           "verdict name success");

    return tap_done();
}
