/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The action and the review status; see behave_conv_action.h.
 */

#include <stdio.h>

#include "behave_conv_action.h"
#include "behave_conv_escalation.h"
#include "behave_conv_scan.h"


#define BEHAVE_CONV_GREETING_GRAMS  16  /* distinct trigrams, at most */


static int behave_conv_nothing_said(const behave_conv_state_t *st);


static const char  *behave_conv_guidance[] = {
    /* 0 crisis */
    "Put the person's safety first: respond with care and urgency, give "
    "emergency guidance if anyone is at risk, and connect a human now. Do "
    "not close the conversation or send scripted text.",
    /* 1 false resolution */
    "Do not say again that the issue is resolved. Acknowledge that it is "
    "still not working, apologise for the wrong confirmation, and hand over "
    "to a person who can check the fix before confirming anything.",
    /* 2 escalating */
    "Acknowledge the frustration and what the customer has already tried, "
    "without scripted apologies or links already sent. Hand over to a person "
    "with authority to act and say when they will be in touch.",
    /* 3 route */
    "Tell the customer which team will handle this and what happens next; "
    "do not decide it yourself or promise an outcome.",
    /* 4 simplify */
    "Answer in one or two short sentences in plain words, no jargon; give "
    "one step at a time and check it worked before the next.",
    /* 5 clarify after repetition */
    "The previous answer did not land: answer the exact question directly "
    "(yes or no first if that is what was asked), without pointing to the "
    "same page or policy text again.",
    /* 6 clarify unclear */
    "Ask one specific question to pin down the problem, offering concrete "
    "options the customer can pick from.",
    /* 7 resolve */
    "Answer the question directly and completely; do not present the issue "
    "as resolved until the customer confirms it.",
    /* 8 degraded */
    "Conversation context is unavailable: treat this message as possibly "
    "part of an ongoing problem, do not claim anything is resolved, and hand "
    "over to a person who can read the history.",
};



const char *
behave_conv_guidance_text(behave_conv_guide_e g)
{
    return behave_conv_guidance[g];
}


