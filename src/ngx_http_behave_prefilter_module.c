/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The pre-filter in front of an LLM: "behave_prefilter on;" in a location
 * that proxies chat traffic reads the request body, annotates the user's
 * latest message, exposes the result as $behave_* variables, optionally
 * routes the request elsewhere ("behave_route"), and lets it continue.
 *
 * Rules, stated once:
 * - The handler runs in the REWRITE phase, before the rewrite module's own
 *   handler (nginx runs a phase's handlers last-registered first, and this
 *   module registers after the built-in ones): so "if ($behave_urgency
 *   ...)" in the same location already sees the annotation.
 * - The body is read with ngx_http_read_client_request_body() and never
 *   changed: the chain stays as nginx built it (memory and temp file) for
 *   proxy_pass or any other content handler to send on byte for byte.
 * - Whatever the body, the request goes on: a body the pre-filter cannot
 *   read is "unparsed", one over the limits "too_large"; only a failure to
 *   read the body from the client ends the request, as it would anyway.
 * - The context survives internal redirects (which clear r->ctx) through
 *   a request pool cleanup, found again by its handler, as the realip
 *   module does: the target of a behave_route still sees the variables.
 * - A route redirects from the phase handler once the body is in, and
 *   the ctx records that the pre-filter ran, so no request is annotated
 *   or routed twice.
 */


#include "ngx_http_behave_common.h"

#include "behave_annotate.h"
#include "behave_extract.h"
#include "behave_response.h"
#include "behave_routing.h"
#include "behave_utf8.h"


#define NGX_HTTP_BEHAVE_PF_MAX_SIZE  (1024 * 1024)


typedef enum {
    NGX_HTTP_BEHAVE_PF_SKIPPED = 0,
    NGX_HTTP_BEHAVE_PF_OK,
    NGX_HTTP_BEHAVE_PF_UNPARSED,
    NGX_HTTP_BEHAVE_PF_TOO_LARGE
} ngx_http_behave_pf_status_e;


/* what a variable or a route condition reads */
typedef enum {
    NGX_HTTP_BEHAVE_PF_VALENCE = 0,
    NGX_HTTP_BEHAVE_PF_LOAD,
    NGX_HTTP_BEHAVE_PF_URGENCY,
    NGX_HTTP_BEHAVE_PF_ENGAGEMENT,
    NGX_HTTP_BEHAVE_PF_REGISTER,
    NGX_HTTP_BEHAVE_PF_POSTURE,
    NGX_HTTP_BEHAVE_PF_TONE,
    NGX_HTTP_BEHAVE_PF_ACTION,
    NGX_HTTP_BEHAVE_PF_CONFIDENCE,
    NGX_HTTP_BEHAVE_PF_ANNOTATION,
    NGX_HTTP_BEHAVE_PF_STATUS
} ngx_http_behave_pf_var_e;

#define NGX_HTTP_BEHAVE_PF_NDIMS  (NGX_HTTP_BEHAVE_PF_ACTION + 1)


typedef struct {
    const char                 *name;      /* as in the /v1/analyze JSON */
    const char                 *alias;     /* as in the variable's name */
    const char *const          *values;    /* NULL-terminated */
} ngx_http_behave_pf_dim_t;


typedef struct {
    ngx_uint_t                  dim;
    ngx_uint_t                  values;    /* a bit per index in values[] */
} ngx_http_behave_pf_cond_t;


#define NGX_HTTP_BEHAVE_PF_CONDS_MAX  NGX_HTTP_BEHAVE_PF_NDIMS

typedef struct {
    ngx_http_behave_pf_cond_t   cond[NGX_HTTP_BEHAVE_PF_CONDS_MAX];
    ngx_uint_t                  nconds;    /* all must hold */
    ngx_str_t                   uri;       /* "/..." or "@name" */
    ngx_str_t                   args;
    ngx_uint_t                  has_args;  /* else the request's args */
    ngx_str_t                   file;      /* where it was configured */
    ngx_uint_t                  line;
} ngx_http_behave_pf_route_t;


typedef struct {
    ngx_array_t                *routes;    /* of ngx_http_behave_pf_route_t */
    ngx_http_core_srv_conf_t   *cscf;
} ngx_http_behave_pf_check_t;


typedef struct {
    ngx_array_t                 checks;    /* named targets to look up */
} ngx_http_behave_pf_main_conf_t;


