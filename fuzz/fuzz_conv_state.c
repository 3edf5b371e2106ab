/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A conversation's stored state (behave_conv_state.h) as Redis hands it
 * back: it may be corrupt or from another version.  A state that decodes
 * is assessed against a fixed turn, and encodes and decodes to the same
 * stored form.
 */

#include "fuzz.h"
#include "conversation/behave_conv_state.h"
#include "conversation/behave_conversation.h"


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char                   buf[BEHAVE_CONV_STATE_MAX];
    char                   again[BEHAVE_CONV_STATE_MAX];
    size_t                 len, len2;
    behave_turn_t          current;
    behave_conv_rec_t      rec;
    behave_annotation_t    ann;
    behave_conv_state_t    st, back;
    behave_conv_result_t   res;

    if (behave_conv_state_decode((const char *) data, size, &st) != 0) {
        return 0;
    }

    behave_annotate("you said it was fixed, it is still broken", 41, &ann);
    behave_turn_from_annotation(&current, BEHAVE_SPEAKER_CUSTOMER,
                                "you said it was fixed, it is still broken",
                                41, &ann, (uint64_t) FUZZ_NOW_MS);
    behave_conversation_record(&current, &rec);
    behave_conversation_assess_state(&st, &rec, &res);
    FUZZ_CHECK(res.peak_severity >= 0 && res.peak_severity <= 4);

    len = behave_conv_state_encode(&st, buf);
    FUZZ_CHECK(len <= BEHAVE_CONV_STATE_MAX);
    FUZZ_CHECK(behave_conv_state_decode(buf, len, &back) == 0);
    len2 = behave_conv_state_encode(&back, again);
    FUZZ_CHECK(len2 == len && memcmp(buf, again, len) == 0);

    behave_conv_state_push(&back, &rec);

    return 0;
}
