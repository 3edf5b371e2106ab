/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * POST /api/v1/analyze-behavior: hesitation, attention and friction from
 * a session's interaction events (this request's plus the stored ones),
 * and suggestions from a rule table.  Every constant here is in
 * docs/API.md (Surface A); keep them in step.
 *
 * Ownership: events point into the request's and the prior history's
 * cJSON trees (targets are not copied); everything allocated here is
 * freed before returning.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "behave_gateway.h"
#include "behave_gw_internal.h"
#include "behave_request.h"
#include "behave_response.h"


#define BEHAVE_GW_TARGET_MAX      256
#define BEHAVE_GW_LONG_PAUSE_MS   2000.0
#define BEHAVE_GW_PAUSE_CAP_MS    30000.0
#define BEHAVE_GW_IDLE_MS         30000.0
#define BEHAVE_GW_HOVER_MIN_MS    500.0
#define BEHAVE_GW_HOVER_CAP_MS    10000.0
#define BEHAVE_GW_HOVER_CLICK_MS  3000.0
#define BEHAVE_GW_RAGE_MS         1000.0
#define BEHAVE_GW_RAGE_CLICKS     3
#define BEHAVE_GW_RAGE_SCAN       64
#define BEHAVE_GW_SCROLL_PAIR_MS  3000.0
#define BEHAVE_GW_T_MAX           9007199254740992.0


typedef struct {
    double          t;
    double          duration;       /* < 0: not given */
    double          delta;          /* scroll, 0: not given */
    const char     *target;         /* NULL: not given */
    size_t          seq;            /* input order, for a stable sort */
    int             type;           /* behave_gw_event_e */
    int             consumed;       /* click already in a rage burst */
} behave_gw_event_t;


typedef struct {
    behave_gw_event_t  *ev;
    size_t              n;
    size_t              prior;
    size_t              fresh;
} behave_gw_events_t;


/* a suggestion rule: fires() writes the reason when it fires */
typedef struct {
    const char  *id;
    const char  *suggestion;
    int        (*fires)(const behave_gw_behavior_t *m, char *reason,
                        size_t size);
} behave_gw_rule_t;


static behave_err_e behave_gw_behavior_fields(const cJSON *req,
    int64_t now_ms, int64_t *ts, const char **sid, const cJSON **events,
    behave_error_t *err);
static cJSON *behave_gw_events_reduced(const behave_gw_events_t *evs,
    size_t max_events);
static int behave_gw_event_parse(const cJSON *item, behave_gw_event_t *e,
    const char *path, size_t i, behave_error_t *err);
static behave_err_e behave_gw_events_load(const cJSON *events,
    const char *path, const cJSON *prior, behave_gw_events_t *evs,
    behave_error_t *err);
static int behave_gw_event_cmp(const void *a, const void *b);
static int behave_gw_event_same(const behave_gw_event_t *a,
    const behave_gw_event_t *b);
static void behave_gw_hesitation(behave_gw_event_t *ev, size_t n,
    behave_gw_behavior_t *m);
static void behave_gw_hesitation_score(behave_gw_behavior_t *m);
static void behave_gw_hover(behave_gw_event_t *ev, size_t n,
    behave_gw_behavior_t *m);
static void behave_gw_attention(behave_gw_event_t *ev, size_t n,
    behave_gw_behavior_t *m);
static void behave_gw_friction(behave_gw_event_t *ev, size_t n,
    behave_gw_behavior_t *m);
static unsigned behave_gw_rage(behave_gw_event_t *ev, size_t n,
    const char **target);
static int behave_gw_target_eq(const char *a, const char *b);
static cJSON *behave_gw_behavior_json(const char *session_id,
    const behave_gw_behavior_t *m, int64_t ts);
static cJSON *behave_gw_event_json(const behave_gw_event_t *e);

static int behave_gw_rule_hesitation(const behave_gw_behavior_t *m,
    char *reason, size_t size);
static int behave_gw_rule_hover(const behave_gw_behavior_t *m,
    char *reason, size_t size);
static int behave_gw_rule_backspace(const behave_gw_behavior_t *m,
    char *reason, size_t size);
