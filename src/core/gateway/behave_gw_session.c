/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A session's state for analyze-behavior: the fold of its settled events
 * (behave_gw_fold.c), the frontier and the window of events not settled
 * yet, and its encoding.  What a call costs is the state's size (a few
 * KB at most), whatever the session's length.  docs/DESIGN.md has the
 * rule for late events and why the answer is exactly the fold of every
 * accepted event in time order.
 *
 * Encoding, little-endian:
 *     state  = blob batch*
 *     blob   = "B2" epoch:u64 gen:u32 blob_len:u32 frontier:f64
 *              fold nwin:u32 event{nwin} checkpoint
 *     checkpoint = 0:u8
 *              | 1:u8 ck_at:u32 ck_need:f64 fold flag:u8{nwin - ck_at}
 *     batch  = n:u32 event{n}
 *     event  = head:u8 t:f64 [duration:f64] [delta:f64] [len:u16 target]
 *     head   = type | 0x10 duration | 0x20 delta | 0x40 target
 *              | 0x80 consumed
 * epoch and gen make the blob's first BEHAVE_GW_STATE_PREFIX bytes
 * unique for a compare-and-set: a state that expired and was created
 * again has another epoch, a rewritten one another generation.  A "B1"
 * blob (an older build's) is the same without the checkpoint: decoded
 * as one whose checkpoint was lost, so that the next rewrite adds it.
 */

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gateway/behave_gw_session.h"


#define BEHAVE_GW_EV_DURATION   0x10
#define BEHAVE_GW_EV_DELTA      0x20
#define BEHAVE_GW_EV_TARGET     0x40
#define BEHAVE_GW_EV_CONSUMED   0x80

/* a tail of at most this many is folded on the stack */
#define BEHAVE_GW_CK_LOCAL      64

/* an equal-time run longer than this is searched through a sorted index */
#define BEHAVE_GW_RUN_SCAN      32


typedef struct {
    const unsigned char  *p;
    const unsigned char  *end;
    int                   bad;
} behave_gw_rd_t;


typedef struct {
    char    *buf;
    size_t   len;
    size_t   cap;
    int      oom;
} behave_gw_wr_t;


static int behave_gw_event_cmp(const void *a, const void *b);
static int behave_gw_session_reserve(behave_gw_session_t *s, size_t n);
static int behave_gw_session_settle(behave_gw_session_t *s);
static void behave_gw_session_tail(const behave_gw_session_t *s, size_t b,
    behave_gw_event_t *out, size_t n);
static int behave_gw_in_window(const behave_gw_session_t *s,
    const behave_gw_event_t *e, size_t **index);
static int behave_gw_event_key_cmp(const behave_gw_event_t *a,
    const behave_gw_event_t *b);
static int behave_gw_batch_dups(const behave_gw_event_t *ev, size_t n,
    unsigned char *dup);

static inline uint64_t behave_gw_rd_n(behave_gw_rd_t *r, size_t size);
static inline double behave_gw_rd_f64(behave_gw_rd_t *r);
static int behave_gw_rd_event(behave_gw_rd_t *r, behave_gw_event_t *e);
static void behave_gw_rd_fold(behave_gw_rd_t *r, behave_gw_fold_t *f);
static int behave_gw_rd_checkpoint(behave_gw_rd_t *r, behave_gw_session_t *s);
static void behave_gw_wr_n(behave_gw_wr_t *w, uint64_t v, size_t size);
static void behave_gw_wr_f64(behave_gw_wr_t *w, double v);
static void behave_gw_wr_bytes(behave_gw_wr_t *w, const void *p, size_t n);
static void behave_gw_wr_event(behave_gw_wr_t *w, const behave_gw_event_t *e);
static void behave_gw_wr_fold(behave_gw_wr_t *w, const behave_gw_fold_t *f);


/*
 * The fold's measures as stored, in this order after its flags: read and
 * written from these two lists (a new measure is a line in one of them,
 * and a new version of the stored state)
 */
static const unsigned short  behave_gw_fold_reals[] = {
    offsetof(behave_gw_fold_t, first_t),
    offsetof(behave_gw_fold_t, prev_t),
    offsetof(behave_gw_fold_t, start),
    offsetof(behave_gw_fold_t, scroll_t),
    offsetof(behave_gw_fold_t, scroll_delta),
    offsetof(behave_gw_fold_t, scroll_gaps),
    offsetof(behave_gw_fold_t, pause_s),
    offsetof(behave_gw_fold_t, pause_before_commit_s),
    offsetof(behave_gw_fold_t, hover_unclicked_s),
    offsetof(behave_gw_fold_t, focused_s),
    offsetof(behave_gw_fold_t, sustained_focus_s),
};

static const unsigned short  behave_gw_fold_counts[] = {
    offsetof(behave_gw_fold_t, long_pauses),
    offsetof(behave_gw_fold_t, pauses_before_commit),
    offsetof(behave_gw_fold_t, keystrokes),
    offsetof(behave_gw_fold_t, backspaces),
    offsetof(behave_gw_fold_t, blurs),
    offsetof(behave_gw_fold_t, idle_gaps),
    offsetof(behave_gw_fold_t, spans),
    offsetof(behave_gw_fold_t, errors),
    offsetof(behave_gw_fold_t, clicks),
    offsetof(behave_gw_fold_t, rage_bursts),
    offsetof(behave_gw_fold_t, scrolls),
    offsetof(behave_gw_fold_t, scroll_reversals),
};

#define BEHAVE_GW_NREALS                                                      \
    (sizeof(behave_gw_fold_reals) / sizeof(behave_gw_fold_reals[0]))
#define BEHAVE_GW_NCOUNTS                                                     \
    (sizeof(behave_gw_fold_counts) / sizeof(behave_gw_fold_counts[0]))
#define behave_gw_fold_real(f, i)                                             \
    ((double *) ((char *) (f) + behave_gw_fold_reals[i]))
#define behave_gw_fold_count(f, i)                                            \
    ((uint32_t *) ((char *) (f) + behave_gw_fold_counts[i]))


/*
 * The sorted index's comparison needs the window: qsort has no context.
 * One per thread: the nginx glue may run this in a thread pool.
 */
static _Thread_local const behave_gw_event_t  *behave_gw_sort_win;


void
behave_gw_session_init(behave_gw_session_t *s, uint64_t epoch)
{
    memset(s, 0, sizeof(*s));
    behave_gw_fold_init(&s->fold);
    s->frontier = -INFINITY;
    s->epoch = epoch;
}


void
behave_gw_session_free(behave_gw_session_t *s)
{
    free(s->win);
    s->win = NULL;
    s->nwin = 0;
    s->cap = 0;
}


static int
behave_gw_session_reserve(behave_gw_session_t *s, size_t n)
{
    size_t              cap;
    behave_gw_event_t  *win;

    if (n <= s->cap) {
        return 0;
    }

    cap = s->cap ? s->cap : 64;

    while (cap < n) {
        cap *= 2;
    }

    win = realloc(s->win, cap * sizeof(behave_gw_event_t));
    if (win == NULL) {
        return -1;
    }

    s->win = win;
    s->cap = cap;

    return 0;
}


int
behave_gw_session_apply(behave_gw_session_t *s, behave_gw_event_t *ev,
    size_t n, int settle, behave_gw_fate_e *fate)
{
    int                 rc;
    size_t              i, j, k, nacc, *index;
    unsigned char      *dup;
    behave_gw_fate_e    f;
    behave_gw_event_t  *acc;

    s->accepted = 0;
    s->late = 0;
    s->duplicates = 0;

    if (n == 0) {
        return 0;
    }

    dup = calloc(n, 1);
    acc = malloc(n * sizeof(behave_gw_event_t));
    index = NULL;
    rc = -1;

    if (dup == NULL || acc == NULL || behave_gw_batch_dups(ev, n, dup) != 0) {
        goto done;
    }

    nacc = 0;

    for (i = 0; i < n; i++) {
        if (ev[i].t < s->frontier) {
            f = BEHAVE_GW_LATE;
            s->late++;

        } else if (dup[i] || behave_gw_in_window(s, &ev[i], &index)) {
            f = BEHAVE_GW_DUPLICATE;
            s->duplicates++;

        } else {
            f = BEHAVE_GW_ACCEPTED;
            acc[nacc] = ev[i];
            acc[nacc].consumed = 0;
            acc[nacc++].ck_consumed = 0;

            if (s->ck && ev[i].t < s->ck_t) {
                s->ck = 0;
                s->ck_lost = 1;
            }
        }

        if (fate) {
            fate[i] = f;
        }
    }

    s->accepted = nacc;

    if (behave_gw_session_reserve(s, s->nwin + nacc) != 0) {
        goto done;
    }

    /* merge from the back: a new event goes after the window's equal t */
    i = s->nwin;
    j = nacc;
    k = s->nwin + nacc;

    while (j > 0) {
        if (i > 0 && s->win[i - 1].t > acc[j - 1].t) {
            s->win[--k] = s->win[--i];

        } else {
            s->win[--k] = acc[--j];
        }
    }

    s->nwin += nacc;
    rc = 0;

    if (settle && s->nwin > BEHAVE_GW_WINDOW_MAX) {
        rc = behave_gw_session_settle(s);
    }

done:

    free(index);
    free(acc);
    free(dup);

    return rc;
}


/*
 * Settles the window's oldest events, keeping at least BEHAVE_GW_WINDOW:
 * at the newest cut c (win[c - 1].t < win[c].t) where every step before
 * it is final for events from win[c].t on, which becomes the frontier.
 * When no such cut exists (a dense run of unclicked hovers, a long rage
 * burst), a cut whose steps are final from some time up to the newest
 * event, which becomes the frontier: events older than that are late
 * even if newer than win[c].
 */
static int
behave_gw_session_settle(behave_gw_session_t *s)
{
    size_t             c, i, n, clean, fit, strict;
    double            *need, P, P_fit, P_strict;
    unsigned char     *consumed;
    behave_gw_fold_t   scratch;

    n = s->nwin;
    need = malloc(n * sizeof(double));
    consumed = malloc(n);

    if (need == NULL || consumed == NULL) {
        free(need);
        free(consumed);
        return -1;
    }

    scratch = s->fold;

    for (i = 0; i < n; i++) {
        consumed[i] = (unsigned char) s->win[i].consumed;
    }

    for (i = 0; i < n; i++) {
        need[i] = behave_gw_fold_step(&scratch, s->win, i, n);
    }

    for (i = 0; i < n; i++) {
        s->win[i].consumed = consumed[i];
    }

    /*
     * P: the latest need of the steps before c.  Clean: P <= win[c].t.
     * Else the newest cut whose frontier stays at or below the newest
     * event, so that events coming in order are never late; only a
     * flood with no such cut (one rage burst of thousands of clicks)
     * moves the frontier past it.
     */
    clean = 0;
    fit = 0;
    strict = 0;
    P = -INFINITY;
    P_fit = -INFINITY;
    P_strict = -INFINITY;

    for (c = 1; c + BEHAVE_GW_WINDOW <= n; c++) {
        P = fmax(P, need[c - 1]);

        if (s->win[c - 1].t < s->win[c].t) {
            strict = c;
            P_strict = P;

            if (P <= s->win[c].t) {
                clean = c;

            } else if (P <= s->win[n - 1].t) {
                fit = c;
                P_fit = P;
            }
        }
    }

    free(need);
    free(consumed);

    if (clean) {
        c = clean;
        P = -INFINITY;

    } else if (fit) {
        c = fit;
        P = P_fit;

    } else if (n > BEHAVE_GW_WINDOW_FLOOD) {
        c = strict;
        P = P_strict;

    } else {
        c = 0;
    }

    if (c == 0) {
        /* nothing can be settled apart yet */
        return 0;
    }

    s->frontier = fmax(s->frontier, fmax(s->win[c].t, P));

    /* the checkpoint's fold already holds the steps settled now */
    if (s->ck && s->ck_at >= c) {
        s->ck_at -= c;

    } else if (s->ck) {
        s->ck = 0;
        s->ck_lost = 1;
    }

    for (i = 0; i < c; i++) {
        (void) behave_gw_fold_step(&s->fold, s->win, i, n);
    }

    memmove(s->win, s->win + c, (n - c) * sizeof(behave_gw_event_t));
    s->nwin = n - c;
    s->cut = 1;

    return 0;
}


int
behave_gw_session_measure(const behave_gw_session_t *s,
    behave_gw_behavior_t *m)
{
    size_t              i, b, n;
    behave_gw_fold_t    f;
    behave_gw_event_t  *win, local[BEHAVE_GW_CK_LOCAL];

    b = s->ck ? s->ck_at : 0;
    f = s->ck ? s->ck_fold : s->fold;
    n = s->nwin - b;
    win = local;

    /* the steps mark clicks consumed: on a copy, s is not changed */
    if (n > BEHAVE_GW_CK_LOCAL) {
        win = malloc(n * sizeof(behave_gw_event_t));
        if (win == NULL) {
            return -1;
        }
    }

    behave_gw_session_tail(s, b, win, n);

    for (i = 0; i < n; i++) {
        (void) behave_gw_fold_step(&f, win, i, n);
    }

    if (win != local) {
        free(win);
    }

    behave_gw_fold_finish(&f, m);

    return 0;
}


/* win[b..b + n) with the consumed marks of the fold it starts from */
static void
behave_gw_session_tail(const behave_gw_session_t *s, size_t b,
    behave_gw_event_t *out, size_t n)
{
    size_t  i;

    if (n == 0) {
        return;
    }

    memcpy(out, s->win + b, n * sizeof(behave_gw_event_t));

    if (s->ck) {
        for (i = 0; i < n; i++) {
            out[i].consumed = out[i].ck_consumed;
        }
    }
}


int
behave_gw_session_checkpoint(behave_gw_session_t *s)
{
    size_t              b, n, j, best;
    double              P, best_P, *need;
    behave_gw_fold_t    f, base;
    behave_gw_event_t  *tail;

    b = s->ck ? s->ck_at : 0;
    base = s->ck ? s->ck_fold : s->fold;
    P = s->ck ? s->ck_need : -INFINITY;
    n = s->nwin - b;

    if (n < 2) {
        return 0;
    }

    tail = malloc(n * sizeof(behave_gw_event_t));
    need = malloc(n * sizeof(double));

    if (tail == NULL || need == NULL) {
        free(tail);
        free(need);
        return -1;
    }

    behave_gw_session_tail(s, b, tail, n);
    f = base;

    for (j = 0; j < n; j++) {
        need[j] = behave_gw_fold_step(&f, tail, j, n);
    }

    /*
     * The newest cut j (tail[j - 1].t < tail[j].t) whose gate, the later
     * of tail[j].t and every earlier step's need, is not past the newest
     * event: events that keep coming in order keep it.
     */
    best = 0;
    best_P = -INFINITY;

    for (j = 1; j < n; j++) {
        P = fmax(P, need[j - 1]);

        if (tail[j - 1].t < tail[j].t && fmax(tail[j].t, P) <= tail[n - 1].t) {
            best = j;
            best_P = P;
        }
    }

    if (best > 0) {
        behave_gw_session_tail(s, b, tail, n);
        f = base;

        for (j = 0; j < best; j++) {
            (void) behave_gw_fold_step(&f, tail, j, n);
        }

        for (j = best; j < n; j++) {
            s->win[b + j].ck_consumed = tail[j].consumed;
        }

        s->ck = 1;
        s->ck_lost = 0;
        s->ck_at = b + best;
        s->ck_need = best_P;
        s->ck_t = fmax(s->win[s->ck_at].t, best_P);
        s->ck_fold = f;
    }

    free(tail);
    free(need);

    return 0;
}


int
behave_gw_session_view(const behave_gw_session_t *s, behave_gw_session_t *v)
{
    size_t  i, n;

    behave_gw_session_init(v, s->epoch);

    if (!s->ck) {
        return -1;
    }

    n = s->nwin - s->ck_at;

    if (behave_gw_session_reserve(v, n) != 0) {
        return -1;
    }

    memcpy(v->win, s->win + s->ck_at, n * sizeof(behave_gw_event_t));

    for (i = 0; i < n; i++) {
        v->win[i].consumed = v->win[i].ck_consumed;
    }

    v->nwin = n;
    v->gen = s->gen;
    v->fold = s->ck_fold;
    v->frontier = s->frontier;
    v->ck = 1;
    v->ck_at = 0;
    v->ck_need = s->ck_need;
    v->ck_fold = s->ck_fold;
    v->ck_t = fmax(v->win[0].t, s->ck_need);

    return 0;
}


/*
 * Exact duplicates inside one batch: sorted by the whole event, equal
 * neighbours; the later one (in the batch's order) is the duplicate.
 */

static _Thread_local const behave_gw_event_t  *behave_gw_sort_ev;

static int
behave_gw_index_cmp(const void *a, const void *b)
{
    int     rc;
    size_t  x = *(const size_t *) a, y = *(const size_t *) b;

    rc = behave_gw_event_key_cmp(&behave_gw_sort_ev[x], &behave_gw_sort_ev[y]);

    if (rc != 0) {
        return rc;
    }

    return x < y ? -1 : (x > y);
}


static int
behave_gw_batch_dups(const behave_gw_event_t *ev, size_t n,
    unsigned char *dup)
{
    size_t  i, *idx;

    /* a batch is sorted by t: duplicates share a run of equal t */
    for (i = 1; i < n; i++) {
        if (ev[i].t == ev[i - 1].t) {
            break;
        }
    }

    if (i >= n) {
        return 0;
    }

    idx = malloc(n * sizeof(size_t));
    if (idx == NULL) {
        return -1;
    }

    for (i = 0; i < n; i++) {
        idx[i] = i;
    }

    behave_gw_sort_ev = ev;
    qsort(idx, n, sizeof(size_t), behave_gw_index_cmp);

    for (i = 1; i < n; i++) {
        if (behave_gw_event_key_cmp(&ev[idx[i]], &ev[idx[i - 1]]) == 0) {
            dup[idx[i]] = 1;
        }
    }

    free(idx);

    return 0;
}


static int
behave_gw_win_index_cmp(const void *a, const void *b)
{
    return behave_gw_event_key_cmp(&behave_gw_sort_win[*(const size_t *) a],
                                   &behave_gw_sort_win[*(const size_t *) b]);
}


/* an exact duplicate of an event in the window (all have t >= frontier) */
static int
behave_gw_in_window(const behave_gw_session_t *s, const behave_gw_event_t *e,
    size_t **index)
{
    size_t  lo, hi, mid, i, *idx;

    lo = 0;
    hi = s->nwin;

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;

        if (s->win[mid].t < e->t) {
            lo = mid + 1;

        } else {
            hi = mid;
        }
    }

    for (i = lo; i < s->nwin && s->win[i].t == e->t; i++) {
        if (i - lo == BEHAVE_GW_RUN_SCAN) {
            break;
        }

        if (behave_gw_event_same(&s->win[i], e)) {
            return 1;
        }
    }

    if (i >= s->nwin || s->win[i].t != e->t) {
        return 0;
    }

    /* a long run of one instant: binary search a sorted index */
    if (*index == NULL) {
        idx = malloc(s->nwin * sizeof(size_t));
        if (idx == NULL) {
            /* without memory the event counts as new: never lost */
            return 0;
        }

        for (i = 0; i < s->nwin; i++) {
            idx[i] = i;
        }

        behave_gw_sort_win = s->win;
        qsort(idx, s->nwin, sizeof(size_t), behave_gw_win_index_cmp);
        *index = idx;
    }

    idx = *index;
    lo = 0;
    hi = s->nwin;

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;

        if (behave_gw_event_key_cmp(&s->win[idx[mid]], e) < 0) {
            lo = mid + 1;

        } else {
            hi = mid;
        }
    }

    return lo < s->nwin && behave_gw_event_key_cmp(&s->win[idx[lo]], e) == 0;
}


