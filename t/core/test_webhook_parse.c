/*
 * Post-call payloads of the four providers into behave_call_t: the
 * samples of shared/data/voice when present, inline bodies always.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testdata.h"
#include "base/behave_hash.h"
#include "webhooks/behave_provider.h"
#include "webhooks/behave_webhook_parse.h"


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


/* parses a body that must parse, to an event of the kind want */
static void
kind(const behave_provider_t *p, const char *body, behave_event_kind_e want,
    const char *parses, const char *what)
{
    behave_call_t   call;
    behave_error_t  err;

    is_int(parse(&call, p, body, &err), BEHAVE_OK, "%s", parses);
    is_int(call.kind, want, "%s", what);
    behave_call_free(&call);
}


/*
 * The shared data's deliveries of every provider: what each parses to.
 * speakers: "c" customer, "a" agent ("?" either), turn by turn; a turn's
 * text and a summary's start are checked where given (a summary "" need
 * only be there); -1: not checked.  A failed call keeps its id for the
 * log; a delivery that is no call has none.
 */
static void
test_samples(void)
{
    char            *b, name[64];
    size_t           i, t, len;
    behave_call_t    call;
    behave_error_t   err;

    static const struct {
        const char        *file;
        const char        *provider;
        behave_event_kind_e  kind;
        const char        *type;
        const char        *call_id;
        const char        *speakers;
        int                turn;          /* whose text is checked */
        const char        *text;
        int                verdict;
        const char        *summary;
        long long          ts;
    } samples[] = {
        { "elevenlabs_post_call_transcription.min.json", "elevenlabs",
          BEHAVE_EVENT_TRANSCRIPT, "post_call_transcription",
          "conv_9001k1zph3fkeh5s8xg9z90swaqa", "aca",
          1, "I'd like to move my appointment to Friday.",
          BEHAVE_VERDICT_SUCCESS, "The caller asked", 1767225645000LL },
        { "elevenlabs_post_call_audio.min.json", "elevenlabs",
          BEHAVE_EVENT_AUDIO_ONLY, NULL,
          "conv_9001k1zph3fkeh5s8xg9z90swaqa", "", -1, NULL, -1, NULL, -1 },
        { "elevenlabs_call_initiation_failure_sip.min.json", "elevenlabs",
          BEHAVE_EVENT_FAILED_CALL, NULL,
          "conv_5501k1zph3fkeh5s8xg9z90swaqc", NULL, -1, NULL, -1, NULL,
          -1 },
        { "elevenlabs_call_initiation_failure_twilio.min.json", "elevenlabs",
          BEHAVE_EVENT_FAILED_CALL, NULL,
          "conv_6601k1zph3fkeh5s8xg9z90swaqd", NULL, -1, NULL, -1, NULL,
          -1 },
        { "retell_call_analyzed.min.json", "retell",
          BEHAVE_EVENT_TRANSCRIPT, "call_analyzed",
          "Jabr9TXYYJHfvl6Syypi88rdAHYHmcq6", "ac?",
          1, "Move my appointment to Friday.",
          BEHAVE_VERDICT_SUCCESS, "", 1714608491736LL },
        /* the system message is skipped; the bot is the agent */
        { "vapi_end_of_call_report.min.json", "vapi",
          BEHAVE_EVENT_TRANSCRIPT, "end-of-call-report",
          "c8a1d2e0-1b2c-4d5e-8f90-123456789abc", "aca",
          0, "Hi, how can I help?",
          BEHAVE_VERDICT_SUCCESS, "", 1767225645123LL },
        /* contact.created: no call in it */
        { "standardwebhooks_example.min.json", "standard",
          BEHAVE_EVENT_UNKNOWN, NULL, NULL, NULL, -1, NULL, -1, NULL, -1 },
    };

    for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        snprintf(name, sizeof(name), "%s", samples[i].file);
        *strchr(name, '.') = '\0';

        b = load(samples[i].file, &len);
        if (b == NULL) {
            skip("samples: shared data absent");
            continue;
        }

        is_int(behave_call_parse(&call,
                                 behave_provider_find(samples[i].provider,
                                             strlen(samples[i].provider)),
                                 b, len, &err),
               BEHAVE_OK, "%s parses", name);
        is_int(call.kind, samples[i].kind, "%s: its kind", name);

        if (samples[i].type != NULL) {
            is_str(call.event_type, samples[i].type, "%s: raw type", name);
        }

        is_str(call.call_id, samples[i].call_id, "%s: call id", name);

        if (samples[i].speakers != NULL) {
            is_int(call.nturns, strlen(samples[i].speakers), "%s: turns",
                   name);

            for (t = 0; t < call.nturns && samples[i].speakers[t]; t++) {
                if (samples[i].speakers[t] == '?') {
                    continue;
                }

                is_int(call.turns[t].speaker,
                       samples[i].speakers[t] == 'a', "%s: turn %zu's speaker",
                       name, t);
            }
        }

        if (samples[i].text != NULL) {
            t = (size_t) samples[i].turn;
            is_str(t < call.nturns ? call.turns[t].text : NULL,
                   samples[i].text, "%s: turn %zu's text", name, t);
            is_int(t < call.nturns ? call.turns[t].len : 0,
                   strlen(samples[i].text), "%s: its length", name);
        }

        if (samples[i].verdict >= 0) {
            is_int(call.provider_verdict, samples[i].verdict,
                   "%s: the provider's verdict", name);
        }

        if (samples[i].summary != NULL) {
            ok(call.summary != NULL
               && strncmp(call.summary, samples[i].summary,
                          strlen(samples[i].summary)) == 0,
               "%s: summary", name);
        }

        if (samples[i].ts >= 0) {
            is_int(call.event_ts_ms, samples[i].ts, "%s: time in ms", name);
        }

        /* no variable: the conversation is the call */
        if (samples[i].kind == BEHAVE_EVENT_TRANSCRIPT) {
            is_str(call.conversation_id, call.call_id,
                   "%s: conversation id is the call id", name);
            ok(!call.conversation_id_from_var
               && !call.conversation_var_invalid, "%s: no variable", name);

        } else if (samples[i].kind == BEHAVE_EVENT_AUDIO_ONLY) {
            ok(call.nturns == 0 && call.conversation_id == NULL,
               "%s: nothing else read", name);
        }

        behave_call_free(&call);
        free(b);
    }
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

    kind(RT, "{\"event\":\"call_ended\",\"call\":{\"call_id\":\"r3\","
         "\"call_analysis\":{\"call_successful\":true}}}",
         BEHAVE_EVENT_IGNORED, "retell call_ended with analysis parses",
         "call_ended with analysis is ignored");

    kind(RT, "{\"event\":\"call_started\",\"call\":{}}",
         BEHAVE_EVENT_IGNORED, "retell call_started parses",
         "call_started ignored");
    kind(RT, "{\"event\":\"transfer_bridged\"}", BEHAVE_EVENT_IGNORED,
         "retell transfer parses", "transfer_* ignored");
    kind(RT, "{\"event\":\"call_exploded\"}", BEHAVE_EVENT_UNKNOWN,
         "retell unknown event parses", "unknown event is unknown");

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

    kind(VP, "{\"message\":{\"type\":\"status-update\"}}",
         BEHAVE_EVENT_IGNORED, "vapi status-update parses",
         "status-update ignored");

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

    kind(SW, "{\"type\":\"call.audio\",\"data\":{}}", BEHAVE_EVENT_AUDIO_ONLY,
         "standard audio parses", "call.audio");
    kind(SW, "{\"type\":\"call.failed\"}", BEHAVE_EVENT_FAILED_CALL,
         "standard failure parses", "call.failed");

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
