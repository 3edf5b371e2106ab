/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Types shared by the nginx glue of ngx_http_behave_module: types only;
 * each .c declares its functions in its own .h.
 *
 * Ownership rules, stated once:
 * - Every handler that reads a body returns ngx_http_behave_read_body();
 *   its post handler ends every path with exactly one
 *   ngx_http_behave_finish() (ngx_http_behave_reply.h).
 * - A step that may refuse the request returns ngx_http_behave_step_t:
 *   either it hands back its result, or the request's answer is decided.
 * - Anything the core returns with malloc() (cJSON trees and strings) is
 *   freed before the handler returns; what goes to the client is copied
 *   into the request pool first.
 * - Keys and secrets are never written to a log or a response.
 */

#ifndef NGX_HTTP_BEHAVE_COMMON_H
#define NGX_HTTP_BEHAVE_COMMON_H

#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include <cjson/cJSON.h>

#include "text/behave_annotate.h"
#include "base/behave_error.h"
#include "base/behave_keys.h"
#include "text/behave_routing.h"


#define NGX_HTTP_BEHAVE_SHM_NAME     "behave"
#define NGX_HTTP_BEHAVE_SHM_DEFAULT  (1024 * 1024)

#define NGX_HTTP_BEHAVE_DAY          86400      /* seconds in a UTC day */

/* behave_gateway_limits when not set anywhere */
#define NGX_HTTP_BEHAVE_GW_RPM_DEFAULT         600
#define NGX_HTTP_BEHAVE_GW_CONCURRENT_DEFAULT  100
#define NGX_HTTP_BEHAVE_GW_TOKENS_DEFAULT      10000000


/* where a directive was written; file.len == 0: not written */
typedef struct {
    ngx_str_t                   file;
    ngx_uint_t                  line;
} ngx_http_behave_conf_pos_t;


typedef struct ngx_http_behave_shm_s  ngx_http_behave_shm_t;
typedef struct ngx_http_behave_stats_s  ngx_http_behave_stats_t;


typedef struct {
    ngx_shm_zone_t             *shm_zone;
    size_t                      shm_size;
    ngx_slab_pool_t            *shpool;
    ngx_http_behave_shm_t      *sh;
    ngx_http_behave_stats_t    *stats;

    ngx_str_t                   redis;          /* "" when unset */
    ngx_msec_t                  redis_timeout;
    ngx_uint_t                  redis_mode;     /* single, cluster, sentinel */
    ngx_array_t                *redis_addrs;    /* of ngx_str_t: every one */
    ngx_str_t                   redis_master;   /* sentinel: master name */
    ngx_str_t                   redis_user;     /* behave_redis_auth */
    ngx_str_t                   redis_password;
    ngx_str_t                   sentinel_user;  /* behave_sentinel_auth */
    ngx_str_t                   sentinel_password;
    ngx_str_t                   node_name;      /* behave_node_name */

    u_char                      secret_key[32]; /* behave_secret_key */
    ngx_uint_t                  secret_key_set;

    void                       *models;         /* behave_gw_catalog_t */
    void                       *lexicon;        /* behave_lex_overlay_t */
    double                      trace_sample;
    ngx_uint_t                  trace_max_count;
    time_t                      trace_max_age;
} ngx_http_behave_main_conf_t;


typedef struct {
    ngx_array_t                *keys;          /* of behave_key_t */
    ngx_str_t                   keys_file;
    time_t                      keys_mtime;    /* of keys_file, at load */
    time_t                      keys_loaded;
    ngx_uint_t                  surfaces;      /* not inherited */
    ngx_uint_t                  health;        /* behave_health options */

    /* where directives were written, for errors found while merging */
    ngx_str_t                   surface_name;  /* "behave_analyze"... */
    ngx_http_handler_pt         handler;       /* the surface's */
    ngx_http_behave_conf_pos_t  surface_pos;
    ngx_http_behave_conf_pos_t  return_pos;    /* "return", location level */
    ngx_http_behave_conf_pos_t  message_size_pos;
    ngx_http_behave_conf_pos_t  body_size_pos;

    size_t                      max_message_size;
    size_t                      max_body_size;

    time_t                      conversation_ttl;
    ngx_uint_t                  conversation_max_turns;
    ngx_flag_t                  redact;

    void                       *thread_pool;    /* ngx_thread_pool_t */
    size_t                      thread_min;     /* bytes of body */

    ngx_str_t                   public_url;     /* behave_public_url */

    ngx_uint_t                  gw_rpm;         /* behave_gateway_limits */
    ngx_uint_t                  gw_concurrent;
    uint64_t                    gw_tokens_per_day;
    ngx_uint_t                  gw_limits_set;
} ngx_http_behave_loc_conf_t;


/* what a request was authenticated as */
typedef struct {
    const behave_key_t         *key;
} ngx_http_behave_auth_t;


#define NGX_HTTP_BEHAVE_SPANS  16


typedef struct {
    const char                 *name;           /* static */
    double                      start_ms;       /* from the request start */
    double                      dur_ms;
    const char                 *error;          /* static, or NULL */
} ngx_http_behave_span_t;


/* the module's one request context, shared by its handlers and filter */
typedef struct {
    double                      started_ms;
    const behave_key_t         *key;
    void                       *surface;        /* the handler's state */
    ngx_uint_t                  stat_surface;   /* stats: which surface */

    u_char                      trace_id[33];
    u_char                      span_id[17];
    ngx_uint_t                  nspans;
    ngx_http_behave_span_t      spans[NGX_HTTP_BEHAVE_SPANS];

    /*
     * What the surface publishes for the $behave_* variables (read by
     * the access log after the answer): all in the request's pool or
     * the configuration's, NULL or empty where it has none.
     */
    const char                 *tenant;         /* else key->tenant */
    const behave_annotation_t  *ann;
    const behave_routing_t     *routing;
    ngx_str_t                   session_id;
    ngx_str_t                   conversation_id;

    unsigned                    sampled:1;
    unsigned                    error_replaced:1;
    unsigned                    delivery:1;     /* a webhook delivery */
} ngx_http_behave_ctx_t;


typedef struct {
    long long                   remaining;      /* -1: unlimited */
    ngx_uint_t                  overage;
    const char                 *meter;
} ngx_http_behave_usage_t;


/* a gateway limit decision, from Redis or from the node-local window */
typedef struct {
    ngx_uint_t                  rpm;
    ngx_uint_t                  concurrent;
    uint64_t                    tokens_per_day;
    uint64_t                    cost;           /* tokens of this request */

    ngx_uint_t                  remaining;      /* requests, this window */
    time_t                      reset;          /* seconds */
    time_t                      retry_after;    /* seconds, when refused */
    uint64_t                    tokens_used;
    const char                 *reason;         /* NULL, "rpm", ... */
    const char                 *source;         /* "shared" or "local" */
} ngx_http_behave_limit_t;


extern ngx_module_t  ngx_http_behave_module;


#endif /* NGX_HTTP_BEHAVE_COMMON_H */
