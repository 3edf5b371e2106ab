/*
 * POST /api/v1/analyze-behavior: shapes and ranges, the directions the
 * scores must move (more pauses, more hesitation; rage clicks, more
 * friction), attention spans, the rule table, the merge with the stored
 * history and the history to store, and invalid input.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "gwtest.h"
#include "base/behave_json.h"


/* builds {"session_id":"s-1","interaction_history":[...]} */
static cJSON *
session(void)
{
    cJSON  *req;

    req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "session_id", "s-1");
    cJSON_AddArrayToObject(req, "interaction_history");
    return req;
}


static void
ev(cJSON *req, const char *type, double t, const char *target,
    double duration)
{
    cJSON  *e;

    e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "type", type);
    cJSON_AddNumberToObject(e, "t", t);

    if (target != NULL) {
        cJSON_AddStringToObject(e, "target", target);
    }

    if (duration >= 0) {
        cJSON_AddNumberToObject(e, "duration", duration);
    }

    cJSON_AddItemToArray(cJSON_GetObjectItem(req, "interaction_history"), e);
}


static void
scroll(cJSON *req, double t, double delta)
{
    cJSON  *e;

    e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "type", "scroll");
    cJSON_AddNumberToObject(e, "t", t);
    cJSON_AddNumberToObject(e, "delta", delta);
    cJSON_AddItemToArray(cJSON_GetObjectItem(req, "interaction_history"), e);
}


/* runs and frees req; the response is the caller's */
static cJSON *
analyze(cJSON *req, const cJSON *prior, behave_err_e want, const char *name)
{
    cJSON           *resp;
    behave_err_e     rc;
    behave_error_t   err;

    memset(&err, 0, sizeof(err));
    rc = behave_gw_behavior(req, prior, 1718000000000LL, &resp, &err);

    gwtest_outcome(rc, want, resp, &err, BEHAVE_OK, name);

    cJSON_Delete(req);
    return resp;
}


static const cJSON *
suggestion(const cJSON *r, const char *id)
{
    const cJSON  *s, *sid;

    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r,
                                                   "adaptation_suggestions"))
    {
        sid = cJSON_GetObjectItemCaseSensitive(s, "id");

        if (cJSON_IsString(sid) && strcmp(sid->valuestring, id) == 0) {
            return s;
        }
    }

    return NULL;
}


/* typing a form for 5 s, with n pauses of 4 s, then submit */
static double
hesitation_with(int pauses)
{
    int      i;
    double   t, h;
    cJSON   *req, *r;

    req = session();
    t = 0;

    for (i = 0; i < 25; i++) {
        ev(req, "keystroke", t, "email", -1);
        t += 200;

        if (i % 5 == 4 && pauses > 0) {
            ev(req, "pause", t, NULL, 4000);
            t += 4000;
            pauses--;
        }
    }

    ev(req, "submit", t, "form", -1);
    r = analyze(req, NULL, BEHAVE_OK, "pauses");
    h = gw_num(r, "hesitation_score", NULL);
    cJSON_Delete(r);
    return h;
}


