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
 * with the probability behave_trace_sample.
 */


#include "ngx_http_behave_gateway.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_stats.h"

#include "behave_json.h"
#include "behave_response.h"


#define NGX_HTTP_BEHAVE_TRACE_READ  2000      /* entries read per query */


static ngx_http_behave_redis_script_t  ngx_http_behave_trace_script = {
    "redis.traces-read",
    "if ARGV[1] == '' then\n"
    "  return redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', ARGV[3])\n"
    "end\n"
    "return redis.call('XREVRANGE', KEYS[1], ARGV[2], ARGV[1],\n"
    "                  'COUNT', ARGV[3])\n",
    ""
};


static void ngx_http_behave_trace_parse(ngx_http_behave_ctx_t *ctx,
    ngx_str_t *value);
static void ngx_http_behave_traces_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_traces_respond(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw, redisReply *reply);
static void ngx_http_behave_trace_noop(redisReply *reply, void *data);


void
ngx_http_behave_trace_init(void)
{
    ngx_http_behave_redis_script_init(&ngx_http_behave_trace_script);
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


void
ngx_http_behave_span(ngx_http_request_t *r, const char *name,
    double start_ms, const char *error)
{
    ngx_http_behave_ctx_t   *ctx;
    ngx_http_behave_span_t  *s;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (ctx == NULL || ctx->nspans == NGX_HTTP_BEHAVE_SPANS) {
        return;
    }

    s = &ctx->spans[ctx->nspans++];
    s->name = name;
    s->start_ms = start_ms - ctx->started_ms;
    s->dur_ms = ngx_http_behave_now_ms() - start_ms;
    s->error = error;
}


/* the log phase: a sampled trace of a known tenant goes to its stream */

void
ngx_http_behave_trace_record(ngx_http_request_t *r,
    ngx_http_behave_ctx_t *ctx, const char *surface, double total_ms)
{
    char                         *spans;
    u_char                        key[sizeof("behave:traces:{}")
                                      + BEHAVE_TENANT_MAX];
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

    len[2] = ngx_sprintf(key, "behave:traces:{%s}", ctx->key->tenant) - key;
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


ngx_int_t
ngx_http_behave_traces_query(ngx_http_request_t *r, ngx_http_behave_gw_t *gw)
{
    u_char       *p;
    cJSON        *range, *from, *to, *tid, *svc;
    size_t        len[4];
    const char   *argv[4], *reason;

    tid = cJSON_GetObjectItemCaseSensitive(gw->req, "trace_id");
    svc = cJSON_GetObjectItemCaseSensitive(gw->req, "service_filter");
    range = cJSON_GetObjectItemCaseSensitive(gw->req, "time_range");
    from = range ? cJSON_GetObjectItemCaseSensitive(range, "from") : NULL;
    to = range ? cJSON_GetObjectItemCaseSensitive(range, "to") : NULL;

    if ((tid && !cJSON_IsString(tid)) || (svc && !cJSON_IsString(svc))
        || (range && !cJSON_IsObject(range))
        || (from && !cJSON_IsNumber(from)) || (to && !cJSON_IsNumber(to)))
    {
        return ngx_http_behave_fail(r, BEHAVE_ERR_INVALID_FIELD,
                   "trace_id and service_filter must be strings; "
                   "time_range {from, to} Unix milliseconds");
    }

    if (!ngx_http_behave_redis_configured(r)) {
        return ngx_http_behave_traces_respond(r, gw, NULL);
    }

    p = ngx_pnalloc(r->pool, 128 + 3 * NGX_INT64_LEN);
    if (p == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    argv[0] = (char *) p;
    p = ngx_sprintf(p, "behave:traces:{%s}", gw->key->tenant);
    len[0] = p - (u_char *) argv[0];

    /* stream ids are Redis's milliseconds: a range is an id range */
    argv[1] = (char *) p;
    if (range != NULL) {
        p = ngx_sprintf(p, "%L", from ? (int64_t) from->valuedouble : 0);
    }
    len[1] = p - (u_char *) argv[1];

    argv[2] = (char *) p;
    p = ngx_sprintf(p, "%L", to ? (int64_t) to->valuedouble
                                : (int64_t) 9007199254740991LL);
    len[2] = p - (u_char *) argv[2];

    argv[3] = (char *) p;
    p = ngx_sprintf(p, "%d", NGX_HTTP_BEHAVE_TRACE_READ);
    len[3] = p - (u_char *) argv[3];

    if (ngx_http_behave_redis_eval(r, &ngx_http_behave_trace_script, 1, 4,
                                   argv, len, ngx_http_behave_traces_reply,
                                   gw, &reason)
        != NGX_OK)
    {
        return ngx_http_behave_fail(r, BEHAVE_ERR_UNAVAILABLE,
                                    "traces are kept in Redis, which is "
                                    "unavailable");
    }

    return NGX_DONE;
}


static void
ngx_http_behave_traces_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    ngx_int_t              rc;
    ngx_http_behave_gw_t  *gw = data;

    if (reply == NULL || reply->type != REDIS_REPLY_ARRAY) {
        ngx_http_behave_gateway_finish(r,
            ngx_http_behave_fail(r, BEHAVE_ERR_UNAVAILABLE,
                                 "traces are kept in Redis, which did not "
                                 "answer"));
        return;
    }

    rc = ngx_http_behave_traces_respond(r, gw, reply);
    ngx_http_behave_gateway_finish(r, rc);
}


/* the value of field name in a stream entry's field list, or NULL */

static redisReply *
ngx_http_behave_trace_field(redisReply *fields, const char *name)
{
    size_t  i;

    for (i = 0; i + 1 < fields->elements; i += 2) {
        if (fields->element[i]->type == REDIS_REPLY_STRING
            && ngx_strcmp(fields->element[i]->str, name) == 0
            && fields->element[i + 1]->type == REDIS_REPLY_STRING)
        {
            return fields->element[i + 1];
        }
    }

    return NULL;
}


static void
ngx_http_behave_trace_breakdown(cJSON *bd, cJSON *deps, const char *name,
    double ms, ngx_uint_t error)
{
    cJSON       *o, *target;
    const char  *dep;

    o = cJSON_GetObjectItem(bd, name);

    if (o == NULL) {
        o = cJSON_AddObjectToObject(bd, name);
        cJSON_AddNumberToObject(o, "count", 0);
        cJSON_AddNumberToObject(o, "total_ms", 0);
        cJSON_AddNumberToObject(o, "max_ms", 0);
    }

    cJSON_SetNumberValue(cJSON_GetObjectItem(o, "count"),
        cJSON_GetNumberValue(cJSON_GetObjectItem(o, "count")) + 1);
    cJSON_SetNumberValue(cJSON_GetObjectItem(o, "total_ms"),
        cJSON_GetNumberValue(cJSON_GetObjectItem(o, "total_ms")) + ms);

    if (ms > cJSON_GetNumberValue(cJSON_GetObjectItem(o, "max_ms"))) {
        cJSON_SetNumberValue(cJSON_GetObjectItem(o, "max_ms"), ms);
    }

    dep = ngx_strncmp(name, "redis", 5) == 0 ? "redis"
          : ngx_strncmp(name, "upstream", 8) == 0 ? "upstream" : NULL;

    if (dep == NULL) {
        return;
    }

    target = cJSON_GetObjectItem(deps, dep);

    if (target == NULL) {
        target = cJSON_AddObjectToObject(deps, dep);
        cJSON_AddNumberToObject(target, "calls", 0);
        cJSON_AddNumberToObject(target, "errors", 0);
        cJSON_AddNumberToObject(target, "total_ms", 0);
    }

    cJSON_SetNumberValue(cJSON_GetObjectItem(target, "calls"),
        cJSON_GetNumberValue(cJSON_GetObjectItem(target, "calls")) + 1);
    cJSON_SetNumberValue(cJSON_GetObjectItem(target, "errors"),
        cJSON_GetNumberValue(cJSON_GetObjectItem(target, "errors")) + error);
    cJSON_SetNumberValue(cJSON_GetObjectItem(target, "total_ms"),
        cJSON_GetNumberValue(cJSON_GetObjectItem(target, "total_ms")) + ms);
}


static void
ngx_http_behave_trace_averages(cJSON *obj, const char *count)
{
    cJSON   *o;
    double   n;

    cJSON_ArrayForEach(o, obj) {
        n = cJSON_GetNumberValue(cJSON_GetObjectItem(o, count));
        cJSON_SetNumberValue(cJSON_GetObjectItem(o, "total_ms"),
            behave_round3(cJSON_GetNumberValue(
                              cJSON_GetObjectItem(o, "total_ms"))));
        cJSON_AddNumberToObject(o, "avg_ms", behave_round3(n ?
            cJSON_GetNumberValue(cJSON_GetObjectItem(o, "total_ms")) / n
            : 0));
    }
}


static ngx_int_t
ngx_http_behave_traces_respond(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw, redisReply *reply)
{
    size_t       i;
    cJSON       *resp, *spans, *bd, *deps, *errs, *list, *s, *o, *tid, *svc;
    ngx_uint_t   matched;
    redisReply  *e, *t, *sv, *st, *x;

    tid = cJSON_GetObjectItemCaseSensitive(gw->req, "trace_id");
    svc = cJSON_GetObjectItemCaseSensitive(gw->req, "service_filter");

    resp = cJSON_CreateObject();
    if (resp == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    spans = cJSON_AddArrayToObject(resp, "spans");
    bd = cJSON_AddObjectToObject(resp, "latency_breakdown");
    errs = cJSON_AddArrayToObject(resp, "error_details");
    deps = cJSON_AddObjectToObject(resp, "dependencies");
    matched = 0;

    for (i = 0; reply && i < reply->elements; i++) {
        e = reply->element[i];

        if (e->type != REDIS_REPLY_ARRAY || e->elements != 2
            || e->element[1]->type != REDIS_REPLY_ARRAY)
        {
            continue;
        }

        t = ngx_http_behave_trace_field(e->element[1], "t");
        sv = ngx_http_behave_trace_field(e->element[1], "s");
        st = ngx_http_behave_trace_field(e->element[1], "st");
        x = ngx_http_behave_trace_field(e->element[1], "x");

        if (t == NULL || sv == NULL || x == NULL
            || (cJSON_IsString(tid) && ngx_strcmp(t->str, tid->valuestring))
            || (cJSON_IsString(svc) && ngx_strcmp(sv->str, svc->valuestring)))
        {
            continue;
        }

        matched++;
        list = cJSON_ParseWithLength(x->str, x->len);

        cJSON_ArrayForEach(s, list) {
            cJSON       *f;
            const char  *name, *err;
            double       start, dur;

            /* a span is [name, start, duration, error?]: walked once */
            f = s->child;
            name = cJSON_GetStringValue(f);
            f = f ? f->next : NULL;
            start = cJSON_GetNumberValue(f);
            f = f ? f->next : NULL;
            dur = cJSON_GetNumberValue(f);
            f = f ? f->next : NULL;
            err = cJSON_GetStringValue(f);

            if (name == NULL) {
                continue;
            }

            o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "trace_id", t->str);
            cJSON_AddStringToObject(o, "service", sv->str);
            cJSON_AddStringToObject(o, "name", name);
            cJSON_AddNumberToObject(o, "start_us", start);
            cJSON_AddNumberToObject(o, "duration_us", dur);
            cJSON_AddStringToObject(o, "entry", e->element[0]->str);

            if (err != NULL) {
                cJSON_AddStringToObject(o, "error", err);
                cJSON *d = cJSON_CreateObject();
                cJSON_AddStringToObject(d, "trace_id", t->str);
                cJSON_AddStringToObject(d, "span", name);
                cJSON_AddStringToObject(d, "error", err);
                cJSON_AddNumberToObject(d, "status",
                                        st ? atoi(st->str) : 0);
                cJSON_AddItemToArray(errs, d);
            }

            cJSON_AddItemToArray(spans, o);
            ngx_http_behave_trace_breakdown(bd, deps, name, dur / 1000,
                                            err != NULL);
        }

        cJSON_Delete(list);
    }

    ngx_http_behave_trace_averages(bd, "count");
    ngx_http_behave_trace_averages(deps, "calls");

    if (cJSON_IsString(tid)) {
        cJSON_AddStringToObject(resp, "trace_id", tid->valuestring);
    }

    if (cJSON_IsString(svc)) {
        cJSON_AddStringToObject(resp, "service_filter", svc->valuestring);
    }

    cJSON_AddNumberToObject(resp, "traces_matched", (double) matched);
    cJSON_AddStringToObject(resp, "storage", reply ? "redis" : "none");
    cJSON_AddNumberToObject(resp, "timestamp", (double) gw->now_ms);

    return ngx_http_behave_gateway_respond(r, gw, NGX_HTTP_OK, resp);
}
