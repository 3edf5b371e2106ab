/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * analyze-behavior's measures (hesitation, hover, attention, friction,
 * rage clicks) as one fold over the events in time order: one step per
 * event, the context carrying what earlier events left behind.  Each
 * accumulator adds in the events' order, so folding a session in any
 * number of pieces gives the same bits as folding it at once.  The
 * constants are in docs/API.md (Surface A); keep them in step.
 */

#include <math.h>
#include <string.h>

#include "gateway/behave_gw_session.h"


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


static void behave_gw_fold_hesitation(behave_gw_fold_t *f,
    const behave_gw_event_t *ev, size_t i, size_t n);
static double behave_gw_fold_hover(behave_gw_fold_t *f,
    const behave_gw_event_t *ev, size_t i, size_t n);
static void behave_gw_fold_attention(behave_gw_fold_t *f,
    const behave_gw_event_t *e);
static void behave_gw_fold_friction(behave_gw_fold_t *f,
    const behave_gw_event_t *e);
static double behave_gw_fold_rage(behave_gw_fold_t *f, behave_gw_event_t *ev,
    size_t i, size_t n);
static double behave_gw_after(double x, double w);
static int behave_gw_target_eq(const behave_gw_event_t *a,
    const behave_gw_event_t *b);


void
behave_gw_fold_init(behave_gw_fold_t *f)
{
    memset(f, 0, sizeof(*f));
    f->focused = 1;
}


double
behave_gw_fold_step(behave_gw_fold_t *f, behave_gw_event_t *ev, size_t i,
    size_t n)
{
    double  need, h;

    if (!f->started) {
        f->started = 1;
        f->first_t = ev[i].t;
        f->start = ev[i].t;
    }

    behave_gw_fold_hesitation(f, ev, i, n);
    need = behave_gw_fold_hover(f, ev, i, n);
    behave_gw_fold_attention(f, &ev[i]);
    behave_gw_fold_friction(f, &ev[i]);
    h = behave_gw_fold_rage(f, ev, i, n);

    f->has_prev = 1;
    f->prev_t = ev[i].t;
    f->prev_type = ev[i].type;
    f->events++;

    return fmax(need, h);
}


/*
 * Long pauses: pause events of 2 s or more, and silent gaps of 2..30 s
 * between two other events (longer gaps are idleness, not hesitation;
 * gaps while the page is blurred are absence).  A pause right before a
 * click or a submit is a pause before commit and counts twice.
 */
static void
behave_gw_fold_hesitation(behave_gw_fold_t *f, const behave_gw_event_t *ev,
    size_t i, size_t n)
{
    size_t                    next;
    double                    d;
    const behave_gw_event_t  *e = &ev[i];

    d = 0.0;
    next = i;

    if (e->type == BEHAVE_GW_EV_PAUSE) {
        d = e->duration >= 0 ? e->duration
            : (i + 1 < n ? ev[i + 1].t - e->t : 0.0);
        next = i + 1;

    } else if (f->has_prev && !f->blurred
               && f->prev_type != BEHAVE_GW_EV_PAUSE
               && e->t - f->prev_t < BEHAVE_GW_IDLE_MS)
    {
        d = e->t - f->prev_t;
    }

    f->blurred = e->type == BEHAVE_GW_EV_BLUR
                 || (f->blurred && e->type != BEHAVE_GW_EV_FOCUS);

    f->keystrokes += e->type == BEHAVE_GW_EV_KEYSTROKE;
    f->backspaces += e->type == BEHAVE_GW_EV_BACKSPACE;

    if (d < BEHAVE_GW_LONG_PAUSE_MS) {
        return;
    }

    d = fmin(d, BEHAVE_GW_PAUSE_CAP_MS) / 1000.0;
    f->long_pauses++;
    f->pause_s += d;

    if (next < n && (ev[next].type == BEHAVE_GW_EV_CLICK
                     || ev[next].type == BEHAVE_GW_EV_SUBMIT))
    {
        f->pauses_before_commit++;
        f->pause_before_commit_s += d;
    }
}


/*
 * Hover dwell without a click: a hover of 0.5 s or more (its duration,
 * else the time to the next event, at most 10 s) with no click on the
 * same target before it ends plus 3 s.  Until then a later click may
 * still come: the step is final only for events from past that end.
 */