typedef struct {
    ngx_flag_t                  enable;
    u_char                     *field;     /* NUL-terminated JSON pointer */
    size_t                      max_size;
    behave_key_t               *meter_key; /* NULL: not metered */
    ngx_array_t                *routes;
} ngx_http_behave_pf_loc_conf_t;


typedef struct {
    ngx_http_behave_pf_status_e status;
    ngx_http_behave_pf_route_t *route;     /* to redirect to, once */
    behave_annotation_t         ann;
    behave_routing_t            routing;
    ngx_str_t                   json;      /* made when first asked for */
    u_char                      confidence[NGX_INT_T_LEN + 8];
    size_t                      confidence_len;
    unsigned                    done:1;
} ngx_http_behave_pf_ctx_t;


static ngx_int_t ngx_http_behave_pf_handler(ngx_http_request_t *r);
static void ngx_http_behave_pf_body(ngx_http_request_t *r);
static ngx_http_behave_pf_status_e ngx_http_behave_pf_annotate(
    ngx_http_request_t *r, ngx_http_behave_pf_loc_conf_t *plcf,
    ngx_http_behave_pf_ctx_t *ctx);
static ngx_http_behave_pf_status_e ngx_http_behave_pf_text(
    ngx_http_request_t *r, ngx_http_behave_pf_loc_conf_t *plcf,
    ngx_str_t *body, ngx_http_behave_pf_ctx_t *ctx);
static ngx_http_behave_pf_route_t *ngx_http_behave_pf_match(
    ngx_array_t *routes, ngx_http_behave_pf_ctx_t *ctx);
static ngx_int_t ngx_http_behave_pf_redirect(ngx_http_request_t *r,
    ngx_http_behave_pf_route_t *route);
static ngx_http_behave_pf_ctx_t *ngx_http_behave_pf_create_ctx(
    ngx_http_request_t *r);
static ngx_http_behave_pf_ctx_t *ngx_http_behave_pf_get_ctx(
    ngx_http_request_t *r);
static void ngx_http_behave_pf_cleanup(void *data);

static const char *ngx_http_behave_pf_dim_value(ngx_http_behave_pf_ctx_t *ctx,
    ngx_uint_t dim);
static ngx_int_t ngx_http_behave_pf_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data);
static ngx_int_t ngx_http_behave_pf_confidence(ngx_http_request_t *r,
    ngx_http_behave_pf_ctx_t *ctx, ngx_str_t *s);
static ngx_int_t ngx_http_behave_pf_json(ngx_http_request_t *r,
    ngx_http_behave_pf_ctx_t *ctx, ngx_str_t *s);

