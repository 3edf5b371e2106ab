/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Where the phrases are in a turn; see behave_conv_scan.h.
 */

/* memmem() is a GNU extension */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <pthread.h>
#include <string.h>

#include "conversation/behave_conv_scan.h"


#define behave_conv_pair(a, b)                                                \
    (((unsigned) (unsigned char) (a) << 5 ^ (unsigned char) (b))              \
     & (BEHAVE_CONV_PAIR_BITS - 1))


static void behave_conv_pairs(behave_conv_norm_t *t);
static size_t behave_conv_clause_start(const char *s, size_t at,
    size_t span);
static int behave_conv_negated(const char *s, size_t at, int topic);
static int behave_conv_occurs(const behave_conv_norm_t *t,
    const char *phrase, size_t plen, int negatable);
static unsigned behave_conv_scan(const behave_conv_norm_t *t,
    const behave_conv_phrase_t *tab, size_t ntab, int negatable,
    const behave_conv_phrase_t **first);
static void behave_conv_index_init(void);
static unsigned behave_conv_indexed(const behave_conv_norm_t *t,
    behave_conv_tab_e id, int negatable, const behave_conv_phrase_t **first);


/* the index of behave_conv_tables[], built before the first match */
static pthread_once_t  behave_conv_once = PTHREAD_ONCE_INIT;


/*
 * Lowercases ASCII, maps U+2018/U+2019 to "'" and runs of whitespace to
 * one space; stops before a multibyte character that would not fit.
 */

void
behave_conv_normalize(const char *in, size_t len, behave_conv_norm_t *out)
{
    size_t          i, n, k;
    unsigned char   c;

    n = 0;
    i = 0;

    while (i < len && n < BEHAVE_CONV_SCAN_MAX) {
        c = (unsigned char) in[i];

        if (c == 0xe2 && i + 2 < len && (unsigned char) in[i + 1] == 0x80
            && ((unsigned char) in[i + 2] == 0x98
                || (unsigned char) in[i + 2] == 0x99))
        {
            out->text[n++] = '\'';
            i += 3;
            continue;
        }

        if (c >= 0x80) {
            /* copy the whole character or stop */
            k = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                : (c & 0xf8) == 0xf0 ? 4 : 1;

            if (n + k > BEHAVE_CONV_SCAN_MAX || i + k > len) {
                break;
            }

            memcpy(out->text + n, in + i, k);
            n += k;
            i += k;
            continue;
        }

        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (n > 0 && out->text[n - 1] != ' ') {
                out->text[n++] = ' ';
            }
            i++;
            continue;
        }

        if (c >= 'A' && c <= 'Z') {
            c = (unsigned char) (c + ('a' - 'A'));
        }

        out->text[n++] = (char) c;
        i++;
    }

    out->text[n] = '\0';
    out->len = n;

    out->pairs_ready = 0;
    out->cands_ready = 0;
}


/* most normalised turns are only compared, never matched: pairs on demand */
static void
behave_conv_pairs(behave_conv_norm_t *t)
{
    size_t  i, k;

    memset(t->pairs, 0, sizeof(t->pairs));

    /* backwards, so that each chain runs forwards */
    for (i = t->len > 0 ? t->len - 1 : 0; i-- > 0; /* void */) {
        k = behave_conv_pair(t->text[i], t->text[i + 1]);

        t->next[i] = (t->pairs[k / 64] >> (k % 64) & 1) ? t->head[k]
                                                         : BEHAVE_CONV_NO_POS;
        t->head[k] = (uint16_t) i;
        t->pairs[k / 64] |= (uint64_t) 1 << (k % 64);
    }

    t->pairs_ready = 1;
}


/*
 * Where the clause that `at` is in starts, at most span bytes back: what
 * comes before a comma or a stop ("no problem, fixed") is another clause.
 */
static size_t
behave_conv_clause_start(const char *s, size_t at, size_t span)
{
    size_t  from, k;

    from = at > span ? at - span : 0;

    for (k = at; k > from; k--) {
        if (s[k - 1] == ',' || s[k - 1] == '.' || s[k - 1] == '!'
            || s[k - 1] == ';' || s[k - 1] == ':' || s[k - 1] == '?')
        {
            return k;
        }
    }

    return from;
}


/* "not fixed", "hasn't been resolved", "never worked": a denial */
static int
behave_conv_negated(const char *s, size_t at, int topic)
{
    size_t                      from, k;
    const behave_conv_table_t  *neg;

    neg = &behave_conv_lists[BEHAVE_CONV_L_NEGATION_BEFORE];

    /* "no problem, fixed": a negation does not reach over punctuation */
    from = behave_conv_clause_start(s, at, 16);

    for (k = 0; k < neg->n; k++) {
        const char  *p;

        /* see BEHAVE_CONV_TOPIC */
        if (topic && strcmp(neg->tab[k].phrase, "no ") == 0) {
            continue;
        }

        p = memmem(s + from, at - from, neg->tab[k].phrase,
                   strlen(neg->tab[k].phrase));
        if (p != NULL) {
            return 1;
        }
    }

    return 0;
}


