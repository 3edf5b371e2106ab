/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The call summary of surface C (spec 2.6): every turn of one call
 * analysed in order, then the findings of the whole call.  Also the JSON
 * of the webhook endpoint record (spec 2.5) and of a delivery record.
 *
 * Only the turns of this call are read: a call that continues a
 * conversation is a new segment, analysed alone (spec 3).
 *
 * Per customer turn the conversation logic (behave_conversation.h) runs
 * over the BEHAVE_CALLSUM_WINDOW turns before it, so a 1,000-turn call
 * costs linear time, not quadratic; a claim and its denial, a re-ask and
 * an escalation all sit within a few turns of each other.
 *
 * Call findings:
 *
 *   false_resolution     any customer turn of the call denied an agent's
 *                        claim of resolution (reason of the first one)
 *   repeat_contact_risk  any turn raised it
 *   escalating           any customer turn was escalating
 *   peak_severity        max over the customer turns, 0..4
 *   suggested_action     handoff when the call had a false resolution, an
 *                        escalation or a severity-4 turn; otherwise the
 *                        action at the last customer turn
 *   service verdict      failure when the service's own review (below,
 *                        before the platform's verdict is looked at) is
 *                        needs_review or escalated, else success
 *   review_status        the worst of: the review at the last customer
 *                        turn; needs_review for a false resolution or a
 *                        repeat-contact risk anywhere; escalated for an
 *                        escalation or a severity-4 turn anywhere.  Then,
 *                        when the platform's verdict is success or
 *                        failure and differs from the service's verdict,
 *                        needs_review (spec: "may differ", the issue:
 *                        disagreement means needs_review), whatever it
 *                        was before.  Unknown never disagrees.
 *
 * sentiment_trend over the valence scores (-1..1) of the customer turns:
 *
 *   opened_at_valence    mean of the first k customer turns
 *   current_valence      mean of the last k customer turns,
 *                        k = min(3, max(1, customer turns / 3))
 *   direction            volatile       3+ swings of 0.5 or more between
 *                                       consecutive customer turns, both
 *                                       up and down, unless escalating
 *                        deteriorating  current - opened <= -0.25, or an
 *                                       escalation in the call
 *                        improving      current - opened >= +0.25
 *                        stable         otherwise, and with fewer than two
 *                                       customer turns
 *   negative_streak      customer turns at the end of the call, in a row,
 *                        with a negative valence (label negative or score
 *                        <= -0.25)
 *   summary              one English sentence of the above
 *
 * Nothing here logs or reads a clock.
 */

#ifndef BEHAVE_CALLSUM_H
#define BEHAVE_CALLSUM_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "conversation/behave_conversation.h"
#include "conversation/behave_turn.h"
#include "webhooks/behave_webhook_parse.h"


#define BEHAVE_CALLSUM_WINDOW      20
#define BEHAVE_CALLSUM_SWING       0.5
#define BEHAVE_CALLSUM_TREND       0.25
#define BEHAVE_CALLSUM_NEGATIVE    (-0.25)
#define BEHAVE_CALLSUM_SUMMARY_MAX 256


typedef enum {
    BEHAVE_TREND_STABLE = 0,
    BEHAVE_TREND_IMPROVING,
    BEHAVE_TREND_DETERIORATING,
    BEHAVE_TREND_VOLATILE
} behave_trend_e;


typedef struct {
    size_t                 turns;
    size_t                 customer_turns;
    size_t                 agent_turns;

    int                    false_resolution;
    char                   false_resolution_reason[BEHAVE_CONV_REASON_MAX
                                                   + 32];
    int                    false_resolution_turn;       /* index or -1 */
    int                    repeat_contact_risk;
    int                    escalating;
    int                    peak_severity;

    behave_action_e        action;
    char                   action_reason[BEHAVE_CONV_REASON_MAX];

    behave_review_e        service_review;   /* before the platform's say */
    behave_review_e        review_status;    /* reported */
    behave_verdict_e       provider_verdict;
    behave_verdict_e       service_verdict;
    int                    verdict_disagrees;

    behave_trend_e         direction;
    double                 opened_at_valence;
    double                 current_valence;
    int                    negative_streak;
    char                   trend_summary[BEHAVE_CALLSUM_SUMMARY_MAX];
} behave_callsum_t;