static char *ngx_http_behave_pf_field(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_behave_pf_tenant(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_behave_pf_route(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_behave_pf_route_cond(ngx_conf_t *cf,
    ngx_http_behave_pf_route_t *route, ngx_str_t *arg);
static char *ngx_http_behave_pf_route_values(ngx_conf_t *cf,
    const ngx_http_behave_pf_dim_t *dim, u_char *p, u_char *last,
    ngx_uint_t *mask);
static char *ngx_http_behave_pf_route_target(ngx_conf_t *cf,
    ngx_http_behave_pf_route_t *route, ngx_str_t *arg);

static ngx_int_t ngx_http_behave_pf_add_variables(ngx_conf_t *cf);
static void *ngx_http_behave_pf_create_main_conf(ngx_conf_t *cf);
static void *ngx_http_behave_pf_create_loc_conf(ngx_conf_t *cf);
static char *ngx_http_behave_pf_merge_loc_conf(ngx_conf_t *cf, void *parent,
    void *child);
static ngx_int_t ngx_http_behave_pf_init(ngx_conf_t *cf);
static ngx_int_t ngx_http_behave_pf_check_routes(ngx_conf_t *cf,
    ngx_http_behave_pf_check_t *check);


/* the value sets of docs/API.md, in the order of the core's enums */

static const char *const  ngx_http_behave_pf_valence[] = {
    "positive", "neutral", "negative", "mixed", NULL
};

static const char *const  ngx_http_behave_pf_load[] = {
    "low", "moderate", "high", "overload", NULL
};

static const char *const  ngx_http_behave_pf_urgency[] = {
    "passive", "low", "medium", "high", "critical", NULL
};

static const char *const  ngx_http_behave_pf_engagement[] = {
    "disengaged", "browsing", "focused", "immersed", NULL
};

static const char *const  ngx_http_behave_pf_register[] = {
    "formal", "semi-formal", "informal", "crisis", NULL
};

static const char *const  ngx_http_behave_pf_posture[] = {
    "standard", "supportive", "de-escalate", "expedite", "crisis", NULL
};

static const char *const  ngx_http_behave_pf_tone[] = {
    "warm", "neutral", "formal", "casual", "empathetic", "plain", "calm",
    NULL
};

static const char *const  ngx_http_behave_pf_action[] = {
    "answer", "clarify", "simplify", "prioritize", "route_specialist",
    "escalate_human", NULL
};


static const ngx_http_behave_pf_dim_t
    ngx_http_behave_pf_dims[NGX_HTTP_BEHAVE_PF_NDIMS] =
{
    { "emotional_valence", "valence", ngx_http_behave_pf_valence },
    { "cognitive_load", "cognitive_load", ngx_http_behave_pf_load },
    { "urgency_level", "urgency", ngx_http_behave_pf_urgency },
    { "engagement_state", "engagement", ngx_http_behave_pf_engagement },
    { "social_register", "register", ngx_http_behave_pf_register },
    { "response_posture", "posture", ngx_http_behave_pf_posture },
    { "recommended_tone", "tone", ngx_http_behave_pf_tone },
    { "suggested_action", "action", ngx_http_behave_pf_action }
};


static ngx_str_t  ngx_http_behave_pf_status_names[] = {
    ngx_string("skipped"),
    ngx_string("ok"),
    ngx_string("unparsed"),
    ngx_string("too_large")
};


static ngx_conf_post_t  ngx_http_behave_pf_size_post;


static ngx_command_t  ngx_http_behave_pf_commands[] = {

    { ngx_string("behave_prefilter"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_pf_loc_conf_t, enable),
      NULL },

    { ngx_string("behave_prefilter_field"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_behave_pf_field,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_prefilter_max_size"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_size_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_pf_loc_conf_t, max_size),
      &ngx_http_behave_pf_size_post },

    { ngx_string("behave_prefilter_tenant"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_behave_pf_tenant,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_route"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_2MORE,
      ngx_http_behave_pf_route,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

      ngx_null_command
};


static ngx_http_module_t  ngx_http_behave_prefilter_module_ctx = {
    ngx_http_behave_pf_add_variables,      /* preconfiguration */
    ngx_http_behave_pf_init,               /* postconfiguration */

    ngx_http_behave_pf_create_main_conf,   /* create main configuration */
    NULL,                                  /* init main configuration */

    NULL,                                  /* create server configuration */
    NULL,                                  /* merge server configuration */

    ngx_http_behave_pf_create_loc_conf,    /* create location configuration */
    ngx_http_behave_pf_merge_loc_conf      /* merge location configuration */
};


ngx_module_t  ngx_http_behave_prefilter_module = {
    NGX_MODULE_V1,
    &ngx_http_behave_prefilter_module_ctx, /* module context */
    ngx_http_behave_pf_commands,           /* module directives */
    NGX_HTTP_MODULE,                       /* module type */
    NULL,                                  /* init master */
    NULL,                                  /* init module */
    NULL,                                  /* init process */
    NULL,                                  /* init thread */
    NULL,                                  /* exit thread */
    NULL,                                  /* exit process */
    NULL,                                  /* exit master */
    NGX_MODULE_V1_PADDING
};


static ngx_int_t
ngx_http_behave_pf_handler(ngx_http_request_t *r)
{
    ngx_int_t                       rc;
    ngx_http_behave_pf_ctx_t       *ctx;
    ngx_http_behave_pf_route_t     *route;
    ngx_http_behave_pf_loc_conf_t  *plcf;

    if (r != r->main) {
        return NGX_DECLINED;
    }

    plcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_prefilter_module);

    if (!plcf->enable) {
        return NGX_DECLINED;
    }

    ctx = ngx_http_behave_pf_get_ctx(r);

    if (ctx != NULL) {
        if (!ctx->done) {
            /* the body is still being read */
            return NGX_DONE;
        }

        route = ctx->route;

        if (route == NULL) {
            return NGX_DECLINED;
        }

        ctx->route = NULL;

        return ngx_http_behave_pf_redirect(r, route);
    }

    ctx = ngx_http_behave_pf_create_ctx(r);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* not read at all: a large upload keeps streaming to the upstream */
    if (r->headers_in.content_length_n > (off_t) plcf->max_size) {
        ctx->status = NGX_HTTP_BEHAVE_PF_TOO_LARGE;
        ctx->done = 1;
        return NGX_DECLINED;
    }

    rc = ngx_http_read_client_request_body(r, ngx_http_behave_pf_body);

    if (rc >= NGX_HTTP_SPECIAL_RESPONSE) {
        return rc;
    }

    ngx_http_finalize_request(r, NGX_DONE);
    return NGX_DONE;
}


/* the body is in: annotate, then go on with the phases from this one */

static void
ngx_http_behave_pf_body(ngx_http_request_t *r)
{
    ngx_http_behave_pf_ctx_t       *ctx;
    ngx_http_behave_pf_loc_conf_t  *plcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_prefilter_module);
    plcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_prefilter_module);

    ctx->status = ngx_http_behave_pf_annotate(r, plcf, ctx);
    ctx->done = 1;

    if (ctx->status == NGX_HTTP_BEHAVE_PF_OK && plcf->routes != NULL) {
        ctx->route = ngx_http_behave_pf_match(plcf->routes, ctx);
    }

    r->write_event_handler = ngx_http_core_run_phases;
    ngx_http_core_run_phases(r);
}


static ngx_http_behave_pf_status_e
ngx_http_behave_pf_annotate(ngx_http_request_t *r,
    ngx_http_behave_pf_loc_conf_t *plcf, ngx_http_behave_pf_ctx_t *ctx)
{
    ngx_int_t                 rc;
    ngx_str_t                 body;
    ngx_http_behave_usage_t   usage;

    rc = ngx_http_behave_body_string(r, plcf->max_size, &body);

    if (rc == NGX_DECLINED) {
        return NGX_HTTP_BEHAVE_PF_TOO_LARGE;
    }

    if (rc != NGX_OK) {
        return NGX_HTTP_BEHAVE_PF_UNPARSED;
    }

    if (body.len == 0) {
        return NGX_HTTP_BEHAVE_PF_SKIPPED;
    }

    rc = ngx_http_behave_pf_text(r, plcf, &body, ctx);

    if (rc == NGX_HTTP_BEHAVE_PF_OK && plcf->meter_key != NULL) {
        ngx_http_behave_meter_count(r, plcf->meter_key, 1, &usage);
    }

    return rc;
}


static ngx_http_behave_pf_status_e
ngx_http_behave_pf_text(ngx_http_request_t *r,
    ngx_http_behave_pf_loc_conf_t *plcf, ngx_str_t *body,
    ngx_http_behave_pf_ctx_t *ctx)
{
    char                        *text;
    size_t                       len;
    cJSON                       *root;
    behave_extract_e             rc;
    ngx_http_behave_loc_conf_t  *blcf;

    root = cJSON_ParseWithLength((char *) body->data, body->len);

    if (root == NULL) {
        ngx_log_debug0(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave prefilter: the body is not JSON");
        return NGX_HTTP_BEHAVE_PF_UNPARSED;
    }

    rc = behave_extract_text(root, (char *) plcf->field, &text, &len);
    cJSON_Delete(root);

    if (rc != BEHAVE_EXTRACT_OK) {
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave prefilter: no text in the body (%d)", rc);
        return NGX_HTTP_BEHAVE_PF_UNPARSED;
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    if (len > blcf->max_message_size) {
        free(text);
        return NGX_HTTP_BEHAVE_PF_TOO_LARGE;
    }

    if (!behave_utf8_valid((u_char *) text, len)) {
        free(text);
        return NGX_HTTP_BEHAVE_PF_UNPARSED;
    }

    behave_annotate(text, len, &ctx->ann);
    behave_route(&ctx->ann, &ctx->routing);
    free(text);

    return NGX_HTTP_BEHAVE_PF_OK;
}


/* the first route, in configuration order, whose conditions all hold */

static ngx_http_behave_pf_route_t *
ngx_http_behave_pf_match(ngx_array_t *routes, ngx_http_behave_pf_ctx_t *ctx)
{
    ngx_uint_t                   i, k, v;
    const char                  *value;
    const char *const           *values;
    ngx_http_behave_pf_cond_t   *cond;
    ngx_http_behave_pf_route_t  *route;

    route = routes->elts;

    for (i = 0; i < routes->nelts; i++) {

        for (k = 0; k < route[i].nconds; k++) {
            cond = &route[i].cond[k];
            value = ngx_http_behave_pf_dim_value(ctx, cond->dim);
            values = ngx_http_behave_pf_dims[cond->dim].values;

            for (v = 0; values[v] != NULL; v++) {
                if (ngx_strcmp(values[v], value) == 0) {
                    break;
                }
            }

            if (values[v] == NULL || !(cond->values & ((ngx_uint_t) 1 << v))) {
                break;
            }
        }

        if (k == route[i].nconds) {
            return &route[i];
        }
    }

    return NULL;
}


static ngx_int_t
ngx_http_behave_pf_redirect(ngx_http_request_t *r,
    ngx_http_behave_pf_route_t *route)
{
    ngx_str_t  args;

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave prefilter: route to \"%V\"", &route->uri);

    /* both count the request once more and finalize it on failure */

    if (route->uri.data[0] == '@') {
        (void) ngx_http_named_location(r, &route->uri);

    } else {
        args = route->has_args ? route->args : r->args;
        (void) ngx_http_internal_redirect(r, &route->uri, &args);
    }

    ngx_http_finalize_request(r, NGX_DONE);

    return NGX_DONE;
}


static ngx_http_behave_pf_ctx_t *
ngx_http_behave_pf_create_ctx(ngx_http_request_t *r)
{
    ngx_pool_cleanup_t        *cln;
    ngx_http_behave_pf_ctx_t  *ctx;

    ctx = ngx_pcalloc(r->pool, sizeof(ngx_http_behave_pf_ctx_t));
    if (ctx == NULL) {
        return NULL;
    }

    cln = ngx_pool_cleanup_add(r->pool, 0);
    if (cln == NULL) {
        return NULL;
    }

    cln->handler = ngx_http_behave_pf_cleanup;
    cln->data = ctx;

    ngx_http_set_ctx(r, ctx, ngx_http_behave_prefilter_module);

    return ctx;
}


/* r->ctx is cleared by an internal redirect; the pool cleanup is not */

static ngx_http_behave_pf_ctx_t *
ngx_http_behave_pf_get_ctx(ngx_http_request_t *r)
{
    ngx_pool_cleanup_t        *cln;
    ngx_http_behave_pf_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_prefilter_module);

    if (ctx != NULL || !(r->internal || r->filter_finalize)) {
        return ctx;
    }

    for (cln = r->pool->cleanup; cln; cln = cln->next) {
        if (cln->handler == ngx_http_behave_pf_cleanup) {
            ctx = cln->data;
            ngx_http_set_ctx(r, ctx, ngx_http_behave_prefilter_module);
            return ctx;
        }
    }

    return NULL;
}


/* only a marker to find the ctx by; it also drops a pending route */

static void
ngx_http_behave_pf_cleanup(void *data)
{
    ngx_http_behave_pf_ctx_t  *ctx = data;

    ctx->route = NULL;
}


static const char *
ngx_http_behave_pf_dim_value(ngx_http_behave_pf_ctx_t *ctx, ngx_uint_t dim)
{
    switch (dim) {

    case NGX_HTTP_BEHAVE_PF_VALENCE:
        return behave_valence_name(ctx->ann.valence);

    case NGX_HTTP_BEHAVE_PF_LOAD:
        return behave_load_name(ctx->ann.cognitive_load);

    case NGX_HTTP_BEHAVE_PF_URGENCY:
        return behave_urgency_name(ctx->ann.urgency);

    case NGX_HTTP_BEHAVE_PF_ENGAGEMENT:
        return behave_engagement_name(ctx->ann.engagement);

    case NGX_HTTP_BEHAVE_PF_REGISTER:
        return behave_register_name(ctx->ann.social_register);

    case NGX_HTTP_BEHAVE_PF_POSTURE:
        return ctx->routing.response_posture;

    case NGX_HTTP_BEHAVE_PF_TONE:
        return ctx->routing.recommended_tone;

    default: /* NGX_HTTP_BEHAVE_PF_ACTION */
        return ctx->routing.suggested_action;
    }
}


/*
 * Subrequests (auth_request, mirror) read the main request's annotation.
 * Where the pre-filter did not run, $behave_status is "skipped" and the
 * others are not found (empty).
 */

static ngx_int_t
ngx_http_behave_pf_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data)
{
    ngx_str_t                  s;
    const char                *value;
    ngx_http_behave_pf_ctx_t  *ctx;

    ctx = ngx_http_behave_pf_get_ctx(r->main);

    if (data == NGX_HTTP_BEHAVE_PF_STATUS) {
        s = ngx_http_behave_pf_status_names[ctx ? ctx->status : 0];

    } else if (ctx == NULL || ctx->status != NGX_HTTP_BEHAVE_PF_OK) {
        v->not_found = 1;
        return NGX_OK;

    } else if (data == NGX_HTTP_BEHAVE_PF_CONFIDENCE) {
        if (ngx_http_behave_pf_confidence(r, ctx, &s) != NGX_OK) {
            return NGX_ERROR;
        }

    } else if (data == NGX_HTTP_BEHAVE_PF_ANNOTATION) {
        if (ngx_http_behave_pf_json(r, ctx, &s) != NGX_OK) {
            return NGX_ERROR;
        }

    } else {
        value = ngx_http_behave_pf_dim_value(ctx, data);
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
ngx_http_behave_pf_confidence(ngx_http_request_t *r,
    ngx_http_behave_pf_ctx_t *ctx, ngx_str_t *s)
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
ngx_http_behave_pf_json(ngx_http_request_t *r, ngx_http_behave_pf_ctx_t *ctx,
    ngx_str_t *s)
{
    char    *json;
    cJSON   *obj;
    size_t   len;

    if (ctx->json.data == NULL) {
        obj = behave_annotation_json(&ctx->ann);
        if (obj == NULL) {
            return NGX_ERROR;
        }

        json = cJSON_PrintUnformatted(obj);
        cJSON_Delete(obj);

        if (json == NULL) {
            return NGX_ERROR;
        }

        len = ngx_strlen(json);

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


static char *
ngx_http_behave_pf_field(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_pf_loc_conf_t *plcf = conf;

    ngx_str_t  *value;

    if (plcf->field != NGX_CONF_UNSET_PTR) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (!behave_json_pointer_valid((char *) value[1].data, value[1].len)) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"%V\" is not a JSON pointer (RFC 6901): \"\" "
                           "or \"/\"-separated names, with \"~0\" for \"~\" "
                           "and \"~1\" for \"/\"", &value[1]);
        return NGX_CONF_ERROR;
    }

    /* the parser's words end with '\0' */
    plcf->field = value[1].data;

    return NGX_CONF_OK;
}


static char *
ngx_http_behave_pf_tenant(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_pf_loc_conf_t *plcf = conf;

    ngx_str_t  *value;

    if (plcf->meter_key != NGX_CONF_UNSET_PTR) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (value[1].len > BEHAVE_TENANT_MAX
        || !behave_tenant_valid((char *) value[1].data, value[1].len))
    {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "invalid tenant name \"%V\"", &value[1]);
        return NGX_CONF_ERROR;
    }

    plcf->meter_key = ngx_pcalloc(cf->pool, sizeof(behave_key_t));
    if (plcf->meter_key == NULL) {
        return NGX_CONF_ERROR;
    }

    /* a key of no secret and no quota: counted, never limited */
    ngx_memcpy(plcf->meter_key->tenant, value[1].data, value[1].len);

    return NGX_CONF_OK;
}


/* behave_route DIMENSION=VALUE[,VALUE...] [DIMENSION=...] TARGET; */

static char *
ngx_http_behave_pf_route(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_pf_loc_conf_t *plcf = conf;

    char                        *rv;
    ngx_str_t                   *value;
    ngx_uint_t                   i, n;
    ngx_http_behave_pf_route_t  *route;

    value = cf->args->elts;
    n = cf->args->nelts - 1;

    if (n - 1 > NGX_HTTP_BEHAVE_PF_CONDS_MAX) {
        return "has too many conditions";
    }

    if (plcf->routes == NGX_CONF_UNSET_PTR) {
        plcf->routes = ngx_array_create(cf->pool, 2,
                                        sizeof(ngx_http_behave_pf_route_t));
        if (plcf->routes == NULL) {
            return NGX_CONF_ERROR;
        }
    }

    route = ngx_array_push(plcf->routes);
    if (route == NULL) {
        return NGX_CONF_ERROR;
    }

    ngx_memzero(route, sizeof(ngx_http_behave_pf_route_t));

    route->file = cf->conf_file->file.name;
    route->line = cf->conf_file->line;

    for (i = 1; i < n; i++) {
        rv = ngx_http_behave_pf_route_cond(cf, route, &value[i]);
        if (rv != NGX_CONF_OK) {
            return rv;
        }
    }

    return ngx_http_behave_pf_route_target(cf, route, &value[n]);
}


static char *
ngx_http_behave_pf_route_cond(ngx_conf_t *cf,
    ngx_http_behave_pf_route_t *route, ngx_str_t *arg)
{
    u_char                          *eq, *last;
    size_t                           len;
    ngx_uint_t                       d, k;
    const ngx_http_behave_pf_dim_t  *dim;

    last = arg->data + arg->len;
    eq = ngx_strlchr(arg->data, last, '=');

    if (eq == NULL) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"%V\" is not DIMENSION=VALUE[,VALUE...]", arg);
        return NGX_CONF_ERROR;
    }

    len = eq - arg->data;

    for (d = 0; d < NGX_HTTP_BEHAVE_PF_NDIMS; d++) {
        dim = &ngx_http_behave_pf_dims[d];

        if ((len == ngx_strlen(dim->name)
             && ngx_strncmp(arg->data, dim->name, len) == 0)
            || (len == ngx_strlen(dim->alias)
                && ngx_strncmp(arg->data, dim->alias, len) == 0))
        {
            break;
        }
    }

    if (d == NGX_HTTP_BEHAVE_PF_NDIMS) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "unknown dimension \"%*s\" in \"%V\": one of "
                           "emotional_valence, cognitive_load, urgency_level, "
                           "engagement_state, social_register, "
                           "response_posture, recommended_tone, "
                           "suggested_action", len, arg->data, arg);
        return NGX_CONF_ERROR;
    }

    for (k = 0; k < route->nconds; k++) {
        if (route->cond[k].dim == d) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "dimension \"%s\" is given twice",
                               dim->name);
            return NGX_CONF_ERROR;
        }
    }

    route->cond[k].dim = d;
    route->nconds++;

    return ngx_http_behave_pf_route_values(cf, dim, eq + 1, last,
                                           &route->cond[k].values);
}


