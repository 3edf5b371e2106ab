/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The call summary of surface C; see behave_callsum.h for every rule.
 */


#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "text/behave_annotate.h"
#include "base/behave_json.h"
#include "webhooks/behave_callsum.h"
#include "webhooks/behave_provider.h"
#include "base/behave_round.h"
#include "base/behave_time.h"


static void behave_callsum_start(behave_callsum_t *out, size_t n,
    behave_verdict_e provider_verdict);
static void behave_callsum_turn(const behave_turn_t *turns,
    const behave_conv_rec_t *recs, size_t i, behave_callsum_t *out,
    behave_review_e *last_review);
static void behave_callsum_end(const behave_turn_t *turns, size_t n,
    behave_callsum_t *out, behave_review_e last_review);
static void behave_callsum_review(behave_callsum_t *out,
    behave_review_e last_review);
static void behave_callsum_trend(const behave_turn_t *turns, size_t n,
    behave_callsum_t *out);
static double behave_callsum_mean(const double *v, size_t n);
static int behave_callsum_negative(const behave_turn_t *t);
static void behave_callsum_trend_summary(behave_callsum_t *out);
static cJSON *behave_callsum_trend_json(const behave_callsum_t *s);
static char *behave_callsum_print(cJSON *obj, size_t *len);
static const char *behave_callsum_str(const cJSON *o, const char *name);
static double behave_callsum_num(const cJSON *o, const char *name);
static int behave_callsum_bool(const cJSON *o, const char *name);
static void behave_callsum_copy(char *dst, size_t cap, const char *src);


static const char  *behave_trend_names[] = {
    "stable", "improving", "deteriorating", "volatile"
};


const char *
behave_trend_name(behave_trend_e t)
{
    return (unsigned) t < 4 ? behave_trend_names[t] : "stable";
}


struct behave_callsum_job_s {
    const behave_call_t   *call;
    behave_turn_t         *turns;
    behave_conv_rec_t     *recs;
    size_t                 next;           /* the first turn not done */
    behave_review_e        last_review;
    behave_callsum_t       sum;
};


void
behave_callsum_compute(const behave_turn_t *turns, size_t n,
    behave_verdict_e provider_verdict, behave_callsum_t *out)
{
    size_t              i;
    behave_review_e     last_review;
    behave_conv_rec_t  *recs;

    behave_callsum_start(out, n, provider_verdict);
    last_review = BEHAVE_REVIEW_OK;

    /* each turn's record once, not once per window it falls in */
    recs = malloc((n ? n : 1) * sizeof(behave_conv_rec_t));

    for (i = 0; recs != NULL && i < n; i++) {
        behave_conversation_record(&turns[i], &recs[i]);
    }

    for (i = 0; i < n; i++) {
        behave_callsum_turn(turns, recs, i, out, &last_review);
    }

    free(recs);

    behave_callsum_end(turns, n, out, last_review);
}


static void
behave_callsum_start(behave_callsum_t *out, size_t n,
    behave_verdict_e provider_verdict)
{
    memset(out, 0, sizeof(*out));

    out->turns = n;
    out->false_resolution_turn = -1;
    out->action = BEHAVE_ACTION_RESOLVE;
    out->provider_verdict = provider_verdict;

    snprintf(out->action_reason, sizeof(out->action_reason),
             "no customer turn in the call");
}


/*
 * The conversation logic at turn i over a window of the turns before it:
 * reads only turns (or records, when recs is not NULL) 0..i.
 */

