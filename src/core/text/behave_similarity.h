/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface similarity of two short messages, for the repetition finding.
 *
 * Both texts are normalised first: ASCII letters lowercased, apostrophes
 * (ASCII and U+2018/U+2019) dropped so "don't" equals "dont", every other
 * ASCII byte that is not a letter or digit becomes one space, bytes of
 * multibyte UTF-8 characters are kept as they are (they count as letters).
 * The normalised text, padded with one space each side, is cut into
 * character trigrams (byte trigrams: a split multibyte character only
 * changes a trigram, never reads past the text).  A trigram is its three
 * bytes packed into 24 bits: exact, no hash collision.
 *
 * Two numbers come out of the two trigram sets A and B:
 *
 *     jaccard     = |A & B| / |A | B|
 *     containment = |A & B| / min(|A|, |B|)
 *
 * Jaccard alone punishes a re-ask wrapped in a longer complaint ("Sorry, I
 * don't understand any of that ... when will my sister get the money?");
 * containment of the shorter message catches it.  The score is
 *
 *     score = max(jaccard, 0.85 * containment)
 *
 * so identical messages score 1 and a short question repeated inside a long
 * turn scores close to 0.85.  Texts longer than BEHAVE_SIM_MAX_GRAMS
 * trigrams are compared on their first BEHAVE_SIM_MAX_GRAMS trigrams.
 *
 * A prepared set is its distinct trigrams plus an open-addressing
 * table of them, so comparing counts the common trigrams with one probe
 * per trigram of the smaller set: no sorting, which matters when one turn
 * is compared with every recent turn of a long conversation.  No heap
 * allocation; about 13 KB of stack per set.
 */

#ifndef BEHAVE_SIMILARITY_H
#define BEHAVE_SIMILARITY_H

#include <stddef.h>
#include <stdint.h>


#define BEHAVE_SIM_MAX_GRAMS  1024
#define BEHAVE_SIM_TABLE_MAX  (2 * BEHAVE_SIM_MAX_GRAMS)


typedef struct {
    double                 jaccard;
    double                 containment;
    double                 score;
} behave_similarity_t;


/* a prepared trigram set, to compare one text with many */
typedef struct {
    uint32_t               grams[BEHAVE_SIM_MAX_GRAMS];   /* distinct */
    size_t                 n;
    uint32_t               table[BEHAVE_SIM_TABLE_MAX];   /* 0 = empty */
    unsigned               bits;                          /* of the table */
} behave_sim_set_t;


void behave_sim_prepare(const char *text, size_t len, behave_sim_set_t *set);
void behave_sim_compare(const behave_sim_set_t *a, const behave_sim_set_t *b,
    behave_similarity_t *out);

/* both steps at once; returns out->score */
double behave_similarity(const char *a, size_t alen, const char *b,
    size_t blen, behave_similarity_t *out);


/*
 * A fixed-size sketch of a trigram set, kept with a stored turn so that
 * later turns compare with it without its text: each trigram sets one bit
 * of BEHAVE_SIM_SKETCH_BITS, and the set's exact size travels with it.
 * The union is estimated from how full the OR of two bitmaps is (linear
 * counting, which corrects for two trigrams sharing a bit), the common
 * trigrams as |A| + |B| - |A | B|.  At the sizes of chat turns (50 to 200
 * trigrams) the score is within a few hundredths of the exact one.
 */
#define BEHAVE_SIM_SKETCH_BITS   512
#define BEHAVE_SIM_SKETCH_WORDS  (BEHAVE_SIM_SKETCH_BITS / 64)

typedef struct {
    uint64_t               bits[BEHAVE_SIM_SKETCH_WORDS];
    unsigned               n;                 /* distinct trigrams */
} behave_sim_sketch_t;

void behave_sim_sketch(const behave_sim_set_t *set, behave_sim_sketch_t *out);
void behave_sim_sketch_compare(const behave_sim_sketch_t *a,
    const behave_sim_sketch_t *b, behave_similarity_t *out);

/* fills the comparison's table now, not at the first comparison: once
 * per process, at start; any thread, any number of times */
void behave_sim_init(void);


#endif /* BEHAVE_SIMILARITY_H */
