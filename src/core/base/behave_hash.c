/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Hashing: see behave_hash.h.
 */

#include "base/behave_hash.h"
#include "base/behave_keys.h"               /* behave_key_hash */


/*
 * analyze-behavior hashes every call's session id into its key: the
 * low-level hash behave_key_hash() uses gives the same digest without
 * EVP_Digest()'s look-up of the algorithm on every call (~6k instructions
 * a call, more than the hash of a short id).
 */
int
behave_sha256_hex(const char *data, size_t len,
    char out[BEHAVE_SHA256_HEX_SIZE])
{
    size_t         i;
    unsigned char  md[32];

    static const char  hex[] = "0123456789abcdef";

    behave_key_hash(data, len, md);

    for (i = 0; i < 32; i++) {
        out[2 * i] = hex[md[i] >> 4];
        out[2 * i + 1] = hex[md[i] & 0x0f];
    }

    out[64] = '\0';

    return 0;
}
