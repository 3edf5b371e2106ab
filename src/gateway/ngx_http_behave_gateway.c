/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface A: one content handler for /api/v1/<operation>.
 *
 * Order of work: find the operation, check the method and the key, read
 * the body (both GET operations take a JSON body, as the spec shows, or
 * query arguments), apply the limits (one Redis step), then compute.  The
 * computations are the core's (src/core/gateway/behave_gw_*.c); agent-status and
 * traces read Redis too.  Every answer carries RateLimit-* headers once
 * the limits were consulted.
 */


#include "ngx_http_behave_gateway.h"
#include "ngx_http_behave_agents.h"
#include "ngx_http_behave_auth.h"
#include "ngx_http_behave_body.h"
#include "ngx_http_behave_gw_behavior.h"
#include "ngx_http_behave_limits.h"
#include "ngx_http_behave_offload.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_trace.h"
#include "ngx_http_behave_traces.h"
#include "ngx_http_behave_util.h"

#include "base/behave_json.h"
#include "base/behave_json_arena.h"
#include "gateway/behave_gateway.h"
#include "analyze/behave_request.h"
#include "base/behave_utf8.h"


typedef struct {
    ngx_str_t                   path;
    ngx_uint_t                  method;         /* NGX_HTTP_GET|POST */
} ngx_http_behave_gw_route_t;


static ngx_http_behave_gw_route_t  ngx_http_behave_gw_routes[] = {
    { ngx_string("behavioral-signals"),    NGX_HTTP_POST },
    { ngx_string("orchestrate-models"),    NGX_HTTP_POST },
    { ngx_string("analyze-behavior"),      NGX_HTTP_POST },
    { ngx_string("agent-status"),          NGX_HTTP_GET },
    { ngx_string("adaptive-ui"),           NGX_HTTP_POST },
    { ngx_string("observability/traces"),  NGX_HTTP_GET },
};


static ngx_int_t ngx_http_behave_gw_route(ngx_http_request_t *r);
static void ngx_http_behave_gw_body(ngx_http_request_t *r);
static void ngx_http_behave_gw_parse(void *data);
static ngx_int_t ngx_http_behave_gw_parsed(ngx_http_request_t *r,
    void *data);
static ngx_http_behave_step_t ngx_http_behave_gw_session(
    ngx_http_request_t *r, ngx_http_behave_gw_t *gw);
static ngx_http_behave_step_t ngx_http_behave_gw_args(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);
static void ngx_http_behave_gw_limited(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);
static ngx_int_t ngx_http_behave_gw_decided(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);
static ngx_int_t ngx_http_behave_gw_compute(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);
static void ngx_http_behave_gw_run(void *data);
static ngx_int_t ngx_http_behave_gw_computed(ngx_http_request_t *r,
    void *data);
static void ngx_http_behave_gw_free_tree(void *ptr);
static void ngx_http_behave_gw_cleanup(void *data);


ngx_int_t
ngx_http_behave_gateway_handler(ngx_http_request_t *r)
{
    ngx_int_t                    op;
    behave_error_t               err;
    ngx_http_behave_gw_t        *gw;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_loc_conf_t  *blcf;

    ctx = ngx_http_behave_trace_enter(r, NGX_HTTP_BEHAVE_STAT_GATEWAY);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    op = ngx_http_behave_gw_route(r);

    if (op < 0) {
        behave_error_set(&err, BEHAVE_ERR_NOT_FOUND,
                         "no such gateway operation");
        return ngx_http_behave_refuse(r, &err);
    }

    if (r->method != ngx_http_behave_gw_routes[op].method) {
        return ngx_http_behave_method_not_allowed(r,
                   ngx_http_behave_gw_routes[op].method == NGX_HTTP_GET
                   ? "GET" : "POST");
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    gw = ngx_pcalloc(r->pool, sizeof(ngx_http_behave_gw_t));
    if (gw == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    gw->op = op;
    ctx->surface = gw;

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave gateway: operation \"%V\"",
                   &ngx_http_behave_gw_routes[op].path);

    if (ngx_http_behave_authenticate(r, blcf->keys, BEHAVE_SCOPE_GATEWAY,
                                     &gw->key, &err)
        != NGX_OK)
    {
        return ngx_http_behave_refuse(r, &err);
    }

    ctx->key = gw->key;

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave gateway: key of tenant \"%s\"", gw->key->tenant);

    /* a GET may come without a body; a body must be JSON either way */
    if ((r->method == NGX_HTTP_POST || r->headers_in.content_length_n > 0
         || r->headers_in.chunked)
        && ngx_http_behave_check_body(r, blcf->max_body_size, &err)
           != NGX_OK)
    {
        return ngx_http_behave_refuse(r, &err);
    }

    return ngx_http_behave_read_body(r, ngx_http_behave_gw_body);
}