static void
behave_callsum_turn(const behave_turn_t *turns, const behave_conv_rec_t *recs,
    size_t i, behave_callsum_t *out, behave_review_e *last_review)
{
    size_t                 from;
    behave_conv_result_t   res;

    if (turns[i].speaker != BEHAVE_SPEAKER_CUSTOMER) {
        out->agent_turns++;
        return;
    }

    out->customer_turns++;

    from = i > BEHAVE_CALLSUM_WINDOW ? i - BEHAVE_CALLSUM_WINDOW : 0;

    if (recs != NULL) {
        behave_conversation_assess_records(&recs[from], i - from, &recs[i],
                                           &res);

    } else {
        behave_conversation_assess(&turns[from], i - from, &turns[i], &res);
    }

    if (res.false_resolution && !out->false_resolution) {
        out->false_resolution = 1;
        out->false_resolution_turn = (int) i;
        snprintf(out->false_resolution_reason,
                 sizeof(out->false_resolution_reason), "turn %zu: %s",
                 i, res.false_resolution_reason);
    }

    out->repeat_contact_risk |= res.repeat_contact_risk;
    out->escalating |= res.escalating;

    if (res.peak_severity > out->peak_severity) {
        out->peak_severity = res.peak_severity;
    }

    if (turns[i].severity > out->peak_severity) {
        out->peak_severity = turns[i].severity;
    }

    out->action = res.action;
    snprintf(out->action_reason, sizeof(out->action_reason), "%s",
             res.reason);
    *last_review = res.review_status;
}


/* the findings of the whole call, once every turn is assessed */

static void
behave_callsum_end(const behave_turn_t *turns, size_t n,
    behave_callsum_t *out, behave_review_e last_review)
{
    if (out->false_resolution || out->escalating || out->peak_severity >= 4)
    {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(out->action_reason, sizeof(out->action_reason), "%s",
                 out->false_resolution
                 ? "the customer denied a claimed resolution during the call"
                 : out->escalating
                   ? "the call escalated"
                   : "a crisis or critical urgency came up in the call");
    }

    behave_callsum_review(out, last_review);
    behave_callsum_trend(turns, n, out);
    behave_callsum_trend_summary(out);
}


static void
behave_callsum_review(behave_callsum_t *out, behave_review_e last_review)
{
    behave_review_e  r;

    r = last_review;

    if ((out->false_resolution || out->repeat_contact_risk)
        && r < BEHAVE_REVIEW_NEEDS_REVIEW)
    {
        r = BEHAVE_REVIEW_NEEDS_REVIEW;
    }

    if (out->escalating || out->peak_severity >= 4) {
        r = BEHAVE_REVIEW_ESCALATED;
    }

    out->service_review = r;
    out->service_verdict = (r >= BEHAVE_REVIEW_NEEDS_REVIEW)
                           ? BEHAVE_VERDICT_FAILURE : BEHAVE_VERDICT_SUCCESS;

    out->verdict_disagrees =
        out->provider_verdict != BEHAVE_VERDICT_UNKNOWN
        && out->provider_verdict != out->service_verdict;

    out->review_status = out->verdict_disagrees ? BEHAVE_REVIEW_NEEDS_REVIEW
                                                : r;
}


static void
behave_callsum_trend(const behave_turn_t *turns, size_t n,
    behave_callsum_t *out)
{
    int      up, down, swings;
    size_t   i, m, k;
    double  *v, step, delta;

    out->direction = BEHAVE_TREND_STABLE;

    m = out->customer_turns;
    if (m == 0) {
        return;
    }

    v = malloc(m * sizeof(double));
    if (v == NULL) {
        return;                 /* only under memory pressure: stable */
    }

    m = 0;

    for (i = 0; i < n; i++) {
        if (turns[i].speaker == BEHAVE_SPEAKER_CUSTOMER) {
            v[m++] = turns[i].valence_score;
        }
    }

    k = m / 3;
    k = k < 1 ? 1 : (k > 3 ? 3 : k);

    out->opened_at_valence = behave_round3(behave_callsum_mean(v, k));
    out->current_valence = behave_round3(behave_callsum_mean(v + m - k, k));

    up = 0;
    down = 0;

    for (i = 1; i < m; i++) {
        step = v[i] - v[i - 1];

        if (step >= BEHAVE_CALLSUM_SWING) {
            up++;

        } else if (step <= -BEHAVE_CALLSUM_SWING) {
            down++;
        }
    }

    swings = up + down;

    for (i = n; i > 0; i--) {
        if (turns[i - 1].speaker != BEHAVE_SPEAKER_CUSTOMER) {
            continue;
        }

        if (!behave_callsum_negative(&turns[i - 1])) {
            break;
        }

        out->negative_streak++;
    }

    free(v);

    delta = out->current_valence - out->opened_at_valence;

    if (m < 2) {
        out->direction = BEHAVE_TREND_STABLE;

    } else if (out->escalating) {
        out->direction = BEHAVE_TREND_DETERIORATING;

    } else if (swings >= 3 && up && down) {
        out->direction = BEHAVE_TREND_VOLATILE;

    } else if (delta <= -BEHAVE_CALLSUM_TREND) {
        out->direction = BEHAVE_TREND_DETERIORATING;

    } else if (delta >= BEHAVE_CALLSUM_TREND) {
        out->direction = BEHAVE_TREND_IMPROVING;
    }
}


