/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Every buffer that held a key or a plaintext secret is wiped with
 * OPENSSL_cleanse() before it goes out of scope, on every path.
 */

#include <stdint.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "base/behave_hex.h"
#include "base/behave_secretbox.h"


#define BEHAVE_SECRETBOX_OVERHEAD                                           \
    (BEHAVE_SECRETBOX_NONCE_LEN + BEHAVE_SECRETBOX_TAG_LEN)

#define BEHAVE_SECRETBOX_BLOB_MAX                                           \
    (BEHAVE_SECRETBOX_PLAIN_MAX + BEHAVE_SECRETBOX_OVERHEAD)


static int behave_secretbox_gcm(int enc,
    const unsigned char *key, const unsigned char *nonce,
    const char *aad, size_t aad_len, const unsigned char *in, size_t len,
    unsigned char *out, unsigned char *tag);
static int behave_secretbox_space(char c);
static int behave_base64_value(char c, int url);


static const char  behave_base64_std[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char  behave_base64_url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";


size_t
behave_secretbox_sealed_size(size_t plain_len)
{
    return sizeof(BEHAVE_SECRETBOX_PREFIX) - 1
           + BEHAVE_BASE64_LEN(plain_len + BEHAVE_SECRETBOX_OVERHEAD) + 1;
}


int
behave_secretbox_seal(const unsigned char key[BEHAVE_MASTER_KEY_LEN],
    const char *plain, size_t len, const char *aad, size_t aad_len,
    char *out, size_t cap, size_t *out_len)
{
    size_t         plen, n;
    unsigned char  blob[BEHAVE_SECRETBOX_BLOB_MAX];

    if (len == 0 || len > BEHAVE_SECRETBOX_PLAIN_MAX
        || cap < behave_secretbox_sealed_size(len))
    {
        return -1;
    }

    if (RAND_bytes(blob, BEHAVE_SECRETBOX_NONCE_LEN) != 1) {
        return -1;
    }

    if (behave_secretbox_gcm(1, key, blob, aad, aad_len,
                             (const unsigned char *) plain, len,
                             blob + BEHAVE_SECRETBOX_NONCE_LEN,
                             blob + BEHAVE_SECRETBOX_NONCE_LEN + len)
        != 0)
    {
        OPENSSL_cleanse(blob, sizeof(blob));
        return -1;
    }

    plen = sizeof(BEHAVE_SECRETBOX_PREFIX) - 1;
    memcpy(out, BEHAVE_SECRETBOX_PREFIX, plen);
    n = behave_base64_encode(blob, len + BEHAVE_SECRETBOX_OVERHEAD,
                             out + plen, 0);

    /* the ciphertext is not secret, but the buffer is cheap to wipe */
    OPENSSL_cleanse(blob, sizeof(blob));

    if (out_len != NULL) {
        *out_len = plen + n;
    }

    return 0;
}


int
behave_secretbox_open(const unsigned char key[BEHAVE_MASTER_KEY_LEN],
    const char *rec, size_t rec_len, const char *aad, size_t aad_len,
    char *out, size_t cap, size_t *out_len)
{
    size_t         plen, blen, len;
    unsigned char  blob[BEHAVE_SECRETBOX_BLOB_MAX];

    plen = sizeof(BEHAVE_SECRETBOX_PREFIX) - 1;

    if (cap > 0) {
        out[0] = '\0';
    }

    if (rec_len < plen || memcmp(rec, BEHAVE_SECRETBOX_PREFIX, plen) != 0
        || rec_len - plen > BEHAVE_BASE64_LEN(BEHAVE_SECRETBOX_BLOB_MAX))
    {
        return -1;
    }

    if (behave_base64_decode(rec + plen, rec_len - plen, blob, sizeof(blob),
                             &blen, 0)
        != 0
        || blen <= BEHAVE_SECRETBOX_OVERHEAD)
    {
        return -1;
    }

    len = blen - BEHAVE_SECRETBOX_OVERHEAD;

    if (cap < len + 1) {
        return -1;
    }

    if (behave_secretbox_gcm(0, key, blob, aad, aad_len,
                             blob + BEHAVE_SECRETBOX_NONCE_LEN, len,
                             (unsigned char *) out,
                             blob + BEHAVE_SECRETBOX_NONCE_LEN + len)
        != 0)
    {
        /* GCM has written unauthenticated plaintext: never hand it out */
        OPENSSL_cleanse(out, len);
        out[0] = '\0';
        return -1;
    }

    out[len] = '\0';

    if (out_len != NULL) {
        *out_len = len;
    }

    return 0;
}


/*
 * One AES-256-GCM pass: enc seals in into out and writes the tag, else
 * opens in into out and checks the tag.  Returns 0, or -1.
 */
static int
behave_secretbox_gcm(int enc, const unsigned char *key,
    const unsigned char *nonce, const char *aad, size_t aad_len,
    const unsigned char *in, size_t len, unsigned char *out,
    unsigned char *tag)
{
    int              rc, n;
    EVP_CIPHER_CTX  *ctx;

    if (len > BEHAVE_SECRETBOX_PLAIN_MAX || aad_len > 0x7fffffff) {
        return -1;
    }

    ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) {
        return -1;
    }

    rc = -1;

    if (EVP_CipherInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL, enc) != 1
        || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN,
                               BEHAVE_SECRETBOX_NONCE_LEN, NULL) != 1
        || EVP_CipherInit_ex(ctx, NULL, NULL, key, nonce, enc) != 1)
    {
        goto done;
    }

    if (aad_len > 0
        && EVP_CipherUpdate(ctx, NULL, &n, (const unsigned char *) aad,
                            (int) aad_len) != 1)
    {
        goto done;
    }

    if (len > 0 && EVP_CipherUpdate(ctx, out, &n, in, (int) len) != 1) {
        goto done;
    }

    if (!enc
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG,
                               BEHAVE_SECRETBOX_TAG_LEN, tag) != 1)
    {
        goto done;
    }

    /* for decryption this is where a wrong key or an edit shows up */
    if (EVP_CipherFinal_ex(ctx, out + len, &n) != 1) {
        goto done;
    }

    if (enc
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG,
                               BEHAVE_SECRETBOX_TAG_LEN, tag) != 1)
    {
        goto done;
    }

    rc = 0;