static int behave_gw_rule_rage(const behave_gw_behavior_t *m,
    char *reason, size_t size);
static int behave_gw_rule_errors(const behave_gw_behavior_t *m,
    char *reason, size_t size);
static int behave_gw_rule_scroll(const behave_gw_behavior_t *m,
    char *reason, size_t size);
static int behave_gw_rule_attention(const behave_gw_behavior_t *m,
    char *reason, size_t size);
static int behave_gw_rule_assist(const behave_gw_behavior_t *m,
    char *reason, size_t size);


static const char *const  behave_gw_event_names[BEHAVE_GW_EV_N] = {
    "keystroke", "backspace", "pause", "click", "hover", "scroll", "focus",
    "blur", "submit", "error"
};


static const behave_gw_rule_t  behave_gw_rules[] = {
    { "reduce_choice",
      "Offer a recommended default or inline help at this step",
      behave_gw_rule_hesitation },
    { "clarify_call_to_action",
      "Make the next action clearer: its label, its placement and what "
      "happens after the click", behave_gw_rule_hover },
    { "input_assistance",
      "Add input assistance: format hints, autocomplete, inline validation",
      behave_gw_rule_backspace },
    { "responsive_feedback",
      "Give immediate visual feedback on the clicked element and check "
      "that it responds", behave_gw_rule_rage },
    { "error_recovery",
      "Explain errors next to the field and keep what the user entered",
      behave_gw_rule_errors },
    { "wayfinding",
      "Add a summary, anchors or a table of contents so that content is "
      "found without scrolling back and forth", behave_gw_rule_scroll },
    { "shorten_task",
      "Split the task into shorter steps and save progress",
      behave_gw_rule_attention },
    { "offer_assistance",
      "Offer live help or a simpler path", behave_gw_rule_assist }
};


behave_err_e
behave_gw_behavior(const cJSON *req, const cJSON *prior_events,
    int64_t now_ms, cJSON **resp, behave_error_t *err)
{
    int64_t                ts;
    const char            *sid;
    const cJSON           *events;
    behave_gw_behavior_t   m;

    *resp = NULL;

    if (behave_gw_behavior_fields(req, now_ms, &ts, &sid, &events, err)
        != BEHAVE_OK)
    {
        return err->err;
    }

    if (behave_gw_behavior_from_events(events, "interaction_history",
                                       prior_events, &m, err)
        != BEHAVE_OK)
    {
        return err->err;
    }

    *resp = behave_gw_behavior_json(sid, &m, ts);
    if (*resp == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    return BEHAVE_OK;
}


behave_err_e
behave_gw_behavior_store(const cJSON *req, size_t max_events, cJSON **out,
    behave_error_t *err)
{
    int64_t              ts;
    const char          *sid;
    const cJSON         *events;
    behave_gw_events_t   evs;

    *out = NULL;

    if (behave_gw_behavior_fields(req, 0, &ts, &sid, &events, err)
        != BEHAVE_OK
        || behave_gw_events_load(events, "interaction_history", NULL, &evs,
                                 err)
           != BEHAVE_OK)
    {
        return err->err;
    }

    *out = behave_gw_events_reduced(&evs, max_events);
    free(evs.ev);

    if (*out == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    return BEHAVE_OK;
}


cJSON *
behave_gw_behavior_history(const cJSON *req, const cJSON *prior_events,
    size_t max_events)
{
    cJSON               *arr;
    behave_error_t       err;
    behave_gw_events_t   evs;

    if (behave_gw_events_load(
            cJSON_GetObjectItemCaseSensitive(req, "interaction_history"),
            "interaction_history", prior_events, &evs, &err)
        != BEHAVE_OK)
    {
        /* the request did not validate: store nothing new */
        return cJSON_CreateArray();
    }

    arr = behave_gw_events_reduced(&evs, max_events);
    free(evs.ev);

    return arr;
}


/*
 * The request's own fields, checked in the order of the error messages
 * the tests know: timestamp, session_id, user_data, interaction_history
 * (its events are checked by behave_gw_events_load()).
 */
static behave_err_e
behave_gw_behavior_fields(const cJSON *req, int64_t now_ms, int64_t *ts,
    const char **sid, const cJSON **events, behave_error_t *err)
{
    int           rc;
    const cJSON  *user_data;

    if (behave_gw_timestamp(req, now_ms, ts, err) != BEHAVE_OK) {
        return err->err;
    }

    rc = behave_gw_string(req, "", "session_id", BEHAVE_CONVERSATION_ID_MAX,
                          sid, err);
    if (rc < 0) {
        return err->err;
    }

    if (rc == 0) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "field \"session_id\" is required");
    }

    if (!behave_conversation_id_valid(*sid, strlen(*sid))) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"session_id\" must be 1..%d "
                                "characters of [A-Za-z0-9_.:@-]",
                                BEHAVE_CONVERSATION_ID_MAX);
    }

    if (behave_gw_object(req, "", "user_data", &user_data, err) < 0) {
        return err->err;
    }

    rc = behave_gw_array(req, "", "interaction_history", events, err);
    if (rc < 0) {
        return err->err;
    }

    if (rc == 0) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "field \"interaction_history\" is required");
    }

    return BEHAVE_OK;
}


