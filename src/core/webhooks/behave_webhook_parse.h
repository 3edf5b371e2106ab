/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A verified post-call webhook body, read into one normalised call
 * (voice-platforms.md; service-interface.md 6).
 *
 * Where each field comes from:
 *
 *   field      elevenlabs             retell              vapi
 *   type       type                   event               message.type
 *   call id    data.conversation_id   call.call_id        message.call.id
 *   turns      data.transcript[]      call.transcript_    message.artifact
 *              {role, message}        object[]            .messages[]
 *                                     {role, content}     {role, message}
 *   verdict    data.analysis          call.call_analysis  message.analysis
 *              .call_successful       .call_successful    .successEvaluation
 *   summary    data.analysis          call.call_analysis  message.analysis
 *              .transcript_summary    .call_summary       .summary
 *   time       event_timestamp        call.end_timestamp  message.timestamp
 *
 * Event kinds:
 *   elevenlabs  post_call_transcription -> TRANSCRIPT, post_call_audio ->
 *               AUDIO_ONLY, call_initiation_failure -> FAILED_CALL, anything
 *               else (post_call_transcription_otel...) -> UNKNOWN.
 *   retell      call_analyzed -> TRANSCRIPT; call_ended -> TRANSCRIPT only
 *               when call.call_analysis is absent or null, else IGNORED (the
 *               call_analyzed that follows carries it); call_started,
 *               transcript_updated, transfer_* -> IGNORED; else UNKNOWN.
 *   vapi        end-of-call-report -> TRANSCRIPT, every other server
 *               message -> IGNORED.
 *   standard    our own generic shape, for any Standard Webhooks sender:
 *
 *       {"type": "call.transcript" | "call.audio" | "call.failed" | ...,
 *        "timestamp": <unix s or ms, optional>,
 *        "data": {"call_id": "...",              required
 *                 "conversation_id": "...",      optional, ours
 *                 "transcript": [{"speaker": "customer" | "agent",
 *                                 "text": "..."}],
 *                 "verdict": "success" | "failure" | "unknown",
 *                 "summary": "..."}}
 *
 *               call.transcript -> TRANSCRIPT, call.audio -> AUDIO_ONLY,
 *               call.failed -> FAILED_CALL, else UNKNOWN.  Turns also
 *               accept "role" for "speaker" and "message" for "text".
 *
 * Conversation id: a caller may tie calls to its own conversation by
 * setting a variable named behave_conversation_id when it starts the call:
 *   elevenlabs  data.conversation_initiation_client_data.dynamic_variables
 *   retell      call.metadata, then call.retell_llm_dynamic_variables
 *   vapi        message.call.metadata, then
 *               message.call.assistantOverrides.variableValues
 *   standard    data.conversation_id
 * It must be a string that behave_conversation_id_valid() accepts; when
 * absent or not valid, the conversation id is the platform call id (which
 * must then be valid itself).  A variable set but refused is flagged, so
 * the glue can log why the calls of that conversation were not joined.
 *
 * Turns: roles user / customer are the customer; agent / bot / assistant
 * are the agent; any other role (system, tool...) is skipped, and so is a
 * turn whose text is null or empty.  Order is kept.
 *
 * Verdict: true / "true" / "success" -> success, false / "false" /
 * "failure" -> failure (strings case-insensitive), anything else or
 * absent -> unknown.
 *
 * Event time: a number or a string of digits; 10^11 or more is taken as
 * milliseconds, less as seconds; normalised to unix ms, 0 when absent.
 *
 * Only a TRANSCRIPT event is read in full.  Other kinds fill type, kind
 * and, when present, the call id; nothing else is required of them.
 *
 * Lifetime: every string in a behave_call_t points into the cJSON tree;
 * turns is malloc()ed.  behave_call_free() frees turns, and the tree too
 * when behave_call_parse() built it.
 */

#ifndef BEHAVE_WEBHOOK_PARSE_H
#define BEHAVE_WEBHOOK_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "base/behave_error.h"
#include "webhooks/behave_signature.h"


#define BEHAVE_CONVERSATION_VAR    "behave_conversation_id"

/* a call with more turns is refused (413): an hour of talk is ~600 */
#define BEHAVE_CALL_MAX_TURNS      5000


