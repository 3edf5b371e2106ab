/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The annotator: tokens -> lexicon units (longest phrase first) -> rules
 * -> five dimension scores -> labels, cues and cultural tags.
 *
 * How it stays bounded: the text is read once through the streaming
 * tokenizer with a fixed window of BEHAVE_WIN tokens (lookahead for
 * phrases, three units of context behind for negation and intensifiers),
 * all state lives in one struct on the stack, and every lookup is a
 * bounded hash probe.  Work is linear in the text and nothing is
 * allocated.  The only data is the read-only generated lexicon.
 *
 * Valence follows the usual rule-based recipe (our own weights): each
 * sentiment unit is shifted by caps, elongation and the intensifiers
 * before it, flipped by a negator up to three units before it within the
 * clause, halved before a contrast word and raised after it; the sum is
 * squashed to -1..1.  The other dimensions add the lexicon's weights for
 * them to text-shape evidence (length, questions, emoji, salutations).
 */

#include <math.h>
#include <string.h>
#include "text/behave_annotate.h"
#include "text/behave_annot_rules.h"
#include "text/behave_lexicon.h"
#include "text/behave_model.h"
#include "text/behave_tokenize.h"


#define BEHAVE_WIN        16    /* token window, a power of two */
#define BEHAVE_PHRASE     6     /* longest phrase, in words */
#define BEHAVE_KEY        (BEHAVE_PHRASE * BEHAVE_TOK_MAX + 8)


typedef struct {
    behave_tokenizer_t     tz;
    behave_token_t         ring[BEHAVE_WIN];
    unsigned               head;
    unsigned               count;
    unsigned               eof;
} behave_stream_t;


static inline behave_token_t *behave_peek(behave_stream_t *s, unsigned k);
static behave_token_t *behave_peek_more(behave_stream_t *s, unsigned k);
static void behave_advance(behave_stream_t *s, unsigned n);
static unsigned behave_match(behave_stream_t *s, unsigned k0,
    const behave_lex_entry_t **found);
static void behave_on_word(behave_annot_state_t *st, behave_stream_t *s,
    behave_model_state_t *model);
static void behave_on_token(behave_annot_state_t *st, behave_token_t *t,
    behave_model_state_t *m);
static void behave_annotate_run(const char *text, size_t len,
    unsigned flags, behave_annotation_t *out, behave_feature_sink_pt sink,
    void *data);


/* most peeks look at a token already read */
static inline behave_token_t *
behave_peek(behave_stream_t *s, unsigned k)
{
    if (k < s->count) {
        return &s->ring[(s->head + k) & (BEHAVE_WIN - 1)];
    }

    return behave_peek_more(s, k);
}


static behave_token_t *
behave_peek_more(behave_stream_t *s, unsigned k)
{
    behave_token_t  *t;

    /* the callers look at most 2 * BEHAVE_PHRASE tokens ahead */
    if (k >= BEHAVE_WIN) {
        return NULL;
    }

    while (s->count <= k) {
        if (s->eof) {
            return NULL;
        }

        t = &s->ring[(s->head + s->count) & (BEHAVE_WIN - 1)];
        if (behave_tok_next(&s->tz, t) == BEHAVE_TOK_END) {
            s->eof = 1;
            return NULL;
        }

        s->count++;
    }

    return &s->ring[(s->head + k) & (BEHAVE_WIN - 1)];
}


static void
behave_advance(behave_stream_t *s, unsigned n)
{
    if (n > s->count) {
        n = s->count;
    }

    s->head = (s->head + n) & (BEHAVE_WIN - 1);
    s->count -= n;
}


/*
 * Longest lexicon match starting at the current word: the generator marks
 * every phrase prefix, so the search stops as soon as a prefix is unknown.
 * Elongated words are tried as written ("soo") and squeezed ("so").
 * The first word is looked up in the token itself, with the hash the
 * tokenizer computed; a key is built only when a phrase may go on.
 */