static double
behave_callsum_mean(const double *v, size_t n)
{
    size_t  i;
    double  sum;

    sum = 0.0;

    for (i = 0; i < n; i++) {
        sum += v[i];
    }

    return n ? sum / (double) n : 0.0;
}


static int
behave_callsum_negative(const behave_turn_t *t)
{
    return t->valence == BEHAVE_VALENCE_NEGATIVE
           || t->valence_score <= BEHAVE_CALLSUM_NEGATIVE;
}


static void
behave_callsum_trend_summary(behave_callsum_t *out)
{
    int          n;
    size_t       len;
    const char  *what;

    static const char  *what_names[] = {
        "stayed level", "improved", "deteriorated", "swung up and down"
    };

    if (out->customer_turns == 0) {
        snprintf(out->trend_summary, sizeof(out->trend_summary),
                 "No customer turn to read sentiment from.");
        return;
    }

    what = what_names[out->direction];

    n = snprintf(out->trend_summary, sizeof(out->trend_summary),
                 "Customer sentiment %s over %zu customer turn%s, from "
                 "%.2f to %.2f",
                 what, out->customer_turns,
                 out->customer_turns == 1 ? "" : "s",
                 out->opened_at_valence, out->current_valence);

    len = (n < 0) ? 0 : (size_t) n;

    if (len >= sizeof(out->trend_summary)) {
        return;
    }

    if (out->negative_streak > 0) {
        snprintf(out->trend_summary + len, sizeof(out->trend_summary) - len,
                 "; the last %d negative.", out->negative_streak);

    } else {
        snprintf(out->trend_summary + len, sizeof(out->trend_summary) - len,
                 ".");
    }
}


int
behave_callsum_run(const behave_call_t *call, behave_callsum_t *out)
{
    return behave_callsum_run_keep(call, out, NULL);
}


int
behave_callsum_run_keep(const behave_call_t *call, behave_callsum_t *out,
    behave_turn_t **kept)
{
    behave_callsum_job_t  *job;

    job = behave_callsum_begin(call);
    if (job == NULL) {
        return -1;
    }

    while (behave_callsum_step(job, (size_t) -1) == 0) {
        /* void */
    }

    behave_callsum_finish(job, out, kept);

    return 0;
}


behave_callsum_job_t *
behave_callsum_begin(const behave_call_t *call)
{
    size_t                 n;
    behave_callsum_job_t  *job;

    n = call->nturns ? call->nturns : 1;

    job = calloc(1, sizeof(behave_callsum_job_t));
    if (job == NULL) {
        return NULL;
    }

    job->call = call;
    job->turns = malloc(n * sizeof(behave_turn_t));
    job->recs = malloc(n * sizeof(behave_conv_rec_t));

    if (job->turns == NULL || job->recs == NULL) {
        behave_callsum_free(job);
        return NULL;
    }

    job->last_review = BEHAVE_REVIEW_OK;
    behave_callsum_start(&job->sum, call->nturns, call->provider_verdict);

    return job;
}


int
behave_callsum_step(behave_callsum_job_t *job, size_t budget)
{
    size_t                     i, read;
    behave_annotation_t        a;
    const behave_call_turn_t  *t;

    read = 0;

    while (job->next < job->call->nturns && (read == 0 || read < budget)) {
        i = job->next++;
        t = &job->call->turns[i];

        behave_annotate(t->text, t->len, &a);
        behave_turn_from_annotation(&job->turns[i],
                                    (behave_speaker_e) t->speaker,
                                    t->text, t->len, &a, 0);
        behave_conversation_record(&job->turns[i], &job->recs[i]);

        behave_callsum_turn(job->turns, job->recs, i, &job->sum,
                            &job->last_review);

        /* a turn costs a little even when short */
        read += t->len + 64;
    }

    return job->next >= job->call->nturns;
}


