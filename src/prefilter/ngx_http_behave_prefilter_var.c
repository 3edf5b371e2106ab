/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The $behave_* variables: read from the request's pre-filter context or
 * from what the surface that answered published, never cached (an "if"
 * may read them before a redirect, a log line after).
 */


#include "ngx_http_behave_prefilter.h"

#include "base/behave_json.h"
#include "analyze/behave_response.h"


static ngx_int_t ngx_http_behave_prefilter_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data);
static ngx_int_t ngx_http_behave_request_variable(ngx_http_request_t *r,
    ngx_http_behave_ctx_t *bctx, uintptr_t data, ngx_str_t *s);
static ngx_int_t ngx_http_behave_prefilter_confidence(ngx_http_request_t *r,
    const behave_annotation_t *ann, ngx_str_t *s);
static ngx_int_t ngx_http_behave_prefilter_risk(ngx_http_request_t *r,
    const behave_annotation_t *ann, ngx_str_t *s);
static ngx_int_t ngx_http_behave_prefilter_json(ngx_http_request_t *r,
    const behave_annotation_t *ann, ngx_str_t *cache, ngx_str_t *s);


ngx_str_t  ngx_http_behave_prefilter_status_names[] = {
    ngx_string("skipped"),
    ngx_string("ok"),
    ngx_string("unparsed"),
    ngx_string("too_large")
};


/*
 * The annotation comes from the pre-filter when it annotated the request,
 * else from the surface that answered it (/v1/analyze publishes its own
 * in the module's context), so one log format describes every request.
 * Subrequests (auth_request, mirror) read the main request's.  Where
 * nothing annotated the request the annotation variables are not found
 * (empty); $behave_status, $behave_route and the conversation's
 * variables (a chat's history) are the pre-filter's alone.
 */

static ngx_int_t
ngx_http_behave_prefilter_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data)
{
    ngx_str_t                         s, *cache;
    ngx_int_t                         rc;
    const char                       *value;
    ngx_http_behave_ctx_t            *bctx;
    const behave_routing_t           *routing;
    const behave_annotation_t        *ann;
    const behave_chat_findings_t     *chat;
    ngx_http_behave_prefilter_ctx_t  *ctx;

    ctx = ngx_http_behave_prefilter_get_ctx(r->main);
    bctx = ngx_http_get_module_ctx(r->main, ngx_http_behave_module);

    ann = NULL;
    routing = NULL;
    chat = NULL;
    cache = NULL;

    if (ctx != NULL && ctx->status == NGX_HTTP_BEHAVE_PREFILTER_OK) {
        ann = &ctx->ann;
        routing = &ctx->routing;
        chat = ctx->chat;
        cache = &ctx->json;

    } else if (bctx != NULL && bctx->ann != NULL) {
        ann = bctx->ann;
        routing = bctx->routing;
    }

    rc = NGX_OK;

    if (data == NGX_HTTP_BEHAVE_PREFILTER_STATUS) {
        s = ngx_http_behave_prefilter_status_names[ctx ? ctx->status : 0];

    } else if (data == NGX_HTTP_BEHAVE_PREFILTER_ROUTE) {
        if (ctx != NULL && ctx->matched != NULL) {
            s = ctx->matched->target;

        } else {
            rc = NGX_DECLINED;
        }

    } else if (data >= NGX_HTTP_BEHAVE_VAR_TENANT) {
        rc = ngx_http_behave_request_variable(r, bctx, data, &s);

    } else if (data >= NGX_HTTP_BEHAVE_PREFILTER_CONV_ACTION
               && data <= NGX_HTTP_BEHAVE_PREFILTER_PEAK_URGENCY)
    {
        if (chat == NULL) {
            rc = NGX_DECLINED;

        } else {
            value = ngx_http_behave_prefilter_dim_value(ann, routing, chat,
                                                        data);
            s.data = (u_char *) value;
            s.len = ngx_strlen(value);
        }

    } else if (ann == NULL) {
        rc = NGX_DECLINED;

    } else if (data == NGX_HTTP_BEHAVE_PREFILTER_RISK) {
        rc = ngx_http_behave_prefilter_risk(r, ann, &s);

    } else if (data == NGX_HTTP_BEHAVE_PREFILTER_CONFIDENCE) {
        rc = ngx_http_behave_prefilter_confidence(r, ann, &s);

    } else if (data == NGX_HTTP_BEHAVE_PREFILTER_ANNOTATION) {
        rc = ngx_http_behave_prefilter_json(r, ann, cache, &s);

    } else if (data >= NGX_HTTP_BEHAVE_PREFILTER_POSTURE && routing == NULL) {
        rc = NGX_DECLINED;

    } else {
        value = ngx_http_behave_prefilter_dim_value(ann, routing, NULL, data);
        s.data = (u_char *) value;
        s.len = ngx_strlen(value);
    }

    if (rc == NGX_ERROR) {
        return NGX_ERROR;
    }

    v->no_cacheable = 1;

    if (rc == NGX_DECLINED || s.len == 0) {
        v->not_found = 1;
        return NGX_OK;
    }

    v->data = s.data;
    v->len = s.len;
    v->valid = 1;
    v->not_found = 0;

    return NGX_OK;
}


