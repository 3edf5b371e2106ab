/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Conversation findings and the recommendation; the rules are described
 * in behave_conversation.h.
 *
 * The phrase tables (the files of phrases/, behave_conv_phrases.h) cover
 * what the annotator's cues may not (yet): the conversation logic must
 * hold on its own, so it counts the annotator's cue as one more piece of
 * evidence, never as the only one.  They are kept apart from
 * src/core/text/lexicon/ because each entry may carry the words used in
 * the reasons ("claimed the refund was processed").
 */

/* memmem() is a GNU extension */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "behave_conversation.h"
#include "behave_conv_index.h"
#include "behave_conv_phrases.h"
#include "behave_conv_state.h"
#include "behave_model.h"
#include "behave_similarity.h"


/*
 * Repetition thresholds on the behave_similarity() score, tuned on the
 * labelled data: without any re-ask marker the texts must be close; with
 * a contrast ("but where...") they may share the topic only; when the
 * customer says the question is still open ("yes or no", "I've read that
 * page") a shared key word or two is enough.  Unrelated questions score
 * below 0.12 in the data, same-topic different asks 0.25 to 0.40.
 */
#define BEHAVE_CONV_REP_HIGH    0.55
#define BEHAVE_CONV_REP_LOW     0.25
#define BEHAVE_CONV_REP_FLOOR   0.15

#define BEHAVE_CONV_ESC_WINDOW  4       /* customer turns looked at */
#define BEHAVE_CONV_ESC_ANGER   -1      /* "from": anger, not a severity */
#define BEHAVE_CONV_ESC_FALL    200     /* valence fall (thousandths) */
#define BEHAVE_CONV_ID_MIN      4       /* chars of an order number */

/* repetition by meaning: BEHAVE_CONV_MEANING_* in behave_conversation.h;
 * compared with the newest customer turns only, each annotated again */
#define BEHAVE_CONV_MEANING_WINDOW  4


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


#define behave_conv_pair(a, b)                                                \
    (((unsigned) (unsigned char) (a) << 5 ^ (unsigned char) (b))              \
     & (BEHAVE_CONV_PAIR_BITS - 1))


/* a turn's valence score (x1000) at or below which it reports trouble */
#define BEHAVE_CONV_DENY_VALENCE  -350


/* behave_conv_match()'s "negatable" for claims: nor after a plan */
#define BEHAVE_CONV_CLAIMED  2

/*
 * behave_conv_match()'s "negatable" for a topic (a specialist team): a
 * "not" or "never" before it counts, a "no" does not: "caí no golpe",
 * "no processo judicial" are Portuguese's "in the"
 */
#define BEHAVE_CONV_TOPIC    3

#define BEHAVE_CONV_BARE_NO  12     /* bytes of a bare "no" (no.tsv) */

#define BEHAVE_CONV_CONCEDE_WORDS  3    /* words before the "but" */

/* a short first message (vague_ref.tsv) and a cascade of questions */
#define BEHAVE_CONV_UNCLEAR_MAX  100    /* bytes of a short message */
#define BEHAVE_CONV_CASCADE      3      /* questions in one turn */


/*
 * The intents (intent_*.tsv), numbered from 1 in this order: a turn
 * takes the first it names, and a record keeps the number (append only,
 * at most 7)
 */
static const behave_conv_tab_e  behave_conv_intents[] = {
    BEHAVE_CONV_T_INTENT_CANCEL,
    BEHAVE_CONV_T_INTENT_REFUND,
    BEHAVE_CONV_T_INTENT_DELIVERY,
    BEHAVE_CONV_T_INTENT_ACCESS,
    BEHAVE_CONV_T_INTENT_DISCOUNT,
    BEHAVE_CONV_T_INTENT_CHARGE,
};


/* 1 + k's phrase of table id: what a record keeps, for the reasons */
#define behave_conv_quote(id, k)  (behave_conv_tables[id].tab[(k) - 1].phrase)


/* the index of behave_conv_tables[], built before the first match */
static pthread_once_t  behave_conv_once = PTHREAD_ONCE_INIT;


static const char  *behave_conv_guidance[] = {
    /* 0 crisis */
    "Put the person's safety first: respond with care and urgency, give "
    "emergency guidance if anyone is at risk, and connect a human now. Do "
    "not close the conversation or send scripted text.",
    /* 1 false resolution */
    "Do not say again that the issue is resolved. Acknowledge that it is "
    "still not working, apologise for the wrong confirmation, and hand over "
    "to a person who can check the fix before confirming anything.",
    /* 2 escalating */
    "Acknowledge the frustration and what the customer has already tried, "
    "without scripted apologies or links already sent. Hand over to a person "
    "with authority to act and say when they will be in touch.",
    /* 3 route */
    "Tell the customer which team will handle this and what happens next; "
    "do not decide it yourself or promise an outcome.",
    /* 4 simplify */
    "Answer in one or two short sentences in plain words, no jargon; give "
    "one step at a time and check it worked before the next.",
    /* 5 clarify after repetition */
    "The previous answer did not land: answer the exact question directly "
    "(yes or no first if that is what was asked), without pointing to the "
    "same page or policy text again.",
    /* 6 clarify unclear */
    "Ask one specific question to pin down the problem, offering concrete "
    "options the customer can pick from.",
    /* 7 resolve */
    "Answer the question directly and completely; do not present the issue "
    "as resolved until the customer confirms it.",
    /* 8 degraded */
    "Conversation context is unavailable: treat this message as possibly "
    "part of an ongoing problem, do not claim anything is resolved, and hand "
    "over to a person who can read the history.",
};


typedef enum {
    BEHAVE_GUIDE_CRISIS = 0,
    BEHAVE_GUIDE_FALSE_RESOLUTION,
    BEHAVE_GUIDE_ESCALATING,
    BEHAVE_GUIDE_ROUTE,
    BEHAVE_GUIDE_SIMPLIFY,
    BEHAVE_GUIDE_REPETITION,
    BEHAVE_GUIDE_UNCLEAR,
    BEHAVE_GUIDE_RESOLVE,
    BEHAVE_GUIDE_DEGRADED
} behave_conv_guide_e;


static void behave_conv_normalize(const char *in, size_t len,
    behave_conv_norm_t *out);
static void behave_conv_pairs(behave_conv_norm_t *t);
static int behave_conv_negated(const char *s, size_t at, int topic);
static int behave_conv_planned(const char *s, size_t at);
static int behave_conv_at(const behave_conv_norm_t *t, const char *phrase,
    size_t plen, size_t at, int negatable);
static int behave_conv_occurs(const behave_conv_norm_t *t,
    const char *phrase, size_t plen, int negatable);
static unsigned behave_conv_scan(const behave_conv_norm_t *t,
    const behave_conv_phrase_t *tab, size_t ntab, int negatable,
    const behave_conv_phrase_t **first);
static void behave_conv_index_init(void);
static unsigned behave_conv_indexed(const behave_conv_norm_t *t,
    behave_conv_tab_e id, int negatable, const behave_conv_phrase_t **first);
static unsigned behave_conv_match(const behave_conv_norm_t *t,
    behave_conv_tab_e id, int negatable, const behave_conv_phrase_t **first);
static int behave_conv_intensity(const char *text, size_t len);
static void behave_conv_ids(const behave_conv_norm_t *t,
    behave_conv_rec_t *rec);
static int behave_conv_asked(const behave_conv_rec_t *r);
static int behave_conv_ids_differ(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b);
static int behave_conv_has_question(const behave_conv_norm_t *t);
static size_t behave_conv_clause(const behave_conv_norm_t *t, size_t i);
static int behave_conv_phrase_at(const behave_conv_norm_t *t,
    behave_conv_list_e id, size_t at);
static int behave_conv_opens(const behave_conv_norm_t *t,
    behave_conv_list_e id, unsigned clauses);
static size_t behave_conv_word_in(const behave_conv_norm_t *t, size_t at,
    behave_conv_list_e id);
static size_t behave_conv_concedes(const behave_conv_norm_t *t);
static int behave_conv_plain_question(const behave_conv_norm_t *t);
static int behave_conv_follow_up(const behave_conv_norm_t *t);
static int behave_conv_compound_cost(const behave_conv_norm_t *t);
static unsigned behave_conv_focus(const behave_conv_norm_t *t);
static unsigned behave_conv_intent(const behave_conv_norm_t *t);
static int behave_conv_same_intent(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b);
static int behave_conv_focus_differs(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b);
static unsigned behave_conv_questions(const behave_conv_norm_t *t);
static unsigned behave_conv_first(const behave_conv_norm_t *t,
    behave_conv_tab_e id, int negatable, unsigned *count);
