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
#include "behave_annotate.h"
#include "behave_conversation.h"
#include "behave_model.h"


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


static void
test_cosine(void)
{
    int8_t    a[BEHAVE_MEANING_DIM], b[BEHAVE_MEANING_DIM],
              z[BEHAVE_MEANING_DIM];
    unsigned  i;

    for (i = 0; i < BEHAVE_MEANING_DIM; i++) {
        a[i] = (int8_t) ((int) (i * 37 % 255) - 127);
        b[i] = (int8_t) -a[i];
        z[i] = 0;
    }

    is_near(behave_meaning_cosine(a, a), 1.0, 1e-9, "cosine of itself 1");
    is_near(behave_meaning_cosine(a, b), -1.0, 1e-9, "of its opposite -1");
    is_near(behave_meaning_cosine(a, z), 0.0, 1e-9,
            "an empty signature (nothing read) is like nothing");
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
    (void) tap_is_str;
    (void) tap_todo;
    (void) tap_skip;

    test_cosine();
    test_pairs();
    test_conversation();

    return tap_done();
}
