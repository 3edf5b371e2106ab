/*
 * The meaning signature (behave_model.c, trained by scripts/train): the
 * cosine itself, and on the trained tables that two asks of one intent
 * in other words come out close, two asks of different intents that
 * share only their frame ("how do I", "can you tell me") do not (the
 * signature is centred), and that a conversation flags a re-ask in
 * other words by meaning alone.
 */

#include <string.h>

#include "tap.h"
#include "convtest.h"
#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"
#include "conversation/behave_conv_asks.h"
#include "text/behave_model.h"


typedef struct {
    const char  *a;
    const char  *b;
    int          same;
} meaning_case_t;


static const meaning_case_t  cases[] = {
    { "how do I reset my PIN?",
      "I forgot my card's PIN, how can I change it?", 1 },
    { "where is my parcel? it still hasn't arrived",
      "my order never came, when will it be delivered?", 1 },
    { "I was charged twice for the same order",
      "why is there a double payment on my card for one purchase", 1 },
    { "I need a refund for the broken headphones",
      "my refund for the faulty headphones hasn't come through", 1 },
    { "how do I reset my PIN?", "how do I cancel my subscription?", 0 },
    { "where is my parcel? it still hasn't arrived",
      "I was charged twice for the same order", 0 },
    { "can you tell me how to change my address",
      "can you tell me what the weather is", 0 },
    { "what is my account balance", "what time is it in Tokyo", 0 },
};


static double
cosine_of(const char *a, const char *b)
{
    behave_annotation_t  x, y;

    behave_annotate(a, strlen(a), &x);
    behave_annotate(b, strlen(b), &y);

    return behave_meaning_cosine(x.meaning, y.meaning);
}


/* a signature of the given axes (-8 .. 7), the rest 0, packed */
static void
pack(int8_t *s, const int *axes, unsigned n)
{
    unsigned  i, b;

    memset(s, 0, BEHAVE_MEANING_DIM);

    for (i = 0; i < n; i++) {
        b = (unsigned) axes[i] & 0x0f;
        s[i >> 1] = (int8_t) ((uint8_t) s[i >> 1] | (b << ((i & 1) * 4)));
    }
}


static void
test_cosine(void)
{
    int       va[BEHAVE_MEANING_AXES], vb[BEHAVE_MEANING_AXES], same;
    int8_t    a[BEHAVE_MEANING_DIM], b[BEHAVE_MEANING_DIM],
              z[BEHAVE_MEANING_DIM];
    unsigned  i;

    static const int  x[2] = { 3, 4 }, y[2] = { 4, 3 }, o[3] = { 0, 0, -8 };

    for (i = 0; i < BEHAVE_MEANING_AXES; i++) {
        va[i] = (int) (i * 5 % 15) - 7;
        vb[i] = -va[i];
    }

    pack(a, va, BEHAVE_MEANING_AXES);
    pack(b, vb, BEHAVE_MEANING_AXES);
    memset(z, 0, sizeof(z));

    same = 1;
    for (i = 0; i < BEHAVE_MEANING_AXES; i++) {
        same &= behave_meaning_axis(a, i) == va[i]
                && behave_meaning_axis(b, i) == vb[i];
    }

    ok(same, "4-bit axes read back signed, low nibble first");

    is_near(behave_meaning_cosine(a, a), 1.0, 1e-9, "cosine of itself 1");
    is_near(behave_meaning_cosine(a, b), -1.0, 1e-9, "of its opposite -1");
    is_near(behave_meaning_cosine(a, z), 0.0, 1e-9,
            "an empty signature (nothing read) is like nothing");

    pack(a, x, 2);
    pack(b, y, 2);
    is_near(behave_meaning_cosine(a, b), 24.0 / 25, 1e-9,
            "(3,4) against (4,3): 24/25");

    pack(b, o, 3);
    is_near(behave_meaning_cosine(a, b), 0.0, 1e-9,
            "orthogonal axes: 0 (and -8 reads as -8)");
    is_int(behave_meaning_axis(b, 2), -8, "the low nibble of byte 1");
}


static void
test_scale(void)
{
    int                  top, v;
    unsigned             i;
    behave_annotation_t  a;

    behave_annotate("how do I reset my PIN?", 22, &a);

    top = 0;
    for (i = 0; i < BEHAVE_MEANING_AXES; i++) {
        v = behave_meaning_axis(a.meaning, i);
        top = v > top ? v : (-v > top ? -v : top);
    }

    is_int(top, BEHAVE_MEANING_MAX, "a signature's largest axis is +-7");
}


static void
test_pairs(void)
{
    size_t   i;
    double   c;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        c = cosine_of(cases[i].a, cases[i].b);
        ok(cases[i].same ? c >= BEHAVE_CONV_MEANING_REPEAT
                         : c < BEHAVE_CONV_MEANING_REPEAT,
           "%s (%.3f): \"%s\" / \"%s\"",
           cases[i].same ? "same ask" : "different asks", c,
           cases[i].a, cases[i].b);
    }
}


static void
test_conversation(void)
{
    behave_turn_t          tv[3];
    behave_conv_result_t   r;

    turn(&tv[0], BEHAVE_SPEAKER_CUSTOMER, "how do I reset my PIN?", 0);
    turn(&tv[1], BEHAVE_SPEAKER_AGENT,
         "You'll find everything in the app's settings.", 1);
    turn(&tv[2], BEHAVE_SPEAKER_CUSTOMER,
         "I forgot my card's PIN, how can I change it?", 2);
    behave_conversation_assess(tv, 2, &tv[2], &r);
    is_int(r.repetition, 1, "the same ask in other words is a repetition");

    turn(&tv[2], BEHAVE_SPEAKER_CUSTOMER,
         "and how do I cancel my subscription?", 2);
    behave_conversation_assess(tv, 2, &tv[2], &r);
    is_int(r.repetition, 0, "another ask in the same frame is not");
}


int
main(void)
{
    test_cosine();
    test_scale();
    test_pairs();
    test_conversation();

    return tap_done();
}
