/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Claims and denials; see behave_conv_claims.h.
 */

/* memmem() is a GNU extension */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stdio.h>
#include <string.h>

#include "conversation/behave_conv_claims.h"
#include "conversation/behave_conv_asks.h"


#define BEHAVE_CONV_BARE_NO  12     /* bytes of a bare "no" (no.tsv) */


static int behave_conv_tag_question(const behave_conv_norm_t *t);
static size_t behave_conv_last_but(const behave_conv_norm_t *t);
static int behave_conv_works_after_but(const behave_conv_norm_t *cur);
static int behave_conv_answers_no(const behave_conv_norm_t *t);
static int behave_conv_negated_after(const behave_conv_norm_t *t,
    const char *phrase);
static unsigned behave_conv_claim_more(const behave_conv_norm_t *t);
static int behave_conv_wished(const behave_conv_norm_t *t);


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

    /*
     * A phrase of the tail is one of the whole turn at the same place
     * (the tail starts after the "but" word, at a byte of no word): with
     * none anywhere in the turn, counted negated or not, there is none
     * in the tail, and neither the last "but" is looked for nor the
     * tail's own index built (six thousand instructions a turn)
     */
    if (behave_conv_match(cur, BEHAVE_CONV_T_CONFIRM_STRONG, 0, NULL) == 0) {
        return 0;
    }

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


/* 1 if customer text cur says the issue is not settled; *quote says how */
int
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


/*
 * 2: a deed told as done (perfect.tsv, "has been refunded") that no plan
 * governs and no question asks; 1: deeds, each wished or asked ("we want
 * to make sure this issue has been resolved for you", "has it been
 * resolved?"); 0: none
 */
int
behave_conv_deeds(const behave_conv_norm_t *t)
{
    int                         seen;
    size_t                      k, n;
    const char                 *p, *e, *w;
    const behave_conv_table_t  *words;

    seen = 0;
    words = &behave_conv_lists[BEHAVE_CONV_L_PERFECT];
    e = t->text + t->len;

    for (k = 0; k < words->n; k++) {
        w = words->tab[k].phrase;
        n = strlen(w);

        for (p = t->text;
             (p = memmem(p, (size_t) (e - p), w, n)) != NULL;
             p++)
        {
            if (p > t->text && behave_conv_is_word((unsigned char) p[-1])) {
                continue;
            }

            if (!behave_conv_planned(t->text, (size_t) (p - t->text))) {
                return 2;
            }

            seen = 1;
        }
    }

    return seen;
}


/*
 * A plan, a wish or a condition in the turn and no deed told as done
 * outside one: a promise ("we want to make sure it has been resolved")
 */
static int
behave_conv_wished(const behave_conv_norm_t *t)
{
    return behave_conv_plan_in(t->text, 0, t->len)
           && behave_conv_deeds(t) != 2;
}


/* an agent turn: does it present the issue as settled, and how */
unsigned
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
        && !behave_conv_wished(t))
    {
        k = BEHAVE_CONV_CLAIM_CUE;
    }

    return k;
}


const char *
behave_conv_claim_what(unsigned k)
{
    if (k >= 1 && k <= behave_conv_tables[BEHAVE_CONV_T_CLAIMS].n) {
        return behave_conv_tables[BEHAVE_CONV_T_CLAIMS].tab[k - 1].what;
    }

    return "the issue was resolved";
}


void
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
