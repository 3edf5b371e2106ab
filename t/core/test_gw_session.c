/*
 * analyze-behavior's session state (behave_gw_session.h), both ways: a
 * session's events arrive in calls, as the endpoint gets them (in order,
 * shuffled within a few calls, shuffled throughout, with retries); each
 * call is answered from the stored state (decoded, its batches applied,
 * rewritten now, later or never, as the glue's compare-and-set may go)
 * and recomputed from the full history of the events the session
 * accepted; every measure must agree to the bit.  Events in order are
 * never late.  Plus the stored form: round trip, damaged states, the
 * seed from an older build's list, the answer's counts.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tap.h"
#include "gateway/behave_gateway.h"
#include "gateway/behave_gw_internal.h"
#include "gateway/behave_gw_session.h"


#define MAX_EVENTS  3000


static const char *const  names[BEHAVE_GW_EV_N] = {
    "keystroke", "backspace", "pause", "click", "hover", "scroll", "focus",
    "blur", "submit", "error"
};

static const char *const  targets[] = { "buy", "next", "menu", "help",
                                        "search" };

static uint64_t  rng = 88172645463325252ULL;


static uint64_t
rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}


static double
uni(double lo, double hi)
{
    return lo + (hi - lo) * (double) (rnd() % 1000000) / 1000000.0;
}


static int
chance(double p)
{
    return uni(0, 1) < p;
}


/* a plausible session: typing, hovering, bursts of clicks, idle gaps */
static size_t
gen_session(behave_gw_event_t *ev, size_t n)
{
    int                 type;
    size_t              i, k;
    double              t, g;
    static const int    w[BEHAVE_GW_EV_N] = { 30, 8, 5, 12, 12, 10, 4, 4,
                                              3, 4 };

    t = 1000000.0 + (chance(0.5) ? 0.25 : 0.0);

    for (i = 0; i < n; i++) {
        g = uni(0, 1);
        t += g < 0.05 ? 0.0 : g < 0.80 ? uni(40, 800)
             : g < 0.90 ? uni(800, 5000) : g < 0.96 ? uni(5000, 29000)
             : uni(30000, 90000);

        k = rnd() % 92;

        for (type = 0; type < BEHAVE_GW_EV_N && (int) k >= w[type]; type++) {
            k -= w[type];
        }

        memset(&ev[i], 0, sizeof(ev[i]));
        ev[i].type = type;
        ev[i].t = t;
        ev[i].duration = -1.0;

        if ((type == BEHAVE_GW_EV_CLICK || type == BEHAVE_GW_EV_HOVER)
            && chance(0.8))
        {
            ev[i].target = targets[rnd() % 5];
            ev[i].target_len = strlen(ev[i].target);
        }

        if ((type == BEHAVE_GW_EV_HOVER || type == BEHAVE_GW_EV_PAUSE)
            && chance(0.5))
        {
            ev[i].duration = floor(uni(100, 12000));
        }

        if (type == BEHAVE_GW_EV_SCROLL && chance(0.9)) {
            ev[i].delta = floor(uni(-400, 400));
        }

        /* a rage burst: the same click again, quickly */
        if (type == BEHAVE_GW_EV_CLICK && chance(0.15)) {
            for (k = rnd() % 5 + 2; k > 0 && i + 1 < n; k--) {
                ev[i + 1] = ev[i];
                ev[++i].t = (t += uni(50, 450));
            }
        }
    }

    return n;
}


static cJSON *
event_json(const behave_gw_event_t *e)
{
    char    tg[BEHAVE_GW_TARGET_MAX + 1];
    cJSON  *o;

    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", names[e->type]);
    cJSON_AddNumberToObject(o, "t", e->t);

    if (e->target) {
        memcpy(tg, e->target, e->target_len);
        tg[e->target_len] = '\0';
        cJSON_AddStringToObject(o, "target", tg);
    }

    if (e->duration >= 0) {
        cJSON_AddNumberToObject(o, "duration", e->duration);
    }

    if (e->delta != 0.0) {
        cJSON_AddNumberToObject(o, "delta", e->delta);
    }

    return o;
}


