/*
 * Copyright (C) ngx_http_behave_module authors
 */


#include "base/behave_siphash.h"


#define BEHAVE_ROTL(x, b)  (uint64_t) (((x) << (b)) | ((x) >> (64 - (b))))

#define BEHAVE_SIPROUND(v0, v1, v2, v3)                                      \
    do {                                                                      \
        v0 += v1; v1 = BEHAVE_ROTL(v1, 13); v1 ^= v0;                         \
        v0 = BEHAVE_ROTL(v0, 32);                                             \
        v2 += v3; v3 = BEHAVE_ROTL(v3, 16); v3 ^= v2;                         \
        v0 += v3; v3 = BEHAVE_ROTL(v3, 21); v3 ^= v0;                         \
        v2 += v1; v1 = BEHAVE_ROTL(v1, 17); v1 ^= v2;                         \
        v2 = BEHAVE_ROTL(v2, 32);                                             \
    } while (0)


static uint64_t behave_siphash_le64(const unsigned char *p);


static uint64_t
behave_siphash_le64(const unsigned char *p)
{
    return (uint64_t) p[0] | (uint64_t) p[1] << 8 | (uint64_t) p[2] << 16
           | (uint64_t) p[3] << 24 | (uint64_t) p[4] << 32
           | (uint64_t) p[5] << 40 | (uint64_t) p[6] << 48
           | (uint64_t) p[7] << 56;
}


uint64_t
behave_siphash(const unsigned char key[BEHAVE_SIPHASH_KEY_SIZE],
    const void *data, size_t len)
{
    size_t                i, left;
    uint64_t              k0, k1, v0, v1, v2, v3, m, b;
    const unsigned char  *p;

    p = data;
    k0 = behave_siphash_le64(key);
    k1 = behave_siphash_le64(key + 8);

    v0 = k0 ^ 0x736f6d6570736575ULL;
    v1 = k1 ^ 0x646f72616e646f6dULL;
    v2 = k0 ^ 0x6c7967656e657261ULL;
    v3 = k1 ^ 0x7465646279746573ULL;

    for (i = 0; i + 8 <= len; i += 8) {
        m = behave_siphash_le64(p + i);
        v3 ^= m;
        BEHAVE_SIPROUND(v0, v1, v2, v3);
        BEHAVE_SIPROUND(v0, v1, v2, v3);
        v0 ^= m;
    }

    /* the last 0..7 bytes, and the length's low byte on top */
    b = (uint64_t) len << 56;
    left = len - i;

    while (left > 0) {
        left--;
        b |= (uint64_t) p[i + left] << (8 * left);
    }

    v3 ^= b;
    BEHAVE_SIPROUND(v0, v1, v2, v3);
    BEHAVE_SIPROUND(v0, v1, v2, v3);
    v0 ^= b;

    v2 ^= 0xff;
    BEHAVE_SIPROUND(v0, v1, v2, v3);
    BEHAVE_SIPROUND(v0, v1, v2, v3);
    BEHAVE_SIPROUND(v0, v1, v2, v3);
    BEHAVE_SIPROUND(v0, v1, v2, v3);

    return v0 ^ v1 ^ v2 ^ v3;
}
