/*
 * The call summary of surface C: findings, verdicts, sentiment trend,
 * and the JSON of summaries, endpoint records and deliveries.
 */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"

#include "webhooks/behave_callsum.h"


typedef struct {
    int          speaker;
    const char  *text;
} turn_src_t;


static void
build(const turn_src_t *src, size_t n, behave_turn_t *turns)
{
    size_t               i;
    behave_annotation_t  a;

    for (i = 0; i < n; i++) {
        behave_annotate(src[i].text, strlen(src[i].text), &a);
        behave_turn_from_annotation(&turns[i], (behave_speaker_e)
                                    src[i].speaker, src[i].text,
                                    strlen(src[i].text), &a, 0);
    }
}


/* customer turns with fixed valence scores, for the trend rules */
static void
valences(const double *v, size_t n, behave_turn_t *turns)
{
    size_t  i;

    memset(turns, 0, n * sizeof(behave_turn_t));

    for (i = 0; i < n; i++) {
        turns[i].speaker = BEHAVE_SPEAKER_CUSTOMER;
        turns[i].text = "ok";
        turns[i].text_len = 2;
        turns[i].valence_score = v[i];
        turns[i].valence = v[i] <= -0.25 ? BEHAVE_VALENCE_NEGATIVE
                           : v[i] >= 0.25 ? BEHAVE_VALENCE_POSITIVE
                           : BEHAVE_VALENCE_NEUTRAL;
    }
}


static const turn_src_t  false_res[] = {
    { 1, "Hi, thanks for calling, how can I help?" },
    { 0, "My refund for order 5512 has not arrived." },
    { 1, "I've processed the refund, it's all sorted now." },
    { 0, "I just checked and nothing has come in, the charge is still "
         "there." },
};

static const turn_src_t  happy[] = {
    { 1, "Hi, this is the clinic reception assistant. How can I help?" },
    { 0, "I'd like to move my appointment to Friday." },
    { 1, "Done, you are booked for Friday at 10." },
    { 0, "Great, thank you so much!" },
};


static void
test_findings(void)
{
    behave_turn_t     t[4];
    behave_callsum_t  s;

    behave_callsum_compute(NULL, 0, BEHAVE_VERDICT_UNKNOWN, &s);
    is_int(s.customer_turns, 0, "empty call: no customer turn");
    is_int(s.direction, BEHAVE_TREND_STABLE, "empty call: stable");
    is_int(s.review_status, BEHAVE_REVIEW_OK, "empty call: ok");
    is_int(s.action, BEHAVE_ACTION_RESOLVE, "empty call: resolve");
    ok(!s.verdict_disagrees, "empty call, unknown verdict: no disagreement");

    build(false_res, 4, t);
    behave_callsum_compute(t, 4, BEHAVE_VERDICT_UNKNOWN, &s);
    ok(s.false_resolution, "denied claim: false_resolution");
    is_int(s.false_resolution_turn, 3, "false resolution at turn 3");
    ok(strstr(s.false_resolution_reason, "turn 3") != NULL,
       "reason names the turn");
    is_int(s.action, BEHAVE_ACTION_HANDOFF, "false resolution: handoff");
    ok(s.review_status >= BEHAVE_REVIEW_NEEDS_REVIEW,
       "false resolution: needs_review or worse");
    is_int(s.service_verdict, BEHAVE_VERDICT_FAILURE,
           "false resolution: service says failure");
    is_int(s.customer_turns, 2, "two customer turns");
    is_int(s.agent_turns, 2, "two agent turns");

    behave_callsum_compute(t, 4, BEHAVE_VERDICT_SUCCESS, &s);
    ok(s.verdict_disagrees, "platform success vs service failure: "
       "disagreement");
    is_int(s.review_status, BEHAVE_REVIEW_NEEDS_REVIEW,
           "disagreement: needs_review");

    behave_callsum_compute(t, 4, BEHAVE_VERDICT_FAILURE, &s);
    ok(!s.verdict_disagrees, "both say failure: agreement");

    build(happy, 4, t);
    behave_callsum_compute(t, 4, BEHAVE_VERDICT_SUCCESS, &s);
    ok(!s.false_resolution, "happy call: no false resolution");
    is_int(s.service_verdict, BEHAVE_VERDICT_SUCCESS,
           "happy call: service says success");
    ok(!s.verdict_disagrees, "happy call, platform success: agreement");
    ok(s.review_status < BEHAVE_REVIEW_NEEDS_REVIEW,
       "happy call: ok or monitor (%s)", behave_review_name(s.review_status));
    ok(s.action != BEHAVE_ACTION_HANDOFF, "happy call: no handoff");

    behave_callsum_compute(t, 4, BEHAVE_VERDICT_FAILURE, &s);
    ok(s.verdict_disagrees, "happy call, platform failure: disagreement");
    is_int(s.review_status, BEHAVE_REVIEW_NEEDS_REVIEW,
           "happy call, platform failure: needs_review");
}


