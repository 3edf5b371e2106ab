/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Traces.  Every request a behave handler serves has a trace id: the one
 * of its W3C traceparent header, or a new one, returned in a traceparent
 * response header.  Spans (body read, parse, annotate, each Redis
 * command, respond...) are noted in the request context with microsecond
 * timings.  In the log phase a sampled trace of an authenticated request
 * is appended to its tenant's Redis stream (fire and forget: the request
 * has been answered already):
 *
 *     behave:traces:{<tenant>}   XADD MAXLEN ~ count, XTRIM MINID ~ age
 *
 * A trace is sampled when the caller's traceparent says so (flag 01) or
 * with the probability behave_trace_sample.  The gateway's
 * observability/traces reads the stream (src/gateway/ngx_http_behave_traces.c).
 */


#include "ngx_http_behave_trace.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_util.h"

#include "base/behave_json.h"


static void ngx_http_behave_trace_parse(ngx_http_behave_ctx_t *ctx,
    ngx_str_t *value);
static void ngx_http_behave_trace_noop(redisReply *reply, void *data);
static ngx_int_t ngx_http_behave_trace_log_handler(ngx_http_request_t *r);


/* the tracer's log-phase handler, beside the counters' */

ngx_int_t
ngx_http_behave_trace_init(ngx_conf_t *cf)
{
    return ngx_http_behave_phase_handler_add(cf, NGX_HTTP_LOG_PHASE,
                                             ngx_http_behave_trace_log_handler);
}


/*
 * The prologue of every handler: the request context, counted in flight
 * for its surface, and its trace begun (the response header included).
 */

ngx_http_behave_ctx_t *
ngx_http_behave_trace_enter(ngx_http_request_t *r,
    ngx_http_behave_stat_surface_e surface)
{
    ngx_http_behave_ctx_t  *ctx;

    ctx = ngx_http_behave_get_ctx(r);
    if (ctx == NULL) {
        return NULL;
    }

    ngx_http_behave_stats_enter(r, surface);
    ngx_http_behave_trace_begin(r, ctx, 1);

    return ctx;
}


static ngx_int_t
ngx_http_behave_trace_log_handler(ngx_http_request_t *r)
{
    ngx_http_behave_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (ctx == NULL || ctx->stat_surface == NGX_HTTP_BEHAVE_STAT_NONE
        || r != r->main)
    {
        return NGX_OK;
    }

    ngx_http_behave_trace_record(r, ctx,
                                 ngx_http_behave_stat_names[ctx->stat_surface],
                                 ngx_http_behave_now_ms() - ctx->started_ms);

    return NGX_OK;
}


/* called when a handler takes the request: the id and the response header */

void
ngx_http_behave_trace_begin(ngx_http_request_t *r, ngx_http_behave_ctx_t *ctx,
    ngx_uint_t header)
{
    u_char                        *p, *q;
    ngx_str_t                      name = ngx_string("traceparent");
    ngx_table_elt_t               *h;
    ngx_http_behave_main_conf_t   *bmcf;

    bmcf = ngx_http_get_module_main_conf(r, ngx_http_behave_module);

    h = ngx_http_behave_find_header(r, &name);
    if (h != NULL) {
        ngx_http_behave_trace_parse(ctx, &h->value);
    }

    if (ctx->trace_id[0] == '\0') {
        (void) ngx_http_behave_random_hex(ctx->trace_id, 16);
    }

    (void) ngx_http_behave_random_hex(ctx->span_id, 8);

    if (!ctx->sampled && bmcf->trace_sample > 0) {
        ctx->sampled = (double) ngx_random() / 2147483647.0
                       < bmcf->trace_sample;
    }

    if (!header) {
        return;
    }

    p = ngx_pnalloc(r->pool, sizeof("00---01") + 32 + 16);
    if (p == NULL) {
        return;
    }

    /* "00-<trace id>-<span id>-<flags>", without ngx_sprintf()'s per-byte %s */
    q = ngx_cpymem(p, "00-", 3);
    q = ngx_cpymem(q, ctx->trace_id, 32);
    *q++ = '-';
    q = ngx_cpymem(q, ctx->span_id, 16);
    ngx_memcpy(q, ctx->sampled ? "-01" : "-00", 4);

    (void) ngx_http_behave_add_header(r, "traceparent", (char *) p);
}


/* "00-<32 hex>-<16 hex>-<2 hex>"; an invalid header is ignored */

