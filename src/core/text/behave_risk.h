/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The risk head: the calibrated probability that a message is critical
 * (labels.md: a risk to someone's safety or a severe loss happening now).
 *
 * It reads every feature of the trained layer (words, stems, word pairs,
 * concepts and their pairs in a clause, crisis frames, idioms and
 * all-clears, the rules' own labels) and each word's letter 4-grams, so
 * that "kms", "im gonna", a misspelt "sucide" and a title run into its
 * body still meet the weights.  The weights are one hashed linear layer
 * (src/core/text/model/risk.tsv, written offline by scripts/train-risk on
 * written and real text at real traffic's rates, compiled in by
 * scripts/gen-risk); the message's features are summed, divided by the
 * square root of their count, and the logit is calibrated (Platt) on
 * out-of-fold predictions.  Beside the linear layer, a small network
 * over the same features (hashed into fewer buckets, BEHAVE_RISK_HIDDEN
 * rectified units) sees what one word means next to another ("tonight"
 * beside "kill me"); where the tables hold it, the two logits are
 * calibrated together.  urgency_level is critical exactly when the risk
 * reaches behave_risk_threshold.
 */

#ifndef BEHAVE_RISK_H
#define BEHAVE_RISK_H

#include <stddef.h>
#include <stdint.h>
#include "text/behave_annotation.h"


/*
 * The trained layer's own critical call joins as four dense inputs: its
 * decision (head and stack, frames, idioms, all-clears), the critical
 * head's logit and the stack's score (both scaled to -1 .. 1), and a
 * crisis frame held without an all-clear.
 */
#define BEHAVE_RISK_DENSE  4
/* the small network beside the linear layer: hidden units */
#define BEHAVE_RISK_HIDDEN 16
#define BEHAVE_RISK_HIDDEN_RUN 256      /* a power of two */


typedef struct {
    int32_t                sum;         /* of int8 weights */
    int32_t                hidden[BEHAVE_RISK_HIDDEN]; /* of the network's */
    /* the latest rows' sums, added to hidden[] every
     * BEHAVE_RISK_HIDDEN_RUN rows: int8 into int16 lanes is half the
     * vector steps of int32 ones, and exact (256 * -128 is -32768) */
    int16_t                run[BEHAVE_RISK_HIDDEN];
    uint32_t               n;           /* features summed */
    behave_feature_sink_pt sink;        /* training: list, don't sum */
    void                  *sink_data;
} behave_risk_state_t;


/* a feature of the trained layer (or a risk-only one) */
void behave_risk_feature(behave_risk_state_t *r, uint32_t f);

/* a folded word's letter 4-grams, with "<" and ">" at its ends */
void behave_risk_word(behave_risk_state_t *r, const char *w, size_t n);

/* the message's length in words, as one feature of a log2 bucket */
void behave_risk_length(behave_risk_state_t *r, unsigned words);

/*
 * 0 .. 1, from the features summed and the dense inputs (d:
 * BEHAVE_RISK_DENSE values); 0 for a message with no feature or when no
 * weights are compiled in
 */
double behave_risk_score(const behave_risk_state_t *r, const float *d);

/* whether risk weights are compiled in */
int behave_risk_present(void);

/* the default operating point: critical at risk >= this */
double behave_risk_default_threshold(void);


#endif /* BEHAVE_RISK_H */
