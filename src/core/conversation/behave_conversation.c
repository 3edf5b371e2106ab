/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The answer: a turn's record (what later turns need of it), the
 * findings of the current turn from the state of the turns before it,
 * and the block of spec 2.4 that carries them; the rules are described
 * in behave_conversation.h.
 *
 * The findings are each in a file of their own, this one only puts them
 * together and in order: what the turn's words say (behave_conv_scan.c,
 * with the phrase tables of phrases/), claims and denials and the false
 * resolution (behave_conv_claims.c), asks and the repetition
 * (behave_conv_asks.c), severity and escalation
 * (behave_conv_escalation.c), then the action (behave_conv_action.c).
 * The phrase tables cover what the annotator's cues may not (yet): the
 * conversation logic must hold on its own, so it counts the annotator's
 * cue as one more piece of evidence, never as the only one.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "conversation/behave_conversation.h"
#include "conversation/behave_conv_action.h"
#include "conversation/behave_conv_asks.h"
#include "conversation/behave_conv_claims.h"
#include "conversation/behave_conv_escalation.h"
#include "conversation/behave_conv_learned.h"
#include "conversation/behave_conv_scan.h"
#include "conversation/behave_conv_state.h"
#include "text/behave_model.h"
#include "text/behave_similarity.h"


#define BEHAVE_CONV_CASCADE      3      /* questions in one turn */


static void behave_conv_assess_customer(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out);
static void behave_conv_init(behave_conv_result_t *out, size_t n);


/*
 * What every turn's record holds, from the turn's numbers: the head of
 * the record, all that a customer turn older than the state's ring leaves
 * in it (its severity, for the peak)
 */
static void
behave_conv_record_head(const behave_turn_t *t, behave_conv_rec_t *rec)
{
    double  v;

    memset(rec, 0, sizeof(*rec));

    rec->customer = t->speaker == BEHAVE_SPEAKER_CUSTOMER;
    rec->severity = t->severity < 0 ? 0 : t->severity > 4 ? 4 : t->severity;
    rec->urgency = t->urgency;
    rec->load = t->load;
    rec->cues = t->cues;

    /* stored turns keep three decimals: so does the record */
    v = t->valence_score < -1 ? -1 : t->valence_score > 1 ? 1
        : t->valence_score;
    rec->valence = (int) lround(v * 1000.0);
}


/*
 * Whether customer turn t says the issue is not settled
 * (BEHAVE_CONV_F_DENIES), with what that reads: the overload and
 * confusion phrases and the denial's quote
 */
static unsigned
behave_conv_record_denies(const behave_turn_t *t,
    const behave_conv_norm_t *norm, behave_conv_rec_t *rec)
{
    int       lost;
    unsigned  f;

    f = 0;

    rec->overload = behave_conv_first(norm, BEHAVE_CONV_T_OVERLOAD, 0, NULL);
    rec->confusion = behave_conv_first(norm, BEHAVE_CONV_T_CONFUSION, 0,
                                       NULL);

    /* "I don't see it" after a claim says it is not there */
    lost = rec->overload
           || (rec->confusion
               && strcmp(behave_conv_quote(BEHAVE_CONV_T_CONFUSION,
                                           rec->confusion), "don't see")
                  != 0);

    if (behave_conv_denies(norm, t->cues, lost, &rec->quote)) {
        f |= BEHAVE_CONV_F_DENIES;
    }

    /*
     * "it's freezing in here, the radiators are stone cold": a clearly
     * unhappy turn that neither thanks nor asks reports the problem as it
     * still is, whatever its words
     */
    if (rec->valence <= BEHAVE_CONV_DENY_VALENCE
        && !(t->cues & (BEHAVE_CUE_THANKS | BEHAVE_CUE_QUESTION
                        | BEHAVE_CUE_ASKS))
        && !behave_conv_has_question(norm))
    {
        f |= BEHAVE_CONV_F_DENIES;
    }

    return f;
}


void
behave_conversation_record_part(const behave_turn_t *t,
    const behave_conv_norm_t *norm, behave_conv_rec_t *rec)
{
    behave_conv_record_head(t, rec);

    if (norm != NULL && rec->customer) {
        rec->flags = behave_conv_record_denies(t, norm, rec);
    }
}


void
behave_conversation_record(const behave_turn_t *t, behave_conv_rec_t *rec)
{
    behave_conv_norm_t  norm;

    behave_conv_normalize(t->text, t->text_len, &norm);
    behave_conversation_record_norm(t, &norm, rec);
}


