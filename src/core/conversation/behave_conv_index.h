/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * An index of the conversation phrase tables by their first words, so
 * that a turn tries only the phrases that begin with one of its words
 * instead of every phrase of every table (about 850 a customer turn).
 *
 * Phrases match as whole words (behave_conv_scan.c): a phrase that
 * begins with a word byte matches only where a word of the text begins,
 * and that word is then the phrase's first word, byte for byte; so is the
 * word after it, when the phrase has one.  The index keys each phrase on
 * a hash of its first word, or of its first two, and a text probes both
 * keys at each of its word starts: every place a phrase can match comes
 * out as a candidate, which the caller verifies as before.  A phrase that
 * begins with any other byte is kept aside and scanned for as before.
 *
 * "Word" here is a run of behave_conv_is_word() bytes, the same test the
 * matcher applies, and a word also begins right after "¿" or "¡", where
 * the matcher lets a phrase begin too.
 *
 * The index is built once, from the tables it is given, before the first
 * turn (behave_conv_index_build() is not thread-safe: its caller runs it
 * once); a text's candidates live with the text.
 */

#ifndef BEHAVE_CONV_INDEX_H
#define BEHAVE_CONV_INDEX_H

#include <stddef.h>
#include <stdint.h>


#define BEHAVE_CONV_TABLES_MAX  32      /* tables indexed */
#define BEHAVE_CONV_TAB_MAX     256     /* phrases of one indexed table */
#define BEHAVE_CONV_CAND_MAX    512     /* a text's candidates, at most */
#define BEHAVE_CONV_CAND_NONE   0xffff


typedef struct {
    const char            *phrase;      /* lowercase, ASCII apostrophe */
    const char            *what;        /* for reasons, NULL: the phrase */
} behave_conv_phrase_t;


typedef struct {
    const behave_conv_phrase_t  *tab;
    size_t                       n;
} behave_conv_table_t;


/* a place where a phrase of a table may match: verified by the caller */
typedef struct {
    uint16_t               at;          /* offset in the text */
    uint16_t               phrase;      /* index in its table */
    uint16_t               len;         /* the phrase's length */
    uint16_t               next;        /* same table, or CAND_NONE */
} behave_conv_cand_t;


typedef struct {
    unsigned               n;
    int                    overflow;    /* too many: scan every table */
    uint16_t               head[BEHAVE_CONV_TABLES_MAX];
    behave_conv_cand_t     cand[BEHAVE_CONV_CAND_MAX];
} behave_conv_cands_t;


/* bytes that make words: letters, digits, and every byte of UTF-8 */
static inline int
behave_conv_is_word(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80;
}


/*
 * Indexes tabs[0 .. n - 1]; returns 0, or -1 when they do not fit (too
 * many tables, a table too long, too many phrases): then nothing is
 * indexed and behave_conv_index_ready() stays 0.
 */
int behave_conv_index_build(const behave_conv_table_t *tabs, size_t n);

int behave_conv_index_ready(void);

/*
 * The phrases of table k that begin with another byte than a word's,
 * never candidates: *n of them, by index in the table.
 */
const uint16_t *behave_conv_index_aside(size_t k, size_t *n);

/* every candidate of text[0 .. len - 1], len < CAND_NONE */
void behave_conv_index_cands(const char *text, size_t len,
    behave_conv_cands_t *c);


#endif /* BEHAVE_CONV_INDEX_H */
