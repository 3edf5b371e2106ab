/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * analyze-behavior's measures as one left-to-right fold over a session's
 * events in time order (behave_gw_fold.c), and the session state that
 * keeps that fold's result instead of the events (behave_gw_session.c).
 *
 * The fold's step for event i reads what came before only through the
 * fold's context, and looks ahead at most: to the next event (a pause or
 * a hover without a duration), 10 + 3 s (a hover's clicks) and 1 s past
 * each click of a rage burst.  An event whose look-ahead no later event
 * can change any more is "settled": it is folded into the context once
 * and never read again.  The state is that context, the frontier (no
 * event older than it is accepted any more: late) and the window of the
 * newest events not yet settled, followed by the calls' batches appended
 * since it was last written.  docs/DESIGN.md says why it is exact.
 */

#ifndef BEHAVE_GW_SESSION_H
#define BEHAVE_GW_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "base/behave_error.h"
#include "behave_gw_hot_layout.h"       /* generated: behave_gw_hot.layout */
#include "gateway/behave_gw_internal.h"


#define BEHAVE_GW_TARGET_MAX      256

/* the window keeps at least this many of the newest events raw ... */
#define BEHAVE_GW_WINDOW          128
/* ... and settles its oldest when it holds more than twice as many */
#define BEHAVE_GW_WINDOW_MAX      (2 * BEHAVE_GW_WINDOW)
/* past this many, settled even if in-order events may then be late */
#define BEHAVE_GW_WINDOW_FLOOD    (8 * BEHAVE_GW_WINDOW_MAX)

/* the state's first bytes: magic, epoch, generation (compare-and-set) */
#define BEHAVE_GW_STATE_PREFIX    14

/*
 * The hot state (behave_gw_behavior.c): a head, "G" room:u32 gate:f64
 * base:u32 full_max:u32 frontier:f64 as behave_gw_hot.layout describes
 * it (the Redis script reads it too), then a blob and batches; its
 * compare-and-set takes the head and the blob's prefix.
 */
#define BEHAVE_GW_HOT_HEAD        BEHAVE_GW_HOT_LAYOUT_SIZE
/* the full state may grow by this much behind the hot one */
#define BEHAVE_GW_HOT_LAG         4096
#define BEHAVE_GW_HOT_PREFIX      (BEHAVE_GW_HOT_HEAD + BEHAVE_GW_STATE_PREFIX)


typedef struct {
    double          t;
    double          duration;       /* < 0: not given */
    double          delta;          /* scroll, 0: not given */
    const char     *target;         /* NULL: not given; not NUL-ended */
    size_t          target_len;
    size_t          seq;            /* input order, for a stable sort */
    int             type;           /* behave_gw_event_e */
    unsigned char   consumed;       /* click already in a rage burst */
    unsigned char   ck_consumed;    /* the same, at the checkpoint */
} behave_gw_event_t;


/* the fold's context: everything the settled events left behind */
typedef struct {
    uint64_t        events;
    int             started;
    int             has_prev;
    int             prev_type;
    int             blurred;        /* hesitation: since a blur */
    int             focused;        /* attention: in a focus span */
    int             has_scroll;
    int             has_rage;
    double          first_t;
    double          prev_t;
    double          start;          /* the open focus span's */
    double          scroll_t;
    double          scroll_delta;
    double          scroll_gaps;
    double          pause_s;
    double          pause_before_commit_s;
    double          hover_unclicked_s;
    double          focused_s;
    double          sustained_focus_s;
    uint32_t        long_pauses;
    uint32_t        pauses_before_commit;
    uint32_t        keystrokes;
    uint32_t        backspaces;
    uint32_t        blurs;
    uint32_t        idle_gaps;
    uint32_t        spans;
    uint32_t        errors;
    uint32_t        clicks;
    uint32_t        rage_bursts;
    uint32_t        scrolls;
    uint32_t        scroll_reversals;
    size_t          rage_len;
    char            rage[BEHAVE_GW_TARGET_MAX];
} behave_gw_fold_t;


/*
 * Folds ev[i] (ev[0..n) in time order, ev[i - 1] the last event folded
 * into f).  Returns the time from which later events can no longer
 * change what ev[i] added: every event that may still come must have
 * t >= that value for the step to be final (-INFINITY: already final
 * once ev[i + 1] is known).  May mark later clicks consumed.
 */
double behave_gw_fold_step(behave_gw_fold_t *f, behave_gw_event_t *ev,
    size_t i, size_t n);

/* the measures of everything folded into f (f is not changed) */
void behave_gw_fold_finish(const behave_gw_fold_t *f,
    behave_gw_behavior_t *m);

void behave_gw_fold_init(behave_gw_fold_t *f);

int behave_gw_event_same(const behave_gw_event_t *a,
    const behave_gw_event_t *b);


/*
 * A session: its state decoded, and what the last batch did.
 *
 * The checkpoint (ck) is the fold of the window's first ck_at events,
 * win[ck_at - 1].t < win[ck_at].t, none of whose steps an event from
 * ck_t on can change: while every event accepted is that late, the
 * measures are the checkpoint's fold carried over win[ck_at..nwin)
 * alone (a few events, not the window's hundreds), with the consumed
 * marks that its steps left (ck_consumed).  An earlier event, or a
 * settle past it, drops it (ck_lost), and the measures fold the whole
 * window again until the next rewrite sets one.
 */
typedef struct {
    behave_gw_fold_t    fold;
    behave_gw_fold_t    ck_fold;
    int                 ck;
    int                 ck_lost;
    size_t              ck_at;
    double              ck_need;        /* latest need of its steps */
    double              ck_t;
    double              frontier;       /* -INFINITY: none yet */
    uint64_t            epoch;
    uint32_t            gen;
    behave_gw_event_t  *win;
    size_t              nwin;
    size_t              cap;
    int                 cut;            /* events settled since decoded */
    size_t              accepted;       /* of the last batch */
    size_t              late;
    size_t              duplicates;
} behave_gw_session_t;


/* what one event of a batch became (optional output of the apply) */
typedef enum {
    BEHAVE_GW_ACCEPTED = 0,
    BEHAVE_GW_LATE,
    BEHAVE_GW_DUPLICATE
} behave_gw_fate_e;


void behave_gw_session_init(behave_gw_session_t *s, uint64_t epoch);
void behave_gw_session_free(behave_gw_session_t *s);

/*
 * Applies one call's batch, ev[0..n) sorted by t (ties in the request's
 * order): each event older than the frontier is late, each exact
 * duplicate of an accepted event is dropped, the others join the
 * window; then, when settle is set and the window is over
 * BEHAVE_GW_WINDOW_MAX, its oldest events are settled.  fate, when not
 * NULL, gets each event's fate.  -1 when out of memory.
 */
int behave_gw_session_apply(behave_gw_session_t *s, behave_gw_event_t *ev,
    size_t n, int settle, behave_gw_fate_e *fate);

/* the measures of everything accepted so far; s is not changed */
int behave_gw_session_measure(const behave_gw_session_t *s,
    behave_gw_behavior_t *m);

/*
 * Moves the checkpoint to the newest cut whose steps no event from the
 * newest event's time on can change (from the window's start when there
 * is none); kept as it is when no later cut qualifies.  -1 out of memory.
 */
int behave_gw_session_checkpoint(behave_gw_session_t *s);

/*
 * The hot view of s, which has a checkpoint: the checkpoint's fold as
 * the fold, the events after its cut as the window (marks as the
 * checkpoint left them) and a checkpoint at 0.  Its measures, and those
 * of any batch applied to it whose accepted events are all at v->ck_t or
 * later, are s's.  v->win is malloc()ed (behave_gw_session_free()), its
 * targets point where s's do.  -1 out of memory.
 */
int behave_gw_session_view(const behave_gw_session_t *s,
    behave_gw_session_t *v);

/*
 * Encoding (docs/DESIGN.md): a state is a blob (header, context,
 * window) followed by batches; a batch is what the glue appends.
 * Decoding applies every batch that follows the blob; *blob_len gets
 * the blob's length and *batches their count.  -1 when the bytes are
 * not a state (s is then empty), -2 out of memory.  Event targets point
 * into buf: it must outlive s.
 */
int behave_gw_session_decode(behave_gw_session_t *s, const char *buf,
    size_t len, size_t *blob_len, size_t *batches);
char *behave_gw_session_encode(const behave_gw_session_t *s, size_t *len);
char *behave_gw_batch_encode(const behave_gw_event_t *ev, size_t n,
    size_t *len);
/* a batch's events, targets pointing into buf; -1 bad, -2 no memory */
int behave_gw_batch_decode(const char *buf, size_t len, size_t *used,
    behave_gw_event_t **ev, size_t *n);

/*
 * A request's events (strictly: an error names path[i].field) into a new
 * array sorted by t, ties in input order; targets point into events.
 */
behave_err_e behave_gw_events_parse(const cJSON *events, const char *path,
    behave_gw_event_t **ev, size_t *n, behave_error_t *err);
/* stored JSON events, leniently (one that does not parse is skipped) */
int behave_gw_events_parse_lenient(const cJSON *events,
    behave_gw_event_t **ev, size_t *n);
void behave_gw_events_sort(behave_gw_event_t *ev, size_t n);


#endif /* BEHAVE_GW_SESSION_H */