void
behave_conversation_record_norm(const behave_turn_t *t,
    const behave_conv_norm_t *n, behave_conv_rec_t *rec)
{
    unsigned              f, q;
    behave_sim_set_t      set;
    behave_annotation_t   a;

    behave_conv_record_head(t, rec);

    if (!rec->customer) {
        rec->claim = behave_conv_claim(n, t->cues);
        behave_conv_learned_adjust(n, rec);

        /* a claim the model adds is no claim when its deeds are all
         * wished or asked ("we want to make sure it has been resolved") */
        if (rec->claim == BEHAVE_CONV_CLAIM_CUE
            && behave_conv_deeds(n) == 1)
        {
            rec->claim = 0;
        }

        return;
    }

    f = behave_conv_record_denies(t, n, rec);

    if (behave_conv_match(n, BEHAVE_CONV_T_REASK_STRONG, 0, NULL)) {
        f |= BEHAVE_CONV_F_STRONG;
    }

    if (behave_conv_match(n, BEHAVE_CONV_T_ANGER, 0, NULL))
    {
        f |= BEHAVE_CONV_F_ANGER;
    }

    if (behave_conv_unclear(n)) {
        f |= BEHAVE_CONV_F_UNCLEAR;
    }

    if (behave_conv_match(n, BEHAVE_CONV_T_YES_BUT, 0, NULL)
        || behave_conv_concedes(n))
    {
        f |= BEHAVE_CONV_F_OPEN | BEHAVE_CONV_F_REASK;
    }

    if (behave_conv_concludes(n)) {
        f |= BEHAVE_CONV_F_STRONG | BEHAVE_CONV_F_QUESTION;
    }

    if (behave_conv_match(n, BEHAVE_CONV_T_REASK, 0, NULL)
        || behave_conv_match(n, BEHAVE_CONV_T_CONFUSION, 0, NULL)
        || behave_conv_match(n, BEHAVE_CONV_T_OVERLOAD, 0, NULL))
    {
        f |= BEHAVE_CONV_F_REASK;
    }

    if (behave_conv_has_question(n) || behave_conv_plain_question(n))
    {
        f |= BEHAVE_CONV_F_QUESTION;
    }

    /* "Did both, still shows offline": the result of the step the agent
     * suggested, with no question mark, asks nothing (step_done.tsv) */
    if (!(f & (BEHAVE_CONV_F_QUESTION | BEHAVE_CONV_F_STRONG))
        && behave_conv_opens(n, BEHAVE_CONV_L_STEP_DONE, 1))
    {
        rec->cues &= ~BEHAVE_CUE_ASKS;
    }

    f |= behave_conv_focus(n);
    f |= behave_conv_intent(n) << BEHAVE_CONV_F_INTENT_SHIFT;

    /*
     * labels.md's overload: "I don't understand any of this" with a
     * cascade of questions ("Photo size? Countersignatory? Extra
     * months??") cannot cope with the information given
     */
    q = behave_conv_questions(n);

    if (q > BEHAVE_CONV_CASCADE
        || ((rec->confusion || (t->cues & BEHAVE_CUE_CONFUSION))
            && q >= BEHAVE_CONV_CASCADE))
    {
        f |= BEHAVE_CONV_F_OVERLOAD;
    }

    if (behave_conv_match(n, BEHAVE_CONV_T_CONFIRM_STRONG, 1, NULL)
        || behave_conv_match(n, BEHAVE_CONV_T_CONFIRM_WEAK, 1, NULL)
        || behave_conv_follow_up(n))
    {
        f |= BEHAVE_CONV_F_ACK;
    }

    if (behave_conv_match(n, BEHAVE_CONV_T_REPEAT_CONTACT, 0, NULL)) {
        f |= BEHAVE_CONV_F_REPEAT;
    }

    rec->flags = f;

    /* the classifiers settle the denial where the phrases miss */
    behave_conv_learned_adjust(n, rec);

    rec->specialist = behave_conv_first(n,
                                        BEHAVE_CONV_T_SPECIALIST,
                                        BEHAVE_CONV_TOPIC, NULL);
    rec->priority = behave_conv_first(n, BEHAVE_CONV_T_PRIORITY, 0, NULL);
    rec->interim = (f & BEHAVE_CONV_F_QUESTION)
                   && behave_conv_match(n, BEHAVE_CONV_T_INTERIM, 0, NULL);
    rec->vague = behave_conv_first(n, BEHAVE_CONV_T_VAGUE,
                                   0, &rec->vague_n);

    behave_conv_ids(n, rec);

    behave_sim_prepare(t->text, t->text_len, &set);
    behave_sim_sketch(&set, &rec->sketch);

    /* a record decoded from an older log has no signature: annotate */
    if (t->has_meaning) {
        memcpy(rec->meaning, t->meaning, BEHAVE_MEANING_DIM);

    } else {
        behave_annotate(t->text, t->text_len, &a);
        memcpy(rec->meaning, a.meaning, BEHAVE_MEANING_DIM);
    }
}