static void
hesitation(void)
{
    int      k;
    double   prev, h, hovered[2];
    cJSON   *req, *r;

    static const struct {
        const char  *click;
        double       dwell;
        const char  *name;
    } hovers[] = {
        { "buy", 0, "hover then click" },
        { "cancel", 5, "hover, click elsewhere" },
    };

    prev = hesitation_with(0);
    ok(prev < 0.1, "no pauses: low hesitation (%g)", prev);

    for (k = 1; k <= 5; k++) {
        h = hesitation_with(k);
        ok(h > prev, "%d pauses: hesitation %g > %g", k, h, prev);
        prev = h;
    }

    ok(prev <= 1.0, "hesitation stays <= 1");

    /* a silent gap is a pause too, and counts double before a submit */
    req = session();
    ev(req, "keystroke", 0, "q", -1);
    ev(req, "keystroke", 200, "q", -1);
    ev(req, "submit", 6200, "form", -1);
    r = analyze(req, NULL, BEHAVE_OK, "gap before submit");
    is_int(gw_num(r, "signals", "pauses_before_commit"), 1,
           "gap before submit: a pause before commit");
    is_near(gw_num(r, "signals", "pause_seconds"), 6.0, 0.001, "6 s pause");
    cJSON_Delete(r);

    /* hovering 5 s on "buy" without clicking it: clicked, then not */
    for (k = 0; k < 2; k++) {
        req = session();
        ev(req, "hover", 0, "buy", 5000);
        ev(req, "click", 5500, hovers[k].click, -1);
        r = analyze(req, NULL, BEHAVE_OK, hovers[k].name);
        hovered[k] = gw_num(r, "hesitation_score", NULL);
        is_near(gw_num(r, "signals", "hover_without_click_seconds"),
                hovers[k].dwell, 0.001, "%s: %.0f s of dwell without click",
                hovers[k].name, hovers[k].dwell);
        is_int(suggestion(r, "clarify_call_to_action") != NULL, k,
               "%s: the hover rule %s", hovers[k].name,
               k ? "fires" : "does not fire");
        cJSON_Delete(r);
    }

    ok(hovered[1] > hovered[0], "unclicked hover raises hesitation");

    /* backspaces */
    req = session();

    for (k = 0; k < 20; k++) {
        ev(req, k % 2 ? "backspace" : "keystroke", k * 150, "name", -1);
    }

    r = analyze(req, NULL, BEHAVE_OK, "backspaces");
    is_near(gw_num(r, "signals", "backspace_ratio"), 0.5, 0.001,
            "backspace ratio 0.5");
    ok(gw_num(r, "hesitation_score", NULL) > 0.5, "many backspaces hesitate");
    ok(suggestion(r, "input_assistance") != NULL, "backspace rule fires");
    cJSON_Delete(r);
}


static double
friction_with(int bursts, int errors, const char *name)
{
    int      i, j;
    double   f;
    cJSON   *req, *r;

    req = session();

    for (i = 0; i < bursts; i++) {
        for (j = 0; j < 4; j++) {
            ev(req, "click", i * 5000 + j * 200, "pay", -1);
        }
    }

    for (i = 0; i < errors; i++) {
        ev(req, "error", 60000 + i * 1000, "card", -1);
    }

    ev(req, "keystroke", 90000, NULL, -1);

    r = analyze(req, NULL, BEHAVE_OK, name);
    is_int(gw_num(r, "signals", "rage_click_bursts"), bursts,
           "%s: %d bursts counted", name, bursts);
    f = gw_num(r, "cognitive_friction", NULL);

    if (bursts > 0) {
        ok(suggestion(r, "responsive_feedback") != NULL
           && strstr(cJSON_GetObjectItem(suggestion(r,
                         "responsive_feedback"), "reason")->valuestring,
                     "pay") != NULL,
           "%s: rage rule fires and names the target", name);
    }

    cJSON_Delete(r);
    return f;
}


