/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Verification of the signed post-call webhooks of the voice platforms
 * (shared/spec/voice-platforms.md, service-interface.md 5.4).
 *
 *   provider    header(s)                       signed bytes        window
 *   elevenlabs  ElevenLabs-Signature:           "<t>.<body>"        30 min
 *               t=<unix s>,v0=<hex>[,v0=...]                        old, 5 min
 *                                                                   ahead
 *   retell      X-Retell-Signature:             "<body><v>"         5 min
 *               v=<unix ms>,d=<hex>                                 either way
 *   vapi        x-timestamp: <s or ms>          "<t>.<body>"        30 min
 *               x-signature: <hex>                                  old, 5 min
 *               (or X-Vapi-Secret, see below)                       ahead
 *               per endpoint (behave_sig_vapi_t): the header names,
 *               a prefix ("sha256="), base64, or the body alone     none
 *   standard    webhook-id, webhook-timestamp   "<id>.<t>.<body>"   5 min
 *               (unix s), webhook-signature:                        either way
 *               v1,<base64> [v1,<base64> ...]
 *               (or svix-id, svix-timestamp, svix-signature: Svix's
 *               own names for the same scheme)
 *
 * Every MAC is HMAC-SHA256 compared in constant time.  The key is the
 * secret's bytes as stored, except for standard where it is the base64
 * decoding of the secret after an optional "whsec_" prefix.  The times in
 * the signed bytes are the header's own text, not a reformatted number.
 *
 * Decisions (ours, not the platforms'):
 * - 30 minutes old is the service's promise (service-interface 5.4);
 *   ElevenLabs re-signs each retry with the attempt time (inferred), so
 *   its retries over about 40 minutes still pass.  The 5 minutes ahead
 *   allow for clock skew and refuse far-future stamps that would outlive
 *   the replay window.
 * - Vapi does not document a window: it gets the ElevenLabs one, the
 *   service's default.  Its unit is unknown, so a stamp of 10^11 or more
 *   is read as milliseconds, a smaller one as seconds (10^11 s is the
 *   year 5138, 10^11 ms is 1973).
 * - Exactly at a limit is accepted: 30:00 old passes, 30:00.001 does not.
 * - The MAC is checked before the time, so a forged request reports
 *   bad_signature and only a genuine old request reports too_old.
 * - Vapi's legacy X-Vapi-Secret (a plain shared secret, no timestamp, so
 *   no replay window) is accepted only with BEHAVE_SIG_ALLOW_SHARED_SECRET,
 *   set by the glue for endpoints registered with "auth":"shared_secret",
 *   and only when no x-signature came: an HMAC present is always checked.
 * - A standard signature list may carry other versions (v1a...): they are
 *   skipped; a list without any v1 entry is malformed.
 * - Svix sends the standard scheme under svix-* names (webhook-* only on
 *   its white-label plan).  The three names go together: when any
 *   webhook-* header came, the webhook-* set is used, else the svix-*
 *   set; never one header of each.
 * - Vapi's HMAC options (its HMACAuthenticationPlan) are chosen per
 *   endpoint at registration.  With a prefix set, a signature without it
 *   is malformed.  Signing the body alone has no timestamp, so no replay
 *   window: a replayed delivery is recognised only by its call (the glue
 *   deduplicates on it); the timestamp header is then ignored.
 *
 * Every failure must get the same answer (401) from the glue: the error
 * names are for the log only.  Nothing here reads a clock or logs.
 */

#ifndef BEHAVE_SIGNATURE_H
#define BEHAVE_SIGNATURE_H

#include <stddef.h>
#include <stdint.h>


typedef enum {
    BEHAVE_PROVIDER_ELEVENLABS = 0,      /* the default */
    BEHAVE_PROVIDER_RETELL,
    BEHAVE_PROVIDER_VAPI,
    BEHAVE_PROVIDER_STANDARD,
    BEHAVE_PROVIDER_LAST
} behave_provider_e;


#define BEHAVE_SIG_MINUTE_MS             (60 * 1000LL)
#define BEHAVE_SIG_ELEVENLABS_MAX_AGE    (30 * BEHAVE_SIG_MINUTE_MS)
#define BEHAVE_SIG_ELEVENLABS_MAX_AHEAD  (5 * BEHAVE_SIG_MINUTE_MS)
#define BEHAVE_SIG_RETELL_TOLERANCE      (5 * BEHAVE_SIG_MINUTE_MS)
#define BEHAVE_SIG_VAPI_MAX_AGE          (30 * BEHAVE_SIG_MINUTE_MS)
#define BEHAVE_SIG_VAPI_MAX_AHEAD        (5 * BEHAVE_SIG_MINUTE_MS)
#define BEHAVE_SIG_STANDARD_TOLERANCE    (5 * BEHAVE_SIG_MINUTE_MS)

/* a webhook-id longer than this, or not printable ASCII, is malformed */
#define BEHAVE_SIG_WEBHOOK_ID_MAX        256

/* flags of behave_sig_verify() */
#define BEHAVE_SIG_ALLOW_SHARED_SECRET   0x01


