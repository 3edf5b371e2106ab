/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A voice platform that posts call webhooks: everything that differs from
 * one platform to the next, in one file each (providers/
 * behave_provider_<name>.c), registered in one table (behave_providers.c)
 * that the management API, the receiver and the review filter read.
 *
 *   name         as registered and stored ("provider"), and in call ids
 *   headers      the request headers its signature uses, for the
 *                endpoint's options (the glue collects only those)
 *   verify       its signature scheme over the raw body
 *                (behave_sig_verify() calls it); or, for a scheme of one
 *                header of "k=v" pairs, only that scheme (headers and
 *                verify are then the table's)
 *   locate       where its body keeps the call (behave_call_parse() then
 *                reads it the one common way); or, for a body of the
 *                shape {"type", "data"}, only where in it (typed)
 *   registration which secrets and auth it takes, and its options: the
 *                "signature" member of a registration, stored as one line
 *                of text in the endpoint's record, loaded at each
 *                delivery, shown back to the owner
 *
 * A new platform: one file in providers/, one line in behave_providers.c,
 * its tests (docs/DESIGN.md, "How to add a provider").
 */

#ifndef BEHAVE_PROVIDER_H
#define BEHAVE_PROVIDER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/behave_error.h"
#include "webhooks/behave_signature.h"
#include "webhooks/behave_webhook_parse.h"


/* room for one provider's options once loaded (an aligned blob) */
#define BEHAVE_PROVIDER_OPTS_MAX   256

typedef struct {
    _Alignas(8) unsigned char  bytes[BEHAVE_PROVIDER_OPTS_MAX];
} behave_provider_opts_t;


struct behave_provider_s {
    const char                *name;

    /* one header of "k=v" pairs (ElevenLabs', Retell's): headers and
     * verify may then be NULL */
    const behave_sig_scheme_t *scheme;

    /* names[0..return) the lowercase headers to collect for opts */
    size_t                   (*headers)(const void *opts,
                                        const char **names);

    /* opts NULL: its defaults */
    behave_sig_err_e         (*verify)(const behave_sig_headers_t *h,
                                       const char *body, size_t len,
                                       const char *secret, size_t secret_len,
                                       unsigned flags, const void *opts,
                                       int64_t now_ms,
                                       behave_sig_info_t *info);

    /* sets call->event_type and kind, and where the call's parts are */
    behave_err_e             (*locate)(behave_call_t *call,
                                       const cJSON *root,
                                       behave_call_src_t *src,
                                       behave_error_t *err);

    /* locate NULL: a body of the shape {"type", "data"}, described */
    const behave_call_typed_t *typed;

    /* may be registered with "auth": "shared_secret" */
    unsigned                   shared_secret:1;

    /* NULL: any secret of the common length; else BEHAVE_OK or why not */
    behave_err_e             (*secret_check)(const char *secret, size_t len,
                                             behave_error_t *err);

    /*
     * NULL: takes no options ("signature" is refused).  Else the
     * registration's "signature" member (NULL: absent) in its stored
     * form, one line of printable ASCII ("" for none); BEHAVE_OK or why
     * not
     */
    behave_err_e             (*options_make)(const cJSON *o, char *out,
                                             size_t cap,
                                             behave_error_t *err);

    /* the stored form (NULL: none) into opts, its defaults if unreadable */
    void                     (*options_load)(const char *text, size_t len,
                                             behave_provider_opts_t *opts);

    /* the stored form as the endpoint record shows it, defaults filled */
    cJSON                   *(*options_json)(const char *text);
};


/* the table: NULL-terminated, the default provider first */
extern const behave_provider_t  *const behave_providers[];

/* by its exact lowercase name; NULL for none */
const behave_provider_t *behave_provider_find(const char *name, size_t len);

/* the default of a registration that names none */
const behave_provider_t *behave_provider_default(void);

/* "elevenlabs, retell, vapi, standard": for messages */
const char *behave_provider_list(void);

/* names[0..return) the headers to collect for provider and opts */
size_t behave_provider_headers(const behave_provider_t *provider,
    const void *opts, const char **names);


/*
 * What uses the table: verify a delivery's signature (its provider's
 * verify), parse its body (its provider's locate, then the one common
 * reading, behave_webhook_parse.c), the retry key of its call.
 */

/*
 * Checks that body[0..len) was signed with secret[0..secret_len) for
 * provider, at a time acceptable at now_ms: wall-clock unix time in
 * milliseconds (not a monotonic clock).  flags: BEHAVE_SIG_*.  opts: the
 * endpoint's options as the provider loaded them (options_load), NULL
 * for its defaults.  info may be NULL.  Returns BEHAVE_SIG_OK or the
 * reason for refusing.
 */
behave_sig_err_e behave_sig_verify(const behave_provider_t *provider,
    const behave_sig_headers_t *headers, const char *body, size_t len,
    const char *secret, size_t secret_len, unsigned flags, const void *opts,
    int64_t now_ms, behave_sig_info_t *info);

/*
 * Parses body[0..len) (UTF-8 JSON object, checked) as sent by provider;
 * call it only after behave_sig_verify() accepted the body.  err must not
 * be NULL.  On BEHAVE_OK call owns the tree; on failure err says why (a
 * 400-class error for the client, or BEHAVE_ERR_INTERNAL on allocation
 * failure so the platform retries) and call holds nothing to free.
 */
behave_err_e behave_call_parse(behave_call_t *call,
    const behave_provider_t *provider, const char *body, size_t len,
    behave_error_t *err);

/* the same from a tree the caller keeps alive and frees */
behave_err_e behave_call_parse_json(behave_call_t *call,
    const behave_provider_t *provider, const cJSON *root,
    behave_error_t *err);

/*
 * The retry key of a TRANSCRIPT call, "<provider>:<call id>": one call is
 * analysed once whatever event carried it (Retell sends call_ended and
 * call_analyzed for one call).  Returns 0, or -1 (no call id, cap short).
 */
int behave_call_dedup_key(const behave_call_t *call, char *out, size_t cap);


#endif /* BEHAVE_PROVIDER_H */
