/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The order of checks is the same for every provider: headers present,
 * headers well formed, MAC, then time.  Header text is only parsed, never
 * copied or logged; a decoded standard key is wiped before returning.
 */

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "behave_signature.h"
#include "behave_secretbox.h"
#include "behave_utf8.h"


#define BEHAVE_SIG_MAC_LEN       32

/* signatures one header may list (secret rotation sends two) */
#define BEHAVE_SIG_MAX_SIGS      8

/* digits of a timestamp: 12 for seconds, 15 for milliseconds, no overflow */
#define BEHAVE_SIG_SEC_DIGITS    12
#define BEHAVE_SIG_MS_DIGITS     15

/* Vapi stamps at or above this are milliseconds (see the header) */
#define BEHAVE_SIG_VAPI_MS_FROM  100000000000LL

/* a decoded standard key longer than this is not a key we issued */
#define BEHAVE_SIG_KEY_MAX       128

#define BEHAVE_SIG_STANDARD_PREFIX  "whsec_"


/* a header of "k=v,k=v" pairs, once parsed */
typedef struct {
    behave_sig_str_t  ts;
    unsigned char     sigs[BEHAVE_SIG_MAX_SIGS][BEHAVE_SIG_MAC_LEN];
    size_t            nsigs;
} behave_sig_pairs_t;


/*
 * ElevenLabs and Retell sign alike, in one header of "k=v" pairs: they
 * differ in the keys, the timestamp's unit and place in the signed bytes
 * ("<t><sep><body>", or "<body><t>" when sep is NULL) and the window.
 */
typedef struct {
    size_t       header;        /* offsetof() in behave_sig_headers_t */
    const char  *ts_key;
    const char  *sig_key;
    size_t       ts_digits;
    int64_t      ts_unit_ms;
    const char  *sep;
    int64_t      max_age;
    int64_t      max_ahead;
} behave_sig_scheme_t;


static behave_sig_err_e behave_sig_pairs_verify(const behave_sig_scheme_t *sc,
    const behave_sig_headers_t *h, const char *body, size_t len,
    const char *secret, size_t secret_len, int64_t now_ms,
    behave_sig_info_t *info);
static behave_sig_err_e behave_sig_vapi(const behave_sig_headers_t *h,
    const char *body, size_t len, const char *secret, size_t secret_len,
    unsigned flags, const behave_sig_vapi_t *vapi, int64_t now_ms,
    behave_sig_info_t *info);
static behave_sig_err_e behave_sig_vapi_decode(behave_sig_str_t sig,
    const behave_sig_vapi_t *vapi, behave_sig_pairs_t *sent);
static behave_sig_err_e behave_sig_vapi_secret(const behave_sig_str_t *sent,
    const char *secret, size_t secret_len, behave_sig_info_t *info);
static behave_sig_err_e behave_sig_standard(const behave_sig_headers_t *h,
    const char *body, size_t len, const char *secret, size_t secret_len,
    int64_t now_ms, behave_sig_info_t *info);
static behave_sig_err_e behave_sig_standard_list(const behave_sig_str_t *hdr,
    behave_sig_pairs_t *out);
static behave_sig_err_e behave_sig_standard_key(const char *secret,
    size_t secret_len, unsigned char *key, size_t *key_len);
static behave_sig_err_e behave_sig_parse_pairs(const behave_sig_str_t *hdr,
    const char *ts_key, const char *sig_key, size_t ts_digits,
    behave_sig_pairs_t *out, int64_t *ts);
static behave_sig_err_e behave_sig_check(const unsigned char *key,
    size_t key_len, const behave_sig_str_t *parts, size_t nparts,
    const behave_sig_pairs_t *sent);
static int behave_sig_hmac(const unsigned char *key, size_t key_len,
    const behave_sig_str_t *parts, size_t nparts, unsigned char *mac);
static behave_sig_err_e behave_sig_window(int64_t signed_ms, int64_t now_ms,
    int64_t max_age, int64_t max_ahead);
