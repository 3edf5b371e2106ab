/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The standard format (Standard Webhooks, shared/spec/voice-platforms.md):
 * {"type": "call.transcript" | "call.audio" | "call.failed", "data":
 * {...}}, signed with
 *
 *   webhook-id, webhook-timestamp (unix s), webhook-signature:
 *   v1,<base64> [v1,<base64> ...] over "<id>.<t>.<body>", 5 minutes
 *   either way
 *
 * The key is the base64 decoding of the secret after an optional
 * "whsec_" prefix.  Svix sends the same scheme under svix-* names
 * (webhook-* only on its white-label plan); the three names go together:
 * when any webhook-* header came, the webhook-* set is used, else the
 * svix-* set, never one header of each.  A signature list may carry
 * other versions (v1a...): they are skipped; a list without any v1 entry
 * is malformed.  The webhook-id is the idempotency key.
 */

#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>

#include "webhooks/behave_provider.h"
#include "base/behave_secretbox.h"          /* behave_base64_decode */


/* a decoded key longer than this is not a key we issued */
#define BEHAVE_STANDARD_KEY_MAX    128
#define BEHAVE_STANDARD_PREFIX     "whsec_"
#define BEHAVE_STANDARD_SECRET_MIN 16


static size_t behave_standard_headers(const void *opts, const char **names);
static behave_sig_err_e behave_standard_verify(const behave_sig_headers_t *h,
    const char *body, size_t len, const char *secret, size_t secret_len,
    unsigned flags, const void *opts, int64_t now_ms,
    behave_sig_info_t *info);
static behave_sig_err_e behave_standard_list(const behave_sig_str_t *hdr,
    behave_sig_pairs_t *out);
static behave_sig_err_e behave_standard_key(const char *secret,
    size_t secret_len, unsigned char *key, size_t *key_len);
static behave_err_e behave_standard_secret_check(const char *secret,
    size_t len, behave_error_t *err);


static const behave_call_typed_t  behave_standard_typed = {
    .types = { "call.transcript", "call.audio", "call.failed" },
    .call_id = "call_id",
    .call_id_name = "data.call_id",
    .role_key = { "speaker", "role" },
    .text_key = { "text", "message" },
    .verdict = { "verdict" },
    .summary = { "summary" },
    .time = "timestamp",
    .conv = { "conversation_id" },
};


const behave_provider_t  behave_provider_standard = {
    .name = "standard",
    .headers = behave_standard_headers,
    .verify = behave_standard_verify,
    .typed = &behave_standard_typed,
    .secret_check = behave_standard_secret_check,
};


static size_t
behave_standard_headers(const void *opts, const char **names)
{
    static const char  *const all[] = {
        "webhook-id", "webhook-timestamp", "webhook-signature",
        "svix-id", "svix-timestamp", "svix-signature"
    };

    memcpy(names, all, sizeof(all));

    return sizeof(all) / sizeof(all[0]);
}


/* webhook-id, webhook-timestamp, webhook-signature: v1,<b64> ... */
static behave_sig_err_e
behave_standard_verify(const behave_sig_headers_t *h, const char *body,
    size_t len, const char *secret, size_t secret_len, unsigned flags,
    const void *opts, int64_t now_ms, behave_sig_info_t *info)
{
    size_t              i, key_len;
    int64_t             t;
    behave_sig_err_e    rc;
    behave_sig_str_t    id, parts[5];
    behave_sig_pairs_t  sent;
    unsigned char       key[BEHAVE_STANDARD_KEY_MAX];
    behave_sig_str_t    hid, hts, hsig;

    /* one set of names or the other, never a mix (see above) */
    hid = behave_sig_header(h, "webhook-id");
    hts = behave_sig_header(h, "webhook-timestamp");
    hsig = behave_sig_header(h, "webhook-signature");

    if (hid.data == NULL && hts.data == NULL && hsig.data == NULL) {
        hid = behave_sig_header(h, "svix-id");
        hts = behave_sig_header(h, "svix-timestamp");
        hsig = behave_sig_header(h, "svix-signature");
    }

    if (hid.data == NULL || hts.data == NULL || hsig.data == NULL) {
        return BEHAVE_SIG_MISSING_HEADER;
    }

    id = behave_sig_trim(hid.data, hid.len);

    if (id.len == 0 || id.len > BEHAVE_SIG_WEBHOOK_ID_MAX) {
        return BEHAVE_SIG_MALFORMED_HEADER;
    }

    /* it becomes a dedup key and may be logged: printable ASCII only */
    for (i = 0; i < id.len; i++) {
        if (id.data[i] <= 0x20 || id.data[i] >= 0x7f) {
            return BEHAVE_SIG_MALFORMED_HEADER;
        }
    }

    sent.ts = behave_sig_trim(hts.data, hts.len);

    if (behave_sig_number(sent.ts, BEHAVE_SIG_SEC_DIGITS, &t) != 0) {
        return BEHAVE_SIG_MALFORMED_HEADER;
    }

    rc = behave_standard_list(&hsig, &sent);
    if (rc != BEHAVE_SIG_OK) {
        return rc;
    }

    rc = behave_standard_key(secret, secret_len, key, &key_len);
    if (rc != BEHAVE_SIG_OK) {
        return rc;
    }

    parts[0] = id;
    parts[1] = (behave_sig_str_t) { ".", 1 };
    parts[2] = sent.ts;
    parts[3] = (behave_sig_str_t) { ".", 1 };
    parts[4] = (behave_sig_str_t) { body, len };

    rc = behave_sig_check(key, key_len, parts, 5, &sent);

    OPENSSL_cleanse(key, sizeof(key));

    if (rc != BEHAVE_SIG_OK) {
        return rc;
    }

    info->signed_at_ms = t * 1000;
    info->idempotency_key = id.data;
    info->idempotency_key_len = id.len;

    return behave_sig_window(info->signed_at_ms, now_ms,
                             BEHAVE_SIG_STANDARD_TOLERANCE,
                             BEHAVE_SIG_STANDARD_TOLERANCE);
}