static void
friction(void)
{
    int      i;
    double   f0, f1, f2, e2, slow;
    cJSON   *req, *r;

    f0 = friction_with(0, 0, "calm");
    f1 = friction_with(1, 0, "one burst");
    f2 = friction_with(2, 0, "two bursts");
    e2 = friction_with(2, 3, "two bursts and errors");

    is_near(f0, 0.0, 0.001, "no friction without errors or rage");
    ok(f1 > f0 && f2 > f1 && e2 > f2, "friction grows: %g < %g < %g < %g",
       f0, f1, f2, e2);

    /* 3 clicks on one target over 3 s, or on 3 targets: no rage */
    req = session();
    ev(req, "click", 0, "pay", -1);
    ev(req, "click", 1500, "pay", -1);
    ev(req, "click", 3000, "pay", -1);
    ev(req, "click", 3100, "a", -1);
    ev(req, "click", 3200, "b", -1);
    ev(req, "click", 3300, "c", -1);
    r = analyze(req, NULL, BEHAVE_OK, "slow clicks");
    is_int(gw_num(r, "signals", "rage_click_bursts"), 0,
           "slow or scattered clicks are not rage");
    slow = gw_num(r, "cognitive_friction", NULL);
    ok(slow < f1, "and add no friction");
    cJSON_Delete(r);

    /* back-and-forth scrolling */
    req = session();

    for (i = 0; i < 8; i++) {
        scroll(req, i * 500, i % 2 ? -300 : 300);
    }

    r = analyze(req, NULL, BEHAVE_OK, "scroll back and forth");
    is_int(gw_num(r, "signals", "scroll_reversals"), 7, "7 reversals");
    ok(gw_num(r, "cognitive_friction", NULL) > 0.4, "reversals add friction");
    ok(suggestion(r, "wayfinding") != NULL, "wayfinding rule fires");
    cJSON_Delete(r);
}


static void
attention(void)
{
    int      i;
    cJSON   *req, *r;

    /* focused 0..9 s, away 9..25 s (16 s), back 25..32.5 s */
    req = session();
    ev(req, "focus", 0, NULL, -1);

    for (i = 1; i <= 5; i++) {
        ev(req, "keystroke", i * 1500, NULL, -1);
    }

    ev(req, "blur", 9000, NULL, -1);
    ev(req, "focus", 25000, NULL, -1);

    for (i = 1; i <= 5; i++) {
        ev(req, "click", 25000 + i * 1500, "x", -1);
    }

    r = analyze(req, NULL, BEHAVE_OK, "attention");
    is_near(gw_num(r, "attention_span", "sustained_focus_seconds"), 9, 0.001,
            "sustained focus 9 s");
    is_near(gw_num(r, "attention_span", "focus_ratio"), 16.5 / 32.5, 0.001,
            "focus ratio 16.5 / 32.5");
    is_int(gw_num(r, "attention_span", "blur_count"), 1, "one blur");
    is_near(gw_num(r, "signals", "pause_seconds"), 0, 0.001,
            "time away is not a pause");
    cJSON_Delete(r);

    /* a long distracted session: the shorten_task rule */
    req = session();

    for (i = 0; i < 6; i++) {
        ev(req, "focus", i * 20000, NULL, -1);
        ev(req, "keystroke", i * 20000 + 5000, NULL, -1);
        ev(req, "blur", i * 20000 + 8000, NULL, -1);
    }

    r = analyze(req, NULL, BEHAVE_OK, "distracted");
    ok(gw_num(r, "attention_span", "focus_ratio") < 0.6, "distracted: ratio");
    ok(suggestion(r, "shorten_task") != NULL, "shorten_task fires");
    ok(suggestion(r, "responsive_feedback") == NULL, "no rage rule");
    cJSON_Delete(r);
}


