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


#include "ngx_http_behave_prefilter.h"
#include "ngx_http_behave_body.h"
#include "ngx_http_behave_meter.h"
#include "ngx_http_behave_stats.h"
#include "ngx_http_behave_trace.h"
#include "ngx_http_behave_util.h"

#include "behave_extract.h"
#include "behave_json_parse.h"
#include "behave_utf8.h"


static ngx_int_t ngx_http_behave_prefilter_handler(ngx_http_request_t *r);
static void ngx_http_behave_prefilter_body(ngx_http_request_t *r);
static ngx_http_behave_prefilter_status_e ngx_http_behave_prefilter_annotate(
    ngx_http_request_t *r, ngx_http_behave_prefilter_loc_conf_t *plcf,
    ngx_http_behave_prefilter_ctx_t *ctx);
static ngx_http_behave_prefilter_status_e ngx_http_behave_prefilter_text(
    ngx_http_request_t *r, ngx_http_behave_prefilter_loc_conf_t *plcf,
    ngx_str_t *body, ngx_http_behave_prefilter_ctx_t *ctx);
static ngx_int_t ngx_http_behave_prefilter_redirect(ngx_http_request_t *r,
    ngx_http_behave_prefilter_route_t *route);
static ngx_http_behave_prefilter_ctx_t *ngx_http_behave_prefilter_create_ctx(
    ngx_http_request_t *r);
static void ngx_http_behave_prefilter_cleanup(void *data);