static int behave_conv_denies(const behave_conv_norm_t *cur, unsigned cues,
    int lost, unsigned *quote);
static unsigned behave_conv_claim(const behave_conv_norm_t *t,
    unsigned cues);
static const char *behave_conv_claim_what(unsigned k);
static int behave_conv_restates(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur);
static void behave_conv_false_resolution(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out);
static void behave_conv_repetition(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out,
    unsigned *similar);
static void behave_conv_escalation_second(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out, int *from);
static void behave_conv_escalation(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur_rec, unsigned reasks,
    behave_conv_result_t *out, int *from, int *turns);
static void behave_conv_assess_customer(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out);
static void behave_conv_recommend(const behave_conv_state_t *st,
    const behave_conv_rec_t *current,
    behave_conv_result_t *out, int esc_from, int esc_turns, int opening);
static void behave_conv_review(behave_conv_result_t *out);
static void behave_conv_init(behave_conv_result_t *out, size_t n);

/*
 * Lowercases ASCII, maps U+2018/U+2019 to "'" and runs of whitespace to
 * one space; stops before a multibyte character that would not fit.
 */

static void
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
static int
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


#define behave_conv_plan_in(s, from, to)                                      \
    behave_conv_word_from(s, from, to, BEHAVE_CONV_L_PLAN)

#define behave_conv_perfect_in(s, to)                                         \
    behave_conv_word_from(s, 0, to, BEHAVE_CONV_L_PERFECT)