static ngx_int_t
ngx_http_behave_gw_route(ngx_http_request_t *r)
{
    u_char     *p, *last;
    size_t      len;
    ngx_uint_t  i;

    static const char  prefix[] = "/api/v1/";

    p = r->uri.data;
    last = p + r->uri.len;

    /* the location may be /api/v1/ or any prefix ending in it */
    p = ngx_strlcasestrn(p, last, (u_char *) prefix, sizeof(prefix) - 2);
    if (p == NULL) {
        return -1;
    }

    p += sizeof(prefix) - 1;
    len = last - p;

    while (len && p[len - 1] == '/') {
        len--;
    }

    for (i = 0; i < NGX_HTTP_BEHAVE_GW_OPS; i++) {
        if (ngx_http_behave_gw_routes[i].path.len == len
            && ngx_strncmp(ngx_http_behave_gw_routes[i].path.data, p, len)
               == 0)
        {
            return i;
        }
    }

    return -1;
}


static void
ngx_http_behave_gw_body(ngx_http_request_t *r)
{
    ngx_time_t                   *tp;
    ngx_http_behave_gw_t         *gw;
    ngx_http_behave_ctx_t        *ctx;
    ngx_http_behave_step_t        step;
    ngx_http_behave_loc_conf_t   *blcf;
    ngx_http_behave_main_conf_t  *bmcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);
    bmcf = ngx_http_get_module_main_conf(r, ngx_http_behave_module);
    gw = ctx->surface;

    tp = ngx_timeofday();
    gw->now_ms = (int64_t) tp->sec * 1000 + tp->msec;

    step = ngx_http_behave_body_reserve(r, blcf->max_body_size, &gw->body);

    if (step.answered) {
        ngx_http_behave_finish(r, step.rc);
        return;
    }

    /* the tree is freed whatever happens, even while a thread builds it */
    if (ngx_http_behave_on_cleanup(r->pool, ngx_http_behave_gw_cleanup, gw)
        != NGX_OK)
    {
        ngx_http_behave_finish(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    gw->bufs = r->request_body ? r->request_body->bufs : NULL;
    gw->blcf = blcf;
    gw->models = bmcf->models;
    gw->empty = gw->body.len == 0 && r->method == NGX_HTTP_GET;

    ngx_http_behave_finish(r, ngx_http_behave_offload(r, gw->body.len,
                                  ngx_http_behave_gw_parse,
                                  ngx_http_behave_gw_parsed, gw));
}


/* in a thread for a large body: the body's string, the check, the tree */

static void
ngx_http_behave_gw_parse(void *data)
{
    ngx_http_behave_gw_t  *gw = data;

    if (ngx_http_behave_body_fill(gw->bufs, &gw->body) != NGX_OK) {
        gw->unread = 1;
        return;
    }

    if (gw->empty) {
        gw->req = cJSON_CreateObject();
        gw->oom = gw->req == NULL;
        return;
    }

    gw->req = behave_json_parse_object_arena((char *) gw->body.data,
                                             gw->body.len, &gw->arena,
                                             &gw->err);
}


static ngx_int_t
ngx_http_behave_gw_parsed(ngx_http_request_t *r, void *data)
{
    ngx_int_t                    rc;
    ngx_http_behave_gw_t        *gw = data;
    ngx_http_behave_step_t       step;
    ngx_http_behave_loc_conf_t  *blcf;

    if (gw->unread) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: short read of the request body temp file");
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave gateway: body of %uz bytes %s", gw->body.len,
                   gw->req ? "parsed" : "refused");

    if (gw->req == NULL) {
        return gw->oom ? NGX_HTTP_INTERNAL_SERVER_ERROR
                       : ngx_http_behave_send_error(r, &gw->err);
    }

    step = ngx_http_behave_gw_session(r, gw);

    if (step.answered) {
        return step.rc;
    }

    blcf = gw->blcf;

    /* tokens the gateway processes: about four bytes of text each */
    gw->limit.rpm = blcf->gw_rpm;
    gw->limit.concurrent = blcf->gw_concurrent;
    gw->limit.tokens_per_day = blcf->gw_tokens_per_day;
    gw->limit.cost = gw->body.len / 4 + 1;
    gw->limited_handler = ngx_http_behave_gw_limited;

    rc = ngx_http_behave_limits_check(r, gw);

    if (rc == NGX_DONE) {
        return NGX_DONE;
    }

    if (rc != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    return ngx_http_behave_gw_decided(r, gw);
}


/* $behave_session_id, and the query arguments of a GET */

static ngx_http_behave_step_t
ngx_http_behave_gw_session(ngx_http_request_t *r, ngx_http_behave_gw_t *gw)
{
    cJSON                  *sid;
    ngx_http_behave_ctx_t  *ctx;

    /* the tree lives until after the log phase */
    sid = cJSON_GetObjectItemCaseSensitive(gw->req, "session_id");
    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (ctx != NULL && cJSON_IsString(sid)) {
        ctx->session_id.data = (u_char *) sid->valuestring;
        ctx->session_id.len = ngx_strlen(sid->valuestring);
    }

    if (r->method == NGX_HTTP_GET && r->args.len) {
        return ngx_http_behave_gw_args(r, gw);
    }

    return ngx_http_behave_go_on();
}


/*
 * Query arguments of the GET operations, where the body does not set the
 * same field: filter, trace_id, service_filter, from and to (time_range).
 */

static ngx_http_behave_step_t
ngx_http_behave_gw_args(ngx_http_request_t *r, ngx_http_behave_gw_t *gw)
{
    u_char      *dst, *src;
    cJSON       *range;
    ngx_str_t    value;
    ngx_uint_t   i;
    double       num;

    static const char  *names[] = { "filter", "trace_id", "service_filter",
                                    "from", "to" };

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {

        if (ngx_http_arg(r, (u_char *) names[i], ngx_strlen(names[i]), &value)
            != NGX_OK)
        {
            continue;
        }

        dst = ngx_pnalloc(r->pool, value.len + 1);
        if (dst == NULL) {
            return ngx_http_behave_answered(NGX_HTTP_INTERNAL_SERVER_ERROR);
        }

        src = value.data;
        value.data = dst;
        ngx_unescape_uri(&dst, &src, value.len, NGX_UNESCAPE_URI);
        *dst = '\0';

        /* as in JSON bodies: no NUL to cut the string short, UTF-8 only */
        if (!behave_utf8_valid_text(value.data, dst - value.data)) {
            return ngx_http_behave_answered(ngx_http_behave_fail(r,
                       BEHAVE_ERR_INVALID_FIELD,
                       "a query argument is not UTF-8 text (%00 or a bad "
                       "byte)"));
        }

        if (i < 3) {
            if (!cJSON_HasObjectItem(gw->req, names[i])) {
                cJSON_AddStringToObject(gw->req, names[i],
                                        (char *) value.data);
            }

            continue;
        }

        range = cJSON_GetObjectItemCaseSensitive(gw->req, "time_range");
        if (range == NULL) {
            range = cJSON_AddObjectToObject(gw->req, "time_range");
        }

        num = ngx_atoi(value.data, dst - value.data);

        if (range != NULL && cJSON_IsObject(range)
            && !cJSON_HasObjectItem(range, names[i]))
        {
            if (num == NGX_ERROR) {
                cJSON_AddStringToObject(range, names[i], (char *) value.data);

            } else {
                cJSON_AddNumberToObject(range, names[i], num);
            }
        }
    }

    return ngx_http_behave_go_on();
}


static void
ngx_http_behave_gw_limited(ngx_http_request_t *r, ngx_http_behave_gw_t *gw)
{
    ngx_http_behave_finish(r, ngx_http_behave_gw_decided(r, gw));
}


static ngx_int_t
ngx_http_behave_gw_decided(ngx_http_request_t *r, ngx_http_behave_gw_t *gw)
{
    u_char          *p;
    behave_error_t   err;

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave gateway: limits (%s): %s, %ui left",
                   gw->limit.source ? gw->limit.source : "none",
                   gw->limit.reason ? gw->limit.reason : "allowed",
                   gw->limit.remaining);

    if (ngx_http_behave_limits_headers(r, gw) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (gw->limit.reason == NULL) {
        return ngx_http_behave_gw_compute(r, gw);
    }

    p = ngx_pnalloc(r->pool, NGX_TIME_T_LEN + 1);
    if (p == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    (void) ngx_sprintf(p, "%T%Z", gw->limit.retry_after);

    if (ngx_http_behave_add_header(r, "Retry-After", (char *) p) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    behave_error_set(&err, BEHAVE_ERR_RATE_LIMITED,
                     "the %s limit of this key is exhausted; retry in %ld s",
                     gw->limit.reason, (long) gw->limit.retry_after);

    return ngx_http_behave_send_error(r, &err);
}


static ngx_int_t
ngx_http_behave_gw_compute(ngx_http_request_t *r, ngx_http_behave_gw_t *gw)
{
    switch (gw->op) {

    case NGX_HTTP_BEHAVE_GW_BEHAVIOR:
        return ngx_http_behave_behavior_start(r, gw);

    case NGX_HTTP_BEHAVE_GW_AGENTS:
        return ngx_http_behave_agents_status(r, gw);

    case NGX_HTTP_BEHAVE_GW_TRACES:
        return ngx_http_behave_traces_query(r, gw);

    default:
        return ngx_http_behave_offload(r, gw->body.len,
                                       ngx_http_behave_gw_run,
                                       ngx_http_behave_gw_computed, gw);
    }
}


/* in a thread for a large body: the operation and its answer's text */

static void
ngx_http_behave_gw_run(void *data)
{
    ngx_http_behave_gw_t  *gw = data;

    cJSON  *resp;

    resp = NULL;

    switch (gw->op) {

    case NGX_HTTP_BEHAVE_GW_SIGNALS:
        gw->rc = behave_gw_signals(gw->req, gw->now_ms, &resp, &gw->err);
        break;

    case NGX_HTTP_BEHAVE_GW_ORCHESTRATE:
        gw->rc = behave_gw_orchestrate(gw->req, gw->models, gw->now_ms,
                                       &resp, &gw->err);
        break;

    default: /* NGX_HTTP_BEHAVE_GW_ADAPTIVE */
        gw->rc = behave_gw_adaptive(gw->req, gw->now_ms, &resp, &gw->err);
        break;
    }

    if (resp != NULL) {
        gw->out = behave_json_print(resp, &gw->out_len);
        gw->oom = gw->out == NULL;
        cJSON_Delete(resp);
    }
}


static ngx_int_t
ngx_http_behave_gw_computed(ngx_http_request_t *r, void *data)
{
    char                  *out;
    ngx_http_behave_gw_t  *gw = data;

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave gateway: computed, rc %d, %uz bytes", gw->rc,
                   gw->out ? gw->out_len : 0);

    if (gw->out == NULL) {
        return gw->oom || gw->rc == BEHAVE_OK
               ? NGX_HTTP_INTERNAL_SERVER_ERROR
               : ngx_http_behave_send_error(r, &gw->err);
    }

    /* the pool cleanup of the answer frees it from now on */
    out = gw->out;
    gw->out = NULL;

    return ngx_http_behave_send_malloced(r,
               gw->rc == BEHAVE_OK ? NGX_HTTP_OK : behave_error_status(gw->rc),
               out, gw->out_len);
}


/* a tree of 10,000 events takes milliseconds to free: in the pool */

static void
ngx_http_behave_gw_cleanup(void *data)
{
    ngx_http_behave_gw_t  *gw = data;

    free(gw->out);
    gw->out = NULL;

    if (gw->arena != NULL) {
        ngx_http_behave_offload_free(gw->blcf, gw->body.len,
                                     behave_json_arena_release, gw->arena);
        gw->arena = NULL;
        gw->req = NULL;
    }

    if (gw->req != NULL) {
        ngx_http_behave_offload_free(gw->blcf, gw->body.len,
                                     ngx_http_behave_gw_free_tree, gw->req);
        gw->req = NULL;
    }
}


static void
ngx_http_behave_gw_free_tree(void *ptr)
{
    cJSON_Delete(ptr);
}
