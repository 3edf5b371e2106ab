/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Webhook signing secrets at rest, and the random names of endpoints.
 *
 * A secret is sealed with AES-256-GCM under a 32-byte master key into one
 * printable record:
 *
 *     "v1:" base64(nonce[12] | ciphertext | tag[16])
 *
 * with a fresh random nonce per record.  The caller may bind the record to
 * its owner through aad (the endpoint id, say), so a record copied onto
 * another endpoint does not open.  Opening fails closed: a wrong key, a
 * wrong aad, a truncated or edited record all give -1 and no plaintext.
 *
 * The master key file holds 64 hex digits, as "openssl rand -hex 32"
 * writes them; surrounding whitespace (the trailing newline) is allowed.
 *
 * Nothing here logs; callers must not log plaintext secrets either.
 */

#ifndef BEHAVE_SECRETBOX_H
#define BEHAVE_SECRETBOX_H

#include <stddef.h>


#define BEHAVE_MASTER_KEY_LEN       32
#define BEHAVE_SECRETBOX_PREFIX     "v1:"
#define BEHAVE_SECRETBOX_NONCE_LEN  12
#define BEHAVE_SECRETBOX_TAG_LEN    16

/* longest secret we seal: provider secrets are well under 200 bytes */
#define BEHAVE_SECRETBOX_PLAIN_MAX  1024

/* bytes of base64 text for n bytes, with padding (url: without) */
#define BEHAVE_BASE64_LEN(n)        ((((n) + 2) / 3) * 4)
#define BEHAVE_BASE64URL_LEN(n)     (((n) * 4 + 2) / 3)

/* slugs carry 144 random bits: 24 URL-safe base64 characters */
#define BEHAVE_SLUG_BYTES           18
#define BEHAVE_SLUG_SIZE                                                    \
    (BEHAVE_BASE64URL_LEN(BEHAVE_SLUG_BYTES) + 1)

/* ids are "<prefix>_" and 32 hex digits (128 random bits) */
#define BEHAVE_RANDOM_ID_BYTES      16


/* buffer size for a sealed record of a plain_len-byte secret, with NUL */
size_t behave_secretbox_sealed_size(size_t plain_len);

/*
 * Seals plain[0..len) (1..BEHAVE_SECRETBOX_PLAIN_MAX bytes) into out as
 * a NUL-terminated record; *out_len (may be NULL) gets its length.
 * aad may be NULL when aad_len is 0.  Returns 0, or -1 (bad length, out
 * too small, no randomness).
 */
int behave_secretbox_seal(const unsigned char key[BEHAVE_MASTER_KEY_LEN],
    const char *plain, size_t len, const char *aad, size_t aad_len,
    char *out, size_t cap, size_t *out_len);

/*
 * Opens a record made by behave_secretbox_seal() with the same key and
 * aad.  Writes the secret and a NUL into out (cap >= rec_len is always
 * enough) and its length into *out_len (may be NULL).  Returns 0, or -1
 * with out wiped.
 */
int behave_secretbox_open(const unsigned char key[BEHAVE_MASTER_KEY_LEN],
    const char *rec, size_t rec_len, const char *aad, size_t aad_len,
    char *out, size_t cap, size_t *out_len);

/*
 * Parses the master key file text: 64 hex digits, whitespace around them
 * allowed.  An all-zero key is refused (a placeholder, not a key).
 * Returns 0, or -1 with out wiped.
 */
int behave_master_key_parse(const char *text, size_t len,
    unsigned char out[BEHAVE_MASTER_KEY_LEN]);

/*
 * A receiver URL slug: BEHAVE_SLUG_BYTES from RAND_bytes() in URL-safe
 * base64 without padding, NUL-terminated; cap >= BEHAVE_SLUG_SIZE.
 * Returns 0, or -1.
 */
int behave_random_slug(char *out, size_t cap);

/*
 * An id "<prefix>_<32 lowercase hex>", e.g. prefix "wh" gives
 * "wh_3f0c...".  The prefix is copied as is (ids are not secret, only
 * unique).  cap >= strlen(prefix) + 2 + 2 * BEHAVE_RANDOM_ID_BYTES.
 * Returns 0, or -1.
 */
int behave_random_id(const char *prefix, char *out, size_t cap);

/*
 * RFC 4648 base64, the standard alphabet with padding, or with url set
 * the URL-safe alphabet without padding.  encode writes
 * BEHAVE_BASE64_LEN(len) (url: BEHAVE_BASE64URL_LEN(len)) characters and
 * a NUL, returns the characters written.  decode accepts the chosen
 * alphabet only, padding optional but correct when present, and no
 * whitespace; returns 0 with *out_len set, or -1.
 */
size_t behave_base64_encode(const unsigned char *src, size_t len, char *dst,
    int url);
int behave_base64_decode(const char *src, size_t len, unsigned char *dst,
    size_t cap, size_t *out_len, int url);


#endif /* BEHAVE_SECRETBOX_H */