typedef enum {
    BEHAVE_EVENT_TRANSCRIPT = 0,   /* a finished call to analyse */
    BEHAVE_EVENT_AUDIO_ONLY,       /* accepted and ignored */
    BEHAVE_EVENT_FAILED_CALL,      /* accepted and ignored */
    BEHAVE_EVENT_IGNORED,          /* a known type with nothing for us */
    BEHAVE_EVENT_UNKNOWN,          /* a type we do not know: acknowledged */
    BEHAVE_EVENT_LAST
} behave_event_kind_e;


typedef enum {
    BEHAVE_VERDICT_UNKNOWN = 0,
    BEHAVE_VERDICT_SUCCESS,
    BEHAVE_VERDICT_FAILURE,
    BEHAVE_VERDICT_LAST
} behave_verdict_e;


typedef struct {
    int                        speaker;   /* 0 customer, 1 agent: the
                                             values of BEHAVE_SPEAKER_* */
    const char                *text;      /* NUL-terminated, not empty */
    size_t                     len;
} behave_call_turn_t;


typedef struct {
    cJSON                     *root;      /* owned: set by behave_call_parse */

    const behave_provider_t   *provider;
    behave_event_kind_e        kind;
    const char                *event_type;          /* raw, never NULL */

    const char                *call_id;             /* NULL if absent */
    size_t                     call_id_len;

    /* set for TRANSCRIPT only: the variable, else the call id */
    const char                *conversation_id;
    size_t                     conversation_id_len;
    unsigned                   conversation_id_from_var:1;
    unsigned                   conversation_var_invalid:1; /* set, refused:
                                                              worth a log */

    behave_call_turn_t        *turns;
    size_t                     nturns;

    behave_verdict_e           provider_verdict;
    const char                *summary;             /* NULL if absent */
    int64_t                    event_ts_ms;         /* 0 if absent */
} behave_call_t;


/* where a provider keeps the parts of a call (its locate says) */
typedef struct {
    const cJSON               *container;       /* object holding the call */
    const char                *container_name;
    const cJSON               *call_id;
    const char                *call_id_name;
    const cJSON               *turns;
    const char                *turns_name;
    const char                *role_key[2];     /* tried in order */
    const char                *text_key[2];
    const cJSON               *verdict;
    const cJSON               *summary;
    const cJSON               *time;
    const cJSON               *conv[2];         /* conversation id
                                                   candidates */
} behave_call_src_t;


/*
 * A parse (behave_provider.h's behave_call_parse_json()): begin, the
 * provider's locate, then finish, which reads what locate found the one
 * common way.  finish frees what it made when it fails.
 */
behave_err_e behave_call_begin(behave_call_t *call,
    const behave_provider_t *provider, const cJSON *root,
    behave_call_src_t *src, behave_error_t *err);
behave_err_e behave_call_finish(behave_call_t *call,
    const behave_call_src_t *src, behave_error_t *err);

/*
 * The shape {"type": ..., "data": {..., "transcript": [...]}} that
 * ElevenLabs and the standard format share, as a provider describes it:
 * its event types, then where the parts are, each a path of names
 * (NULL-terminated) in "data", but time, a member of the root.
 */
typedef struct {
    const char                *types[3];        /* transcript, audio,
                                                   failed */
    const char                *call_id;
    const char                *call_id_name;    /* "data.<call_id>" */
    const char                *role_key[2];
    const char                *text_key[2];
    const char                *verdict[3];
    const char                *summary[3];
    const char                *time;
    const char                *conv[4];
} behave_call_typed_t;

/*
 * The kit of locate (behave_webhook_parse.c): the event type, the typed
 * shape above, a member at a path (NULL-terminated names).
 */
behave_err_e behave_call_type(behave_call_t *call, const cJSON *type,
    const char *name, behave_error_t *err);
behave_err_e behave_call_typed_data(behave_call_t *call, const cJSON *root,
    behave_call_src_t *src, const behave_call_typed_t *typed,
    behave_error_t *err);
const cJSON *behave_call_path(const cJSON *obj, ...);

/* frees what call owns; safe on a zeroed or already freed call */
void behave_call_free(behave_call_t *call);

/* "transcript", "audio_only", "failed_call", "ignored", "unknown" */
const char *behave_event_kind_name(behave_event_kind_e kind);

/* "success", "failure", "unknown" (spec 2.6 provider_verdict) */
const char *behave_verdict_name(behave_verdict_e verdict);


#endif /* BEHAVE_WEBHOOK_PARSE_H */