/* what the glue adds around the findings; NULL strings are left out */
typedef struct {
    const char            *status;          /* "processed" */
    const char            *delivery_id;
    const char            *provider;
    const char            *event_type;
    const char            *call_id;
    const char            *conversation_id;
    int                    conversation_id_from_var;
    double                 latency_ms;       /* core time of the analysis */

    /* what a delivery's answer adds: left out unless with_* is set */
    int64_t                segment;
    int64_t                billed;           /* billed_annotations */
    unsigned               with_segment:1;
    unsigned               with_billed:1;
} behave_callsum_meta_t;


/* the findings of turns[0..n), oldest first; never fails */
void behave_callsum_compute(const behave_turn_t *turns, size_t n,
    behave_verdict_e provider_verdict, behave_callsum_t *out);

/*
 * Annotates every turn of a parsed TRANSCRIPT call and computes its
 * summary.  Returns 0, or -1 when out of memory.
 */
int behave_callsum_run(const behave_call_t *call, behave_callsum_t *out);

/*
 * The same, and with kept not NULL the analysed turns (texts pointing
 * into the call) in *kept, malloc()ed, call->nturns of them: the review
 * queue stores a flagged call's turns.
 */
int behave_callsum_run_keep(const behave_call_t *call, behave_callsum_t *out,
    behave_turn_t **kept);

/*
 * The same analysis in slices, so that a long call never holds a worker's
 * event loop for long (the glue runs one step per loop iteration):
 *
 *     job = behave_callsum_begin(call);          NULL: out of memory
 *     while (behave_callsum_step(job, budget) == 0) { next iteration }
 *     behave_callsum_finish(job, &sum, &kept);   frees job
 *
 * A step annotates and assesses whole turns, in order, until it has read
 * budget bytes of turn text (always at least one turn), so its cost is
 * about budget bytes of annotation whatever the turns' sizes; a turn is
 * never split, so one turn longer than the budget is a step of its own.
 * It returns 1 when every turn is done.  The findings are exactly those
 * of behave_callsum_run(): turn i is assessed once the records of the
 * turns before it exist, as there.  behave_callsum_free() drops a job
 * before its end (the request went away); NULL is accepted.
 */
typedef struct behave_callsum_job_s  behave_callsum_job_t;

#define BEHAVE_CALLSUM_STEP_BYTES  (4 * 1024)

behave_callsum_job_t *behave_callsum_begin(const behave_call_t *call);
int behave_callsum_step(behave_callsum_job_t *job, size_t budget);
size_t behave_callsum_done(const behave_callsum_job_t *job);
void behave_callsum_finish(behave_callsum_job_t *job, behave_callsum_t *out,
    behave_turn_t **kept);
void behave_callsum_free(behave_callsum_job_t *job);

const char *behave_trend_name(behave_trend_e t);

/*
 * The summary object of spec 2.6 as malloc()ed JSON text, NUL-terminated;
 * NULL when out of memory.  The one writer of a call's summary: as
 * stored (no segment, nothing billed), as a first delivery's answer and
 * as a duplicate's (the stored one read back, behave_callsum_read()).
 */
char *behave_callsum_json(const behave_callsum_t *s,
    const behave_callsum_meta_t *m, size_t *len);

/*
 * A summary as behave_callsum_json() wrote it, back into s and m (its
 * strings point into *tree, which the caller frees with cJSON_Delete()
 * once the summary is written again; a "segment" a record stored by an
 * older build carries is read too).  0, or -1 for text that is not one.
 */
int behave_callsum_read(const char *json, size_t len, behave_callsum_t *s,
    behave_callsum_meta_t *m, cJSON **tree);


/* spec 2.5: the endpoint record as shown to its owner (never the secret) */
typedef struct {
    const char            *id;
    const char            *slug;
    const char            *receiver_url;
    const char            *provider;
    const char            *auth;              /* "hmac", "shared_secret" */
    const char            *signature;         /* the provider's options,
                                                 stored form; NULL:
                                                 defaults */
    const char            *description;
    int                    active;
    int64_t                created_at;        /* unix seconds */
    int64_t                updated_at;        /* 0: never */
} behave_endpoint_t;

cJSON *behave_endpoint_json(const behave_endpoint_t *e);



/*
 * One delivery as GET /v1/webhooks lists it.  With outcome NULL the
 * object stops before "outcome" and "segment" (the Redis script appends
 * them); segment < 0 is null.
 */
typedef struct {
    const char            *delivery_id;
    int64_t                received_at_ms;
    const char            *type;
    const char            *kind;
    const char            *call_id;
    const char            *conversation_id;
    const char            *review_status;
    int                    http_status;
    const char            *outcome;
    long long              segment;
} behave_delivery_t;

char *behave_delivery_json(const behave_delivery_t *d, size_t *len);


#endif /* BEHAVE_CALLSUM_H */
