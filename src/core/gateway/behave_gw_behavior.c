/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * POST /api/v1/analyze-behavior: hesitation, attention and friction from
 * a session's interaction events, and suggestions from a rule table.
 * The measures are a fold over the events in time order
 * (behave_gw_fold.c); a session's state keeps that fold instead of its
 * events (behave_gw_session.c).  Here: the request, the entry points of
 * the glue and of adaptive-ui, and the answer.  Every constant is in
 * docs/API.md (Surface A); keep them in step.
 *
 * Ownership: events point into the request's and the stored state's
 * buffers (targets are not copied); everything allocated here is freed
 * before returning.
 */

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gateway/behave_gateway.h"
#include "base/behave_json.h"
#include "gateway/behave_gw_internal.h"
#include "gateway/behave_gw_session.h"
#include "base/behave_ids.h"


#define BEHAVE_GW_T_MAX           9007199254740992.0

/* a rewrite of the stored state past this many appended batches/bytes */
#define BEHAVE_GW_REWRITE_BATCHES 8
#define BEHAVE_GW_REWRITE_BYTES   2048


/*
 * What a rule reads and writes in its reason: a measure of the session
 * by its place in behave_gw_behavior_t, or the keys typed (keystrokes and
 * backspaces); in a reason, a count's plural "s" and the rage target
 * (" on <target>", when known).
 */
typedef enum {
    BEHAVE_GW_M_NONE = 0,
    BEHAVE_GW_M_COUNT,                  /* unsigned */
    BEHAVE_GW_M_REAL,                   /* double, with its decimals */
    BEHAVE_GW_M_KEYS,
    BEHAVE_GW_M_PLURAL,                 /* of a count */
    BEHAVE_GW_M_TARGET                  /* const char *, may be NULL */
} behave_gw_measure_e;


typedef struct {
    unsigned char    kind;
    unsigned char    decimals;
    unsigned short   off;
} behave_gw_measure_t;