size_t
behave_callsum_done(const behave_callsum_job_t *job)
{
    return job->next;
}


void
behave_callsum_finish(behave_callsum_job_t *job, behave_callsum_t *out,
    behave_turn_t **kept)
{
    behave_callsum_end(job->turns, job->call->nturns, &job->sum,
                       job->last_review);

    *out = job->sum;

    if (kept != NULL) {
        *kept = job->turns;
        job->turns = NULL;
    }

    behave_callsum_free(job);
}


void
behave_callsum_free(behave_callsum_job_t *job)
{
    if (job == NULL) {
        return;
    }

    free(job->turns);
    free(job->recs);
    free(job);
}


/* JSON */

char *
behave_callsum_json(const behave_callsum_t *s, const behave_callsum_meta_t *m,
    size_t *len)
{
    cJSON  *o, *t;

    o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }

#define behave_add_str(name, v)                                             \
    if ((v) != NULL) cJSON_AddStringToObject(o, name, v)

    behave_add_str("status", m->status);
    behave_add_str("delivery_id", m->delivery_id);
    behave_add_str("conversation_id", m->conversation_id);

    if (m->conversation_id != NULL) {
        cJSON_AddStringToObject(o, "conversation_id_source",
                                m->conversation_id_from_var
                                ? "variable" : "platform");
    }

    behave_add_str("call_id", m->call_id);
    behave_add_str("provider", m->provider);
    behave_add_str("event_type", m->event_type);

#undef behave_add_str

    cJSON_AddNumberToObject(o, "turns_received", (double) s->turns);
    cJSON_AddNumberToObject(o, "turns_analysed", (double) s->turns);
    cJSON_AddNumberToObject(o, "customer_turns", (double) s->customer_turns);
    cJSON_AddNumberToObject(o, "agent_turns", (double) s->agent_turns);
    cJSON_AddStringToObject(o, "review_status",
                            behave_review_name(s->review_status));
    cJSON_AddStringToObject(o, "suggested_action",
                            behave_action_name(s->action));
    cJSON_AddStringToObject(o, "suggested_action_reason", s->action_reason);
    cJSON_AddBoolToObject(o, "false_resolution", s->false_resolution);
    cJSON_AddStringToObject(o, "false_resolution_reason",
                            s->false_resolution_reason);
    cJSON_AddBoolToObject(o, "repeat_contact_risk", s->repeat_contact_risk);
    cJSON_AddBoolToObject(o, "escalating", s->escalating);
    cJSON_AddNumberToObject(o, "peak_severity", s->peak_severity);

    t = behave_callsum_trend_json(s);
    if (t == NULL || !cJSON_AddItemToObject(o, "sentiment_trend", t)) {
        cJSON_Delete(t);
        cJSON_Delete(o);
        return NULL;
    }

    cJSON_AddStringToObject(o, "provider_verdict",
                            behave_verdict_name(s->provider_verdict));
    cJSON_AddStringToObject(o, "service_verdict",
                            behave_verdict_name(s->service_verdict));
    cJSON_AddBoolToObject(o, "verdict_disagreement", s->verdict_disagrees);
    cJSON_AddNumberToObject(o, "latency_ms", behave_round3(m->latency_ms));

    if (m->with_segment) {
        cJSON_AddNumberToObject(o, "segment", (double) m->segment);
    }

    if (m->with_billed) {
        cJSON_AddNumberToObject(o, "billed_annotations", (double) m->billed);
    }

    return behave_callsum_print(o, len);
}


/* a member's string, or NULL */
static const char *
behave_callsum_str(const cJSON *o, const char *name)
{
    const cJSON  *v;

    v = cJSON_GetObjectItemCaseSensitive(o, name);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}


static double
behave_callsum_num(const cJSON *o, const char *name)
{
    const cJSON  *v;

    v = cJSON_GetObjectItemCaseSensitive(o, name);

    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}


