/*
 * Stored turn: encode/decode round trip (tabs, newlines, UTF-8, empty
 * text), too small a buffer, and garbage that must be rejected.
 */

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "conversation/behave_turn.h"


/* a turn with every field set away from its zero value */
static void
make(behave_turn_t *t, behave_speaker_e speaker, const char *text)
{
    memset(t, 0, sizeof(*t));
    t->speaker = speaker;
    t->text = text;
    t->text_len = strlen(text);
    t->valence_score = -0.625;
    t->valence = BEHAVE_VALENCE_NEGATIVE;
    t->urgency = BEHAVE_URGENCY_HIGH;
    t->load = BEHAVE_LOAD_OVERLOAD;
    t->cues = BEHAVE_CUE_RESOLUTION_CLAIM | BEHAVE_CUE_REPEAT_CONTACT;
    t->severity = 3;
    t->ts_ms = 1718000000123ULL;
}


static void
round_trip(const char *text, const char *name)
{
    char           buf[512];
    size_t         n;
    behave_turn_t  t, d;

    make(&t, BEHAVE_SPEAKER_AGENT, text);
    n = behave_turn_encode(&t, buf, sizeof(buf));
    ok(n > 0 && n <= behave_turn_encoded_max(&t), "%s: encoded", name);
    is_int(behave_turn_decode(buf, n, &d), 0, "%s: decoded", name);
    ok(d.text_len == t.text_len && memcmp(d.text, text, d.text_len) == 0,
       "%s: text unchanged", name);
    ok(d.speaker == t.speaker && d.valence == t.valence
       && d.urgency == t.urgency && d.load == t.load && d.cues == t.cues
       && d.severity == t.severity && d.ts_ms == t.ts_ms,
       "%s: fields unchanged", name);
    is_near(d.valence_score, t.valence_score, 0.0005, "%s: score", name);
}


static void
rejects(const char *s, const char *name)
{
    behave_turn_t  d;

    is_int(behave_turn_decode(s, strlen(s), &d), -1, "rejects %s", name);
}


static int
decodes(const char *s, behave_turn_t *d)
{
    return behave_turn_decode(s, strlen(s), d) == 0;
}