static int behave_sig_number(behave_sig_str_t s, size_t max_digits,
    int64_t *value);
static int behave_sig_unhex(const char *p, size_t len, unsigned char *out);
static behave_sig_str_t behave_sig_trim(const char *p, size_t len);
static int behave_sig_is(behave_sig_str_t s, const char *lit);


static const char  *behave_sig_err_names[BEHAVE_SIG_LAST] = {
    [BEHAVE_SIG_OK]               = "ok",
    [BEHAVE_SIG_MISSING_HEADER]   = "missing_header",
    [BEHAVE_SIG_MALFORMED_HEADER] = "malformed_header",
    [BEHAVE_SIG_BAD_SIGNATURE]    = "bad_signature",
    [BEHAVE_SIG_TOO_OLD]          = "too_old",
    [BEHAVE_SIG_TOO_NEW]          = "too_new",
    [BEHAVE_SIG_BAD_SECRET]       = "bad_secret",
    [BEHAVE_SIG_BAD_PROVIDER]     = "bad_provider",
    [BEHAVE_SIG_INTERNAL]         = "internal",
};

static const char  *behave_provider_names[BEHAVE_PROVIDER_LAST] = {
    [BEHAVE_PROVIDER_ELEVENLABS]  = "elevenlabs",
    [BEHAVE_PROVIDER_RETELL]      = "retell",
    [BEHAVE_PROVIDER_VAPI]        = "vapi",
    [BEHAVE_PROVIDER_STANDARD]    = "standard",
};


/* ElevenLabs-Signature: t=<unix s>,v0=<hex> over "<t>.<body>" */
static const behave_sig_scheme_t  behave_sig_elevenlabs = {
    offsetof(behave_sig_headers_t, elevenlabs_signature), "t", "v0",
    BEHAVE_SIG_SEC_DIGITS, 1000, ".",
    BEHAVE_SIG_ELEVENLABS_MAX_AGE, BEHAVE_SIG_ELEVENLABS_MAX_AHEAD
};

/* X-Retell-Signature: v=<unix ms>,d=<hex> over "<body><v>" */
static const behave_sig_scheme_t  behave_sig_retell = {
    offsetof(behave_sig_headers_t, retell_signature), "v", "d",
    BEHAVE_SIG_MS_DIGITS, 1, NULL,
    BEHAVE_SIG_RETELL_TOLERANCE, BEHAVE_SIG_RETELL_TOLERANCE
};


behave_sig_err_e
behave_sig_verify(behave_provider_e provider,
    const behave_sig_headers_t *headers, const char *body, size_t len,
    const char *secret, size_t secret_len, unsigned flags,
    const behave_sig_vapi_t *vapi, int64_t now_ms, behave_sig_info_t *info)
{
    behave_sig_err_e   rc;
    behave_sig_info_t  scratch;
    behave_sig_vapi_t  defaults;

    if (info == NULL) {
        info = &scratch;
    }

    memset(info, 0, sizeof(*info));

    if (secret == NULL || secret_len == 0) {
        return BEHAVE_SIG_BAD_SECRET;
    }

    if (headers == NULL) {
        return BEHAVE_SIG_MISSING_HEADER;
    }

    if (body == NULL) {
        body = "";
        len = 0;
    }

    switch (provider) {

    case BEHAVE_PROVIDER_ELEVENLABS:
        rc = behave_sig_pairs_verify(&behave_sig_elevenlabs, headers, body,
                                     len, secret, secret_len, now_ms, info);
        break;

    case BEHAVE_PROVIDER_RETELL:
        rc = behave_sig_pairs_verify(&behave_sig_retell, headers, body, len,
                                     secret, secret_len, now_ms, info);
        break;

    case BEHAVE_PROVIDER_VAPI:
        if (vapi == NULL) {
            behave_sig_vapi_default(&defaults);
            vapi = &defaults;
        }

        rc = behave_sig_vapi(headers, body, len, secret, secret_len, flags,
                             vapi, now_ms, info);
        break;

    case BEHAVE_PROVIDER_STANDARD:
        rc = behave_sig_standard(headers, body, len, secret, secret_len,
                                 now_ms, info);
        break;

    default:
        rc = BEHAVE_SIG_BAD_PROVIDER;
    }

    if (rc != BEHAVE_SIG_OK) {
        memset(info, 0, sizeof(*info));
    }

    return rc;
}


