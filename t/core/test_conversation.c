/*
 * Conversation findings, each both ways, with hand-set annotation numbers
 * so that the tests do not depend on the annotator; plus severity, the
 * agent-turn echo, the degraded block and the JSON shape.
 */

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tap.h"
#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"
#include "conversation/behave_conv_escalation.h"


#define C  BEHAVE_SPEAKER_CUSTOMER
#define A  BEHAVE_SPEAKER_AGENT


static behave_turn_t         tv[16];
static behave_conv_result_t  r;


static behave_turn_t *
turn(int i, behave_speaker_e who, const char *text, int severity)
{
    behave_turn_t  *t;

    t = &tv[i];
    memset(t, 0, sizeof(*t));
    t->speaker = who;
    t->text = text;
    t->text_len = strlen(text);
    t->valence = BEHAVE_VALENCE_NEUTRAL;
    t->urgency = BEHAVE_URGENCY_LOW;
    t->load = BEHAVE_LOAD_LOW;
    t->severity = severity;
    t->ts_ms = (uint64_t) i;
    return t;
}


static void
annotated(int i, behave_speaker_e who, const char *text)
{
    behave_annotation_t  a;

    behave_annotate(text, strlen(text), &a);
    behave_turn_from_annotation(&tv[i], who, text, strlen(text), &a,
                                (uint64_t) i);
}


static void
assess(size_t current)
{
    behave_conversation_assess(tv, current, &tv[current], &r);
}


static void
test_false_resolution(void)
{
    turn(0, C, "My refund hasn't arrived.", 1);
    turn(1, A, "I've processed the refund, so it's all sorted now.", 0);
    turn(2, C, "I checked with my bank and nothing has come in.", 1);
    assess(2);
    ok(r.false_resolution, "claim then denial: false resolution");
    is_int(r.claim_turn, 1, "claim is agent turn 1");
    ok(strstr(r.false_resolution_reason, "agent turn 1 claimed the refund "
              "was processed") != NULL
       && strstr(r.false_resolution_reason, "customer turn 2") != NULL,
       "reason names both turns: %s", r.false_resolution_reason);
    is_str(behave_action_name(r.action), "handoff",
           "false resolution hands off");
    is_str(behave_review_name(r.review_status), "needs_review",
           "false resolution needs review");
    ok(r.repeat_contact_risk, "false resolution is a repeat-contact risk");

    turn(2, C, "Great, that worked. Thanks!", 0);
    assess(2);
    ok(!r.false_resolution, "claim then confirmation: no false resolution");
    is_str(behave_action_name(r.action), "resolve", "confirmed: resolve");

    turn(2, C, "I'm in, the reset worked fine. The dashboard still shows my "
         "old photo though, how do I change it?", 0);
    assess(2);
    ok(!r.false_resolution, "'still' about something else after a "
       "confirmation: no false resolution");

    turn(1, A, "Could you send me the order number?", 0);
    turn(2, C, "It's still not working.", 1);
    assess(2);
    ok(!r.false_resolution, "denial without a claim: no false resolution");

    turn(1, A, "It's not fixed yet, engineers are on it.", 0);
    assess(2);
    ok(!r.false_resolution, "a negated claim is no claim");

    turn(1, A, "The issue is resolved.", 0);
    turn(2, A, "Anything else?", 0);
    turn(3, C, "It's still not working.", 1);
    assess(3);
    ok(r.false_resolution, "claim two agent turns back still counts");

    turn(3, C, "Thanks. It's still not working though.", 1);
    assess(3);
    ok(r.false_resolution, "politeness does not cancel a denial");

    /* with the annotator's cues, as the module builds turns */
    annotated(0, C, "my line keeps dropping since tuesday");
    annotated(1, A, "I've reset your profile. You should be good to go now.");
    annotated(2, C, "just dropped again two mins after you said that");
    assess(2);
    ok(r.false_resolution, "'good to go' then 'dropped again'");

    annotated(1, A, "Your claim has been approved and the settlement paid.");
    annotated(2, C, "No payment of any sum has been received by me.");
    assess(2);
    ok(r.false_resolution, "a claim then 'no payment has been received'");

    annotated(2, C, "Perfect, no problem at all, thank you!");
    assess(2);
    ok(!r.false_resolution, "'no problem' with thanks confirms");

    annotated(1, A, "Sua remarcação para sábado foi concluída, sem taxa.");
    annotated(2, C, "Continua aparecendo o voo de sexta. Não mudou nada.");
    assess(2);
    ok(r.false_resolution, "Portuguese: 'concluída' then 'não mudou nada'");

    turn(1, A, "Done, the card is unblocked.", 0);
    turn(2, C, "ok", 0);
    turn(3, A, "Great.", 0);
    turn(4, C, "It's still not working.", 1);
    assess(4);
    ok(!r.false_resolution, "claim before the previous customer turn: "
       "not this turn's finding");
    ok(r.repeat_contact_risk == 0, "no earlier false resolution either");

    turn(1, A, "All fixed.", 0);
    turn(2, C, "still broken", 1);
    turn(3, A, "Let me check.", 0);
    turn(4, C, "Any news?", 0);
    assess(4);
    ok(!r.false_resolution && r.repeat_contact_risk,
       "earlier false resolution: repeat-contact risk, no new finding");

    turn(0, C, "Where is my parcel?", 0);
    turn(1, A, "It's sorted.", 0);
    turn(2, C, "It's still not here.", 1);
    tv[1].cues = 0;
    tv[2].cues = 0;
    assess(2);
    ok(r.false_resolution, "'sorted' then 'still not'");

    turn(1, A, "I have escalated it to the team.", 0);
    tv[1].cues = BEHAVE_CUE_RESOLUTION_CLAIM;
    turn(2, C, "Hmm.", 0);
    tv[2].cues = BEHAVE_CUE_NOT_RESOLVED;
    assess(2);
    ok(r.false_resolution, "annotator cues alone are enough");
}


