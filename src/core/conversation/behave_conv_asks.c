/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * What a customer turn asks, and asked again; see behave_conv_asks.h.
 */

/* memmem() is a GNU extension */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <string.h>

#include "conversation/behave_conv_asks.h"
#include "text/behave_model.h"
#include "text/behave_similarity.h"


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

/* repetition by meaning: BEHAVE_CONV_MEANING_* in behave_conv_asks.h;
 * compared with the newest customer turns only, each annotated again */
#define BEHAVE_CONV_MEANING_WINDOW  4

#define BEHAVE_CONV_ID_MIN      4       /* chars of an order number */
#define BEHAVE_CONV_CONCEDE_WORDS  3    /* words before the "but" */
#define BEHAVE_CONV_UNCLEAR_MAX  100    /* bytes of a short message */
#define BEHAVE_CONV_GREETING_GRAMS  16  /* distinct trigrams, at most */
#define BEHAVE_CONV_GLAD_VALENCE  500   /* a glad turn (thousandths) */


static int behave_conv_asked(const behave_conv_rec_t *r);
static int behave_conv_ids_differ(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b);
static int behave_conv_compound_cost(const behave_conv_norm_t *t);
static int behave_conv_same_intent(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b);
static int behave_conv_focus_differs(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b);
static int behave_conv_only_problem(const behave_conv_norm_t *t);
static int behave_conv_only_fails(const behave_conv_norm_t *t);
static int behave_conv_welcomed(const behave_conv_rec_t *r);
static int behave_conv_announces(const behave_conv_norm_t *t);


/*
 * Order-like tokens ("#1234", "20gb", "ab12cd"): a word of
 * BEHAVE_CONV_ID_MIN or more characters with a digit.  "23 kg", "5 times"
 * are amounts; an order or a plan is longer.  The first BEHAVE_CONV_IDS
 * are kept as FNV-1a hashes; nids counts them all.
 */

void
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


int
behave_conv_has_question(const behave_conv_norm_t *t)
{
    return memchr(t->text, '?', t->len) != NULL
           || behave_conv_match(t, BEHAVE_CONV_T_ASKS, 0, NULL) > 0;
}


/*
 * "schon klar, aber...", "Top. Mais du coup...", "tá mas...": a few words
 * that take the answer, then "but": the question is still open.  Returns
 * where the words after the "but" start, 0 for none.
 */
size_t
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
int
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


/* see conclusive.tsv */
int
behave_conv_concludes(const behave_conv_norm_t *t)
{
    size_t  i, at, n;

    i = 0;

    while ((at = behave_conv_clause_next(t, &i)) != BEHAVE_CONV_NO_POS) {
        n = behave_conv_word_in(t, at, BEHAVE_CONV_L_CONCLUSIVE);
        if (n == 0) {
            continue;
        }

        /* "so, going back: can...", "entonces, ¿qué...": past the word,
         * its comma and an opening "¿" */
        at += n - 1;
        while (at < t->len && strchr(", :", t->text[at]) != NULL) {
            at++;
        }

        if (at + 1 < t->len && memcmp(t->text + at, "\xc2\xbf", 2) == 0) {
            at += 2;
        }

        /* "so where...", "so is...": asked; "so it's just a lie?" says
         * what the customer makes of it */
        if (behave_conv_phrase_at(t, BEHAVE_CONV_L_INTERROGATIVE, at)
            || behave_conv_word_in(t, at, BEHAVE_CONV_L_ASK_VERB))
        {
            return 1;
        }
    }

    return 0;
}