const char *
behave_sig_err_name(behave_sig_err_e err)
{
    if ((unsigned) err >= BEHAVE_SIG_LAST) {
        return "unknown";
    }

    return behave_sig_err_names[err];
}


const char *
behave_provider_name(behave_provider_e provider)
{
    if ((unsigned) provider >= BEHAVE_PROVIDER_LAST) {
        return "unknown";
    }

    return behave_provider_names[provider];
}


int
behave_provider_from_name(const char *name, size_t len,
    behave_provider_e *provider)
{
    unsigned  i;

    for (i = 0; i < BEHAVE_PROVIDER_LAST; i++) {
        if (strlen(behave_provider_names[i]) == len
            && memcmp(behave_provider_names[i], name, len) == 0)
        {
            *provider = (behave_provider_e) i;
            return 0;
        }
    }

    return -1;
}


static behave_sig_err_e
behave_sig_pairs_verify(const behave_sig_scheme_t *sc,
    const behave_sig_headers_t *h, const char *body, size_t len,
    const char *secret, size_t secret_len, int64_t now_ms,
    behave_sig_info_t *info)
{
    int64_t             t;
    size_t              n;
    behave_sig_err_e    rc;
    behave_sig_str_t    parts[3];
    behave_sig_pairs_t  sent;

    rc = behave_sig_parse_pairs(
             (const behave_sig_str_t *) ((const char *) h + sc->header),
             sc->ts_key, sc->sig_key, sc->ts_digits, &sent, &t);
    if (rc != BEHAVE_SIG_OK) {
        return rc;
    }

    n = 0;

    if (sc->sep != NULL) {
        parts[n++] = sent.ts;
        parts[n++] = (behave_sig_str_t) { sc->sep, strlen(sc->sep) };
        parts[n++] = (behave_sig_str_t) { body, len };

    } else {
        parts[n++] = (behave_sig_str_t) { body, len };
        parts[n++] = sent.ts;
    }

    rc = behave_sig_check((const unsigned char *) secret, secret_len, parts, n,
                          &sent);
    if (rc != BEHAVE_SIG_OK) {
        return rc;
    }

    info->signed_at_ms = t * sc->ts_unit_ms;

    return behave_sig_window(info->signed_at_ms, now_ms, sc->max_age,
                             sc->max_ahead);
}


/*
 * x-timestamp: <s or ms>, x-signature: <hex> over "<t>.<body>", or what
 * the endpoint chose: other names, a prefix, base64, the body alone.
 */
