/*
 * Copyright (C) ngx_http_behave_module authors
 */


#include "base/behave_hex.h"


int
behave_hex_field(const char *s, size_t n, uint32_t *out)
{
    size_t    i;
    uint32_t  v;

    v = 0;

    for (i = 0; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            v = v << 4 | (uint32_t) (s[i] - '0');

        } else if (s[i] >= 'a' && s[i] <= 'f') {
            v = v << 4 | (uint32_t) (s[i] - 'a' + 10);

        } else {
            return -1;
        }
    }

    *out = v;

    return 0;
}


int
behave_hex_bytes(const char *p, size_t len, unsigned char *out)
{
    int     hi, lo;
    size_t  i;

    if (len % 2) {
        return -1;
    }

    for (i = 0; i < len; i += 2) {
        hi = behave_hex_digit(p[i]);
        lo = behave_hex_digit(p[i + 1]);

        if (hi < 0 || lo < 0) {
            return -1;
        }

        out[i / 2] = (unsigned char) (hi << 4 | lo);
    }

    return 0;
}
