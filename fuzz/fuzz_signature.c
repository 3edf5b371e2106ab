/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The signature headers of every provider.  Input:
 *
 *     flags byte, [an options line when flags & 0x80], then 11 lines (the
 *     headers of fuzz_names below in order; a line "-" is an absent
 *     header), then the body; the provider's own (its headers()) are
 *     passed, as the glue does
 *
 * flags & 3 picks the provider (behave_providers[]), & 4 allows the
 * shared secret, & 8 has
 * the harness sign: it appends the right MAC for the timestamp text the
 * fuzzer wrote, so that the paths after the MAC (the replay window, the
 * idempotency key) are reached too.
 *
 * Vapi's options of one endpoint (behave_sig_vapi_t), from the same byte:
 * none of 0xf0 set passes NULL (the defaults); & 0x10 base64, & 0x20 the
 * body alone, & 0x40 the prefix "sha256="; & 0x80 takes them instead
 * from the options line, in their stored form (Redis may hold anything),
 * which must format and parse back to the same options.  The harness
 * signs with the options it passes.
 *
 * Also here: base64 decoding, which reads the Standard Webhooks
 * signatures and secrets.
 */

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "fuzz.h"
#include "webhooks/behave_provider.h"
#include "webhooks/providers/behave_provider_vapi.h"
#include "base/behave_secretbox.h"


#define FUZZ_SECRET      "fuzz_secret_0123456789abcdef"
/* whsec_ and the base64 of 24 bytes "fuzz-standard-key-bytes!" */
#define FUZZ_STD_SECRET  "whsec_ZnV6ei1zdGFuZGFyZC1rZXktYnl0ZXMh"
#define FUZZ_STD_KEY     "fuzz-standard-key-bytes!"
#define FUZZ_HDR_MAX     2048
#define FUZZ_NHDRS       11

/* indexes into fuzz_names */
#define FUZZ_H_VAPI_TS   2
#define FUZZ_H_VAPI_SIG  3
#define FUZZ_H_VAPI_SEC  4
#define FUZZ_H_STD       5
#define FUZZ_H_SVIX      8

#define FUZZ_IS(p, n)     (strcmp((p)->name, n) == 0)


/* the lines of the input, in order (Vapi's first two: its endpoint's) */
static const char  *fuzz_names[FUZZ_NHDRS] = {
    "elevenlabs-signature", "x-retell-signature", "x-timestamp",
    "x-signature", "x-vapi-secret", "webhook-id", "webhook-timestamp",
    "webhook-signature", "svix-id", "svix-timestamp", "svix-signature"
};


typedef struct {
    char    buf[FUZZ_NHDRS][FUZZ_HDR_MAX + 160];
    size_t  len[FUZZ_NHDRS];
    int     present[FUZZ_NHDRS];
} fuzz_hdrs_t;


static const behave_sig_vapi_t *fuzz_sig_vapi(unsigned flags,
    const uint8_t **data, size_t *size, behave_sig_vapi_t *vapi);
static void fuzz_sig_sign(const behave_provider_t *provider,
    const behave_sig_vapi_t *vapi, fuzz_hdrs_t *h, const char *body,
    size_t len);