static behave_sig_err_e
behave_sig_vapi(const behave_sig_headers_t *h, const char *body, size_t len,
    const char *secret, size_t secret_len, unsigned flags,
    const behave_sig_vapi_t *vapi, int64_t now_ms, behave_sig_info_t *info)
{
    int64_t             t;
    behave_sig_err_e    rc;
    behave_sig_str_t    parts[3], ts;
    behave_sig_pairs_t  sent;

    if (h->vapi_signature.data == NULL) {
        if ((flags & BEHAVE_SIG_ALLOW_SHARED_SECRET)
            && h->vapi_secret.data != NULL)
        {
            return behave_sig_vapi_secret(&h->vapi_secret, secret,
                                          secret_len, info);
        }

        return BEHAVE_SIG_MISSING_HEADER;
    }

    if (!vapi->body_only && h->vapi_timestamp.data == NULL) {
        return BEHAVE_SIG_MISSING_HEADER;
    }

    rc = behave_sig_vapi_decode(behave_sig_trim(h->vapi_signature.data,
                                                h->vapi_signature.len),
                                vapi, &sent);
    if (rc != BEHAVE_SIG_OK) {
        return rc;
    }

    if (vapi->body_only) {
        parts[0] = (behave_sig_str_t) { body, len };

        /* no time signed: no window (the glue deduplicates by call) */
        return behave_sig_check((const unsigned char *) secret, secret_len,
                                parts, 1, &sent);
    }

    ts = behave_sig_trim(h->vapi_timestamp.data, h->vapi_timestamp.len);

    if (behave_sig_number(ts, BEHAVE_SIG_MS_DIGITS, &t) != 0) {
        return BEHAVE_SIG_MALFORMED_HEADER;
    }

    parts[0] = ts;
    parts[1] = (behave_sig_str_t) { ".", 1 };
    parts[2] = (behave_sig_str_t) { body, len };

    rc = behave_sig_check((const unsigned char *) secret, secret_len, parts, 3,
                          &sent);
    if (rc != BEHAVE_SIG_OK) {
        return rc;
    }

    info->signed_at_ms = t >= BEHAVE_SIG_VAPI_MS_FROM ? t : t * 1000;

    return behave_sig_window(info->signed_at_ms, now_ms,
                             BEHAVE_SIG_VAPI_MAX_AGE,
                             BEHAVE_SIG_VAPI_MAX_AHEAD);
}


/* the endpoint's prefix, then 64 hex digits or the base64 of 32 bytes */
static behave_sig_err_e
behave_sig_vapi_decode(behave_sig_str_t sig, const behave_sig_vapi_t *vapi,
    behave_sig_pairs_t *sent)
{
    size_t  plen, n;

    plen = strlen(vapi->prefix);

    if (sig.len < plen || memcmp(sig.data, vapi->prefix, plen) != 0) {
        return BEHAVE_SIG_MALFORMED_HEADER;
    }

    sig.data += plen;
    sig.len -= plen;

    if (vapi->base64) {
        if (behave_base64_decode(sig.data, sig.len, sent->sigs[0],
                                 BEHAVE_SIG_MAC_LEN, &n, 0)
            != 0
            || n != BEHAVE_SIG_MAC_LEN)
        {
            return BEHAVE_SIG_MALFORMED_HEADER;
        }

    } else if (sig.len != 2 * BEHAVE_SIG_MAC_LEN
               || behave_sig_unhex(sig.data, sig.len, sent->sigs[0]) != 0)
    {
        return BEHAVE_SIG_MALFORMED_HEADER;
    }

    sent->nsigs = 1;

    return BEHAVE_SIG_OK;
}


void
behave_sig_vapi_default(behave_sig_vapi_t *vapi)
{
    memset(vapi, 0, sizeof(*vapi));
    memcpy(vapi->header, "x-signature", sizeof("x-signature"));
    memcpy(vapi->timestamp_header, "x-timestamp", sizeof("x-timestamp"));
}


int
behave_sig_vapi_format(const behave_sig_vapi_t *vapi, char *out, size_t cap)
{
    int  n;

    n = snprintf(out, cap, "v1 %s %s %s %s p:%s", vapi->header,
                 vapi->timestamp_header, vapi->base64 ? "base64" : "hex",
                 vapi->body_only ? "body" : "timestamp.body", vapi->prefix);

    return (n < 0 || (size_t) n >= cap) ? -1 : 0;
}