static int
behave_conv_planned(const char *s, size_t at)
{
    size_t  from, k;

    from = behave_conv_clause_start(s, at, 24);

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
static int
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

static unsigned
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


/*
 * Raised voice, from the original text: a run of "!!", "??", "?!" and
 * shouting (an all-capitals word of five letters or more: shorter ones are
 * mostly acronyms, "SAML", "CSV").  Returns 0, 1 or 2 points.
 */

static int
behave_conv_intensity(const char *text, size_t len)
{
    size_t  i, run;
    int     punct, caps;

    punct = 0;
    caps = 0;

    for (i = 0; i + 1 < len; i++) {
        if ((text[i] == '!' || text[i] == '?')
            && (text[i + 1] == '!' || text[i + 1] == '?'))
        {
            punct = 1;
            break;
        }
    }

    i = 0;

    while (i < len) {
        if (!(text[i] >= 'A' && text[i] <= 'Z')) {
            i++;
            continue;
        }

        if (i > 0 && ((text[i - 1] >= 'a' && text[i - 1] <= 'z')
                      || (text[i - 1] >= '0' && text[i - 1] <= '9')))
        {
            i++;
            continue;
        }

        run = 0;
        while (i < len && text[i] >= 'A' && text[i] <= 'Z') {
            run++;
            i++;
        }

        if (i < len && ((text[i] >= 'a' && text[i] <= 'z')
                        || (text[i] >= '0' && text[i] <= '9')))
        {
            continue;               /* "IdP", "LS6" */
        }

        if (run >= 5) {
            caps = 1;
            break;
        }
    }

    return punct + caps;
}


int
behave_conversation_severity(const behave_annotation_t *a, const char *text,
    size_t len)
{
    int                  s, points;
    behave_conv_norm_t   norm;

    s = 0;

    if (a->valence == BEHAVE_VALENCE_NEGATIVE
        || a->valence == BEHAVE_VALENCE_MIXED)
    {
        s = 1;
    }

    if (a->valence_blend <= -0.75) {
        s = 3;

    } else if (a->valence_blend <= -0.5) {
        s = 2;
    }

    switch (a->urgency) {
    case BEHAVE_URGENCY_MEDIUM:
        s = s > 2 ? s : 2;
        break;
    case BEHAVE_URGENCY_HIGH:
        s = s > 3 ? s : 3;
        break;
    case BEHAVE_URGENCY_CRITICAL:
        s = 4;
        break;
    default:
        break;
    }

    if ((a->cues & BEHAVE_CUE_CRISIS)
        || a->social_register == BEHAVE_REGISTER_CRISIS)
    {
        s = 4;
    }

    if (s == 0 && (a->cues & BEHAVE_CUE_NOT_RESOLVED)) {
        s = 1;
    }

    if (s == 0 && text != NULL) {
        behave_conv_normalize(text, len, &norm);
        if (behave_conv_match(&norm, BEHAVE_CONV_T_NOT_RESOLVED, 0, NULL)) {
            s = 1;
        }
    }

    points = text != NULL ? behave_conv_intensity(text, len) : 0;

    if (points == 2 && s < 3) {
        s = 3;

    } else if (points == 1 && s < 2) {
        s = 2;
    }

    return s;
}


/*
 * Order-like tokens ("#1234", "20gb", "ab12cd"): a word of
 * BEHAVE_CONV_ID_MIN or more characters with a digit.  "23 kg", "5 times"
 * are amounts; an order or a plan is longer.  The first BEHAVE_CONV_IDS
 * are kept as FNV-1a hashes; nids counts them all.
 */

static void
behave_conv_ids(const behave_conv_norm_t *t, behave_conv_rec_t *rec)
{
    size_t    i, e;
    int       digit;
    uint32_t  h;

    for (i = 0; i < t->len; i = e) {
        e = i;
        digit = 0;
        h = 2166136261u;

        while (e < t->len && behave_conv_is_word((unsigned char) t->text[e])) {
            digit |= (t->text[e] >= '0' && t->text[e] <= '9');
            h = (h ^ (unsigned char) t->text[e]) * 16777619u;
            e++;
        }

        if (e == i) {
            e++;
            continue;
        }

        if (!digit || e - i < BEHAVE_CONV_ID_MIN) {
            continue;
        }

        if (rec->nids < BEHAVE_CONV_IDS) {
            rec->ids[rec->nids] = h;
        }

        rec->nids += rec->nids < 255;
    }
}


/* a turn that asked something: only it can be asked again */
static int
behave_conv_asked(const behave_conv_rec_t *r)
{
    return (r->flags & BEHAVE_CONV_F_QUESTION)
           || (r->cues & (BEHAVE_CUE_QUESTION | BEHAVE_CUE_ASKS));
}


/* "order #1234" and "#1240": both name a number, and not the same one */
static int
behave_conv_ids_differ(const behave_conv_rec_t *a, const behave_conv_rec_t *b)
{
    unsigned  i, j, na, nb;

    if (a->nids == 0) {
        return 0;
    }

    na = a->nids < BEHAVE_CONV_IDS ? a->nids : BEHAVE_CONV_IDS;
    nb = b->nids < BEHAVE_CONV_IDS ? b->nids : BEHAVE_CONV_IDS;

    for (i = 0; i < na; i++) {
        for (j = 0; j < nb; j++) {
            if (a->ids[i] == b->ids[j]) {
                return 0;           /* a number in common */
            }
        }
    }

    return b->nids > 0;
}


static int
behave_conv_has_question(const behave_conv_norm_t *t)
{
    return memchr(t->text, '?', t->len) != NULL
           || behave_conv_match(t, BEHAVE_CONV_T_ASKS, 0, NULL) > 0;
}


/*
 * Where the clause that may start at i begins its first word, past an
 * opening "¿", "¡" or quote, or BEHAVE_CONV_NO_POS when i starts none: a
 * clause starts the text or follows a punctuation mark and a space.
 */
static size_t
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
static int
behave_conv_phrase_at(const behave_conv_norm_t *t, behave_conv_list_e id,
    size_t at)
{
    size_t                       k;
    const behave_conv_phrase_t  *tab;

    tab = behave_conv_lists[id].tab;

    for (k = 0; k < behave_conv_lists[id].n; k++) {
        if (behave_conv_at(t, tab[k].phrase, strlen(tab[k].phrase), at, 0)) {
            return 1;
        }
    }

    return 0;
}


/* a phrase of list id opens one of the first clauses (0: any clause) */
static int
behave_conv_opens(const behave_conv_norm_t *t, behave_conv_list_e id,
    unsigned clauses)
{
    size_t    i, at;
    unsigned  seen;

    seen = 0;

    for (i = 0; i < t->len; i++) {
        at = behave_conv_clause(t, i);
        if (at == BEHAVE_CONV_NO_POS) {
            continue;
        }

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
static size_t
behave_conv_word_in(const behave_conv_norm_t *t, size_t at,
    behave_conv_list_e id)
{
    size_t                       k, len;
    const behave_conv_phrase_t  *tab;

    tab = behave_conv_lists[id].tab;

    for (k = 0; k < behave_conv_lists[id].n; k++) {
        len = strlen(tab[k].phrase);

        if (behave_conv_at(t, tab[k].phrase, len, at, 0)) {
            return len + 1;
        }
    }

    return 0;
}


/*
 * "schon klar, aber...", "Top. Mais du coup...", "tá mas...": a few words
 * that take the answer, then "but": the question is still open.  Returns
 * where the words after the "but" start, 0 for none.
 */
static size_t
behave_conv_concedes(const behave_conv_norm_t *t)
{
    size_t    i, n;
    unsigned  words;

    words = 0;
    i = 0;

    while (i < t->len && words <= BEHAVE_CONV_CONCEDE_WORDS) {
        while (i < t->len && !behave_conv_is_word((unsigned char) t->text[i])) {
            i++;
        }

        if (i == t->len) {
            return 0;
        }

        n = behave_conv_word_in(t, i, BEHAVE_CONV_L_BUT);
        if (n > 0) {
            return words > 0 ? i + n : 0;
        }

        while (i < t->len && (behave_conv_is_word((unsigned char) t->text[i])
                              || t->text[i] == '\''))
        {
            i++;
        }

        words++;
    }

    return 0;
}


/* asked without a question mark: an interrogative opens a clause, or
 * follows a concession ("ok but like what's...") */
static int
behave_conv_plain_question(const behave_conv_norm_t *t)
{
    size_t  at;

    if (behave_conv_opens(t, BEHAVE_CONV_L_INTERROGATIVE, 0)) {
        return 1;
    }

    at = behave_conv_concedes(t);
    if (at == 0) {
        return 0;
    }

    if (at + 5 <= t->len && memcmp(t->text + at, "like ", 5) == 0) {
        at += 5;
    }

    return behave_conv_phrase_at(t, BEHAVE_CONV_L_INTERROGATIVE, at);
}


/* see additive.tsv and ack_open.tsv */
static int
behave_conv_follow_up(const behave_conv_norm_t *t)
{
    size_t  at, n;

    if (behave_conv_opens(t, BEHAVE_CONV_L_ADDITIVE, 2)) {
        return 1;
    }

    at = behave_conv_clause(t, 0);
    n = behave_conv_word_in(t, at, BEHAVE_CONV_L_ACK_OPEN);

    /* the acknowledgement is a clause of its own, and more follows */
    return n > 0 && at + n < t->len && strchr(".,!;:", t->text[at + n - 1])
           != NULL;
}


/* German compounds end in what they are (cost_suffix.tsv) */
static int
behave_conv_compound_cost(const behave_conv_norm_t *t)
{
    size_t                      i, e, k, len;
    const behave_conv_table_t  *suffix;

    suffix = &behave_conv_lists[BEHAVE_CONV_L_COST_SUFFIX];

    for (i = 0; i < t->len; i = e + 1) {
        e = i;
        while (e < t->len && behave_conv_is_word((unsigned char) t->text[e])) {
            e++;
        }

        for (k = 0; k < suffix->n; k++) {
            len = strlen(suffix->tab[k].phrase);

            if (e - i > len
                && memcmp(t->text + e - len, suffix->tab[k].phrase, len)
                   == 0)
            {
                return 1;
            }
        }
    }

    return 0;
}


/* what the turn asks about: BEHAVE_CONV_F_COST, _LIMIT, _DURATION */
static unsigned
behave_conv_focus(const behave_conv_norm_t *t)
{
    unsigned  f;

    f = 0;

    if (behave_conv_match(t, BEHAVE_CONV_T_FOCUS_COST, 0, NULL)
        || behave_conv_compound_cost(t))
    {
        f |= BEHAVE_CONV_F_COST;
    }

    if (behave_conv_match(t, BEHAVE_CONV_T_FOCUS_LIMIT, 0, NULL)) {
        f |= BEHAVE_CONV_F_LIMIT;
    }

    if (behave_conv_match(t, BEHAVE_CONV_T_FOCUS_DURATION, 0, NULL)) {
        f |= BEHAVE_CONV_F_DURATION;
    }

    return f;
}


/* 1 + the first of behave_conv_intents[] that t names, 0 for none */
static unsigned
behave_conv_intent(const behave_conv_norm_t *t)
{
    size_t  i;

    for (i = 0; i < sizeof(behave_conv_intents)
                    / sizeof(behave_conv_intents[0]); i++)
    {
        if (behave_conv_match(t, behave_conv_intents[i], 0, NULL)) {
            return (unsigned) i + 1;
        }
    }

    return 0;
}


/* both turns name one intent: the same ask, whatever the words */
static int
behave_conv_same_intent(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b)
{
    unsigned  ia;

    ia = a->flags & BEHAVE_CONV_F_INTENT;

    return ia != 0 && ia == (b->flags & BEHAVE_CONV_F_INTENT);
}


/* both turns ask about something named, and not about the same thing */
static int
behave_conv_focus_differs(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b)
{
    unsigned  fa, fb;

    fa = a->flags & BEHAVE_CONV_F_FOCUS;
    fb = b->flags & BEHAVE_CONV_F_FOCUS;

    return fa != 0 && fb != 0 && (fa & fb) == 0;
}


/* questions asked: each run of '?' (and each opening '¿') */
static unsigned
behave_conv_questions(const behave_conv_norm_t *t)
{
    size_t    i;
    unsigned  n;

    n = 0;

    for (i = 0; i < t->len; i++) {
        if (t->text[i] == '?' && (i + 1 == t->len || t->text[i + 1] != '?')) {
            n++;
        }
    }

    return n;
}


/* 1 + the index of the first phrase of tab that t holds, 0 for none */
static unsigned
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
 * The turn ends in a question that asks to confirm ("..., right?", "¿no?",
 * "né?", "n'est-ce pas ?", "oder?"): it checks what it believes, it does
 * not report that anything is wrong
 */
static int
behave_conv_tag_question(const behave_conv_norm_t *t)
{
    size_t                      e, k, n;
    const behave_conv_table_t  *tag;

    tag = &behave_conv_lists[BEHAVE_CONV_L_TAG_QUESTION];

    e = t->len;

    while (e > 0 && (t->text[e - 1] == ' ' || t->text[e - 1] == '.')) {
        e--;
    }

    if (e == 0 || t->text[e - 1] != '?') {
        return 0;
    }

    e--;

    while (e > 0 && t->text[e - 1] == ' ') {
        e--;
    }

    for (k = 0; k < tag->n; k++) {
        n = strlen(tag->tab[k].phrase);

        if (n < e && memcmp(t->text + e - n, tag->tab[k].phrase, n) == 0
            && !behave_conv_is_word((unsigned char) t->text[e - n - 1]))
        {
            return 1;
        }
    }

    return 0;
}


/* where the text after the last "but" of but.tsv starts, or 0 */
static size_t
behave_conv_last_but(const behave_conv_norm_t *t)
{
    size_t  i, n, last;

    last = 0;
    i = 0;

    while (i < t->len) {
        while (i < t->len && !behave_conv_is_word((unsigned char) t->text[i])) {
            i++;
        }

        n = behave_conv_word_in(t, i, BEHAVE_CONV_L_BUT);
        if (n > 0) {
            last = i + n - 1;
        }

        while (i < t->len && (behave_conv_is_word((unsigned char) t->text[i])
                              || t->text[i] == '\''))
        {
            i++;
        }
    }

    return last;
}


/*
 * "it wasn't working this morning but it's fine now", "ça ne marchait
 * pas mais ça marche enfin", "ging nichts, aber jetzt läuft es wieder
 * einwandfrei": a trouble conceded as past, then what the customer sees
 * now; the clause after the last "but" confirms that it works, and says
 * no more against it than for it
 */
static int
behave_conv_works_after_but(const behave_conv_norm_t *cur)
{
    size_t               at;
    unsigned             neg, strong;
    behave_conv_norm_t   tail;

    at = behave_conv_last_but(cur);
    if (at == 0) {
        return 0;
    }

    tail.len = cur->len - at;
    memcpy(tail.text, cur->text + at, tail.len);
    tail.text[tail.len] = '\0';
    tail.pairs_ready = 0;
    tail.cands_ready = 0;

    strong = behave_conv_match(&tail, BEHAVE_CONV_T_CONFIRM_STRONG, 1, NULL);
    if (strong == 0) {
        return 0;
    }

    neg = behave_conv_match(&tail, BEHAVE_CONV_T_NOT_RESOLVED, 0, NULL);

    return neg <= strong;
}


/*
 * "lol no. 'This link has expired'", "pues no, ...", "uh no, ...": the
 * first clause is a bare answer that ends in "no", the rest says why;
 * "no app, ..." (Portuguese's "in the") does not end in it
 */
static int
behave_conv_answers_no(const behave_conv_norm_t *t)
{
    size_t  e;

    for (e = 0; e < t->len && strchr(".,!;:?", t->text[e]) == NULL; e++) {
        /* void */
    }

    return e < t->len && e >= 2 && e <= BEHAVE_CONV_BARE_NO
           && t->text[e - 1] == 'o' && t->text[e - 2] == 'n'
           && (e == 2 || !behave_conv_is_word((unsigned char) t->text[e - 3]));
}


/*
 * "hi, I've got a problem", "tengo un problema con la tarjeta", "j'ai un
 * souci avec ma commande": the turn ends on saying that there is a
 * problem, never what it is (the last clause names it, nothing follows);
 * "I have a problem, my card was declined" says what it is
 */
#define BEHAVE_CONV_PROBLEM_MAX  64     /* bytes of such a turn */

static int
behave_conv_only_problem(const behave_conv_norm_t *t)
{
    size_t                      e, b, k, n;
    const char                 *p;
    const behave_conv_table_t  *problem;

    problem = &behave_conv_lists[BEHAVE_CONV_L_ONLY_PROBLEM];

    if (t->len > BEHAVE_CONV_PROBLEM_MAX) {
        return 0;
    }

    e = t->len;

    while (e > 0 && strchr(" .!?", t->text[e - 1]) != NULL) {
        e--;
    }

    for (b = e; b > 0 && strchr(".,!?;:", t->text[b - 1]) == NULL; b--) {
        /* void */
    }

    for (k = 0; k < problem->n; k++) {
        n = strlen(problem->tab[k].phrase);
        p = memmem(t->text + b, e - b, problem->tab[k].phrase, n);

        if (p != NULL
            && (p == t->text || !behave_conv_is_word((unsigned char) p[-1]))
            && (p + n == t->text + e
                || !behave_conv_is_word((unsigned char) p[n])))
        {
            return 1;
        }
    }

    return 0;
}


/*
 * "it doesnt work", "isto não dá.", "ça bug", "geht nicht": the whole turn
 * says that something fails and never what (no subject, or only "it",
 * "this", "isso", "ça", "das"); "the app crashes" names what
 */
static int
behave_conv_only_fails(const behave_conv_norm_t *t)
{
    size_t                      b, e, k, n;
    const behave_conv_table_t  *subject, *fails;

    subject = &behave_conv_lists[BEHAVE_CONV_L_FAILS_SUBJECT];
    fails = &behave_conv_lists[BEHAVE_CONV_L_FAILS];

    e = t->len;

    while (e > 0 && strchr(" .!?", t->text[e - 1]) != NULL) {
        e--;
    }

    b = 0;

    for (k = 0; k < subject->n; k++) {
        n = strlen(subject->tab[k].phrase);

        if (n < e && memcmp(t->text, subject->tab[k].phrase, n) == 0) {
            b = n;
            break;
        }
    }

    for (k = 0; k < fails->n; k++) {
        n = strlen(fails->tab[k].phrase);

        if (e - b == n && memcmp(t->text + b, fails->tab[k].phrase, n) == 0) {
            return 1;
        }
    }

    return 0;
}


/* 1 if customer text cur says the issue is not settled; *quote says how */
static int
behave_conv_denies(const behave_conv_norm_t *cur, unsigned cues, int lost,
    unsigned *quote)
{
    int       tag;
    unsigned  neg, strong, aff;

    *quote = behave_conv_first(cur, BEHAVE_CONV_T_NOT_RESOLVED,
                               0, &neg);
    strong = behave_conv_match(cur,
                               BEHAVE_CONV_T_CONFIRM_STRONG,
                               1, NULL);

    /* the annotator's clause, on the same footing when no confirmation
     * that it worked is there; "it's still at 10:30, right?", "¿sigue
     * siendo con ella, verdad?" ask to confirm what stays, and only a
     * denial in so many words counts there */
    tag = behave_conv_tag_question(cur);

    if (!tag
        && ((cues & BEHAVE_CUE_NOT_RESOLVED)
            || ((cues & BEHAVE_CUE_PERSISTS) && strong == 0)))
    {
        neg++;
    }

    aff = behave_conv_match(cur, BEHAVE_CONV_T_AFFECT_NEG, 0, NULL);
    neg = neg > 2 * aff ? neg - 2 * aff : 0;

    /* "thanks again!" repeats the thanks, not the problem */
    if (neg == 1 && *quote > 0
        && strcmp(behave_conv_quote(BEHAVE_CONV_T_NOT_RESOLVED, *quote),
                  "again") == 0
        && (memmem(cur->text, cur->len, "thanks again", 12) != NULL
            || memmem(cur->text, cur->len, "thank you again", 15) != NULL))
    {
        neg = 0;
    }

    /*
     * Right after a claim, a negation that nothing confirms answers it:
     * "no payment has been received", "nothing on file", "rien", and
     * after thanks too ("Cheers. Just looked and no, the money's not
     * there": only a confirmation that it worked outweighs it); but not
     * a polite close ("thanks, nothing else", "no worries"), nor the
     * negation of "I don't understand",
     * "no entiendo nada": the answer did not land, which says nothing of
     * whether the issue is settled (labels.md: clarify or simplify)
     */
    if (neg == 0 && strong == 0 && !lost
        && ((cues & BEHAVE_CUE_NEGATION)
            || behave_conv_match(cur, BEHAVE_CONV_T_NEGATORS, 0, NULL)
            || (cur->len <= BEHAVE_CONV_BARE_NO
                && behave_conv_match(cur, BEHAVE_CONV_T_NO, 0, NULL))
            || behave_conv_answers_no(cur))
        && !behave_conv_match(cur, BEHAVE_CONV_T_CLOSING, 0, NULL))
    {
        neg++;
    }

    /*
     * A denial outweighs politeness ("thank you, but the charge is still
     * there": labels.md's "the customer's next turn says it is not"), not
     * a confirmation that it worked
     */
    if (neg == 0 || neg <= strong) {
        return 0;
    }

    return !behave_conv_works_after_but(cur);
}


/*
 * German and French put the negation after the verb: "das geht jetzt
 * nicht", "ça marche maintenant pas" (spoken), "funktioniert wieder
 * nicht": the settled state is denied, not claimed
 */
static int
behave_conv_negated_after(const behave_conv_norm_t *t, const char *phrase)
{
    size_t                      k, n, at;
    const char                 *p;
    const behave_conv_table_t  *neg;

    neg = &behave_conv_lists[BEHAVE_CONV_L_NEGATION_AFTER];

    p = memmem(t->text, t->len, phrase, strlen(phrase));
    if (p == NULL) {
        return 0;
    }

    at = (size_t) (p - t->text) + strlen(phrase);

    for (k = 0; k < neg->n; k++) {
        n = strlen(neg->tab[k].phrase);

        if (at + n <= t->len && memcmp(t->text + at, neg->tab[k].phrase, n) == 0
            && (at + n == t->len
                || !behave_conv_is_word((unsigned char) t->text[at + n])))
        {
            return 1;
        }
    }

    return 0;
}


/*
 * 1 + the index in claims.tsv of a claim of claims_more.tsv: the first
 * that says the same ("what"), so that the record keeps a byte
 */
static unsigned
behave_conv_claim_more(const behave_conv_norm_t *t)
{
    size_t                      i;
    unsigned                    m;
    const behave_conv_table_t  *claims, *more;

    claims = &behave_conv_tables[BEHAVE_CONV_T_CLAIMS];
    more = &behave_conv_tables[BEHAVE_CONV_T_CLAIMS_MORE];

    m = behave_conv_first(t, BEHAVE_CONV_T_CLAIMS_MORE, BEHAVE_CONV_CLAIMED,
                          NULL);
    if (m == 0 || behave_conv_negated_after(t, more->tab[m - 1].phrase)) {
        return 0;
    }

    for (i = 0; i < claims->n; i++) {
        if (strcmp(claims->tab[i].what, more->tab[m - 1].what) == 0) {
            return (unsigned) i + 1;
        }
    }

    return 0;
}


/* an agent turn: does it present the issue as settled, and how */
static unsigned
behave_conv_claim(const behave_conv_norm_t *t, unsigned cues)
{
    unsigned  k;

    if (cues & BEHAVE_CUE_CLAIM_HELD) {
        return 0;
    }

    k = behave_conv_first(t, BEHAVE_CONV_T_CLAIMS, BEHAVE_CONV_CLAIMED, NULL);

    if (k == 0) {
        k = behave_conv_claim_more(t);
    }

    /*
     * The annotator's cue sees a deed's verb in any tense ("vamos
     * reembolsar", "nous allons rembourser"): with no settled phrase of
     * the table, a plan or a condition in the turn and no deed told as
     * done make it a promise, not a claim that the issue is settled
     */
    if (k == 0 && (cues & BEHAVE_CUE_RESOLUTION_CLAIM)
        && (!behave_conv_plan_in(t->text, 0, t->len)
            || behave_conv_perfect_in(t->text, t->len)))
    {
        k = BEHAVE_CONV_CLAIM_CUE;
    }

    return k;
}


static const char *
behave_conv_claim_what(unsigned k)
{
    if (k >= 1 && k <= behave_conv_tables[BEHAVE_CONV_T_CLAIMS].n) {
        return behave_conv_tables[BEHAVE_CONV_T_CLAIMS].tab[k - 1].what;
    }

    return "the issue was resolved";
}


void
behave_conversation_record(const behave_turn_t *t, behave_conv_rec_t *rec)
{
    int                   lost;
    double                v;
    unsigned              f, q;
    behave_sim_set_t      set;
    behave_conv_norm_t    norm;
    behave_annotation_t   a;

    memset(rec, 0, sizeof(*rec));

    rec->customer = t->speaker == BEHAVE_SPEAKER_CUSTOMER;
    rec->severity = t->severity < 0 ? 0 : t->severity > 4 ? 4 : t->severity;
    rec->urgency = t->urgency;
    rec->load = t->load;
    rec->cues = t->cues;

    /* stored turns keep three decimals: so does the record */
    v = t->valence_score < -1 ? -1 : t->valence_score > 1 ? 1
        : t->valence_score;
    rec->valence = (int) lround(v * 1000.0);

    behave_conv_normalize(t->text, t->text_len, &norm);

    if (!rec->customer) {
        rec->claim = behave_conv_claim(&norm, t->cues);
        return;
    }

    f = 0;

    rec->overload = behave_conv_first(&norm,
                                      BEHAVE_CONV_T_OVERLOAD, 0,
                                      NULL);
    rec->confusion = behave_conv_first(&norm,
                                       BEHAVE_CONV_T_CONFUSION,
                                       0, NULL);

    /* "I don't see it" after a claim says it is not there */
    lost = rec->overload
           || (rec->confusion
               && strcmp(behave_conv_quote(BEHAVE_CONV_T_CONFUSION,
                                           rec->confusion), "don't see")
                  != 0);

    if (behave_conv_denies(&norm, t->cues, lost, &rec->quote))
    {
        f |= BEHAVE_CONV_F_DENIES;
    }

    /*
     * "it's freezing in here, the radiators are stone cold": a clearly
     * unhappy turn that neither thanks nor asks reports the problem as it
     * still is, whatever its words
     */
    if (rec->valence <= BEHAVE_CONV_DENY_VALENCE
        && !(t->cues & (BEHAVE_CUE_THANKS | BEHAVE_CUE_QUESTION
                        | BEHAVE_CUE_ASKS))
        && !behave_conv_has_question(&norm))
    {
        f |= BEHAVE_CONV_F_DENIES;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_REASK_STRONG, 0, NULL)) {
        f |= BEHAVE_CONV_F_STRONG;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_ANGER, 0, NULL))
    {
        f |= BEHAVE_CONV_F_ANGER;
    }

    if (norm.len <= BEHAVE_CONV_UNCLEAR_MAX
        && strpbrk(norm.text, "0123456789") == NULL
        && (behave_conv_match(&norm, BEHAVE_CONV_T_VAGUE_REF, 0, NULL)
            || behave_conv_only_problem(&norm)
            || behave_conv_only_fails(&norm)))
    {
        f |= BEHAVE_CONV_F_UNCLEAR;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_YES_BUT, 0, NULL)
        || behave_conv_concedes(&norm))
    {
        f |= BEHAVE_CONV_F_OPEN | BEHAVE_CONV_F_REASK;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_REASK, 0, NULL)
        || behave_conv_match(&norm, BEHAVE_CONV_T_CONFUSION, 0, NULL)
        || behave_conv_match(&norm, BEHAVE_CONV_T_OVERLOAD, 0, NULL))
    {
        f |= BEHAVE_CONV_F_REASK;
    }

    if (behave_conv_has_question(&norm) || behave_conv_plain_question(&norm))
    {
        f |= BEHAVE_CONV_F_QUESTION;
    }

    f |= behave_conv_focus(&norm);
    f |= behave_conv_intent(&norm) << BEHAVE_CONV_F_INTENT_SHIFT;

    /*
     * labels.md's overload: "I don't understand any of this" with a
     * cascade of questions ("Photo size? Countersignatory? Extra
     * months??") cannot cope with the information given
     */
    q = behave_conv_questions(&norm);

    if (q > BEHAVE_CONV_CASCADE
        || ((rec->confusion || (t->cues & BEHAVE_CUE_CONFUSION))
            && q >= BEHAVE_CONV_CASCADE))
    {
        f |= BEHAVE_CONV_F_OVERLOAD;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_CONFIRM_STRONG, 1, NULL)
        || behave_conv_match(&norm, BEHAVE_CONV_T_CONFIRM_WEAK, 1, NULL)
        || behave_conv_follow_up(&norm))
    {
        f |= BEHAVE_CONV_F_ACK;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_REPEAT_CONTACT, 0, NULL)) {
        f |= BEHAVE_CONV_F_REPEAT;
    }

    rec->flags = f;

    rec->specialist = behave_conv_first(&norm,
                                        BEHAVE_CONV_T_SPECIALIST,
                                        BEHAVE_CONV_TOPIC, NULL);
    rec->vague = behave_conv_first(&norm, BEHAVE_CONV_T_VAGUE,
                                   0, &rec->vague_n);

    behave_conv_ids(&norm, rec);

    behave_sim_prepare(t->text, t->text_len, &set);
    behave_sim_sketch(&set, &rec->sketch);

    /* a record decoded from an older log has no signature: annotate */
    if (t->has_meaning) {
        memcpy(rec->meaning, t->meaning, BEHAVE_MEANING_DIM);

    } else {
        behave_annotate(t->text, t->text_len, &a);
        memcpy(rec->meaning, a.meaning, BEHAVE_MEANING_DIM);
    }
}


