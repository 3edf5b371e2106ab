/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The UTF-8 checks against a plain reference decoder (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), and the
 * tokenizer's sequence decoder against the same reference at every
 * offset.
 */

#include "fuzz.h"
#include "behave_utf8.h"
#include "behave_tokenize.h"


/* the length of the valid sequence at p, or 0; *cp its code point */
static size_t
fuzz_utf8_ref(const uint8_t *p, const uint8_t *end, uint32_t *cp)
{
    size_t    n, i;
    uint32_t  c, min;

    if (p[0] < 0x80) {
        *cp = p[0];
        return 1;
    }

    if (p[0] >= 0xc0 && p[0] < 0xe0) {
        n = 2; c = p[0] & 0x1f; min = 0x80;
    } else if (p[0] >= 0xe0 && p[0] < 0xf0) {
        n = 3; c = p[0] & 0x0f; min = 0x800;
    } else if (p[0] >= 0xf0 && p[0] < 0xf8) {
        n = 4; c = p[0] & 0x07; min = 0x10000;
    } else {
        return 0;
    }

    if ((size_t) (end - p) < n) {
        return 0;
    }

    for (i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            return 0;
        }
        c = (c << 6) | (p[i] & 0x3f);
    }

    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
        return 0;
    }

    *cp = c;
    return n;
}


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int              valid, nul;
    size_t           i, n, m;
    uint32_t         cp, cp2;
    const uint8_t   *end;

    end = data + size;
    valid = 1;
    nul = 0;

    for (i = 0; i < size; i += n) {
        n = fuzz_utf8_ref(data + i, end, &cp);
        if (n == 0) {
            valid = 0;
            break;
        }
        nul |= cp == 0;
    }

    FUZZ_CHECK(behave_utf8_valid(data, size) == valid);
    FUZZ_CHECK(behave_utf8_valid_text(data, size) == (valid && !nul));

    for (i = 0; i < size; i++) {
        n = fuzz_utf8_ref(data + i, end, &cp);
        m = behave_utf8_decode(data + i, end, &cp2);
        FUZZ_CHECK(m == n);
        FUZZ_CHECK(n == 0 || cp == cp2);
    }

    return 0;
}