int
behave_sig_vapi_parse(const char *text, size_t len, behave_sig_vapi_t *vapi)
{
    size_t             i, n;
    const char        *p, *end, *sp;
    behave_sig_str_t   f[6];
    behave_sig_vapi_t  v;

    behave_sig_vapi_default(vapi);
    memset(&v, 0, sizeof(v));

    p = text;
    end = text + len;

    for (i = 0; i < 6; i++) {
        sp = (i < 5) ? memchr(p, ' ', (size_t) (end - p)) : NULL;
        n = (sp != NULL) ? (size_t) (sp - p) : (size_t) (end - p);
        f[i] = (behave_sig_str_t) { p, n };

        if (sp == NULL && i < 5) {
            return -1;
        }

        p = (sp != NULL) ? sp + 1 : end;
    }

    if (!behave_sig_is(f[0], "v1")
        || !behave_sig_header_name_valid(f[1].data, f[1].len)
        || !behave_sig_header_name_valid(f[2].data, f[2].len)
        || f[5].len < 2 || memcmp(f[5].data, "p:", 2) != 0
        || f[5].len - 2 > BEHAVE_SIG_PREFIX_MAX)
    {
        return -1;
    }

    if (behave_sig_is(f[3], "base64")) {
        v.base64 = 1;

    } else if (!behave_sig_is(f[3], "hex")) {
        return -1;
    }

    if (behave_sig_is(f[4], "body")) {
        v.body_only = 1;

    } else if (!behave_sig_is(f[4], "timestamp.body")) {
        return -1;
    }

    memcpy(v.header, f[1].data, f[1].len);
    memcpy(v.timestamp_header, f[2].data, f[2].len);
    memcpy(v.prefix, f[5].data + 2, f[5].len - 2);

    *vapi = v;

    return 0;
}


int
behave_sig_header_name_valid(const char *name, size_t len)
{
    return behave_ascii_name_valid(name, len, BEHAVE_SIG_NAME_MAX, "-");
}


/*
 * The legacy plain secret.  Comparing SHA-256 digests keeps the compare
 * constant-time even when the lengths differ, and hides the length.
 */
static behave_sig_err_e
behave_sig_vapi_secret(const behave_sig_str_t *sent, const char *secret,
    size_t secret_len, behave_sig_info_t *info)
{
    unsigned char  a[EVP_MAX_MD_SIZE], b[EVP_MAX_MD_SIZE];

    if (sent->len == 0) {
        return BEHAVE_SIG_MALFORMED_HEADER;
    }

    if (EVP_Digest(sent->data, sent->len, a, NULL, EVP_sha256(), NULL) != 1
        || EVP_Digest(secret, secret_len, b, NULL, EVP_sha256(), NULL) != 1)
    {
        return BEHAVE_SIG_INTERNAL;
    }

    if (CRYPTO_memcmp(a, b, BEHAVE_SIG_MAC_LEN) != 0) {
        return BEHAVE_SIG_BAD_SIGNATURE;
    }

    info->shared_secret = 1;

    return BEHAVE_SIG_OK;
}