static int
same_measures(const behave_gw_behavior_t *a, const behave_gw_behavior_t *b)
{
    return a->events == b->events && a->observed_s == b->observed_s
           && a->long_pauses == b->long_pauses
           && a->pauses_before_commit == b->pauses_before_commit
           && a->pause_s == b->pause_s
           && a->pause_before_commit_s == b->pause_before_commit_s
           && a->hover_unclicked_s == b->hover_unclicked_s
           && a->keystrokes == b->keystrokes
           && a->backspaces == b->backspaces
           && a->backspace_ratio == b->backspace_ratio
           && a->hesitation == b->hesitation
           && a->sustained_focus_s == b->sustained_focus_s
           && a->mean_focus_s == b->mean_focus_s
           && a->focused_s == b->focused_s
           && a->focus_ratio == b->focus_ratio && a->blurs == b->blurs
           && a->idle_gaps == b->idle_gaps && a->errors == b->errors
           && a->clicks == b->clicks && a->rage_bursts == b->rage_bursts
           && (a->rage_target == NULL) == (b->rage_target == NULL)
           && (a->rage_target == NULL
               || strcmp(a->rage_target, b->rage_target) == 0)
           && a->scrolls == b->scrolls
           && a->scroll_reversals == b->scroll_reversals
           && a->scroll_gap_ms == b->scroll_gap_ms
           && a->friction == b->friction;
}


/*
 * The answer against the one recomputed from the accepted events (all
 * of them stored history): every field but the three counts that say
 * which call brought what.
 */
static int
same_answer(cJSON *resp, const cJSON *all)
{
    int             same;
    char           *a, *b;
    cJSON          *req, *ref;
    behave_error_t  err;

    req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "session_id",
        cJSON_GetStringValue(cJSON_GetObjectItem(resp, "session_id")));
    cJSON_AddArrayToObject(req, "interaction_history");

    if (behave_gw_behavior(req, all, 1, &ref, &err) != BEHAVE_OK) {
        cJSON_Delete(req);
        return 0;
    }

    cJSON_DeleteItemFromObject(ref, "events_new");
    cJSON_DeleteItemFromObject(ref, "events_prior");
    cJSON_DeleteItemFromObject(ref, "events_late");
    cJSON_DeleteItemFromObject(resp, "events_new");
    cJSON_DeleteItemFromObject(resp, "events_prior");
    cJSON_DeleteItemFromObject(resp, "events_late");

    a = cJSON_PrintUnformatted(resp);
    b = cJSON_PrintUnformatted(ref);
    same = a && b && strcmp(a, b) == 0;

    free(a);
    free(b);
    cJSON_Delete(ref);
    cJSON_Delete(req);

    return same;
}


/* a stored state (full or hot) as the glue's scripts leave it */
typedef struct {
    char    *buf;               /* NULL: no such key */
    size_t   len;
    char    *blob;              /* a rewrite not applied yet */
    size_t   blob_len;
    size_t   consumed;
    char    *hot;               /* the hot state that goes with it */
    size_t   hot_len;
    char     prefix[BEHAVE_GW_HOT_PREFIX];
} store_t;

/* the session's hot state, and the calls answered from it */
static store_t  hs;
static size_t   hot_calls;

/* calls of 1..max_batch events (0: the mix of sizes) */
static size_t   max_batch;


static void store_append(store_t *st, const char *p, size_t n);


static void
store_set(store_t *st, const char *p, size_t n)
{
    free(st->buf);
    st->buf = malloc(n + 1);
    memcpy(st->buf, p, n);
    st->len = n;
}


static void
store_del(store_t *st)
{
    free(st->buf);
    st->buf = NULL;
    st->len = 0;
}


static uint64_t
le(const char *p, size_t n)
{
    size_t    i;
    uint64_t  v = 0;

    for (i = 0; i < n; i++) {
        v |= (uint64_t) (unsigned char) p[i] << (8 * i);
    }

    return v;
}


