/*
 * behave_annotate_part() is behave_annotate() less what its flags name:
 * without the meaning signature, every other byte of the annotation the
 * same; with the claims only, the same claim cues; over every turn of
 * two corpus files and a few texts of every kind (empty, symbols only, a
 * crisis, another language, claims and promises).
 */

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "text/behave_annotate.h"
#include "tools/behave_jsonl.h"
#include "tap.h"
#include "testdata.h"


#define TURNS_MAX  8000


static behave_jsonl_turn_t   turns[TURNS_MAX];
static behave_jsonl_turns_t  corpus = { turns, 0, TURNS_MAX };


/* 1 when part is whole without its signature, and the signature zero */
static int
same_but_meaning(const char *text)
{
    behave_annotation_t  whole, part;
    int8_t               zero[sizeof(whole.meaning)];

    /* both zeroed first: the padding compares too */
    memset(&whole, 0, sizeof(whole));
    memset(&part, 0, sizeof(part));
    memset(zero, 0, sizeof(zero));

    behave_annotate(text, strlen(text), &whole);
    behave_annotate_part(text, strlen(text), BEHAVE_ANNOT_NO_MEANING, &part);

    if (memcmp(part.meaning, zero, sizeof(zero)) != 0) {
        return 0;
    }

    memset(whole.meaning, 0, sizeof(whole.meaning));

    return memcmp(&whole, &part, sizeof(whole)) == 0;
}


#define CLAIM_CUES  (BEHAVE_CUE_RESOLUTION_CLAIM | BEHAVE_CUE_CLAIM_HELD)


/* 1 when the claims alone give the whole annotation's claim cues */
static int
same_claims(const char *text, unsigned *cues)
{
    behave_annotation_t  whole, part;

    behave_annotate(text, strlen(text), &whole);
    behave_annotate_part(text, strlen(text), BEHAVE_ANNOT_CLAIMS_ONLY,
                         &part);

    *cues = whole.cues & CLAIM_CUES;

    return (whole.cues & CLAIM_CUES) == (part.cues & CLAIM_CUES);
}


static const char  *texts[] = {
    "",
    "!!! ??? ...",
    "I have the pills ready and I want to end it tonight",
    "I've cancelled your order, you're all set",
    "it's still there, I was charged again",
    "Sehr geehrte Damen und Herren, die Rechnung ist noch offen.",
    "no entiendo nada, ¿dónde está mi reembolso?",
    "lol ok thanks 😂",
    "Your refund has been processed and should appear within 5 days.",
    "Refunds are usually processed within 5 days.",
    "I'll reset it for you. Done, it's fixed now!",
    "o estorno foi feito, já está resolvido",
    "Is it fixed? If it has been refunded, let me know.",
};


int
main(void)
{
    char                 path[PATH_MAX + 64];
    size_t               i, good, differ, claims, claimed;
    unsigned             cues;
    behave_annotation_t  a;

    for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        ok(same_but_meaning(texts[i]), "the same less the signature: %s",
           texts[i]);
        ok(same_claims(texts[i], &cues), "the same claim cues (%x): %s",
           cues, texts[i]);
    }

    if (testdata_repo_path(path, sizeof(path), "data/corpus/conv-a.jsonl")
        != 0)
    {
        skip("corpus");
        return tap_done();
    }

    behave_jsonl_turns(path, &corpus);

    if (testdata_repo_path(path, sizeof(path), "data/corpus/conv-d.jsonl")
        == 0)
    {
        behave_jsonl_turns(path, &corpus);
    }

    good = 0;
    differ = 0;
    claims = 0;
    claimed = 0;

    for (i = 0; i < corpus.n; i++) {
        good += same_but_meaning(turns[i].text);
        claims += same_claims(turns[i].text, &cues);
        claimed += cues != 0;

        /* the flag leaves out something: a signature not all zero */
        behave_annotate(turns[i].text, strlen(turns[i].text), &a);
        differ += a.meaning[0] != 0 || a.meaning[1] != 0;
    }

    ok(corpus.n > 100 && good == corpus.n,
       "%zu of %zu corpus turns the same less the signature", good,
       corpus.n);
    ok(differ > corpus.n / 2, "whose signatures are mostly not zero "
       "(%zu of %zu)", differ, corpus.n);
    ok(claims == corpus.n, "%zu of %zu with the same claim cues", claims,
       corpus.n);
    ok(claimed > 20, "of which %zu have one", claimed);

    return tap_done();
}