/* webhook-id, webhook-timestamp, webhook-signature: v1,<b64> ... */
static behave_sig_err_e
behave_sig_standard(const behave_sig_headers_t *h, const char *body,
    size_t len, const char *secret, size_t secret_len, int64_t now_ms,
    behave_sig_info_t *info)
{
    size_t              i, key_len;
    int64_t             t;
    behave_sig_err_e    rc;
    behave_sig_str_t    id, parts[5];
    behave_sig_pairs_t  sent;
    unsigned char       key[BEHAVE_SIG_KEY_MAX];
    const behave_sig_str_t  *hid, *hts, *hsig;

    /* one set of names or the other, never a mix (see the header) */
    if (h->webhook_id.data != NULL || h->webhook_timestamp.data != NULL
        || h->webhook_signature.data != NULL)
    {
        hid = &h->webhook_id;
        hts = &h->webhook_timestamp;
        hsig = &h->webhook_signature;

    } else {
        hid = &h->svix_id;
        hts = &h->svix_timestamp;
        hsig = &h->svix_signature;
    }

    if (hid->data == NULL || hts->data == NULL || hsig->data == NULL) {
        return BEHAVE_SIG_MISSING_HEADER;
    }

    id = behave_sig_trim(hid->data, hid->len);

    if (id.len == 0 || id.len > BEHAVE_SIG_WEBHOOK_ID_MAX) {
        return BEHAVE_SIG_MALFORMED_HEADER;
    }

    /* it becomes a dedup key and may be logged: printable ASCII only */
    for (i = 0; i < id.len; i++) {
        if (id.data[i] <= 0x20 || id.data[i] >= 0x7f) {
            return BEHAVE_SIG_MALFORMED_HEADER;
        }
    }

    sent.ts = behave_sig_trim(hts->data, hts->len);

    if (behave_sig_number(sent.ts, BEHAVE_SIG_SEC_DIGITS, &t) != 0) {
        return BEHAVE_SIG_MALFORMED_HEADER;
    }

    rc = behave_sig_standard_list(hsig, &sent);
    if (rc != BEHAVE_SIG_OK) {
        return rc;
    }

    rc = behave_sig_standard_key(secret, secret_len, key, &key_len);
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
behave_sig_standard_list(const behave_sig_str_t *hdr, behave_sig_pairs_t *out)
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
behave_sig_standard_key(const char *secret, size_t secret_len,
    unsigned char *key, size_t *key_len)
{
    size_t  plen;

    plen = sizeof(BEHAVE_SIG_STANDARD_PREFIX) - 1;

    if (secret_len > plen
        && memcmp(secret, BEHAVE_SIG_STANDARD_PREFIX, plen) == 0)
    {
        secret += plen;
        secret_len -= plen;
    }

    if (behave_base64_decode(secret, secret_len, key, BEHAVE_SIG_KEY_MAX,
                             key_len, 0)
        != 0
        || *key_len == 0)
    {
        OPENSSL_cleanse(key, BEHAVE_SIG_KEY_MAX);
        return BEHAVE_SIG_BAD_SECRET;
    }

    return BEHAVE_SIG_OK;
}


/*
 * "k=v,k=v": exactly one ts_key, a number of at most ts_digits digits
 * (into *ts), one or more sig_key of 64 hex digits; other keys are
 * skipped so a platform may add some.  An absent header is missing.
 */
static behave_sig_err_e
behave_sig_parse_pairs(const behave_sig_str_t *hdr, const char *ts_key,
    const char *sig_key, size_t ts_digits, behave_sig_pairs_t *out,
    int64_t *ts)
{
    const char        *p, *end, *comma, *eq;
    behave_sig_str_t   part, key, val;

    if (hdr->data == NULL) {
        return BEHAVE_SIG_MISSING_HEADER;
    }

    out->ts.data = NULL;
    out->ts.len = 0;
    out->nsigs = 0;

    p = hdr->data;
    end = p + hdr->len;

    while (p < end) {
        comma = memchr(p, ',', (size_t) (end - p));
        if (comma == NULL) {
            comma = end;
        }

        part = behave_sig_trim(p, (size_t) (comma - p));
        p = comma + 1;

        eq = memchr(part.data, '=', part.len);
        if (eq == NULL) {
            return BEHAVE_SIG_MALFORMED_HEADER;
        }

        key = (behave_sig_str_t) { part.data, (size_t) (eq - part.data) };
        val = (behave_sig_str_t) { eq + 1, part.len - key.len - 1 };

        if (behave_sig_is(key, ts_key)) {
            if (out->ts.data != NULL) {
                return BEHAVE_SIG_MALFORMED_HEADER;
            }

            out->ts = val;

        } else if (behave_sig_is(key, sig_key)) {
            if (out->nsigs == BEHAVE_SIG_MAX_SIGS
                || val.len != 2 * BEHAVE_SIG_MAC_LEN
                || behave_sig_unhex(val.data, val.len, out->sigs[out->nsigs])
                   != 0)
            {
                return BEHAVE_SIG_MALFORMED_HEADER;
            }

            out->nsigs++;
        }
    }

    if (out->ts.data == NULL || out->nsigs == 0
        || behave_sig_number(out->ts, ts_digits, ts) != 0)
    {
        return BEHAVE_SIG_MALFORMED_HEADER;
    }

    return BEHAVE_SIG_OK;
}


/* computes the MAC of parts and matches it against every sent one */
static behave_sig_err_e
behave_sig_check(const unsigned char *key, size_t key_len,
    const behave_sig_str_t *parts, size_t nparts,
    const behave_sig_pairs_t *sent)
{
    int            match;
    size_t         i;
    unsigned char  mac[BEHAVE_SIG_MAC_LEN];

    if (behave_sig_hmac(key, key_len, parts, nparts, mac) != 0) {
        return BEHAVE_SIG_INTERNAL;
    }

    /* no early exit: every candidate costs the same */
    match = 0;

    for (i = 0; i < sent->nsigs; i++) {
        match |= CRYPTO_memcmp(mac, sent->sigs[i], BEHAVE_SIG_MAC_LEN) == 0;
    }

    return match ? BEHAVE_SIG_OK : BEHAVE_SIG_BAD_SIGNATURE;
}


static int
behave_sig_hmac(const unsigned char *key, size_t key_len,
    const behave_sig_str_t *parts, size_t nparts, unsigned char *mac)
{
    int           rc;
    size_t        i, mac_len;
    EVP_MAC      *hmac;
    OSSL_PARAM    params[2];
    EVP_MAC_CTX  *ctx;

    hmac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (hmac == NULL) {
        return -1;
    }

    rc = -1;

    ctx = EVP_MAC_CTX_new(hmac);
    if (ctx == NULL) {
        goto done;
    }

    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
                                                 (char *) "SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();

    if (EVP_MAC_init(ctx, key, key_len, params) != 1) {
        goto done;
    }

    for (i = 0; i < nparts; i++) {
        if (parts[i].len > 0
            && EVP_MAC_update(ctx, (const unsigned char *) parts[i].data,
                              parts[i].len) != 1)
        {
            goto done;
        }
    }

    if (EVP_MAC_final(ctx, mac, &mac_len, BEHAVE_SIG_MAC_LEN) != 1
        || mac_len != BEHAVE_SIG_MAC_LEN)
    {
        goto done;
    }

    rc = 0;

done:

    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(hmac);
    return rc;
}


static behave_sig_err_e
behave_sig_window(int64_t signed_ms, int64_t now_ms, int64_t max_age,
    int64_t max_ahead)
{
    if (now_ms - signed_ms > max_age) {
        return BEHAVE_SIG_TOO_OLD;
    }

    if (signed_ms - now_ms > max_ahead) {
        return BEHAVE_SIG_TOO_NEW;
    }

    return BEHAVE_SIG_OK;
}


/* 1..max_digits ASCII digits and nothing else */
static int
behave_sig_number(behave_sig_str_t s, size_t max_digits, int64_t *value)
{
    size_t   i;
    int64_t  v;

    if (s.len == 0 || s.len > max_digits) {
        return -1;
    }

    v = 0;

    for (i = 0; i < s.len; i++) {
        if (s.data[i] < '0' || s.data[i] > '9') {
            return -1;
        }

        v = v * 10 + (s.data[i] - '0');
    }

    *value = v;

    return 0;
}


/* len hex digits (either case) into len / 2 bytes */
static int
behave_sig_unhex(const char *p, size_t len, unsigned char *out)
{
    int     d[2];
    char    c;
    size_t  i, k;

    if (len % 2) {
        return -1;
    }

    for (i = 0; i < len; i += 2) {
        for (k = 0; k < 2; k++) {
            c = p[i + k];

            if (c >= '0' && c <= '9') {
                d[k] = c - '0';
            } else if (c >= 'a' && c <= 'f') {
                d[k] = c - 'a' + 10;
            } else if (c >= 'A' && c <= 'F') {
                d[k] = c - 'A' + 10;
            } else {
                return -1;
            }
        }

        out[i / 2] = (unsigned char) (d[0] << 4 | d[1]);
    }

    return 0;
}


static behave_sig_str_t
behave_sig_trim(const char *p, size_t len)
{
    while (len > 0 && (p[0] == ' ' || p[0] == '\t')) {
        p++;
        len--;
    }

    while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t')) {
        len--;
    }

    return (behave_sig_str_t) { p, len };
}


static int
behave_sig_is(behave_sig_str_t s, const char *lit)
{
    return strlen(lit) == s.len && memcmp(s.data, lit, s.len) == 0;
}