/*
 * A word of list id starts in s[from, to): plan.tsv ("I'll have it
 * working again by Friday": a plan, not a claim), perfect.tsv ("has been
 * re-dispatched": a deed told as done)
 */
int
behave_conv_word_from(const char *s, size_t from, size_t to,
    behave_conv_list_e id)
{
    size_t                      k;
    const char                 *p, *e, *w;
    const behave_conv_table_t  *words;

    e = s + to;
    words = &behave_conv_lists[id];

    for (k = 0; k < words->n; k++) {
        w = words->tab[k].phrase;

        for (p = s + from; p < e; p++) {
            p = memmem(p, (size_t) (e - p), w, strlen(w));
            if (p == NULL) {
                break;
            }

            /* a whole word: "if " is not the end of "tarif ", nor "ob "
             * of "job " */
            if (p == s || !behave_conv_is_word((unsigned char) p[-1])) {
                return 1;
            }
        }
    }

    return 0;
}


int
behave_conv_planned(const char *s, size_t at)
{
    size_t  from, k;

    from = behave_conv_clause_start(s, at, 48);

    if (behave_conv_plan_in(s, from, at)) {
        return 1;
    }

    /* "Is it working now?", "Has the refund gone through?": asked, not
     * claimed (the phrase's clause ends with a question mark) */
    for (k = at; s[k] != '\0'; k++) {
        if (s[k] == '?') {
            return 1;
        }

        if (s[k] == ',' || s[k] == '.' || s[k] == '!' || s[k] == ';'
            || s[k] == ':')
        {
            break;
        }
    }

    return 0;
}


/* phrase at t->text + at, as whole words, not right after a denial */
int
behave_conv_at(const behave_conv_norm_t *t, const char *phrase, size_t plen,
    size_t at, int negatable)
{
    if (at + plen > t->len || memcmp(t->text + at, phrase, plen) != 0) {
        return 0;
    }

    /* "¿cuánto", "¡ya": Spanish's opening marks end no word */
    if (behave_conv_is_word((unsigned char) phrase[0]) && at > 0
        && behave_conv_is_word((unsigned char) t->text[at - 1])
        && !(at > 1 && (unsigned char) t->text[at - 2] == 0xc2
             && ((unsigned char) t->text[at - 1] == 0xbf
                 || (unsigned char) t->text[at - 1] == 0xa1)))
    {
        return 0;
    }

    if (behave_conv_is_word((unsigned char) phrase[plen - 1])
        && at + plen < t->len
        && behave_conv_is_word((unsigned char) t->text[at + plen]))
    {
        return 0;
    }

    if (negatable == BEHAVE_CONV_CLAIMED && behave_conv_planned(t->text, at)) {
        return 0;
    }

    return !(negatable
             && behave_conv_negated(t->text, at,
                                    negatable == BEHAVE_CONV_TOPIC));
}


/* phrase occurs in t as whole words (with negatable, not after a denial) */
static int
behave_conv_occurs(const behave_conv_norm_t *t, const char *phrase,
    size_t plen, int negatable)
{
    size_t       at;
    const char  *p, *s;

    if (!t->pairs_ready) {
        /* a cache filled on first use; every norm lives in writable memory */
        behave_conv_pairs((behave_conv_norm_t *) t);
    }

    if (plen < 2) {
        /* no pair to look up: the whole text (no table has these) */
        s = t->text;
        while ((p = memmem(s, t->len - (size_t) (s - t->text), phrase, plen))
               != NULL)
        {
            s = p + 1;
            if (behave_conv_at(t, phrase, plen, (size_t) (p - t->text),
                               negatable))
            {
                return 1;
            }
        }

        return 0;
    }

    for (at = t->head[behave_conv_pair(phrase[0], phrase[1])];
         at != BEHAVE_CONV_NO_POS;
         at = t->next[at])
    {
        if (behave_conv_at(t, phrase, plen, at, negatable)) {
            return 1;
        }
    }

    return 0;
}


/*
 * Counts the entries of tab that occur in t as whole words; with
 * negatable, an occurrence right after a denial does not count.  Every
 * phrase is tried: what the index answers for a table must be this.
 */

