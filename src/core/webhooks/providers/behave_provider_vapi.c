/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Vapi (shared/spec/voice-platforms.md): end-of-call-report carries the
 * call.  Signed by default with
 *
 *   x-timestamp: <s or ms>, x-signature: <hex> over "<t>.<body>",
 *   30 minutes old, 5 minutes ahead at most
 *
 * or as the endpoint chose at registration (its HMAC plan: the options,
 * behave_provider_vapi.h): other header names, a prefix ("sha256="),
 * base64, the body alone (no time signed: no window; the glue
 * deduplicates by call).  Its legacy X-Vapi-Secret, a plain shared
 * secret, is accepted only from an endpoint registered with
 * "auth": "shared_secret", and only when no signature came.
 *
 * Its unit of time is not documented: a stamp of 10^11 or more is read
 * as milliseconds, a smaller one as seconds (10^11 s is the year 5138,
 * 10^11 ms is 1973).
 */

#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "base/behave_hex.h"
#include "webhooks/behave_provider.h"
#include "webhooks/providers/behave_provider_vapi.h"
#include "base/behave_secretbox.h"          /* behave_base64_decode */


/* Vapi stamps at or above this are milliseconds (see above) */
#define BEHAVE_VAPI_MS_FROM        100000000000LL

#define BEHAVE_VAPI_SECRET_HEADER  "x-vapi-secret"


static size_t behave_vapi_headers(const void *opts, const char **names);
static behave_sig_err_e behave_vapi_verify(const behave_sig_headers_t *h,
    const char *body, size_t len, const char *secret, size_t secret_len,
    unsigned flags, const void *opts, int64_t now_ms,
    behave_sig_info_t *info);
static behave_sig_err_e behave_vapi_decode(behave_sig_str_t sig,
    const behave_sig_vapi_t *vapi, behave_sig_pairs_t *sent);
static behave_sig_err_e behave_vapi_secret(const behave_sig_str_t *sent,
    const char *secret, size_t secret_len, behave_sig_info_t *info);
static behave_err_e behave_vapi_locate(behave_call_t *call,
    const cJSON *root, behave_call_src_t *src, behave_error_t *err);
static behave_err_e behave_vapi_options_make(const cJSON *o, char *out,
    size_t cap, behave_error_t *err);
static void behave_vapi_options_load(const char *text, size_t len,
    behave_provider_opts_t *opts);
static cJSON *behave_vapi_options_json(const char *stored);


const behave_provider_t  behave_provider_vapi = {
    .name = "vapi",
    .headers = behave_vapi_headers,
    .verify = behave_vapi_verify,
    .locate = behave_vapi_locate,
    .shared_secret = 1,
    .options_make = behave_vapi_options_make,
    .options_load = behave_vapi_options_load,
    .options_json = behave_vapi_options_json,
};


_Static_assert(sizeof(behave_sig_vapi_t) <= BEHAVE_PROVIDER_OPTS_MAX,
               "Vapi's options fit in behave_provider_opts_t");


/* the endpoint's names, and the legacy shared secret */
static size_t
behave_vapi_headers(const void *opts, const char **names)
{
    const behave_sig_vapi_t  *vapi = opts;

    static behave_sig_vapi_t  defaults;

    if (vapi == NULL) {
        if (defaults.header[0] == '\0') {
            behave_sig_vapi_default(&defaults);
        }

        vapi = &defaults;
    }

    names[0] = vapi->header;
    names[1] = vapi->timestamp_header;
    names[2] = BEHAVE_VAPI_SECRET_HEADER;

    return 3;
}


/*
 * x-timestamp: <s or ms>, x-signature: <hex> over "<t>.<body>", or what
 * the endpoint chose: other names, a prefix, base64, the body alone.
 */