static int
behave_callsum_bool(const cJSON *o, const char *name)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, name));
}


static void
behave_callsum_copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}


int
behave_callsum_read(const char *json, size_t len, behave_callsum_t *s,
    behave_callsum_meta_t *m, cJSON **tree)
{
    int          i;
    cJSON       *o;
    const cJSON *t, *v;
    const char  *name;

    memset(s, 0, sizeof(*s));
    memset(m, 0, sizeof(*m));

    o = cJSON_ParseWithLength(json, len);
    *tree = o;

    if (!cJSON_IsObject(o)) {
        return -1;
    }

    m->status = behave_callsum_str(o, "status");
    m->delivery_id = behave_callsum_str(o, "delivery_id");
    m->conversation_id = behave_callsum_str(o, "conversation_id");
    name = behave_callsum_str(o, "conversation_id_source");
    m->conversation_id_from_var = name != NULL
                                  && strcmp(name, "variable") == 0;
    m->call_id = behave_callsum_str(o, "call_id");
    m->provider = behave_callsum_str(o, "provider");
    m->event_type = behave_callsum_str(o, "event_type");
    m->latency_ms = behave_callsum_num(o, "latency_ms");

    v = cJSON_GetObjectItemCaseSensitive(o, "segment");
    if (cJSON_IsNumber(v)) {
        m->segment = (int64_t) v->valuedouble;
        m->with_segment = 1;
    }

    s->turns = (size_t) behave_callsum_num(o, "turns_analysed");
    s->customer_turns = (size_t) behave_callsum_num(o, "customer_turns");
    s->agent_turns = (size_t) behave_callsum_num(o, "agent_turns");
    s->peak_severity = (int) behave_callsum_num(o, "peak_severity");
    s->false_resolution = behave_callsum_bool(o, "false_resolution");
    s->repeat_contact_risk = behave_callsum_bool(o, "repeat_contact_risk");
    s->escalating = behave_callsum_bool(o, "escalating");
    s->verdict_disagrees = behave_callsum_bool(o, "verdict_disagreement");

    behave_callsum_copy(s->action_reason, sizeof(s->action_reason),
                        behave_callsum_str(o, "suggested_action_reason"));
    behave_callsum_copy(s->false_resolution_reason,
                        sizeof(s->false_resolution_reason),
                        behave_callsum_str(o, "false_resolution_reason"));

    /* each name back to its value, by the names the writer prints */
    name = behave_callsum_str(o, "review_status");
    for (i = 0; name != NULL && i <= BEHAVE_REVIEW_ESCALATED; i++) {
        if (strcmp(name, behave_review_name((behave_review_e) i)) == 0) {
            s->review_status = (behave_review_e) i;
            s->service_review = s->review_status;
        }
    }

    name = behave_callsum_str(o, "suggested_action");
    for (i = 0; name != NULL && i <= BEHAVE_ACTION_HANDOFF; i++) {
        if (strcmp(name, behave_action_name((behave_action_e) i)) == 0) {
            s->action = (behave_action_e) i;
        }
    }

    for (i = 0; i < BEHAVE_VERDICT_LAST; i++) {
        name = behave_verdict_name((behave_verdict_e) i);

        if (behave_callsum_str(o, "provider_verdict") != NULL
            && strcmp(behave_callsum_str(o, "provider_verdict"), name) == 0)
        {
            s->provider_verdict = (behave_verdict_e) i;
        }

        if (behave_callsum_str(o, "service_verdict") != NULL
            && strcmp(behave_callsum_str(o, "service_verdict"), name) == 0)
        {
            s->service_verdict = (behave_verdict_e) i;
        }
    }

    t = cJSON_GetObjectItemCaseSensitive(o, "sentiment_trend");
    name = behave_callsum_str(t, "direction");

    for (i = 0; name != NULL && i <= BEHAVE_TREND_VOLATILE; i++) {
        if (strcmp(name, behave_trend_name((behave_trend_e) i)) == 0) {
            s->direction = (behave_trend_e) i;
        }
    }

    s->opened_at_valence = behave_callsum_num(t, "opened_at_valence");
    s->current_valence = behave_callsum_num(t, "current_valence");
    s->negative_streak = (int) behave_callsum_num(t, "negative_streak");
    behave_callsum_copy(s->trend_summary, sizeof(s->trend_summary),
                        behave_callsum_str(t, "summary"));

    return 0;
}


