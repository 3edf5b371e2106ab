/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface A: observability/traces, read from the tenant's trace stream
 * that the tracer (src/infra/ngx_http_behave_trace.c) appends to.
 */


#include "ngx_http_behave_traces.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_redis_script.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_traces_read_lua.h"       /* traces_read.lua */

#include "base/behave_json.h"
#include "analyze/behave_response.h"


#define NGX_HTTP_BEHAVE_TRACE_READ  2000      /* entries read per query */


static void ngx_http_behave_traces_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_traces_respond(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw, redisReply *reply);
static redisReply *ngx_http_behave_trace_field(redisReply *fields,
    const char *name);
static cJSON *ngx_http_behave_traces_add(cJSON *o, const char *field,
    double v);
static cJSON *ngx_http_behave_traces_object(cJSON *parent, const char *name);
static void ngx_http_behave_trace_breakdown(cJSON *bd, cJSON *deps,
    const char *name, double ms, ngx_uint_t error);
static void ngx_http_behave_trace_averages(cJSON *obj, const char *count);


ngx_int_t
ngx_http_behave_traces_query(ngx_http_request_t *r, ngx_http_behave_gw_t *gw)
{
    u_char                        *p, *q;
    cJSON                         *range, *from, *to, *tid, *svc;
    const char                    *reason;
    ngx_http_behave_redis_args_t   a;

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

    p = ngx_pnalloc(r->pool, NGX_HTTP_BEHAVE_KEY_TRACES_SIZE);
    if (p == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_traces_read_script);

    q = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_TRACES, gw->key->tenant);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_TRACES_READ_KEY_STREAM,
                              (char *) p, q - p);

    /* stream ids are Redis's milliseconds: a range is an id range */
    if (range != NULL) {
        ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_TRACES_READ_ARG_FROM,
                                      from ? (int64_t) from->valuedouble : 0);
    } else {
        ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_TRACES_READ_ARG_FROM,
                                      "");
    }

    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_TRACES_READ_ARG_TO,
                                  to ? (int64_t) to->valuedouble
                                     : (int64_t) 9007199254740991LL);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_TRACES_READ_ARG_COUNT,
                                  NGX_HTTP_BEHAVE_TRACE_READ);

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave gateway: traces of \"%s\"%s",
                   gw->key->tenant, range ? " in a time range" : "");

    if (ngx_http_behave_redis_run(r, &a, ngx_http_behave_traces_reply, gw,
                                  &reason)
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
        ngx_http_behave_finish(r,
            ngx_http_behave_fail(r, BEHAVE_ERR_UNAVAILABLE,
                                 "traces are kept in Redis, which did not "
                                 "answer"));
        return;
    }

    rc = ngx_http_behave_traces_respond(r, gw, reply);
    ngx_http_behave_finish(r, rc);
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


/* adds v to a number field of o, which it creates at 0 when absent */

static cJSON *
ngx_http_behave_traces_add(cJSON *o, const char *field, double v)
{
    cJSON  *n;

    n = cJSON_GetObjectItem(o, field);

    if (n == NULL) {
        return cJSON_AddNumberToObject(o, field, v);
    }

    cJSON_SetNumberValue(n, cJSON_GetNumberValue(n) + v);

    return n;
}


/* the object name of parent, created when absent */

static cJSON *
ngx_http_behave_traces_object(cJSON *parent, const char *name)
{
    cJSON  *o;

    o = cJSON_GetObjectItem(parent, name);

    return (o != NULL) ? o : cJSON_AddObjectToObject(parent, name);
}


static void
ngx_http_behave_trace_breakdown(cJSON *bd, cJSON *deps, const char *name,
    double ms, ngx_uint_t error)
{
    cJSON       *o, *max;
    const char  *dep;

    o = ngx_http_behave_traces_object(bd, name);

    ngx_http_behave_traces_add(o, "count", 1);
    ngx_http_behave_traces_add(o, "total_ms", ms);
    max = ngx_http_behave_traces_add(o, "max_ms", 0);

    if (max != NULL && ms > cJSON_GetNumberValue(max)) {
        cJSON_SetNumberValue(max, ms);
    }

    dep = ngx_strncmp(name, "redis", 5) == 0 ? "redis"
          : ngx_strncmp(name, "upstream", 8) == 0 ? "upstream" : NULL;

    if (dep == NULL) {
        return;
    }

    o = ngx_http_behave_traces_object(deps, dep);

    ngx_http_behave_traces_add(o, "calls", 1);
    ngx_http_behave_traces_add(o, "errors", error);
    ngx_http_behave_traces_add(o, "total_ms", ms);
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

    return ngx_http_behave_send_cjson(r, NGX_HTTP_OK, resp);
}