static double
le_f64(const char *p)
{
    double    d;
    uint64_t  u = le(p, 8);

    memcpy(&d, &u, sizeof(d));
    return d;
}


/*
 * The call's script: the hot state when the batch passes its gate (fits
 * in its room, its first event at the gate or later or its last before
 * the frontier) and the full state
 * exists; else the hot state is dropped and the full one is read (made
 * when there is none).  The batch is appended to what exists.  Returns
 * a copy of the state read; *full_before gets the full state as it was.
 */
static char *
script(store_t *st, const char *enc, size_t elen, size_t *len, int *hot,
    char **full_before, size_t *full_len)
{
    char    *out, *blob;
    size_t   k;

    *full_before = NULL;
    *full_len = 0;
    *hot = 0;

    if (st->buf != NULL) {
        *full_before = malloc(st->len + 1);
        memcpy(*full_before, st->buf, st->len);
        *full_len = st->len;
    }

    if (hs.buf != NULL) {
        char  last[8];

        if (hs.len + elen <= le(hs.buf + 1, 4)
            && (behave_gw_batch_last_t(enc, elen, last) != 0
                || le_f64(enc + 5) >= le_f64(hs.buf + 5)
                || le_f64(last) < le_f64(hs.buf + 21)))
        {
            if (st->buf == NULL) {
                store_del(&hs);

            } else if (st->len + elen > le(hs.buf + 17, 4)) {
                /* the full state grew too far: read (and rewritten) */
                store_del(&hs);
                out = malloc(st->len + 1);
                memcpy(out, st->buf, st->len);
                *len = st->len;
                store_append(st, enc, elen);
                return out;

            } else {
                out = malloc(hs.len + 1);
                memcpy(out, hs.buf, hs.len);
                *len = hs.len;
                *hot = 1;
                store_append(st, enc, elen);
                store_append(&hs, enc, elen);
                return out;
            }
        }

        store_del(&hs);
    }

    if (st->buf == NULL) {
        blob = behave_gw_behavior_new_state(7, &k);
        store_append(st, blob, k);
        free(blob);
        *full_before = malloc(st->len + 1);
        memcpy(*full_before, st->buf, st->len);
        *full_len = st->len;
    }

    out = malloc(st->len + 1);
    memcpy(out, st->buf, st->len);
    *len = st->len;
    store_append(st, enc, elen);

    return out;
}


/* the hot state's rewrite: only while nothing was appended to it since */
static int
store_rewrite_hot(void)
{
    int  done = 0;

    if (hs.blob && hs.buf && hs.len == hs.consumed
        && memcmp(hs.buf, hs.prefix, BEHAVE_GW_HOT_PREFIX) == 0)
    {
        store_set(&hs, hs.blob, hs.blob_len);
        done = 1;
    }

    free(hs.blob);
    hs.blob = NULL;

    return done;
}


static void
store_append(store_t *st, const char *p, size_t n)
{
    st->buf = realloc(st->buf, st->len + n + 1);
    memcpy(st->buf + st->len, p, n);
    st->len += n;
}


/* the rewrite script: compare-and-set on the first bytes */
static int
store_rewrite(store_t *st)
{
    char    *buf;
    size_t   rest;
    int      done = 0;

    if (st->blob && st->len >= st->consumed
        && memcmp(st->buf, st->prefix, BEHAVE_GW_STATE_PREFIX) == 0)
    {
        rest = st->len - st->consumed;
        buf = malloc(st->blob_len + rest + 1);
        memcpy(buf, st->blob, st->blob_len);
        memcpy(buf + st->blob_len, st->buf + st->consumed, rest);
        free(st->buf);
        st->buf = buf;
        st->len = st->blob_len + rest;
        done = 1;

        /* the hot state only when no batch came since the state read */
        if (st->hot && rest == 0) {
            store_set(&hs, st->hot, st->hot_len);
        }
    }

    free(st->blob);
    free(st->hot);
    st->blob = NULL;
    st->hot = NULL;

    return done;
}