/* Vapi's HMAC options of one endpoint; behave_sig_vapi_default() */
#define BEHAVE_SIG_NAME_MAX              64
#define BEHAVE_SIG_PREFIX_MAX            16

typedef struct {
    char                       header[BEHAVE_SIG_NAME_MAX + 1];
    char                       timestamp_header[BEHAVE_SIG_NAME_MAX + 1];
    char                       prefix[BEHAVE_SIG_PREFIX_MAX + 1];
    unsigned                   base64:1;         /* else hex */
    unsigned                   body_only:1;      /* else "<t>.<body>" */
} behave_sig_vapi_t;


/* one header value as the glue found it; data NULL: header absent */
typedef struct {
    const char                *data;
    size_t                     len;
} behave_sig_str_t;


/* the headers any provider may sign with; the glue fills what it finds */
typedef struct {
    behave_sig_str_t           elevenlabs_signature;  /* ElevenLabs-Signature */
    behave_sig_str_t           retell_signature;      /* X-Retell-Signature */
    behave_sig_str_t           vapi_timestamp;        /* x-timestamp, or the
                                                         endpoint's name */
    behave_sig_str_t           vapi_signature;        /* x-signature, idem */
    behave_sig_str_t           vapi_secret;           /* X-Vapi-Secret */
    behave_sig_str_t           webhook_id;            /* webhook-id */
    behave_sig_str_t           webhook_timestamp;     /* webhook-timestamp */
    behave_sig_str_t           webhook_signature;     /* webhook-signature */
    behave_sig_str_t           svix_id;               /* svix-id */
    behave_sig_str_t           svix_timestamp;        /* svix-timestamp */
    behave_sig_str_t           svix_signature;        /* svix-signature */
} behave_sig_headers_t;


typedef enum {
    BEHAVE_SIG_OK = 0,
    BEHAVE_SIG_MISSING_HEADER,     /* a header the provider needs is absent */
    BEHAVE_SIG_MALFORMED_HEADER,   /* present but not in the documented form */
    BEHAVE_SIG_BAD_SIGNATURE,      /* well formed, MAC does not match */
    BEHAVE_SIG_TOO_OLD,            /* genuine, but past the replay window */
    BEHAVE_SIG_TOO_NEW,            /* genuine, but too far in the future */
    BEHAVE_SIG_BAD_SECRET,         /* our stored secret is unusable: config */
    BEHAVE_SIG_BAD_PROVIDER,       /* provider value out of range */
    BEHAVE_SIG_INTERNAL,           /* OpenSSL failed */
    BEHAVE_SIG_LAST
} behave_sig_err_e;


/* what a verification learnt, valid when it returned BEHAVE_SIG_OK */
typedef struct {
    int64_t                    signed_at_ms;     /* 0 for a shared secret */

    /*
     * Idempotency hint: the standard webhook-id (stable across retries),
     * pointing into the headers; NULL for the other providers, whose
     * retries the glue recognises by the call itself.
     */
    const char                *idempotency_key;
    size_t                     idempotency_key_len;

    unsigned                   shared_secret:1;  /* via X-Vapi-Secret */
} behave_sig_info_t;


/*
 * Checks that body[0..len) was signed with secret[0..secret_len) for
 * provider, at a time acceptable at now_ms: wall-clock unix time in
 * milliseconds (not a monotonic clock).  flags: BEHAVE_SIG_* above.
 * vapi: the endpoint's Vapi options, NULL for the defaults (ignored for
 * other providers).  info may be NULL.  Returns BEHAVE_SIG_OK or the
 * reason for refusing.
 */
behave_sig_err_e behave_sig_verify(behave_provider_e provider,
    const behave_sig_headers_t *headers, const char *body, size_t len,
    const char *secret, size_t secret_len, unsigned flags,
    const behave_sig_vapi_t *vapi, int64_t now_ms, behave_sig_info_t *info);

/* x-signature, x-timestamp, no prefix, hex, "<t>.<body>" */
void behave_sig_vapi_default(behave_sig_vapi_t *vapi);

/*
 * The stored form of the options, one line of printable ASCII:
 * "v1 <header> <timestamp header> hex|base64 timestamp.body|body p:<prefix>".
 * format returns 0, or -1 when cap is too small; parse returns 0, or -1
 * for text not in that form (vapi then holds the defaults).
 */
int behave_sig_vapi_format(const behave_sig_vapi_t *vapi, char *out,
    size_t cap);
int behave_sig_vapi_parse(const char *text, size_t len,
    behave_sig_vapi_t *vapi);

/* a header name as the options take it: 1..64 of [A-Za-z0-9-] */
int behave_sig_header_name_valid(const char *name, size_t len);

/* "ok", "missing_header", "malformed_header", "bad_signature", ... */
const char *behave_sig_err_name(behave_sig_err_e err);

/* "elevenlabs", "retell", "vapi", "standard" */
const char *behave_provider_name(behave_provider_e provider);

/* the reverse, exact lowercase match; returns 0, or -1 for an unknown name */
int behave_provider_from_name(const char *name, size_t len,
    behave_provider_e *provider);


#endif /* BEHAVE_SIGNATURE_H */
