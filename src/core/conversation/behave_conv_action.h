/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The action: what the agent should do next (recommendation.action, its
 * reason and the safe-response guidance) and the review status, from the
 * findings of the current customer turn and what it says.
 *
 * Kept apart because the order is the rule: labels.md's actions are
 * not exclusive (a turn may be unclear and escalating at once), and
 * which one wins is decided here, in one place, first that applies.
 */

#ifndef BEHAVE_CONV_ACTION_H
#define BEHAVE_CONV_ACTION_H

#include "conversation/behave_conv_state.h"
#include "conversation/behave_conv_types.h"


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


/* the safe-response guidance of g (static text) */
const char *behave_conv_guidance_text(behave_conv_guide_e g);

/*
 * out->action, reason and guidance for the current customer turn, with
 * the findings already in out (false resolution, repetition,
 * escalation); esc_from and esc_turns from behave_conv_escalation()
 */
void behave_conv_recommend(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, behave_conv_result_t *out,
    int esc_from, int esc_turns);

/* out->review_status from the action and the findings */
void behave_conv_review(behave_conv_result_t *out);


#endif /* BEHAVE_CONV_ACTION_H */
