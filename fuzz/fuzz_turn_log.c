/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A conversation's turn log as Redis hands it back (behave_turn_log.h),
 * then what a request does with it: the newest turns decoded, the
 * conversation assessed over them, the trim arguments computed.  The
 * first byte is the number of turns asked for.
 */

#include "fuzz.h"
#include "conversation/behave_turn_log.h"
#include "conversation/behave_conversation.h"


#define FUZZ_TAIL_MAX  64


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char                   header[BEHAVE_TURN_LOG_HEADER_MAX];
    size_t                 max, n, i, guard, cut, hlen;
    uint64_t               first;
    behave_turn_t          turns[FUZZ_TAIL_MAX], current;
    behave_turn_log_t      log;
    behave_annotation_t    ann;
    behave_conv_result_t   res;

    if (size == 0) {
        return 0;
    }

    max = data[0] % (FUZZ_TAIL_MAX + 1);
    data++;
    size--;

    behave_turn_log_open(&log, (const char *) data, size);
    FUZZ_CHECK(log.body <= size);

    n = behave_turn_log_tail(&log, max, turns, &first);
    FUZZ_CHECK(n <= max && n <= log.records);

    for (i = 0; i < n; i++) {
        FUZZ_CHECK(turns[i].text >= (const char *) data
                   && turns[i].text + turns[i].text_len
                      <= (const char *) data + size);
        FUZZ_CHECK(memchr(turns[i].text, BEHAVE_TURN_LOG_SEP,
                          turns[i].text_len) == NULL);
    }

    behave_annotate("you said it was fixed, it is still broken", 41, &ann);
    behave_turn_from_annotation(&current, BEHAVE_SPEAKER_CUSTOMER,
                                "you said it was fixed, it is still broken",
                                41, &ann, (uint64_t) FUZZ_NOW_MS);

    behave_conversation_assess(turns, n, &current, &res);
    FUZZ_CHECK(res.peak_severity >= 0 && res.peak_severity <= 4);
    FUZZ_CHECK(strlen(res.reason) < sizeof(res.reason));

    if (behave_turn_log_trim_args(&log, max ? max : 1, &guard, &cut, header,
                                  &hlen))
    {
        FUZZ_CHECK(guard <= BEHAVE_TURN_LOG_GUARD && guard <= size);
        FUZZ_CHECK(cut <= size && cut >= log.body);
        FUZZ_CHECK(hlen <= BEHAVE_TURN_LOG_HEADER_MAX);
    }

    return 0;
}
