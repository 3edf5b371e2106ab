/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The learned part of claims and denials: two linear classifiers of a
 * turn's words, trained offline (scripts/train-turns) on the written
 * conversations' development part and real support threads labelled by
 * hand (data/turn-labels), compiled in from learned/turns.tsv by
 * scripts/gen-turns (behave_conv_learned_data.h).
 *
 *   agent turns     a claim of a completed fix, a promise, a question,
 *                   anything else
 *   customer turns  (read after a claim) a denial, a confirmation, a new
 *                   ask, anything else
 *
 * Features are hashed: each word, each pair of neighbouring words, the
 * first and the last word, the character 4-grams of each word padded
 * with spaces, and the turn's "?" and "!"; a feature adds its int8
 * weights for every class at the bucket its FNV-1a hash falls in.  One
 * pass over the normalised text, no allocation: the cost of a turn is
 * the cost of its length, whatever the history.
 *
 * The rules decide first (behave_conv_claims.c); the classifiers only
 * settle where the phrases say nothing or where they are confident the
 * phrases misread the turn (behave_conv_learned_adjust()).
 */

#ifndef BEHAVE_CONV_LEARNED_H
#define BEHAVE_CONV_LEARNED_H

#include <stdint.h>

#include "conversation/behave_conv_scan.h"
#include "conversation/behave_conv_state.h"


typedef enum {
    BEHAVE_AGENT_CLAIM,
    BEHAVE_AGENT_PROMISE,
    BEHAVE_AGENT_QUESTION,
    BEHAVE_AGENT_OTHER,
    BEHAVE_AGENT_N
} behave_agent_class_e;


typedef enum {
    BEHAVE_REPLY_DENIAL,
    BEHAVE_REPLY_CONFIRMATION,
    BEHAVE_REPLY_NEW_ASK,
    BEHAVE_REPLY_OTHER,
    BEHAVE_REPLY_N
} behave_reply_class_e;


#define BEHAVE_CONV_LEARNED_CLASSES  4
#define BEHAVE_CONV_LEARNED_WORD     32     /* bytes of a word kept */


/*
 * Calls fn(ctx, hash) for each feature of the text, in order (the
 * training tool and the classifiers share it); returns their number
 */
size_t behave_conv_features(const behave_conv_norm_t *t,
    void (*fn)(void *ctx, uint32_t hash), void *ctx);

/* class probabilities of an agent turn (BEHAVE_AGENT_*), sum 1 */
void behave_conv_learned_agent(const behave_conv_norm_t *t, double *p);

/* class probabilities of a customer turn (BEHAVE_REPLY_*), sum 1 */
void behave_conv_learned_reply(const behave_conv_norm_t *t, double *p);

/* 1 when the tables hold a model (learned/turns.tsv not empty) */
int behave_conv_learned_ready(void);

/*
 * The hook in the record: a claim the phrases did not see, or one they
 * saw in a turn the agent classifier is sure makes none; a denial the
 * phrases did not see, or one they saw in a turn the reply classifier
 * is sure confirms or asks anew
 */
void behave_conv_learned_adjust(const behave_conv_norm_t *t,
    behave_conv_rec_t *rec);


#endif /* BEHAVE_CONV_LEARNED_H */