static int
behave_gw_event_key_cmp(const behave_gw_event_t *a,
    const behave_gw_event_t *b)
{
    int     rc;
    size_t  n;

    if (a->t != b->t) {
        return a->t < b->t ? -1 : 1;
    }

    if (a->type != b->type) {
        return a->type < b->type ? -1 : 1;
    }

    if (a->duration != b->duration) {
        return a->duration < b->duration ? -1 : 1;
    }

    if (a->delta != b->delta) {
        return a->delta < b->delta ? -1 : 1;
    }

    if (a->target == NULL || b->target == NULL) {
        return (a->target != NULL) - (b->target != NULL);
    }

    n = a->target_len < b->target_len ? a->target_len : b->target_len;
    rc = memcmp(a->target, b->target, n);

    if (rc != 0) {
        return rc;
    }

    return (a->target_len > b->target_len) - (a->target_len < b->target_len);
}


/* encoding */

int
behave_gw_session_decode(behave_gw_session_t *s, const char *buf,
    size_t len, size_t *blob_len, size_t *batches)
{
    int                 v2;
    size_t              i, nwin, used, n, blen;
    behave_gw_rd_t      r;
    behave_gw_event_t  *ev;

    *blob_len = 0;
    *batches = 0;

    r.p = (const unsigned char *) buf;
    r.end = r.p + len;
    r.bad = 0;

    if (len < 18 || buf[0] != 'B' || (buf[1] != '1' && buf[1] != '2')) {
        return -1;
    }

    v2 = buf[1] == '2';

    r.p += 2;
    s->epoch = behave_gw_rd_n(&r, 8);
    s->gen = (uint32_t) behave_gw_rd_n(&r, 4);
    blen = (size_t) behave_gw_rd_n(&r, 4);

    if (blen > len || blen < 18) {
        goto bad;
    }

    r.end = (const unsigned char *) buf + blen;
    s->frontier = behave_gw_rd_f64(&r);
    behave_gw_rd_fold(&r, &s->fold);
    nwin = (size_t) behave_gw_rd_n(&r, 4);

    /* an event is 9 bytes at least: a count beyond that is damage */
    if (r.bad || nwin > (size_t) (r.end - r.p) / 9) {
        goto bad;
    }

    if (behave_gw_session_reserve(s, nwin) != 0) {
        behave_gw_session_init(s, s->epoch);
        return -2;
    }

    for (i = 0; i < nwin; i++) {
        if (behave_gw_rd_event(&r, &s->win[i]) != 0
            || (i > 0 && s->win[i].t < s->win[i - 1].t))
        {
            goto bad;
        }
    }

    s->nwin = nwin;

    if (!v2) {
        s->ck_lost = 1;

    } else if (behave_gw_rd_checkpoint(&r, s) != 0) {
        goto bad;
    }

    if (r.p != r.end) {
        goto bad;
    }

    *blob_len = blen;

    /* the batches appended since: each as its call applied it */
    while (blen < len) {
        switch (behave_gw_batch_decode(buf + blen, len - blen, &used, &ev,
                                       &n))
        {
        case 0:
            break;
        case -2:
            behave_gw_session_free(s);
            behave_gw_session_init(s, s->epoch);
            return -2;
        default:
            goto bad;
        }

        behave_gw_events_sort(ev, n);

        if (behave_gw_session_apply(s, ev, n, 1, NULL) != 0) {
            free(ev);
            behave_gw_session_free(s);
            behave_gw_session_init(s, s->epoch);
            return -2;
        }

        free(ev);
        blen += used;
        (*batches)++;
    }

    s->cut = 0;

    return 0;

bad:

    behave_gw_session_free(s);
    behave_gw_session_init(s, 0);
    *blob_len = 0;
    *batches = 0;

    return -1;
}