static void
test_repetition(void)
{
    turn(0, C, "How do I get my PAC code? I'm switching networks.", 0);
    turn(1, A, "Switching is easy, your new provider can do most of it.", 0);
    turn(2, C, "Ok, but where do I actually get the PAC code from?", 0);
    assess(2);
    ok(r.repetition, "re-ask in other words: repetition (%.2f)",
       r.repetition_similarity);
    is_int(r.repeated_turn, 0, "repeats turn 0");
    ok(r.repetition_similarity > 0 && r.repetition_similarity <= 1,
       "similarity reported");
    is_str(behave_action_name(r.action), "clarify", "repetition: clarify");
    is_str(behave_review_name(r.review_status), "monitor",
           "repetition: monitor");

    turn(2, C, "How do I get my PAC code? I'm switching networks.", 0);
    assess(2);
    ok(r.repetition, "verbatim repeat: repetition");

    turn(2, C, "I'm lost. Too many steps. Where do I get the PAC code?", 0);
    assess(2);
    ok(r.repetition, "re-ask with overload: repetition");
    is_str(behave_action_name(r.action), "simplify", "overload: simplify");

    turn(0, C, "How much is the 20GB SIM-only plan?", 0);
    turn(1, A, "It is 12 pounds a month.", 0);
    turn(2, C, "Thanks. And how much is the 100GB plan?", 0);
    assess(2);
    ok(!r.repetition, "same shape, other plan, after thanks: no repetition");
    ok(r.repetition_similarity > 0.3, "similarity still reported (%.2f)",
       r.repetition_similarity);
    is_str(behave_action_name(r.action), "resolve", "new clear ask: resolve");

    turn(0, C, "When will order #1234 arrive?", 0);
    turn(1, A, "Today by 6pm.", 0);
    turn(2, C, "When will order #1240 arrive?", 0);
    assess(2);
    ok(!r.repetition, "another order number: no repetition");

    turn(0, C, "Are my 3 knives gone after the update or what?", 0);
    turn(1, A, "Try logging out and back in.", 0);
    turn(2, C, "Did that 5 times. Are my knives gone after the update or "
         "what?", 0);
    assess(2);
    ok(r.repetition, "amounts (3, 5) are no order numbers: repetition");

    annotated(0, C, "wheres my parcel, when does it get here");
    annotated(1, A, "Order 5521907 was dispatched on Friday with DPD.");
    annotated(2, C, "ok but when does it actually get here");
    assess(2);
    ok(r.repetition, "'ok but when...' without '?' asks again");

    turn(0, C, "How do I reset my password?", 0);
    turn(1, A, "Use the link on the login page.", 0);
    turn(2, C, "What time do you open on Sunday?", 0);
    assess(2);
    ok(!r.repetition, "unrelated question: no repetition");

    turn(0, A, "Hi, how can I help?", 0);
    turn(1, C, "Is physio covered?", 0);
    assess(1);
    ok(!r.repetition, "first customer turn: no repetition");
    is_int(r.prior_turns, 1, "prior_turns counts the agent greeting");
}