static behave_sig_err_e
behave_vapi_verify(const behave_sig_headers_t *h, const char *body,
    size_t len, const char *secret, size_t secret_len, unsigned flags,
    const void *opts, int64_t now_ms, behave_sig_info_t *info)
{
    int64_t                   t;
    behave_sig_err_e          rc;
    behave_sig_str_t          parts[3], ts, sig, shared, stamp;
    behave_sig_pairs_t        sent;
    behave_sig_vapi_t         defaults;
    const behave_sig_vapi_t  *vapi = opts;

    if (vapi == NULL) {
        behave_sig_vapi_default(&defaults);
        vapi = &defaults;
    }

    sig = behave_sig_header(h, vapi->header);
    stamp = behave_sig_header(h, vapi->timestamp_header);
    shared = behave_sig_header(h, BEHAVE_VAPI_SECRET_HEADER);

    if (sig.data == NULL) {
        if ((flags & BEHAVE_SIG_ALLOW_SHARED_SECRET) && shared.data != NULL) {
            return behave_vapi_secret(&shared, secret, secret_len, info);
        }

        return BEHAVE_SIG_MISSING_HEADER;
    }

    if (!vapi->body_only && stamp.data == NULL) {
        return BEHAVE_SIG_MISSING_HEADER;
    }

    rc = behave_vapi_decode(behave_sig_trim(sig.data, sig.len), vapi, &sent);
    if (rc != BEHAVE_SIG_OK) {
        return rc;
    }

    if (vapi->body_only) {
        parts[0] = (behave_sig_str_t) { body, len };

        /* no time signed: no window (the glue deduplicates by call) */
        return behave_sig_check((const unsigned char *) secret, secret_len,
                                parts, 1, &sent);
    }

    ts = behave_sig_trim(stamp.data, stamp.len);

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

    info->signed_at_ms = t >= BEHAVE_VAPI_MS_FROM ? t : t * 1000;

    return behave_sig_window(info->signed_at_ms, now_ms,
                             BEHAVE_SIG_VAPI_MAX_AGE,
                             BEHAVE_SIG_VAPI_MAX_AHEAD);
}


/* the endpoint's prefix, then 64 hex digits or the base64 of 32 bytes */
static behave_sig_err_e
behave_vapi_decode(behave_sig_str_t sig, const behave_sig_vapi_t *vapi,
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
               || behave_hex_bytes(sig.data, sig.len, sent->sigs[0]) != 0)
    {
        return BEHAVE_SIG_MALFORMED_HEADER;
    }

    sent->nsigs = 1;

    return BEHAVE_SIG_OK;
}


/*
 * The legacy plain secret.  Comparing SHA-256 digests keeps the compare
 * constant-time even when the lengths differ, and hides the length.
 */
static behave_sig_err_e
behave_vapi_secret(const behave_sig_str_t *sent, const char *secret,
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
    unsigned char      c;
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

    /*
     * What registration accepts, printable ASCII without a space: a NUL
     * would cut the prefix short and a space or control byte could never
     * match a trimmed header, and format could not write either back.
     */
    for (i = 2; i < f[5].len; i++) {
        c = (unsigned char) f[5].data[i];

        if (c <= 0x20 || c >= 0x7f) {
            return -1;
        }
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


static behave_err_e
behave_vapi_locate(behave_call_t *call, const cJSON *root,
    behave_call_src_t *src, behave_error_t *err)
{
    const cJSON   *msg, *c;
    behave_err_e   rc;

    msg = cJSON_GetObjectItemCaseSensitive(root, "message");

    if (msg == NULL || cJSON_IsNull(msg)) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "missing field: message");
    }

    if (!cJSON_IsObject(msg)) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "message must be an object");
    }

    rc = behave_call_type(call, cJSON_GetObjectItemCaseSensitive(msg, "type"),
                          "message.type", err);
    if (rc != BEHAVE_OK) {
        return rc;
    }

    call->kind = strcmp(call->event_type, "end-of-call-report") == 0
                 ? BEHAVE_EVENT_TRANSCRIPT : BEHAVE_EVENT_IGNORED;

    c = cJSON_GetObjectItemCaseSensitive(msg, "call");

    src->container = c;
    src->container_name = "message.call";
    src->call_id = behave_call_path(c, "id", NULL);
    src->call_id_name = "message.call.id";
    src->turns = behave_call_path(msg, "artifact", "messages", NULL);
    src->turns_name = "message.artifact.messages";
    src->role_key[0] = "role";
    src->text_key[0] = "message";
    src->text_key[1] = "content";
    src->verdict = behave_call_path(msg, "analysis", "successEvaluation",
                                    NULL);
    src->summary = behave_call_path(msg, "analysis", "summary", NULL);
    src->time = behave_call_path(msg, "timestamp", NULL);
    src->conv[0] = behave_call_path(c, "metadata", BEHAVE_CONVERSATION_VAR,
                                    NULL);
    src->conv[1] = behave_call_path(c, "assistantOverrides", "variableValues",
                                    BEHAVE_CONVERSATION_VAR, NULL);

    return BEHAVE_OK;
}