static unsigned
behave_conv_scan(const behave_conv_norm_t *t, const behave_conv_phrase_t *tab,
    size_t ntab, int negatable, const behave_conv_phrase_t **first)
{
    size_t    i, k;
    unsigned  count;

    count = 0;

    if (!t->pairs_ready) {
        behave_conv_pairs((behave_conv_norm_t *) t);
    }

    for (i = 0; i < ntab; i++) {
        /* most phrases' first two bytes are nowhere in the text: that
         * test comes before their length */
        if (tab[i].phrase[0] != '\0' && tab[i].phrase[1] != '\0') {
            k = behave_conv_pair(tab[i].phrase[0], tab[i].phrase[1]);

            if (!(t->pairs[k / 64] >> (k % 64) & 1)) {
                continue;
            }
        }

        if (!behave_conv_occurs(t, tab[i].phrase, strlen(tab[i].phrase),
                                negatable))
        {
            continue;
        }

        if (count == 0 && first != NULL) {
            *first = &tab[i];
        }

        count++;
    }

    return count;
}


/* the tables never change: indexed once, whichever thread comes first */
static void
behave_conv_index_init(void)
{
    /* on failure nothing is indexed, and every table is scanned */
    (void) behave_conv_index_build(behave_conv_tables, BEHAVE_CONV_T_N);
}


void
behave_conv_scan_init(void)
{
    (void) pthread_once(&behave_conv_once, behave_conv_index_init);
}


/*
 * behave_conv_scan() of table id, from the candidates of t: each phrase
 * counts once however many places it matches, and *first is the lowest
 * of the table's phrases that match, as the scan's order would find it
 */
static unsigned
behave_conv_indexed(const behave_conv_norm_t *t, behave_conv_tab_e id,
    int negatable, const behave_conv_phrase_t **first)
{
    size_t                     i, naside, low;
    uint16_t                   j;
    uint64_t                   seen[BEHAVE_CONV_TAB_MAX / 64];
    unsigned                   count;
    const uint16_t            *aside;
    const behave_conv_cand_t  *c;
    const behave_conv_table_t *tb;

    tb = &behave_conv_tables[id];
    count = 0;
    low = tb->n;
    memset(seen, 0, sizeof(seen));

    for (j = t->cands.head[id]; j != BEHAVE_CONV_CAND_NONE; j = c->next) {
        c = &t->cands.cand[j];

        if ((seen[c->phrase / 64] >> (c->phrase % 64) & 1)
            || !behave_conv_at(t, tb->tab[c->phrase].phrase, c->len, c->at,
                               negatable))
        {
            continue;
        }

        seen[c->phrase / 64] |= (uint64_t) 1 << (c->phrase % 64);
        low = c->phrase < low ? c->phrase : low;
        count++;
    }

    aside = behave_conv_index_aside(id, &naside);

    for (i = 0; i < naside; i++) {
        if (behave_conv_occurs(t, tb->tab[aside[i]].phrase,
                               strlen(tb->tab[aside[i]].phrase), negatable))
        {
            low = aside[i] < low ? aside[i] : low;
            count++;
        }
    }

    if (count > 0 && first != NULL) {
        *first = &tb->tab[low];
    }

    return count;
}


/*
 * Counts the entries of table id that occur in t as whole words; with
 * negatable, an occurrence right after a denial does not count.  Only
 * the phrases that begin where t's words do are tried (the index).
 */

unsigned
behave_conv_match(const behave_conv_norm_t *t, behave_conv_tab_e id,
    int negatable, const behave_conv_phrase_t **first)
{
    behave_conv_norm_t  *w;

    (void) pthread_once(&behave_conv_once, behave_conv_index_init);

    if (!t->cands_ready) {
        /* like the pairs, filled on first use */
        w = (behave_conv_norm_t *) t;
        behave_conv_index_cands(t->text, t->len, &w->cands);
        w->cands_ready = 1;
    }

    if (t->cands.overflow) {
        return behave_conv_scan(t, behave_conv_tables[id].tab,
                                behave_conv_tables[id].n, negatable, first);
    }

    return behave_conv_indexed(t, id, negatable, first);
}


/* 1 + the index of the first phrase of tab that t holds, 0 for none */
unsigned
behave_conv_first(const behave_conv_norm_t *t, behave_conv_tab_e id,
    int negatable, unsigned *count)
{
    unsigned                     n;
    const behave_conv_phrase_t  *first;

    first = NULL;
    n = behave_conv_match(t, id, negatable, &first);

    if (count != NULL) {
        *count = n;
    }

    return n > 0 && first != NULL
           ? (unsigned) (first - behave_conv_tables[id].tab) + 1 : 0;
}


/*
 * Where the clause that may start at i begins its first word, past an
 * opening "¿", "¡" or quote, or BEHAVE_CONV_NO_POS when i starts none: a
 * clause starts the text or follows a punctuation mark and a space.
 */