int
behave_gw_batch_decode(const char *buf, size_t len, size_t *used,
    behave_gw_event_t **ev, size_t *n)
{
    size_t          i, count;
    behave_gw_rd_t  r;

    *ev = NULL;
    *n = 0;

    r.p = (const unsigned char *) buf;
    r.end = r.p + len;
    r.bad = 0;

    count = (size_t) behave_gw_rd_n(&r, 4);

    if (r.bad || count > (size_t) (r.end - r.p) / 9) {
        return -1;
    }

    *ev = malloc((count + 1) * sizeof(behave_gw_event_t));
    if (*ev == NULL) {
        return -2;
    }

    for (i = 0; i < count; i++) {
        if (behave_gw_rd_event(&r, &(*ev)[i]) != 0) {
            free(*ev);
            *ev = NULL;
            return -1;
        }

        /* a batch's events are new: no burst has taken them yet */
        (*ev)[i].consumed = 0;
    }

    *n = count;
    *used = (const char *) r.p - buf;

    return 0;
}


char *
behave_gw_session_encode(const behave_gw_session_t *s, size_t *len)
{
    size_t          i;
    behave_gw_wr_t  w;

    memset(&w, 0, sizeof(w));

    behave_gw_wr_bytes(&w, "B2", 2);
    behave_gw_wr_n(&w, s->epoch, 8);
    behave_gw_wr_n(&w, s->gen, 4);
    behave_gw_wr_n(&w, 0, 4);             /* the blob's length, below */
    behave_gw_wr_f64(&w, s->frontier);
    behave_gw_wr_fold(&w, &s->fold);
    behave_gw_wr_n(&w, s->nwin, 4);

    for (i = 0; i < s->nwin; i++) {
        behave_gw_wr_event(&w, &s->win[i]);
    }

    behave_gw_wr_n(&w, s->ck, 1);

    if (s->ck) {
        behave_gw_wr_n(&w, s->ck_at, 4);
        behave_gw_wr_f64(&w, s->ck_need);
        behave_gw_wr_fold(&w, &s->ck_fold);

        for (i = s->ck_at; i < s->nwin; i++) {
            behave_gw_wr_n(&w, s->win[i].ck_consumed, 1);
        }
    }

    if (w.oom) {
        free(w.buf);
        return NULL;
    }

    for (i = 0; i < 4; i++) {
        w.buf[14 + i] = (char) ((w.len >> (8 * i)) & 0xff);
    }

    *len = w.len;
    return w.buf;
}


