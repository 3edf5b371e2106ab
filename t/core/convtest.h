/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * For unit tests of the conversation logic: a turn built from its text as
 * the handler builds it (annotated, then stored), and a short
 * conversation of such turns assessed at its last turn; a false-resolution
 * case (a claim and the customer's answer) assessed so.
 */

#ifndef CONVTEST_H
#define CONVTEST_H

#include <string.h>

#include "behave_annotate.h"
#include "behave_conversation.h"


static inline void
turn(behave_turn_t *t, behave_speaker_e who, const char *text, int i)
{
    behave_annotation_t  a;

    behave_annotate(text, strlen(text), &a);
    behave_turn_from_annotation(t, who, text, strlen(text), &a,
                                (uint64_t) i);
}


/* texts alternate customer, agent, customer...; at most 8 turns */
static inline void
conversation(const char *const *texts, size_t n, behave_conv_result_t *r)
{
    size_t          i;
    behave_turn_t   tv[8];

    for (i = 0; i < n && i < 8; i++) {
        turn(&tv[i], i % 2 ? BEHAVE_SPEAKER_AGENT : BEHAVE_SPEAKER_CUSTOMER,
             texts[i], (int) i);
    }

    behave_conversation_assess(tv, i - 1, &tv[i - 1], r);
}


/* a claim and the customer's answer to it */
typedef struct {
    const char  *customer;
    const char  *agent;
    const char  *reply;
    int          false_resolution;
} fr_case_t;


static inline void
fr_assess(const fr_case_t *c, behave_conv_result_t *r)
{
    const char  *texts[3];

    texts[0] = c->customer;
    texts[1] = c->agent;
    texts[2] = c->reply;

    conversation(texts, 3, r);
}


#endif /* CONVTEST_H */