static char *
ngx_http_behave_pf_route_values(ngx_conf_t *cf,
    const ngx_http_behave_pf_dim_t *dim, u_char *p, u_char *last,
    ngx_uint_t *mask)
{
    u_char      *comma;
    size_t       len;
    ngx_uint_t   v;

    for ( ;; ) {
        comma = ngx_strlchr(p, last, ',');
        len = (comma ? comma : last) - p;

        for (v = 0; dim->values[v] != NULL; v++) {
            if (len == ngx_strlen(dim->values[v])
                && ngx_strncmp(p, dim->values[v], len) == 0)
            {
                break;
            }
        }

        if (dim->values[v] == NULL) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "unknown %s value \"%*s\"", dim->name,
                               len, p);
            return NGX_CONF_ERROR;
        }

        *mask |= (ngx_uint_t) 1 << v;

        if (comma == NULL) {
            return NGX_CONF_OK;
        }

        p = comma + 1;
    }
}


static char *
ngx_http_behave_pf_route_target(ngx_conf_t *cf,
    ngx_http_behave_pf_route_t *route, ngx_str_t *arg)
{
    u_char  *q;

    if (arg->len > 1 && arg->data[0] == '@') {
        route->uri = *arg;
        return NGX_CONF_OK;
    }

    if (arg->len == 0 || arg->data[0] != '/') {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "route target \"%V\" is neither a URI starting "
                           "with \"/\" nor a named location", arg);
        return NGX_CONF_ERROR;
    }

    route->uri = *arg;

    q = ngx_strlchr(arg->data, arg->data + arg->len, '?');

    if (q != NULL) {
        route->uri.len = q - arg->data;
        route->args.data = q + 1;
        route->args.len = arg->data + arg->len - (q + 1);
        route->has_args = 1;
    }

    return NGX_CONF_OK;
}


