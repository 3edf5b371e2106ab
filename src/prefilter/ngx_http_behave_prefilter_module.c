/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The pre-filter in front of an LLM: "behave_prefilter on;" in a location
 * that proxies chat traffic reads the request body, annotates the user's
 * latest message, finds what the chat's history says of it (the
 * conversation findings of /v1/analyze, from the turns the request
 * carries: behave_chat.h), exposes the result as $behave_* variables,
 * optionally routes the request elsewhere ("behave_route", or only names
 * the route with "behave_route_shadow on"), and lets it continue.
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
 * - The chat's texts point into the parsed body: the tree is deleted
 *   once the findings are made, and nothing of it is kept.  What each
 *   turn left is kept in the worker's turn memo (behave_turn_memo.h), by
 *   its text: the next request of the chat annotates only its new turns.
 */


#include "ngx_http_behave_prefilter.h"
#include "ngx_http_behave_body.h"
#include "ngx_http_behave_meter.h"
#include "ngx_http_behave_stats.h"
#include "ngx_http_behave_trace.h"
#include "ngx_http_behave_util.h"

#include "conversation/behave_chat.h"
#include "text/behave_extract.h"
#include "base/behave_json_arena.h"
#include "conversation/behave_turn_memo.h"
#include "base/behave_utf8.h"


static ngx_int_t ngx_http_behave_prefilter_handler(ngx_http_request_t *r);
static void ngx_http_behave_prefilter_body(ngx_http_request_t *r);
static ngx_http_behave_prefilter_status_e ngx_http_behave_prefilter_annotate(
    ngx_http_request_t *r, ngx_http_behave_prefilter_loc_conf_t *plcf,
    ngx_http_behave_prefilter_ctx_t *ctx);
static ngx_http_behave_prefilter_status_e ngx_http_behave_prefilter_text(
    ngx_http_request_t *r, ngx_http_behave_prefilter_loc_conf_t *plcf,
    ngx_str_t *body, ngx_http_behave_prefilter_ctx_t *ctx);
static ngx_http_behave_prefilter_status_e ngx_http_behave_prefilter_latest(
    ngx_http_request_t *r, ngx_http_behave_prefilter_loc_conf_t *plcf,
    cJSON *root, ngx_http_behave_prefilter_ctx_t *ctx);
static ngx_http_behave_prefilter_status_e ngx_http_behave_prefilter_chat(
    ngx_http_request_t *r, ngx_http_behave_prefilter_loc_conf_t *plcf,
    cJSON *root, ngx_http_behave_prefilter_ctx_t *ctx);
static ngx_http_behave_prefilter_status_e ngx_http_behave_prefilter_check(
    ngx_http_request_t *r, const char *text, size_t len);
static void ngx_http_behave_prefilter_history(ngx_http_request_t *r,
    behave_chat_t *chat, ngx_http_behave_prefilter_ctx_t *ctx);
static behave_turn_memo_t *ngx_http_behave_prefilter_memo(ngx_log_t *log);
static void ngx_http_behave_prefilter_take(ngx_http_request_t *r,
    ngx_http_behave_prefilter_loc_conf_t *plcf,
    ngx_http_behave_prefilter_ctx_t *ctx);
static ngx_int_t ngx_http_behave_prefilter_redirect(ngx_http_request_t *r,
    ngx_http_behave_prefilter_route_t *route);
static ngx_http_behave_prefilter_ctx_t *ngx_http_behave_prefilter_create_ctx(
    ngx_http_request_t *r);
static void ngx_http_behave_prefilter_cleanup(void *data);


