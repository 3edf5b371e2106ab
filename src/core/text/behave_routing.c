/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include "text/behave_routing.h"


static const char *behave_route_tone(const behave_annotation_t *a);


/*
 * The order is the order of precedence: safety first, then time pressure,
 * then the reader's state, then the plain case.
 */

void
behave_route(const behave_annotation_t *a, behave_routing_t *out)
{
    int  negative;

    negative = (a->valence == BEHAVE_VALENCE_NEGATIVE
                || a->valence == BEHAVE_VALENCE_MIXED);

    out->recommended_tone = behave_route_tone(a);

    if ((a->cues & BEHAVE_CUE_CRISIS)
        || a->urgency == BEHAVE_URGENCY_CRITICAL
        || a->social_register == BEHAVE_REGISTER_CRISIS)
    {
        out->response_posture = "crisis";
        out->suggested_action = "escalate_human";
        return;
    }

    if (a->urgency == BEHAVE_URGENCY_HIGH) {
        out->response_posture = "expedite";
        out->suggested_action = (a->cues & BEHAVE_CUE_SPECIALIST)
                                ? "route_specialist" : "prioritize";
        return;
    }

    if (a->cognitive_load >= BEHAVE_LOAD_HIGH) {
        out->response_posture = "supportive";
        out->suggested_action = "simplify";
        return;
    }

    if (a->cues & BEHAVE_CUE_CONFUSION) {
        out->response_posture = "supportive";
        out->suggested_action = "clarify";
        return;
    }

    if (a->cues & BEHAVE_CUE_SPECIALIST) {
        out->response_posture = negative ? "de-escalate" : "standard";
        out->suggested_action = "route_specialist";
        return;
    }

    out->response_posture = negative ? "de-escalate" : "standard";
    out->suggested_action = "answer";
}


static const char *
behave_route_tone(const behave_annotation_t *a)
{
    if (a->social_register == BEHAVE_REGISTER_CRISIS
        || a->urgency == BEHAVE_URGENCY_CRITICAL)
    {
        return "calm";
    }

    if (a->valence == BEHAVE_VALENCE_NEGATIVE
        || a->valence == BEHAVE_VALENCE_MIXED)
    {
        return "empathetic";
    }

    if (a->cognitive_load >= BEHAVE_LOAD_HIGH) {
        return "plain";
    }

    if (a->valence == BEHAVE_VALENCE_POSITIVE) {
        return "warm";
    }

    switch (a->social_register) {
    case BEHAVE_REGISTER_FORMAL:
        return "formal";
    case BEHAVE_REGISTER_INFORMAL:
        return "casual";
    default:
        return "neutral";
    }
}
