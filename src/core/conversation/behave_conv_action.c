/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The action and the review status; see behave_conv_action.h.
 */

#include <stdio.h>

#include "conversation/behave_conv_action.h"
#include "conversation/behave_conv_asks.h"
#include "conversation/behave_conv_escalation.h"
#include "conversation/behave_conv_scan.h"


static void behave_conv_act(behave_conv_result_t *out,
    behave_action_e action, behave_conv_guide_e guide);
static int behave_conv_handoff(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, behave_conv_result_t *out,
    int esc_from, int esc_turns);
static int behave_conv_simplify(const behave_conv_rec_t *current,
    behave_conv_result_t *out);
static int behave_conv_clarify(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, behave_conv_result_t *out);
static int behave_conv_route(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, behave_conv_result_t *out);
static int behave_conv_team_taken(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, const behave_conv_result_t *out);
static int behave_conv_answered(const behave_conv_state_t *st, int asked);
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


/*
 * labels.md's order, first that applies: a human now (handoff), then a
 * simpler answer (simplify), then the question pinned down or answered
 * again (clarify), then a team or the priority queue (route), else the
 * answer (resolve)
 */
void
behave_conv_recommend(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, behave_conv_result_t *out,
    int esc_from, int esc_turns)
{
    if (behave_conv_handoff(st, current, out, esc_from, esc_turns)
        || behave_conv_simplify(current, out)
        || behave_conv_clarify(st, current, out)
        || behave_conv_route(st, current, out))
    {
        return;
    }

    behave_conv_act(out, BEHAVE_ACTION_RESOLVE, BEHAVE_GUIDE_RESOLVE);
    snprintf(out->reason, sizeof(out->reason),
             "a clear ask that can be answered");
}


static void
behave_conv_act(behave_conv_result_t *out, behave_action_e action,
    behave_conv_guide_e guide)
{
    out->action = action;
    out->safe_response_guidance = behave_conv_guidance[guide];
}


/*
 * A crisis or critical urgency in this turn or an earlier one, a false
 * resolution, an escalation: whatever came before, and whatever else the
 * turn says
 */
static int
behave_conv_handoff(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, behave_conv_result_t *out,
    int esc_from, int esc_turns)
{
    char    *r;
    size_t   rl;

    r = out->reason;
    rl = sizeof(out->reason);

    if (current->severity >= 4 || current->urgency == BEHAVE_URGENCY_CRITICAL
        || (current->cues & BEHAVE_CUE_CRISIS))
    {
        behave_conv_act(out, BEHAVE_ACTION_HANDOFF, BEHAVE_GUIDE_CRISIS);
        snprintf(r, rl, "customer turn %d signals a crisis or critical "
                 "urgency", (int) out->prior_turns);
        return 1;
    }

    if (out->false_resolution) {
        behave_conv_act(out, BEHAVE_ACTION_HANDOFF,
                        BEHAVE_GUIDE_FALSE_RESOLUTION);
        snprintf(r, rl, "false resolution: %.280s",
                 out->false_resolution_reason);
        return 1;
    }

    if (out->escalating) {
        behave_conv_act(out, BEHAVE_ACTION_HANDOFF, BEHAVE_GUIDE_ESCALATING);
        if (esc_from == BEHAVE_CONV_ESC_ANGER) {
            snprintf(r, rl, "the customer is escalating: anger or an "
                     "ultimatum after earlier unhappy turns");
        } else {
            snprintf(r, rl, "the customer is escalating: severity rose from "
                     "%d to %d over the last %d customer turns", esc_from,
                     current->severity, esc_turns);
        }
        return 1;
    }

    /*
     * "he's breathing but he won't open his eyes", "still grey, it's 8pm
     * now": the previous customer turn told of a crisis and this one says
     * it is still going on; calmer words do not end it, a human takes it
     */
    if (st->nrec > 0 && st->rec[0].severity >= 4
        && (current->flags & BEHAVE_CONV_F_DENIES))
    {
        behave_conv_act(out, BEHAVE_ACTION_HANDOFF, BEHAVE_GUIDE_CRISIS);
        snprintf(r, rl, "the crisis of customer turn %d is still going on",
                 (int) st->rec[0].turn);
        return 1;
    }

    /*
     * "I have the pills ready", then "ok": a crisis or critical urgency
     * earlier in the conversation (the peak) is not over because the
     * words grew calm; labels.md hands off for a crisis whatever came
     * after, so every later turn is a human's too
     */
    if (st->peak >= 4) {
        behave_conv_act(out, BEHAVE_ACTION_HANDOFF, BEHAVE_GUIDE_CRISIS);
        snprintf(r, rl, "an earlier customer turn signalled a crisis or "
                 "critical urgency");
        return 1;
    }

    return 0;
}


/*
 * The load is high, or the customer says or shows that the answer was
 * too much ("das ist mir alles zu viel", "I don't understand" and
 * question after question): a simpler answer, before anything else is
 * asked of them or anyone else is brought in
 */
static int
behave_conv_simplify(const behave_conv_rec_t *current,
    behave_conv_result_t *out)
{
    char    *r;
    size_t   rl;

    if (!(current->load >= BEHAVE_LOAD_HIGH || current->overload
          || (current->flags & BEHAVE_CONV_F_OVERLOAD)))
    {
        return 0;
    }

    r = out->reason;
    rl = sizeof(out->reason);

    behave_conv_act(out, BEHAVE_ACTION_SIMPLIFY, BEHAVE_GUIDE_SIMPLIFY);

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

    return 1;
}