/* the last max_events of evs in the stored form; NULL when out of memory */
static cJSON *
behave_gw_events_reduced(const behave_gw_events_t *evs, size_t max_events)
{
    size_t   i, first;
    cJSON   *arr, *e;

    arr = cJSON_CreateArray();
    if (arr == NULL) {
        return NULL;
    }

    max_events = max_events < BEHAVE_GW_EVENTS_MAX
                 ? max_events : BEHAVE_GW_EVENTS_MAX;
    first = evs->n > max_events ? evs->n - max_events : 0;

    for (i = first; i < evs->n; i++) {
        e = behave_gw_event_json(&evs->ev[i]);

        /* appending is O(1): cJSON keeps the last item in child->prev */
        if (!cJSON_AddItemToArray(arr, e)) {
            cJSON_Delete(arr);
            return NULL;
        }
    }

    return arr;
}


behave_err_e
behave_gw_behavior_from_events(const cJSON *events, const char *path,
    const cJSON *prior, behave_gw_behavior_t *m, behave_error_t *err)
{
    behave_gw_events_t  evs;

    memset(m, 0, sizeof(*m));

    if (behave_gw_events_load(events, path, prior, &evs, err) != BEHAVE_OK) {
        return err->err;
    }

    m->events = evs.n;
    m->prior_events = evs.prior;
    m->new_events = evs.fresh;

    if (evs.n > 0) {
        m->observed_s = (evs.ev[evs.n - 1].t - evs.ev[0].t) / 1000.0;
    }

    behave_gw_hesitation(evs.ev, evs.n, m);
    behave_gw_hover(evs.ev, evs.n, m);
    behave_gw_hesitation_score(m);
    behave_gw_attention(evs.ev, evs.n, m);
    behave_gw_friction(evs.ev, evs.n, m);

    free(evs.ev);
    return BEHAVE_OK;
}


/*
 * events strictly (an error names path[i].field), prior leniently (a bad
 * stored event is skipped); then sorted by time and exact duplicates
 * dropped, so that a retried request does not count twice.
 */
