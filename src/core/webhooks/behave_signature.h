/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Verification of the signed post-call webhooks of the voice platforms
 * (shared/spec/voice-platforms.md, service-interface.md 5.4): what the
 * schemes share.  Each platform's own scheme is in its file
 * (providers/behave_provider_<name>.c, behave_provider.h); the table
 * below sums them up.
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


/* a voice platform: behave_provider.h, one file each in providers/ */
typedef struct behave_provider_s  behave_provider_t;


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

/* a header name as endpoint options take it: 1..64 of [A-Za-z0-9-] */
#define BEHAVE_SIG_NAME_MAX              64


/* one header value as the glue found it; data NULL: header absent */
typedef struct {
    const char                *data;
    size_t                     len;
} behave_sig_str_t;


/*
 * The headers a delivery came with that its provider reads (the glue
 * asks the provider which: behave_provider_t.headers), by lowercase
 * name; a header not set is absent
 */
#define BEHAVE_SIG_HEADERS_MAX           8

typedef struct {
    size_t                     n;
    const char                *name[BEHAVE_SIG_HEADERS_MAX];
    behave_sig_str_t           value[BEHAVE_SIG_HEADERS_MAX];
} behave_sig_headers_t;

/* sets name (lowercase) to v, replacing an earlier value; -1 when full */
int behave_sig_header_set(behave_sig_headers_t *h, const char *name,
    behave_sig_str_t v);
/* the value of name (lowercase), data NULL when absent */
behave_sig_str_t behave_sig_header(const behave_sig_headers_t *h,
    const char *name);


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


/* a header name as options take it: 1..64 of [A-Za-z0-9-] */
int behave_sig_header_name_valid(const char *name, size_t len);

/* "ok", "missing_header", "malformed_header", "bad_signature", ... */
const char *behave_sig_err_name(behave_sig_err_e err);


/*
 * The kit the provider files share (behave_signature.c; the check
 * itself, behave_sig_verify(), is behave_provider.h's): one header of
 * "k=v" pairs, signatures in hex, HMAC-SHA256 over parts, the window.
 */
#define BEHAVE_SIG_MAC_LEN         32
#define BEHAVE_SIG_MAX_SIGS        8        /* one header may list */
#define BEHAVE_SIG_SEC_DIGITS      12       /* a timestamp in seconds */
#define BEHAVE_SIG_MS_DIGITS       15       /* in milliseconds */

typedef struct {
    behave_sig_str_t           ts;
    unsigned char              sigs[BEHAVE_SIG_MAX_SIGS][BEHAVE_SIG_MAC_LEN];
    size_t                     nsigs;
} behave_sig_pairs_t;

/*
 * ElevenLabs and Retell sign alike, in one header of "k=v" pairs: they
 * differ in the keys, the timestamp's unit and place in the signed bytes
 * ("<t><sep><body>", or "<body><t>" when sep is NULL) and the window.
 */
typedef struct {
    const char                *header;
    const char                *ts_key;
    const char                *sig_key;
    size_t                     ts_digits;
    int64_t                    ts_unit_ms;
    const char                *sep;
    int64_t                    max_age;
    int64_t                    max_ahead;
} behave_sig_scheme_t;

behave_sig_err_e behave_sig_pairs_verify(const behave_sig_scheme_t *sc,
    const behave_sig_headers_t *h, const char *body, size_t len,
    const char *secret, size_t secret_len, int64_t now_ms,
    behave_sig_info_t *info);
behave_sig_err_e behave_sig_check(const unsigned char *key, size_t key_len,
    const behave_sig_str_t *parts, size_t nparts,
    const behave_sig_pairs_t *sent);
behave_sig_err_e behave_sig_window(int64_t signed_ms, int64_t now_ms,
    int64_t max_age, int64_t max_ahead);
int behave_sig_number(behave_sig_str_t s, size_t max_digits,
    int64_t *value);
behave_sig_str_t behave_sig_trim(const char *p, size_t len);
int behave_sig_is(behave_sig_str_t s, const char *lit);


#endif /* BEHAVE_SIGNATURE_H */