/*
 * "the same problem again" (labels.md) in the customer's own words: after
 * a claim, a turn that says again what an earlier customer turn said ("my
 * order hasn't arrived" ... "nothing has arrived here"), by its letters
 * or its meaning, and neither thanks nor confirms, reports the problem as
 * it still is ("then why did I just get charged £340?").  Said again with
 * "I don't understand", the answer did not land: a repetition to
 * clarify, not a report.  Returns the earlier turn, or -1.
 */
static int
behave_conv_restates(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur)
{
    size_t                i, window;
    behave_similarity_t   sim;

    if ((cur->flags & (BEHAVE_CONV_F_ACK | BEHAVE_CONV_F_OVERLOAD))
        || (cur->cues & (BEHAVE_CUE_THANKS | BEHAVE_CUE_CONFUSION))
        || cur->valence > 0 || cur->confusion || cur->overload)
    {
        return -1;
    }

    window = st->nrec < BEHAVE_CONV_REP_WINDOW ? st->nrec
                                               : BEHAVE_CONV_REP_WINDOW;

    for (i = 0; i < window; i++) {
        behave_sim_sketch_compare(&cur->sketch, &st->rec[i].sketch, &sim);

        if (sim.score >= BEHAVE_CONV_REP_HIGH
            || (i < BEHAVE_CONV_MEANING_WINDOW && i < st->nmean
                && behave_meaning_cosine(cur->meaning, st->rec[i].meaning)
                   >= BEHAVE_CONV_MEANING_REPEAT))
        {
            return (int) st->rec[i].turn;
        }
    }

    return -1;
}