static void
test_escalation(void)
{
    turn(0, C, "My sofa has not arrived.", 0);
    turn(1, A, "It is on its way.", 0);
    turn(2, C, "Still nothing. I took the day off.", 1);
    turn(3, A, "Sorry.", 0);
    turn(4, C, "This is not good enough.", 2);
    turn(5, A, "Deliveries can run late.", 0);
    turn(6, C, "ELEVEN HOURS!! Get me a manager NOW.", 3);
    assess(6);
    ok(r.escalating, "0,1,2,3: escalating");
    is_int(r.peak_severity, 3, "peak severity 3");
    is_str(behave_action_name(r.action), "handoff", "escalating: handoff");
    is_str(behave_review_name(r.review_status), "escalated",
           "escalating: escalated");

    tv[2].severity = 0;
    tv[4].severity = 0;
    assess(6);
    ok(!r.escalating, "calm then one outburst: one bad turn, not a trend");

    tv[2].severity = 1;
    tv[4].severity = 1;
    tv[6].severity = 1;
    turn(6, C, "I'd still like an update please.", 1);
    assess(6);
    ok(!r.escalating, "negative but steady: not escalating");
    is_int(r.peak_severity, 1, "peak severity 1");

    turn(2, C, "Hello?", 3);
    turn(3, A, "Yes?", 0);
    turn(4, C, "Thanks, all good now.", 0);
    assess(4);
    ok(!r.escalating, "calming down: not escalating");
    is_int(r.peak_severity, 3, "peak keeps the earlier high");

    turn(0, C, "Power is off.", 0);
    turn(1, A, "Fault in your area.", 0);
    turn(2, C, "ANGRY!!", 3);
    assess(2);
    ok(!r.escalating, "two customer turns are not a trend yet");

    /* a new peak of a distress already there */
    turn(0, C, "The app logs me out.", 2);
    turn(1, C, "Again logged out.", 2);
    turn(2, C, "Third time today, this is useless.", 3);
    assess(2);
    ok(r.escalating, "severity 2, 2, 3: a new peak is escalating");

    turn(1, C, "Again logged out, I'm furious.", 4);
    assess(2);
    ok(!r.escalating, "severity 2, 4, 3: below the peak is not");

    /* a slide in exact 0.1 steps, as stored turns carry it (one level),
     * ending below zero */
    turn(0, C, "The app logs me out.", 3)->valence_score = 0.2;
    turn(1, C, "Again logged out.", 3)->valence_score = 0.1;
    turn(2, C, "Third time today, this is useless.", 3)->valence_score =
        -0.2;
    assess(2);
    ok(r.escalating, "valence 0.2, 0.1, -0.2 at severity 3: a slide");

    tv[1].valence_score = 0.101;
    assess(2);
    ok(!r.escalating, "a 0.099 step is no slide");

    /* the same slide ending at a neutral turn is no complaint */
    tv[0].valence_score = 0.5;
    tv[1].valence_score = 0.4;
    tv[2].valence_score = 0.0;
    assess(2);
    ok(!r.escalating, "valence 0.5, 0.4, 0.0: a slide to neutral is not");
}


