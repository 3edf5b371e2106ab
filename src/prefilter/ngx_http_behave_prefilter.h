/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The LLM pre-filter's shared types: its configuration, its request
 * context (the annotation of the user's latest message and the findings
 * of the chat's history), its routes.  ngx_http_behave_prefilter_module.c
 * holds the module and the phase handler, _route.c the behave_route
 * directive and its matching, _var.c the $behave_* variables.
 */

#ifndef NGX_HTTP_BEHAVE_PREFILTER_H
#define NGX_HTTP_BEHAVE_PREFILTER_H

#include "ngx_http_behave_common.h"

#include "text/behave_annotate.h"
#include "conversation/behave_chat.h"
#include "text/behave_routing.h"


#define NGX_HTTP_BEHAVE_PREFILTER_MAX_SIZE  (1024 * 1024)
#define NGX_HTTP_BEHAVE_PREFILTER_HISTORY   50     /* turns read, default */


typedef enum {
    NGX_HTTP_BEHAVE_PREFILTER_SKIPPED = 0,
    NGX_HTTP_BEHAVE_PREFILTER_OK,
    NGX_HTTP_BEHAVE_PREFILTER_UNPARSED,
    NGX_HTTP_BEHAVE_PREFILTER_TOO_LARGE
} ngx_http_behave_prefilter_status_e;


/*
 * What a variable or a route condition reads: the dimensions a route can
 * test first (the annotation's, the conversation's, then the risk score,
 * a threshold), then the variables alone
 */
typedef enum {
    NGX_HTTP_BEHAVE_PREFILTER_VALENCE = 0,
    NGX_HTTP_BEHAVE_PREFILTER_LOAD,
    NGX_HTTP_BEHAVE_PREFILTER_URGENCY,
    NGX_HTTP_BEHAVE_PREFILTER_ENGAGEMENT,
    NGX_HTTP_BEHAVE_PREFILTER_REGISTER,
    NGX_HTTP_BEHAVE_PREFILTER_POSTURE,
    NGX_HTTP_BEHAVE_PREFILTER_TONE,
    NGX_HTTP_BEHAVE_PREFILTER_ACTION,
    NGX_HTTP_BEHAVE_PREFILTER_CONV_ACTION,
    NGX_HTTP_BEHAVE_PREFILTER_FALSE_RESOLUTION,
    NGX_HTTP_BEHAVE_PREFILTER_REPETITION,
    NGX_HTTP_BEHAVE_PREFILTER_ESCALATING,
    NGX_HTTP_BEHAVE_PREFILTER_PEAK_URGENCY,
    NGX_HTTP_BEHAVE_PREFILTER_RISK,
    NGX_HTTP_BEHAVE_PREFILTER_CONFIDENCE,
    NGX_HTTP_BEHAVE_PREFILTER_ANNOTATION,
    NGX_HTTP_BEHAVE_PREFILTER_STATUS,
    NGX_HTTP_BEHAVE_PREFILTER_ROUTE,
    NGX_HTTP_BEHAVE_VAR_TENANT,
    NGX_HTTP_BEHAVE_VAR_SESSION_ID,
    NGX_HTTP_BEHAVE_VAR_CONVERSATION_ID,
    NGX_HTTP_BEHAVE_VAR_TRACE_ID
} ngx_http_behave_prefilter_var_e;

#define NGX_HTTP_BEHAVE_PREFILTER_NDIMS  (NGX_HTTP_BEHAVE_PREFILTER_RISK + 1)


/* a threshold on the risk score: risk>=0.7 */
typedef enum {
    NGX_HTTP_BEHAVE_PREFILTER_GE = 0,
    NGX_HTTP_BEHAVE_PREFILTER_GT,
    NGX_HTTP_BEHAVE_PREFILTER_LE,
    NGX_HTTP_BEHAVE_PREFILTER_LT
} ngx_http_behave_prefilter_op_e;


typedef struct {
    const char                 *name;      /* as in the /v1/analyze JSON */
    const char                 *alias;     /* as in the variable's name */
    const char *const          *values;    /* NULL-terminated; NULL: risk */
} ngx_http_behave_prefilter_dim_t;


typedef struct {
    ngx_uint_t                  dim;
    ngx_uint_t                  values;    /* a bit per index in values[] */
    ngx_uint_t                  op;        /* risk: ..._prefilter_op_e */
    ngx_uint_t                  milli;     /* risk: the threshold x 1000 */
} ngx_http_behave_prefilter_cond_t;


/* each dimension once, risk twice */
#define NGX_HTTP_BEHAVE_PREFILTER_CONDS_MAX                                  \
    (NGX_HTTP_BEHAVE_PREFILTER_NDIMS + 1)

typedef struct {
    ngx_http_behave_prefilter_cond_t
                                cond[NGX_HTTP_BEHAVE_PREFILTER_CONDS_MAX];
    ngx_uint_t                  nconds;    /* all must hold */
    ngx_str_t                   target;    /* as written: $behave_route */
    ngx_str_t                   uri;       /* "/..." or "@name" */
    ngx_str_t                   args;
    ngx_uint_t                  has_args;  /* else the request's args */
    ngx_uint_t                  stat_slot; /* this worker's, in metrics */
    ngx_str_t                   file;      /* where it was configured */
    ngx_uint_t                  line;
} ngx_http_behave_prefilter_route_t;


typedef struct {
    ngx_array_t                *routes;    /* of ..._prefilter_route_t */
    ngx_http_core_srv_conf_t   *cscf;
} ngx_http_behave_prefilter_check_t;


typedef struct {
    ngx_array_t                 checks;    /* named targets to look up */
} ngx_http_behave_prefilter_main_conf_t;


typedef struct {
    ngx_flag_t                  enable;
    u_char                     *field;     /* NUL-terminated JSON pointer */
    size_t                      max_size;
    ngx_uint_t                  history;   /* turns read; 0: off */
    behave_key_t               *meter_key; /* NULL: not metered */
    ngx_array_t                *routes;
    ngx_flag_t                  shadow;    /* routes named, not taken */
} ngx_http_behave_prefilter_loc_conf_t;


typedef struct {
    ngx_http_behave_prefilter_status_e  status;
    ngx_http_behave_prefilter_route_t  *route;   /* to redirect to, once */
    ngx_http_behave_prefilter_route_t  *matched; /* $behave_route */
    behave_annotation_t                 ann;
    behave_routing_t                    routing;
    behave_chat_findings_t             *chat;    /* NULL: no history */
    ngx_str_t                           json;    /* made when asked for */
    unsigned                            done:1;
} ngx_http_behave_prefilter_ctx_t;


extern ngx_module_t  ngx_http_behave_prefilter_module;

/* $behave_status: by ngx_http_behave_prefilter_status_e */
extern ngx_str_t     ngx_http_behave_prefilter_status_names[];


/* ngx_http_behave_prefilter_module.c */
ngx_http_behave_prefilter_ctx_t *ngx_http_behave_prefilter_get_ctx(
    ngx_http_request_t *r);

/* ngx_http_behave_prefilter_route.c */
char *ngx_http_behave_prefilter_route(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
ngx_int_t ngx_http_behave_prefilter_check_routes(ngx_conf_t *cf,
    ngx_http_behave_prefilter_check_t *check);
ngx_http_behave_prefilter_route_t *ngx_http_behave_prefilter_match(
    ngx_array_t *routes, ngx_http_behave_prefilter_ctx_t *ctx);
ngx_uint_t ngx_http_behave_prefilter_risk_milli(
    const behave_annotation_t *ann);
const char *ngx_http_behave_prefilter_dim_value(
    const behave_annotation_t *ann, const behave_routing_t *routing,
    const behave_chat_findings_t *chat, ngx_uint_t dim);

/* ngx_http_behave_prefilter_var.c */
ngx_int_t ngx_http_behave_prefilter_add_variables(ngx_conf_t *cf);


#endif /* NGX_HTTP_BEHAVE_PREFILTER_H */