static void
behave_conv_false_resolution(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out)
{
    int  restated;

    if (st->claim_turn == BEHAVE_CONV_NONE) {
        return;
    }

    restated = -1;

    if (!(cur->flags & BEHAVE_CONV_F_DENIES)) {
        restated = behave_conv_restates(st, cur);
        if (restated < 0) {
            return;
        }
    }

    out->false_resolution = 1;
    out->claim_turn = (int) st->claim_turn;

    snprintf(out->false_resolution_reason,
             sizeof(out->false_resolution_reason),
             "agent turn %d claimed %s; customer turn %d says it is not "
             "(\"%s\")",
             out->claim_turn, behave_conv_claim_what(st->claim_what),
             (int) st->turns,
             restated >= 0 ? "the same problem as before"
             : cur->quote > 0 ? behave_conv_quote(BEHAVE_CONV_T_NOT_RESOLVED,
                                                  cur->quote)
                              : "it is not resolved");
}


static void
behave_conv_repetition(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out,
    unsigned *similar)
{
    int                   strong, said, reask, best_turn, open_turn;
    size_t                i, window, best_i;
    double                best, need, cosine, score, open_score;
    behave_similarity_t   sim;

    *similar = 0;
    best = 0.0;
    best_turn = -1;
    best_i = 0;
    open_turn = -1;
    open_score = 0.0;

    strong = (cur->flags & BEHAVE_CONV_F_STRONG) != 0;

    said = strong || (cur->flags & BEHAVE_CONV_F_REASK);
    reask = said || (cur->cues & (BEHAVE_CUE_CONFUSION | BEHAVE_CUE_CONTRAST));

    need = strong ? BEHAVE_CONV_REP_FLOOR
                  : reask ? BEHAVE_CONV_REP_LOW : BEHAVE_CONV_REP_HIGH;

    /*
     * The most recent customer turns only, newest first: a re-ask answers
     * what went before it, and the cost stays flat however long the
     * conversation grows.
     */
    window = st->nrec < BEHAVE_CONV_REP_WINDOW ? st->nrec
                                               : BEHAVE_CONV_REP_WINDOW;

    for (i = 0; i < window; i++) {
        behave_sim_sketch_compare(&cur->sketch, &st->rec[i].sketch, &sim);

        cosine = 0;
        if (i < BEHAVE_CONV_MEANING_WINDOW && i < st->nmean) {
            cosine = behave_meaning_cosine(cur->meaning, st->rec[i].meaning);
        }

        score = sim.score > cosine ? sim.score : cosine;

        /* reported as measured, whether or not it counts */
        if (score > out->repetition_similarity) {
            out->repetition_similarity = score;
        }

        /*
         * "ok, but when does it get here", "that wasn't my question": the
         * customer says the question is still open, so the newest earlier
         * turn that asked something is asked again, in whatever words
         * (labels.md: "in the same or other words")
         */
        /*
         * "its charging weird again": an unclear turn asked nothing
         * clear; the turn that gives the details the agent then asked
         * for is not its repetition
         */
        if (st->rec[i].flags & BEHAVE_CONV_F_UNCLEAR) {
            continue;
        }

        if (open_turn < 0
            && (strong || (cur->flags & BEHAVE_CONV_F_OPEN))
            && behave_conv_asked(&st->rec[i])
            && !behave_conv_ids_differ(cur, &st->rec[i]))
        {
            open_turn = (int) st->rec[i].turn;
            open_score = score;
        }

        /* a re-ask in so many words ("ok, but...", "that wasn't my
         * question") may use other words: its meaning counts as much as
         * its letters; a mere "but" or "though" does not */
        if ((said ? score : sim.score) < need
            && cosine < (said ? BEHAVE_CONV_MEANING_SAID
                              : BEHAVE_CONV_MEANING_REPEAT)
            && !behave_conv_same_intent(cur, &st->rec[i])
            && !(cur->flags & st->rec[i].flags & BEHAVE_CONV_F_FOCUS))
        {
            continue;
        }

        if (!(behave_conv_asked(&st->rec[i])
              || (st->rec[i].flags & BEHAVE_CONV_F_DENIES)
              || st->rec[i].turn == 0))
        {
            continue;
        }

        if (behave_conv_ids_differ(cur, &st->rec[i])) {
            continue;               /* same shape, another order or plan */
        }

        /* "and the fee?" after "how long does it take?": a new ask,
         * unless the customer says the question is still open */
        if (!strong && behave_conv_focus_differs(cur, &st->rec[i])) {
            continue;
        }

        (*similar)++;

        /* on a tie the earlier turn is named, as it was asked first */
        if (score >= best) {
            best = score;
            best_turn = (int) st->rec[i].turn;
            best_i = i;
        }
    }

    if (best_turn < 0 && open_turn >= 0) {
        best_turn = open_turn;
        best = open_score;
        (*similar)++;
    }

    /* "Ich wollte aber wissen, ob ...": saying the question is still
     * open asks it, with or without a question mark */
    if (best_turn < 0
        || !((cur->flags & BEHAVE_CONV_F_QUESTION)
             || (cur->cues & BEHAVE_CUE_ASKS) || strong))
    {
        return;
    }

    /* "Thanks. And how much is...", "Obrigada. E entretanto...", "OK,
     * and can I...": the answer landed, this is new (the annotator's
     * thanks, in any of the five languages), unless it asks for what the
     * earlier ask asked for ("Das ist schön. Und wie viel kostet sie?"
     * after "wie hoch ist die Jahresgebühr?": the cost, still unanswered) */
    if (((cur->flags & BEHAVE_CONV_F_ACK) || (cur->cues & BEHAVE_CUE_THANKS))
        && !reask
        && !(best_turn == (int) st->rec[best_i].turn
             && (cur->flags & st->rec[best_i].flags & BEHAVE_CONV_F_FOCUS)))
    {
        return;
    }

    out->repetition = 1;
    out->repeated_turn = best_turn;
    out->repetition_similarity = best;
}