/* space-separated "<version>,<base64>"; only v1 entries are kept */
static behave_sig_err_e
behave_standard_list(const behave_sig_str_t *hdr, behave_sig_pairs_t *out)
{
    size_t       n;
    const char  *p, *end, *tok, *comma;

    out->nsigs = 0;
    p = hdr->data;
    end = p + hdr->len;

    while (p < end) {
        if (*p == ' ' || *p == '\t') {
            p++;
            continue;
        }

        tok = p;
        while (p < end && *p != ' ' && *p != '\t') {
            p++;
        }

        comma = memchr(tok, ',', (size_t) (p - tok));
        if (comma == NULL) {
            return BEHAVE_SIG_MALFORMED_HEADER;
        }

        if (comma - tok != 2 || memcmp(tok, "v1", 2) != 0) {
            continue;
        }

        if (out->nsigs == BEHAVE_SIG_MAX_SIGS
            || behave_base64_decode(comma + 1, (size_t) (p - comma - 1),
                                    out->sigs[out->nsigs], BEHAVE_SIG_MAC_LEN,
                                    &n, 0)
               != 0
            || n != BEHAVE_SIG_MAC_LEN)
        {
            return BEHAVE_SIG_MALFORMED_HEADER;
        }

        out->nsigs++;
    }

    return out->nsigs ? BEHAVE_SIG_OK : BEHAVE_SIG_MALFORMED_HEADER;
}


/* the standard key: base64 of the secret after an optional "whsec_" */
static behave_sig_err_e
behave_standard_key(const char *secret, size_t secret_len,
    unsigned char *key, size_t *key_len)
{
    size_t  plen;

    plen = sizeof(BEHAVE_STANDARD_PREFIX) - 1;

    if (secret_len > plen
        && memcmp(secret, BEHAVE_STANDARD_PREFIX, plen) == 0)
    {
        secret += plen;
        secret_len -= plen;
    }

    if (behave_base64_decode(secret, secret_len, key, BEHAVE_STANDARD_KEY_MAX,
                             key_len, 0)
        != 0
        || *key_len == 0)
    {
        OPENSSL_cleanse(key, BEHAVE_STANDARD_KEY_MAX);
        return BEHAVE_SIG_BAD_SECRET;
    }

    return BEHAVE_SIG_OK;
}


/* "whsec_" and the base64 of at least 16 bytes */
static behave_err_e
behave_standard_secret_check(const char *secret, size_t len,
    behave_error_t *err)
{
    int            bad;
    size_t         dlen;
    unsigned char  key[BEHAVE_SECRETBOX_PLAIN_MAX];

    if (len >= sizeof(BEHAVE_STANDARD_PREFIX) - 1
        && memcmp(secret, BEHAVE_STANDARD_PREFIX,
                  sizeof(BEHAVE_STANDARD_PREFIX) - 1) == 0)
    {
        secret += sizeof(BEHAVE_STANDARD_PREFIX) - 1;
        len -= sizeof(BEHAVE_STANDARD_PREFIX) - 1;
    }

    bad = behave_base64_decode(secret, len, key, sizeof(key), &dlen, 0) != 0
          || dlen < BEHAVE_STANDARD_SECRET_MIN;

    OPENSSL_cleanse(key, sizeof(key));

    if (bad) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                   "a standard secret must be \"whsec_\" and the base64 of "
                   "at least %d bytes", BEHAVE_STANDARD_SECRET_MIN);
    }

    return BEHAVE_OK;
}
