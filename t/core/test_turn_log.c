/*
 * The turn log (one Redis string per conversation): records, header,
 * the newest max read back with their conversation-wide numbers, trim
 * arguments, and values that are corrupt or cut short.
 */

#include <string.h>

#include "tap.h"
#include "conversation/behave_turn_log.h"


static size_t
append(char *log, size_t len, const char *text, behave_speaker_e who)
{
    behave_turn_t  t;
    size_t         n;

    memset(&t, 0, sizeof(t));
    t.speaker = who;
    t.text = text;
    t.text_len = strlen(text);
    t.ts_ms = 1718000000000ULL + len;

    n = behave_turn_encode(&t, log + len, 4096 - len);
    n = behave_turn_log_record(log + len, n, 4096 - len);

    return len + n;
}


/* opens v and checks what the header and the records say */
static void
opened(behave_turn_log_t *log, const char *v, size_t len, uint64_t dropped,
    size_t records, const char *name)
{
    behave_turn_log_open(log, v, len);
    is_int(log->dropped, dropped, "%s: %llu dropped", name,
           (unsigned long long) dropped);
    is_int(log->records, records, "%s: %zu records", name, records);
}


int
main(void)
{
    char               v[4096], header[BEHAVE_TURN_LOG_HEADER_MAX];
    size_t             len, n, guard, cut, hlen, i;
    uint64_t           first;
    behave_turn_t      out[8];
    behave_turn_log_t  log;

    opened(&log, NULL, 0, 0, 0, "no value");

    len = 0;
    len = append(v, len, "zero", BEHAVE_SPEAKER_CUSTOMER);
    len = append(v, len, "one\twith a tab\nand a newline",
                 BEHAVE_SPEAKER_AGENT);
    len = append(v, len, "two \xc3\xa9", BEHAVE_SPEAKER_CUSTOMER);

    opened(&log, v, len, 0, 3, "three turns");

    n = behave_turn_log_tail(&log, 8, out, &first);
    is_int(n, 3, "all three read back");
    is_int(first, 0, "the first is turn 0");
    ok(out[1].speaker == BEHAVE_SPEAKER_AGENT && out[1].text_len == 28
       && memcmp(out[1].text, "one\twith a tab\nand a newline", 28) == 0,
       "tabs and newlines survive in a record");

    n = behave_turn_log_tail(&log, 2, out, &first);
    is_int(n, 2, "max 2: two read back");
    is_int(first, 1, "max 2: they are turns 1 and 2");
    ok(out[1].text_len == 6 && memcmp(out[1].text, "two \xc3\xa9", 6) == 0,
       "the newest is last");

    /* a header counts trimmed turns */
    memcpy(header, "d40\xff", 4);
    memmove(v + 4, v, len);
    memcpy(v, header, 4);
    len += 4;
    opened(&log, v, len, 40, 3, "header");
    n = behave_turn_log_tail(&log, 2, out, &first);
    is_int(first, 41, "header: numbering goes on from 40");

    /* a bad header is no header: its bytes are one undecodable record */
    v[1] = 'x';
    opened(&log, v, len, 0, 4, "bad header, read as a record");
    n = behave_turn_log_tail(&log, 8, out, &first);
    is_int(n, 3, "bad header: skipped by the decoder");
    v[1] = '4';

    /* a value cut in the middle of a record */
    behave_turn_log_open(&log, v, len - 3);
    is_int(log.records, 2, "cut short: the partial record is ignored");

    /* trim: not before max + max / 2 records */
    behave_turn_log_open(&log, v, len);
    ok(!behave_turn_log_trim_args(&log, 4, &guard, &cut, header, &hlen),
       "3 + 1 records, max 4: no trim");
    ok(!behave_turn_log_trim_args(&log, 3, &guard, &cut, header, &hlen),
       "3 + 1 records, max 3: no trim yet (slack)");
    ok(behave_turn_log_trim_args(&log, 2, &guard, &cut, header, &hlen),
       "3 + 1 records, max 2: trim");
    is_int(guard, len < BEHAVE_TURN_LOG_GUARD ? len : BEHAVE_TURN_LOG_GUARD,
           "the guard is the front of the value");
    ok(hlen == 4 && memcmp(header, "d42\xff", 4) == 0,
       "new header: 40 + 2 dropped");

    /* after the trim, the newest two remain */
    {
        char    t[4096];
        size_t  tl;

        tl = hlen;
        memcpy(t, header, hlen);
        memcpy(t + tl, v + cut, len - cut);
        tl += len - cut;
        tl = append(t, tl, "three", BEHAVE_SPEAKER_CUSTOMER);

        behave_turn_log_open(&log, t, tl);
        is_int(log.records, 2, "trimmed: two records left");
        n = behave_turn_log_tail(&log, 8, out, &first);
        is_int(first, 42, "trimmed: the oldest left is turn 42");
        ok(n == 2 && out[1].text_len == 5
           && memcmp(out[1].text, "three", 5) == 0,
           "trimmed: the new turn is the newest");
        is_int(log.dropped + log.records, 44, "every turn still counted");
    }

    /* a record may not hold the separator: garbage never decodes */
    for (i = 0; i < 64; i++) {
        v[i] = (char) (0xff - i);
    }
    behave_turn_log_open(&log, v, 64);
    n = behave_turn_log_tail(&log, 8, out, &first);
    is_int(n, 0, "garbage: nothing decodes");

    return tap_done();
}