static behave_err_e
behave_gw_events_load(const cJSON *events, const char *path,
    const cJSON *prior, behave_gw_events_t *evs, behave_error_t *err)
{
    size_t              i, j, nnew, nprior;
    const cJSON        *item, *list;
    behave_gw_event_t   e;

    memset(evs, 0, sizeof(*evs));

    nnew = (size_t) cJSON_GetArraySize(events);
    nprior = cJSON_IsArray(prior) ? (size_t) cJSON_GetArraySize(prior) : 0;

    if (nnew > BEHAVE_GW_EVENTS_MAX) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"%s\" has %zu events, at most %d are "
                                "accepted", path, nnew, BEHAVE_GW_EVENTS_MAX);
    }

    evs->ev = malloc((nnew + nprior + 1) * sizeof(behave_gw_event_t));
    if (evs->ev == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    i = 0;

    cJSON_ArrayForEach(item, events) {
        if (behave_gw_event_parse(item, &evs->ev[evs->n], path, i, err)
            != 0)
        {
            free(evs->ev);
            evs->ev = NULL;
            return err->err;
        }

        evs->ev[evs->n].seq = nprior + i;
        evs->n++;
        i++;
    }

    i = 0;
    list = nprior ? prior : NULL;

    cJSON_ArrayForEach(item, list) {
        if (behave_gw_event_parse(item, &e, "prior", i, err) == 0) {
            e.seq = i;
            evs->ev[evs->n++] = e;
        }

        i++;
    }

    qsort(evs->ev, evs->n, sizeof(behave_gw_event_t), behave_gw_event_cmp);

    for (i = 0, j = 0; i < evs->n; i++) {
        if (j > 0 && behave_gw_event_same(&evs->ev[j - 1], &evs->ev[i])) {
            continue;
        }

        evs->ev[j] = evs->ev[i];
        *(evs->ev[j].seq < nprior ? &evs->prior : &evs->fresh) += 1;
        j++;
    }

    evs->n = j;

    if (evs->n > BEHAVE_GW_EVENTS_MAX) {
        /* the oldest go first */
        memmove(evs->ev, evs->ev + (evs->n - BEHAVE_GW_EVENTS_MAX),
                BEHAVE_GW_EVENTS_MAX * sizeof(behave_gw_event_t));
        evs->n = BEHAVE_GW_EVENTS_MAX;
    }

    return BEHAVE_OK;
}


static int
behave_gw_event_parse(const cJSON *item, behave_gw_event_t *e,
    const char *path, size_t i, behave_error_t *err)
{
    int           k;
    char          p[64];
    const char   *type;

    memset(e, 0, sizeof(*e));
    e->duration = -1.0;
    snprintf(p, sizeof(p), "%s[%zu]", path, i);

    if (!cJSON_IsObject(item)) {
        behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                         "field \"%s\" must be an object", p);
        return -1;
    }

    if (behave_gw_string(item, p, "type", 16, &type, err) != 1) {
        goto bad_type;
    }

    for (k = 0; k < BEHAVE_GW_EV_N; k++) {
        if (strcmp(type, behave_gw_event_names[k]) == 0) {
            break;
        }
    }

    if (k == BEHAVE_GW_EV_N) {
        goto bad_type;
    }

    e->type = k;

    if (behave_gw_number(item, p, "t", 0, BEHAVE_GW_T_MAX, &e->t, err) != 1)
    {
        behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                         "field \"%s.t\" must be a number of milliseconds "
                         ">= 0", p);
        return -1;
    }

    if (behave_gw_string(item, p, "target", BEHAVE_GW_TARGET_MAX,
                         &e->target, err) < 0
        || behave_gw_number(item, p, "duration", 0, 86400000, &e->duration,
                            err) < 0
        || behave_gw_number(item, p, "delta", -1e7, 1e7, &e->delta, err) < 0)
    {
        return -1;
    }

    return 0;

bad_type:

    behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                     "field \"%s.type\" must be one of keystroke, backspace, "
                     "pause, click, hover, scroll, focus, blur, submit, "
                     "error", p);
    return -1;
}


static int
behave_gw_event_cmp(const void *a, const void *b)
{
    const behave_gw_event_t  *x = a, *y = b;

    if (x->t != y->t) {
        return x->t < y->t ? -1 : 1;
    }

    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}


static int
behave_gw_event_same(const behave_gw_event_t *a, const behave_gw_event_t *b)
{
    return a->t == b->t && a->type == b->type && a->duration == b->duration
           && a->delta == b->delta && behave_gw_target_eq(a->target,
                                                          b->target);
}


static int
behave_gw_target_eq(const char *a, const char *b)
{
    return (a == NULL && b == NULL)
           || (a != NULL && b != NULL && strcmp(a, b) == 0);
}


/*
 * Long pauses: pause events of 2 s or more, and silent gaps of 2..30 s
 * between two other events (longer gaps are idleness, not hesitation;
 * gaps while the page is blurred are absence).  A pause right before a
 * click or a submit is a pause before commit and counts twice.
 */