static void
test_actions(void)
{
    turn(0, C, "Hello.", 0);
    turn(1, A, "Hi.", 0);

    turn(2, C, "He can't breathe, send someone now.", 4);
    tv[2].urgency = BEHAVE_URGENCY_CRITICAL;
    assess(2);
    is_str(behave_action_name(r.action), "handoff", "critical: handoff");
    is_str(behave_review_name(r.review_status), "escalated",
           "critical: escalated");
    is_int(r.peak_severity, 4, "critical: peak 4");

    turn(2, C, "Who do I talk to?", 0);
    tv[2].cues = BEHAVE_CUE_CRISIS;
    assess(2);
    is_str(behave_action_name(r.action), "handoff", "crisis cue: handoff");

    turn(2, C, "I'd like to make a formal complaint. Who handles that?", 1);
    assess(2);
    is_str(behave_action_name(r.action), "route", "complaint: route");
    ok(strstr(r.reason, "complaints") != NULL, "reason names the team");

    /* the annotator's topic cue (a prescription, a hospital) names no
     * team: a clear ask is answered */
    turn(2, C, "Can you look at this for me?", 0);
    tv[2].cues = BEHAVE_CUE_SPECIALIST;
    assess(2);
    is_str(behave_action_name(r.action), "resolve",
           "specialist topic cue alone: resolve");

    turn(2, C, "I need this today.", 3);
    tv[2].urgency = BEHAVE_URGENCY_HIGH;
    assess(2);
    is_str(behave_action_name(r.action), "route", "high urgency: route");

    turn(2, C, "So which form and which page and which date?", 0);
    tv[2].load = BEHAVE_LOAD_OVERLOAD;
    assess(2);
    is_str(behave_action_name(r.action), "simplify", "overload: simplify");

    turn(2, C, "Sorry, I don't understand what that means.", 0);
    assess(2);
    is_str(behave_action_name(r.action), "clarify", "confusion: clarify");

    turn(2, C, "Hard to say. It's sort of there but not, you know.", 0);
    assess(2);
    is_str(behave_action_name(r.action), "clarify", "vague ask: clarify");

    turn(2, C, "Can I change the delivery address to my office?", 0);
    assess(2);
    is_str(behave_action_name(r.action), "resolve", "clear ask: resolve");
    is_str(behave_review_name(r.review_status), "ok", "clear ask: ok");
    ok(r.safe_response_guidance != NULL && r.safe_response_guidance[0],
       "guidance present");
}


static void
test_agent_turn(void)
{
    turn(0, C, "My refund has not arrived.", 1);
    turn(1, A, "I've processed the refund.", 0);
    turn(2, C, "Nothing has come in.", 1);
    turn(3, A, "Let me look again.", 0);
    assess(3);
    ok(!r.false_resolution, "agent turn: never a false resolution");
    ok(!r.repetition, "agent turn: never a repetition");
    is_int(r.prior_turns, 3, "agent turn: prior_turns is n");
    is_str(behave_action_name(r.action), "handoff",
           "agent turn echoes the open false resolution's handoff");
    ok(r.repeat_contact_risk, "agent turn echoes the repeat-contact risk");

    turn(0, A, "Hello, how can I help?", 0);
    assess(0);
    is_str(behave_action_name(r.action), "resolve",
           "no customer turn yet: resolve");
    is_str(behave_review_name(r.review_status), "ok",
           "no customer turn yet: ok");
}


static void
test_severity(void)
{
    behave_annotation_t  a;
    const char          *s;

    memset(&a, 0, sizeof(a));
    a.valence = BEHAVE_VALENCE_NEUTRAL;
    a.urgency = BEHAVE_URGENCY_LOW;

    s = "Can I change my address?";
    is_int(behave_conversation_severity(&a, s, strlen(s)), 0, "neutral: 0");

    s = "It's still not working.";
    is_int(behave_conversation_severity(&a, s, strlen(s)), 1,
           "says it persists: 1");

    s = "How do I add him??";
    is_int(behave_conversation_severity(&a, s, strlen(s)), 2,
           "double question mark: 2");

    s = "The meeting is TOMORROW and you did nothing??";
    is_int(behave_conversation_severity(&a, s, strlen(s)), 3,
           "shouting and double question mark: 3");

    s = "The SAML and SCIM settings?";
    is_int(behave_conversation_severity(&a, s, strlen(s)), 0,
           "acronyms are not shouting");

    a.valence = BEHAVE_VALENCE_NEGATIVE;
    s = "That's a shame.";
    is_int(behave_conversation_severity(&a, s, strlen(s)), 1,
           "negative: 1");

    a.urgency = BEHAVE_URGENCY_MEDIUM;
    is_int(behave_conversation_severity(&a, s, strlen(s)), 2, "medium: 2");

    a.urgency = BEHAVE_URGENCY_HIGH;
    is_int(behave_conversation_severity(&a, s, strlen(s)), 3, "high: 3");

    a.urgency = BEHAVE_URGENCY_LOW;
    a.cues = BEHAVE_CUE_CRISIS;
    is_int(behave_conversation_severity(&a, s, strlen(s)), 4, "crisis: 4");

    a.cues = 0;
    a.urgency = BEHAVE_URGENCY_CRITICAL;
    is_int(behave_conversation_severity(&a, NULL, 0), 4, "critical: 4");
}