char *
behave_gw_batch_encode(const behave_gw_event_t *ev, size_t n, size_t *len)
{
    size_t          i;
    behave_gw_wr_t  w;

    memset(&w, 0, sizeof(w));

    behave_gw_wr_n(&w, n, 4);

    for (i = 0; i < n; i++) {
        behave_gw_wr_event(&w, &ev[i]);
    }

    if (w.oom) {
        free(w.buf);
        return NULL;
    }

    *len = w.len;
    return w.buf;
}


/*
 * Every stored event is read at every call (the window, 128 to 256 of
 * them): these two are the decoder's inner loop, kept inline, and an
 * 8-byte field is one load where the host is little-endian as the
 * encoding is.
 */
static inline uint64_t
behave_gw_rd_n(behave_gw_rd_t *r, size_t size)
{
    size_t    i;
    uint64_t  v;

    if (r->bad || (size_t) (r->end - r->p) < size) {
        r->bad = 1;
        return 0;
    }

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (size == 8) {
        memcpy(&v, r->p, 8);
        r->p += 8;
        return v;
    }
#endif

    v = 0;

    for (i = 0; i < size; i++) {
        v |= (uint64_t) r->p[i] << (8 * i);
    }

    r->p += size;

    return v;
}


static inline double
behave_gw_rd_f64(behave_gw_rd_t *r)
{
    double    d;
    uint64_t  v;

    v = behave_gw_rd_n(r, 8);
    memcpy(&d, &v, sizeof(d));

    return d;
}