#define behave_gw_m(kind, f, d)                                               \
    { BEHAVE_GW_M_ ## kind, d, offsetof(behave_gw_behavior_t, f) }
#define behave_gw_count(f)         behave_gw_m(COUNT, f, 0)
#define behave_gw_real(f, d)       behave_gw_m(REAL, f, d)
#define behave_gw_plural(f)        behave_gw_m(PLURAL, f, 0)
#define behave_gw_target(f)        behave_gw_m(TARGET, f, 0)
#define behave_gw_keys             { BEHAVE_GW_M_KEYS, 0, 0 }


/* a piece of a reason: its text, then its measure's */
typedef struct {
    const char           *text;
    behave_gw_measure_t   m;
} behave_gw_piece_t;


#define BEHAVE_GW_PIECES  3


/*
 * A suggestion rule: it fires when each measure is at least its floor, or
 * when fires() says (a rule of another form).  Its reason is the pieces
 * and the end, written only when it fires (a reason formatted for every
 * rule of every call was a tenth of a call).  Every constant is in
 * docs/API.md.
 */
typedef struct {
    const char           *id;
    const char           *suggestion;
    behave_gw_measure_t   at_least[2];
    double                floor[2];
    int                 (*fires)(const behave_gw_behavior_t *m);
    behave_gw_piece_t     why[BEHAVE_GW_PIECES];
    const char           *why_end;
} behave_gw_rule_t;


static behave_err_e behave_gw_behavior_fields(const cJSON *req,
    int64_t now_ms, int64_t *ts, const char **sid, const cJSON **events,
    behave_error_t *err);
static behave_err_e behave_gw_merge(const cJSON *events, const char *path,
    const cJSON *prior, behave_gw_session_t *s, behave_gw_behavior_t *m,
    behave_error_t *err);
static cJSON *behave_gw_events_reduced(const behave_gw_event_t *ev,
    size_t n, size_t max_events);
static int behave_gw_event_parse(const cJSON *item, behave_gw_event_t *e,
    const char *path, size_t i, behave_error_t *err);
static int behave_gw_event_check(const cJSON *item, behave_gw_event_t *e,
    const char *p, behave_error_t *err);
static cJSON *behave_gw_behavior_json(const char *session_id,
    const behave_gw_behavior_t *m, int64_t ts);
static char *behave_gw_behavior_text(const char *session_id,
    const behave_gw_behavior_t *m, int64_t ts, const char *history,
    size_t *len);
static behave_err_e behave_gw_behavior_run(const cJSON *req, int64_t now_ms,
    const char *state, size_t state_len, const char *batch, size_t batch_len,
    uint64_t epoch, const char **sid, int64_t *ts, behave_gw_behavior_t *m,
    behave_gw_rewrite_t *rw, behave_error_t *err);
static cJSON *behave_gw_event_json(const behave_gw_event_t *e);
static behave_err_e behave_gw_behavior_answer(const cJSON *req,
    int64_t now_ms, const char *state, size_t state_len, const char *batch,
    size_t batch_len, uint64_t epoch, const char *history, cJSON **resp,
    char **text, size_t *len, behave_gw_rewrite_t *rw, behave_error_t *err);
static behave_err_e behave_gw_events_made(const cJSON *req,
    size_t max_events, char **batch, size_t *len, cJSON **stored,
    behave_error_t *err);
static char *behave_gw_hot_encode(const behave_gw_session_t *s, size_t base,
    size_t full_max, size_t *len);
static void behave_gw_put_le(unsigned char *p, uint64_t v, size_t size);
static size_t behave_gw_get_le(const char *p, size_t size);

static int behave_gw_rule_attention(const behave_gw_behavior_t *m);
static int behave_gw_rule_assist(const behave_gw_behavior_t *m);
static int behave_gw_rule_fires(const behave_gw_rule_t *rule,
    const behave_gw_behavior_t *m);
static void behave_gw_rule_why(const behave_gw_rule_t *rule,
    const behave_gw_behavior_t *m, char *reason, size_t size);


static const char *const  behave_gw_event_names[BEHAVE_GW_EV_N] = {
    "keystroke", "backspace", "pause", "click", "hover", "scroll", "focus",
    "blur", "submit", "error"
};


static const behave_gw_rule_t  behave_gw_rules[] = {
    { "reduce_choice",
      "Offer a recommended default or inline help at this step",
      { behave_gw_real(hesitation, 2) }, { 0.6 }, NULL,
      { { "hesitation ", behave_gw_real(hesitation, 2) },
        { " >= 0.6 (", behave_gw_count(long_pauses) },
        { " long pauses, ", behave_gw_count(pauses_before_commit) } },
      " right before a commit)" },

    { "clarify_call_to_action",
      "Make the next action clearer: its label, its placement and what "
      "happens after the click",
      { behave_gw_real(hover_unclicked_s, 1) }, { 3.0 }, NULL,
      { { "", behave_gw_real(hover_unclicked_s, 1) } },
      " s of hovering without a click (>= 3 s)" },

    { "input_assistance",
      "Add input assistance: format hints, autocomplete, inline validation",
      { behave_gw_real(backspace_ratio, 2), behave_gw_keys }, { 0.25, 10 },
      NULL,
      { { "", behave_gw_count(backspaces) },
        { " of ", behave_gw_keys },
        { " keys were backspaces (ratio ",
          behave_gw_real(backspace_ratio, 2) } },
      " >= 0.25)" },

    { "responsive_feedback",
      "Give immediate visual feedback on the clicked element and check "
      "that it responds",
      { behave_gw_count(rage_bursts) }, { 1 }, NULL,
      { { "", behave_gw_count(rage_bursts) },
        { " rage-click burst", behave_gw_plural(rage_bursts) },
        { " (3+ clicks within 1 s)", behave_gw_target(rage_target) } },
      "" },

    { "error_recovery",
      "Explain errors next to the field and keep what the user entered",
      { behave_gw_count(errors) }, { 2 }, NULL,
      { { "", behave_gw_count(errors) } },
      " errors in the session (>= 2)" },

    { "wayfinding",
      "Add a summary, anchors or a table of contents so that content is "
      "found without scrolling back and forth",
      { behave_gw_count(scroll_reversals) }, { 3 }, NULL,
      { { "", behave_gw_count(scroll_reversals) } },
      " scroll reversals (>= 3)" },

    { "shorten_task",
      "Split the task into shorter steps and save progress",
      { { 0 } }, { 0 }, behave_gw_rule_attention,
      { { "over ", behave_gw_real(observed_s, 0) },
        { " s: focus ratio ", behave_gw_real(focus_ratio, 2) },
        { " (< 0.6) or longest focus ",
          behave_gw_real(sustained_focus_s, 0) } },
      " s (< 20 s)" },

    { "offer_assistance",
      "Offer live help or a simpler path",
      { { 0 } }, { 0 }, behave_gw_rule_assist,
      { { "friction ", behave_gw_real(friction, 2) },
        { " (>= 0.7) or hesitation ", behave_gw_real(hesitation, 2) } },
      " (>= 0.8)" }
};


/* the request's events after the stored ones, all in one answer */

behave_err_e
behave_gw_behavior(const cJSON *req, const cJSON *prior_events,
    int64_t now_ms, cJSON **resp, behave_error_t *err)
{
    int64_t                ts;
    const char            *sid;
    const cJSON           *events;
    behave_gw_session_t    s;
    behave_gw_behavior_t   m;

    *resp = NULL;

    if (behave_gw_behavior_fields(req, now_ms, &ts, &sid, &events, err)
        != BEHAVE_OK)
    {
        return err->err;
    }

    behave_gw_session_init(&s, 0);

    if (behave_gw_merge(events, "interaction_history", prior_events, &s, &m,
                        err)
        != BEHAVE_OK)
    {
        behave_gw_session_free(&s);
        return err->err;
    }

    *resp = behave_gw_behavior_json(sid, &m, ts);
    behave_gw_session_free(&s);

    if (*resp == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    return BEHAVE_OK;
}


behave_err_e
behave_gw_behavior_from_events(const cJSON *events, const char *path,
    const cJSON *prior, behave_gw_behavior_t *m, behave_error_t *err)
{
    behave_err_e         rc;
    behave_gw_session_t  s;

    behave_gw_session_init(&s, 0);
    rc = behave_gw_merge(events, path, prior, &s, m, err);
    behave_gw_session_free(&s);

    return rc;
}


/*
 * prior (leniently) then events (strictly) as two batches, nothing
 * settled: every event is analysed, none is late.  The targets m names
 * are copied (m->rage_buf).
 */
static behave_err_e
behave_gw_merge(const cJSON *events, const char *path, const cJSON *prior,
    behave_gw_session_t *s, behave_gw_behavior_t *m, behave_error_t *err)
{
    int                 rc;
    size_t              n, nprior, accepted;
    behave_gw_event_t  *ev, *pev;

    memset(m, 0, sizeof(*m));

    if (behave_gw_events_parse(events, path, &ev, &n, err) != BEHAVE_OK) {
        return err->err;
    }

    if (behave_gw_events_parse_lenient(prior, &pev, &nprior) != 0) {
        free(ev);
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    rc = behave_gw_session_apply(s, pev, nprior, 0, NULL);
    accepted = s->accepted;

    if (rc == 0) {
        rc = behave_gw_session_apply(s, ev, n, 0, NULL);
    }

    if (rc == 0) {
        rc = behave_gw_session_measure(s, m);
    }

    m->prior_events = accepted;
    m->new_events = s->accepted;

    free(pev);
    free(ev);

    if (rc != 0) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    return BEHAVE_OK;
}


/* the request's validated events, for the two ways of storing them */
static behave_err_e
behave_gw_behavior_events(const cJSON *req, behave_gw_event_t **ev,
    size_t *n, behave_error_t *err)
{
    int64_t       ts;
    const char   *sid;
    const cJSON  *events;

    if (behave_gw_behavior_fields(req, 0, &ts, &sid, &events, err)
        != BEHAVE_OK)
    {
        return err->err;
    }

    return behave_gw_events_parse(events, "interaction_history", ev, n, err);
}


/*
 * What the request's events are made into, their array freed after: the
 * batch a call appends, or the stored form of at most max_events of them
 * (stored set).
 */
static behave_err_e
behave_gw_events_made(const cJSON *req, size_t max_events, char **batch,
    size_t *len, cJSON **stored, behave_error_t *err)
{
    int                 made;
    size_t              n;
    behave_gw_event_t  *ev;

    if (stored != NULL) {
        *stored = NULL;

    } else {
        *batch = NULL;
    }

    if (behave_gw_behavior_events(req, &ev, &n, err) != BEHAVE_OK) {
        return err->err;
    }

    if (stored != NULL) {
        *stored = behave_gw_events_reduced(ev, n, max_events);
        made = *stored != NULL;

    } else {
        *batch = behave_gw_batch_encode(ev, n, len);
        made = *batch != NULL;
    }

    free(ev);

    if (!made) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    return BEHAVE_OK;
}


behave_err_e
behave_gw_behavior_batch(const cJSON *req, char **batch, size_t *len,
    behave_error_t *err)
{
    return behave_gw_events_made(req, 0, batch, len, NULL, err);
}


/*
 * The answer of a call whose batch the glue appended to the stored
 * state (the state as it was before, NULL without one): the state's
 * batches are applied as their calls applied them, then this one.  As a
 * tree (resp, no "history"), or as text with the history's member.
 */
static behave_err_e
behave_gw_behavior_answer(const cJSON *req, int64_t now_ms,
    const char *state, size_t state_len, const char *batch, size_t batch_len,
    uint64_t epoch, const char *history, cJSON **resp, char **text,
    size_t *len, behave_gw_rewrite_t *rw, behave_error_t *err)
{
    int                    made;
    int64_t                ts;
    const char            *sid;
    behave_gw_behavior_t   m;

    if (resp != NULL) {
        *resp = NULL;

    } else {
        *text = NULL;
    }

    if (behave_gw_behavior_run(req, now_ms, state, state_len, batch,
                               batch_len, epoch, &sid, &ts, &m, rw, err)
        != BEHAVE_OK)
    {
        return err->err;
    }

    if (resp != NULL) {
        *resp = behave_gw_behavior_json(sid, &m, ts);
        made = *resp != NULL;

    } else {
        *text = behave_gw_behavior_text(sid, &m, ts,
                                        rw->reset ? "request_only" : history,
                                        len);
        made = *text != NULL;
    }

    if (!made) {
        free(rw->blob);
        free(rw->hot);
        rw->blob = NULL;
        rw->hot = NULL;
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    return BEHAVE_OK;
}


behave_err_e
behave_gw_behavior_session(const cJSON *req, int64_t now_ms,
    const char *state, size_t state_len, const char *batch, size_t batch_len,
    uint64_t epoch, cJSON **resp, behave_gw_rewrite_t *rw,
    behave_error_t *err)
{
    return behave_gw_behavior_answer(req, now_ms, state, state_len, batch,
                                     batch_len, epoch, NULL, resp, NULL,
                                     NULL, rw, err);
}


behave_err_e
behave_gw_behavior_session_text(const cJSON *req, int64_t now_ms,
    const char *state, size_t state_len, const char *batch, size_t batch_len,
    uint64_t epoch, const char *history, char **text, size_t *len,
    behave_gw_rewrite_t *rw, behave_error_t *err)
{
    return behave_gw_behavior_answer(req, now_ms, state, state_len, batch,
                                     batch_len, epoch, history, NULL, text,
                                     len, rw, err);
}


/* the measures of a call over the state read, and the rewrite if due */
static behave_err_e
behave_gw_behavior_run(const cJSON *req, int64_t now_ms, const char *state,
    size_t state_len, const char *batch, size_t batch_len, uint64_t epoch,
    const char **sid, int64_t *ts, behave_gw_behavior_t *m,
    behave_gw_rewrite_t *rw, behave_error_t *err)
{
    int                    rc, hot;
    size_t                 n, used, blob_len, batches, prior, base, head,
                           full_max;
    const cJSON           *events;
    behave_gw_event_t     *ev;
    behave_gw_session_t    s;

    memset(rw, 0, sizeof(*rw));

    if (behave_gw_behavior_fields(req, now_ms, ts, sid, &events, err)
        != BEHAVE_OK)
    {
        return err->err;
    }

    behave_gw_session_init(&s, epoch);
    blob_len = 0;
    batches = 0;
    base = 0;
    full_max = 0;
    hot = state != NULL && state_len > 0
          && state[0] == BEHAVE_GW_HOT_LAYOUT_MAGIC[0];
    head = hot ? BEHAVE_GW_HOT_HEAD : 0;

    if (state != NULL) {
        rc = -1;

        if (state_len >= head) {
            if (hot) {
                base = behave_gw_get_le(state + BEHAVE_GW_HOT_LAYOUT_AT_BASE,
                                        BEHAVE_GW_HOT_LAYOUT_W_BASE);
                full_max = behave_gw_get_le(state
                                            + BEHAVE_GW_HOT_LAYOUT_AT_FULL_MAX,
                                            BEHAVE_GW_HOT_LAYOUT_W_FULL_MAX);
            }

            rc = behave_gw_session_decode(&s, state + head,
                                          state_len - head, &blob_len,
                                          &batches);
        }

        if (rc == -2) {
            goto oom;
        }

        if (rc == -1) {
            /* damaged: replaced by this call's events alone */
            behave_gw_session_init(&s, epoch);
            rw->reset = 1;
            rw->drop_hot = hot;
        }
    }

    prior = s.fold.events + s.nwin;

    if (behave_gw_batch_decode(batch, batch_len, &used, &ev, &n) != 0) {
        goto oom;
    }

    if (behave_gw_session_apply(&s, ev, n, 1, NULL) != 0
        || behave_gw_session_measure(&s, m) != 0)
    {
        free(ev);
        goto oom;
    }

    free(ev);

    m->prior_events = prior;
    m->new_events = s.accepted;
    m->late_events = s.late;

    if (state == NULL || (hot && rw->reset)) {
        behave_gw_session_free(&s);
        return BEHAVE_OK;
    }

    /*
     * Batches pile up behind the blob until one call writes it again,
     * with its checkpoint moved up to the newest events.  A checkpoint
     * lost to an earlier event waits for that too: events that keep
     * coming out of order would otherwise cost a rewrite every call.
     * A call that read the full state writes it at once when it can
     * give the hot state, so that the next calls read that instead.
     */
    rc = 0;

    if (hot) {
        if (s.ck && (batches + 1 >= BEHAVE_GW_REWRITE_BATCHES
                     || state_len - head - blob_len + batch_len
                        > BEHAVE_GW_REWRITE_BYTES))
        {
            s.gen++;
            rc = behave_gw_session_checkpoint(&s);
            rw->hot = rc == 0 ? behave_gw_hot_encode(&s, base, full_max,
                                                     &rw->hot_len)
                              : NULL;
            rw->hot_consumed = state_len + batch_len;
            rc = rw->hot == NULL ? -1 : 0;
        }

    } else if (behave_gw_session_checkpoint(&s) != 0) {
        rc = -1;

    } else if (s.ck || rw->reset || s.cut
               || batches + 1 >= BEHAVE_GW_REWRITE_BATCHES
               || state_len - blob_len + batch_len > BEHAVE_GW_REWRITE_BYTES)
    {
        s.gen++;
        rw->blob = behave_gw_session_encode(&s, &rw->len);
        rw->consumed = state_len + batch_len;
        rc = rw->blob == NULL ? -1 : 0;

        if (rc == 0 && s.ck) {
            rw->hot = behave_gw_hot_encode(&s, 0,
                                           rw->len + BEHAVE_GW_HOT_LAG,
                                           &rw->hot_len);
            rc = rw->hot == NULL ? -1 : 0;
        }
    }

    if (rc != 0) {
        free(rw->blob);
        free(rw->hot);
        rw->blob = NULL;
        rw->hot = NULL;
        goto oom;
    }

    behave_gw_session_free(&s);

    return BEHAVE_OK;

oom:

    behave_gw_session_free(&s);
    return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
}


/*
 * The hot state of s (which has a checkpoint): "G", then room: the
 * length the hot state may reach with the batches appended to it (an
 * event is 9 bytes at least), then gate: the time from which events
 * keep the checkpoint, then base: how many of the full window's events
 * come before the view's, then full_max: the length past which the full
 * state is read again (and rewritten: it only grows behind the hot
 * one), then the frontier; then the view's blob
 * (behave_gw_session_view()).  The glue's script appends a batch to the
 * hot state only when the batch fits in the room and its first
 * (earliest) event is at the gate or later, or its last is before the
 * frontier (all late: the full state does not change).
 *
 * The room keeps the view at most BEHAVE_GW_WINDOW events and the full
 * window at most BEHAVE_GW_WINDOW_FLOOD: a settle of the full state then
 * cuts before the checkpoint (it keeps BEHAVE_GW_WINDOW events), so its
 * frontier stays at or below the gate and the full state decides every
 * event past the gate as the hot one does (docs/DESIGN.md).
 */
static char *
behave_gw_hot_encode(const behave_gw_session_t *s, size_t base,
    size_t full_max, size_t *len)
{
    char                 *blob, *out;
    size_t                blen, total, room, nwin, free_view, free_full;
    uint64_t              u;
    unsigned char        *p;
    behave_gw_session_t   v;

    if (behave_gw_session_view(s, &v) != 0) {
        behave_gw_session_free(&v);
        return NULL;
    }

    blob = behave_gw_session_encode(&v, &blen);
    out = blob ? malloc(BEHAVE_GW_HOT_HEAD + blen) : NULL;

    if (out == NULL) {
        behave_gw_session_free(&v);
        free(blob);
        return NULL;
    }

    base += s->ck_at;
    nwin = base + v.nwin;
    total = BEHAVE_GW_HOT_HEAD + blen;
    free_view = v.nwin < BEHAVE_GW_WINDOW ? BEHAVE_GW_WINDOW - v.nwin : 0;
    free_full = nwin < BEHAVE_GW_WINDOW_FLOOD
                ? BEHAVE_GW_WINDOW_FLOOD - nwin : 0;
    room = free_view && free_full
           ? total + 9 * (free_view < free_full ? free_view : free_full) : 0;

    p = (unsigned char *) out;
    /* behave_gw_hot.layout */
    p[BEHAVE_GW_HOT_LAYOUT_AT_MAGIC] = BEHAVE_GW_HOT_LAYOUT_MAGIC[0];
    behave_gw_put_le(p + BEHAVE_GW_HOT_LAYOUT_AT_ROOM, room,
                     BEHAVE_GW_HOT_LAYOUT_W_ROOM);
    memcpy(&u, &v.ck_t, sizeof(u));
    behave_gw_put_le(p + BEHAVE_GW_HOT_LAYOUT_AT_GATE, u,
                     BEHAVE_GW_HOT_LAYOUT_W_GATE);
    behave_gw_put_le(p + BEHAVE_GW_HOT_LAYOUT_AT_BASE, base,
                     BEHAVE_GW_HOT_LAYOUT_W_BASE);
    behave_gw_put_le(p + BEHAVE_GW_HOT_LAYOUT_AT_FULL_MAX, full_max,
                     BEHAVE_GW_HOT_LAYOUT_W_FULL_MAX);
    memcpy(&u, &v.frontier, sizeof(u));
    behave_gw_put_le(p + BEHAVE_GW_HOT_LAYOUT_AT_FRONTIER, u,
                     BEHAVE_GW_HOT_LAYOUT_W_FRONTIER);
    memcpy(out + BEHAVE_GW_HOT_HEAD, blob, blen);

    behave_gw_session_free(&v);
    free(blob);

    *len = total;
    return out;
}


static void
behave_gw_put_le(unsigned char *p, uint64_t v, size_t size)
{
    size_t  i;

    for (i = 0; i < size; i++) {
        p[i] = (unsigned char) ((v >> (8 * i)) & 0xff);
    }
}


static size_t
behave_gw_get_le(const char *state, size_t size)
{
    size_t                i, v;
    const unsigned char  *p = (const unsigned char *) state;

    v = 0;

    for (i = 0; i < size; i++) {
        v |= (size_t) p[i] << (8 * i);
    }

    return v;
}


int
behave_gw_batch_last_t(const char *batch, size_t len, char *t)
{
    size_t              i, n, used;
    double              last;
    uint64_t            u;
    behave_gw_event_t  *ev;

    if (behave_gw_batch_decode(batch, len, &used, &ev, &n) != 0) {
        return -1;
    }

    last = -INFINITY;

    for (i = 0; i < n; i++) {
        last = fmax(last, ev[i].t);
    }

    free(ev);

    if (n == 0) {
        return -1;
    }

    memcpy(&u, &last, sizeof(u));
    behave_gw_put_le((unsigned char *) t, u, 8);

    return 0;
}


char *
behave_gw_behavior_new_state(uint64_t epoch, size_t *len)
{
    behave_gw_session_t  s;

    behave_gw_session_init(&s, epoch);
    return behave_gw_session_encode(&s, len);
}


/*
 * An older build's history (a list of stored JSON events, in the order
 * they were stored) as one batch: the state it seeds.
 */
char *
behave_gw_behavior_seed(const cJSON *prior, uint64_t epoch, size_t *len)
{
    int                  rc;
    char                *blob;
    size_t               n;
    behave_gw_event_t   *ev;
    behave_gw_session_t  s;

    if (behave_gw_events_parse_lenient(prior, &ev, &n) != 0) {
        return NULL;
    }

    behave_gw_session_init(&s, epoch);
    rc = behave_gw_session_apply(&s, ev, n, 1, NULL);

    if (rc == 0) {
        rc = behave_gw_session_checkpoint(&s);
    }

    blob = rc == 0 ? behave_gw_session_encode(&s, len) : NULL;

    behave_gw_session_free(&s);
    free(ev);

    return blob;
}


behave_err_e
behave_gw_behavior_store(const cJSON *req, size_t max_events, cJSON **out,
    behave_error_t *err)
{
    return behave_gw_events_made(req, max_events, NULL, NULL, out, err);
}


cJSON *
behave_gw_behavior_history(const cJSON *req, const cJSON *prior_events,
    size_t max_events)
{
    cJSON                *arr;
    size_t                i, n, j;
    behave_error_t        err;
    behave_gw_session_t   s;
    behave_gw_behavior_t  m;
    behave_gw_event_t    *ev;

    behave_gw_session_init(&s, 0);

    if (behave_gw_merge(
            cJSON_GetObjectItemCaseSensitive(req, "interaction_history"),
            "interaction_history", prior_events, &s, &m, &err)
        != BEHAVE_OK)
    {
        /* the request did not validate: store nothing new */
        behave_gw_session_free(&s);
        return cJSON_CreateArray();
    }

    /* nothing settled: the window is every event, in time order */
    n = s.nwin;
    ev = s.win;

    for (i = 0, j = 0; i < n; i++) {
        ev[j] = ev[i];
        ev[j++].consumed = 0;
    }

    arr = behave_gw_events_reduced(ev, j, max_events);
    behave_gw_session_free(&s);

    return arr;
}


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


/* the last max_events of ev in the stored form; NULL when out of memory */
static cJSON *
behave_gw_events_reduced(const behave_gw_event_t *ev, size_t n,
    size_t max_events)
{
    size_t   i, first;
    cJSON   *arr, *e;

    arr = cJSON_CreateArray();
    if (arr == NULL) {
        return NULL;
    }

    max_events = max_events < BEHAVE_GW_EVENTS_MAX
                 ? max_events : BEHAVE_GW_EVENTS_MAX;
    first = n > max_events ? n - max_events : 0;

    for (i = first; i < n; i++) {
        e = behave_gw_event_json(&ev[i]);

        /* appending is O(1): cJSON keeps the last item in child->prev */
        if (!cJSON_AddItemToArray(arr, e)) {
            cJSON_Delete(arr);
            return NULL;
        }
    }

    return arr;
}


behave_err_e
behave_gw_events_parse(const cJSON *events, const char *path,
    behave_gw_event_t **ev, size_t *n, behave_error_t *err)
{
    size_t        i, nnew;
    const cJSON  *item;

    *n = 0;
    nnew = (size_t) cJSON_GetArraySize(events);

    if (nnew > BEHAVE_GW_EVENTS_MAX) {
        *ev = NULL;
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"%s\" has %zu events, at most %d are "
                                "accepted", path, nnew, BEHAVE_GW_EVENTS_MAX);
    }

    *ev = malloc((nnew + 1) * sizeof(behave_gw_event_t));
    if (*ev == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    i = 0;

    cJSON_ArrayForEach(item, events) {
        if (behave_gw_event_parse(item, &(*ev)[i], path, i, err) != 0) {
            free(*ev);
            *ev = NULL;
            return err->err;
        }

        (*ev)[i].seq = i;
        i++;
    }

    *n = i;
    behave_gw_events_sort(*ev, *n);

    return BEHAVE_OK;
}


int
behave_gw_events_parse_lenient(const cJSON *events, behave_gw_event_t **ev,
    size_t *n)
{
    size_t          i, count;
    const cJSON    *item;
    behave_error_t  err;

    *n = 0;
    count = cJSON_IsArray(events) ? (size_t) cJSON_GetArraySize(events) : 0;

    *ev = malloc((count + 1) * sizeof(behave_gw_event_t));
    if (*ev == NULL) {
        return -1;
    }

    i = 0;
    item = count ? events->child : NULL;

    for ( /* void */ ; item != NULL; item = item->next) {
        if (behave_gw_event_parse(item, &(*ev)[*n], "prior", i, &err) == 0) {
            (*ev)[*n].seq = *n;
            (*n)++;
        }

        i++;
    }

    behave_gw_events_sort(*ev, *n);

    return 0;
}


/*
 * An event is checked first without its path (formatting "path[i]" for
 * every event of every call cost more than the checks): only an event
 * that is refused is checked again with it, for the message.
 */
static int
behave_gw_event_parse(const cJSON *item, behave_gw_event_t *e,
    const char *path, size_t i, behave_error_t *err)
{
    char  p[64];

    if (behave_gw_event_check(item, e, "", err) == 0) {
        return 0;
    }

    snprintf(p, sizeof(p), "%s[%zu]", path, i);

    return behave_gw_event_check(item, e, p, err);
}


static int
behave_gw_event_check(const cJSON *item, behave_gw_event_t *e,
    const char *p, behave_error_t *err)
{
    int           k;
    const char   *type;

    memset(e, 0, sizeof(*e));
    e->duration = -1.0;

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

    e->target_len = e->target ? strlen(e->target) : 0;

    return 0;

bad_type:

    behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                     "field \"%s.type\" must be one of keystroke, backspace, "
                     "pause, click, hover, scroll, focus, blur, submit, "
                     "error", p);
    return -1;
}



/*
 * A reason, written piece by piece as snprintf() would (truncated to the
 * buffer, NUL-terminated): its "%.2f" alone cost ~2k instructions, and
 * the rules that fire write one to three of them at every call.
 */
typedef struct {
    char    *p;
    char    *last;                   /* where the NUL goes at the latest */
} behave_gw_why_t;


static void
behave_gw_why_init(behave_gw_why_t *y, char *reason, size_t size)
{
    y->p = reason;
    y->last = reason + size - 1;
    *y->p = '\0';
}


static void
behave_gw_why_put(behave_gw_why_t *y, const char *s, size_t n)
{
    if (n > (size_t) (y->last - y->p)) {
        n = (size_t) (y->last - y->p);
    }

    memcpy(y->p, s, n);
    y->p += n;
    *y->p = '\0';
}


static void
behave_gw_why_str(behave_gw_why_t *y, const char *s)
{
    behave_gw_why_put(y, s, strlen(s));
}


static void
behave_gw_why_uint(behave_gw_why_t *y, unsigned v)
{
    char  buf[16], *p;

    p = buf + sizeof(buf);

    do {
        *--p = (char) ('0' + v % 10);
        v /= 10;
    } while (v);

    behave_gw_why_put(y, p, (size_t) (buf + sizeof(buf) - p));
}


static void
behave_gw_why_fixed(behave_gw_why_t *y, double v, unsigned decimals)
{
    char  buf[32];

    behave_gw_why_put(y, buf, behave_json_fixed(buf, v, decimals));
}


/* a measure's value (a plural or a target reads as 0) */
static double
behave_gw_measure(const behave_gw_behavior_t *m, const behave_gw_measure_t *x)
{
    const char  *p;

    p = (const char *) m + x->off;

    switch (x->kind) {

    case BEHAVE_GW_M_COUNT:
        return *(const unsigned *) p;

    case BEHAVE_GW_M_REAL:
        return *(const double *) p;

    case BEHAVE_GW_M_KEYS:
        return m->keystrokes + m->backspaces;

    default:
        return 0;
    }
}


static void
behave_gw_why_measure(behave_gw_why_t *y, const behave_gw_behavior_t *m,
    const behave_gw_measure_t *x)
{
    const char  *p, *target;

    p = (const char *) m + x->off;

    switch (x->kind) {

    case BEHAVE_GW_M_COUNT:
    case BEHAVE_GW_M_KEYS:
        behave_gw_why_uint(y, (unsigned) behave_gw_measure(m, x));
        break;

    case BEHAVE_GW_M_REAL:
        behave_gw_why_fixed(y, *(const double *) p, x->decimals);
        break;

    case BEHAVE_GW_M_PLURAL:
        if (*(const unsigned *) p != 1) {
            behave_gw_why_str(y, "s");
        }

        break;

    case BEHAVE_GW_M_TARGET:
        target = *(const char *const *) p;

        if (target != NULL) {
            behave_gw_why_str(y, " on ");
            behave_gw_why_str(y, target);
        }

        break;
    }
}


static int
behave_gw_rule_fires(const behave_gw_rule_t *rule,
    const behave_gw_behavior_t *m)
{
    size_t  i;

    if (rule->fires != NULL) {
        return rule->fires(m);
    }

    for (i = 0; i < 2 && rule->at_least[i].kind != BEHAVE_GW_M_NONE; i++) {
        if (behave_gw_measure(m, &rule->at_least[i]) < rule->floor[i]) {
            return 0;
        }
    }

    return 1;
}


static void
behave_gw_rule_why(const behave_gw_rule_t *rule,
    const behave_gw_behavior_t *m, char *reason, size_t size)
{
    size_t           i;
    behave_gw_why_t  y;

    behave_gw_why_init(&y, reason, size);

    for (i = 0; i < BEHAVE_GW_PIECES && rule->why[i].text != NULL; i++) {
        behave_gw_why_str(&y, rule->why[i].text);
        behave_gw_why_measure(&y, m, &rule->why[i].m);
    }

    behave_gw_why_str(&y, rule->why_end);
}


static int
behave_gw_rule_attention(const behave_gw_behavior_t *m)
{
    return m->observed_s >= 60.0
           && (m->focus_ratio < 0.6 || m->sustained_focus_s < 20.0);
}


static int
behave_gw_rule_assist(const behave_gw_behavior_t *m)
{
    return m->friction >= 0.7 || m->hesitation >= 0.8;
}


/*
 * The answer as text, written directly (no cJSON tree to build, print
 * and free: about a third of a call's instructions went to that); with
 * history, its "history" member last.  NULL when out of memory.
 */
static char *
behave_gw_behavior_text(const char *session_id, const behave_gw_behavior_t *m,
    int64_t ts, const char *history, size_t *len)
{
    char         reason[160];
    size_t       i;
    behave_jw_t  w;

    if (!behave_jw_init(&w, 2048)) {
        return NULL;
    }

    behave_jw_open(&w, NULL);
    behave_jw_string(&w, "session_id", session_id);
    behave_jw_fixed3(&w, "hesitation_score", m->hesitation);

    behave_jw_open(&w, "attention_span");
    behave_jw_fixed3(&w, "sustained_focus_seconds",
                     m->sustained_focus_s);
    behave_jw_fixed3(&w, "mean_focus_seconds",
                     m->mean_focus_s);
    behave_jw_fixed3(&w, "focus_ratio", m->focus_ratio);
    behave_jw_uint(&w, "blur_count", m->blurs);
    behave_jw_uint(&w, "idle_gaps", m->idle_gaps);
    behave_jw_close(&w);

    behave_jw_fixed3(&w, "cognitive_friction", m->friction);

    behave_jw_open_array(&w, "adaptation_suggestions");

    for (i = 0; i < sizeof(behave_gw_rules) / sizeof(behave_gw_rules[0]);
         i++)
    {
        if (!behave_gw_rule_fires(&behave_gw_rules[i], m)) {
            continue;
        }

        behave_gw_rule_why(&behave_gw_rules[i], m, reason, sizeof(reason));

        /* the id and the suggestion are this file's: nothing to escape */
        behave_jw_open(&w, NULL);
        behave_jw_literal(&w, "\"id\":");
        behave_jw_value_label(&w, behave_gw_rules[i].id);
        behave_jw_literal(&w, ",\"suggestion\":");
        behave_jw_value_label(&w, behave_gw_rules[i].suggestion);
        behave_jw_member_done(&w);
        behave_jw_string(&w, "reason", reason);
        behave_jw_close(&w);
    }

    behave_jw_close_array(&w);

    behave_jw_open(&w, "signals");
    behave_jw_uint(&w, "long_pauses", m->long_pauses);
    behave_jw_uint(&w, "pauses_before_commit", m->pauses_before_commit);
    behave_jw_fixed3(&w, "pause_seconds", m->pause_s);
    behave_jw_fixed3(&w, "hover_without_click_seconds",
                     m->hover_unclicked_s);
    behave_jw_uint(&w, "keystrokes", m->keystrokes);
    behave_jw_uint(&w, "backspaces", m->backspaces);
    behave_jw_fixed3(&w, "backspace_ratio", m->backspace_ratio);
    behave_jw_uint(&w, "errors", m->errors);
    behave_jw_uint(&w, "clicks", m->clicks);
    behave_jw_uint(&w, "rage_click_bursts", m->rage_bursts);
    behave_jw_uint(&w, "scrolls", m->scrolls);
    behave_jw_uint(&w, "scroll_reversals", m->scroll_reversals);
    behave_jw_close(&w);

    behave_jw_uint(&w, "events_analyzed", m->events);
    behave_jw_uint(&w, "events_new", m->new_events);
    behave_jw_uint(&w, "events_prior", m->prior_events);
    behave_jw_uint(&w, "events_late", m->late_events);
    behave_jw_fixed3(&w, "observed_seconds", m->observed_s);
    behave_jw_string(&w, "model_id", BEHAVE_GW_BEHAVIOR_MODEL);

    /* the general number writer formats 13 digits through snprintf() */
    if (ts >= 0) {
        behave_jw_uint(&w, "timestamp", (uint64_t) ts);

    } else {
        behave_jw_number(&w, "timestamp", (double) ts);
    }

    if (history != NULL) {
        behave_jw_string(&w, "history", history);
    }

    behave_jw_close(&w);

    return behave_jw_finish(&w, len);
}


/* the same answer as a tree (no "history"), for the callers of a tree */
static cJSON *
behave_gw_behavior_json(const char *session_id, const behave_gw_behavior_t *m,
    int64_t ts)
{
    char    *text;
    size_t   len;
    cJSON   *root;

    text = behave_gw_behavior_text(session_id, m, ts, NULL, &len);
    if (text == NULL) {
        return NULL;
    }

    root = cJSON_ParseWithLength(text, len);
    free(text);

    return root;
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
