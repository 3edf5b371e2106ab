/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The turn classifiers; see behave_conv_learned.h.
 */

#include <math.h>
#include <string.h>

#include "conversation/behave_conv_learned.h"
#include "conversation/behave_conv_learned_data.h"
#include "conversation/behave_conv_index.h"
#include "text/behave_lexicon.h"


#define BEHAVE_CONV_GRAM  4             /* bytes of a character n-gram */


typedef struct {
    const behave_conv_learned_model_t  *m;
    int32_t                             sum[BEHAVE_CONV_LEARNED_CLASSES];
} behave_conv_learned_acc_t;


static uint32_t behave_fnv_kind(char kind, const char *p, size_t n);
static void behave_conv_grams(const char *w, size_t n,
    void (*fn)(void *ctx, uint32_t hash), void *ctx, size_t *count);
static void behave_conv_learned_add(void *ctx, uint32_t hash);
static void behave_conv_learned_run(const behave_conv_learned_model_t *m,
    const behave_conv_norm_t *t, double *p);


/* a feature's hash: FNV-1a of its kind's byte, then its bytes */
static uint32_t
behave_fnv_kind(char kind, const char *p, size_t n)
{
    size_t    i;
    uint32_t  h;

    h = behave_lex_hash_step(BEHAVE_LEX_HASH_INIT, (unsigned char) kind);

    for (i = 0; i < n; i++) {
        h = behave_lex_hash_step(h, (unsigned char) p[i]);
    }

    return h;
}


/* the 4-grams of " word ": "refunded" and "refund" share "refu" */
static void
behave_conv_grams(const char *w, size_t n,
    void (*fn)(void *ctx, uint32_t hash), void *ctx, size_t *count)
{
    size_t  j;
    char    pad[BEHAVE_CONV_LEARNED_WORD + 2];

    if (n + 2 < BEHAVE_CONV_GRAM) {
        return;
    }

    pad[0] = ' ';
    memcpy(pad + 1, w, n);
    pad[n + 1] = ' ';

    for (j = 0; j + BEHAVE_CONV_GRAM <= n + 2; j++) {
        fn(ctx, behave_fnv_kind('c', pad + j, BEHAVE_CONV_GRAM));
        (*count)++;
    }
}


size_t
behave_conv_features(const behave_conv_norm_t *t,
    void (*fn)(void *ctx, uint32_t hash), void *ctx)
{
    char         pair[2 * BEHAVE_CONV_LEARNED_WORD + 1];
    size_t       i, s, n, pn, count, e;
    const char  *prev;

    count = 0;
    prev = NULL;
    pn = 0;
    i = 0;

    while (i < t->len) {
        while (i < t->len && !behave_conv_is_word((unsigned char) t->text[i])
               && t->text[i] != '\'')
        {
            i++;
        }

        s = i;

        while (i < t->len && (behave_conv_is_word((unsigned char) t->text[i])
                              || t->text[i] == '\''))
        {
            i++;
        }

        n = i - s;
        if (n == 0) {
            break;
        }

        if (n > BEHAVE_CONV_LEARNED_WORD) {
            n = BEHAVE_CONV_LEARNED_WORD;
        }

        fn(ctx, behave_fnv_kind('w', t->text + s, n));
        count++;

        if (prev == NULL) {
            fn(ctx, behave_fnv_kind('^', t->text + s, n));
            count++;

        } else {
            memcpy(pair, prev, pn);
            pair[pn] = ' ';
            memcpy(pair + pn + 1, t->text + s, n);
            fn(ctx, behave_fnv_kind('b', pair, pn + 1 + n));
            count++;
        }

        behave_conv_grams(t->text + s, n, fn, ctx, &count);

        prev = t->text + s;
        pn = n;
    }

    if (prev != NULL) {
        fn(ctx, behave_fnv_kind('$', prev, pn));
        count++;
    }

    /* asks, exclaims, and ends on a question: "done?" is no claim */
    if (memchr(t->text, '?', t->len) != NULL) {
        fn(ctx, behave_fnv_kind('p', "?", 1));
        count++;
    }

    if (memchr(t->text, '!', t->len) != NULL) {
        fn(ctx, behave_fnv_kind('p', "!", 1));
        count++;
    }

    for (e = t->len; e > 0 && strchr(" .)", t->text[e - 1]) != NULL; e--) {
        /* void */
    }

    if (e > 0 && t->text[e - 1] == '?') {
        fn(ctx, behave_fnv_kind('e', "?", 1));
        count++;
    }

    return count;
}