static int
behave_gw_rd_event(behave_gw_rd_t *r, behave_gw_event_t *e)
{
    unsigned  head;

    /* every field set below: no memset of the whole event */
    e->target = NULL;
    e->target_len = 0;
    e->seq = 0;
    e->ck_consumed = 0;

    head = (unsigned) behave_gw_rd_n(r, 1);
    e->type = head & 0x0f;
    e->consumed = (head & BEHAVE_GW_EV_CONSUMED) != 0;
    e->t = behave_gw_rd_f64(r);
    e->duration = (head & BEHAVE_GW_EV_DURATION) ? behave_gw_rd_f64(r) : -1.0;
    e->delta = (head & BEHAVE_GW_EV_DELTA) ? behave_gw_rd_f64(r) : 0.0;

    if (head & BEHAVE_GW_EV_TARGET) {
        e->target_len = (size_t) behave_gw_rd_n(r, 2);

        if (r->bad || e->target_len > BEHAVE_GW_TARGET_MAX
            || (size_t) (r->end - r->p) < e->target_len)
        {
            return -1;
        }

        e->target = (const char *) r->p;
        r->p += e->target_len;
    }

    /* what the parser accepts, so that the fold sees nothing else */
    if (r->bad || e->type >= BEHAVE_GW_EV_N || !(e->t >= 0.0)
        || !(e->t <= 9007199254740992.0)
        || !(e->duration >= -1.0 && e->duration <= 86400000.0)
        || !(e->delta >= -1e7 && e->delta <= 1e7))
    {
        return -1;
    }

    return 0;
}