static void
shape_and_history(void)
{
    cJSON         *req, *r, *prior, *hist, *copy;
    const cJSON   *e;
    double        last;

    req = session();
    ev(req, "keystroke", 1000, "q", -1);
    ev(req, "click", 1500, "go", -1);
    cJSON_AddItemToObject(req, "user_data",
                          cJSON_Parse("{\"plan\":\"pro\"}"));
    cJSON_AddNumberToObject(req, "timestamp", 99);
    r = analyze(req, NULL, BEHAVE_OK, "shape");
    is_str(cJSON_GetObjectItem(r, "session_id")->valuestring, "s-1",
           "session_id echoed");
    is_int(gw_num(r, "events_analyzed", NULL), 2, "2 events");
    is_int(gw_num(r, "timestamp", NULL), 99, "timestamp echoed");
    ok(gw_num(r, "hesitation_score", NULL) >= 0
       && gw_num(r, "cognitive_friction", NULL) >= 0, "scores present");
    ok(cJSON_IsArray(cJSON_GetObjectItem(r, "adaptation_suggestions")),
       "suggestions an array");
    is_int(cJSON_GetArraySize(cJSON_GetObjectItem(r,
           "adaptation_suggestions")), 0, "a calm session: no suggestion");
    is_str(cJSON_GetObjectItem(r, "model_id")->valuestring,
           "behave-behavior/1.0.0", "model_id");
    cJSON_Delete(r);

    /* stored history: merged, duplicates dropped, bad entries skipped */
    prior = cJSON_Parse("[{\"type\":\"click\",\"t\":100,\"target\":\"pay\"},"
                        "{\"type\":\"click\",\"t\":300,\"target\":\"pay\"},"
                        "{\"type\":\"bogus\",\"t\":1},42]");
    req = session();
    ev(req, "click", 300, "pay", -1);
    ev(req, "click", 500, "pay", -1);
    ev(req, "keystroke", 2000, NULL, -1);
    copy = cJSON_Duplicate(req, 1);
    r = analyze(req, prior, BEHAVE_OK, "with prior");
    is_int(gw_num(r, "events_analyzed", NULL), 4, "merged: 2 stored + 2 new, "
           "one duplicate dropped");
    is_int(gw_num(r, "events_prior", NULL), 2, "2 usable stored events");
    is_int(gw_num(r, "events_new", NULL), 2, "2 new events");
    is_int(gw_num(r, "signals", "rage_click_bursts"), 1,
           "a burst across the stored and new events");
    cJSON_Delete(r);

    hist = behave_gw_behavior_history(copy, prior, 3);
    is_int(cJSON_GetArraySize(hist), 3, "history capped at max_events");
    last = -1;
    cJSON_ArrayForEach(e, hist) {
        ok(cJSON_GetObjectItem(e, "t")->valuedouble >= last,
           "history sorted by t");
        last = cJSON_GetObjectItem(e, "t")->valuedouble;
    }
    is_str(cJSON_GetObjectItem(cJSON_GetArrayItem(hist, 2), "type")
           ->valuestring, "keystroke", "the newest is kept");
    ok(cJSON_GetObjectItem(cJSON_GetArrayItem(hist, 2), "target") == NULL,
       "absent fields stay absent");
    cJSON_Delete(hist);
    cJSON_Delete(copy);
    cJSON_Delete(prior);

    /* the same request twice with its own history as prior: no growth */
    req = session();
    ev(req, "click", 10, "a", -1);
    prior = behave_gw_behavior_history(req, NULL, 100);
    r = analyze(req, prior, BEHAVE_OK, "retry");
    is_int(gw_num(r, "events_analyzed", NULL), 1, "a retry counts once");
    is_int(gw_num(r, "events_new", NULL), 0, "nothing new");
    cJSON_Delete(r);
    cJSON_Delete(prior);
}