static const char *const  modes[] = { "in order", "shuffled nearby",
                                      "shuffled throughout" };

static behave_gw_event_t  sess[MAX_EVENTS], acc[MAX_EVENTS];

/* calls answered from a checkpoint, and those whose whole-window fold differs */
static size_t  ck_calls, ck_differ;


/*
 * One session through the stored state, calls of batch events each;
 * returns the number of calls whose answer differs from the recompute.
 */
static int
replay(size_t n, int mode, size_t *late_out, size_t *calls_out,
    size_t *max_state)
{
    int                   differ, r, hot;
    char                 *enc, *stbuf, *full;
    size_t                i, j, k, nb, nacc, len, calls, late, blob_len,
                          batches, *start, *order, full_len;
    cJSON                *req, *hist, *resp, *all;
    behave_err_e          rc;
    behave_error_t        err;
    behave_gw_event_t    *b;
    behave_gw_fate_e     *fate;
    behave_gw_rewrite_t   rw;
    behave_gw_session_t   s;
    behave_gw_behavior_t  m, ref;
    store_t               st;

    gen_session(sess, n);

    /* calls of 1..48 events, some of 200..600 */
    start = malloc((n + 2) * sizeof(size_t));
    order = malloc((n + 2) * sizeof(size_t));
    nb = 0;

    for (i = 0; i < n; i += len) {
        len = max_batch ? 1 + rnd() % max_batch
              : chance(0.05) ? 200 + rnd() % 400 : 1 + rnd() % 48;
        start[nb++] = i;
    }

    start[nb] = n;

    for (i = 0; i < nb; i++) {
        order[i] = i;
    }

    for (i = 0; mode > 0 && i < nb; i++) {
        j = mode == 1 ? (i + 1 < nb && chance(0.4) ? i + 1 : i)
                      : i + rnd() % (nb - i);
        k = order[i];
        order[i] = order[j];
        order[j] = k;
    }

    memset(&st, 0, sizeof(st));
    all = cJSON_CreateArray();
    differ = 0;
    nacc = 0;
    late = 0;
    calls = 0;

    for (i = 0; i < nb + nb / 8; i++) {
        /* one call in eight is a retry of an earlier one */
        k = i < nb ? order[i] : order[rnd() % nb];
        b = &sess[start[k]];
        len = start[k + 1] - start[k];

        /* the request: the batch's events in a shuffled order */
        req = cJSON_CreateObject();
        cJSON_AddStringToObject(req, "session_id", "replay");
        hist = cJSON_AddArrayToObject(req, "interaction_history");

        for (j = 0; j < len; j++) {
            cJSON_AddItemToArray(hist,
                                 event_json(&b[i % 2 ? len - 1 - j : j]));
        }

        rc = behave_gw_behavior_batch(req, &enc, &blob_len, &err);
        if (rc != BEHAVE_OK) {
            differ++;
            cJSON_Delete(req);
            continue;
        }

        /* the script: the state before, then the batch appended */
        stbuf = script(&st, enc, blob_len, &k, &hot, &full, &full_len);
        hot_calls += hot;

        /* a rewrite that was late lands now, if it still may */
        if (st.blob) {
            store_rewrite(&st);
        }

        if (hs.blob) {
            store_rewrite_hot();
        }

        /* the fate of each event, for the recompute: from the full state */
        behave_gw_session_init(&s, 0);
        r = behave_gw_session_decode(&s, full, full_len, &len, &batches);
        {
            behave_gw_event_t  *ev;
            size_t              used, ne;

            behave_gw_batch_decode(enc, blob_len, &used, &ev, &ne);
            behave_gw_events_sort(ev, ne);
            fate = malloc((ne + 1) * sizeof(*fate));
            behave_gw_session_apply(&s, ev, ne, 1, fate);

            /* from the checkpoint, and again over the whole window */
            if (r == 0) {
                behave_gw_session_t   whole;
                behave_gw_behavior_t  from_ck, from_all;

                whole = s;
                whole.ck = 0;
                behave_gw_session_measure(&s, &from_ck);
                behave_gw_session_measure(&whole, &from_all);
                ck_calls += s.ck != 0;
                ck_differ += !same_measures(&from_ck, &from_all);
            }

            for (j = 0; j < ne; j++) {
                if (fate[j] == BEHAVE_GW_ACCEPTED) {
                    cJSON_AddItemToArray(all, event_json(&ev[j]));
                    acc[nacc++] = ev[j];
                }

                /* a retry's events are late or duplicates: not counted */
                late += i < nb && fate[j] == BEHAVE_GW_LATE;
            }

            free(fate);
            free(ev);
        }
        behave_gw_session_free(&s);

        /* the answer, as the glue gets it */
        rc = behave_gw_behavior_session(req, 1, stbuf, k, enc, blob_len, 7,
                                        &resp, &rw, &err);
        calls++;

        if (r != 0 || rc != BEHAVE_OK) {
            differ++;

        } else {
            if (rw.drop_hot) {
                store_del(&hs);
            }

            if (rw.hot && hot) {
                hs.blob = rw.hot;
                hs.blob_len = rw.hot_len;
                hs.consumed = rw.hot_consumed;
                memcpy(hs.prefix, stbuf, BEHAVE_GW_HOT_PREFIX);
                rw.hot = NULL;

                /* most land at once, some after the next call, some never */
                j = rnd() % 10;

                if (j < 7) {
                    store_rewrite_hot();

                } else if (j == 9) {
                    free(hs.blob);
                    hs.blob = NULL;
                }
            }

            if (rw.blob) {
                st.blob = rw.blob;
                st.blob_len = rw.len;
                st.consumed = rw.consumed;
                st.hot = rw.hot;
                st.hot_len = rw.hot_len;
                rw.hot = NULL;
                memcpy(st.prefix, stbuf, BEHAVE_GW_STATE_PREFIX);

                /* most land at once, some after the next call, some never */
                j = rnd() % 10;

                if (j < 7) {
                    store_rewrite(&st);

                } else if (j == 9) {
                    free(st.blob);
                    free(st.hot);
                    st.blob = NULL;
                    st.hot = NULL;
                }
            }

            /* the recompute: every accepted event, in arrival order */
            if (calls % (n > 1000 ? 7 : 1) == 0 || i + 1 == nb + nb / 8) {
                behave_gw_behavior_from_events(NULL, "x", all, &ref, &err);

                behave_gw_session_init(&s, 0);
                behave_gw_session_decode(&s, st.buf, st.len, &len, &batches);
                behave_gw_session_measure(&s, &m);
                behave_gw_session_free(&s);

                if (!same_measures(&m, &ref) || !same_answer(resp, all)) {
                    if (differ++ == 0) {
                        printf("# %s, %zu events: call %zu differs (%zu vs "
                               "%zu events)\n", modes[mode], n, calls,
                             (size_t) m.events, (size_t) ref.events);
                    }
                }
            }
        }

        if (st.len > *max_state) {
            *max_state = st.len;
        }

        free(rw.hot);
        cJSON_Delete(resp);
        cJSON_Delete(req);
        free(enc);
        free(stbuf);
        free(full);
    }

    store_del(&hs);
    free(hs.blob);
    hs.blob = NULL;

    *late_out = late;
    *calls_out = calls;

    free(st.buf);
    free(st.blob);
    free(st.hot);
    cJSON_Delete(all);
    free(start);
    free(order);

    return differ;
}


