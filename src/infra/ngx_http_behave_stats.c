/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Every request a behave handler takes is counted in the log phase: by
 * surface and status class, in a latency histogram, and in its worker's
 * slot.  Counters are atomics in shared memory: no lock on the hot path.
 */


#include "ngx_http_behave_stats.h"
#include "ngx_http_behave_util.h"


static ngx_int_t ngx_http_behave_stats_log_handler(ngx_http_request_t *r);
static void ngx_http_behave_stats_leave(void *data);
static ngx_uint_t ngx_http_behave_stats_bucket(double ms);
static void ngx_http_behave_stats_tick(ngx_http_behave_stats_t *st);
static void ngx_http_behave_stats_node_init(ngx_cycle_t *cycle,
    ngx_http_behave_main_conf_t *bmcf);
static ngx_uint_t ngx_http_behave_stats_route_slot(ngx_http_behave_stats_t *st,
    const ngx_str_t *target);


/* upper bounds in milliseconds; the last is +Inf */
const double  ngx_http_behave_stat_bounds[NGX_HTTP_BEHAVE_STAT_BUCKETS] = {
    0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, -1
};

const char  *ngx_http_behave_stat_names[NGX_HTTP_BEHAVE_STAT_SURFACES] = {
    "none", "analyze", "webhooks", "gateway", "prefilter", "metrics"
};

const char  *ngx_http_behave_wh_names[NGX_HTTP_BEHAVE_WH_OUTCOMES] = {
    "processed", "duplicate", "ignored", "paused", "rejected", "failed"
};

const char  *ngx_http_behave_route_mode_names[NGX_HTTP_BEHAVE_ROUTE_MODES] = {
    "enforce", "shadow"
};


static ngx_http_behave_stats_t  *ngx_http_behave_stats_shm;
static ngx_slab_pool_t          *ngx_http_behave_stats_pool;
static ngx_http_behave_stat_worker_t  *ngx_http_behave_stats_me;

/* NUL-terminated; behave_node_name is at most 64 */
static char  ngx_http_behave_node[NGX_MAXHOSTNAMELEN + 16];


ngx_int_t
ngx_http_behave_stats_init_zone(ngx_slab_pool_t *shpool,
    ngx_http_behave_stats_t **stats)
{
    *stats = ngx_slab_calloc(shpool, sizeof(ngx_http_behave_stats_t));

    return *stats ? NGX_OK : NGX_ERROR;
}


ngx_int_t
ngx_http_behave_stats_init(ngx_conf_t *cf)
{
    return ngx_http_behave_phase_handler_add(cf, NGX_HTTP_LOG_PHASE,
                                             ngx_http_behave_stats_log_handler);
}


/*
 * The node's name: behave_node_name, else "<host name>:<first listening
 * port>", which tells two instances on one host apart and stays the same
 * across restarts (a master pid would not).
 */

static void
ngx_http_behave_stats_node_init(ngx_cycle_t *cycle,
    ngx_http_behave_main_conf_t *bmcf)
{
    u_char           *p, *last;
    in_port_t         port;
    ngx_listening_t  *ls;

    p = (u_char *) ngx_http_behave_node;
    last = p + sizeof(ngx_http_behave_node) - 1;

    if (bmcf->node_name.len) {
        p = ngx_slprintf(p, last, "%V", &bmcf->node_name);

    } else {
        ls = cycle->listening.elts;
        port = cycle->listening.nelts ? ngx_inet_get_port(ls[0].sockaddr)
                                      : 0;

        p = ngx_slprintf(p, last, "%V", &cycle->hostname);

        if (port) {
            p = ngx_slprintf(p, last, ":%d", (int) port);

        } else {
            p = ngx_slprintf(p, last, ":%P", getppid());
        }
    }

    *p = '\0';
}


const char *
ngx_http_behave_stats_node(void)
{
    return ngx_http_behave_node;
}


void
ngx_http_behave_stats_init_process(ngx_cycle_t *cycle)
{
    ngx_uint_t                      i;
    ngx_atomic_uint_t               pid;
    ngx_http_behave_main_conf_t    *bmcf;
    ngx_http_behave_stat_worker_t  *w;

    bmcf = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_behave_module);

    if (bmcf == NULL || bmcf->stats == NULL) {
        return;
    }

    ngx_http_behave_stats_node_init(cycle, bmcf);

    ngx_http_behave_stats_shm = bmcf->stats;
    ngx_http_behave_stats_pool = bmcf->shpool;

    /*
     * A slot per live process, claimed by pid: after a reload the old
     * workers still drain into their own slots while the new ones start.
     * With more workers than slots, the extra ones count only the totals.
     */
    for (i = 0; i < NGX_HTTP_BEHAVE_STAT_WORKERS; i++) {
        w = &bmcf->stats->workers[i];
        pid = w->pid;

        if (pid != 0 && kill((ngx_pid_t) pid, 0) == 0) {
            continue;
        }

        if (ngx_atomic_cmp_set(&w->pid, pid, ngx_pid)) {
            w->started = ngx_time();
            w->requests = 0;
            w->errors = 0;
            w->inflight = 0;
            w->redis_up = 0;
            ngx_memzero((void *) w->buckets, sizeof(w->buckets));

            ngx_http_behave_stats_me = w;
            return;
        }
    }
}