static void
behave_conv_learned_add(void *ctx, uint32_t hash)
{
    unsigned                    k;
    const int8_t               *w;
    behave_conv_learned_acc_t  *acc;

    acc = ctx;
    w = acc->m->w + (size_t) (hash & acc->m->mask)
                    * BEHAVE_CONV_LEARNED_CLASSES;

    for (k = 0; k < BEHAVE_CONV_LEARNED_CLASSES; k++) {
        acc->sum[k] += w[k];
    }
}


/* softmax of bias + scale * the features' weights */
static void
behave_conv_learned_run(const behave_conv_learned_model_t *m,
    const behave_conv_norm_t *t, double *p)
{
    double                     z[BEHAVE_CONV_LEARNED_CLASSES], max, sum;
    unsigned                   k;
    behave_conv_learned_acc_t  acc;

    if (m->bits == 0) {
        for (k = 0; k < BEHAVE_CONV_LEARNED_CLASSES; k++) {
            p[k] = k == BEHAVE_CONV_LEARNED_CLASSES - 1 ? 1.0 : 0.0;
        }
        return;
    }

    memset(&acc, 0, sizeof(acc));
    acc.m = m;

    behave_conv_features(t, behave_conv_learned_add, &acc);

    max = -HUGE_VAL;

    for (k = 0; k < BEHAVE_CONV_LEARNED_CLASSES; k++) {
        z[k] = m->bias[k] + m->scale * acc.sum[k];
        if (z[k] > max) {
            max = z[k];
        }
    }

    sum = 0;

    for (k = 0; k < BEHAVE_CONV_LEARNED_CLASSES; k++) {
        z[k] = exp(z[k] - max);
        sum += z[k];
    }

    for (k = 0; k < BEHAVE_CONV_LEARNED_CLASSES; k++) {
        p[k] = z[k] / sum;
    }
}


void
behave_conv_learned_agent(const behave_conv_norm_t *t, double *p)
{
    behave_conv_learned_run(&behave_conv_learned_agent_model, t, p);
}


void
behave_conv_learned_reply(const behave_conv_norm_t *t, double *p)
{
    behave_conv_learned_run(&behave_conv_learned_reply_model, t, p);
}


int
behave_conv_learned_ready(void)
{
    return behave_conv_learned_agent_model.bits != 0
           && behave_conv_learned_reply_model.bits != 0;
}


void
behave_conv_learned_adjust(const behave_conv_norm_t *t,
    behave_conv_rec_t *rec)
{
    double                              p[BEHAVE_CONV_LEARNED_CLASSES];
    const behave_conv_learned_model_t  *m;

    if (!behave_conv_learned_ready()) {
        return;
    }

    /* a model that could change nothing here is not run: a turn pays
     * for it only where a threshold can act */
    if (!rec->customer) {
        m = &behave_conv_learned_agent_model;

        if (rec->claim == 0 ? m->add >= 1.0 : m->veto <= 0.0) {
            return;
        }

        behave_conv_learned_agent(t, p);

        /* a learned claim has no phrase: its reason is the cue's */
        if (rec->claim == 0 && m->add < 1.0
            && p[BEHAVE_AGENT_CLAIM] >= m->add)
        {
            rec->claim = BEHAVE_CONV_CLAIM_CUE;

        } else if (rec->claim != 0 && p[BEHAVE_AGENT_CLAIM] < m->veto) {
            rec->claim = 0;
        }

        return;
    }

    m = &behave_conv_learned_reply_model;

    if ((rec->flags & BEHAVE_CONV_F_DENIES) ? m->veto <= 0.0
                                            : m->add >= 1.0)
    {
        return;
    }

    behave_conv_learned_reply(t, p);

    /*
     * A denial the phrases missed needs a turn that is not glad
     * (valence at most neutral) and does not say the answer was lost
     * ("no entiendo nada": clarify or simplify, labels.md); the model
     * learned denials from turns after a claim, and a polite letter's
     * "Sehr geehrte Damen und Herren" is no denial wherever it stands
     */
    if (!(rec->flags & BEHAVE_CONV_F_DENIES)
        && m->add < 1.0 && p[BEHAVE_REPLY_DENIAL] >= m->add
        && rec->valence <= 0 && rec->overload == 0 && rec->confusion == 0)
    {
        rec->flags |= BEHAVE_CONV_F_DENIES;

    } else if ((rec->flags & BEHAVE_CONV_F_DENIES)
               && p[BEHAVE_REPLY_DENIAL] < m->veto)
    {
        rec->flags &= ~BEHAVE_CONV_F_DENIES;
    }
}