/* who and what: the same on every surface that knows them */

static ngx_int_t
ngx_http_behave_request_variable(ngx_http_request_t *r,
    ngx_http_behave_ctx_t *bctx, uintptr_t data, ngx_str_t *s)
{
    const char  *tenant;

    if (bctx == NULL) {
        return NGX_DECLINED;
    }

    switch (data) {

    case NGX_HTTP_BEHAVE_VAR_TENANT:
        tenant = bctx->tenant ? bctx->tenant
                              : bctx->key ? bctx->key->tenant : NULL;

        if (tenant == NULL) {
            return NGX_DECLINED;
        }

        s->data = (u_char *) tenant;
        s->len = ngx_strlen(tenant);
        return NGX_OK;

    case NGX_HTTP_BEHAVE_VAR_SESSION_ID:
        *s = bctx->session_id;
        return NGX_OK;

    case NGX_HTTP_BEHAVE_VAR_CONVERSATION_ID:
        *s = bctx->conversation_id;
        return NGX_OK;

    default: /* NGX_HTTP_BEHAVE_VAR_TRACE_ID */
        s->data = bctx->trace_id;
        s->len = ngx_strlen(bctx->trace_id);
        return NGX_OK;
    }
}


/* as /v1/analyze prints signal_confidence: 3 decimals, no trailing 0 */

static ngx_int_t
ngx_http_behave_prefilter_confidence(ngx_http_request_t *r,
    const behave_annotation_t *ann, ngx_str_t *s)
{
    u_char  *p, *start;

    start = ngx_pnalloc(r->pool, NGX_INT_T_LEN + 8);
    if (start == NULL) {
        return NGX_ERROR;
    }

    p = ngx_sprintf(start, "%.3f", behave_round3(ann->confidence));

    while (p[-1] == '0') {
        p--;
    }

    if (p[-1] == '.') {
        p--;
    }

    s->data = start;
    s->len = p - start;

    return NGX_OK;
}


/* the risk score: always three decimals ("0.000" .. "1.000") */

static ngx_int_t
ngx_http_behave_prefilter_risk(ngx_http_request_t *r,
    const behave_annotation_t *ann, ngx_str_t *s)
{
    u_char      *p;
    ngx_uint_t   milli;

    p = ngx_pnalloc(r->pool, sizeof("1.000") - 1);
    if (p == NULL) {
        return NGX_ERROR;
    }

    milli = ngx_http_behave_prefilter_risk_milli(ann);

    s->data = p;
    s->len = ngx_sprintf(p, "%ui.%03ui", milli / 1000, milli % 1000) - p;

    return NGX_OK;
}


/* the annotation object of /v1/analyze, compact; cached when it can be */

static ngx_int_t
ngx_http_behave_prefilter_json(ngx_http_request_t *r,
    const behave_annotation_t *ann, ngx_str_t *cache, ngx_str_t *s)
{
    char    *json;
    size_t   len;

    if (cache != NULL && cache->data != NULL) {
        *s = *cache;
        return NGX_OK;
    }

    json = behave_annotation_json(ann, &len);
    if (json == NULL) {
        return NGX_ERROR;
    }

    s->data = ngx_pnalloc(r->pool, len);
    if (s->data == NULL) {
        free(json);
        return NGX_ERROR;
    }

    ngx_memcpy(s->data, json, len);
    s->len = len;
    free(json);

    if (cache != NULL) {
        *cache = *s;
    }

    return NGX_OK;
}


ngx_int_t
ngx_http_behave_prefilter_add_variables(ngx_conf_t *cf)
{
    ngx_uint_t            i;
    ngx_http_variable_t  *var;

    static ngx_str_t  names[] = {
        ngx_string("behave_valence"),
        ngx_string("behave_cognitive_load"),
        ngx_string("behave_urgency"),
        ngx_string("behave_engagement"),
        ngx_string("behave_register"),
        ngx_string("behave_posture"),
        ngx_string("behave_tone"),
        ngx_string("behave_action"),
        ngx_string("behave_conv_action"),
        ngx_string("behave_false_resolution"),
        ngx_string("behave_repetition"),
        ngx_string("behave_escalating"),
        ngx_string("behave_peak_urgency"),
        ngx_string("behave_risk"),
        ngx_string("behave_confidence"),
        ngx_string("behave_annotation"),
        ngx_string("behave_status"),
        ngx_string("behave_route"),
        ngx_string("behave_tenant"),
        ngx_string("behave_session_id"),
        ngx_string("behave_conversation_id"),
        ngx_string("behave_trace_id")
    };

    /* names[i] is read by ngx_http_behave_prefilter_variable() with data i */

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        var = ngx_http_add_variable(cf, &names[i], NGX_HTTP_VAR_NOCACHEABLE);
        if (var == NULL) {
            return NGX_ERROR;
        }

        var->get_handler = ngx_http_behave_prefilter_variable;
        var->data = i;
    }

    return NGX_OK;
}