static void
behave_gw_hesitation(behave_gw_event_t *ev, size_t n, behave_gw_behavior_t *m)
{
    int     blurred;
    size_t  i, next;
    double  d, keys;

    blurred = 0;

    for (i = 0; i < n; i++) {
        d = 0.0;
        next = i;

        if (ev[i].type == BEHAVE_GW_EV_PAUSE) {
            d = ev[i].duration >= 0 ? ev[i].duration
                : (i + 1 < n ? ev[i + 1].t - ev[i].t : 0.0);
            next = i + 1;

        } else if (i > 0 && !blurred && ev[i - 1].type != BEHAVE_GW_EV_PAUSE
                   && ev[i].t - ev[i - 1].t < BEHAVE_GW_IDLE_MS)
        {
            d = ev[i].t - ev[i - 1].t;
        }

        blurred = ev[i].type == BEHAVE_GW_EV_BLUR
                  || (blurred && ev[i].type != BEHAVE_GW_EV_FOCUS);

        if (d < BEHAVE_GW_LONG_PAUSE_MS) {
            continue;
        }

        d = fmin(d, BEHAVE_GW_PAUSE_CAP_MS) / 1000.0;
        m->long_pauses++;
        m->pause_s += d;

        if (next < n && (ev[next].type == BEHAVE_GW_EV_CLICK
                         || ev[next].type == BEHAVE_GW_EV_SUBMIT))
        {
            m->pauses_before_commit++;
            m->pause_before_commit_s += d;
        }
    }

    for (i = 0; i < n; i++) {
        m->keystrokes += ev[i].type == BEHAVE_GW_EV_KEYSTROKE;
        m->backspaces += ev[i].type == BEHAVE_GW_EV_BACKSPACE;
    }

    keys = (double) (m->keystrokes + m->backspaces);
    m->backspace_ratio = keys > 0 ? m->backspaces / keys : 0.0;
}


/*
 * Each part saturates (20 s of weighted pauses, 10 s of unclicked hover,
 * half the keys deleted over 10+ keys) and any one can raise the score:
 * 1 - (1 - 0.9 pause)(1 - 0.7 hover)(1 - 0.7 backspace).
 */
static void
behave_gw_hesitation_score(behave_gw_behavior_t *m)
{
    double  keys, h_pause, h_hover, h_back;

    keys = (double) (m->keystrokes + m->backspaces);
    h_pause = 1.0 - exp(-(m->pause_s + m->pause_before_commit_s) / 20.0);
    h_hover = 1.0 - exp(-m->hover_unclicked_s / 10.0);

    /* a ratio over a handful of keys says little */
    h_back = fmin(1.0, m->backspace_ratio / 0.5) * fmin(1.0, keys / 10.0);

    m->hesitation = 1.0 - (1.0 - 0.9 * h_pause) * (1.0 - 0.7 * h_hover)
                          * (1.0 - 0.7 * h_back);
}


/*
 * Hover dwell without a click: a hover of 0.5 s or more (its duration,
 * else the time to the next event, at most 10 s) with no click on the
 * same target before it ends plus 3 s.
 */
static void
behave_gw_hover(behave_gw_event_t *ev, size_t n, behave_gw_behavior_t *m)
{
    int     clicked;
    size_t  i, j;
    double  dwell, end;

    for (i = 0; i < n; i++) {
        if (ev[i].type != BEHAVE_GW_EV_HOVER) {
            continue;
        }

        dwell = ev[i].duration >= 0 ? ev[i].duration
                : (i + 1 < n ? ev[i + 1].t - ev[i].t : 0.0);
        dwell = fmin(dwell, BEHAVE_GW_HOVER_CAP_MS);

        if (dwell < BEHAVE_GW_HOVER_MIN_MS) {
            continue;
        }

        end = ev[i].t + dwell + BEHAVE_GW_HOVER_CLICK_MS;
        clicked = 0;

        for (j = i + 1; j < n && ev[j].t <= end && !clicked; j++) {
            clicked = ev[j].type == BEHAVE_GW_EV_CLICK
                      && (ev[i].target == NULL
                          || behave_gw_target_eq(ev[i].target,
                                                 ev[j].target));
        }

        if (!clicked) {
            m->hover_unclicked_s += dwell / 1000.0;
        }
    }
}