void
behave_conv_recommend(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, behave_conv_result_t *out,
    int esc_from, int esc_turns)
{
    int      opening;
    char    *r;
    size_t   rl;

    r = out->reason;
    rl = sizeof(out->reason);
    opening = behave_conv_nothing_said(st);

    if (current->severity >= 4 || current->urgency == BEHAVE_URGENCY_CRITICAL
        || (current->cues & BEHAVE_CUE_CRISIS))
    {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "customer turn %d signals a crisis or critical "
                 "urgency", (int) out->prior_turns);
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_CRISIS];
        return;
    }

    if (out->false_resolution) {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "false resolution: %.280s",
                 out->false_resolution_reason);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_FALSE_RESOLUTION];
        return;
    }

    if (out->escalating) {
        out->action = BEHAVE_ACTION_HANDOFF;
        if (esc_from == BEHAVE_CONV_ESC_ANGER) {
            snprintf(r, rl, "the customer is escalating: anger or an "
                     "ultimatum after earlier unhappy turns");
        } else {
            snprintf(r, rl, "the customer is escalating: severity rose from "
                     "%d to %d over the last %d customer turns", esc_from,
                     current->severity, esc_turns);
        }
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_ESCALATING];
        return;
    }

    /*
     * "he's breathing but he won't open his eyes", "still grey, it's 8pm
     * now": the previous customer turn told of a crisis and this one says
     * it is still going on; calmer words do not end it, a human takes it
     */
    if (st->nrec > 0 && st->rec[0].severity >= 4
        && (current->flags & BEHAVE_CONV_F_DENIES))
    {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "the crisis of customer turn %d is still going on",
                 (int) st->rec[0].turn);
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_CRISIS];
        return;
    }

    /*
     * labels.md's teams (fraud, legal, a formal complaint, disputes,
     * appeals, bereavement, data protection), named: not every topic the
     * annotator marks for care ("prescription", "hospital", "funeral"),
     * which a clear ask about answers
     */
    if (current->specialist) {
        out->action = BEHAVE_ACTION_ROUTE;
        snprintf(r, rl, "needs a specialist team (%s)",
                 behave_conv_tables[BEHAVE_CONV_T_SPECIALIST]
                     .tab[current->specialist - 1].what);
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_ROUTE];
        return;
    }

    /* before the priority queue: nobody can route what is not said */
    if (opening && (current->flags & BEHAVE_CONV_F_UNCLEAR)) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the ask is unclear: a short first message that "
                 "does not say what is wrong");
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    /*
     * The customer says or shows that the answer was too much ("das ist
     * mir alles zu viel", "I don't understand" and question after
     * question): labels.md's overload, not its "high" (blocked, money or
     * access at stake, "asap"), which a cascade of questions makes the
     * annotator read; a queue does not help, a simpler answer does
     */
    if (current->urgency == BEHAVE_URGENCY_HIGH
        && !current->overload && !(current->flags & BEHAVE_CONV_F_OVERLOAD))
    {
        out->action = BEHAVE_ACTION_ROUTE;
        snprintf(r, rl, "high urgency: priority queue");
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_ROUTE];
        return;
    }

    if (current->load >= BEHAVE_LOAD_HIGH || current->overload
        || (current->flags & BEHAVE_CONV_F_OVERLOAD))
    {
        out->action = BEHAVE_ACTION_SIMPLIFY;
        if (current->flags & BEHAVE_CONV_F_OVERLOAD) {
            snprintf(r, rl, "the customer did not understand and asks "
                     "question after question%s",
                     out->repetition ? ", re-asking an earlier one" : "");

        } else if (current->overload) {
            snprintf(r, rl, "the customer is overloaded (\"%s\")%s",
                     behave_conv_quote(BEHAVE_CONV_T_OVERLOAD,
                                       current->overload),
                     out->repetition ? " and re-asked the question" : "");
        } else {
            snprintf(r, rl, "cognitive load is %s",
                     behave_load_name((behave_load_e) current->load));
        }
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_SIMPLIFY];
        return;
    }

    if (out->repetition) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "customer turn %d asks again what turn %d asked "
                 "(similarity %.2f): the previous answer did not land",
                 (int) out->prior_turns, out->repeated_turn,
                 out->repetition_similarity);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_REPETITION];
        return;
    }

    if (current->confusion || (current->cues & BEHAVE_CUE_CONFUSION)) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the answer was not understood (\"%s\")",
                 current->confusion
                 ? behave_conv_quote(BEHAVE_CONV_T_CONFUSION,
                                     current->confusion)
                 : "confusion");
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    if (current->vague_n >= 2 && current->vague) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the ask is unclear (\"%s\")",
                 behave_conv_quote(BEHAVE_CONV_T_VAGUE, current->vague));
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    out->action = BEHAVE_ACTION_RESOLVE;
    snprintf(r, rl, "a clear ask that can be answered");
    out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_RESOLVE];
}


void
behave_conv_review(behave_conv_result_t *out)
{
    if (out->action == BEHAVE_ACTION_HANDOFF && !out->false_resolution
        && !out->degraded)
    {
        out->review_status = BEHAVE_REVIEW_ESCALATED;

    } else if (out->false_resolution || out->repeat_contact_risk
               || out->degraded)
    {
        out->review_status = BEHAVE_REVIEW_NEEDS_REVIEW;

    } else if (out->repetition || out->action != BEHAVE_ACTION_RESOLVE
               || out->peak_severity >= 2)
    {
        out->review_status = BEHAVE_REVIEW_MONITOR;

    } else {
        out->review_status = BEHAVE_REVIEW_OK;
    }
}


/*
 * "hi", "boa noite", "Hallo": a greeting says nothing of the issue, so a
 * vague turn after greetings only ("the thing from before isn't doing
 * it") is still the customer's first ask.  A greeting: a few letters
 * (the sketch's distinct trigrams), no question, no problem reported, no
 * number, no team, calm.
 */
static int
behave_conv_nothing_said(const behave_conv_state_t *st)
{
    size_t                    i;
    const behave_conv_rec_t  *r;

    if (st->customers > st->nrec) {
        return 0;
    }

    for (i = 0; i < st->nrec; i++) {
        r = &st->rec[i];

        if (r->flags != 0 || r->severity > 0 || r->specialist
            || r->nids > 0 || r->vague_n > 0 || r->confusion
            || r->overload || (r->cues & BEHAVE_CUE_QUESTION)
            || r->sketch.n > BEHAVE_CONV_GREETING_GRAMS)
        {
            return 0;
        }
    }

    return 1;
}