static unsigned
behave_match(behave_stream_t *s, unsigned k0,
    const behave_lex_entry_t **found)
{
    size_t                     klen;
    unsigned                   k, best;
    uint32_t                   h, h0;
    char                       key[BEHAVE_KEY];
    const char                *word;
    behave_token_t            *t;
    const behave_lex_entry_t  *e;

    t = behave_peek(s, k0);
    *found = NULL;
    best = 0;

    word = t->text;
    klen = t->len;
    h = t->hash;
    e = behave_lex_find_hashed(word, klen, h);

    if (e == NULL && t->alt_len) {
        word = t->alt;
        klen = t->alt_len;
        h = behave_lex_hash(word, klen);
        e = behave_lex_find_hashed(word, klen, h);
    }

    if (e != NULL && !(e->flags & BEHAVE_LEX_PREFIX)) {
        *found = e;
        best = 1;
    }

    if (e != NULL && (e->flags & BEHAVE_LEX_MORE)) {
        memcpy(key, word, klen);
    }

    /* a phrase's hash goes on from its prefix's */
    for (k = 1; e != NULL && (e->flags & BEHAVE_LEX_MORE)
                && k < BEHAVE_PHRASE; k++)
    {
        /* a phrase may go on with a number: "called 911" */
        t = behave_peek(s, k0 + k);
        if (t == NULL
            || (t->type != BEHAVE_TOK_WORD && t->type != BEHAVE_TOK_NUMBER))
        {
            break;
        }

        key[klen++] = ' ';
        h0 = behave_lex_hash_step(h, ' ');
        memcpy(key + klen, t->text, t->len);
        klen += t->len;
        h = behave_lex_hash_more(h0, t->text, t->len);

        e = behave_lex_find_hashed(key, klen, h);
        if (e == NULL && t->alt_len) {
            klen -= t->len;
            memcpy(key + klen, t->alt, t->alt_len);
            klen += t->alt_len;
            h = behave_lex_hash_more(h0, t->alt, t->alt_len);
            e = behave_lex_find_hashed(key, klen, h);
        }

        if (e != NULL && !(e->flags & BEHAVE_LEX_PREFIX)) {
            *found = e;
            best = k + 1;
        }
    }

    if (best == 0) {
        t = behave_peek(s, k0);
        /* the word as written was looked up first thing above */
        *found = behave_lex_find_stem(t->text, t->len);
        if (*found == NULL && t->alt_len) {
            *found = behave_lex_find_word(t->alt, t->alt_len);
        }
        best = 1;
    }

    return best;
}


static void
behave_on_word(behave_annot_state_t *st, behave_stream_t *s,
    behave_model_state_t *model)
{
    unsigned                   n, m, i, j, flags;
    behave_token_t            *t;
    const behave_lex_entry_t  *e, *c;

    n = behave_match(s, 0, &e);

    /*
     * Longest match from the left can hide a crisis phrase that starts
     * inside it: "i want" + "to die" must read "i" + "want to die".  So a
     * crisis phrase that starts within the match and ends beyond it wins;
     * the words before it are taken one by one.
     */
    if (n > 1 && (e == NULL || e->crisis == BEHAVE_CRISIS_NONE)) {
        for (j = 1; j < n; j++) {
            t = behave_peek(s, j);
            if (t == NULL || t->type != BEHAVE_TOK_WORD) {
                break;
            }

            m = behave_match(s, j, &c);
            if (c != NULL && c->crisis != BEHAVE_CRISIS_NONE
                && !(c->flags & BEHAVE_LEX_IDIOM) && j + m > n)
            {
                t = behave_peek(s, 0);
                e = behave_lex_find_word(t->text, t->len);
                if (e == NULL && t->alt_len) {
                    e = behave_lex_find_word(t->alt, t->alt_len);
                }
                n = 1;
                st->rules++;
                break;
            }
        }
    }

    flags = 0;

    for (i = 0; i < n; i++) {
        t = behave_peek(s, i);
        flags |= t->flags;
        behave_rules_word(st, t, i == 0);
        behave_model_word(model, t);
    }

    behave_rules_unit(st, e, n, flags);
    behave_advance(s, n);
}