/*
 * Focus stretches: from the start, a focus event or the first event
 * after a blur, to the next blur or idle gap (30 s without an event) or
 * the end.  Events other than focus after a blur mean the user is back.
 */
static void
behave_gw_attention(behave_gw_event_t *ev, size_t n, behave_gw_behavior_t *m)
{
    int       focused;
    size_t    i;
    unsigned  spans;
    double    start, span;

    if (n == 0) {
        m->focus_ratio = 1.0;
        return;
    }

    focused = 1;
    start = ev[0].t;
    spans = 0;

    for (i = 0; i < n; i++) {
        if (focused && i > 0 && ev[i].t - ev[i - 1].t >= BEHAVE_GW_IDLE_MS) {
            m->idle_gaps++;
            span = ev[i - 1].t - start;
            m->focused_s += span / 1000.0;
            m->sustained_focus_s = fmax(m->sustained_focus_s, span / 1000.0);
            spans++;
            start = ev[i].t;
        }

        if (ev[i].type == BEHAVE_GW_EV_BLUR) {
            m->blurs++;

            if (focused) {
                span = ev[i].t - start;
                m->focused_s += span / 1000.0;
                m->sustained_focus_s = fmax(m->sustained_focus_s,
                                            span / 1000.0);
                spans++;
                focused = 0;
            }

        } else if (!focused) {
            focused = 1;
            start = ev[i].t;
        }
    }

    if (focused) {
        span = ev[n - 1].t - start;
        m->focused_s += span / 1000.0;
        m->sustained_focus_s = fmax(m->sustained_focus_s, span / 1000.0);
        spans++;
    }

    m->mean_focus_s = spans ? m->focused_s / spans : 0.0;

    if (m->observed_s > 0.0) {
        m->focus_ratio = fmin(1.0, m->focused_s / m->observed_s);

    } else {
        m->focus_ratio = m->blurs ? 0.0 : 1.0;
    }
}


/*
 * Friction: errors, rage-click bursts and scroll reversals (a scroll
 * whose delta changes sign within 3 s of the previous scroll), each
 * saturating, combined so that any one of them can raise it.
 */
static void
behave_gw_friction(behave_gw_event_t *ev, size_t n, behave_gw_behavior_t *m)
{
    size_t   i, last;
    double   gaps, f_err, f_rage, f_scroll;

    last = n;
    gaps = 0.0;

    for (i = 0; i < n; i++) {
        m->errors += ev[i].type == BEHAVE_GW_EV_ERROR;
        m->clicks += ev[i].type == BEHAVE_GW_EV_CLICK;

        if (ev[i].type != BEHAVE_GW_EV_SCROLL) {
            continue;
        }

        m->scrolls++;

        if (last < n) {
            gaps += ev[i].t - ev[last].t;

            if (ev[i].t - ev[last].t <= BEHAVE_GW_SCROLL_PAIR_MS
                && ev[i].delta * ev[last].delta < 0.0)
            {
                m->scroll_reversals++;
            }
        }

        last = i;
    }

    m->scroll_gap_ms = m->scrolls > 1 ? gaps / (m->scrolls - 1) : 0.0;
    m->rage_bursts = behave_gw_rage(ev, n, &m->rage_target);

    f_err = 1.0 - exp(-(double) m->errors / 3.0);
    f_rage = 1.0 - exp(-(double) m->rage_bursts);
    f_scroll = 1.0 - exp(-(double) m->scroll_reversals / 4.0);

    m->friction = 1.0 - (1.0 - 0.8 * f_err) * (1.0 - 0.9 * f_rage)
                        * (1.0 - 0.6 * f_scroll);
}


/*
 * A burst: 3 or more clicks on the same target (a click without a
 * target matches other clicks without one) within 1 s of its first
 * click; it goes on while the next click on that target comes within
 * 1 s, and each burst counts once.  The scan ahead is bounded so that a
 * flood of same-millisecond clicks stays linear.
 */