static double
behave_gw_fold_hover(behave_gw_fold_t *f, const behave_gw_event_t *ev,
    size_t i, size_t n)
{
    int                       clicked;
    size_t                    j;
    double                    dwell, end;
    const behave_gw_event_t  *e = &ev[i];

    if (e->type != BEHAVE_GW_EV_HOVER) {
        return -INFINITY;
    }

    dwell = e->duration >= 0 ? e->duration
            : (i + 1 < n ? ev[i + 1].t - e->t : 0.0);
    dwell = fmin(dwell, BEHAVE_GW_HOVER_CAP_MS);

    if (dwell < BEHAVE_GW_HOVER_MIN_MS) {
        return -INFINITY;
    }

    end = e->t + dwell + BEHAVE_GW_HOVER_CLICK_MS;
    clicked = 0;

    for (j = i + 1; j < n && ev[j].t <= end && !clicked; j++) {
        clicked = ev[j].type == BEHAVE_GW_EV_CLICK
                  && (e->target == NULL || behave_gw_target_eq(e, &ev[j]));
    }

    if (clicked) {
        return -INFINITY;
    }

    f->hover_unclicked_s += dwell / 1000.0;

    return nextafter(end, INFINITY);
}


/*
 * Focus stretches: from the start, a focus event or the first event
 * after a blur, to the next blur or idle gap (30 s without an event) or
 * the end (behave_gw_fold_finish() closes the open one).  Events other
 * than focus after a blur mean the user is back.
 */
static void
behave_gw_fold_attention(behave_gw_fold_t *f, const behave_gw_event_t *e)
{
    double  span;

    if (f->focused && f->has_prev && e->t - f->prev_t >= BEHAVE_GW_IDLE_MS) {
        f->idle_gaps++;
        span = f->prev_t - f->start;
        f->focused_s += span / 1000.0;
        f->sustained_focus_s = fmax(f->sustained_focus_s, span / 1000.0);
        f->spans++;
        f->start = e->t;
    }

    if (e->type == BEHAVE_GW_EV_BLUR) {
        f->blurs++;

        if (f->focused) {
            span = e->t - f->start;
            f->focused_s += span / 1000.0;
            f->sustained_focus_s = fmax(f->sustained_focus_s, span / 1000.0);
            f->spans++;
            f->focused = 0;
        }

    } else if (!f->focused) {
        f->focused = 1;
        f->start = e->t;
    }
}


/*
 * Friction's counts and scroll reversals (a scroll whose delta changes
 * sign within 3 s of the previous scroll).
 */
static void
behave_gw_fold_friction(behave_gw_fold_t *f, const behave_gw_event_t *e)
{
    f->errors += e->type == BEHAVE_GW_EV_ERROR;
    f->clicks += e->type == BEHAVE_GW_EV_CLICK;

    if (e->type != BEHAVE_GW_EV_SCROLL) {
        return;
    }

    f->scrolls++;

    if (f->has_scroll) {
        f->scroll_gaps += e->t - f->scroll_t;

        if (e->t - f->scroll_t <= BEHAVE_GW_SCROLL_PAIR_MS
            && e->delta * f->scroll_delta < 0.0)
        {
            f->scroll_reversals++;
        }
    }

    f->has_scroll = 1;
    f->scroll_t = e->t;
    f->scroll_delta = e->delta;
}


/*
 * A burst: 3 or more clicks on the same target (a click without a
 * target matches other clicks without one) within 1 s of its first
 * click; it goes on while the next click on that target comes within
 * 1 s, and each burst counts once.  The scan ahead is bounded so that a
 * flood of same-millisecond clicks stays linear.  The step is final for
 * events from 1 s past the click, or past the burst's last click.
 */
static double
behave_gw_fold_rage(behave_gw_fold_t *f, behave_gw_event_t *ev, size_t i,
    size_t n)
{
    size_t    j, seen;
    unsigned  count;
    double    last;

    if (ev[i].type != BEHAVE_GW_EV_CLICK || ev[i].consumed) {
        return -INFINITY;
    }

    count = 1;
    seen = 0;

    for (j = i + 1; j < n && ev[j].t - ev[i].t <= BEHAVE_GW_RAGE_MS
                    && seen < BEHAVE_GW_RAGE_SCAN; j++)
    {
        if (ev[j].type == BEHAVE_GW_EV_CLICK) {
            seen++;
            count += behave_gw_target_eq(&ev[i], &ev[j]);
        }
    }

    if (count < BEHAVE_GW_RAGE_CLICKS) {
        return behave_gw_after(ev[i].t, BEHAVE_GW_RAGE_MS);
    }

    f->rage_bursts++;

    /* the first burst that names a target */
    if (!f->has_rage && ev[i].target != NULL) {
        f->has_rage = 1;
        f->rage_len = ev[i].target_len;
        memcpy(f->rage, ev[i].target, ev[i].target_len);
    }

    last = ev[i].t;

    for (j = i + 1; j < n && ev[j].t - last <= BEHAVE_GW_RAGE_MS; j++) {
        if (ev[j].type == BEHAVE_GW_EV_CLICK
            && behave_gw_target_eq(&ev[i], &ev[j]))
        {
            ev[j].consumed = 1;
            last = ev[j].t;
        }
    }

    return behave_gw_after(last, BEHAVE_GW_RAGE_MS);
}