static char *ngx_http_behave_prefilter_field(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_behave_prefilter_tenant(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);

static void *ngx_http_behave_prefilter_create_main_conf(ngx_conf_t *cf);
static void *ngx_http_behave_prefilter_create_loc_conf(ngx_conf_t *cf);
static char *ngx_http_behave_prefilter_merge_loc_conf(ngx_conf_t *cf,
    void *parent, void *child);
static ngx_int_t ngx_http_behave_prefilter_init(ngx_conf_t *cf);


static ngx_conf_post_t  ngx_http_behave_prefilter_size_post;


static ngx_command_t  ngx_http_behave_prefilter_commands[] = {

    { ngx_string("behave_prefilter"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_prefilter_loc_conf_t, enable),
      NULL },

    { ngx_string("behave_prefilter_field"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_behave_prefilter_field,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_prefilter_max_size"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_size_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_prefilter_loc_conf_t, max_size),
      &ngx_http_behave_prefilter_size_post },

    { ngx_string("behave_prefilter_tenant"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_behave_prefilter_tenant,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_route"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_2MORE,
      ngx_http_behave_prefilter_route,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

      ngx_null_command
};


static ngx_http_module_t  ngx_http_behave_prefilter_module_ctx = {
    ngx_http_behave_prefilter_add_variables,   /* preconfiguration */
    ngx_http_behave_prefilter_init,            /* postconfiguration */

    ngx_http_behave_prefilter_create_main_conf,
                                               /* create main configuration */
    NULL,                                      /* init main configuration */

    NULL,                                      /* create server configuration */
    NULL,                                      /* merge server configuration */

    ngx_http_behave_prefilter_create_loc_conf, /* create location config */
    ngx_http_behave_prefilter_merge_loc_conf   /* merge location config */
};


ngx_module_t  ngx_http_behave_prefilter_module = {
    NGX_MODULE_V1,
    &ngx_http_behave_prefilter_module_ctx, /* module context */
    ngx_http_behave_prefilter_commands,           /* module directives */
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
ngx_http_behave_prefilter_handler(ngx_http_request_t *r)
{
    ngx_int_t                              rc;
    ngx_http_behave_prefilter_ctx_t       *ctx;
    ngx_http_behave_prefilter_route_t     *route;
    ngx_http_behave_prefilter_loc_conf_t  *plcf;

    if (r != r->main) {
        return NGX_DECLINED;
    }

    plcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_prefilter_module);

    if (!plcf->enable) {
        return NGX_DECLINED;
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_prefilter_module);

    if (ctx == NULL) {
        ctx = ngx_http_behave_prefilter_get_ctx(r);

        if (ctx != NULL && !ctx->done) {
            /*
             * found after a redirect but never done: reading the body
             * failed and error_page redirected; the new location goes on
             */
            ctx->status = NGX_HTTP_BEHAVE_PREFILTER_UNPARSED;
            ctx->done = 1;
        }
    }

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

        return ngx_http_behave_prefilter_redirect(r, route);
    }

    ctx = ngx_http_behave_prefilter_create_ctx(r);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* not read at all: a large upload keeps streaming to the upstream */
    if (r->headers_in.content_length_n > (off_t) plcf->max_size) {
        ctx->status = NGX_HTTP_BEHAVE_PREFILTER_TOO_LARGE;
        ctx->done = 1;
        return NGX_DECLINED;
    }

    rc = ngx_http_read_client_request_body(r, ngx_http_behave_prefilter_body);

    if (rc >= NGX_HTTP_SPECIAL_RESPONSE) {
        return rc;
    }

    ngx_http_finalize_request(r, NGX_DONE);
    return NGX_DONE;
}


/* the body is in: annotate, then go on with the phases from this one */

static void
ngx_http_behave_prefilter_body(ngx_http_request_t *r)
{
    ngx_http_behave_ctx_t                 *bctx;
    ngx_http_behave_prefilter_ctx_t       *ctx;
    ngx_http_behave_prefilter_loc_conf_t  *plcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_prefilter_module);
    plcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_prefilter_module);

    ngx_http_behave_stats_enter(r, NGX_HTTP_BEHAVE_STAT_PREFILTER);

    /* with behave_prefilter_tenant the trace is kept for that tenant */
    bctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (bctx != NULL && plcf->meter_key != NULL) {
        bctx->key = plcf->meter_key;
        ngx_http_behave_trace_begin(r, bctx, 0);
    }

    ctx->status = ngx_http_behave_prefilter_annotate(r, plcf, ctx);
    ctx->done = 1;

    if (ctx->status == NGX_HTTP_BEHAVE_PREFILTER_OK && plcf->routes != NULL) {
        ctx->route = ngx_http_behave_prefilter_match(plcf->routes, ctx);
    }

    r->write_event_handler = ngx_http_core_run_phases;
    ngx_http_core_run_phases(r);
}


static ngx_http_behave_prefilter_status_e
ngx_http_behave_prefilter_annotate(ngx_http_request_t *r,
    ngx_http_behave_prefilter_loc_conf_t *plcf,
    ngx_http_behave_prefilter_ctx_t *ctx)
{
    ngx_int_t                rc;
    ngx_str_t                body;
    ngx_http_behave_usage_t  usage;

    rc = ngx_http_behave_body_string(r, plcf->max_size, &body);

    if (rc == NGX_DECLINED) {
        return NGX_HTTP_BEHAVE_PREFILTER_TOO_LARGE;
    }

    if (rc != NGX_OK) {
        return NGX_HTTP_BEHAVE_PREFILTER_UNPARSED;
    }

    if (body.len == 0) {
        return NGX_HTTP_BEHAVE_PREFILTER_SKIPPED;
    }

    rc = ngx_http_behave_prefilter_text(r, plcf, &body, ctx);

    if (rc == NGX_HTTP_BEHAVE_PREFILTER_OK && plcf->meter_key != NULL) {
        ngx_http_behave_meter_count(r, plcf->meter_key, 1, &usage);
    }

    return rc;
}


static ngx_http_behave_prefilter_status_e
ngx_http_behave_prefilter_text(ngx_http_request_t *r,
    ngx_http_behave_prefilter_loc_conf_t *plcf, ngx_str_t *body,
    ngx_http_behave_prefilter_ctx_t *ctx)
{
    char                        *text;
    size_t                       len;
    cJSON                       *root;
    behave_error_t               err;
    behave_extract_e             rc;
    ngx_http_behave_loc_conf_t  *blcf;

    /* the same strict JSON as the module's own surfaces, see there */
    root = behave_json_parse_strict((char *) body->data, body->len, &err);

    if (root == NULL) {
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave prefilter: %s", err.message);
        return NGX_HTTP_BEHAVE_PREFILTER_UNPARSED;
    }

    rc = behave_extract_text(root, (char *) plcf->field, &text, &len);
    cJSON_Delete(root);

    if (rc != BEHAVE_EXTRACT_OK) {
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave prefilter: no text in the body (%d)", rc);
        return NGX_HTTP_BEHAVE_PREFILTER_UNPARSED;
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    if (len > blcf->max_message_size) {
        free(text);
        return NGX_HTTP_BEHAVE_PREFILTER_TOO_LARGE;
    }

    if (!behave_utf8_valid((u_char *) text, len)) {
        free(text);
        return NGX_HTTP_BEHAVE_PREFILTER_UNPARSED;
    }

    behave_annotate(text, len, &ctx->ann);
    behave_route(&ctx->ann, &ctx->routing);
    free(text);

    return NGX_HTTP_BEHAVE_PREFILTER_OK;
}


static ngx_int_t
ngx_http_behave_prefilter_redirect(ngx_http_request_t *r,
    ngx_http_behave_prefilter_route_t *route)
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


static ngx_http_behave_prefilter_ctx_t *
ngx_http_behave_prefilter_create_ctx(ngx_http_request_t *r)
{
    ngx_pool_cleanup_t               *cln;
    ngx_http_behave_prefilter_ctx_t  *ctx;

    ctx = ngx_pcalloc(r->pool, sizeof(ngx_http_behave_prefilter_ctx_t));
    if (ctx == NULL) {
        return NULL;
    }

    cln = ngx_pool_cleanup_add(r->pool, 0);
    if (cln == NULL) {
        return NULL;
    }

    cln->handler = ngx_http_behave_prefilter_cleanup;
    cln->data = ctx;

    ngx_http_set_ctx(r, ctx, ngx_http_behave_prefilter_module);

    return ctx;
}


/* r->ctx is cleared by an internal redirect; the pool cleanup is not */

ngx_http_behave_prefilter_ctx_t *
ngx_http_behave_prefilter_get_ctx(ngx_http_request_t *r)
{
    ngx_pool_cleanup_t               *cln;
    ngx_http_behave_prefilter_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_prefilter_module);

    if (ctx != NULL || !(r->internal || r->filter_finalize)) {
        return ctx;
    }

    for (cln = r->pool->cleanup; cln; cln = cln->next) {
        if (cln->handler == ngx_http_behave_prefilter_cleanup) {
            ctx = cln->data;
            ngx_http_set_ctx(r, ctx, ngx_http_behave_prefilter_module);
            return ctx;
        }
    }

    return NULL;
}


/* only a marker to find the ctx by; it also drops a pending route */

static void
ngx_http_behave_prefilter_cleanup(void *data)
{
    ngx_http_behave_prefilter_ctx_t  *ctx = data;

    ctx->route = NULL;
}


static char *
ngx_http_behave_prefilter_field(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_prefilter_loc_conf_t *plcf = conf;

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
ngx_http_behave_prefilter_tenant(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_prefilter_loc_conf_t *plcf = conf;

    ngx_str_t  *value;

    if (plcf->meter_key != NGX_CONF_UNSET_PTR) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (value[1].len > BEHAVE_TENANT_MAX
        || !behave_tenant_valid((char *) value[1].data, value[1].len))
    {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "invalid tenant name \"%V\": 1-64 characters "
                           "from A-Z a-z 0-9 _ . -", &value[1]);
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


static void *
ngx_http_behave_prefilter_create_main_conf(ngx_conf_t *cf)
{
    ngx_http_behave_prefilter_main_conf_t  *pmcf;

    pmcf = ngx_pcalloc(cf->pool, sizeof(ngx_http_behave_prefilter_main_conf_t));
    if (pmcf == NULL) {
        return NULL;
    }

    if (ngx_array_init(&pmcf->checks, cf->pool, 4,
                       sizeof(ngx_http_behave_prefilter_check_t))
        != NGX_OK)
    {
        return NULL;
    }

    return pmcf;
}


static void *
ngx_http_behave_prefilter_create_loc_conf(ngx_conf_t *cf)
{
    ngx_http_behave_prefilter_loc_conf_t  *plcf;

    plcf = ngx_pcalloc(cf->pool, sizeof(ngx_http_behave_prefilter_loc_conf_t));
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
 * (named locations exist only then): each merge of a location where
 * routes apply records the server it belongs to.
 */

static char *
ngx_http_behave_prefilter_merge_loc_conf(ngx_conf_t *cf, void *parent,
    void *child)
{
    ngx_http_behave_prefilter_loc_conf_t *prev = parent;
    ngx_http_behave_prefilter_loc_conf_t *conf = child;

    ngx_uint_t                              i;
    ngx_http_core_srv_conf_t               *cscf;
    ngx_http_behave_prefilter_check_t      *check;
    ngx_http_behave_prefilter_main_conf_t  *pmcf;

    ngx_conf_merge_value(conf->enable, prev->enable, 0);
    ngx_conf_merge_ptr_value(conf->field, prev->field, NULL);
    ngx_conf_merge_size_value(conf->max_size, prev->max_size,
                              NGX_HTTP_BEHAVE_PREFILTER_MAX_SIZE);
    ngx_conf_merge_ptr_value(conf->meter_key, prev->meter_key, NULL);
    ngx_conf_merge_ptr_value(conf->routes, prev->routes, NULL);

    if (conf->routes == NULL || !conf->enable) {
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
ngx_http_behave_prefilter_init(ngx_conf_t *cf)
{
    ngx_uint_t                              i;
    ngx_http_behave_prefilter_check_t      *check;
    ngx_http_behave_prefilter_main_conf_t  *pmcf;

    pmcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_behave_prefilter_module);
    check = pmcf->checks.elts;

    for (i = 0; i < pmcf->checks.nelts; i++) {
        if (ngx_http_behave_prefilter_check_routes(cf, &check[i]) != NGX_OK) {
            return NGX_ERROR;
        }
    }

    return ngx_http_behave_phase_handler_add(cf, NGX_HTTP_REWRITE_PHASE,
                                             ngx_http_behave_prefilter_handler);
}


static char *
ngx_http_behave_prefilter_size_check(ngx_conf_t *cf, void *post, void *data)
{
    size_t  *sp = data;

    if (*sp == 0) {
        return "must be greater than 0";
    }

    return NGX_CONF_OK;
}


static ngx_conf_post_t  ngx_http_behave_prefilter_size_post = {
    ngx_http_behave_prefilter_size_check
};