static unsigned
behave_gw_rage(behave_gw_event_t *ev, size_t n, const char **target)
{
    size_t    i, j, seen;
    unsigned  bursts, count;
    double    last;

    bursts = 0;
    *target = NULL;

    for (i = 0; i < n; i++) {
        if (ev[i].type != BEHAVE_GW_EV_CLICK || ev[i].consumed) {
            continue;
        }

        count = 1;
        seen = 0;

        for (j = i + 1; j < n && ev[j].t - ev[i].t <= BEHAVE_GW_RAGE_MS
                        && seen < BEHAVE_GW_RAGE_SCAN; j++)
        {
            if (ev[j].type == BEHAVE_GW_EV_CLICK) {
                seen++;
                count += behave_gw_target_eq(ev[i].target, ev[j].target);
            }
        }

        if (count < BEHAVE_GW_RAGE_CLICKS) {
            continue;
        }

        bursts++;
        *target = *target ? *target : ev[i].target;
        last = ev[i].t;

        for (j = i + 1; j < n && ev[j].t - last <= BEHAVE_GW_RAGE_MS; j++) {
            if (ev[j].type == BEHAVE_GW_EV_CLICK
                && behave_gw_target_eq(ev[i].target, ev[j].target))
            {
                ev[j].consumed = 1;
                last = ev[j].t;
            }
        }
    }

    return bursts;
}


/* the rule table's conditions */

static int
behave_gw_rule_hesitation(const behave_gw_behavior_t *m, char *reason,
    size_t size)
{
    snprintf(reason, size, "hesitation %.2f >= 0.6 (%u long pauses, %u "
             "right before a commit)", m->hesitation, m->long_pauses,
             m->pauses_before_commit);
    return m->hesitation >= 0.6;
}


static int
behave_gw_rule_hover(const behave_gw_behavior_t *m, char *reason,
    size_t size)
{
    snprintf(reason, size, "%.1f s of hovering without a click (>= 3 s)",
             m->hover_unclicked_s);
    return m->hover_unclicked_s >= 3.0;
}


static int
behave_gw_rule_backspace(const behave_gw_behavior_t *m, char *reason,
    size_t size)
{
    snprintf(reason, size, "%u of %u keys were backspaces (ratio %.2f >= "
             "0.25)", m->backspaces, m->keystrokes + m->backspaces,
             m->backspace_ratio);
    return m->backspace_ratio >= 0.25 && m->keystrokes + m->backspaces >= 10;
}


static int
behave_gw_rule_rage(const behave_gw_behavior_t *m, char *reason,
    size_t size)
{
    snprintf(reason, size, "%u rage-click burst%s (3+ clicks within 1 s)%s%s",
             m->rage_bursts, m->rage_bursts == 1 ? "" : "s",
             m->rage_target ? " on " : "",
             m->rage_target ? m->rage_target : "");
    return m->rage_bursts >= 1;
}


static int
behave_gw_rule_errors(const behave_gw_behavior_t *m, char *reason,
    size_t size)
{
    snprintf(reason, size, "%u errors in the session (>= 2)", m->errors);
    return m->errors >= 2;
}


static int
behave_gw_rule_scroll(const behave_gw_behavior_t *m, char *reason,
    size_t size)
{
    snprintf(reason, size, "%u scroll reversals (>= 3)", m->scroll_reversals);
    return m->scroll_reversals >= 3;
}


static int
behave_gw_rule_attention(const behave_gw_behavior_t *m, char *reason,
    size_t size)
{
    snprintf(reason, size, "over %.0f s: focus ratio %.2f (< 0.6) or "
             "longest focus %.0f s (< 20 s)", m->observed_s, m->focus_ratio,
             m->sustained_focus_s);
    return m->observed_s >= 60.0
           && (m->focus_ratio < 0.6 || m->sustained_focus_s < 20.0);
}


static int
behave_gw_rule_assist(const behave_gw_behavior_t *m, char *reason,
    size_t size)
{
    snprintf(reason, size, "friction %.2f (>= 0.7) or hesitation %.2f "
             "(>= 0.8)", m->friction, m->hesitation);
    return m->friction >= 0.7 || m->hesitation >= 0.8;
}