/*
 * Severity of the last BEHAVE_CONV_ESC_WINDOW customer turns; see the
 * header for the rule.  *from and *turns describe the rise for the reason.
 * Valence is in thousandths, as stored.
 */

static int
behave_conv_unhappy_before(const behave_conv_state_t *st, int m)
{
    int  k;

    for (k = 0; k < m; k++) {
        if (st->rec[k].severity >= 1) {
            return 1;
        }
    }

    return 0;
}


static int
behave_conv_angry_before(const behave_conv_state_t *st, int m)
{
    int  k;

    for (k = 0; k < m; k++) {
        if (st->rec[k].flags & BEHAVE_CONV_F_ANGER) {
            return 1;
        }
    }

    return 0;
}


/*
 * The second customer turn has one turn to be worse than: labels.md's
 * "valence falls, urgency rises" both at once, clearly, into a blocked
 * (high) urgency and a clearly unhappy turn ("It's Thursday now and still
 * nothing ... this isn't ok" after "Could someone come out this week?")
 */
static void
behave_conv_escalation_second(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out, int *from)
{
    const behave_conv_rec_t  *prev;

    prev = &st->rec[0];

    if (cur->urgency > prev->urgency
        && cur->urgency == BEHAVE_URGENCY_HIGH
        && prev->valence - cur->valence >= BEHAVE_CONV_ESC_FALL
        && cur->valence <= BEHAVE_CONV_DENY_VALENCE)
    {
        out->escalating = 1;
        *from = prev->severity;
    }
}


static void
behave_conv_escalation(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur_rec, unsigned reasks,
    behave_conv_result_t *out, int *from, int *turns)
{
    int       sev[BEHAVE_CONV_ESC_WINDOW], val[BEHAVE_CONV_ESC_WINDOW];
    int       m, cur, base, high, k;
    uint32_t  total;

    cur = cur_rec->severity;
    total = st->customers + 1;
    out->peak_severity = cur > st->peak ? cur : st->peak;

    for (m = 0; m < BEHAVE_CONV_ESC_WINDOW - 1 && (unsigned) m < st->nrec;
         m++)
    {
        val[m] = st->rec[m].valence;
        sev[m] = st->rec[m].severity;
    }

    *from = 0;
    *turns = m + 1;

    if (total == 2 && m == 1) {
        behave_conv_escalation_second(st, cur_rec, out, from);
        return;
    }

    if (total < 3 || cur < 1 || m == 0) {
        return;
    }

    /*
     * Anger or an ultimatum that was not there before ("If nobody has come
     * by Friday I'm reporting you"), in a turn that is itself unhappy,
     * after an earlier unhappy turn: labels.md's rising intensity, which
     * the levels may not show (a calm wording of an ultimatum reads as
     * mild)
     */
    if ((cur_rec->flags & BEHAVE_CONV_F_ANGER)
        && behave_conv_unhappy_before(st, m)
        && !behave_conv_angry_before(st, m))
    {
        out->escalating = 1;
        *from = BEHAVE_CONV_ESC_ANGER;
        return;
    }

    if (cur < 2) {
        return;
    }

    base = sev[0];
    high = sev[0];

    for (k = 1; k < m; k++) {
        base = sev[k] < base ? sev[k] : base;
        high = sev[k] > high ? sev[k] : high;
    }

    *from = base;

    /*
     * The same thing asked a third time, now as a clear complaint after a
     * calm first ask ("When. Is. My. Refund. Coming."): the friction rises
     * with each ask even when no turn is yet angry
     */
    if (cur < 3) {
        out->escalating = reasks >= 2 && cur >= base + 2
                          && (cur_rec->flags
                              & (BEHAVE_CONV_F_STRONG | BEHAVE_CONV_F_REPEAT));
        return;
    }

    /*
     * Two levels above the calmest, and not out of a clear sky: an earlier
     * turn was already negative, or the customer keeps asking the same
     * thing (a third ask is friction even when worded calmly).
     */
    out->escalating = cur >= base + 2 && (high >= 1 || reasks >= 2);

    /*
     * Or a new peak of a distress that was already there: at least as
     * high as every turn of the window, above its calmest, from 3 up.
     */
    if (!out->escalating && cur >= 3 && cur >= high && cur > base
        && high >= 2)
    {
        out->escalating = 1;
    }

    /*
     * Or a steady slide: valence fell at each of the last three customer
     * turns, by 0.35 or more in all, ending at severity 3+.
     */
    if (!out->escalating && m >= 2
        && val[1] - val[0] >= 100
        && val[0] - cur_rec->valence >= 100
        && val[1] - cur_rec->valence >= 350)
    {
        out->escalating = 1;
        *from = sev[1] < sev[0] ? sev[1] : sev[0];
    }
}