static void
test_replay(void)
{
    int      mode, d;
    size_t   i, late, calls, max_state, sizes[] = { 40, 300, 1000, 2500 };
    size_t   total_calls;

    for (mode = 0; mode < 3; mode++) {
        for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
            max_state = 0;
            ck_calls = 0;
            ck_differ = 0;
            hot_calls = 0;
            d = replay(sizes[i], mode, &late, &calls, &max_state);
            total_calls = calls;

            ok(ck_differ == 0, "%s, %zu events: the measures from the "
               "checkpoint equal the whole window's fold (%zu of %zu calls "
               "from one, %zu differ)", modes[mode], sizes[i], ck_calls,
               calls, ck_differ);

            if (mode == 0 && sizes[i] >= 1000) {
                ok(ck_calls * 2 > calls, "in order, %zu events: most calls "
                   "fold from a checkpoint (%zu of %zu)", sizes[i], ck_calls,
                   calls);
                ok(hot_calls * 2 > calls, "in order, %zu events: most calls "
                   "read the hot state (%zu of %zu)", sizes[i], hot_calls,
                   calls);

            } else {
                printf("# %s, %zu events: %zu of %zu calls read the hot "
                       "state\n", modes[mode], sizes[i], hot_calls, calls);
            }

            ok(d == 0, "%s, %zu events in %zu calls: every answer equals "
               "the recompute from the accepted events (%d differ)",
               modes[mode], sizes[i], total_calls, d);

            if (mode == 0) {
                is_int(late, 0, "%s, %zu events: none late", modes[mode],
                       sizes[i]);

            } else {
                printf("# %s, %zu events: %zu late\n", modes[mode],
                       sizes[i], late);
            }

            ok(max_state < 16384, "%s, %zu events: the stored state stays "
               "small (%zu bytes at most)", modes[mode], sizes[i],
               max_state);
        }
    }

    /* a client sending a few events a call, as the bench does */
    max_batch = 8;

    for (mode = 0; mode < 2; mode++) {
        max_state = 0;
        ck_calls = 0;
        ck_differ = 0;
        hot_calls = 0;
        d = replay(2500, mode, &late, &calls, &max_state);

        ok(d == 0 && ck_differ == 0, "%s, 2,500 events in %zu calls of 1..8: "
           "every answer equals the recompute (%d differ), the checkpoint's "
           "measures the whole window's (%zu differ)", modes[mode], calls,
           d, ck_differ);
        ok(hot_calls * 10 > calls * (mode == 0 ? 8 : 5), "%s, calls of 1..8 "
           "(one in nine a retry, whose events are old): "
           "%zu of %zu calls read the hot state", modes[mode], hot_calls,
           calls);
        ok(max_state < 16384, "%s, calls of 1..8: the stored state stays "
           "small (%zu bytes at most)", modes[mode], max_state);
    }

    max_batch = 0;
}


