/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The trained layer of the annotator.  While the rules read a message, the
 * model hashes what it sees into features: folded words, five-letter
 * stems, word pairs, multilingual concepts (src/core/text/model/concepts.tsv)
 * and the pairs of concepts that share a clause ("frames": SELF with DIE,
 * CHILD with SWALLOW, ACCOUNT with CHANGED and NOW).  At the end the rules'
 * own labels, scores and cues join them, and linear weights trained
 * offline by scripts/train (src/core/text/model/weights.tsv, compiled in by
 * scripts/gen-model) give each dimension's label and the critical call.
 *
 * The same code lists the features for training (a sink), so training and
 * serving cannot disagree on what a feature is.
 */

#ifndef BEHAVE_MODEL_H
#define BEHAVE_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "text/behave_annotation.h"
#include "text/behave_tokenize.h"
#include "text/behave_model_data.h"
#include "text/behave_risk.h"
#include "text/behave_model_state.h"


void behave_model_init(behave_model_state_t *m);
void behave_model_word(behave_model_state_t *m, const behave_token_t *t);
void behave_model_symbol(behave_model_state_t *m, const behave_token_t *t);
void behave_model_clause_end(behave_model_state_t *m, unsigned question);

/*
 * Adds the rules' labels, scores and cues in a as features, then sets a's
 * five labels from the summed weights.  Does nothing to the labels when
 * no model is compiled in (an empty weights file).
 */
void behave_model_finish(behave_model_state_t *m, behave_annotation_t *a);

/* axis i (0 .. BEHAVE_MEANING_AXES - 1) of a packed signature: -8 .. 7 */
int behave_meaning_axis(const int8_t *s, unsigned i);

/* the cosine of two packed meaning signatures, 0 when either is empty */
double behave_meaning_cosine(const int8_t *a, const int8_t *b);

/* 1 when the critical stack's compiled tables are well formed (t/core) */
int behave_model_stack_sound(void);
/*
 * The model's tables laid out for serving (the rules' label features,
 * the critical stack's trees), once per process, at start (the first
 * message does it otherwise); any thread, any number of times
 */
void behave_model_tables_init(void);

/* whether weights are compiled in */
int behave_model_present(void);
/* every crisis frame needs a concept of BEHAVE_FRAME_KEYS (a test) */
int behave_model_frames_keyed(void);


#endif /* BEHAVE_MODEL_H */
