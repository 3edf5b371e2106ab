/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The signature headers of every provider.  Input:
 *
 *     flags byte, then 8 lines (the headers of behave_sig_headers_t in
 *     order; a line "-" is an absent header), then the body
 *
 * flags & 3 picks the provider, & 4 allows the shared secret, & 8 has
 * the harness sign: it appends the right MAC for the timestamp text the
 * fuzzer wrote, so that the paths after the MAC (the replay window, the
 * idempotency key) are reached too.  Also here: base64 decoding, which
 * reads the Standard Webhooks signatures and secrets.
 */

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "fuzz.h"
#include "behave_signature.h"
#include "behave_secretbox.h"


#define FUZZ_SECRET      "fuzz_secret_0123456789abcdef"
/* whsec_ and the base64 of 24 bytes "fuzz-standard-key-bytes!" */
#define FUZZ_STD_SECRET  "whsec_ZnV6ei1zdGFuZGFyZC1rZXktYnl0ZXMh"
#define FUZZ_STD_KEY     "fuzz-standard-key-bytes!"
#define FUZZ_HDR_MAX     2048


typedef struct {
    char    buf[8][FUZZ_HDR_MAX + 160];
    size_t  len[8];
    int     present[8];
} fuzz_hdrs_t;


static void fuzz_sig_sign(behave_provider_e provider, fuzz_hdrs_t *h,
    const char *body, size_t len);
static void fuzz_sig_base64(const uint8_t *data, size_t size);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t                 i, n, rest;
    unsigned               flags;
    const char            *secret;
    fuzz_hdrs_t            h;
    behave_sig_str_t      *hs;
    behave_sig_err_e       rc;
    behave_sig_info_t      info;
    behave_provider_e      provider;
    behave_sig_headers_t   headers;

    if (size == 0) {
        return 0;
    }

    fuzz_sig_base64(data, size);

    flags = data[0];
    provider = (behave_provider_e) (flags & 3);
    data++;
    size--;

    memset(&headers, 0, sizeof(headers));
    hs = (behave_sig_str_t *) &headers;

    for (i = 0; i < 8; i++) {
        n = fuzz_line(data, size, &rest);
        n = n > FUZZ_HDR_MAX ? FUZZ_HDR_MAX : n;
        h.present[i] = !(n == 1 && data[0] == '-') && size > 0;
        memcpy(h.buf[i], data, n);
        h.len[i] = n;
        data += rest;
        size -= rest;
    }

    if (flags & 8) {
        fuzz_sig_sign(provider, &h, (const char *) data, size);
    }

    /* copies of exactly their length, so an overread is caught */
    for (i = 0; i < 8; i++) {
        if (h.present[i]) {
            hs[i].data = malloc(h.len[i] + 1);
            FUZZ_CHECK(hs[i].data != NULL);
            memcpy((char *) hs[i].data, h.buf[i], h.len[i]);
            hs[i].len = h.len[i];
        }
    }

    secret = provider == BEHAVE_PROVIDER_STANDARD ? FUZZ_STD_SECRET
                                                  : FUZZ_SECRET;

    rc = behave_sig_verify(provider, &headers, (const char *) data, size,
                           secret, strlen(secret),
                           (flags & 4) ? BEHAVE_SIG_ALLOW_SHARED_SECRET : 0,
                           NULL, FUZZ_NOW_MS, &info);

    FUZZ_CHECK(rc < BEHAVE_SIG_LAST);
    FUZZ_CHECK(behave_sig_err_name(rc) != NULL);
    FUZZ_CHECK(rc != BEHAVE_SIG_BAD_SECRET && rc != BEHAVE_SIG_BAD_PROVIDER);

    if (rc == BEHAVE_SIG_OK && info.idempotency_key != NULL) {
        FUZZ_CHECK(info.idempotency_key_len > 0);
        FUZZ_CHECK(info.idempotency_key_len <= BEHAVE_SIG_WEBHOOK_ID_MAX);
        FUZZ_CHECK(info.idempotency_key >= headers.webhook_id.data
                   && info.idempotency_key + info.idempotency_key_len
                      <= headers.webhook_id.data + headers.webhook_id.len);
    }

    for (i = 0; i < 8; i++) {
        free((char *) hs[i].data);
    }

    return 0;
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
fuzz_sig_sign(behave_provider_e provider, fuzz_hdrs_t *h, const char *body,
    size_t len)
{
    char            hex[2 * EVP_MAX_MD_SIZE + 1], *out, *id;
    size_t          tlen, n;
    const char     *t;
    unsigned char   mac[EVP_MAX_MD_SIZE];

    switch (provider) {

    case BEHAVE_PROVIDER_ELEVENLABS:
        t = fuzz_pair(h->buf[0], h->len[0], "t=", &tlen);
        if (t == NULL) {
            return;
        }
        fuzz_hmac(FUZZ_SECRET, sizeof(FUZZ_SECRET) - 1, t, tlen, ".", 1,
                  body, len, mac, hex);
        h->len[0] += sprintf(h->buf[0] + h->len[0], ",v0=%s", hex);
        h->present[0] = 1;
        return;

    case BEHAVE_PROVIDER_RETELL:
        t = fuzz_pair(h->buf[1], h->len[1], "v=", &tlen);
        if (t == NULL) {
            return;
        }
        fuzz_hmac(FUZZ_SECRET, sizeof(FUZZ_SECRET) - 1, body, len, t, tlen,
                  "", 0, mac, hex);
        h->len[1] += sprintf(h->buf[1] + h->len[1], ",d=%s", hex);
        h->present[1] = 1;
        return;

    case BEHAVE_PROVIDER_VAPI:
        n = fuzz_hmac(FUZZ_SECRET, sizeof(FUZZ_SECRET) - 1, h->buf[2],
                      h->len[2], ".", 1, body, len, mac, hex);
        memcpy(h->buf[3], hex, 2 * n);
        h->len[3] = 2 * n;
        h->present[3] = 1;
        return;

    default:
        /* "<id>.<t>." then the body */
        id = malloc(h->len[5] + h->len[6] + 2);
        FUZZ_CHECK(id != NULL);
        memcpy(id, h->buf[5], h->len[5]);
        id[h->len[5]] = '.';
        memcpy(id + h->len[5] + 1, h->buf[6], h->len[6]);
        id[h->len[5] + 1 + h->len[6]] = '.';
        n = fuzz_hmac(FUZZ_STD_KEY, sizeof(FUZZ_STD_KEY) - 1, id,
                      h->len[5] + h->len[6] + 2, body, len, "", 0, mac,
                      NULL);
        free(id);

        out = h->buf[7] + h->len[7];
        memcpy(out, h->len[7] ? " v1," : "v1,", h->len[7] ? 4 : 3);
        out += h->len[7] ? 4 : 3;
        out += behave_base64_encode(mac, n, out, 0);
        h->len[7] = out - h->buf[7];
        h->present[7] = 1;
        return;
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