static void
test_trend(void)
{
    behave_turn_t     t[8];
    behave_callsum_t  s;

    static const double  up[] = { -0.8, -0.6, -0.2, 0.4, 0.6, 0.8 };
    static const double  down[] = { 0.6, 0.5, 0.2, -0.3, -0.5, -0.7 };
    static const double  swing[] = { 0.8, -0.8, 0.8, -0.8, 0.8, -0.8, 0.8,
                                     -0.8 };
    static const double  flat[] = { 0.1, 0.0, 0.1, 0.05 };
    static const double  tail[] = { 0.5, -0.5, -0.6 };
    static const double  one[] = { -0.9 };

    valences(up, 6, t);
    behave_callsum_compute(t, 6, BEHAVE_VERDICT_UNKNOWN, &s);
    is_str(behave_trend_name(s.direction), "improving", "rising: improving");
    is_near(s.opened_at_valence, -0.7, 0.001, "opened: mean of first 2");
    is_near(s.current_valence, 0.7, 0.001, "current: mean of last 2");
    is_int(s.negative_streak, 0, "rising: no negative streak");

    valences(down, 6, t);
    behave_callsum_compute(t, 6, BEHAVE_VERDICT_UNKNOWN, &s);
    is_str(behave_trend_name(s.direction), "deteriorating",
           "falling: deteriorating");
    is_int(s.negative_streak, 3, "falling: last 3 negative");
    ok(strstr(s.trend_summary, "deteriorated") != NULL,
       "summary says deteriorated: %s", s.trend_summary);
    ok(strstr(s.trend_summary, "last 3 negative") != NULL,
       "summary gives the streak");

    valences(swing, 8, t);
    behave_callsum_compute(t, 8, BEHAVE_VERDICT_UNKNOWN, &s);
    is_str(behave_trend_name(s.direction), "volatile", "swinging: volatile");
    is_int(s.negative_streak, 1, "swinging ends negative: streak 1");

    valences(flat, 4, t);
    behave_callsum_compute(t, 4, BEHAVE_VERDICT_UNKNOWN, &s);
    is_str(behave_trend_name(s.direction), "stable", "flat: stable");

    valences(tail, 3, t);
    behave_callsum_compute(t, 3, BEHAVE_VERDICT_UNKNOWN, &s);
    is_int(s.negative_streak, 2, "negative streak counts from the end");

    valences(one, 1, t);
    behave_callsum_compute(t, 1, BEHAVE_VERDICT_UNKNOWN, &s);
    is_str(behave_trend_name(s.direction), "stable",
           "one customer turn: stable");
    ok(s.opened_at_valence == s.current_valence,
       "one turn opens and ends at the same valence");
    ok(s.current_valence >= -1 && s.current_valence <= 1, "valence in range");
}


/* a processed delivery's meta: delivery dlv_1 of conversation conv_1 */
static void
meta(behave_callsum_meta_t *m, const char *call_id, const char *provider,
    const char *event_type, double latency_ms)
{
    memset(m, 0, sizeof(*m));
    m->status = "processed";
    m->delivery_id = "dlv_1";
    m->conversation_id = "conv_1";
    m->call_id = call_id;
    m->provider = provider;
    m->event_type = event_type;
    m->latency_ms = latency_ms;
}