/* a time from which every later t has t - x > w, as the steps compute */
static double
behave_gw_after(double x, double w)
{
    double  t;

    t = x + w;

    while (t - x <= w) {
        t = nextafter(t, INFINITY);
    }

    return t;
}


void
behave_gw_fold_finish(const behave_gw_fold_t *f, behave_gw_behavior_t *m)
{
    unsigned  spans;
    double    keys, span, h_pause, h_hover, h_back, f_err, f_rage,
              f_scroll;

    memset(m, 0, sizeof(*m));

    m->events = f->events;
    m->observed_s = f->started ? (f->prev_t - f->first_t) / 1000.0 : 0.0;

    m->long_pauses = f->long_pauses;
    m->pauses_before_commit = f->pauses_before_commit;
    m->pause_s = f->pause_s;
    m->pause_before_commit_s = f->pause_before_commit_s;
    m->hover_unclicked_s = f->hover_unclicked_s;
    m->keystrokes = f->keystrokes;
    m->backspaces = f->backspaces;

    keys = (double) (m->keystrokes + m->backspaces);
    m->backspace_ratio = keys > 0 ? m->backspaces / keys : 0.0;

    /*
     * Each part saturates (20 s of weighted pauses, 10 s of unclicked
     * hover, half the keys deleted over 10+ keys) and any one can raise
     * the score: 1 - (1 - 0.9 pause)(1 - 0.7 hover)(1 - 0.7 backspace).
     */
    h_pause = 1.0 - exp(-(m->pause_s + m->pause_before_commit_s) / 20.0);
    h_hover = 1.0 - exp(-m->hover_unclicked_s / 10.0);

    /* a ratio over a handful of keys says little */
    h_back = fmin(1.0, m->backspace_ratio / 0.5) * fmin(1.0, keys / 10.0);

    m->hesitation = 1.0 - (1.0 - 0.9 * h_pause) * (1.0 - 0.7 * h_hover)
                          * (1.0 - 0.7 * h_back);

    /* attention: the open span ends at the last event */
    m->blurs = f->blurs;
    m->idle_gaps = f->idle_gaps;
    m->focused_s = f->focused_s;
    m->sustained_focus_s = f->sustained_focus_s;

    if (!f->started) {
        m->focus_ratio = 1.0;

    } else {
        spans = f->spans;

        if (f->focused) {
            span = f->prev_t - f->start;
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

    /* friction: each part saturating, any one can raise it */
    m->errors = f->errors;
    m->clicks = f->clicks;
    m->scrolls = f->scrolls;
    m->scroll_reversals = f->scroll_reversals;
    m->scroll_gap_ms = m->scrolls > 1 ? f->scroll_gaps / (m->scrolls - 1)
                                      : 0.0;
    m->rage_bursts = f->rage_bursts;

    if (f->has_rage) {
        memcpy(m->rage_buf, f->rage, f->rage_len);
        m->rage_buf[f->rage_len] = '\0';
        m->rage_target = m->rage_buf;
    }

    f_err = 1.0 - exp(-(double) m->errors / 3.0);
    f_rage = 1.0 - exp(-(double) m->rage_bursts);
    f_scroll = 1.0 - exp(-(double) m->scroll_reversals / 4.0);

    m->friction = 1.0 - (1.0 - 0.8 * f_err) * (1.0 - 0.9 * f_rage)
                        * (1.0 - 0.6 * f_scroll);
}


int
behave_gw_event_same(const behave_gw_event_t *a, const behave_gw_event_t *b)
{
    return a->t == b->t && a->type == b->type && a->duration == b->duration
           && a->delta == b->delta && behave_gw_target_eq(a, b);
}


static int
behave_gw_target_eq(const behave_gw_event_t *a, const behave_gw_event_t *b)
{
    return (a->target == NULL && b->target == NULL)
           || (a->target != NULL && b->target != NULL
               && a->target_len == b->target_len
               && memcmp(a->target, b->target, a->target_len) == 0);
}