static char *ngx_http_behave_prefilter_field(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_behave_prefilter_tenant(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_behave_prefilter_history_conf(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);

static void *ngx_http_behave_prefilter_create_main_conf(ngx_conf_t *cf);
static void *ngx_http_behave_prefilter_create_loc_conf(ngx_conf_t *cf);
static char *ngx_http_behave_prefilter_merge_loc_conf(ngx_conf_t *cf,
    void *parent, void *child);
static ngx_int_t ngx_http_behave_prefilter_init(ngx_conf_t *cf);
static void ngx_http_behave_prefilter_exit_process(ngx_cycle_t *cycle);


static ngx_conf_post_t  ngx_http_behave_prefilter_size_post;


/*
 * The worker's turn memo, made at its first chat with history; made anew
 * when the cycle changes (a reload without a master process may load
 * another lexicon, and an annotation would no longer be the same)
 */
static behave_turn_memo_t  *ngx_http_behave_prefilter_memo_p;
static ngx_cycle_t         *ngx_http_behave_prefilter_memo_cycle;


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

    { ngx_string("behave_prefilter_history"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_behave_prefilter_history_conf,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_prefilter_loc_conf_t, history),
      NULL },

    { ngx_string("behave_route"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_2MORE,
      ngx_http_behave_prefilter_route,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_route_shadow"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_prefilter_loc_conf_t, shadow),
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
    ngx_http_behave_prefilter_exit_process, /* exit process */
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

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave prefilter: status %V",
                   &ngx_http_behave_prefilter_status_names[ctx->status]);

    if (ctx->status == NGX_HTTP_BEHAVE_PREFILTER_OK && plcf->routes != NULL) {
        ngx_http_behave_prefilter_take(r, plcf, ctx);
    }

    r->write_event_handler = ngx_http_core_run_phases;
    ngx_http_core_run_phases(r);
}


/*
 * The first route that matches: taken (a redirect once the phases go on)
 * or, with behave_route_shadow on, only named in $behave_route; counted
 * either way
 */

static void
ngx_http_behave_prefilter_take(ngx_http_request_t *r,
    ngx_http_behave_prefilter_loc_conf_t *plcf,
    ngx_http_behave_prefilter_ctx_t *ctx)
{
    ngx_http_behave_route_mode_e        mode;
    ngx_http_behave_prefilter_route_t  *route;

    route = ngx_http_behave_prefilter_match(plcf->routes, ctx);

    if (route == NULL) {
        ngx_log_debug0(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave prefilter: no route matches");
        return;
    }

    mode = plcf->shadow ? NGX_HTTP_BEHAVE_ROUTE_SHADOW
                        : NGX_HTTP_BEHAVE_ROUTE_ENFORCE;

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave prefilter: route \"%V\" of %V:%ui matches",
                   &route->target, &route->file, route->line);
    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave prefilter: route mode %s",
                   ngx_http_behave_route_mode_names[mode]);

    ctx->matched = route;
    ngx_http_behave_stats_route(&route->target, mode, &route->stat_slot);

    if (mode == NGX_HTTP_BEHAVE_ROUTE_ENFORCE) {
        ctx->route = route;
    }
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
    cJSON                               *root;
    behave_error_t                       err;
    behave_json_arena_t                 *arena;
    ngx_http_behave_prefilter_status_e   status;

    /*
     * the same strict JSON as the module's own surfaces, see there; the
     * tree in one block (a chat's is hundreds of nodes and strings,
     * malloc()ed and freed one by one otherwise)
     */
    root = behave_json_parse_strict_arena((char *) body->data, body->len,
                                          &arena, &err);

    if (root == NULL) {
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave prefilter: %s", err.message);
        return NGX_HTTP_BEHAVE_PREFILTER_UNPARSED;
    }

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave prefilter: %uz bytes of JSON parsed", body->len);

    /* a pointer names one text; with history off, the latest alone */
    if (plcf->field != NULL || plcf->history == 0) {
        status = ngx_http_behave_prefilter_latest(r, plcf, root, ctx);

    } else {
        status = ngx_http_behave_prefilter_chat(r, plcf, root, ctx);
    }

    if (arena != NULL) {
        behave_json_arena_release(arena);

    } else {
        cJSON_Delete(root);
    }

    return status;
}


/* the user's latest message alone, copied out of the tree */

static ngx_http_behave_prefilter_status_e
ngx_http_behave_prefilter_latest(ngx_http_request_t *r,
    ngx_http_behave_prefilter_loc_conf_t *plcf, cJSON *root,
    ngx_http_behave_prefilter_ctx_t *ctx)
{
    char                                *text;
    size_t                               len;
    behave_extract_e                     rc;
    ngx_http_behave_prefilter_status_e   status;

    rc = behave_extract_text(root, (char *) plcf->field, &text, &len);

    if (rc != BEHAVE_EXTRACT_OK) {
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave prefilter: no text in the body (%d)", rc);
        return NGX_HTTP_BEHAVE_PREFILTER_UNPARSED;
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave prefilter: the latest message alone, %uz bytes "
                   "(history %s)", len, plcf->field ? "by pointer" : "off");

    status = ngx_http_behave_prefilter_check(r, text, len);

    if (status == NGX_HTTP_BEHAVE_PREFILTER_OK) {
        behave_annotate(text, len, &ctx->ann);
        behave_route(&ctx->ann, &ctx->routing);
    }

    free(text);

    return status;
}


/* the chat: the latest message annotated, then its history's findings */

static ngx_http_behave_prefilter_status_e
ngx_http_behave_prefilter_chat(ngx_http_request_t *r,
    ngx_http_behave_prefilter_loc_conf_t *plcf, cJSON *root,
    ngx_http_behave_prefilter_ctx_t *ctx)
{
    behave_chat_t                        chat;
    behave_extract_e                     rc;
    behave_chat_turn_t                  *latest;
    ngx_http_behave_prefilter_status_e   status;

    rc = behave_extract_chat(root, plcf->history, &chat);

    if (rc != BEHAVE_EXTRACT_OK) {
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave prefilter: no text in the body (%d)", rc);
        return NGX_HTTP_BEHAVE_PREFILTER_UNPARSED;
    }

    latest = &chat.turn[chat.n - 1];

    ngx_log_debug4(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave prefilter: %s: %uz turns read, %uz left out, "
                   "the latest %uz bytes", chat.format, chat.n,
                   chat.left_out, latest->len);

    status = ngx_http_behave_prefilter_check(r, latest->text, latest->len);

    if (status == NGX_HTTP_BEHAVE_PREFILTER_OK) {
        behave_annotate(latest->text, latest->len, &ctx->ann);
        behave_route(&ctx->ann, &ctx->routing);

        if (chat.n > 1) {
            ngx_http_behave_prefilter_history(r, &chat, ctx);
        }
    }

    behave_chat_free(&chat);

    return status;
}


/* the latest message: within behave_max_message_size, and UTF-8 */

static ngx_http_behave_prefilter_status_e
ngx_http_behave_prefilter_check(ngx_http_request_t *r, const char *text,
    size_t len)
{
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    if (len > blcf->max_message_size) {
        ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave prefilter: the message is %uz bytes, over "
                       "behave_max_message_size %uz", len,
                       blcf->max_message_size);
        return NGX_HTTP_BEHAVE_PREFILTER_TOO_LARGE;
    }

    if (!behave_utf8_valid((u_char *) text, len)) {
        ngx_log_debug0(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave prefilter: the message is not UTF-8");
        return NGX_HTTP_BEHAVE_PREFILTER_UNPARSED;
    }

    return NGX_HTTP_BEHAVE_PREFILTER_OK;
}


/* the conversation findings of the turns before the latest message */

static void
ngx_http_behave_prefilter_history(ngx_http_request_t *r, behave_chat_t *chat,
    ngx_http_behave_prefilter_ctx_t *ctx)
{
    behave_turn_memo_t      *memo;
    behave_chat_findings_t  *f;

    f = ngx_palloc(r->pool, sizeof(behave_chat_findings_t));
    if (f == NULL) {
        return;
    }

    memo = ngx_http_behave_prefilter_memo(r->connection->log);

    if (behave_chat_assess(chat, &ctx->ann, memo, f) != 0) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave prefilter: no memory for the chat's history");
        return;
    }

    ctx->chat = f;

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave prefilter: history of %uz turns, %uz annotated "
                   "now, the rest remembered", f->turns, f->annotated);
    ngx_log_debug5(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave prefilter: conv_action %s false_resolution %d "
                   "repetition %d escalating %d peak_urgency %s",
                   behave_action_name(f->conv.action),
                   f->conv.false_resolution, f->conv.repetition,
                   f->conv.escalating,
                   behave_urgency_name(f->peak_urgency));
}