static void
test_json(void)
{
    char                  *json;
    size_t                 i, len;
    cJSON                 *o, *tr;
    behave_turn_t          t[4];
    behave_callsum_t       s;
    behave_delivery_t      d;
    behave_endpoint_t      e;
    behave_callsum_meta_t  m;

    static const struct {
        const char       *name;
        cJSON_bool      (*is)(const cJSON *item);
    } trend[] = {
        { "direction", cJSON_IsString },
        { "negative_streak", cJSON_IsNumber },
        { "summary", cJSON_IsString },
    };

    build(false_res, 4, t);
    behave_callsum_compute(t, 4, BEHAVE_VERDICT_SUCCESS, &s);

    meta(&m, "conv_1", "elevenlabs", "post_call_transcription", 0.12345);

    json = behave_callsum_json(&s, &m, &len);
    ok(json != NULL && len == strlen(json), "summary JSON printed");
    ok(json != NULL && json[len - 1] == '}', "summary ends with '}'");

    o = cJSON_Parse(json);
    ok(o != NULL, "summary JSON parses");
    is_str(cJSON_GetStringValue(cJSON_GetObjectItem(o, "status")),
           "processed", "status");
    is_str(cJSON_GetStringValue(cJSON_GetObjectItem(o, "review_status")),
           "needs_review", "review_status");
    is_str(cJSON_GetStringValue(cJSON_GetObjectItem(o, "suggested_action")),
           "handoff", "suggested_action");
    is_str(cJSON_GetStringValue(cJSON_GetObjectItem(o, "provider_verdict")),
           "success", "provider_verdict");
    ok(cJSON_IsTrue(cJSON_GetObjectItem(o, "false_resolution")),
       "false_resolution true");
    is_int(cJSON_GetObjectItem(o, "turns_received")->valueint, 4,
           "turns_received");
    is_int(cJSON_GetObjectItem(o, "turns_analysed")->valueint, 4,
           "turns_analysed");
    tr = cJSON_GetObjectItem(o, "sentiment_trend");

    for (i = 0; i < sizeof(trend) / sizeof(trend[0]); i++) {
        ok(trend[i].is(cJSON_GetObjectItem(tr, trend[i].name)),
           "sentiment_trend.%s", trend[i].name);
    }

    ok(cJSON_GetObjectItem(o, "segment") == NULL,
       "no segment unless the meta has one");
    cJSON_Delete(o);
    free(json);

    memset(&d, 0, sizeof(d));
    d.delivery_id = "dlv_2";
    d.received_at_ms = 1767225645123LL;
    d.type = "post_call_transcription";
    d.kind = "transcript";
    d.http_status = 200;

    json = behave_delivery_json(&d, &len);
    ok(json != NULL && json[len - 1] == '}', "delivery prefix ends with '}'");
    ok(json != NULL && strstr(json, "outcome") == NULL,
       "delivery prefix has no outcome");
    ok(json != NULL && strstr(json, "\"2026-01-01T00:00:45.123Z\"") != NULL,
       "received_at in ISO 8601 UTC with ms: %s", json);
    free(json);

    d.outcome = "ignored";
    d.segment = -1;
    json = behave_delivery_json(&d, &len);
    ok(json != NULL && strstr(json, "\"outcome\":\"ignored\"") != NULL
       && strstr(json, "\"segment\":null") != NULL,
       "delivery with outcome and a null segment");
    free(json);

    memset(&e, 0, sizeof(e));
    e.id = "wh_1";
    e.slug = "abc";
    e.receiver_url = "https://x/v1/webhooks/abc";
    e.provider = "retell";
    e.active = 1;
    e.created_at = 1767225600;

    o = behave_endpoint_json(&e);
    json = cJSON_PrintUnformatted(o);
    ok(json != NULL && strstr(json, "secret") == NULL,
       "endpoint record has no secret");
    ok(json != NULL && strstr(json, "\"created_at\":\"2026-01-01T00:00:00"
                                    ".000Z\"") != NULL,
       "created_at in ISO 8601");
    ok(json != NULL && strstr(json, "\"active\":true") != NULL, "active");
    free(json);
    cJSON_Delete(o);
}


