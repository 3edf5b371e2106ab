/*
 * Copyright (C) ngx_http_behave_module authors
 */


#include "behave_hex.h"


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
