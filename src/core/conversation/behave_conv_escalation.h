/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Severity and escalation: how bad one customer turn is (0 to 4, the
 * scale in behave_conversation.h) and whether the customer's turns get
 * worse (labels.md: "valence falls, urgency or intensity rises, over the
 * last turns").
 *
 * Kept apart because escalation is a trend over a window of turns, read
 * from the severities and valences the records keep, not from words
 * (but anger and ultimatums, anger.tsv, which the levels may not show):
 * one bad turn is no escalation, a crisis is handed off on its own.
 */

#ifndef BEHAVE_CONV_ESCALATION_H
#define BEHAVE_CONV_ESCALATION_H

#include "text/behave_annotate.h"
#include "conversation/behave_conv_scan.h"
#include "conversation/behave_conv_state.h"
#include "conversation/behave_conv_types.h"


/* a turn's valence score (x1000) at or below which it reports trouble */
#define BEHAVE_CONV_DENY_VALENCE  -350

/* behave_conv_escalation()'s *from when anger, not a severity, rose */
#define BEHAVE_CONV_ESC_ANGER     -1


/* severity 0..4 of one message, see the scale in behave_conversation.h */
int behave_conversation_severity(const behave_annotation_t *a,
    const char *text, size_t len);

/*
 * The same with text already normalized into norm (NULL: normalized here
 * when needed), for a caller that reads the text's phrases too
 */
int behave_conversation_severity_norm(const behave_annotation_t *a,
    const char *text, size_t len, const behave_conv_norm_t *norm);

/*
 * The finding: out->escalating and out->peak_severity, from the last
 * customer turns of st and the current one (the rule is in
 * behave_conversation.h); reasks is how many earlier turns the current
 * one asks again.  *from and *turns describe the rise for the reason.
 */
void behave_conv_escalation(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur_rec, unsigned reasks,
    behave_conv_result_t *out, int *from, int *turns);


#endif /* BEHAVE_CONV_ESCALATION_H */