static void fuzz_sig_base64(const uint8_t *data, size_t size);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t                 i, n, rest;
    unsigned               flags;
    const char            *secret;
    fuzz_hdrs_t            h;
    size_t                 k, nnames;
    const char            *names[BEHAVE_SIG_HEADERS_MAX];
    behave_sig_str_t       hs[FUZZ_NHDRS];
    behave_sig_err_e       rc;
    behave_sig_info_t      info;
    behave_sig_headers_t   headers;
    behave_sig_str_t       id;
    const behave_provider_t  *provider;
    behave_sig_vapi_t      vopt;
    const behave_sig_vapi_t  *vapi;

    if (size == 0) {
        return 0;
    }

    fuzz_sig_base64(data, size);

    flags = data[0];
    provider = behave_providers[flags & 3];
    data++;
    size--;

    vapi = fuzz_sig_vapi(flags, &data, &size, &vopt);

    memset(&headers, 0, sizeof(headers));
    memset(hs, 0, sizeof(hs));

    for (i = 0; i < FUZZ_NHDRS; i++) {
        n = fuzz_line(data, size, &rest);
        n = n > FUZZ_HDR_MAX ? FUZZ_HDR_MAX : n;
        h.present[i] = !(n == 1 && data[0] == '-') && size > 0;
        memcpy(h.buf[i], data, n);
        h.len[i] = n;
        data += rest;
        size -= rest;
    }

    if (flags & 8) {
        fuzz_sig_sign(provider, vapi, &h, (const char *) data, size);
    }

    /* copies of exactly their length, so an overread is caught */
    for (i = 0; i < FUZZ_NHDRS; i++) {
        if (h.present[i]) {
            hs[i].data = malloc(h.len[i] + 1);
            FUZZ_CHECK(hs[i].data != NULL);
            memcpy((char *) hs[i].data, h.buf[i], h.len[i]);
            hs[i].len = h.len[i];
        }
    }

    /* the provider's headers, by name; Vapi's first two by place */
    nnames = behave_provider_headers(provider, vapi, names);

    for (k = 0; k < nnames; k++) {
        for (i = 0; i < FUZZ_NHDRS; i++) {
            if (FUZZ_IS(provider, "vapi")
                ? (k == 0 ? i == FUZZ_H_VAPI_SIG
                   : k == 1 ? i == FUZZ_H_VAPI_TS : i == FUZZ_H_VAPI_SEC)
                : strcmp(names[k], fuzz_names[i]) == 0)
            {
                FUZZ_CHECK(behave_sig_header_set(&headers, names[k], hs[i])
                           == 0);
                break;
            }
        }
    }

    secret = FUZZ_IS(provider, "standard") ? FUZZ_STD_SECRET : FUZZ_SECRET;

    rc = behave_sig_verify(provider, &headers, (const char *) data, size,
                           secret, strlen(secret),
                           (flags & 4) ? BEHAVE_SIG_ALLOW_SHARED_SECRET : 0,
                           vapi, FUZZ_NOW_MS, &info);

    FUZZ_CHECK(rc < BEHAVE_SIG_LAST);
    FUZZ_CHECK(behave_sig_err_name(rc) != NULL);
    FUZZ_CHECK(rc != BEHAVE_SIG_BAD_SECRET && rc != BEHAVE_SIG_BAD_PROVIDER);

    if (rc == BEHAVE_SIG_OK && info.idempotency_key != NULL) {
        /* the webhook-* set when any of it came, else the svix-* one */
        id = (hs[FUZZ_H_STD].data || hs[FUZZ_H_STD + 1].data
              || hs[FUZZ_H_STD + 2].data)
             ? hs[FUZZ_H_STD] : hs[FUZZ_H_SVIX];

        FUZZ_CHECK(FUZZ_IS(provider, "standard"));
        FUZZ_CHECK(info.idempotency_key_len > 0);
        FUZZ_CHECK(info.idempotency_key_len <= BEHAVE_SIG_WEBHOOK_ID_MAX);
        FUZZ_CHECK(info.idempotency_key >= id.data
                   && info.idempotency_key + info.idempotency_key_len
                      <= id.data + id.len);
    }

    /* the body alone signs no time: nothing to report */
    if (rc == BEHAVE_SIG_OK && FUZZ_IS(provider, "vapi")
        && vapi != NULL && vapi->body_only && !info.shared_secret)
    {
        FUZZ_CHECK(info.signed_at_ms == 0);
    }

    for (i = 0; i < FUZZ_NHDRS; i++) {
        free((char *) hs[i].data);
    }

    return 0;
}


