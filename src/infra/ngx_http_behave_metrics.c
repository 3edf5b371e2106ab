/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * "behave_metrics;": the counters of the shared memory zone in the
 * Prometheus text format (0.0.4).  No key: like stub_status, it is meant
 * for a location restricted with allow/deny.
 */


#include "ngx_http_behave_metrics.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_stats.h"
#include "ngx_http_behave_trace.h"


#define NGX_HTTP_BEHAVE_METRICS_MAX  (64 * 1024)


static u_char *ngx_http_behave_metrics_requests(u_char *p, u_char *last,
    ngx_http_behave_stats_t *st);
static u_char *ngx_http_behave_metrics_latency(u_char *p, u_char *last,
    ngx_http_behave_stats_t *st);
static u_char *ngx_http_behave_metrics_other(u_char *p, u_char *last,
    ngx_http_behave_stats_t *st);
static u_char *ngx_http_behave_metrics_routes(u_char *p, u_char *last,
    ngx_http_behave_stats_t *st);
static u_char *ngx_http_behave_metrics_head(u_char *p, u_char *last,
    const char *name, const char *type, const char *help);
static u_char *ngx_http_behave_metrics_label(u_char *p, u_char *last,
    u_char *s, size_t len);


ngx_int_t
ngx_http_behave_metrics_handler(ngx_http_request_t *r)
{
    u_char                   *buf, *p, *last;
    ngx_int_t                 rc;
    ngx_buf_t                *b;
    ngx_chain_t               out;
    ngx_http_behave_stats_t  *st;

    if (r->method != NGX_HTTP_GET && r->method != NGX_HTTP_HEAD) {
        return ngx_http_behave_method_not_allowed(r, "GET, HEAD");
    }

    if (ngx_http_discard_request_body(r) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    (void) ngx_http_behave_trace_enter(r, NGX_HTTP_BEHAVE_STAT_METRICS);

    st = ngx_http_behave_stats();
    if (st == NULL) {
        return ngx_http_behave_fail(r, BEHAVE_ERR_UNAVAILABLE,
                                    "the statistics zone is not ready");
    }

    buf = ngx_pnalloc(r->pool, NGX_HTTP_BEHAVE_METRICS_MAX);
    if (buf == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    last = buf + NGX_HTTP_BEHAVE_METRICS_MAX;
    p = ngx_http_behave_metrics_requests(buf, last, st);
    p = ngx_http_behave_metrics_latency(p, last, st);
    p = ngx_http_behave_metrics_other(p, last, st);
    p = ngx_http_behave_metrics_routes(p, last, st);

    r->headers_out.status = NGX_HTTP_OK;
    r->headers_out.content_length_n = p - buf;
    ngx_str_set(&r->headers_out.content_type,
                "text/plain; version=0.0.4; charset=utf-8");

    rc = ngx_http_send_header(r);

    if (rc == NGX_ERROR || rc > NGX_OK || r->header_only) {
        return rc;
    }

    b = ngx_calloc_buf(r->pool);
    if (b == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    b->pos = buf;
    b->last = p;
    b->memory = 1;
    b->last_buf = 1;

    out.buf = b;
    out.next = NULL;

    return ngx_http_output_filter(r, &out);
}


static u_char *
ngx_http_behave_metrics_requests(u_char *p, u_char *last,
    ngx_http_behave_stats_t *st)
{
    ngx_uint_t  s, c;

    p = ngx_http_behave_metrics_head(p, last, "behave_requests_total",
            "counter",
            "Requests answered by the module, by surface and status class.");

    for (s = 1; s < NGX_HTTP_BEHAVE_STAT_SURFACES; s++) {
        for (c = 2; c <= 5; c++) {
            p = ngx_slprintf(p, last,
                    "behave_requests_total{surface=\"%s\",status=\"%uixx\"}"
                    " %uA\n", ngx_http_behave_stat_names[s], c,
                    st->requests[s][c]);
        }
    }

    return p;
}


static u_char *
ngx_http_behave_metrics_latency(u_char *p, u_char *last,
    ngx_http_behave_stats_t *st)
{
    ngx_uint_t         s, b;
    ngx_atomic_uint_t  cum;

    p = ngx_http_behave_metrics_head(p, last,
            "behave_request_duration_seconds", "histogram",
            "Time in the module, from the handler's start to the log phase.");

    for (s = 1; s < NGX_HTTP_BEHAVE_STAT_SURFACES; s++) {
        cum = 0;

        for (b = 0; b < NGX_HTTP_BEHAVE_STAT_BUCKETS; b++) {
            cum += st->buckets[s][b];

            if (ngx_http_behave_stat_bounds[b] < 0) {
                p = ngx_slprintf(p, last,
                        "behave_request_duration_seconds_bucket"
                        "{surface=\"%s\",le=\"+Inf\"} %uA\n",
                        ngx_http_behave_stat_names[s], cum);
                continue;
            }

            p = ngx_slprintf(p, last,
                    "behave_request_duration_seconds_bucket"
                    "{surface=\"%s\",le=\"%.5f\"} %uA\n",
                    ngx_http_behave_stat_names[s],
                    ngx_http_behave_stat_bounds[b] / 1000, cum);
        }

        p = ngx_slprintf(p, last,
                "behave_request_duration_seconds_sum{surface=\"%s\"} %.6f\n"
                "behave_request_duration_seconds_count{surface=\"%s\"} %uA\n",
                ngx_http_behave_stat_names[s],
                (double) st->latency_us[s] / 1e6,
                ngx_http_behave_stat_names[s], cum);
    }

    return p;
}


static u_char *
ngx_http_behave_metrics_other(u_char *p, u_char *last,
    ngx_http_behave_stats_t *st)
{
    ngx_uint_t  i, up;

    p = ngx_slprintf(p, last,
            "# HELP behave_redis_errors_total Redis connections lost or "
            "refused, and commands timed out.\n"
            "# TYPE behave_redis_errors_total counter\n"
            "behave_redis_errors_total %uA\n"
            "# HELP behave_redis_background_shed_total Background commands "
            "(traces, metering flushes, heartbeats) not sent because their "
            "connection had too many unanswered.\n"
            "# TYPE behave_redis_background_shed_total counter\n"
            "behave_redis_background_shed_total %uA\n"
            "# HELP behave_redis_redirects_total Redis Cluster MOVED and ASK "
            "replies followed.\n"
            "# TYPE behave_redis_redirects_total counter\n"
            "behave_redis_redirects_total %uA\n"
            "# HELP behave_degraded_total Answers given without Redis "
            "context (degraded).\n"
            "# TYPE behave_degraded_total counter\n"
            "behave_degraded_total %uA\n"
            "# HELP behave_webhook_deliveries_total Webhook deliveries by "
            "outcome.\n"
            "# TYPE behave_webhook_deliveries_total counter\n",
            st->redis_errors, st->redis_bg_shed, st->redis_redirects,
            st->degraded);

    for (i = 0; i < NGX_HTTP_BEHAVE_WH_OUTCOMES; i++) {
        p = ngx_slprintf(p, last,
                "behave_webhook_deliveries_total{outcome=\"%s\"} %uA\n",
                ngx_http_behave_wh_names[i], st->webhooks[i]);
    }

    up = 0;
    for (i = 0; i < NGX_HTTP_BEHAVE_STAT_WORKERS; i++) {
        if (st->workers[i].pid != 0
            && kill((ngx_pid_t) st->workers[i].pid, 0) == 0)
        {
            up++;
        }
    }

    p = ngx_slprintf(p, last,
            "# HELP behave_inflight_requests Requests being served now.\n"
            "# TYPE behave_inflight_requests gauge\n"
            "behave_inflight_requests %ui\n"
            "# HELP behave_workers_up Worker processes alive on this node.\n"
            "# TYPE behave_workers_up gauge\n"
            "behave_workers_up %ui\n"
            "# HELP behave_node_info This nginx instance (behave_node_name)."
            "\n"
            "# TYPE behave_node_info gauge\n"
            "behave_node_info{node=\"%s\"} 1\n",
            ngx_http_behave_stats_inflight(st), up,
            ngx_http_behave_stats_node());

    return p;
}


/* the routes behave_route took (or would have, in shadow mode) */

static u_char *
ngx_http_behave_metrics_routes(u_char *p, u_char *last,
    ngx_http_behave_stats_t *st)
{
    ngx_uint_t                     i, m;
    ngx_http_behave_stat_route_t  *rt;

    p = ngx_http_behave_metrics_head(p, last, "behave_routes_total",
            "counter",
            "Pre-filtered requests a behave_route matched, by target and "
            "mode (enforce: redirected; shadow: behave_route_shadow on, not "
            "redirected).");

    for (i = 0; i <= NGX_HTTP_BEHAVE_STAT_ROUTES; i++) {
        rt = i < NGX_HTTP_BEHAVE_STAT_ROUTES ? &st->routes[i] : NULL;

        if (rt != NULL && rt->len == 0) {
            continue;
        }

        for (m = 0; m < NGX_HTTP_BEHAVE_ROUTE_MODES; m++) {
            if (rt == NULL && st->routes_other[m] == 0) {
                continue;
            }

            p = ngx_slprintf(p, last, "behave_routes_total{target=\"");

            if (rt != NULL) {
                p = ngx_http_behave_metrics_label(p, last, rt->name, rt->len);

            } else {
                p = ngx_slprintf(p, last, "(other)");
            }

            p = ngx_slprintf(p, last, "\",mode=\"%s\"} %uA\n",
                             ngx_http_behave_route_mode_names[m],
                             rt != NULL ? rt->count[m]
                                        : st->routes_other[m]);
        }
    }

    return p;
}


/* a family's "# HELP" and "# TYPE" lines, its name written once */

static u_char *
ngx_http_behave_metrics_head(u_char *p, u_char *last, const char *name,
    const char *type, const char *help)
{
    return ngx_slprintf(p, last, "# HELP %s %s\n# TYPE %s %s\n",
                        name, help, name, type);
}


/* a label value, with backslash, quote and newline escaped (0.0.4) */

static u_char *
ngx_http_behave_metrics_label(u_char *p, u_char *last, u_char *s, size_t len)
{
    size_t  i;

    for (i = 0; i < len && last - p >= 2; i++) {
        if (s[i] == '\\' || s[i] == '"') {
            *p++ = '\\';
            *p++ = s[i];

        } else if (s[i] == '\n') {
            *p++ = '\\';
            *p++ = 'n';

        } else {
            *p++ = s[i];
        }
    }

    return p;
}