static cJSON *
behave_gw_behavior_json(const char *session_id, const behave_gw_behavior_t *m,
    int64_t ts)
{
    int      ok;
    char     reason[160];
    size_t   i;
    cJSON   *root, *o, *arr, *s;

    root = cJSON_CreateObject();
    ok = root != NULL
         && behave_gw_add_str(root, "session_id", session_id)
         && behave_gw_add_rounded(root, "hesitation_score", m->hesitation);

    o = ok ? cJSON_AddObjectToObject(root, "attention_span") : NULL;
    ok = o != NULL
         && behave_gw_add_rounded(o, "sustained_focus_seconds",
                                  m->sustained_focus_s)
         && behave_gw_add_rounded(o, "mean_focus_seconds", m->mean_focus_s)
         && behave_gw_add_rounded(o, "focus_ratio", m->focus_ratio)
         && behave_gw_add_num(o, "blur_count", m->blurs)
         && behave_gw_add_num(o, "idle_gaps", m->idle_gaps);

    ok = ok && behave_gw_add_rounded(root, "cognitive_friction", m->friction);

    arr = ok ? cJSON_AddArrayToObject(root, "adaptation_suggestions") : NULL;
    ok = arr != NULL;

    for (i = 0; ok && i < sizeof(behave_gw_rules) / sizeof(behave_gw_rules[0]);
         i++)
    {
        if (!behave_gw_rules[i].fires(m, reason, sizeof(reason))) {
            continue;
        }

        s = cJSON_CreateObject();
        ok = cJSON_AddItemToArray(arr, s)
             && behave_gw_add_str(s, "id", behave_gw_rules[i].id)
             && behave_gw_add_str(s, "suggestion",
                                  behave_gw_rules[i].suggestion)
             && behave_gw_add_str(s, "reason", reason);
    }

    o = ok ? cJSON_AddObjectToObject(root, "signals") : NULL;
    ok = o != NULL
         && behave_gw_add_num(o, "long_pauses", m->long_pauses)
         && behave_gw_add_num(o, "pauses_before_commit",
                              m->pauses_before_commit)
         && behave_gw_add_rounded(o, "pause_seconds", m->pause_s)
         && behave_gw_add_rounded(o, "hover_without_click_seconds",
                                  m->hover_unclicked_s)
         && behave_gw_add_num(o, "keystrokes", m->keystrokes)
         && behave_gw_add_num(o, "backspaces", m->backspaces)
         && behave_gw_add_rounded(o, "backspace_ratio", m->backspace_ratio)
         && behave_gw_add_num(o, "errors", m->errors)
         && behave_gw_add_num(o, "clicks", m->clicks)
         && behave_gw_add_num(o, "rage_click_bursts", m->rage_bursts)
         && behave_gw_add_num(o, "scrolls", m->scrolls)
         && behave_gw_add_num(o, "scroll_reversals", m->scroll_reversals);

    ok = ok && behave_gw_add_num(root, "events_analyzed", (double) m->events)
         && behave_gw_add_num(root, "events_new", (double) m->new_events)
         && behave_gw_add_num(root, "events_prior", (double) m->prior_events)
         && behave_gw_add_rounded(root, "observed_seconds", m->observed_s);

    return behave_gw_stamp(root, ok, BEHAVE_GW_BEHAVIOR_MODEL, ts);
}


/* the stored form: only the fields the analysis reads */
static cJSON *
behave_gw_event_json(const behave_gw_event_t *e)
{
    int     ok;
    cJSON  *o;

    o = cJSON_CreateObject();
    ok = o != NULL
         && behave_gw_add_str(o, "type", behave_gw_event_names[e->type])
         && behave_gw_add_num(o, "t", e->t);

    if (ok && e->target != NULL) {
        ok = behave_gw_add_str(o, "target", e->target);
    }

    if (ok && e->duration >= 0) {
        ok = behave_gw_add_num(o, "duration", e->duration);
    }

    if (ok && e->delta != 0.0) {
        ok = behave_gw_add_num(o, "delta", e->delta);
    }

    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }

    return o;
}