/* the Vapi options the flags ask for, or NULL for the defaults */
static const behave_sig_vapi_t *
fuzz_sig_vapi(unsigned flags, const uint8_t **data, size_t *size,
    behave_sig_vapi_t *vapi)
{
    char               text[256], *line;
    size_t             n, rest;
    behave_sig_vapi_t  back, defaults;

    if (!(flags & 0x80)) {
        if (!(flags & 0x70)) {
            return NULL;
        }

        behave_sig_vapi_default(vapi);
        vapi->base64 = (flags & 0x10) != 0;
        vapi->body_only = (flags & 0x20) != 0;

        if (flags & 0x40) {
            memcpy(vapi->prefix, "sha256=", sizeof("sha256="));
        }

        return vapi;
    }

    /* a copy of exactly its length, so an overread is caught */
    n = fuzz_line(*data, *size, &rest);
    line = malloc(n + 1);
    FUZZ_CHECK(line != NULL);
    memcpy(line, *data, n);

    if (behave_sig_vapi_parse(line, n, vapi) != 0) {
        /* refused: the defaults, as documented */
        behave_sig_vapi_default(&defaults);
        FUZZ_CHECK(memcmp(vapi, &defaults, sizeof(defaults)) == 0);

    } else {
        FUZZ_CHECK(behave_sig_header_name_valid(vapi->header,
                                                strlen(vapi->header)));
        FUZZ_CHECK(behave_sig_header_name_valid(vapi->timestamp_header,
                                          strlen(vapi->timestamp_header)));
        FUZZ_CHECK(behave_sig_vapi_format(vapi, text, sizeof(text)) == 0);
        FUZZ_CHECK(behave_sig_vapi_parse(text, strlen(text), &back) == 0);
        FUZZ_CHECK(memcmp(vapi, &back, sizeof(back)) == 0);
    }

    free(line);
    *data += rest;
    *size -= rest;

    return vapi;
}


/* HMAC-SHA256 of a, b, c one after the other; hex into hex if not NULL */
static size_t
fuzz_hmac(const void *key, size_t klen, const char *a, size_t alen,
    const char *b, size_t blen, const char *c, size_t clen,
    unsigned char *mac, char *hex)
{
    char          *msg;
    size_t         i;
    unsigned int   mlen;

    msg = malloc(alen + blen + clen + 1);
    FUZZ_CHECK(msg != NULL);
    memcpy(msg, a, alen);
    memcpy(msg + alen, b, blen);
    memcpy(msg + alen + blen, c, clen);

    FUZZ_CHECK(HMAC(EVP_sha256(), key, (int) klen, (unsigned char *) msg,
                    alen + blen + clen, mac, &mlen) != NULL);
    free(msg);

    if (hex != NULL) {
        for (i = 0; i < mlen; i++) {
            sprintf(hex + 2 * i, "%02x", mac[i]);
        }
    }

    return mlen;
}


/* the value after "name=" in a comma list, up to the next comma */
static const char *
fuzz_pair(const char *s, size_t len, const char *name, size_t *vlen)
{
    size_t  i, n;

    n = strlen(name);

    for (i = 0; i + n <= len; i++) {
        if ((i == 0 || s[i - 1] == ',') && memcmp(s + i, name, n) == 0) {
            s += i + n;
            len -= i + n;
            for (*vlen = 0; *vlen < len && s[*vlen] != ','; (*vlen)++) {
                /* void */
            }
            return s;
        }
    }

    return NULL;
}