static void
behave_gw_rd_fold(behave_gw_rd_t *r, behave_gw_fold_t *f)
{
    size_t    i;
    unsigned  flags;

    behave_gw_fold_init(f);

    f->events = behave_gw_rd_n(r, 8);
    flags = (unsigned) behave_gw_rd_n(r, 1);
    f->started = (flags & 0x01) != 0;
    f->has_prev = (flags & 0x02) != 0;
    f->blurred = (flags & 0x04) != 0;
    f->focused = (flags & 0x08) != 0;
    f->has_scroll = (flags & 0x10) != 0;
    f->has_rage = (flags & 0x20) != 0;
    f->prev_type = (int) behave_gw_rd_n(r, 1);

    if (f->prev_type >= BEHAVE_GW_EV_N) {
        r->bad = 1;
    }

    for (i = 0; i < BEHAVE_GW_NREALS; i++) {
        *behave_gw_fold_real(f, i) = behave_gw_rd_f64(r);
    }

    for (i = 0; i < BEHAVE_GW_NCOUNTS; i++) {
        *behave_gw_fold_count(f, i) = (uint32_t) behave_gw_rd_n(r, 4);
    }

    f->rage_len = (size_t) behave_gw_rd_n(r, 2);

    if (r->bad || f->rage_len > BEHAVE_GW_TARGET_MAX
        || (size_t) (r->end - r->p) < f->rage_len)
    {
        r->bad = 1;
        return;
    }

    memcpy(f->rage, r->p, f->rage_len);
    r->p += f->rage_len;
}