static void
invalid(void)
{
    cJSON  *req;

    analyze(cJSON_Parse("{\"interaction_history\":[]}"), NULL,
            BEHAVE_ERR_MISSING_FIELD, "no session_id");
    analyze(cJSON_Parse("{\"session_id\":\"a b\",\"interaction_history\":[]}"),
            NULL, BEHAVE_ERR_INVALID_FIELD, "session_id with a space");
    analyze(cJSON_Parse("{\"session_id\":5,\"interaction_history\":[]}"),
            NULL, BEHAVE_ERR_INVALID_FIELD, "session_id a number");
    analyze(cJSON_Parse("{\"session_id\":\"s\"}"), NULL,
            BEHAVE_ERR_MISSING_FIELD, "no history");
    analyze(cJSON_Parse("{\"session_id\":\"s\",\"interaction_history\":{}}"),
            NULL, BEHAVE_ERR_INVALID_FIELD, "history an object");
    analyze(cJSON_Parse("{\"session_id\":\"s\",\"user_data\":[],"
                        "\"interaction_history\":[]}"), NULL,
            BEHAVE_ERR_INVALID_FIELD, "user_data an array");
    analyze(cJSON_Parse("{\"session_id\":\"s\",\"interaction_history\":["
                        "{\"type\":\"click\",\"t\":1},{\"type\":\"tap\","
                        "\"t\":2}]}"), NULL, BEHAVE_ERR_INVALID_FIELD,
            "unknown event type");
    analyze(cJSON_Parse("{\"session_id\":\"s\",\"interaction_history\":["
                        "{\"type\":\"click\",\"t\":-1}]}"), NULL,
            BEHAVE_ERR_INVALID_FIELD, "negative t");
    analyze(cJSON_Parse("{\"session_id\":\"s\",\"interaction_history\":["
                        "{\"type\":\"click\"}]}"), NULL,
            BEHAVE_ERR_INVALID_FIELD, "no t");
    analyze(cJSON_Parse("{\"session_id\":\"s\",\"interaction_history\":["
                        "{\"type\":\"hover\",\"t\":1,\"duration\":\"5s\"}]}"),
            NULL, BEHAVE_ERR_INVALID_FIELD, "duration a string");
    analyze(cJSON_Parse("{\"session_id\":\"s\",\"interaction_history\":[7]}"),
            NULL, BEHAVE_ERR_INVALID_FIELD, "event a number");

    req = cJSON_Parse("{\"session_id\":\"s\",\"interaction_history\":[]}");
    cJSON_Delete(analyze(req, NULL, BEHAVE_OK, "empty history"));
}


/*
 * The glue sends behave_gw_behavior_session_text(): the same text as the
 * tree of behave_gw_behavior_session() printed, "history" added last,
 * over calls that carry a state (its batches, a rewrite) and a damaged one
 */
static void
text_answer(void)
{
    int                   i, k, same;
    char                 *batch, *text, *printed, *state, *grown;
    size_t                blen, tlen, slen;
    cJSON                *req, *resp;
    behave_err_e          rc1, rc2;
    behave_error_t        err;
    behave_gw_rewrite_t   rw1, rw2;
    static const char    *types[] = { "keystroke", "backspace", "pause",
                                      "click", "hover", "scroll", "focus",
                                      "blur", "submit", "error" };

    state = behave_gw_behavior_new_state(5, &slen);
    same = 0;

    for (k = 0; k < 12; k++) {
        req = session();

        for (i = 0; i < 9; i++) {
            ev(req, types[(i + k) % 10], 1000.0 * k + 97.0 * i + 0.5,
               i % 3 ? "b\"x" : NULL, i % 4 == 2 ? 2500.5 : -1);
        }

        if (behave_gw_behavior_batch(req, &batch, &blen, &err)
            != BEHAVE_OK)
        {
            break;
        }

        rc1 = behave_gw_behavior_session(req, 1, state, slen, batch, blen,
                                         5, &resp, &rw1, &err);
        rc2 = behave_gw_behavior_session_text(req, 1, state, slen, batch,
                                              blen, 5, "session", &text,
                                              &tlen, &rw2, &err);

        if (rc1 == BEHAVE_OK && rc2 == BEHAVE_OK) {
            cJSON_AddStringToObject(resp, "history",
                                    rw2.reset ? "request_only" : "session");
            printed = behave_json_print(resp, NULL);
            same += printed != NULL && strlen(text) == tlen
                    && strcmp(printed, text) == 0
                    && rw1.reset == rw2.reset
                    && (rw1.blob == NULL) == (rw2.blob == NULL);

            if (k == 11 && printed != NULL && strcmp(printed, text) != 0) {
                printf("#   tree: %s\n#   text: %s\n", printed, text);
            }

            free(printed);
            free(text);
        }

        /* the state the script stores: this call's batch appended */
        grown = malloc(slen + blen);
        memcpy(grown, state, slen);
        memcpy(grown + slen, batch, blen);
        free(state);
        state = grown;
        slen += blen;

        /* every fourth call's state is damaged: answered request_only */
        if (k % 4 == 3) {
            state[0] = 'X';
        } else if (k % 4 == 0 && k > 0) {
            state[0] = 'B';
        }

        free(rw1.blob);
        free(rw2.blob);
        free(rw1.hot);
        free(rw2.hot);
        cJSON_Delete(resp);
        cJSON_Delete(req);
        free(batch);
    }

    free(state);
    is_int(same, 12, "text answer: the tree's, printed, in 12 calls");
}


