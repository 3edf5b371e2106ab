/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Conversation findings (spec 2.4): what one message cannot carry.
 *
 * Input: the state of the turns before (behave_conv_state.h: running
 * aggregates over every turn and the records of the newest customer
 * turns) and the new turn's record, or the turns themselves, oldest
 * first, which are folded into that state first.  Turn numbers in reasons
 * are 0-based over the whole conversation (history[0] is turn 0, current
 * is turn n), as in the labelled data.
 *
 * Findings, all about the customer (agent turns only supply claims):
 *
 *   false_resolution  an agent turn after the previous customer turn claims
 *                     the issue is fixed, closed, resolved, refunded,
 *                     credited..., and the current customer turn says it is
 *                     not ("still not working", "nothing has come in")
 *                     without confirming it ("that worked", "I'm in").
 *                     Spec rule 4: needs both, so it fires only on the
 *                     customer turn right after the claim.
 *   repetition        the current customer turn asks again what an earlier
 *                     customer turn asked: trigram similarity
 *                     (estimated from the turns' sketches, see
 *                     behave_similarity.h) high enough, or lower but with a
 *                     re-ask marker ("but", "or not", "yes or no", "I don't
 *                     understand", "I'm lost", "ou pas", "returning to
 *                     my first question"), or the same named facet (a
 *                     cost, a limit, a duration).  Not when the customer
 *                     acknowledges the answer first ("Thanks. And how much
 *                     is...", "OK, and can I...") and asks about another
 *                     facet, names a different number or reference
 *                     ("order #1234" vs "#1240", "20GB" vs "100GB"),
 *                     gives the details an unclear earlier turn lacked,
 *                     or the earlier turn was a greeting ("Hello.").
 *   escalating        a trend, not one bad turn: at least three customer
 *                     turns, the current one at severity 3 or more, two or
 *                     more above the calmest earlier turn of the last four,
 *                     and some earlier turn of those already negative;
 *                     or at severity 2, two above the calmest, a third
 *                     ask said to be asked again ("third time I'm
 *                     asking"); or, at severity 1 or more after an
 *                     earlier unhappy turn, anger or an ultimatum that
 *                     no earlier turn of the window showed ("unacceptable",
 *                     "fix it by Friday or I'm going to my bank", "de lo
 *                     contrario", "senão eu", "sinon je", "andernfalls",
 *                     "I'm switching to another provider"), from the
 *                     second customer turn on.
 *   peak_severity     max severity over the customer turns, current
 *                     included:
 *                       0  none: neutral or positive, no time pressure
 *                       1  mild: negative or mixed feeling, calm; or says
 *                          the problem persists
 *                       2  clear complaint: strongly negative valence,
 *                          medium urgency, or raised voice ("!!", CAPS)
 *                       3  high urgency or strong anger (shouting and
 *                          "??"/"!!" together, valence <= -0.75)
 *                       4  critical urgency or crisis (safety, fraud in
 *                          progress, self-harm)
 *   repeat_contact_risk  the issue is likely to come back as a new
 *                     contact: a claimed resolution failed (now or
 *                     earlier in the conversation), the customer has
 *                     re-asked twice or more, or says it is a repeat
 *                     contact ("third time", BEHAVE_CUE_REPEAT_CONTACT).
 *
 * recommendation.action, first that applies (labels.md's order,
 * behave_conv_action.h):
 *
 *   handoff   crisis or critical urgency (severity 4) in this turn,
 *             false resolution, escalating, the previous customer turn's
 *             crisis said to go on (this turn denies it is over), a crisis
 *             or critical urgency in any earlier customer turn (the peak
 *             severity is 4: "I have the pills ready", then "ok"), or
 *             context unavailable (degraded): whatever came before,
 *             whatever else the turn says
 *   simplify  cognitive load high or overload, or the customer says the
 *             answer was too much ("I'm lost", "too many steps")
 *   clarify   the ask is unclear (a short first message that says what
 *             is wrong in no words of its own, "sort of", "hard to say"),
 *             the answer was not understood (confusion), or the customer
 *             asks again what an agent turn since has answered (a
 *             repetition in two messages in a row answers nothing yet)
 *   route     a specialist team the customer names (our own phrases:
 *             complaint, appeal, fraud, court, payment sent to the wrong
 *             account...; not the annotator's topic cue alone) or the
 *             priority queue (urgency high)
 *   resolve   otherwise: a clear ask that can be answered
 *
 * review_status, first that applies:
 *
 *   escalated     handoff for a crisis, critical urgency or an escalating
 *                 trend: a human must take over now
 *   needs_review  false resolution, repeat-contact risk or degraded: the
 *                 handling went wrong, a supervisor should look at it
 *   monitor       repetition, clarify/simplify/route, or peak severity 2+:
 *                 not failing yet, watch the next turns
 *   ok            nothing found
 *
 * When the current turn is the agent's, the block echoes the state at the
 * latest customer turn (severity, escalation, action), with
 * false_resolution and repetition false: neither can happen on an agent
 * turn.  Without any customer turn the result is resolve / ok.
 *
 * Phrase matching is case-insensitive on whole words, and treats the
 * typographic apostrophe as "'".  Only the first BEHAVE_CONV_SCAN_MAX
 * bytes of a turn are scanned for phrases.  Nothing here allocates.
 */

#ifndef BEHAVE_CONVERSATION_H
#define BEHAVE_CONVERSATION_H

#include <stddef.h>


#include "text/behave_annotate.h"
#include "base/behave_json.h"
#include "conversation/behave_turn.h"
#include "conversation/behave_conv_scan.h"
#include "conversation/behave_conv_state.h"
#include "conversation/behave_conv_types.h"


/*
 * From full history: the state folded over history[0..n-1] (each turn's
 * record pushed in order), then behave_conversation_assess_state().
 */
void behave_conversation_assess(const behave_turn_t *history, size_t n,
    const behave_turn_t *current, behave_conv_result_t *out);

/* the state the turns leave, each pushed in order from an empty one */
void behave_conversation_fold(const behave_turn_t *turns, size_t n,
    behave_conv_state_t *st);

/*
 * What later turns need of turn t (behave_conv_state.h), derived from its
 * text and annotation numbers; the same whether t was just analysed or
 * decoded from the log.
 */
void behave_conversation_record(const behave_turn_t *t,
    behave_conv_rec_t *rec);

/* the same with t's text already normalized into norm (one reading of the
 * text for this, the severity's and the denial's) */
void behave_conversation_record_norm(const behave_turn_t *t,
    const behave_conv_norm_t *norm, behave_conv_rec_t *rec);

/*
 * The part of turn t's record that the fold reads of a customer turn
 * older than the state's ring (behave_conv_state.h: the records of the
 * newest BEHAVE_CONV_RING customer turns are kept, of the others only
 * the peak and fr): the numbers of the turn (severity, urgency, load,
 * cues, valence) and, with norm (t's text normalized), the flag
 * BEHAVE_CONV_F_DENIES (a claim right before it makes a false resolution,
 * fr) with the phrases it reads (overload, confusion, quote); every other
 * field is zero.  Those fields are what behave_conversation_record() gives
 * them, for less: no other phrase is looked for, no sketch made.
 */
void behave_conversation_record_part(const behave_turn_t *t,
    const behave_conv_norm_t *norm, behave_conv_rec_t *rec);

/*
 * The same as behave_conversation_assess() from the turns' records, for a
 * caller that assesses many windows of one call (each record derived once).
 */
void behave_conversation_assess_records(const behave_conv_rec_t *history,
    size_t n, const behave_conv_rec_t *current, behave_conv_result_t *out);

/* the current turn's findings from the state of the turns before it */
void behave_conversation_assess_state(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out);

/* context could not be built: handoff, needs_review, never "resolved" */
void behave_conversation_degraded(const char *reason,
    behave_conv_result_t *out);

/*
 * Fills a turn (behave_turn.h) from an annotation of text; severity is
 * computed with behave_conversation_severity() (behave_conv_escalation.h).
 * text is referenced, not copied.
 */
void behave_turn_from_annotation(behave_turn_t *t, behave_speaker_e speaker,
    const char *text, size_t len, const behave_annotation_t *a,
    uint64_t ts_ms);

/* the same with text already normalized into norm (NULL: none) */
void behave_turn_from_annotation_norm(behave_turn_t *t,
    behave_speaker_e speaker, const char *text, size_t len,
    const behave_annotation_t *a, uint64_t ts_ms,
    const behave_conv_norm_t *norm);

/*
 * The turns of a conversation as the data sets write them, a JSON array of
 * {"speaker": "agent"|"customer", "message": "..."}: annotated into tv (at
 * most max, a second apart); returns how many.  A turn with no message
 * string is an empty one.  For the tools and tests that replay data.
 */
int behave_turns_from_json(const cJSON *turns, behave_turn_t *tv, int max);

const char *behave_action_name(behave_action_e a);
const char *behave_review_name(behave_review_e r);

/*
 * Writes the block of spec 2.4 as the member "conversation" of the
 * object being written.
 */
void behave_conversation_write(behave_jw_t *w, const behave_conv_result_t *r,
    const char *conversation_id, int redacted);


#endif /* BEHAVE_CONVERSATION_H */