static void
behave_conv_assess_customer(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out)
{
    int       esc_from, esc_turns;
    unsigned  similar;

    behave_conv_false_resolution(st, cur, out);
    behave_conv_repetition(st, cur, out, &similar);
    behave_conv_escalation(st, cur, out->repetition ? similar : 0, out,
                           &esc_from, &esc_turns);

    out->repeat_contact_risk =
        out->false_resolution
        || (out->repetition && similar >= 2)
        || (cur->cues & BEHAVE_CUE_REPEAT_CONTACT)
        || (cur->flags & BEHAVE_CONV_F_REPEAT)
        || st->fr;

    behave_conv_recommend(st, cur, out, esc_from, esc_turns);
    behave_conv_review(out);
}


static void
behave_conv_init(behave_conv_result_t *out, size_t n)
{
    memset(out, 0, sizeof(*out));
    out->prior_turns = n;
    out->action = BEHAVE_ACTION_RESOLVE;
    out->review_status = BEHAVE_REVIEW_OK;
    out->claim_turn = -1;
    out->repeated_turn = -1;
    out->safe_response_guidance =
        behave_conv_guidance_text(BEHAVE_GUIDE_RESOLVE);
}


void
behave_conversation_fold(const behave_turn_t *turns, size_t n,
    behave_conv_state_t *st)
{
    size_t             i;
    behave_conv_rec_t  rec;

    behave_conv_state_init(st);

    for (i = 0; i < n; i++) {
        behave_conversation_record(&turns[i], &rec);
        behave_conv_state_push(st, &rec);
    }
}


void
behave_conversation_assess(const behave_turn_t *history, size_t n,
    const behave_turn_t *current, behave_conv_result_t *out)
{
    behave_conv_rec_t    rec;
    behave_conv_state_t  st;

    behave_conversation_fold(history, n, &st);

    behave_conversation_record(current, &rec);
    behave_conversation_assess_state(&st, &rec, out);
}


void
behave_conversation_assess_records(const behave_conv_rec_t *history,
    size_t n, const behave_conv_rec_t *current, behave_conv_result_t *out)
{
    size_t               i;
    behave_conv_rec_t    rec;
    behave_conv_state_t  st;

    behave_conv_state_init(&st);

    for (i = 0; i < n; i++) {
        rec = history[i];
        behave_conv_state_push(&st, &rec);
    }

    behave_conversation_assess_state(&st, current, out);
}


void
behave_conversation_assess_state(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out)
{
    behave_conv_state_t  at;

    behave_conv_init(out, st->turns);

    if (cur->customer) {
        behave_conv_assess_customer(st, cur, out);
        return;
    }

    /* an agent turn: echo the state at the latest customer turn */
    if (st->nrec == 0) {
        snprintf(out->reason, sizeof(out->reason),
                 "no customer turn yet");
        return;
    }

    /* the state before that turn, as the *_prev fields kept it */
    at = *st;
    at.turns = st->rec[0].turn;
    at.customers = st->customers - 1;
    at.peak = st->peak_prev;
    at.fr = st->fr_prev;
    at.claim_turn = st->claim_prev_turn;
    at.claim_what = st->claim_prev_what;
    at.nrec = st->nrec - 1;
    at.nmean = st->nmean > 0 ? st->nmean - 1 : 0;
    memmove(&at.rec[0], &at.rec[1],
            (BEHAVE_CONV_RING - 1) * sizeof(behave_conv_rec_t));

    out->prior_turns = at.turns;
    behave_conv_assess_customer(&at, &st->rec[0], out);

    out->prior_turns = st->turns;
    out->false_resolution = 0;
    out->false_resolution_reason[0] = '\0';
    out->claim_turn = -1;
    out->repetition = 0;
    out->repeated_turn = -1;
}


void
behave_conversation_degraded(const char *reason, behave_conv_result_t *out)
{
    behave_conv_init(out, 0);

    out->degraded = 1;
    snprintf(out->degraded_reason, sizeof(out->degraded_reason), "%s",
             reason != NULL && reason[0] ? reason : "context unavailable");

    out->action = BEHAVE_ACTION_HANDOFF;
    snprintf(out->reason, sizeof(out->reason),
             "conversation context unavailable (%.240s)",
             out->degraded_reason);
    out->safe_response_guidance =
        behave_conv_guidance_text(BEHAVE_GUIDE_DEGRADED);
    out->review_status = BEHAVE_REVIEW_NEEDS_REVIEW;
}


