/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Where the phrases of phrases/ are in a turn: the turn normalised once
 * (lowercased, spaces folded, "’" read as "'"), then each table matched
 * as whole words, not after a negation (and, for a claim, not after a
 * plan nor in a question), and each list compared where a rule looks.
 *
 * Kept apart from the findings because every finding asks the same
 * questions of a turn's words, and because this is where the cost of a
 * turn is: a dozen tables a turn, tried through the first-words index
 * (behave_conv_index.h) and never one phrase at a time over the text.
 * What the index answers must be what a scan of the whole table answers
 * (t/core/test_conv_index.c holds it to that).
 */

#ifndef BEHAVE_CONV_SCAN_H
#define BEHAVE_CONV_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "conversation/behave_conv_index.h"
#include "conversation/behave_conv_phrases.h"
#include "conversation/behave_conv_types.h"


/*
 * A normalised turn and, filled on first use, the places where a phrase
 * of a table may match it (behave_conv_index.h): a turn is matched
 * against a dozen tables when its record is derived, and tries only the
 * phrases that begin with its words.  Where each byte pair occurs is kept
 * for the plain scan, which the index falls back on (a phrase that starts
 * with no word, too many candidates): a phrase whose first two bytes are
 * not there cannot match, and one that may is compared only where its
 * first two bytes are (head[] and next[] chain the positions of a pair's
 * bucket in increasing order), never searched for over the whole text.
 */
#define BEHAVE_CONV_PAIR_BITS  1024
#define BEHAVE_CONV_NO_POS     0xffff

typedef struct {
    char                   text[BEHAVE_CONV_SCAN_MAX + 1];
    size_t                 len;
    uint64_t               pairs[BEHAVE_CONV_PAIR_BITS / 64];
    uint16_t               head[BEHAVE_CONV_PAIR_BITS];   /* where set */
    uint16_t               next[BEHAVE_CONV_SCAN_MAX];
    int                    pairs_ready;
    int                    cands_ready;
    behave_conv_cands_t    cands;
} behave_conv_norm_t;


/*
 * What "negatable" of behave_conv_match() may be: 0, a match counts
 * anywhere; 1, not right after a denial (negation_before.tsv);
 * BEHAVE_CONV_CLAIMED, nor after a plan or in a question;
 * BEHAVE_CONV_TOPIC, a "not" or "never" before it counts, a "no" does
 * not: "caí no golpe", "no processo judicial" are Portuguese's "in the"
 */
#define BEHAVE_CONV_CLAIMED  2
#define BEHAVE_CONV_TOPIC    3


/* 1 + k's phrase of table id: what a record keeps, for the reasons */
#define behave_conv_quote(id, k)  (behave_conv_tables[id].tab[(k) - 1].phrase)


/*
 * Builds the phrase index (behave_conv_index.h) now rather than on the
 * first match: about 360,000 instructions that a process pays once, at
 * start, instead of its first request.  Any thread, any number of times.
 */
void behave_conv_scan_init(void);

/*
 * Lowercases ASCII, maps U+2018/U+2019 to "'" and runs of whitespace to
 * one space; stops before a multibyte character that would not fit
 */
void behave_conv_normalize(const char *in, size_t len,
    behave_conv_norm_t *out);

/*
 * How many phrases of table id occur in t as whole words (see
 * "negatable" above); *first, when not NULL, is the lowest of them in
 * the table's order.  Only the phrases that begin where t's words do are
 * tried (the index).
 */
unsigned behave_conv_match(const behave_conv_norm_t *t, behave_conv_tab_e id,
    int negatable, const behave_conv_phrase_t **first);

/* 1 + the index of the first phrase of table id that t holds, 0 for none */
unsigned behave_conv_first(const behave_conv_norm_t *t, behave_conv_tab_e id,
    int negatable, unsigned *count);

/* phrase at t->text + at, as whole words, not right after a denial */
int behave_conv_at(const behave_conv_norm_t *t, const char *phrase,
    size_t plen, size_t at, int negatable);

/*
 * Where the clause that may start at i begins its first word, past an
 * opening "¿", "¡" or quote, or BEHAVE_CONV_NO_POS when i starts none
 */
size_t behave_conv_clause(const behave_conv_norm_t *t, size_t i);
size_t behave_conv_clause_next(const behave_conv_norm_t *t, size_t *i);

/* a phrase of list id starts at "at" */
int behave_conv_phrase_at(const behave_conv_norm_t *t, behave_conv_list_e id,
    size_t at);

/* a phrase of list id opens one of the first clauses (0: any clause) */
int behave_conv_opens(const behave_conv_norm_t *t, behave_conv_list_e id,
    unsigned clauses);

/* 1 + the length of the word of list id at at, 0 for none */
size_t behave_conv_word_in(const behave_conv_norm_t *t, size_t at,
    behave_conv_list_e id);

/* a word of list id (its bytes, as written) starts in s[from, to) */
int behave_conv_word_from(const char *s, size_t from, size_t to,
    behave_conv_list_e id);

/*
 * the phrase at s + at is planned or asked, not told as done: a plan.tsv
 * word in its clause's 48 bytes before it ("make sure it has been
 * resolved"), or its clause ends with a question mark
 */
int behave_conv_planned(const char *s, size_t at);

#define behave_conv_plan_in(s, from, to)                                      \
    behave_conv_word_from(s, from, to, BEHAVE_CONV_L_PLAN)


/*
 * For t/core/test_conv_index.c, which holds the phrase index to the plain
 * scan: the k-th phrase of all the phrase tables (NULL past the last),
 * and on how many (table, kind of negation) pairs the index's answer for
 * text differs from a scan of the whole table (count or first phrase);
 * *indexed is 0 when the index did not answer at all (too many
 * candidates: everything was scanned).
 */
const char *behave_conversation_phrase(size_t k);

unsigned behave_conversation_index_check(const char *text, size_t len,
    int *indexed);


#endif /* BEHAVE_CONV_SCAN_H */