/* encode, decode, encode: the same bytes; damage never crashes */
static void
test_stored_form(void)
{
    int                  r, bad;
    char                *a, *b, *c;
    size_t               i, la, lb, blob_len, batches;
    behave_gw_session_t  s, t;

    gen_session(sess, 600);
    behave_gw_session_init(&s, 42);
    behave_gw_session_apply(&s, sess, 300, 1, NULL);
    behave_gw_session_apply(&s, sess + 300, 300, 1, NULL);
    ok(s.fold.events > 0 && s.nwin >= BEHAVE_GW_WINDOW
       && s.nwin <= BEHAVE_GW_WINDOW_MAX,
       "600 events: %zu settled, %zu in the window",
       (size_t) s.fold.events, s.nwin);

    a = behave_gw_session_encode(&s, &la);
    behave_gw_session_init(&t, 0);
    r = behave_gw_session_decode(&t, a, la, &blob_len, &batches);
    b = behave_gw_session_encode(&t, &lb);
    ok(r == 0 && blob_len == la && batches == 0 && la == lb
       && memcmp(a, b, la) == 0, "round trip: the same %zu bytes", la);
    ok(la < 8192, "the state of 600 events: %zu bytes", la);
    behave_gw_session_free(&t);
    free(b);

    /* every truncation, and a flipped byte at every position */
    bad = 0;

    for (i = 0; i < la; i++) {
        behave_gw_session_init(&t, 0);
        r = behave_gw_session_decode(&t, a, i, &blob_len, &batches);
        bad += r != -1;
        behave_gw_session_free(&t);
    }

    ok(bad == 0, "every truncated state is refused (%d accepted)", bad);

    c = malloc(la);

    for (i = 0; i < la; i++) {
        behave_gw_behavior_t  m;

        memcpy(c, a, la);
        c[i] ^= (char) (1 + rnd() % 255);
        behave_gw_session_init(&t, 0);

        if (behave_gw_session_decode(&t, c, la, &blob_len, &batches) == 0) {
            behave_gw_session_measure(&t, &m);
        }

        behave_gw_session_free(&t);
    }

    ok(1, "a flipped byte anywhere: decoded or refused, no crash");
    free(c);
    free(a);
    behave_gw_session_free(&s);
}


