/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Counters and latency histograms of every worker, in the module's shared
 * memory zone: what /metrics, agent-status and the concurrency limit read.
 */

#ifndef NGX_HTTP_BEHAVE_STATS_H
#define NGX_HTTP_BEHAVE_STATS_H

#include "ngx_http_behave_common.h"


typedef enum {
    NGX_HTTP_BEHAVE_STAT_NONE = 0,
    NGX_HTTP_BEHAVE_STAT_ANALYZE,
    NGX_HTTP_BEHAVE_STAT_WEBHOOKS,
    NGX_HTTP_BEHAVE_STAT_GATEWAY,
    NGX_HTTP_BEHAVE_STAT_PREFILTER,
    NGX_HTTP_BEHAVE_STAT_METRICS,
    NGX_HTTP_BEHAVE_STAT_SURFACES
} ngx_http_behave_stat_surface_e;


typedef enum {
    NGX_HTTP_BEHAVE_WH_PROCESSED = 0,
    NGX_HTTP_BEHAVE_WH_DUPLICATE,
    NGX_HTTP_BEHAVE_WH_IGNORED,
    NGX_HTTP_BEHAVE_WH_PAUSED,
    NGX_HTTP_BEHAVE_WH_REJECTED,
    NGX_HTTP_BEHAVE_WH_FAILED,
    NGX_HTTP_BEHAVE_WH_OUTCOMES
} ngx_http_behave_wh_outcome_e;


#define NGX_HTTP_BEHAVE_STAT_BUCKETS   15
#define NGX_HTTP_BEHAVE_STAT_WORKERS   64
#define NGX_HTTP_BEHAVE_STAT_RING      64
#define NGX_HTTP_BEHAVE_STAT_ROUTES    32   /* route targets counted */
#define NGX_HTTP_BEHAVE_STAT_ROUTE_LEN 64   /* bytes of a target kept */


/* how a route was taken: redirected, or only named (behave_route_shadow) */
typedef enum {
    NGX_HTTP_BEHAVE_ROUTE_ENFORCE = 0,
    NGX_HTTP_BEHAVE_ROUTE_SHADOW,
    NGX_HTTP_BEHAVE_ROUTE_MODES
} ngx_http_behave_route_mode_e;


/* a route target's slot: claimed by its name (len 0: free), never freed */
typedef struct {
    ngx_atomic_t                count[NGX_HTTP_BEHAVE_ROUTE_MODES];
    size_t                      len;
    u_char                      name[NGX_HTTP_BEHAVE_STAT_ROUTE_LEN];
} ngx_http_behave_stat_route_t;


typedef struct {
    ngx_atomic_t                pid;
    ngx_atomic_t                started;
    ngx_atomic_t                requests;
    ngx_atomic_t                errors;          /* 5xx */
    ngx_atomic_t                inflight;
    ngx_atomic_t                redis_up;
    ngx_atomic_t                buckets[NGX_HTTP_BEHAVE_STAT_BUCKETS];
} ngx_http_behave_stat_worker_t;


struct ngx_http_behave_stats_s {
    ngx_atomic_t                requests[NGX_HTTP_BEHAVE_STAT_SURFACES][6];
    ngx_atomic_t                buckets[NGX_HTTP_BEHAVE_STAT_SURFACES]
                                       [NGX_HTTP_BEHAVE_STAT_BUCKETS];
    ngx_atomic_t                latency_us[NGX_HTTP_BEHAVE_STAT_SURFACES];
    ngx_atomic_t                redis_errors;
    ngx_atomic_t                redis_bg_shed;
    ngx_atomic_t                redis_redirects;
    ngx_atomic_t                degraded;
    ngx_atomic_t                webhooks[NGX_HTTP_BEHAVE_WH_OUTCOMES];
    ngx_http_behave_stat_route_t  routes[NGX_HTTP_BEHAVE_STAT_ROUTES];
    ngx_atomic_t                routes_other[NGX_HTTP_BEHAVE_ROUTE_MODES];
    ngx_atomic_t                ring_sec[NGX_HTTP_BEHAVE_STAT_RING];
    ngx_atomic_t                ring_count[NGX_HTTP_BEHAVE_STAT_RING];
    ngx_http_behave_stat_worker_t  workers[NGX_HTTP_BEHAVE_STAT_WORKERS];
};


extern const double  ngx_http_behave_stat_bounds[NGX_HTTP_BEHAVE_STAT_BUCKETS];
extern const char   *ngx_http_behave_stat_names[NGX_HTTP_BEHAVE_STAT_SURFACES];
extern const char   *ngx_http_behave_wh_names[NGX_HTTP_BEHAVE_WH_OUTCOMES];
extern const char   *ngx_http_behave_route_mode_names[
                         NGX_HTTP_BEHAVE_ROUTE_MODES];


ngx_int_t ngx_http_behave_stats_init_zone(ngx_slab_pool_t *shpool,
    ngx_http_behave_stats_t **stats);
ngx_int_t ngx_http_behave_stats_init(ngx_conf_t *cf);
void ngx_http_behave_stats_init_process(ngx_cycle_t *cycle);

/* this nginx instance's name (agent-status, metrics) */
const char *ngx_http_behave_stats_node(void);

ngx_http_behave_stats_t *ngx_http_behave_stats(void);

/* marks the request as one of a surface: counted in flight until logged */
void ngx_http_behave_stats_enter(ngx_http_request_t *r,
    ngx_http_behave_stat_surface_e surface);

void ngx_http_behave_stats_redis_error(void);
void ngx_http_behave_stats_redis_state(ngx_uint_t up);
void ngx_http_behave_stats_redis_bg_shed(void);
void ngx_http_behave_stats_redis_redirect(void);
void ngx_http_behave_stats_degraded(void);
void ngx_http_behave_stats_webhook(ngx_http_behave_wh_outcome_e outcome);

/*
 * A route taken to target, in a mode.  *slot caches the target's slot in
 * this worker (NGX_CONF_UNSET_UINT until the first count): the slot is
 * found or claimed by name, under the zone's lock, once.  Targets past
 * NGX_HTTP_BEHAVE_STAT_ROUTES are counted together.
 */
void ngx_http_behave_stats_route(const ngx_str_t *target,
    ngx_http_behave_route_mode_e mode, ngx_uint_t *slot);

/* requests per second over the last 60 seconds, this node */
double ngx_http_behave_stats_throughput(ngx_http_behave_stats_t *st);

/* the 95th percentile (ms) of a histogram, by linear interpolation */
double ngx_http_behave_stats_p95(ngx_atomic_t *buckets);

ngx_uint_t ngx_http_behave_stats_inflight(ngx_http_behave_stats_t *st);


#endif /* NGX_HTTP_BEHAVE_STATS_H */