done:

    EVP_CIPHER_CTX_free(ctx);
    return rc;
}


int
behave_master_key_parse(const char *text, size_t len,
    unsigned char out[BEHAVE_MASTER_KEY_LEN])
{
    size_t         i;
    unsigned char  any;

    while (len > 0 && behave_secretbox_space(text[len - 1])) {
        len--;
    }

    while (len > 0 && behave_secretbox_space(text[0])) {
        text++;
        len--;
    }

    if (len != 2 * BEHAVE_MASTER_KEY_LEN) {
        return -1;
    }

    if (behave_hex_bytes(text, len, out) != 0) {
        OPENSSL_cleanse(out, BEHAVE_MASTER_KEY_LEN);
        return -1;
    }

    any = 0;

    for (i = 0; i < BEHAVE_MASTER_KEY_LEN; i++) {
        any |= out[i];
    }

    if (any == 0) {
        return -1;
    }

    return 0;
}


int
behave_random_slug(char *out, size_t cap)
{
    unsigned char  rnd[BEHAVE_SLUG_BYTES];

    if (cap < BEHAVE_SLUG_SIZE || RAND_bytes(rnd, sizeof(rnd)) != 1) {
        return -1;
    }

    behave_base64_encode(rnd, sizeof(rnd), out, 1);

    return 0;
}


int
behave_random_id(const char *prefix, char *out, size_t cap)
{
    size_t         i, plen;
    unsigned char  rnd[BEHAVE_RANDOM_ID_BYTES];

    static const char  hex[] = "0123456789abcdef";

    plen = strlen(prefix);

    if (cap < plen + 2 + 2 * sizeof(rnd) || RAND_bytes(rnd, sizeof(rnd)) != 1)
    {
        return -1;
    }

    memcpy(out, prefix, plen);
    out += plen;
    *out++ = '_';

    for (i = 0; i < sizeof(rnd); i++) {
        *out++ = hex[rnd[i] >> 4];
        *out++ = hex[rnd[i] & 0x0f];
    }

    *out = '\0';

    return 0;
}


size_t
behave_base64_encode(const unsigned char *src, size_t len, char *dst,
    int url)
{
    char        *p;
    size_t       i;
    uint32_t     v;
    const char  *alpha;

    alpha = url ? behave_base64_url : behave_base64_std;
    p = dst;

    for (i = 0; i + 2 < len; i += 3) {
        v = (uint32_t) src[i] << 16 | (uint32_t) src[i + 1] << 8 | src[i + 2];
        *p++ = alpha[v >> 18 & 0x3f];
        *p++ = alpha[v >> 12 & 0x3f];
        *p++ = alpha[v >> 6 & 0x3f];
        *p++ = alpha[v & 0x3f];
    }

    if (i < len) {
        v = (uint32_t) src[i] << 16;
        if (i + 1 < len) {
            v |= (uint32_t) src[i + 1] << 8;
        }

        *p++ = alpha[v >> 18 & 0x3f];
        *p++ = alpha[v >> 12 & 0x3f];

        if (i + 1 < len) {
            *p++ = alpha[v >> 6 & 0x3f];
        } else if (!url) {
            *p++ = '=';
        }

        if (!url) {
            *p++ = '=';
        }
    }

    *p = '\0';

    return (size_t) (p - dst);
}


int
behave_base64_decode(const char *src, size_t len, unsigned char *dst,
    size_t cap, size_t *out_len, int url)
{
    int       c;
    size_t    i, n, rem, pad;
    uint32_t  v;

    pad = 0;

    if (!url && len % 4 == 0) {
        while (pad < 2 && len > 0 && src[len - 1] == '=') {
            len--;
            pad++;
        }
    }

    rem = len % 4;

    /* one leftover character cannot hold a byte; padding must fit */
    if (rem == 1 || (pad > 0 && rem + pad != 4)) {
        return -1;
    }

    n = len / 4 * 3 + (rem ? rem - 1 : 0);
    if (n > cap) {
        return -1;
    }

    v = 0;
    n = 0;

    for (i = 0; i < len; i++) {
        c = behave_base64_value(src[i], url);
        if (c < 0) {
            return -1;
        }

        v = v << 6 | (uint32_t) c;

        if (i % 4 == 3) {
            dst[n++] = (unsigned char) (v >> 16);
            dst[n++] = (unsigned char) (v >> 8);
            dst[n++] = (unsigned char) v;
            v = 0;
        }
    }

    /* a tail must leave its unused low bits zero: one spelling per value */
    if (rem == 2) {
        if (v & 0x0f) {
            return -1;
        }

        dst[n++] = (unsigned char) (v >> 4);

    } else if (rem == 3) {
        if (v & 0x03) {
            return -1;
        }

        dst[n++] = (unsigned char) (v >> 10);
        dst[n++] = (unsigned char) (v >> 2);
    }

    *out_len = n;

    return 0;
}


static int
behave_base64_value(char c, int url)
{
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }

    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
    }

    if (c >= '0' && c <= '9') {
        return c - '0' + 52;
    }

    if (c == (url ? '-' : '+')) {
        return 62;
    }

    if (c == (url ? '_' : '/')) {
        return 63;
    }

    return -1;
}


static int
behave_secretbox_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}


