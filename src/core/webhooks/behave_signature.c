/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * What the providers' signature schemes share (providers/): the headers
 * a delivery came with, one header of "k=v" pairs, signatures in hex,
 * HMAC-SHA256 over parts compared in constant time, the window.  The
 * order of checks is the same for every provider: headers present,
 * headers well formed, MAC, then time.  Header text is only parsed, never
 * copied or logged.
 */

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "webhooks/behave_signature.h"
#include "base/behave_hex.h"
#include "base/behave_secretbox.h"
#include "base/behave_utf8.h"


static behave_sig_err_e behave_sig_parse_pairs(const behave_sig_str_t *hdr,
    const char *ts_key, const char *sig_key, size_t ts_digits,
    behave_sig_pairs_t *out, int64_t *ts);
static int behave_sig_hmac(const unsigned char *key, size_t key_len,
    const behave_sig_str_t *parts, size_t nparts, unsigned char *mac);


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

const char *
behave_sig_err_name(behave_sig_err_e err)
{
    if ((unsigned) err >= BEHAVE_SIG_LAST) {
        return "unknown";
    }

    return behave_sig_err_names[err];
}


int
behave_sig_header_set(behave_sig_headers_t *h, const char *name,
    behave_sig_str_t v)
{
    size_t  i;

    for (i = 0; i < h->n; i++) {
        if (strcmp(h->name[i], name) == 0) {
            h->value[i] = v;
            return 0;
        }
    }

    if (h->n == BEHAVE_SIG_HEADERS_MAX) {
        return -1;
    }

    h->name[h->n] = name;
    h->value[h->n++] = v;

    return 0;
}


behave_sig_str_t
behave_sig_header(const behave_sig_headers_t *h, const char *name)
{
    size_t  i;

    for (i = 0; h != NULL && i < h->n; i++) {
        if (strcmp(h->name[i], name) == 0) {
            return h->value[i];
        }
    }

    return (behave_sig_str_t) { NULL, 0 };
}


behave_sig_err_e
behave_sig_pairs_verify(const behave_sig_scheme_t *sc,
    const behave_sig_headers_t *h, const char *body, size_t len,
    const char *secret, size_t secret_len, int64_t now_ms,
    behave_sig_info_t *info)
{
    int64_t             t;
    size_t              n;
    behave_sig_err_e    rc;
    behave_sig_str_t    parts[3], hdr;
    behave_sig_pairs_t  sent;

    hdr = behave_sig_header(h, sc->header);

    rc = behave_sig_parse_pairs(&hdr, sc->ts_key, sc->sig_key, sc->ts_digits,
                                &sent, &t);
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


int
behave_sig_header_name_valid(const char *name, size_t len)
{
    return behave_ascii_name_valid(name, len, BEHAVE_SIG_NAME_MAX, "-");
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
                || behave_hex_bytes(val.data, val.len, out->sigs[out->nsigs])
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
behave_sig_err_e
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


behave_sig_err_e
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
int
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


behave_sig_str_t
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


int
behave_sig_is(behave_sig_str_t s, const char *lit)
{
    return strlen(lit) == s.len && memcmp(s.data, lit, s.len) == 0;
}