ngx_http_behave_stats_t *
ngx_http_behave_stats(void)
{
    return ngx_http_behave_stats_shm;
}


void
ngx_http_behave_stats_enter(ngx_http_request_t *r,
    ngx_http_behave_stat_surface_e surface)
{
    ngx_pool_cleanup_t     *cln;
    ngx_http_behave_ctx_t  *ctx;

    ctx = ngx_http_behave_get_ctx(r);

    if (ctx == NULL || ctx->stat_surface != NGX_HTTP_BEHAVE_STAT_NONE) {
        return;
    }

    ctx->stat_surface = surface;

    /*
     * In flight until the request is freed: a pool cleanup, because an
     * internal redirect clears the module context the log phase would
     * need.
     */
    if (ngx_http_behave_stats_me != NULL) {
        cln = ngx_pool_cleanup_add(r->pool, 0);

        if (cln != NULL) {
            cln->handler = ngx_http_behave_stats_leave;
            cln->data = ngx_http_behave_stats_me;
            (void) ngx_atomic_fetch_add(&ngx_http_behave_stats_me->inflight,
                                        1);
        }
    }
}


static void
ngx_http_behave_stats_leave(void *data)
{
    ngx_http_behave_stat_worker_t  *w = data;

    (void) ngx_atomic_fetch_add(&w->inflight, -1);
}


void
ngx_http_behave_stats_route(const ngx_str_t *target,
    ngx_http_behave_route_mode_e mode, ngx_uint_t *slot)
{
    ngx_http_behave_stats_t  *st;

    st = ngx_http_behave_stats_shm;

    if (st == NULL) {
        return;
    }

    if (*slot == NGX_CONF_UNSET_UINT) {
        ngx_shmtx_lock(&ngx_http_behave_stats_pool->mutex);
        *slot = ngx_http_behave_stats_route_slot(st, target);
        ngx_shmtx_unlock(&ngx_http_behave_stats_pool->mutex);
    }

    if (*slot < NGX_HTTP_BEHAVE_STAT_ROUTES) {
        (void) ngx_atomic_fetch_add(&st->routes[*slot].count[mode], 1);

    } else {
        (void) ngx_atomic_fetch_add(&st->routes_other[mode], 1);
    }
}


/*
 * The slot named target, or the first free one, named now (the zone
 * outlives a reload: a target keeps its slot); past the last,
 * NGX_HTTP_BEHAVE_STAT_ROUTES
 */

static ngx_uint_t
ngx_http_behave_stats_route_slot(ngx_http_behave_stats_t *st,
    const ngx_str_t *target)
{
    size_t                         len;
    ngx_uint_t                     i;
    ngx_http_behave_stat_route_t  *rt;

    len = ngx_min(target->len, NGX_HTTP_BEHAVE_STAT_ROUTE_LEN);

    for (i = 0; i < NGX_HTTP_BEHAVE_STAT_ROUTES; i++) {
        rt = &st->routes[i];

        if (rt->len == 0) {
            ngx_memcpy(rt->name, target->data, len);
            rt->len = len;
            return i;
        }

        if (rt->len == len && ngx_memcmp(rt->name, target->data, len) == 0) {
            return i;
        }
    }

    return NGX_HTTP_BEHAVE_STAT_ROUTES;
}


static ngx_int_t
ngx_http_behave_stats_log_handler(ngx_http_request_t *r)
{
    double                          ms;
    ngx_uint_t                      s, cls, b;
    ngx_http_behave_ctx_t          *ctx;
    ngx_http_behave_stats_t        *st;
    ngx_http_behave_stat_worker_t  *w;

    st = ngx_http_behave_stats_shm;
    w = ngx_http_behave_stats_me;
    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (st == NULL || ctx == NULL
        || ctx->stat_surface == NGX_HTTP_BEHAVE_STAT_NONE || r != r->main)
    {
        return NGX_OK;
    }

    s = ctx->stat_surface;
    cls = ngx_min(r->headers_out.status / 100, 5);
    ms = ngx_http_behave_now_ms() - ctx->started_ms;
    b = ngx_http_behave_stats_bucket(ms);

    (void) ngx_atomic_fetch_add(&st->requests[s][cls], 1);
    (void) ngx_atomic_fetch_add(&st->buckets[s][b], 1);
    (void) ngx_atomic_fetch_add(&st->latency_us[s], (ngx_atomic_int_t)
                                                    (ms * 1000));

    if (w != NULL) {
        (void) ngx_atomic_fetch_add(&w->requests, 1);
        (void) ngx_atomic_fetch_add(&w->buckets[b], 1);

        if (cls == 5) {
            (void) ngx_atomic_fetch_add(&w->errors, 1);
        }
    }

    ngx_http_behave_stats_tick(st);

    return NGX_OK;
}