static behave_turn_memo_t *
ngx_http_behave_prefilter_memo(ngx_log_t *log)
{
    if (ngx_http_behave_prefilter_memo_cycle == (ngx_cycle_t *) ngx_cycle) {
        return ngx_http_behave_prefilter_memo_p;
    }

    behave_turn_memo_free(ngx_http_behave_prefilter_memo_p);

    ngx_http_behave_prefilter_memo_cycle = (ngx_cycle_t *) ngx_cycle;
    ngx_http_behave_prefilter_memo_p =
        behave_turn_memo_create(BEHAVE_TURN_MEMO_SLOTS);

    if (ngx_http_behave_prefilter_memo_p == NULL) {
        ngx_log_error(NGX_LOG_WARN, log, 0,
                      "behave prefilter: no turn memo (out of memory or no "
                      "random key): every turn of a chat is annotated at "
                      "every request");
    }

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, log, 0,
                   "behave prefilter: turn memo of %ui slots made",
                   (ngx_uint_t) BEHAVE_TURN_MEMO_SLOTS);

    return ngx_http_behave_prefilter_memo_p;
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


/* behave_prefilter_history N | off; */

static char *
ngx_http_behave_prefilter_history_conf(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_behave_prefilter_loc_conf_t *plcf = conf;

    ngx_int_t   n;
    ngx_str_t  *value;

    if (plcf->history != NGX_CONF_UNSET_UINT) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (value[1].len == 3 && ngx_strncmp(value[1].data, "off", 3) == 0) {
        plcf->history = 0;
        return NGX_CONF_OK;
    }

    n = ngx_atoi(value[1].data, value[1].len);

    if (n < 1 || n > BEHAVE_CHAT_TURNS_MAX) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "invalid value \"%V\": \"off\" or the number of "
                           "turns read, 1 to %d", &value[1],
                           BEHAVE_CHAT_TURNS_MAX);
        return NGX_CONF_ERROR;
    }

    plcf->history = (ngx_uint_t) n;

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
    plcf->history = NGX_CONF_UNSET_UINT;
    plcf->meter_key = NGX_CONF_UNSET_PTR;
    plcf->routes = NGX_CONF_UNSET_PTR;
    plcf->shadow = NGX_CONF_UNSET;

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
    ngx_conf_merge_uint_value(conf->history, prev->history,
                              NGX_HTTP_BEHAVE_PREFILTER_HISTORY);
    ngx_conf_merge_ptr_value(conf->meter_key, prev->meter_key, NULL);
    ngx_conf_merge_ptr_value(conf->routes, prev->routes, NULL);
    ngx_conf_merge_value(conf->shadow, prev->shadow, 0);

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


/* the worker's turn memo goes with it */

static void
ngx_http_behave_prefilter_exit_process(ngx_cycle_t *cycle)
{
    behave_turn_memo_free(ngx_http_behave_prefilter_memo_p);

    ngx_http_behave_prefilter_memo_p = NULL;
    ngx_http_behave_prefilter_memo_cycle = NULL;
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
