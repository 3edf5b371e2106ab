/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * What a customer turn asks, and whether it asks it again: a question
 * with or without "?", what it is about (a facet: a cost, a limit, a
 * duration; an intent: cancel, refund, delivery...; a number or a
 * reference), whether it builds on the answer ("OK, and...") or is too
 * vague to answer ("it's doing the thing again"), and the repetition
 * finding (labels.md: "a customer turn asks again what an earlier
 * customer turn already asked, in the same or other words").
 *
 * Kept together because a re-ask is decided by what the two asks are
 * about: the same letters or the same meaning (behave_similarity.h,
 * behave_model.h), or a re-ask said in so many words, unless the facets
 * or the numbers differ or the answer was acknowledged first.
 */

#ifndef BEHAVE_CONV_ASKS_H
#define BEHAVE_CONV_ASKS_H

#include "conversation/behave_conv_scan.h"
#include "conversation/behave_conv_state.h"
#include "conversation/behave_conv_types.h"


/*
 * Repetition by meaning: the cosine of two customer turns' meaning
 * signatures (behave_model.h) from which a turn asks the same again in
 * other words.  The signature is centred (what every query shares adds
 * nothing), so unrelated asks score near 0.  Both were chosen on
 * development data only.  REPEAT: the lowest threshold at which the
 * corpus' development conversations keep the repetition precision and
 * recall of the previous signature (0.828 / 0.774), so the highest F1
 * on query pairs of development intents left out of training that
 * costs conversations nothing (scripts/train --meaning-inner: 0.884
 * here, 0.888 at 0.24, where follow-ups on the same topic that ask
 * something new, "and how do I change my photo?", begin to pass as
 * repetitions).  scripts/eval-corpus reads REPEAT from here and
 * measures held-out intents.  SAID: when the customer says the question
 * is still open ("ok but...", "that wasn't my question") a meaning
 * merely related is enough, chosen on the development conversations.
 */
#define BEHAVE_CONV_MEANING_REPEAT  0.28
#define BEHAVE_CONV_MEANING_SAID    0.05


/* order-like tokens ("#1234", "20gb"): rec->ids and rec->nids */
void behave_conv_ids(const behave_conv_norm_t *t, behave_conv_rec_t *rec);

/* a "?" or a question asked without one ("I'd like to know", asks.tsv) */
int behave_conv_has_question(const behave_conv_norm_t *t);

/*
 * asked without a question mark: an interrogative opens a clause, or
 * follows a concession ("ok but like what's...")
 */
int behave_conv_plain_question(const behave_conv_norm_t *t);

/*
 * "schon klar, aber...", "tá mas...": a few words that take the answer,
 * then "but": where the words after the "but" start, 0 for none
 */
size_t behave_conv_concedes(const behave_conv_norm_t *t);

/*
 * "So is sending them back free?", "Entonces, ¿qué papeles...?": a
 * clause that opens with "so" (conclusive.tsv) and asks: the earlier
 * question asked again
 */
int behave_conv_concludes(const behave_conv_norm_t *t);

/* "OK, and can I...", "Fine. And when...": a new ask on the answer */
int behave_conv_follow_up(const behave_conv_norm_t *t);

/* what the turn asks about: BEHAVE_CONV_F_COST, _LIMIT, _DURATION */
unsigned behave_conv_focus(const behave_conv_norm_t *t);

/* 1 + the intent the turn names first (intent_*.tsv), 0 for none */
unsigned behave_conv_intent(const behave_conv_norm_t *t);

/* questions asked: each run of '?' */
unsigned behave_conv_questions(const behave_conv_norm_t *t);

/*
 * A short turn with no number that says what is wrong in no words of
 * its own ("its charging weird again", "I have a problem", "it doesnt
 * work"): the ask is unclear
 */
int behave_conv_unclear(const behave_conv_norm_t *t);

/*
 * "hi", "boa noite", "Hallo": a customer turn that says nothing of the
 * issue (a few letters, the sketch's distinct trigrams; no question, no
 * problem reported, no number, no team, calm)
 */
int behave_conv_greeting(const behave_conv_rec_t *r);

/*
 * After a claim, a turn that says again what an earlier customer turn
 * said, and neither thanks nor confirms: the earlier turn, or -1
 */
int behave_conv_restates(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur);

/*
 * The finding: out->repetition, repeated_turn and repetition_similarity;
 * *similar counts the earlier turns asked again
 */
void behave_conv_repetition(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out,
    unsigned *similar);


#endif /* BEHAVE_CONV_ASKS_H */