/* "signature": the HMAC plan, kept in its stored form */
static behave_err_e
behave_vapi_options_make(const cJSON *o, char *out, size_t cap,
    behave_error_t *err)
{
    behave_err_e       rc;
    behave_sig_vapi_t  vapi;

    rc = behave_endpoint_vapi_parse(o, &vapi, err);
    if (rc != BEHAVE_OK) {
        return rc;
    }

    if (behave_sig_vapi_format(&vapi, out, cap) != 0) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL,
                                "signature options too long");
    }

    return BEHAVE_OK;
}


static void
behave_vapi_options_load(const char *text, size_t len,
    behave_provider_opts_t *opts)
{
    behave_sig_vapi_t  *vapi = (behave_sig_vapi_t *) opts->bytes;

    if (text == NULL || behave_sig_vapi_parse(text, len, vapi) != 0) {
        behave_sig_vapi_default(vapi);
    }
}


/* the options as the record shows them, defaults filled in */
static cJSON *
behave_vapi_options_json(const char *stored)
{
    cJSON              *o;
    behave_sig_vapi_t   v;

    if (stored == NULL
        || behave_sig_vapi_parse(stored, strlen(stored), &v) != 0)
    {
        behave_sig_vapi_default(&v);
    }

    o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }

    cJSON_AddStringToObject(o, "header", v.header);
    cJSON_AddStringToObject(o, "timestamp_header", v.timestamp_header);
    cJSON_AddStringToObject(o, "prefix", v.prefix);
    cJSON_AddStringToObject(o, "encoding", v.base64 ? "base64" : "hex");
    cJSON_AddStringToObject(o, "signed",
                            v.body_only ? "body" : "timestamp.body");

    return o;
}


behave_err_e
behave_endpoint_vapi_parse(const cJSON *o, behave_sig_vapi_t *vapi,
    behave_error_t *err)
{
    char         *dst;
    size_t        i, len;
    const cJSON  *m;
    const char   *s;

    behave_sig_vapi_default(vapi);

    if (o == NULL || cJSON_IsNull(o)) {
        return BEHAVE_OK;
    }

    if (!cJSON_IsObject(o)) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "signature must be an object");
    }

    cJSON_ArrayForEach(m, o) {
        s = cJSON_IsString(m) ? m->valuestring : NULL;
        len = s ? strlen(s) : 0;

        if (strcmp(m->string, "header") == 0
            || strcmp(m->string, "timestamp_header") == 0)
        {
            if (s == NULL || !behave_sig_header_name_valid(s, len)) {
                return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                           "signature.%s must be a header name of 1 to %d "
                           "letters, digits or '-'", m->string,
                           BEHAVE_SIG_NAME_MAX);
            }

            /* stored lowercase: header names are case-insensitive */
            dst = (m->string[0] == 'h') ? vapi->header
                                        : vapi->timestamp_header;

            for (i = 0; i <= len; i++) {
                dst[i] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i];
            }

        } else if (strcmp(m->string, "prefix") == 0) {
            for (i = 0; s != NULL && i < len; i++) {
                if (s[i] <= 0x20 || s[i] >= 0x7f) {
                    break;
                }
            }

            if (s == NULL || i < len || len > BEHAVE_SIG_PREFIX_MAX) {
                return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                           "signature.prefix must be a string of at most "
                           "%d printable ASCII characters, no space",
                           BEHAVE_SIG_PREFIX_MAX);
            }

            memcpy(vapi->prefix, s, len + 1);

        } else if (strcmp(m->string, "encoding") == 0) {
            if (s == NULL || (strcmp(s, "hex") && strcmp(s, "base64"))) {
                return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                           "signature.encoding must be \"hex\" or "
                           "\"base64\"");
            }

            vapi->base64 = s[0] == 'b';

        } else if (strcmp(m->string, "signed") == 0) {
            if (s == NULL
                || (strcmp(s, "timestamp.body") && strcmp(s, "body")))
            {
                return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                           "signature.signed must be \"timestamp.body\" "
                           "or \"body\"");
            }

            vapi->body_only = s[0] == 'b';

        } else {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                       "signature: unknown member (header, "
                       "timestamp_header, prefix, encoding, signed)");
        }
    }

    return BEHAVE_OK;
}
