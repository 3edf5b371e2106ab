/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The UTF-8 checks against a reference decoder written from the
 * Unicode Standard's table of well-formed sequences (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), and the
 * tokenizer's sequence decoder against the same reference at every
 * offset.
 */

#include "fuzz.h"
#include "base/behave_utf8.h"
#include "text/behave_tokenize.h"


/*
 * The well-formed byte sequences of the Unicode Standard's table 3-7, a
 * row a lead byte range: its length and the range of its second byte
 * (the others are all 80..BF).  Written from the table rather than from
 * the bit masks the code under test uses, so that the two can disagree.
 */
typedef struct {
    uint8_t  lead_lo, lead_hi;
    uint8_t  len;
    uint8_t  next_lo, next_hi;
} fuzz_utf8_row_t;

static const fuzz_utf8_row_t  fuzz_utf8_table[] = {
    { 0x00, 0x7f, 1, 0, 0 },
    { 0xc2, 0xdf, 2, 0x80, 0xbf },
    { 0xe0, 0xe0, 3, 0xa0, 0xbf },
    { 0xe1, 0xec, 3, 0x80, 0xbf },
    { 0xed, 0xed, 3, 0x80, 0x9f },
    { 0xee, 0xef, 3, 0x80, 0xbf },
    { 0xf0, 0xf0, 4, 0x90, 0xbf },
    { 0xf1, 0xf3, 4, 0x80, 0xbf },
    { 0xf4, 0xf4, 4, 0x80, 0x8f },
};


/* the length of the valid sequence at p, or 0; *cp its code point */
static size_t
fuzz_utf8_ref(const uint8_t *p, const uint8_t *end, uint32_t *cp)
{
    size_t                  r, i;
    uint32_t                c;
    const fuzz_utf8_row_t  *row;

    row = NULL;

    for (r = 0; r < sizeof(fuzz_utf8_table) / sizeof(fuzz_utf8_table[0]);
         r++)
    {
        if (p[0] >= fuzz_utf8_table[r].lead_lo
            && p[0] <= fuzz_utf8_table[r].lead_hi)
        {
            row = &fuzz_utf8_table[r];
            break;
        }
    }

    if (row == NULL || (size_t) (end - p) < row->len) {
        return 0;
    }

    if (row->len > 1 && (p[1] < row->next_lo || p[1] > row->next_hi)) {
        return 0;
    }

    for (i = 2; i < row->len; i++) {
        if (p[i] < 0x80 || p[i] > 0xbf) {
            return 0;
        }
    }

    /* the lead byte's payload bits, then 6 bits a continuation byte */
    c = row->len == 1 ? p[0] : p[0] & (0x7f >> row->len);

    for (i = 1; i < row->len; i++) {
        c = c * 64 + (p[i] - 0x80);
    }

    *cp = c;
    return row->len;
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