const char *
behave_action_name(behave_action_e a)
{
    static const char  *names[] = { "clarify", "simplify", "resolve",
                                    "route", "handoff" };

    return (unsigned) a < sizeof(names) / sizeof(names[0]) ? names[a]
                                                           : "handoff";
}


const char *
behave_review_name(behave_review_e r)
{
    static const char  *names[] = { "ok", "monitor", "needs_review",
                                    "escalated" };

    return (unsigned) r < sizeof(names) / sizeof(names[0]) ? names[r]
                                                           : "needs_review";
}


/* the block of spec 2.4, a keyed member each */
void
behave_conversation_write(behave_jw_t *w, const behave_conv_result_t *r,
    const char *conversation_id, int redacted)
{
    behave_jw_open(w, "conversation");

    behave_jw_string(w, "conversation_id",
                     conversation_id != NULL ? conversation_id : "");
    behave_jw_string(w, "storage_mode", redacted ? "redacted" : "full");
    behave_jw_number(w, "prior_turns", (double) r->prior_turns);

    behave_jw_open(w, "failure_flags");
    behave_jw_bool(w, "false_resolution", r->false_resolution);
    behave_jw_string(w, "false_resolution_reason",
                     r->false_resolution_reason);
    behave_jw_bool(w, "repeat_contact_risk", r->repeat_contact_risk);
    behave_jw_close(w);

    behave_jw_open(w, "derived");
    behave_jw_bool(w, "repetition", r->repetition);
    behave_jw_fixed3(w, "repetition_similarity", r->repetition_similarity);
    behave_jw_bool(w, "escalating", r->escalating);
    behave_jw_number(w, "peak_severity", (double) r->peak_severity);
    behave_jw_close(w);

    behave_jw_open(w, "recommendation");
    behave_jw_string(w, "action", behave_action_name(r->action));
    behave_jw_string(w, "reason", r->reason);
    behave_jw_string(w, "safe_response_guidance",
                     r->safe_response_guidance != NULL
                     ? r->safe_response_guidance : "");
    behave_jw_close(w);

    behave_jw_string(w, "review_status",
                     behave_review_name(r->review_status));
    behave_jw_bool(w, "degraded", r->degraded);

    if (r->degraded) {
        behave_jw_string(w, "degraded_reason", r->degraded_reason);
    }

    behave_jw_close(w);
}


/* a turn of this conversation, as the log stores it and assess reads it */

void
behave_turn_from_annotation(behave_turn_t *t, behave_speaker_e speaker,
    const char *text, size_t len, const behave_annotation_t *a,
    uint64_t ts_ms)
{
    behave_turn_from_annotation_norm(t, speaker, text, len, a, ts_ms, NULL);
}


void
behave_turn_from_annotation_norm(behave_turn_t *t, behave_speaker_e speaker,
    const char *text, size_t len, const behave_annotation_t *a,
    uint64_t ts_ms, const behave_conv_norm_t *norm)
{
    t->speaker = speaker;
    t->text = text;
    t->text_len = len;
    t->valence_score = a->scores.valence;
    t->valence = a->valence;
    t->urgency = a->urgency;
    t->load = a->cognitive_load;
    t->cues = a->cues;
    t->severity = behave_conversation_severity_norm(a, text, len, norm);
    t->ts_ms = ts_ms;
    t->has_meaning = 1;
    memcpy(t->meaning, a->meaning, sizeof(t->meaning));
}


int
behave_turns_from_json(const cJSON *turns, behave_turn_t *tv, int max)
{
    int                   i;
    const char           *text;
    const cJSON          *e, *msg, *spk;
    behave_annotation_t   a;

    i = 0;

    /* one walk of the list: cJSON_GetArrayItem(i) would start over each time */
    for (e = cJSON_IsArray(turns) ? turns->child : NULL;
         e != NULL && i < max;
         e = e->next, i++)
    {
        msg = cJSON_GetObjectItem(e, "message");
        spk = cJSON_GetObjectItem(e, "speaker");
        text = cJSON_IsString(msg) ? msg->valuestring : "";

        behave_annotate(text, strlen(text), &a);
        behave_turn_from_annotation(&tv[i],
            cJSON_IsString(spk) && strcmp(spk->valuestring, "agent") == 0
                ? BEHAVE_SPEAKER_AGENT : BEHAVE_SPEAKER_CUSTOMER,
            text, strlen(text), &a, (uint64_t) i * 1000);
    }

    return i;
}