static void
behave_conv_recommend(const behave_conv_state_t *st,
    const behave_conv_rec_t *current,
    behave_conv_result_t *out, int esc_from, int esc_turns, int opening)
{
    char    *r;
    size_t   rl;

    r = out->reason;
    rl = sizeof(out->reason);

    if (current->severity >= 4 || current->urgency == BEHAVE_URGENCY_CRITICAL
        || (current->cues & BEHAVE_CUE_CRISIS))
    {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "customer turn %d signals a crisis or critical "
                 "urgency", (int) out->prior_turns);
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_CRISIS];
        return;
    }

    if (out->false_resolution) {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "false resolution: %.280s",
                 out->false_resolution_reason);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_FALSE_RESOLUTION];
        return;
    }

    if (out->escalating) {
        out->action = BEHAVE_ACTION_HANDOFF;
        if (esc_from == BEHAVE_CONV_ESC_ANGER) {
            snprintf(r, rl, "the customer is escalating: anger or an "
                     "ultimatum after earlier unhappy turns");
        } else {
            snprintf(r, rl, "the customer is escalating: severity rose from "
                     "%d to %d over the last %d customer turns", esc_from,
                     current->severity, esc_turns);
        }
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_ESCALATING];
        return;
    }

    /*
     * "he's breathing but he won't open his eyes", "still grey, it's 8pm
     * now": the previous customer turn told of a crisis and this one says
     * it is still going on; calmer words do not end it, a human takes it
     */
    if (st->nrec > 0 && st->rec[0].severity >= 4
        && (current->flags & BEHAVE_CONV_F_DENIES))
    {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "the crisis of customer turn %d is still going on",
                 (int) st->rec[0].turn);
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_CRISIS];
        return;
    }

    /*
     * labels.md's teams (fraud, legal, a formal complaint, disputes,
     * appeals, bereavement, data protection), named: not every topic the
     * annotator marks for care ("prescription", "hospital", "funeral"),
     * which a clear ask about answers
     */
    if (current->specialist) {
        out->action = BEHAVE_ACTION_ROUTE;
        snprintf(r, rl, "needs a specialist team (%s)",
                 behave_conv_tables[BEHAVE_CONV_T_SPECIALIST]
                     .tab[current->specialist - 1].what);
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_ROUTE];
        return;
    }

    /* before the priority queue: nobody can route what is not said */
    if (opening && (current->flags & BEHAVE_CONV_F_UNCLEAR)) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the ask is unclear: a short first message that "
                 "does not say what is wrong");
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    /*
     * The customer says or shows that the answer was too much ("das ist
     * mir alles zu viel", "I don't understand" and question after
     * question): labels.md's overload, not its "high" (blocked, money or
     * access at stake, "asap"), which a cascade of questions makes the
     * annotator read; a queue does not help, a simpler answer does
     */
    if (current->urgency == BEHAVE_URGENCY_HIGH
        && !current->overload && !(current->flags & BEHAVE_CONV_F_OVERLOAD))
    {
        out->action = BEHAVE_ACTION_ROUTE;
        snprintf(r, rl, "high urgency: priority queue");
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_ROUTE];
        return;
    }

    if (current->load >= BEHAVE_LOAD_HIGH || current->overload
        || (current->flags & BEHAVE_CONV_F_OVERLOAD))
    {
        out->action = BEHAVE_ACTION_SIMPLIFY;
        if (current->flags & BEHAVE_CONV_F_OVERLOAD) {
            snprintf(r, rl, "the customer did not understand and asks "
                     "question after question%s",
                     out->repetition ? ", re-asking an earlier one" : "");

        } else if (current->overload) {
            snprintf(r, rl, "the customer is overloaded (\"%s\")%s",
                     behave_conv_quote(BEHAVE_CONV_T_OVERLOAD,
                                       current->overload),
                     out->repetition ? " and re-asked the question" : "");
        } else {
            snprintf(r, rl, "cognitive load is %s",
                     behave_load_name((behave_load_e) current->load));
        }
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_SIMPLIFY];
        return;
    }

    if (out->repetition) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "customer turn %d asks again what turn %d asked "
                 "(similarity %.2f): the previous answer did not land",
                 (int) out->prior_turns, out->repeated_turn,
                 out->repetition_similarity);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_REPETITION];
        return;
    }

    if (current->confusion || (current->cues & BEHAVE_CUE_CONFUSION)) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the answer was not understood (\"%s\")",
                 current->confusion
                 ? behave_conv_quote(BEHAVE_CONV_T_CONFUSION,
                                     current->confusion)
                 : "confusion");
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    if (current->vague_n >= 2 && current->vague) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the ask is unclear (\"%s\")",
                 behave_conv_quote(BEHAVE_CONV_T_VAGUE, current->vague));
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    out->action = BEHAVE_ACTION_RESOLVE;
    snprintf(r, rl, "a clear ask that can be answered");
    out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_RESOLVE];
}


static void
behave_conv_review(behave_conv_result_t *out)
{
    if (out->action == BEHAVE_ACTION_HANDOFF && !out->false_resolution
        && !out->degraded)
    {
        out->review_status = BEHAVE_REVIEW_ESCALATED;

    } else if (out->false_resolution || out->repeat_contact_risk
               || out->degraded)
    {
        out->review_status = BEHAVE_REVIEW_NEEDS_REVIEW;

    } else if (out->repetition || out->action != BEHAVE_ACTION_RESOLVE
               || out->peak_severity >= 2)
    {
        out->review_status = BEHAVE_REVIEW_MONITOR;

    } else {
        out->review_status = BEHAVE_REVIEW_OK;
    }
}


/*
 * "hi", "boa noite", "Hallo": a greeting says nothing of the issue, so a
 * vague turn after greetings only ("the thing from before isn't doing
 * it") is still the customer's first ask.  A greeting: a few letters
 * (the sketch's distinct trigrams), no question, no problem reported, no
 * number, no team, calm.
 */
#define BEHAVE_CONV_GREETING_GRAMS  16

static int
behave_conv_nothing_said(const behave_conv_state_t *st)
{
    size_t                    i;
    const behave_conv_rec_t  *r;

    if (st->customers > st->nrec) {
        return 0;
    }

    for (i = 0; i < st->nrec; i++) {
        r = &st->rec[i];

        if (r->flags != 0 || r->severity > 0 || r->specialist
            || r->nids > 0 || r->vague_n > 0 || r->confusion
            || r->overload || (r->cues & BEHAVE_CUE_QUESTION)
            || r->sketch.n > BEHAVE_CONV_GREETING_GRAMS)
        {
            return 0;
        }
    }

    return 1;
}


static void
behave_conv_assess_customer(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out)
{
    int       esc_from, esc_turns;
    unsigned  similar;

    behave_conv_false_resolution(st, cur, out);
    behave_conv_repetition(st, cur, out, &similar);
    behave_conv_escalation(st, cur, out->repetition ? similar : 0, out,
                           &esc_from, &esc_turns);

    out->repeat_contact_risk =
        out->false_resolution
        || (out->repetition && similar >= 2)
        || (cur->cues & BEHAVE_CUE_REPEAT_CONTACT)
        || (cur->flags & BEHAVE_CONV_F_REPEAT)
        || st->fr;

    behave_conv_recommend(st, cur, out, esc_from, esc_turns,
                          behave_conv_nothing_said(st));
    behave_conv_review(out);
}


