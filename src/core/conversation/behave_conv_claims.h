/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Claims and denials: whether an agent turn presents the issue as
 * settled (and how, for the reason), whether the customer turn after it
 * says it is not, and the false resolution the two make (labels.md: "an
 * agent turn claims the issue is fixed, closed, resolved or refunded,
 * and the customer's next turn says it is not").
 *
 * Kept together because each side is read against the other: a claim is
 * no claim when it is a plan ("I'll have it working by Friday") or a
 * question ("has the refund gone through?"), and a customer's negation
 * is a denial only right after a claim and when nothing confirms the fix
 * ("no worries", "can't thank you enough", "it was down but it's fine
 * now" deny nothing).
 */

#ifndef BEHAVE_CONV_CLAIMS_H
#define BEHAVE_CONV_CLAIMS_H

#include "conversation/behave_conv_scan.h"
#include "conversation/behave_conv_state.h"
#include "conversation/behave_conv_types.h"


/*
 * An agent turn: 1 + the index in claims.tsv of the claim it makes
 * (BEHAVE_CONV_CLAIM_CUE for the annotator's cue alone), 0 for none
 */
unsigned behave_conv_claim(const behave_conv_norm_t *t, unsigned cues);

/*
 * The deeds of perfect.tsv in an agent turn: 2 when one is told as done,
 * 1 when each is wished, planned or asked ("we want to make sure this has
 * been resolved"), 0 for none
 */
int behave_conv_deeds(const behave_conv_norm_t *t);

/* what claim k claimed, for the reason ("the refund was processed") */
const char *behave_conv_claim_what(unsigned k);

/*
 * 1 if customer text cur says the issue is not settled; *quote is 1 +
 * the index of the first phrase of not_resolved.tsv that says it, 0 for
 * none.  lost: the customer says the answer did not land (confusion,
 * overload), which says nothing of the fix.
 */
int behave_conv_denies(const behave_conv_norm_t *cur, unsigned cues,
    int lost, unsigned *quote);

/* the finding: a claim before the current customer turn, denied by it */
void behave_conv_false_resolution(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out);


#endif /* BEHAVE_CONV_CLAIMS_H */
