/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * For unit tests of the conversation logic: a turn built from its text as
 * the handler builds it (annotated, then stored), and a short
 * conversation of such turns assessed at its last turn; a set of
 * false-resolution cases (a claim and the customer's answer) checked.
 */

#ifndef CONVTEST_H
#define CONVTEST_H

#include <stddef.h>
#include <string.h>

#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"


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


/*
 * A calm first customer turn (low urgency, severity 0, valence 0), the
 * agent's answer, then a second customer turn read high, severity 3 and
 * unhappy (-0.6), whatever the annotator says of the texts: the second
 * turn's rise is then decided by what the words say (escalation).
 */
static inline void
second_rise(const char *first, const char *agent, const char *second,
    behave_conv_result_t *r)
{
    behave_turn_t  tv[3];

    turn(&tv[0], BEHAVE_SPEAKER_CUSTOMER, first, 0);
    turn(&tv[1], BEHAVE_SPEAKER_AGENT, agent, 1);
    turn(&tv[2], BEHAVE_SPEAKER_CUSTOMER, second, 2);

    tv[0].urgency = BEHAVE_URGENCY_LOW;
    tv[0].severity = 0;
    tv[0].valence_score = 0.0;
    tv[2].urgency = BEHAVE_URGENCY_HIGH;
    tv[2].severity = 3;
    tv[2].valence_score = -0.6;

    behave_conversation_assess(tv, 2, &tv[2], r);
}


/*
 * Each conversation of a table (rows of width texts, n turns each,
 * assessed at the last) gives the result's field, an int, the value want;
 * each check is named by what and the row's last text.
 */
#define conv_each(rows, n, field, want, what)                               \
    conv_each_at(&(rows)[0][0], sizeof(rows) / sizeof((rows)[0]),           \
                 sizeof((rows)[0]) / sizeof((rows)[0][0]), n,               \
                 offsetof(behave_conv_result_t, field), want, what)


static inline void
conv_each_at(const char *const *rows, size_t nrows, size_t width, size_t n,
    size_t off, int want, const char *what)
{
    int                    got;
    size_t                 i;
    behave_conv_result_t   r;

    for (i = 0; i < nrows; i++) {
        conversation(rows + i * width, n, &r);
        memcpy(&got, (const char *) &r + off, sizeof(int));
        is_int(got, want, "%s: %s", what, rows[i * width + n - 1]);
    }
}


/* a conversation's first customer turn alone, assessed */
static inline void
first_turn(const char *text, behave_conv_result_t *r)
{
    behave_turn_t  t;

    turn(&t, BEHAVE_SPEAKER_CUSTOMER, text, 0);
    behave_conversation_assess(&t, 0, &t, r);
}


/* a claim and the customer's answer to it */
typedef struct {
    const char  *customer;
    const char  *agent;
    const char  *reply;
    int          false_resolution;
} fr_case_t;


/*
 * Each case's false resolution as expected, and with handoff set, a false
 * resolution handed off (needs tap.h)
 */
static inline void
fr_check(const fr_case_t *cases, size_t n, int handoff)
{
    size_t                 i;
    const char            *texts[3];
    behave_conv_result_t   r;

    for (i = 0; i < n; i++) {
        texts[0] = cases[i].customer;
        texts[1] = cases[i].agent;
        texts[2] = cases[i].reply;
        conversation(texts, 3, &r);

        is_int(r.false_resolution, cases[i].false_resolution,
               "false resolution %d: \"%s\" after \"%s\"",
               cases[i].false_resolution, cases[i].reply, cases[i].agent);

        if (handoff && cases[i].false_resolution) {
            is_int(r.action, BEHAVE_ACTION_HANDOFF, "and handed off");
        }
    }
}


#endif /* CONVTEST_H */