/*
 * One writer: the summary as stored, read back and written again as an
 * answer (a duplicate's), is the same text but for what the answer adds
 */
static void
test_read_back(void)
{
    char                  *stored, *again, *first;
    size_t                 len, alen, flen;
    cJSON                 *tree;
    behave_turn_t          t[4];
    behave_callsum_t       s, s2;
    behave_callsum_meta_t  m, m2;

    build(false_res, 4, t);
    behave_callsum_compute(t, 4, BEHAVE_VERDICT_FAILURE, &s);

    meta(&m, "call_1", "retell", "call_analyzed", 1.23456);
    m.conversation_id_from_var = 1;

    stored = behave_callsum_json(&s, &m, &len);
    ok(stored != NULL && behave_callsum_read(stored, len, &s2, &m2, &tree)
                         == 0,
       "a stored summary reads back");

    again = behave_callsum_json(&s2, &m2, &alen);
    ok(again != NULL && alen == len && memcmp(again, stored, len) == 0,
       "read back and written again: the same bytes");
    free(again);

    /* the answers: the same writer, with what each adds */
    m.segment = 7;
    m.with_segment = 1;
    m.billed = 4;
    m.with_billed = 1;
    first = behave_callsum_json(&s, &m, &flen);

    m2.segment = 7;
    m2.with_segment = 1;
    m2.billed = 4;
    m2.with_billed = 1;
    again = behave_callsum_json(&s2, &m2, &alen);
    ok(first != NULL && again != NULL && alen == flen
       && memcmp(first, again, flen) == 0,
       "a duplicate's answer is a first delivery's, from the same writer");
    ok(first != NULL && strstr(first, "\"segment\":7,"
                                      "\"billed_annotations\":4}") != NULL,
       "the answer ends with segment and billed_annotations");

    free(first);
    free(again);
    free(stored);
    cJSON_Delete(tree);

    ok(behave_callsum_read("[1]", 3, &s2, &m2, &tree) == -1,
       "not a summary: refused");
    cJSON_Delete(tree);
}


/* a 1,000-turn call runs in linear time through behave_callsum_run */
static void
test_large(void)
{
    size_t                i;
    clock_t               c;
    behave_call_t         call;
    behave_callsum_t      s;
    behave_call_turn_t   *turns;

    turns = calloc(1000, sizeof(behave_call_turn_t));

    for (i = 0; i < 1000; i++) {
        turns[i].speaker = i % 2;
        turns[i].text = i % 2 ? "Let me check that for you, one moment."
                              : "My order 5512 has still not arrived, where "
                                "is it?";
        turns[i].len = strlen(turns[i].text);
    }

    memset(&call, 0, sizeof(call));
    call.turns = turns;
    call.nturns = 1000;

    c = clock();
    ok(behave_callsum_run(&call, &s) == 0, "1,000 turns: run");
    c = clock() - c;

    is_int(s.turns, 1000, "1,000 turns counted");
    is_int(s.customer_turns, 500, "500 customer turns");
    ok((double) c / CLOCKS_PER_SEC < 5.0, "1,000 turns in under 5 s (%.3f)",
       (double) c / CLOCKS_PER_SEC);

    free(turns);
}


/* field by field: a struct's padding is not part of it */
static int
turns_same(const behave_turn_t *a, const behave_turn_t *b, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        if (a[i].speaker != b[i].speaker || a[i].text != b[i].text
            || a[i].text_len != b[i].text_len
            || a[i].valence_score != b[i].valence_score
            || a[i].valence != b[i].valence || a[i].urgency != b[i].urgency
            || a[i].load != b[i].load || a[i].cues != b[i].cues
            || a[i].severity != b[i].severity || a[i].ts_ms != b[i].ts_ms
            || a[i].has_meaning != b[i].has_meaning
            || memcmp(a[i].meaning, b[i].meaning, sizeof(a[i].meaning)))
        {
            return 0;
        }
    }

    return 1;
}


