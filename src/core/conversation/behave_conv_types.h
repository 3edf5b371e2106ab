/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The conversation block's types (spec 2.4): what the findings fill in,
 * for behave_conversation.h's callers and for each file of a finding
 * (behave_conv_claims.h, behave_conv_asks.h, behave_conv_escalation.h,
 * behave_conv_action.h), which the answer (behave_conversation.c) puts
 * together.  Types only, so that those files and the answer do not
 * include each other.
 */

#ifndef BEHAVE_CONV_TYPES_H
#define BEHAVE_CONV_TYPES_H

#include <stddef.h>


#define BEHAVE_CONV_SCAN_MAX    4096
#define BEHAVE_CONV_REP_WINDOW  12      /* customer turns compared */
#define BEHAVE_CONV_REASON_MAX  320


typedef enum {
    BEHAVE_ACTION_CLARIFY = 0,
    BEHAVE_ACTION_SIMPLIFY,
    BEHAVE_ACTION_RESOLVE,
    BEHAVE_ACTION_ROUTE,
    BEHAVE_ACTION_HANDOFF
} behave_action_e;


typedef enum {
    BEHAVE_REVIEW_OK = 0,
    BEHAVE_REVIEW_MONITOR,
    BEHAVE_REVIEW_NEEDS_REVIEW,
    BEHAVE_REVIEW_ESCALATED
} behave_review_e;


typedef struct {
    size_t                 prior_turns;

    /* failure_flags */
    int                    false_resolution;
    char                   false_resolution_reason[BEHAVE_CONV_REASON_MAX];
    int                    repeat_contact_risk;

    /* derived */
    int                    repetition;
    double                 repetition_similarity;  /* 0 .. 1 */
    int                    escalating;
    int                    peak_severity;          /* 0 .. 4 */

    /* recommendation */
    behave_action_e        action;
    char                   reason[BEHAVE_CONV_REASON_MAX];
    const char            *safe_response_guidance; /* static text */

    behave_review_e        review_status;

    int                    degraded;
    char                   degraded_reason[BEHAVE_CONV_REASON_MAX];

    /* for logs and tests: turn indexes behind the findings, or -1 */
    int                    claim_turn;
    int                    repeated_turn;
} behave_conv_result_t;


#endif /* BEHAVE_CONV_TYPES_H */
