/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The first-words index of the conversation phrase tables; see
 * behave_conv_index.h for why a candidate can never be missed.
 */

#include <string.h>

#include "conversation/behave_conv_index.h"


#define BEHAVE_CONV_ENTRIES_MAX  4096   /* phrases of all tables */
#define BEHAVE_CONV_SLOTS        4096   /* a power of two */
#define BEHAVE_CONV_FNV_BASIS    2166136261u
#define BEHAVE_CONV_FNV_PRIME    16777619u


/* a word of a text: where it is, its hash, whether "¿" or "¡" is in it */
typedef struct {
    size_t                 s;
    size_t                 e;
    uint32_t               h;
    int                    marks;
} behave_conv_word_t;


typedef struct {
    uint32_t               key;
    uint16_t               table;
    uint16_t               phrase;
    uint16_t               len;
    uint16_t               next;        /* same slot, or CAND_NONE */
} behave_conv_entry_t;


/* written once by behave_conv_index_build(), read-only after */
static behave_conv_entry_t  behave_conv_entries[BEHAVE_CONV_ENTRIES_MAX];
static uint16_t             behave_conv_slots[BEHAVE_CONV_SLOTS];
static uint16_t             behave_conv_aside[BEHAVE_CONV_ENTRIES_MAX];
static uint16_t             behave_conv_aside_from[BEHAVE_CONV_TABLES_MAX + 1];
static unsigned char        behave_conv_word[256];  /* behave_conv_is_word */
static int                  behave_conv_ready;


static uint32_t behave_conv_hash(const char *s, size_t n);
static uint32_t behave_conv_phrase_key(const char *p, size_t len);
static int behave_conv_index_table(size_t k, const behave_conv_table_t *t,
    size_t *nentries, size_t *naside);
static int behave_conv_index_probe(uint32_t key, size_t at,
    behave_conv_cands_t *c);
static int behave_conv_index_word(const unsigned char *u,
    const behave_conv_word_t *w, const behave_conv_word_t *next,
    behave_conv_cands_t *c);


static uint32_t
behave_conv_hash(const char *s, size_t n)
{
    size_t    i;
    uint32_t  h;

    h = BEHAVE_CONV_FNV_BASIS;

    for (i = 0; i < n; i++) {
        h ^= (unsigned char) s[i];
        h *= BEHAVE_CONV_FNV_PRIME;
    }

    return h;
}


/*
 * The key of two words, from their hashes: a text's words are hashed
 * once each, and each is the first of one pair and the second of another
 */
#define behave_conv_key2(h1, h2)  ((h1) * 0x9e3779b1u ^ (h2))


/* a phrase's key: its first word, or its first two if it has two */
static uint32_t
behave_conv_phrase_key(const char *p, size_t len)
{
    size_t    e, s2, e2;

    for (e = 0; e < len && behave_conv_is_word((unsigned char) p[e]); e++) {
        /* void */
    }

    for (s2 = e; s2 < len && !behave_conv_is_word((unsigned char) p[s2]);
         s2++)
    {
        /* void */
    }

    if (s2 == len) {
        return behave_conv_hash(p, e);
    }

    for (e2 = s2; e2 < len && behave_conv_is_word((unsigned char) p[e2]);
         e2++)
    {
        /* void */
    }

    return behave_conv_key2(behave_conv_hash(p, e),
                            behave_conv_hash(p + s2, e2 - s2));
}


static int
behave_conv_index_table(size_t k, const behave_conv_table_t *t,
    size_t *nentries, size_t *naside)
{
    size_t                i, len, slot;
    behave_conv_entry_t  *e;

    if (t->n > BEHAVE_CONV_TAB_MAX) {
        return -1;
    }

    behave_conv_aside_from[k] = (uint16_t) *naside;

    for (i = 0; i < t->n; i++) {
        len = strlen(t->tab[i].phrase);

        if (len == 0 || !behave_conv_is_word((unsigned char)
                                             t->tab[i].phrase[0]))
        {
            /* no word starts it: scanned for, as without the index */
            behave_conv_aside[(*naside)++] = (uint16_t) i;
            continue;
        }

        if (len >= BEHAVE_CONV_CAND_NONE) {
            return -1;
        }

        e = &behave_conv_entries[*nentries];
        e->key = behave_conv_phrase_key(t->tab[i].phrase, len);
        e->table = (uint16_t) k;
        e->phrase = (uint16_t) i;
        e->len = (uint16_t) len;

        slot = e->key & (BEHAVE_CONV_SLOTS - 1);
        e->next = behave_conv_slots[slot];
        behave_conv_slots[slot] = (uint16_t) (*nentries)++;
    }

    behave_conv_aside_from[k + 1] = (uint16_t) *naside;

    return 0;
}


