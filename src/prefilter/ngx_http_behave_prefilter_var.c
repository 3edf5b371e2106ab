/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The $behave_* variables: read from the request's pre-filter context,
 * never cached (an "if" may read them before a redirect, a log line after).
 */


#include "ngx_http_behave_prefilter.h"

#include "behave_json.h"
#include "behave_response.h"


static ngx_int_t ngx_http_behave_prefilter_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data);
static ngx_int_t ngx_http_behave_prefilter_confidence(ngx_http_request_t *r,
    ngx_http_behave_prefilter_ctx_t *ctx, ngx_str_t *s);
static ngx_int_t ngx_http_behave_prefilter_json(ngx_http_request_t *r,
    ngx_http_behave_prefilter_ctx_t *ctx, ngx_str_t *s);


static ngx_str_t  ngx_http_behave_prefilter_status_names[] = {
    ngx_string("skipped"),
    ngx_string("ok"),
    ngx_string("unparsed"),
    ngx_string("too_large")
};


/*
 * Subrequests (auth_request, mirror) read the main request's annotation.
 * Where the pre-filter did not run, $behave_status is "skipped" and the
 * others are not found (empty).
 */

static ngx_int_t
ngx_http_behave_prefilter_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data)
{
    ngx_str_t                         s;
    const char                       *value;
    ngx_http_behave_prefilter_ctx_t  *ctx;

    ctx = ngx_http_behave_prefilter_get_ctx(r->main);

    if (data == NGX_HTTP_BEHAVE_PREFILTER_STATUS) {
        s = ngx_http_behave_prefilter_status_names[ctx ? ctx->status : 0];

    } else if (ctx == NULL || ctx->status != NGX_HTTP_BEHAVE_PREFILTER_OK) {
        v->not_found = 1;
        return NGX_OK;

    } else if (data == NGX_HTTP_BEHAVE_PREFILTER_CONFIDENCE) {
        if (ngx_http_behave_prefilter_confidence(r, ctx, &s) != NGX_OK) {
            return NGX_ERROR;
        }

    } else if (data == NGX_HTTP_BEHAVE_PREFILTER_ANNOTATION) {
        if (ngx_http_behave_prefilter_json(r, ctx, &s) != NGX_OK) {
            return NGX_ERROR;
        }

    } else {
        value = ngx_http_behave_prefilter_dim_value(ctx, data);
        s.data = (u_char *) value;
        s.len = ngx_strlen(value);
    }

    v->data = s.data;
    v->len = s.len;
    v->valid = 1;
    v->no_cacheable = 1;
    v->not_found = 0;

    return NGX_OK;
}


/* as /v1/analyze prints signal_confidence: 3 decimals, no trailing 0 */

static ngx_int_t
ngx_http_behave_prefilter_confidence(ngx_http_request_t *r,
    ngx_http_behave_prefilter_ctx_t *ctx, ngx_str_t *s)
{
    u_char  *p;

    if (ctx->confidence_len == 0) {
        p = ngx_sprintf(ctx->confidence, "%.3f",
                        behave_round3(ctx->ann.confidence));

        while (p[-1] == '0') {
            p--;
        }

        if (p[-1] == '.') {
            p--;
        }

        ctx->confidence_len = p - ctx->confidence;
    }

    s->data = ctx->confidence;
    s->len = ctx->confidence_len;

    return NGX_OK;
}


/* the annotation object of /v1/analyze, compact, made once per request */

static ngx_int_t
ngx_http_behave_prefilter_json(ngx_http_request_t *r,
    ngx_http_behave_prefilter_ctx_t *ctx, ngx_str_t *s)
{
    char    *json;
    size_t   len;

    if (ctx->json.data == NULL) {
        json = behave_annotation_json(&ctx->ann, &len);
        if (json == NULL) {
            return NGX_ERROR;
        }

        ctx->json.data = ngx_pnalloc(r->pool, len);
        if (ctx->json.data == NULL) {
            free(json);
            return NGX_ERROR;
        }

        ngx_memcpy(ctx->json.data, json, len);
        ctx->json.len = len;
        free(json);
    }

    *s = ctx->json;

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
        ngx_string("behave_confidence"),
        ngx_string("behave_annotation"),
        ngx_string("behave_status")
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