static ngx_conf_post_t  ngx_http_behave_pf_size_post;


static ngx_int_t
ngx_http_behave_pf_add_variables(ngx_conf_t *cf)
{
    ngx_uint_t             i;
    ngx_http_variable_t   *var;

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

    /* names[i] is read by ngx_http_behave_pf_variable() with data i */

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        var = ngx_http_add_variable(cf, &names[i], NGX_HTTP_VAR_NOCACHEABLE);
        if (var == NULL) {
            return NGX_ERROR;
        }

        var->get_handler = ngx_http_behave_pf_variable;
        var->data = i;
    }

    return NGX_OK;
}


static void *
ngx_http_behave_pf_create_main_conf(ngx_conf_t *cf)
{
    ngx_http_behave_pf_main_conf_t  *pmcf;

    pmcf = ngx_pcalloc(cf->pool, sizeof(ngx_http_behave_pf_main_conf_t));
    if (pmcf == NULL) {
        return NULL;
    }

    if (ngx_array_init(&pmcf->checks, cf->pool, 4,
                       sizeof(ngx_http_behave_pf_check_t))
        != NGX_OK)
    {
        return NULL;
    }

    return pmcf;
}


static void *
ngx_http_behave_pf_create_loc_conf(ngx_conf_t *cf)
{
    ngx_http_behave_pf_loc_conf_t  *plcf;

    plcf = ngx_pcalloc(cf->pool, sizeof(ngx_http_behave_pf_loc_conf_t));
    if (plcf == NULL) {
        return NULL;
    }

    plcf->enable = NGX_CONF_UNSET;
    plcf->field = NGX_CONF_UNSET_PTR;
    plcf->max_size = NGX_CONF_UNSET_SIZE;
    plcf->meter_key = NGX_CONF_UNSET_PTR;
    plcf->routes = NGX_CONF_UNSET_PTR;

    return plcf;
}