static cJSON *
behave_callsum_trend_json(const behave_callsum_t *s)
{
    cJSON  *t;

    t = cJSON_CreateObject();
    if (t == NULL) {
        return NULL;
    }

    cJSON_AddStringToObject(t, "direction", behave_trend_name(s->direction));
    cJSON_AddNumberToObject(t, "opened_at_valence", s->opened_at_valence);
    cJSON_AddNumberToObject(t, "current_valence", s->current_valence);
    cJSON_AddNumberToObject(t, "negative_streak", s->negative_streak);
    cJSON_AddStringToObject(t, "summary", s->trend_summary);

    return t;
}


/* prints and deletes obj; any failed add shows as a missing member */

static char *
behave_callsum_print(cJSON *obj, size_t *len)
{
    char  *json;

    json = behave_json_print(obj, NULL);
    cJSON_Delete(obj);

    if (json != NULL && len != NULL) {
        *len = strlen(json);
    }

    return json;
}


cJSON *
behave_endpoint_json(const behave_endpoint_t *e)
{
    char                      ts[32];
    cJSON                    *o;
    const behave_provider_t  *p;

    o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }

    cJSON_AddStringToObject(o, "id", e->id ? e->id : "");
    cJSON_AddStringToObject(o, "slug", e->slug ? e->slug : "");
    cJSON_AddStringToObject(o, "receiver_url",
                            e->receiver_url ? e->receiver_url : "");
    cJSON_AddStringToObject(o, "provider", e->provider ? e->provider : "");
    cJSON_AddStringToObject(o, "auth", e->auth ? e->auth : "hmac");

    /* the provider's options, when it takes some (behave_provider.h) */
    p = e->provider ? behave_provider_find(e->provider, strlen(e->provider))
                    : NULL;

    if (p != NULL && p->options_json != NULL) {
        cJSON_AddItemToObject(o, "signature", p->options_json(e->signature));
    }

    cJSON_AddBoolToObject(o, "active", e->active);
    cJSON_AddStringToObject(o, "description",
                            e->description ? e->description : "");

    behave_iso8601_ms(e->created_at * 1000, ts, sizeof(ts));
    cJSON_AddStringToObject(o, "created_at", ts);

    if (e->updated_at > 0) {
        behave_iso8601_ms(e->updated_at * 1000, ts, sizeof(ts));
        cJSON_AddStringToObject(o, "updated_at", ts);

    } else {
        cJSON_AddNullToObject(o, "updated_at");
    }

    return o;
}


char *
behave_delivery_json(const behave_delivery_t *d, size_t *len)
{
    char    ts[32];
    cJSON  *o;

    o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }

#define behave_add_str_or_null(name, v)                                     \
    if ((v) != NULL) cJSON_AddStringToObject(o, name, v);                   \
    else cJSON_AddNullToObject(o, name)

    behave_add_str_or_null("delivery_id", d->delivery_id);
    behave_iso8601_ms(d->received_at_ms, ts, sizeof(ts));
    cJSON_AddStringToObject(o, "received_at", ts);
    behave_add_str_or_null("type", d->type);
    behave_add_str_or_null("kind", d->kind);
    behave_add_str_or_null("call_id", d->call_id);
    behave_add_str_or_null("conversation_id", d->conversation_id);
    behave_add_str_or_null("review_status", d->review_status);
    cJSON_AddNumberToObject(o, "http_status", d->http_status);

    if (d->outcome != NULL) {
        cJSON_AddStringToObject(o, "outcome", d->outcome);

        if (d->segment >= 0) {
            cJSON_AddNumberToObject(o, "segment", (double) d->segment);

        } else {
            cJSON_AddNullToObject(o, "segment");
        }
    }

#undef behave_add_str_or_null

    return behave_callsum_print(o, len);
}


