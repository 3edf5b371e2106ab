/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <stdint.h>
#include <string.h>
#include "base/behave_utf8.h"


static inline int behave_utf8_check(const unsigned char *p, size_t len, int nul_ok);
static size_t behave_utf8_seq_len(const unsigned char *p, size_t left);


int
behave_utf8_valid(const unsigned char *p, size_t len)
{
    return behave_utf8_check(p, len, 1);
}


int
behave_utf8_valid_text(const unsigned char *p, size_t len)
{
    return behave_utf8_check(p, len, 0);
}


int
behave_ascii_name_valid(const char *s, size_t len, size_t max,
    const char *punct)
{
    size_t  i;
    char    c;

    if (len == 0 || len > max) {
        return 0;
    }

    for (i = 0; i < len; i++) {
        c = s[i];

        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || (c >= '0' && c <= '9')
            || (c != '\0' && strchr(punct, c) != NULL))  /* not its end */
        {
            continue;
        }

        return 0;
    }

    return 1;
}


static inline int
behave_utf8_check(const unsigned char *p, size_t len, int nul_ok)
{
    size_t    i, n;
    uint64_t  w;

    i = 0;

    for ( ;; ) {

        /* eight ASCII bytes at a time (and no zero byte among them) */
        while (i + 8 <= len) {
            memcpy(&w, p + i, 8);

            if ((w & 0x8080808080808080ull) != 0
                || (!nul_ok
                    && ((w - 0x0101010101010101ull) & ~w
                        & 0x8080808080808080ull) != 0))
            {
                break;
            }

            i += 8;
        }

        if (i >= len) {
            return 1;
        }

        if (p[i] < 0x80) {
            if (p[i] == 0 && !nul_ok) {
                return 0;
            }
            i++;
            continue;
        }

        n = behave_utf8_seq_len(p + i, len - i);
        if (n == 0) {
            return 0;
        }

        i += n;
    }
}


/* length of the multi-byte sequence at p, 0 when it is malformed */

static size_t
behave_utf8_seq_len(const unsigned char *p, size_t left)
{
    unsigned char  c, lo, hi;
    size_t         n, k;

    c = p[0];
    lo = 0x80;
    hi = 0xbf;

    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;

    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0) {
            lo = 0xa0;                  /* overlong */
        } else if (c == 0xed) {
            hi = 0x9f;                  /* surrogates */
        }

    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0) {
            lo = 0x90;                  /* overlong */
        } else if (c == 0xf4) {
            hi = 0x8f;                  /* above U+10FFFF */
        }

    } else {
        return 0;
    }

    if (left < n || p[1] < lo || p[1] > hi) {
        return 0;
    }

    for (k = 2; k < n; k++) {
        if (p[k] < 0x80 || p[k] > 0xbf) {
            return 0;
        }
    }

    return n;
}