/* the answer's counts, a late event, and the seed of an older build */
static void
test_answer(void)
{
    char                 *blob, *enc, *st;
    size_t                i, len, elen, slen;
    cJSON                *req, *resp, *prior, *h;
    behave_error_t        err;
    behave_gw_rewrite_t   rw;
    behave_gw_behavior_t  ref;

    /* an older build's list: 500 events, stored as JSON, all distinct */
    gen_session(sess, 700);
    prior = cJSON_CreateArray();

    for (i = 0; i < 700; i++) {
        sess[i].t += (double) i;
    }

    for (i = 0; i < 500; i++) {
        cJSON_AddItemToArray(prior, event_json(&sess[i]));
    }

    blob = behave_gw_behavior_seed(prior, 9, &len);
    ok(blob != NULL, "an older build's 500 events seed a state of %zu "
       "bytes", len);

    /* the next call: 200 newer events, one of them again, one very old */
    req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "session_id", "seeded");
    h = cJSON_AddArrayToObject(req, "interaction_history");

    for (i = 500; i < 700; i++) {
        cJSON_AddItemToArray(h, event_json(&sess[i]));
    }

    cJSON_AddItemToArray(h, event_json(&sess[699]));
    cJSON_AddItemToArray(h, event_json(&sess[0]));

    behave_gw_behavior_batch(req, &enc, &elen, &err);
    behave_gw_behavior_session(req, 1, blob, len, enc, elen, 9, &resp, &rw,
                               &err);
    free(rw.blob);
    free(rw.hot);

    for (i = 500; i < 700; i++) {
        cJSON_AddItemToArray(prior, event_json(&sess[i]));
    }

    behave_gw_behavior_from_events(NULL, "x", prior, &ref, &err);

    is_int(cJSON_GetNumberValue(cJSON_GetObjectItem(resp, "events_prior")),
           500, "events_prior: the seeded events");
    is_int(cJSON_GetNumberValue(cJSON_GetObjectItem(resp, "events_new")),
           200, "events_new: the new ones, the repeated one not twice");
    is_int(cJSON_GetNumberValue(cJSON_GetObjectItem(resp, "events_late")),
           1, "events_late: the one older than the frontier");
    is_int(cJSON_GetNumberValue(cJSON_GetObjectItem(resp,
                                                    "events_analyzed")),
           700, "events_analyzed: all 700");
    ok(same_answer(resp, prior),
       "the seeded session answers as its full history does");

    /* a damaged state: replaced by this call's events */
    cJSON_Delete(resp);
    st = malloc(len);
    memcpy(st, blob, len);
    slen = len / 2;
    behave_gw_behavior_session(req, 1, st, slen, enc, elen, 9, &resp, &rw,
                               &err);
    ok(rw.reset && rw.blob != NULL && rw.consumed == slen + elen,
       "a damaged state is replaced whole");
    is_int(cJSON_GetNumberValue(cJSON_GetObjectItem(resp,
                                                    "events_analyzed")),
           201, "... and the call is answered from its own events");

    free(rw.blob);
    free(rw.hot);
    free(st);
    cJSON_Delete(resp);
    cJSON_Delete(req);
    cJSON_Delete(prior);
    free(enc);
    free(blob);
}


int
main(void)
{
    test_replay();
    test_stored_form();
    test_answer();

    return tap_done();
}