static void
fuzz_sig_sign(const behave_provider_t *provider,
    const behave_sig_vapi_t *vapi, fuzz_hdrs_t *h, const char *body,
    size_t len)
{
    char                hex[2 * EVP_MAX_MD_SIZE + 1], *out, *id;
    size_t              tlen, n, s;
    const char         *t;
    unsigned char       mac[EVP_MAX_MD_SIZE];
    behave_sig_vapi_t   defaults;

    if (FUZZ_IS(provider, "elevenlabs")) {
        t = fuzz_pair(h->buf[0], h->len[0], "t=", &tlen);
        if (t == NULL) {
            return;
        }
        fuzz_hmac(FUZZ_SECRET, sizeof(FUZZ_SECRET) - 1, t, tlen, ".", 1,
                  body, len, mac, hex);
        h->len[0] += sprintf(h->buf[0] + h->len[0], ",v0=%s", hex);
        h->present[0] = 1;
        return;
    }

    if (FUZZ_IS(provider, "retell")) {
        t = fuzz_pair(h->buf[1], h->len[1], "v=", &tlen);
        if (t == NULL) {
            return;
        }
        fuzz_hmac(FUZZ_SECRET, sizeof(FUZZ_SECRET) - 1, body, len, t, tlen,
                  "", 0, mac, hex);
        h->len[1] += sprintf(h->buf[1] + h->len[1], ",d=%s", hex);
        h->present[1] = 1;
        return;
    }

    if (FUZZ_IS(provider, "vapi")) {
        if (vapi == NULL) {
            behave_sig_vapi_default(&defaults);
            vapi = &defaults;
        }

        t = h->buf[FUZZ_H_VAPI_TS];
        tlen = h->len[FUZZ_H_VAPI_TS];

        if (vapi->body_only) {
            n = fuzz_hmac(FUZZ_SECRET, sizeof(FUZZ_SECRET) - 1, body, len,
                          "", 0, "", 0, mac, hex);
        } else {
            n = fuzz_hmac(FUZZ_SECRET, sizeof(FUZZ_SECRET) - 1, t, tlen,
                          ".", 1, body, len, mac, hex);
        }

        /* the endpoint's prefix, then hex or base64 */
        out = h->buf[FUZZ_H_VAPI_SIG];
        s = strlen(vapi->prefix);
        memcpy(out, vapi->prefix, s);

        if (vapi->base64) {
            s += behave_base64_encode(mac, n, out + s, 0);
        } else {
            memcpy(out + s, hex, 2 * n);
            s += 2 * n;
        }

        h->len[FUZZ_H_VAPI_SIG] = s;
        h->present[FUZZ_H_VAPI_SIG] = 1;
        return;
    }

    {
        /* the webhook-* set when any of it came, else svix-* (the core's
         * rule), signed as "<id>.<t>." then the body */
        n = (h->present[FUZZ_H_STD] || h->present[FUZZ_H_STD + 1]
             || h->present[FUZZ_H_STD + 2]) ? FUZZ_H_STD : FUZZ_H_SVIX;

        id = malloc(h->len[n] + h->len[n + 1] + 2);
        FUZZ_CHECK(id != NULL);
        memcpy(id, h->buf[n], h->len[n]);
        id[h->len[n]] = '.';
        memcpy(id + h->len[n] + 1, h->buf[n + 1], h->len[n + 1]);
        id[h->len[n] + 1 + h->len[n + 1]] = '.';
        s = fuzz_hmac(FUZZ_STD_KEY, sizeof(FUZZ_STD_KEY) - 1, id,
                      h->len[n] + h->len[n + 1] + 2, body, len, "", 0, mac,
                      NULL);
        free(id);

        n += 2;
        if (!h->present[n]) {
            h->len[n] = 0;          /* not the "-" that marked it absent */
        }

        out = h->buf[n] + h->len[n];
        memcpy(out, h->len[n] ? " v1," : "v1,", h->len[n] ? 4 : 3);
        out += h->len[n] ? 4 : 3;
        out += behave_base64_encode(mac, s, out, 0);
        h->len[n] = out - h->buf[n];
        h->present[n] = 1;
    }
}


/* decode, and encode back: a decoded buffer re-encodes to its input */
static void
fuzz_sig_base64(const uint8_t *data, size_t size)
{
    int             url;
    char           *enc;
    size_t          n, m, cap;
    unsigned char  *dec;

    for (url = 0; url <= 1; url++) {
        cap = size;
        dec = malloc(cap + 1);
        FUZZ_CHECK(dec != NULL);

        if (behave_base64_decode((const char *) data, size, dec, cap, &n,
                                 url) == 0)
        {
            FUZZ_CHECK(n <= cap);
            FUZZ_CHECK(n <= size * 3 / 4 + 2);

            enc = malloc(2 * n + 8);
            FUZZ_CHECK(enc != NULL);
            m = behave_base64_encode(dec, n, enc, url);
            FUZZ_CHECK(m == strlen(enc));

            m = 0;
            FUZZ_CHECK(behave_base64_decode(enc, strlen(enc), dec, cap, &m,
                                            url) == 0);
            free(enc);
        }

        free(dec);
    }
}