static void
behave_on_token(behave_annot_state_t *st, behave_token_t *t,
    behave_model_state_t *m)
{
    const behave_lex_entry_t  *e;

    switch (t->type) {

    case BEHAVE_TOK_EMOJI:
    case BEHAVE_TOK_EMOTICON:
        e = behave_lex_find(t->text, t->len);
        behave_rules_symbol(st, t, e);
        break;

    case BEHAVE_TOK_PUNCT:
    case BEHAVE_TOK_NEWLINE:
        behave_rules_punct(st, t);
        break;

    case BEHAVE_TOK_NUMBER:
    case BEHAVE_TOK_SYMBOL:
        behave_rules_other(st, t);
        break;

    default:
        break;
    }

    behave_model_symbol(m, t);
}


void
behave_annotate(const char *text, size_t len, behave_annotation_t *out)
{
    behave_annotate_run(text, len, 0, out, NULL, NULL);
}


void
behave_annotate_part(const char *text, size_t len, unsigned flags,
    behave_annotation_t *out)
{
    behave_annotate_run(text, len, flags, out, NULL, NULL);
}


void
behave_annotate_features(const char *text, size_t len,
    behave_annotation_t *out, behave_feature_sink_pt sink, void *data)
{
    behave_annotate_run(text, len, 0, out, sink, data);
}


static void
behave_annotate_run(const char *text, size_t len, unsigned flags,
    behave_annotation_t *out, behave_feature_sink_pt sink, void *data)
{
    behave_token_t        *t;
    behave_stream_t        s;
    behave_annot_state_t   st;
    behave_model_state_t   m;

    behave_rules_init(&st);
    behave_model_init(&m);
    m.no_meaning = (flags & BEHAVE_ANNOT_NO_MEANING) != 0;
    m.claims_only = (flags & BEHAVE_ANNOT_CLAIMS_ONLY) != 0;
    m.sink = sink;
    m.sink_data = data;
    m.risk.sink = sink;
    m.risk.sink_data = data;

    s.head = 0;
    s.count = 0;
    s.eof = 0;
    behave_tok_init(&s.tz, text, len);

    for ( ;; ) {
        t = behave_peek(&s, 0);
        if (t == NULL) {
            break;
        }

        if (t->type == BEHAVE_TOK_WORD) {
            behave_on_word(&st, &s, &m);
            continue;
        }

        behave_on_token(&st, t, &m);
        behave_advance(&s, 1);
    }

    behave_rules_finish(&st, out);
    behave_model_finish(&m, out);
}


size_t
behave_cultural_tags(const behave_annotation_t *a, const char **tags,
    size_t max, char *buf, size_t buflen)
{
    size_t  n;

    n = 0;

    if ((a->cultural & BEHAVE_CULT_EN_GB) && n < max) {
        tags[n++] = "en-gb";
    }

    if ((a->cultural & BEHAVE_CULT_EN_US) && n < max) {
        tags[n++] = "en-us";
    }

    if ((a->cultural & BEHAVE_CULT_HONORIFIC) && n < max) {
        tags[n++] = "honorific";
    }

    if ((a->cultural & BEHAVE_CULT_INDIRECT) && n < max) {
        tags[n++] = "indirect_request";
    }

    if ((a->cultural & BEHAVE_CULT_NON_ENGLISH) && n < max && buf != NULL
        && buflen >= 16 && a->language[0] != '\0')
    {
        memcpy(buf, "non_english:", 12);
        buf[12] = a->language[0];
        buf[13] = a->language[1];
        buf[14] = '\0';
        tags[n++] = buf;
    }

    if ((a->cultural & BEHAVE_CULT_CODE_SWITCHING) && n < max) {
        tags[n++] = "code_switching";
    }

    return n;
}
