/*
 * Trigram similarity: identity, normalisation, containment of a short
 * question inside a longer turn, unrelated texts, empty input.
 */

#include <string.h>

#include "tap.h"
#include "text/behave_similarity.h"


static double
sim(const char *a, const char *b, behave_similarity_t *s)
{
    return behave_similarity(a, strlen(a), b, strlen(b), s);
}


int
main(void)
{
    double               x;
    behave_similarity_t  s;
    char                 big[8192];


    is_near(sim("Where is my parcel?", "Where is my parcel?", &s), 1.0, 1e-9,
            "identical texts score 1");
    is_near(sim("WHERE is my parcel??", "where is my parcel", &s), 1.0, 1e-9,
            "case and punctuation do not count");
    is_near(sim("I don't know", "I dont know", &s), 1.0, 1e-9,
            "apostrophes are dropped");
    is_near(sim("I don\xe2\x80\x99t know", "I dont know", &s), 1.0, 1e-9,
            "typographic apostrophe too");

    x = sim("When will it arrive?",
            "Sorry, I am lost with all that jargon. When will it arrive?", &s);
    ok(s.containment > 0.95, "short question contained in a longer turn "
       "(containment %.2f)", s.containment);
    ok(s.jaccard < 0.5, "while jaccard stays low (%.2f)", s.jaccard);
    ok(x > 0.8, "score uses the containment (%.2f)", x);

    x = sim("How do I reset my password?", "What time do you open on Sunday?",
            &s);
    ok(x < 0.3, "unrelated questions score low (%.2f)", x);

    x = sim("", "anything", &s);
    is_near(x, 0.0, 1e-9, "empty text scores 0");
    x = sim("", "", &s);
    is_near(x, 0.0, 1e-9, "two empty texts score 0");

    x = sim("caf\xc3\xa9 ouvert", "caf\xc3\xa9 ouvert", &s);
    is_near(x, 1.0, 1e-9, "UTF-8 text compares");

    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    x = sim(big, "aaa", &s);
    ok(x >= 0.0 && x <= 1.0, "very long text stays in range (%.2f)", x);

    return tap_done();
}