int
main(void)
{
    char           buf[512], bad[64];
    size_t         n;
    behave_turn_t  t, d;


    round_trip("It's still not working.", "plain");
    round_trip("tab\there\nnew line\r\nand\tmore\t\t", "tabs and newlines");
    round_trip("caf\xc3\xa9 \xe2\x82\xac 64.99 \xf0\x9f\x98\xa1", "UTF-8");
    round_trip("", "empty text");

    make(&t, BEHAVE_SPEAKER_CUSTOMER, "customer text");
    t.valence_score = 1.0;
    n = behave_turn_encode(&t, buf, sizeof(buf));
    ok(n > 0 && buf[3] == 'c', "customer speaker encoded as c");
    ok(behave_turn_decode(buf, n, &d) == 0
       && d.speaker == BEHAVE_SPEAKER_CUSTOMER && d.valence_score == 1.0,
       "customer, score 1 round trip");

    make(&t, BEHAVE_SPEAKER_AGENT, "0123456789");
    is_int(behave_turn_encode(&t, buf, 20), 0, "too small a buffer: 0");
    n = behave_turn_encode(&t, buf, sizeof(buf));
    is_int(behave_turn_encode(&t, bad, n), n,
           "exact size fits, without a NUL");

    /* b2: the meaning signature travels with the turn */
    make(&t, BEHAVE_SPEAKER_CUSTOMER, "where is my parcel");
    t.has_meaning = 1;
    for (n = 0; n < BEHAVE_MEANING_DIM; n++) {
        t.meaning[n] = (int8_t) (n * 9 - 128);
    }
    n = behave_turn_encode(&t, buf, sizeof(buf));
    ok(n > 0 && n <= behave_turn_encoded_max(&t) && memcmp(buf, "b2\t", 3) == 0,
       "a turn with a meaning is written as b2");
    ok(behave_turn_decode(buf, n, &d) == 0 && d.has_meaning
       && memcmp(d.meaning, t.meaning, sizeof(t.meaning)) == 0
       && d.text_len == t.text_len
       && memcmp(d.text, t.text, t.text_len) == 0,
       "b2 round trip: meaning and text unchanged");
    buf[50] = 'g';
    is_int(behave_turn_decode(buf, n, &d), -1, "b2: a bad hex digit");
    ok(decodes("b1\tc\t1\t0\t0\t0\t1\t0.000\t0\thi", &d) && !d.has_meaning,
       "b1 (an older build's turn) still reads, without a meaning");

    /* garbage */
    rejects("", "empty");
    rejects("hello world", "plain text");
    rejects("b3\tc\t1\t0\t0\t0\t1\t0.000\t0\thi", "another version");
    rejects("b2\tc\t1\t0\t0\t0\t1\t0.000\t0\thi", "b2 without meaning");
    rejects("b1\tx\t1\t0\t0\t0\t1\t0.000\t0\thi", "bad speaker");
    rejects("b1\tc\t-1\t0\t0\t0\t1\t0.000\t0\thi", "negative time");
    rejects("b1\tc\t1\t5\t0\t0\t1\t0.000\t0\thi", "severity 5");
    rejects("b1\tc\t1\t0\t9\t0\t1\t0.000\t0\thi", "urgency 9");
    rejects("b1\tc\t1\t0\t0\t4\t1\t0.000\t0\thi", "load 4");
    rejects("b1\tc\t1\t0\t0\t0\t4\t0.000\t0\thi", "valence 4");
    rejects("b1\tc\t1\t0\t0\t0\t1\t2.000\t0\thi", "score 2");
    rejects("b1\tc\t1\t0\t0\t0\t1\tnan\t0\thi", "score nan");
    rejects("b1\tc\t1\t0\t0\t0\t1\t0.\t0\thi", "score without decimals");
    rejects("b1\tc\t1\t0\t0\t0\t1\t0.000\tZZ\thi", "bad cues");
    rejects("b1\tc\t1\t0\t0\t0\t1\t0.000\t0", "missing text tab");
    rejects("b1\tc\t99999999999999999999999\t0\t0\t0\t1\t0.000\t0\thi",
            "time overflow");
    rejects("b1\tc\t1\t0\t0\t0\t1\t0.000\t0\t\xc3\x28", "invalid UTF-8");
    rejects("b1\tc\t1\t0\t0\t0\t1\t0.000\t0\t\xed\xa0\x80", "surrogate");
    rejects("b1\tc\t\t0\t0\t0\t1\t0.000\t0\thi", "empty field");
    rejects("b1\tc\t12345678901234567890\t0\t0\t0\t1\t0.000\t0\thi",
            "20 digits");
    rejects("b1\tc\t1\t0\t0\t0\t1\t-1.500\t0\thi", "score -1.5");
    rejects("b1\tc\t1\t0\t0\t0\t1\t0.1234567\t0\thi", "7 decimals");
    rejects("b1\tc\t1\t0\t0\t0\t1\t0.000\t123456789\thi", "9 hex digits");
    rejects("b1\tc\t1\t0\t0\t0\t1\t0.5x\t0\thi", "score with a letter");

    ok(decodes("b1\tc\t1234567890123456789\t4\t4\t3\t3\t-0.35\tffffffff\t",
               &d)
       && d.ts_ms == 1234567890123456789ull && d.severity == 4
       && d.valence_score > -0.3500001 && d.valence_score < -0.3499999
       && d.cues == 0xffffffffu && d.text_len == 0,
       "widest fields decode");
    ok(decodes("b1\tc\t1\t0\t0\t0\t0\t0.300\t0\tx", &d)
       && d.valence_score == 3 * 0.1,
       "scores read as they always were (0.300 as 3 * 0.1)");
    ok(decodes("b1\ta\t0\t0\t0\t0\t0\t1\t0\tx", &d)
       && d.speaker == BEHAVE_SPEAKER_AGENT && d.valence_score == 1.0
       && d.text_len == 1,
       "score without a point, agent");

    memcpy(bad, "b1\tc\t1\t0\t0\t0\t1\t0.000\t0\th\0i", 26);
    is_int(behave_turn_decode(bad, 26, &d), -1, "rejects a NUL in the text");
    is_int(behave_turn_decode(NULL, 0, &d), -1, "rejects NULL");

    /* every prefix of a valid element is rejected or decodes cleanly */
    make(&t, BEHAVE_SPEAKER_AGENT, "prefix test");
    n = behave_turn_encode(&t, buf, sizeof(buf));
    {
        size_t  k;
        int     fine = 1;

        for (k = 0; k < n; k++) {
            if (behave_turn_decode(buf, k, &d) == 0
                && d.text + d.text_len > buf + k)
            {
                fine = 0;
            }
        }
        ok(fine, "truncated elements never read past their end");
    }

    /* mutated elements, each in a buffer of its own size (ASan checks) */
    {
        int            fine = 1;
        char          *copy;
        unsigned       seed = 12345, i, k;

        make(&t, BEHAVE_SPEAKER_AGENT,
             "It is still not working, order #12345");
        n = behave_turn_encode(&t, buf, sizeof(buf));

        for (i = 0; i < 20000; i++) {
            copy = malloc(n);
            memcpy(copy, buf, n);

            for (k = 0; k < 1 + i % 4; k++) {
                seed = seed * 1103515245u + 12345u;
                copy[(seed >> 8) % n] = (char) (seed >> 20);
            }

            if (behave_turn_decode(copy, n - i % 7, &d) == 0
                && (d.severity < 0 || d.severity > 4
                    || d.valence_score < -1.0 || d.valence_score > 1.0
                    || d.text < copy || d.text + d.text_len > copy + n))
            {
                fine = 0;
            }

            free(copy);
        }

        ok(fine, "20,000 mutated elements decode in range or are rejected");
    }

    return tap_done();
}