static int
behave_gw_rd_checkpoint(behave_gw_rd_t *r, behave_gw_session_t *s)
{
    size_t    i;
    unsigned  flag;

    s->ck = (int) behave_gw_rd_n(r, 1);

    if (s->ck == 0) {
        return r->bad ? -1 : 0;
    }

    s->ck_at = (size_t) behave_gw_rd_n(r, 4);
    s->ck_need = behave_gw_rd_f64(r);
    behave_gw_rd_fold(r, &s->ck_fold);

    /* a cut inside the window, after a strict rise of t */
    if (r->bad || s->ck != 1 || s->ck_at >= s->nwin || isnan(s->ck_need)
        || (s->ck_at > 0 && !(s->win[s->ck_at - 1].t < s->win[s->ck_at].t)))
    {
        return -1;
    }

    for (i = s->ck_at; i < s->nwin; i++) {
        flag = (unsigned) behave_gw_rd_n(r, 1);

        if (r->bad || flag > 1) {
            return -1;
        }

        s->win[i].ck_consumed = (unsigned char) flag;
    }

    s->ck_t = fmax(s->win[s->ck_at].t, s->ck_need);

    return 0;
}


static void
behave_gw_wr_bytes(behave_gw_wr_t *w, const void *p, size_t n)
{
    char    *buf;
    size_t   cap;

    if (w->oom) {
        return;
    }

    if (w->len + n > w->cap) {
        cap = w->cap ? w->cap : 256;

        while (cap < w->len + n) {
            cap *= 2;
        }

        buf = realloc(w->buf, cap);
        if (buf == NULL) {
            w->oom = 1;
            return;
        }

        w->buf = buf;
        w->cap = cap;
    }

    memcpy(w->buf + w->len, p, n);
    w->len += n;
}