int
behave_conv_index_build(const behave_conv_table_t *tabs, size_t n)
{
    size_t  k, total, nentries, naside;

    behave_conv_ready = 0;

    total = 0;
    for (k = 0; k < n; k++) {
        total += tabs[k].n;
    }

    /* every phrase fits, whatever its kind: no bound checks per phrase */
    if (n > BEHAVE_CONV_TABLES_MAX || total >= BEHAVE_CONV_ENTRIES_MAX) {
        return -1;
    }

    for (k = 0; k < 256; k++) {
        behave_conv_word[k] = (unsigned char) behave_conv_is_word(k);
    }

    memset(behave_conv_slots, 0xff, sizeof(behave_conv_slots));
    nentries = 0;
    naside = 0;

    for (k = 0; k < n; k++) {
        if (behave_conv_index_table(k, &tabs[k], &nentries, &naside) != 0) {
            return -1;
        }
    }

    behave_conv_ready = 1;

    return 0;
}


int
behave_conv_index_ready(void)
{
    return behave_conv_ready;
}


const uint16_t *
behave_conv_index_aside(size_t k, size_t *n)
{
    *n = (size_t) (behave_conv_aside_from[k + 1] - behave_conv_aside_from[k]);

    return behave_conv_aside + behave_conv_aside_from[k];
}


/* every phrase keyed so is a candidate at "at"; -1 when c is full */
static int
behave_conv_index_probe(uint32_t key, size_t at, behave_conv_cands_t *c)
{
    uint16_t                    j;
    behave_conv_cand_t         *d;
    const behave_conv_entry_t  *e;

    for (j = behave_conv_slots[key & (BEHAVE_CONV_SLOTS - 1)];
         j != BEHAVE_CONV_CAND_NONE;
         j = e->next)
    {
        e = &behave_conv_entries[j];

        if (e->key != key) {
            continue;
        }

        if (c->n == BEHAVE_CONV_CAND_MAX) {
            c->overflow = 1;
            return -1;
        }

        d = &c->cand[c->n];
        d->at = (uint16_t) at;
        d->phrase = e->phrase;
        d->len = e->len;
        d->next = c->head[e->table];
        c->head[e->table] = (uint16_t) c->n++;
    }

    return 0;
}


/*
 * Phrases of one word that begin where w does (w itself), and of two (w
 * and next, if there is a next); inside w, right after each "¿" or "¡",
 * the same for the rest of w: the matcher lets a phrase begin there too
 * (behave_conv_scan.c's behave_conv_at())
 */
static int
behave_conv_index_word(const unsigned char *u, const behave_conv_word_t *w,
    const behave_conv_word_t *next, behave_conv_cands_t *c)
{
    size_t    p;
    uint32_t  h;

    h = w->h;
    p = w->s;

    for ( ;; ) {
        if (behave_conv_index_probe(h, p, c) != 0
            || (next != NULL
                && behave_conv_index_probe(behave_conv_key2(h, next->h), p,
                                           c)
                   != 0))
        {
            return -1;
        }

        if (!w->marks) {
            return 0;
        }

        /* the next place right after a mark, if any */
        for (p++; p < w->e; p++) {
            if (p >= w->s + 2 && u[p - 2] == 0xc2
                && (u[p - 1] == 0xbf || u[p - 1] == 0xa1))
            {
                break;
            }
        }

        if (p == w->e) {
            return 0;
        }

        h = behave_conv_hash((const char *) u + p, w->e - p);
    }
}


void
behave_conv_index_cands(const char *text, size_t len, behave_conv_cands_t *c)
{
    size_t               i;
    uint32_t             h;
    behave_conv_word_t   w[2], *prev, *cur;
    const unsigned char  *u;

    u = (const unsigned char *) text;

    c->n = 0;
    c->overflow = !behave_conv_ready;
    memset(c->head, 0xff, sizeof(c->head));

    if (c->overflow) {
        return;
    }

    /* one pass: each word is probed once the one after it is hashed */
    prev = NULL;
    i = 0;

    for ( ;; ) {
        while (i < len && !behave_conv_word[u[i]]) {
            i++;
        }

        if (i == len) {
            break;
        }

        cur = prev == &w[0] ? &w[1] : &w[0];
        cur->s = i;
        cur->marks = 0;
        h = BEHAVE_CONV_FNV_BASIS;

        for ( /* void */ ; i < len && behave_conv_word[u[i]]; i++) {
            h ^= u[i];
            h *= BEHAVE_CONV_FNV_PRIME;
            cur->marks |= u[i] == 0xc2;
        }

        cur->e = i;
        cur->h = h;

        if (prev != NULL && behave_conv_index_word(u, prev, cur, c) != 0) {
            return;
        }

        prev = cur;
    }

    if (prev != NULL) {
        (void) behave_conv_index_word(u, prev, NULL, c);
    }
}