/* a rule's reason, word for word (the rule table's pieces) */
static void
reason_is(const cJSON *r, const char *id, const char *want)
{
    const cJSON  *s;

    s = suggestion(r, id);
    is_str(s ? cJSON_GetStringValue(cJSON_GetObjectItem(s, "reason")) : NULL,
           want, "reason of %s", id);
}


/* a session that makes every rule fire, hesitant and lost */
static void
reasons(void)
{
    int     i;
    cJSON  *req, *r;

    req = session();
    ev(req, "blur", 0, NULL, -1);
    ev(req, "focus", 40000, NULL, -1);

    for (i = 0; i < 10; i++) {
        ev(req, "keystroke", 41000 + i * 100, NULL, -1);
    }

    for (i = 0; i < 5; i++) {
        ev(req, "backspace", 42000 + i * 100, NULL, -1);
        ev(req, "pause", 43000 + i * 4000, NULL, 3500);
    }

    ev(req, "hover", 64000, "buy", 5000);

    for (i = 0; i < 4; i++) {
        ev(req, "click", 70000 + i * 200, "pay", -1);
        ev(req, "error", 71000 + i * 500, "card", -1);
        scroll(req, 74000 + i * 300, i % 2 ? -120 : 120);
    }

    ev(req, "pause", 76000, NULL, 9000);
    ev(req, "submit", 86000, "send", -1);
    ev(req, "blur", 87000, NULL, -1);
    ev(req, "keystroke", 130000, NULL, -1);

    r = analyze(req, NULL, BEHAVE_OK, "every rule");
    is_int(cJSON_GetArraySize(cJSON_GetObjectItem(r,
                                                  "adaptation_suggestions")),
           8, "every rule fires");

    reason_is(r, "reduce_choice",
              "hesitation 0.93 >= 0.6 (7 long pauses, 2 right before a "
              "commit)");
    reason_is(r, "clarify_call_to_action",
              "5.0 s of hovering without a click (>= 3 s)");
    reason_is(r, "input_assistance",
              "5 of 16 keys were backspaces (ratio 0.31 >= 0.25)");
    reason_is(r, "responsive_feedback",
              "1 rage-click burst (3+ clicks within 1 s) on pay");
    reason_is(r, "error_recovery",
              "4 errors in the session (>= 2)");
    reason_is(r, "wayfinding",
              "3 scroll reversals (>= 3)");
    reason_is(r, "shorten_task",
              "over 130 s: focus ratio 0.36 (< 0.6) or longest focus 47 s "
              "(< 20 s)");
    reason_is(r, "offer_assistance",
              "friction 0.88 (>= 0.7) or hesitation 0.93 (>= 0.8)");

    cJSON_Delete(r);

    /* two bursts on no target: the plural, no " on " */
    req = session();

    for (i = 0; i < 8; i++) {
        ev(req, "click", (i / 4) * 5000 + (i % 4) * 200, NULL, -1);
    }

    r = analyze(req, NULL, BEHAVE_OK, "two bursts");
    reason_is(r, "responsive_feedback",
              "2 rage-click bursts (3+ clicks within 1 s)");
    cJSON_Delete(r);
}


int
main(void)
{
    hesitation();
    reasons();
    friction();
    attention();
    shape_and_history();
    invalid();
    text_answer();

    return tap_done();
}
