/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The routing recommendation of spec 2.3, derived from one annotation.
 * Value sets (docs/API.md):
 *   response_posture   standard | supportive | de-escalate | expedite |
 *                      crisis
 *   recommended_tone   warm | neutral | formal | casual | empathetic |
 *                      plain | calm
 *   suggested_action   answer | clarify | simplify | prioritize |
 *                      route_specialist | escalate_human
 */

#ifndef BEHAVE_ROUTING_H
#define BEHAVE_ROUTING_H

#include "text/behave_annotate.h"


typedef struct {
    const char  *response_posture;
    const char  *recommended_tone;
    const char  *suggested_action;
} behave_routing_t;


void behave_route(const behave_annotation_t *a, behave_routing_t *out);


#endif /* BEHAVE_ROUTING_H */