/*
 * The ask is unclear (a first message that does not say what is wrong,
 * vague words) or the answer was not understood (asked again after it,
 * or said so): nobody can answer or route what is not said
 */
static int
behave_conv_clarify(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, behave_conv_result_t *out)
{
    char    *r;
    size_t   rl;

    r = out->reason;
    rl = sizeof(out->reason);

    if ((current->flags & BEHAVE_CONV_F_UNCLEAR)
        && behave_conv_nothing_said(st))
    {
        behave_conv_act(out, BEHAVE_ACTION_CLARIFY, BEHAVE_GUIDE_UNCLEAR);
        snprintf(r, rl, "the ask is unclear: a short first message that "
                 "does not say what is wrong");
        return 1;
    }

    if (out->repetition && behave_conv_answered(st, out->repeated_turn)) {
        behave_conv_act(out, BEHAVE_ACTION_CLARIFY, BEHAVE_GUIDE_REPETITION);
        snprintf(r, rl, "customer turn %d asks again what turn %d asked "
                 "(similarity %.2f): the previous answer did not land",
                 (int) out->prior_turns, out->repeated_turn,
                 out->repetition_similarity);
        return 1;
    }

    /*
     * "which one is cheaper for me?", "I don't understand my bill" in a
     * first message: no answer yet that was not understood, and the ask
     * says what it is about
     */
    if ((current->confusion || (current->cues & BEHAVE_CUE_CONFUSION))
        && st->turns > 0)
    {
        behave_conv_act(out, BEHAVE_ACTION_CLARIFY, BEHAVE_GUIDE_UNCLEAR);
        snprintf(r, rl, "the answer was not understood (\"%s\")",
                 current->confusion
                 ? behave_conv_quote(BEHAVE_CONV_T_CONFUSION,
                                     current->confusion)
                 : "confusion");
        return 1;
    }

    if (current->vague_n >= 2 && current->vague) {
        behave_conv_act(out, BEHAVE_ACTION_CLARIFY, BEHAVE_GUIDE_UNCLEAR);
        snprintf(r, rl, "the ask is unclear (\"%s\")",
                 behave_conv_quote(BEHAVE_CONV_T_VAGUE, current->vague));
        return 1;
    }

    return 0;
}


/*
 * An agent turn came after customer turn "asked" and before the current
 * one: asked again after an answer, the answer did not land; asked again
 * in two messages in a row, nothing was answered yet
 */
static int
behave_conv_answered(const behave_conv_state_t *st, int asked)
{
    unsigned  i, customers;

    customers = 0;

    for (i = 0; i < st->nrec; i++) {
        customers += st->rec[i].turn > (uint32_t) asked;
    }

    return st->turns - (uint32_t) asked - 1 > customers;
}


/*
 * labels.md's teams (fraud, legal, a formal complaint, disputes,
 * appeals, bereavement, data protection), named: not every topic the
 * annotator marks for care ("prescription", "hospital", "funeral"),
 * which a clear ask about answers; or the priority queue, when the
 * customer is blocked right now (urgency high)
 */
static int
behave_conv_route(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, behave_conv_result_t *out)
{
    if (current->specialist && !behave_conv_team_taken(st, current, out)) {
        behave_conv_act(out, BEHAVE_ACTION_ROUTE, BEHAVE_GUIDE_ROUTE);
        snprintf(out->reason, sizeof(out->reason),
                 "needs a specialist team (%s)",
                 behave_conv_tables[BEHAVE_CONV_T_SPECIALIST]
                     .tab[current->specialist - 1].what);
        return 1;
    }

    /*
     * the annotator's high urgency is a guess from the whole message: a
     * calm report of a fault can read as high; the queue takes the
     * customer who says why it cannot wait (priority.tsv)
     */
    if (current->urgency == BEHAVE_URGENCY_HIGH && current->priority) {
        behave_conv_act(out, BEHAVE_ACTION_ROUTE, BEHAVE_GUIDE_ROUTE);
        snprintf(out->reason, sizeof(out->reason),
                 "high urgency (\"%s\"): priority queue",
                 behave_conv_quote(BEHAVE_CONV_T_PRIORITY,
                                   current->priority));
        return 1;
    }

    return 0;
}


/*
 * "Should I also order a new card, or will the fraud team do that?",
 * "How long does the dispute usually take?": an earlier customer turn
 * already named a team and the agent answered it; a later question that
 * names a team, and does not ask the earlier one again, asks how the
 * case goes on, which the answer can tell.  Asked again ("there must be
 * a fraud department, right?") or told ("I still want it passed to your
 * fraud team", "I've never heard of that merchant"), the case is still
 * the team's.
 */
static int
behave_conv_team_taken(const behave_conv_state_t *st,
    const behave_conv_rec_t *current, const behave_conv_result_t *out)
{
    size_t  i;

    if (out->repetition || !(current->flags & BEHAVE_CONV_F_QUESTION)) {
        return 0;
    }

    for (i = 0; i < st->nrec; i++) {
        if (st->rec[i].specialist
            && behave_conv_answered(st, (int) st->rec[i].turn))
        {
            return 1;
        }
    }

    return 0;
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
 * it") is still the customer's first ask
 */
static int
behave_conv_nothing_said(const behave_conv_state_t *st)
{
    size_t  i;

    if (st->customers > st->nrec) {
        return 0;
    }

    for (i = 0; i < st->nrec; i++) {
        if (!behave_conv_greeting(&st->rec[i])) {
            return 0;
        }
    }

    return 1;
}