static void
behave_conv_init(behave_conv_result_t *out, size_t n)
{
    memset(out, 0, sizeof(*out));
    out->prior_turns = n;
    out->action = BEHAVE_ACTION_RESOLVE;
    out->review_status = BEHAVE_REVIEW_OK;
    out->claim_turn = -1;
    out->repeated_turn = -1;
    out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_RESOLVE];
}


void
behave_conversation_fold(const behave_turn_t *turns, size_t n,
    behave_conv_state_t *st)
{
    size_t             i;
    behave_conv_rec_t  rec;

    behave_conv_state_init(st);

    for (i = 0; i < n; i++) {
        behave_conversation_record(&turns[i], &rec);
        behave_conv_state_push(st, &rec);
    }
}


void
behave_conversation_assess(const behave_turn_t *history, size_t n,
    const behave_turn_t *current, behave_conv_result_t *out)
{
    behave_conv_rec_t    rec;
    behave_conv_state_t  st;

    behave_conversation_fold(history, n, &st);

    behave_conversation_record(current, &rec);
    behave_conversation_assess_state(&st, &rec, out);
}


void
behave_conversation_assess_records(const behave_conv_rec_t *history,
    size_t n, const behave_conv_rec_t *current, behave_conv_result_t *out)
{
    size_t               i;
    behave_conv_rec_t    rec;
    behave_conv_state_t  st;

    behave_conv_state_init(&st);

    for (i = 0; i < n; i++) {
        rec = history[i];
        behave_conv_state_push(&st, &rec);
    }

    behave_conversation_assess_state(&st, current, out);
}


void
behave_conversation_assess_state(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out)
{
    behave_conv_state_t  at;

    behave_conv_init(out, st->turns);

    if (cur->customer) {
        behave_conv_assess_customer(st, cur, out);
        return;
    }

    /* an agent turn: echo the state at the latest customer turn */
    if (st->nrec == 0) {
        snprintf(out->reason, sizeof(out->reason),
                 "no customer turn yet");
        return;
    }

    /* the state before that turn, as the *_prev fields kept it */
    at = *st;
    at.turns = st->rec[0].turn;
    at.customers = st->customers - 1;
    at.peak = st->peak_prev;
    at.fr = st->fr_prev;
    at.claim_turn = st->claim_prev_turn;
    at.claim_what = st->claim_prev_what;
    at.nrec = st->nrec - 1;
    at.nmean = st->nmean > 0 ? st->nmean - 1 : 0;
    memmove(&at.rec[0], &at.rec[1],
            (BEHAVE_CONV_RING - 1) * sizeof(behave_conv_rec_t));

    out->prior_turns = at.turns;
    behave_conv_assess_customer(&at, &st->rec[0], out);

    out->prior_turns = st->turns;
    out->false_resolution = 0;
    out->false_resolution_reason[0] = '\0';
    out->claim_turn = -1;
    out->repetition = 0;
    out->repeated_turn = -1;
}




void
behave_conversation_degraded(const char *reason, behave_conv_result_t *out)
{
    behave_conv_init(out, 0);

    out->degraded = 1;
    snprintf(out->degraded_reason, sizeof(out->degraded_reason), "%s",
             reason != NULL && reason[0] ? reason : "context unavailable");

    out->action = BEHAVE_ACTION_HANDOFF;
    snprintf(out->reason, sizeof(out->reason),
             "conversation context unavailable (%.240s)",
             out->degraded_reason);
    out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_DEGRADED];
    out->review_status = BEHAVE_REVIEW_NEEDS_REVIEW;
}


const char *
behave_action_name(behave_action_e a)
{
    static const char  *names[] = { "clarify", "simplify", "resolve",
                                    "route", "handoff" };

    return (unsigned) a < sizeof(names) / sizeof(names[0]) ? names[a]
                                                           : "handoff";
}


const char *
behave_review_name(behave_review_e r)
{
    static const char  *names[] = { "ok", "monitor", "needs_review",
                                    "escalated" };

    return (unsigned) r < sizeof(names) / sizeof(names[0]) ? names[r]
                                                           : "needs_review";
}


static void
behave_conv_write_bool(behave_jw_t *w, int v)
{
    if (v) {
        behave_jw_literal(w, "true");
    } else {
        behave_jw_literal(w, "false");
    }
}


/* the block of spec 2.4, keys written as literals (hot path) */
void
behave_conversation_write(behave_jw_t *w, const behave_conv_result_t *r,
    const char *conversation_id, int redacted)
{
    behave_jw_open(w, "conversation");

    behave_jw_literal(w, "\"conversation_id\":");
    behave_jw_value_string(w, conversation_id != NULL ? conversation_id : "");

    if (redacted) {
        behave_jw_literal(w, ",\"storage_mode\":\"redacted\"");
    } else {
        behave_jw_literal(w, ",\"storage_mode\":\"full\"");
    }

    behave_jw_literal(w, ",\"prior_turns\":");
    behave_jw_value_number(w, (double) r->prior_turns);

    behave_jw_literal(w, ",\"failure_flags\":{\"false_resolution\":");
    behave_conv_write_bool(w, r->false_resolution);
    behave_jw_literal(w, ",\"false_resolution_reason\":");
    behave_jw_value_string(w, r->false_resolution_reason);
    behave_jw_literal(w, ",\"repeat_contact_risk\":");
    behave_conv_write_bool(w, r->repeat_contact_risk);

    behave_jw_literal(w, "},\"derived\":{\"repetition\":");
    behave_conv_write_bool(w, r->repetition);
    behave_jw_literal(w, ",\"repetition_similarity\":");
    behave_jw_value_fixed3(w, r->repetition_similarity);
    behave_jw_literal(w, ",\"escalating\":");
    behave_conv_write_bool(w, r->escalating);
    behave_jw_literal(w, ",\"peak_severity\":");
    behave_jw_value_number(w, (double) r->peak_severity);

    behave_jw_literal(w, "},\"recommendation\":{\"action\":");
    behave_jw_value_string(w, behave_action_name(r->action));
    behave_jw_literal(w, ",\"reason\":");
    behave_jw_value_string(w, r->reason);
    behave_jw_literal(w, ",\"safe_response_guidance\":");
    behave_jw_value_string(w, r->safe_response_guidance != NULL
                              ? r->safe_response_guidance : "");

    behave_jw_literal(w, "},\"review_status\":");
    behave_jw_value_string(w, behave_review_name(r->review_status));
    behave_jw_literal(w, ",\"degraded\":");
    behave_conv_write_bool(w, r->degraded);

    if (r->degraded) {
        behave_jw_literal(w, ",\"degraded_reason\":");
        behave_jw_value_string(w, r->degraded_reason);
    }

    behave_jw_member_done(w);
    behave_jw_close(w);
}


/* a turn of this conversation, as the log stores it and assess reads it */

void
behave_turn_from_annotation(behave_turn_t *t, behave_speaker_e speaker,
    const char *text, size_t len, const behave_annotation_t *a,
    uint64_t ts_ms)
{
    t->speaker = speaker;
    t->text = text;
    t->text_len = len;
    t->valence_score = a->scores.valence;
    t->valence = a->valence;
    t->urgency = a->urgency;
    t->load = a->cognitive_load;
    t->cues = a->cues;
    t->severity = behave_conversation_severity(a, text, len);
    t->ts_ms = ts_ms;
    t->has_meaning = 1;
    memcpy(t->meaning, a->meaning, sizeof(t->meaning));
}


int
behave_turns_from_json(const cJSON *turns, behave_turn_t *tv, int max)
{
    int                   i;
    const char           *text;
    const cJSON          *e, *msg, *spk;
    behave_annotation_t   a;

    i = 0;

    /* one walk of the list: cJSON_GetArrayItem(i) would start over each time */
    for (e = cJSON_IsArray(turns) ? turns->child : NULL;
         e != NULL && i < max;
         e = e->next, i++)
    {
        msg = cJSON_GetObjectItem(e, "message");
        spk = cJSON_GetObjectItem(e, "speaker");
        text = cJSON_IsString(msg) ? msg->valuestring : "";

        behave_annotate(text, strlen(text), &a);
        behave_turn_from_annotation(&tv[i],
            cJSON_IsString(spk) && strcmp(spk->valuestring, "agent") == 0
                ? BEHAVE_SPEAKER_AGENT : BEHAVE_SPEAKER_CUSTOMER,
            text, strlen(text), &a, (uint64_t) i * 1000);
    }

    return i;
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