static void
ngx_http_behave_trace_parse(ngx_http_behave_ctx_t *ctx, ngx_str_t *value)
{
    u_char      *p;
    ngx_uint_t   i;
    ngx_int_t    flags;

    p = value->data;

    if (value->len < 55 || p[2] != '-' || p[35] != '-' || p[52] != '-'
        || (p[0] == 'f' && p[1] == 'f'))
    {
        return;
    }

    for (i = 3; i < 35; i++) {
        if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f'))) {
            return;
        }
    }

    /* an all-zero trace id is invalid (W3C) */
    if (ngx_strncmp(p + 3, "00000000000000000000000000000000", 32) == 0) {
        return;
    }

    flags = ngx_hextoi(p + 53, 2);
    if (flags == NGX_ERROR) {
        return;
    }

    ngx_memcpy(ctx->trace_id, p + 3, 32);
    ctx->trace_id[32] = '\0';
    ctx->sampled = flags & 1;
}


/* the log phase: a sampled trace of a known tenant goes to its stream */

void
ngx_http_behave_trace_record(ngx_http_request_t *r,
    ngx_http_behave_ctx_t *ctx, const char *surface, double total_ms)
{
    char                         *spans;
    u_char                        key[NGX_HTTP_BEHAVE_KEY_TRACES_SIZE];
    u_char                        nums[4][NGX_INT64_LEN + 1];
    cJSON                        *arr, *s;
    size_t                        len[14];
    ngx_uint_t                    i;
    const char                   *argv[14];
    ngx_http_behave_main_conf_t  *bmcf;

    bmcf = ngx_http_get_module_main_conf(r, ngx_http_behave_module);

    if (!ctx->sampled || ctx->key == NULL || bmcf->redis.len == 0
        || !ngx_http_behave_redis_connected())
    {
        return;
    }

    arr = cJSON_CreateArray();

    for (i = 0; arr && i < ctx->nspans; i++) {
        s = cJSON_CreateArray();
        cJSON_AddItemToArray(arr, s);
        cJSON_AddItemToArray(s, cJSON_CreateString(ctx->spans[i].name));
        cJSON_AddItemToArray(s, cJSON_CreateNumber(
                                 (double) (int64_t) (ctx->spans[i].start_ms
                                                     * 1000)));
        cJSON_AddItemToArray(s, cJSON_CreateNumber(
                                 (double) (int64_t) (ctx->spans[i].dur_ms
                                                     * 1000)));
        cJSON_AddItemToArray(s, ctx->spans[i].error
                                ? cJSON_CreateString(ctx->spans[i].error)
                                : cJSON_CreateNull());
    }

    spans = arr ? behave_json_print(arr, NULL) : NULL;
    cJSON_Delete(arr);

    if (spans == NULL) {
        return;
    }

    len[2] = ngx_sprintf(key, NGX_HTTP_BEHAVE_KEY_TRACES, ctx->key->tenant)
             - key;
    len[4] = ngx_sprintf(nums[0], "%ui", bmcf->trace_max_count) - nums[0];

    argv[0] = "XADD";           len[0] = 4;
    argv[1] = (char *) key;     len[1] = len[2];
    argv[2] = "MAXLEN";         len[2] = 6;
    argv[3] = "~";              len[3] = 1;
    argv[4] = (char *) nums[0];
    argv[5] = "*";              len[5] = 1;
    argv[6] = "t";              len[6] = 1;
    argv[7] = (char *) ctx->trace_id;
    len[7] = ngx_strlen(ctx->trace_id);
    argv[8] = "s";              len[8] = 1;
    argv[9] = surface;          len[9] = ngx_strlen(surface);
    argv[10] = "st";            len[10] = 2;
    argv[11] = (char *) nums[1];
    len[11] = ngx_sprintf(nums[1], "%ui", r->headers_out.status) - nums[1];
    argv[12] = "x";             len[12] = 1;
    argv[13] = spans;           len[13] = ngx_strlen(spans);

    /* the total is the last element of the span list's sibling fields */
    (void) total_ms;

    (void) ngx_http_behave_redis_command_bg(14, argv, len,
                                            ngx_http_behave_trace_noop, NULL);
    free(spans);

    argv[0] = "XTRIM";          len[0] = 5;
    argv[2] = "MINID";          len[2] = 5;
    argv[4] = (char *) nums[2];
    len[4] = ngx_sprintf(nums[2], "%T000",
                         ngx_time() - bmcf->trace_max_age) - nums[2];

    (void) ngx_http_behave_redis_command_bg(5, argv, len,
                                            ngx_http_behave_trace_noop, NULL);
}


static void
ngx_http_behave_trace_noop(redisReply *reply, void *data)
{
}