/*
 * Named route targets are looked up after the whole http{} block is read
 * (named locations exist only then): each merge with routes records the
 * server it belongs to.
 */

static char *
ngx_http_behave_pf_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child)
{
    ngx_http_behave_pf_loc_conf_t *prev = parent;
    ngx_http_behave_pf_loc_conf_t *conf = child;

    ngx_uint_t                       i;
    ngx_http_core_srv_conf_t        *cscf;
    ngx_http_behave_pf_check_t      *check;
    ngx_http_behave_pf_main_conf_t  *pmcf;

    ngx_conf_merge_value(conf->enable, prev->enable, 0);
    ngx_conf_merge_ptr_value(conf->field, prev->field, NULL);
    ngx_conf_merge_size_value(conf->max_size, prev->max_size,
                              NGX_HTTP_BEHAVE_PF_MAX_SIZE);
    ngx_conf_merge_ptr_value(conf->meter_key, prev->meter_key, NULL);
    ngx_conf_merge_ptr_value(conf->routes, prev->routes, NULL);

    if (conf->routes == NULL) {
        return NGX_CONF_OK;
    }

    pmcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_behave_prefilter_module);
    cscf = ngx_http_conf_get_module_srv_conf(cf, ngx_http_core_module);

    check = pmcf->checks.elts;

    for (i = 0; i < pmcf->checks.nelts; i++) {
        if (check[i].routes == conf->routes && check[i].cscf == cscf) {
            return NGX_CONF_OK;
        }
    }

    check = ngx_array_push(&pmcf->checks);
    if (check == NULL) {
        return NGX_CONF_ERROR;
    }

    check->routes = conf->routes;
    check->cscf = cscf;

    return NGX_CONF_OK;
}