size_t
behave_conv_clause(const behave_conv_norm_t *t, size_t i)
{
    const char  *s;

    s = t->text;

    if (i > 0 && !(i >= 2 && s[i - 1] == ' '
                   && strchr(".,!?;:", s[i - 2]) != NULL))
    {
        return BEHAVE_CONV_NO_POS;
    }

    for ( ;; ) {
        if (i + 1 < t->len && (unsigned char) s[i] == 0xc2
            && ((unsigned char) s[i + 1] == 0xbf
                || (unsigned char) s[i + 1] == 0xa1))
        {
            i += 2;

        } else if (i < t->len && (s[i] == '"' || s[i] == '\'')) {
            i++;

        } else {
            return i;
        }
    }
}


/* a phrase of list id starts at "at" */
int
behave_conv_phrase_at(const behave_conv_norm_t *t, behave_conv_list_e id,
    size_t at)
{
    size_t                       k;
    const behave_conv_phrase_t  *tab;

    tab = behave_conv_lists[id].tab;

    for (k = 0; k < behave_conv_lists[id].n; k++) {
        /* most phrases begin with another byte: no strlen() for them */
        if (at < t->len && tab[k].phrase[0] == t->text[at]
            && behave_conv_at(t, tab[k].phrase, strlen(tab[k].phrase), at,
                              0))
        {
            return 1;
        }
    }

    return 0;
}


/*
 * The start of the next clause from *i on, *i moved past the place tried;
 * BEHAVE_CONV_NO_POS at the end.  A clause starts the text or right after
 * a space: only those places are tried, from one space to the next (a
 * byte at a time costs a sixth of a customer turn's record).
 */
size_t
behave_conv_clause_next(const behave_conv_norm_t *t, size_t *i)
{
    size_t       at;
    const char  *sp;

    while (*i < t->len) {
        at = behave_conv_clause(t, *i);
        sp = memchr(t->text + *i, ' ', t->len - *i);
        *i = sp == NULL ? t->len : (size_t) (sp - t->text) + 1;

        if (at != BEHAVE_CONV_NO_POS) {
            return at;
        }
    }

    return BEHAVE_CONV_NO_POS;
}


/* a phrase of list id opens one of the first clauses (0: any clause) */
int
behave_conv_opens(const behave_conv_norm_t *t, behave_conv_list_e id,
    unsigned clauses)
{
    size_t    i, at;
    unsigned  seen;

    seen = 0;
    i = 0;

    while ((at = behave_conv_clause_next(t, &i)) != BEHAVE_CONV_NO_POS) {
        if (clauses && seen++ == clauses) {
            return 0;
        }

        if (behave_conv_phrase_at(t, id, at)) {
            return 1;
        }
    }

    return 0;
}


/* 1 + the length of the word of list id at at, 0 for none */
size_t
behave_conv_word_in(const behave_conv_norm_t *t, size_t at,
    behave_conv_list_e id)
{
    size_t                       k, len;
    const behave_conv_phrase_t  *tab;

    tab = behave_conv_lists[id].tab;

    for (k = 0; k < behave_conv_lists[id].n; k++) {
        if (at >= t->len || tab[k].phrase[0] != t->text[at]) {
            continue;
        }

        len = strlen(tab[k].phrase);

        if (behave_conv_at(t, tab[k].phrase, len, at, 0)) {
            return len + 1;
        }
    }

    return 0;
}


const char *
behave_conversation_phrase(size_t k)
{
    size_t  id;

    for (id = 0; id < BEHAVE_CONV_T_N; id++) {
        if (k < behave_conv_tables[id].n) {
            return behave_conv_tables[id].tab[k].phrase;
        }

        k -= behave_conv_tables[id].n;
    }

    return NULL;
}


unsigned
behave_conversation_index_check(const char *text, size_t len, int *indexed)
{
    int                          negatable;
    size_t                       id;
    unsigned                     bad, a, b;
    behave_conv_norm_t           norm;
    const behave_conv_phrase_t  *fa, *fb;

    behave_conv_normalize(text, len, &norm);
    bad = 0;

    /* every kind of "negatable" the rules use: 0, 1, CLAIMED, TOPIC */
    for (id = 0; id < BEHAVE_CONV_T_N; id++) {
        for (negatable = 0; negatable <= BEHAVE_CONV_TOPIC; negatable++) {
            fa = NULL;
            fb = NULL;
            a = behave_conv_match(&norm, (behave_conv_tab_e) id, negatable,
                                  &fa);
            b = behave_conv_scan(&norm, behave_conv_tables[id].tab,
                                 behave_conv_tables[id].n, negatable, &fb);

            bad += a != b || fa != fb;
        }
    }

    *indexed = !norm.cands.overflow;

    return bad;
}