static ngx_uint_t
ngx_http_behave_stats_bucket(double ms)
{
    ngx_uint_t  i;

    for (i = 0; i < NGX_HTTP_BEHAVE_STAT_BUCKETS - 1; i++) {
        if (ms <= ngx_http_behave_stat_bounds[i]) {
            return i;
        }
    }

    return NGX_HTTP_BEHAVE_STAT_BUCKETS - 1;
}


/*
 * One slot a second in a ring: the worker that first sees a new second
 * claims its slot with a compare-and-set, so a count is never reset twice.
 */

static void
ngx_http_behave_stats_tick(ngx_http_behave_stats_t *st)
{
    time_t              now;
    ngx_uint_t          i;
    ngx_atomic_uint_t   old;

    now = ngx_time();
    i = (ngx_uint_t) now % NGX_HTTP_BEHAVE_STAT_RING;
    old = st->ring_sec[i];

    if (old != (ngx_atomic_uint_t) now
        && ngx_atomic_cmp_set(&st->ring_sec[i], old, now))
    {
        st->ring_count[i] = 0;
    }

    (void) ngx_atomic_fetch_add(&st->ring_count[i], 1);
}


double
ngx_http_behave_stats_throughput(ngx_http_behave_stats_t *st)
{
    time_t      now;
    ngx_uint_t  i, total;

    now = ngx_time();
    total = 0;

    for (i = 0; i < NGX_HTTP_BEHAVE_STAT_RING; i++) {
        if ((time_t) st->ring_sec[i] > now - 60
            && (time_t) st->ring_sec[i] <= now)
        {
            total += st->ring_count[i];
        }
    }

    return total / 60.0;
}


double
ngx_http_behave_stats_p95(ngx_atomic_t *buckets)
{
    double      lo, hi, target, seen, n;
    ngx_uint_t  i, total;

    total = 0;
    for (i = 0; i < NGX_HTTP_BEHAVE_STAT_BUCKETS; i++) {
        total += buckets[i];
    }

    if (total == 0) {
        return 0;
    }

    target = total * 0.95;
    seen = 0;
    lo = 0;

    for (i = 0; i < NGX_HTTP_BEHAVE_STAT_BUCKETS; i++) {
        n = buckets[i];
        hi = ngx_http_behave_stat_bounds[i];

        if (hi < 0) {
            return lo;
        }

        if (seen + n >= target && n > 0) {
            return lo + (hi - lo) * (target - seen) / n;
        }

        seen += n;
        lo = hi;
    }

    return lo;
}


ngx_uint_t
ngx_http_behave_stats_inflight(ngx_http_behave_stats_t *st)
{
    ngx_uint_t  i, n;

    n = 0;

    for (i = 0; i < NGX_HTTP_BEHAVE_STAT_WORKERS; i++) {
        if (st->workers[i].pid != 0) {
            n += st->workers[i].inflight;
        }
    }

    return n;
}


void
ngx_http_behave_stats_redis_error(void)
{
    if (ngx_http_behave_stats_shm != NULL) {
        (void) ngx_atomic_fetch_add(&ngx_http_behave_stats_shm->redis_errors,
                                    1);
    }
}


void
ngx_http_behave_stats_redis_bg_shed(void)
{
    if (ngx_http_behave_stats_shm != NULL) {
        (void) ngx_atomic_fetch_add(
                          &ngx_http_behave_stats_shm->redis_bg_shed, 1);
    }
}


void
ngx_http_behave_stats_redis_redirect(void)
{
    if (ngx_http_behave_stats_shm != NULL) {
        (void) ngx_atomic_fetch_add(
                          &ngx_http_behave_stats_shm->redis_redirects, 1);
    }
}


void
ngx_http_behave_stats_redis_state(ngx_uint_t up)
{
    if (ngx_http_behave_stats_me != NULL) {
        ngx_http_behave_stats_me->redis_up = up;
    }
}


void
ngx_http_behave_stats_degraded(void)
{
    if (ngx_http_behave_stats_shm != NULL) {
        (void) ngx_atomic_fetch_add(&ngx_http_behave_stats_shm->degraded, 1);
    }
}


void
ngx_http_behave_stats_webhook(ngx_http_behave_wh_outcome_e outcome)
{
    if (ngx_http_behave_stats_shm != NULL
        && outcome < NGX_HTTP_BEHAVE_WH_OUTCOMES)
    {
        (void) ngx_atomic_fetch_add(
                   &ngx_http_behave_stats_shm->webhooks[outcome], 1);
    }
}