/*
 * The analysis in slices (behave_callsum_begin/step/finish) gives what the
 * analysis in one go gives, whatever the budget of a step: the same
 * summary text and the same analysed turns.
 */
static void
test_sliced(void)
{
    char                  *one, *sliced;
    size_t                 i, k, steps, len1, len2, n;
    behave_call_t          call;
    behave_callsum_t       s1, s2;
    behave_turn_t         *kept1, *kept2;
    behave_call_turn_t    *turns;
    behave_callsum_job_t  *job;
    behave_callsum_meta_t  m;

    static const size_t  budgets[] = { 0, 1, 200, 8192, (size_t) -1 };

    n = 0;
    turns = calloc(600, sizeof(behave_call_turn_t));

    /* the false resolution and the happy call, over and over, long ones */
    for (i = 0; n < 600; i++) {
        const turn_src_t  *src = (i % 3) ? false_res : happy;
        size_t             cnt = (i % 3) ? sizeof(false_res)
                                           / sizeof(false_res[0])
                                         : sizeof(happy) / sizeof(happy[0]);

        for (k = 0; k < cnt && n < 600; k++, n++) {
            turns[n].speaker = src[k].speaker;
            turns[n].text = src[k].text;
            turns[n].len = strlen(src[k].text);
        }
    }

    memset(&call, 0, sizeof(call));
    call.turns = turns;
    call.nturns = n;
    call.provider_verdict = BEHAVE_VERDICT_SUCCESS;

    memset(&m, 0, sizeof(m));
    m.status = "processed";

    ok(behave_callsum_run_keep(&call, &s1, &kept1) == 0, "sliced: one go");
    one = behave_callsum_json(&s1, &m, &len1);

    for (k = 0; k < sizeof(budgets) / sizeof(budgets[0]); k++) {
        job = behave_callsum_begin(&call);
        ok(job != NULL, "sliced: begin (budget %zu)", budgets[k]);
        if (job == NULL) {
            continue;
        }

        for (steps = 1; behave_callsum_step(job, budgets[k]) == 0; steps++) {
            /* void */
        }

        is_int(behave_callsum_done(job), n, "sliced: every turn done");
        behave_callsum_finish(job, &s2, &kept2);
        sliced = behave_callsum_json(&s2, &m, &len2);

        ok(one != NULL && sliced != NULL && len1 == len2
           && memcmp(one, sliced, len1) == 0,
           "sliced, budget %zu, %zu steps: the same summary", budgets[k],
           steps);
        ok(turns_same(kept1, kept2, n),
           "sliced, budget %zu: the same analysed turns", budgets[k]);

        if (budgets[k] <= 1) {
            is_int(steps, n, "budget %zu: one turn a step", budgets[k]);
        }

        if (budgets[k] == (size_t) -1) {
            is_int(steps, 1, "no budget: one step");
        }

        free(sliced);
        free(kept2);
    }

    /* a job dropped half way (the request went away) frees all it holds */
    job = behave_callsum_begin(&call);
    ok(job != NULL && behave_callsum_step(job, 200) == 0,
       "sliced: dropped after one step");
    behave_callsum_free(job);
    behave_callsum_free(NULL);

    /* a call without turns is done in one (empty) step */
    call.nturns = 0;
    job = behave_callsum_begin(&call);
    ok(job != NULL && behave_callsum_step(job, 8192) == 1,
       "no turns: done at once");
    behave_callsum_finish(job, &s2, NULL);
    is_int(s2.turns, 0, "no turns: 0 counted");

    ok(s1.false_resolution && s1.customer_turns > 0,
       "sliced: the call has findings to compare (%s)",
       s1.false_resolution_reason);

    free(one);
    free(kept1);
    free(turns);
}


int
main(void)
{
    test_findings();
    test_trend();
    test_json();
    test_read_back();
    test_large();
    test_sliced();

    return tap_done();
}