static ngx_int_t
ngx_http_behave_pf_init(ngx_conf_t *cf)
{
    ngx_uint_t                       i;
    ngx_http_handler_pt             *h;
    ngx_http_core_main_conf_t       *cmcf;
    ngx_http_behave_pf_check_t      *check;
    ngx_http_behave_pf_main_conf_t  *pmcf;

    pmcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_behave_prefilter_module);
    check = pmcf->checks.elts;

    for (i = 0; i < pmcf->checks.nelts; i++) {
        if (ngx_http_behave_pf_check_routes(cf, &check[i]) != NGX_OK) {
            return NGX_ERROR;
        }
    }

    cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);

    h = ngx_array_push(&cmcf->phases[NGX_HTTP_REWRITE_PHASE].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    *h = ngx_http_behave_pf_handler;

    return NGX_OK;
}


static ngx_int_t
ngx_http_behave_pf_check_routes(ngx_conf_t *cf,
    ngx_http_behave_pf_check_t *check)
{
    ngx_uint_t                   i;
    ngx_http_core_loc_conf_t   **named;
    ngx_http_behave_pf_route_t  *route;

    route = check->routes->elts;

    for (i = 0; i < check->routes->nelts; i++) {
        if (route[i].uri.data[0] != '@') {
            continue;
        }

        named = check->cscf->named_locations;

        while (named != NULL && *named != NULL
               && ((*named)->name.len != route[i].uri.len
                   || ngx_strncmp((*named)->name.data, route[i].uri.data,
                                  route[i].uri.len) != 0))
        {
            named++;
        }

        if (named == NULL || *named == NULL) {
            ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                          "behave_route target \"%V\" is not a named "
                          "location of the server in %V:%ui",
                          &route[i].uri, &route[i].file, route[i].line);
            return NGX_ERROR;
        }
    }

    return NGX_OK;
}


static char *
ngx_http_behave_pf_size_check(ngx_conf_t *cf, void *post, void *data)
{
    size_t  *sp = data;

    if (*sp == 0) {
        return "must be greater than 0";
    }

    return NGX_CONF_OK;
}


static ngx_conf_post_t  ngx_http_behave_pf_size_post = {
    ngx_http_behave_pf_size_check
};