/* see additive.tsv and ack_open.tsv */
int
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
    size_t                      i, e, k, n, len, lens[BEHAVE_CONV_TAB_MAX];
    const behave_conv_table_t  *suffix;

    suffix = &behave_conv_lists[BEHAVE_CONV_L_COST_SUFFIX];

    /* the suffixes' lengths once, not at every word (a table holds at
     * most 254 phrases: gen-phrases) */
    n = suffix->n < BEHAVE_CONV_TAB_MAX ? suffix->n : BEHAVE_CONV_TAB_MAX;

    for (k = 0; k < n; k++) {
        lens[k] = strlen(suffix->tab[k].phrase);
    }

    for (i = 0; i < t->len; i = e + 1) {
        e = i;
        while (e < t->len && behave_conv_is_word((unsigned char) t->text[e])) {
            e++;
        }

        for (k = 0; k < n; k++) {
            len = lens[k];

            /* the last byte first: most words end otherwise */
            if (e - i > len
                && t->text[e - 1] == suffix->tab[k].phrase[len - 1]
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
unsigned
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


/* 1 + the first intent (behave_conv_phrases.h) that t names, 0 for none */
unsigned
behave_conv_intent(const behave_conv_norm_t *t)
{
    unsigned  i;

    for (i = BEHAVE_CONV_T_INTENT_FIRST; i <= BEHAVE_CONV_T_INTENT_LAST; i++) {
        if (behave_conv_match(t, (behave_conv_tab_e) i, 0, NULL)) {
            return i - BEHAVE_CONV_T_INTENT_FIRST + 1;
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
unsigned
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


/*
 * "quick question about my data", "eine Frage zur Kündigung meines
 * Mietvertrags": a question announced (announce.tsv) and not asked, no
 * "?" and no clause that asks
 */
static int
behave_conv_announces(const behave_conv_norm_t *t)
{
    return behave_conv_match(t, BEHAVE_CONV_T_ANNOUNCE, 0, NULL)
           && memchr(t->text, '?', t->len) == NULL
           && !behave_conv_plain_question(t);
}


int
behave_conv_unclear(const behave_conv_norm_t *t)
{
    return t->len <= BEHAVE_CONV_UNCLEAR_MAX
           && strpbrk(t->text, "0123456789") == NULL
           && (behave_conv_match(t, BEHAVE_CONV_T_VAGUE_REF, 0, NULL)
               || behave_conv_only_problem(t)
               || behave_conv_only_fails(t)
               || behave_conv_announces(t));
}



int
behave_conv_greeting(const behave_conv_rec_t *r)
{
    return r->flags == 0 && r->severity == 0 && r->specialist == 0
           && r->nids == 0 && r->vague_n == 0 && r->confusion == 0
           && r->overload == 0 && !(r->cues & BEHAVE_CUE_QUESTION)
           && r->sketch.n <= BEHAVE_CONV_GREETING_GRAMS;
}

/*
 * An answer taken gladly or with thanks, nothing asked or denied: no
 * question of the turn's own words ("?", asks.tsv, an interrogative);
 * the annotator's wider "asks" cue also reads "Que ótimo!" as one
 */
static int
behave_conv_welcomed(const behave_conv_rec_t *r)
{
    return ((r->flags & BEHAVE_CONV_F_ACK) || (r->cues & BEHAVE_CUE_THANKS)
            || r->valence >= BEHAVE_CONV_GLAD_VALENCE)
           && !(r->flags & (BEHAVE_CONV_F_QUESTION | BEHAVE_CONV_F_DENIES))
           && !(r->cues & BEHAVE_CUE_QUESTION);
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
int
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


void
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

    /*
     * "ok, but anything I can do until then?", "Is there any workaround
     * meanwhile?": a question about the wait for the fix is a new ask,
     * whatever concession opens it and however close to the problem it
     * reads, unless the customer says outright the question is open
     */
    if (cur->interim && !strong) {
        return;
    }

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

        /* "Hello.": a greeting asked nothing, in whatever words */
        if (behave_conv_greeting(&st->rec[i])) {
            continue;
        }

        /*
         * "Woohoo! I'm gonna be first in line", "... Thanks for help": a
         * later customer turn took the answer, glad or thankful, and
         * asked and denied nothing; what was asked before it was
         * answered, and the same topic asked now is a new ask ("Did
         * things go to plan? Is it open today?"), unless the customer
         * says outright that it is still open (reask_strong.tsv)
         */
        if (i > 0 && !strong && behave_conv_welcomed(&st->rec[i - 1])) {
            break;
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
