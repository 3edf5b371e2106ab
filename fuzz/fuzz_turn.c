/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * One stored turn record (behave_turn.h), as Redis hands it back: it may
 * be corrupt or from another version.  A record that decodes must encode
 * again and decode to the same turn.
 */

#include <math.h>

#include "fuzz.h"
#include "conversation/behave_turn.h"
#include "base/behave_utf8.h"


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char           *buf;
    size_t          max, len;
    behave_turn_t   t, back;

    if (behave_turn_decode((const char *) data, size, &t) != 0) {
        return 0;
    }

    FUZZ_CHECK(t.speaker == BEHAVE_SPEAKER_CUSTOMER
               || t.speaker == BEHAVE_SPEAKER_AGENT);
    FUZZ_CHECK(t.severity >= 0 && t.severity <= 4);
    FUZZ_CHECK(t.valence_score >= -1.0 && t.valence_score <= 1.0);
    FUZZ_CHECK(t.text >= (const char *) data
               && t.text + t.text_len == (const char *) data + size);
    FUZZ_CHECK(behave_utf8_valid_text((const unsigned char *) t.text,
                                      t.text_len));

    max = behave_turn_encoded_max(&t);
    FUZZ_CHECK(max >= t.text_len);

    /* exactly the bound: the encoder must not write past it */
    buf = malloc(max);
    FUZZ_CHECK(buf != NULL);
    len = behave_turn_encode(&t, buf, max);
    FUZZ_CHECK(len > 0 && len <= max);

    FUZZ_CHECK(behave_turn_decode(buf, len, &back) == 0);
    FUZZ_CHECK(back.speaker == t.speaker);
    FUZZ_CHECK(back.ts_ms == t.ts_ms);
    FUZZ_CHECK(back.severity == t.severity);
    FUZZ_CHECK(back.urgency == t.urgency);
    FUZZ_CHECK(back.load == t.load);
    FUZZ_CHECK(back.valence == t.valence);
    FUZZ_CHECK(back.cues == t.cues);
    FUZZ_CHECK(fabs(back.valence_score - t.valence_score) <= 0.0005 + 1e-9);
    FUZZ_CHECK(back.has_meaning == t.has_meaning
               || t.speaker == BEHAVE_SPEAKER_AGENT);
    FUZZ_CHECK(!back.has_meaning
               || memcmp(back.meaning, t.meaning, sizeof(t.meaning)) == 0);
    FUZZ_CHECK(back.text_len == t.text_len);
    FUZZ_CHECK(memcmp(back.text, t.text, t.text_len) == 0);

    /* one byte short: refused, never an overflow */
    FUZZ_CHECK(behave_turn_encode(&t, buf, len - 1) == 0);

    free(buf);

    return 0;
}