static void
behave_gw_wr_n(behave_gw_wr_t *w, uint64_t v, size_t size)
{
    size_t         i;
    unsigned char  b[8];

    for (i = 0; i < size; i++) {
        b[i] = (unsigned char) ((v >> (8 * i)) & 0xff);
    }

    behave_gw_wr_bytes(w, b, size);
}


static void
behave_gw_wr_f64(behave_gw_wr_t *w, double v)
{
    uint64_t  u;

    memcpy(&u, &v, sizeof(u));
    behave_gw_wr_n(w, u, 8);
}


static void
behave_gw_wr_event(behave_gw_wr_t *w, const behave_gw_event_t *e)
{
    unsigned  head;

    head = (unsigned) e->type
           | (e->duration >= 0 ? BEHAVE_GW_EV_DURATION : 0)
           | (e->delta != 0.0 ? BEHAVE_GW_EV_DELTA : 0)
           | (e->target != NULL ? BEHAVE_GW_EV_TARGET : 0)
           | (e->consumed ? BEHAVE_GW_EV_CONSUMED : 0);

    behave_gw_wr_n(w, head, 1);
    behave_gw_wr_f64(w, e->t);

    if (e->duration >= 0) {
        behave_gw_wr_f64(w, e->duration);
    }

    if (e->delta != 0.0) {
        behave_gw_wr_f64(w, e->delta);
    }

    if (e->target != NULL) {
        behave_gw_wr_n(w, e->target_len, 2);
        behave_gw_wr_bytes(w, e->target, e->target_len);
    }
}


static void
behave_gw_wr_fold(behave_gw_wr_t *w, const behave_gw_fold_t *f)
{
    size_t  i;

    behave_gw_wr_n(w, f->events, 8);
    behave_gw_wr_n(w, (f->started ? 0x01 : 0) | (f->has_prev ? 0x02 : 0)
                      | (f->blurred ? 0x04 : 0) | (f->focused ? 0x08 : 0)
                      | (f->has_scroll ? 0x10 : 0)
                      | (f->has_rage ? 0x20 : 0), 1);
    behave_gw_wr_n(w, (uint64_t) f->prev_type, 1);
    for (i = 0; i < BEHAVE_GW_NREALS; i++) {
        behave_gw_wr_f64(w, *(const double *) ((const char *) f
                                               + behave_gw_fold_reals[i]));
    }

    for (i = 0; i < BEHAVE_GW_NCOUNTS; i++) {
        behave_gw_wr_n(w, *(const uint32_t *) ((const char *) f
                                               + behave_gw_fold_counts[i]),
                       4);
    }

    behave_gw_wr_n(w, f->rage_len, 2);
    behave_gw_wr_bytes(w, f->rage, f->rage_len);
}


/* by time, ties in the given order (seq): declared in this file's header */
void
behave_gw_events_sort(behave_gw_event_t *ev, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        ev[i].seq = i;
    }

    for (i = 1; i < n && ev[i - 1].t <= ev[i].t; i++) {
        /* already in order: the usual case */
    }

    if (i < n) {
        qsort(ev, n, sizeof(behave_gw_event_t), behave_gw_event_cmp);
    }
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