/* the block as the writer writes it, parsed back */
static cJSON *
block_json(const char *id, int redacted)
{
    char         *s;
    cJSON        *o, *b;
    size_t        len;
    behave_jw_t   w;

    if (!behave_jw_init(&w, 64)) {
        return NULL;
    }

    behave_jw_open(&w, NULL);
    behave_conversation_write(&w, &r, id, redacted);
    behave_jw_close(&w);

    s = behave_jw_finish(&w, &len);
    o = s != NULL ? cJSON_Parse(s) : NULL;
    free(s);

    b = cJSON_DetachItemFromObject(o, "conversation");
    cJSON_Delete(o);

    return b;
}


static void
test_degraded_and_json(void)
{
    cJSON  *o, *x;
    char   *s;

    behave_conversation_degraded("redis unavailable", &r);
    ok(r.degraded, "degraded flag");
    is_str(behave_action_name(r.action), "handoff", "degraded: handoff");
    is_str(behave_review_name(r.review_status), "needs_review",
           "degraded: needs_review");
    ok(!r.false_resolution && r.action != BEHAVE_ACTION_RESOLVE,
       "degraded never claims resolution");
    ok(strstr(r.reason, "redis unavailable") != NULL, "reason kept");

    o = block_json("conv-1", 1);
    ok(o != NULL, "json built");
    is_str(cJSON_GetObjectItem(o, "storage_mode")->valuestring, "redacted",
           "storage_mode redacted");
    ok(cJSON_IsTrue(cJSON_GetObjectItem(o, "degraded")), "degraded true");
    is_str(cJSON_GetObjectItem(o, "degraded_reason")->valuestring,
           "redis unavailable", "degraded_reason");
    cJSON_Delete(o);

    behave_conversation_degraded(NULL, &r);
    is_str(r.degraded_reason, "context unavailable", "default reason");

    turn(0, C, "My refund has not arrived.", 1);
    turn(1, A, "I've processed the refund.", 0);
    turn(2, C, "Nothing has come in.", 1);
    assess(2);

    o = block_json("conv-2", 0);
    s = cJSON_PrintUnformatted(o);
    ok(s != NULL, "json printed: %s", s ? s : "");
    cJSON_free(s);

    is_str(cJSON_GetObjectItem(o, "conversation_id")->valuestring, "conv-2",
           "conversation_id");
    is_str(cJSON_GetObjectItem(o, "storage_mode")->valuestring, "full",
           "storage_mode full");
    is_int(cJSON_GetObjectItem(o, "prior_turns")->valueint, 2, "prior_turns");

    x = cJSON_GetObjectItem(o, "failure_flags");
    ok(cJSON_IsTrue(cJSON_GetObjectItem(x, "false_resolution")),
       "failure_flags.false_resolution");
    ok(cJSON_IsString(cJSON_GetObjectItem(x, "false_resolution_reason")),
       "failure_flags.false_resolution_reason");
    ok(cJSON_IsBool(cJSON_GetObjectItem(x, "repeat_contact_risk")),
       "failure_flags.repeat_contact_risk");

    x = cJSON_GetObjectItem(o, "derived");
    ok(cJSON_IsBool(cJSON_GetObjectItem(x, "repetition"))
       && cJSON_IsNumber(cJSON_GetObjectItem(x, "repetition_similarity"))
       && cJSON_IsBool(cJSON_GetObjectItem(x, "escalating"))
       && cJSON_IsNumber(cJSON_GetObjectItem(x, "peak_severity")),
       "derived fields and types");

    x = cJSON_GetObjectItem(o, "recommendation");
    is_str(cJSON_GetObjectItem(x, "action")->valuestring, "handoff",
           "recommendation.action");
    ok(cJSON_IsString(cJSON_GetObjectItem(x, "reason"))
       && cJSON_IsString(cJSON_GetObjectItem(x, "safe_response_guidance")),
       "recommendation reason and guidance");

    is_str(cJSON_GetObjectItem(o, "review_status")->valuestring,
           "needs_review", "review_status");
    ok(cJSON_IsFalse(cJSON_GetObjectItem(o, "degraded")), "degraded false");
    ok(cJSON_GetObjectItem(o, "degraded_reason") == NULL,
       "no degraded_reason when not degraded");
    is_int(cJSON_GetArraySize(o), 8, "exactly eight keys");

    cJSON_Delete(o);
}


int
main(void)
{
    test_false_resolution();
    test_repetition();
    test_escalation();
    test_actions();
    test_agent_turn();
    test_severity();
    test_degraded_and_json();

    return tap_done();
}
