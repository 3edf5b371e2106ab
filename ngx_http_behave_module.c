/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * ngx_http_behave_module: behavioural annotation of conversations inside
 * nginx workers.  This file holds the module definition, the directives
 * and the configuration; the handlers live in src/, the analysis in
 * src/core/ (plain C, no nginx header).
 */


#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_auth.h"
#include "ngx_http_behave_confcheck.h"
#include "ngx_http_behave_error_page.h"
#include "ngx_http_behave_filter.h"
#include "ngx_http_behave_util.h"
#include "ngx_http_behave_meter.h"
#include "ngx_http_behave_metrics.h"
#include "ngx_http_behave_offload.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_script.h"
#include "ngx_http_behave_stats.h"
#include "ngx_http_behave_trace.h"
#include "ngx_http_behave_analyze.h"
#include "ngx_http_behave_agents.h"
#include "ngx_http_behave_gateway.h"
#include "ngx_http_behave_gw_behavior.h"
#include "ngx_http_behave_limits.h"
#include "ngx_http_behave_traces.h"
#include "ngx_http_behave_webhooks.h"
#include "ngx_http_behave_reviews.h"
#include "ngx_http_behave_health.h"

#include "gateway/behave_gateway.h"
#include "base/behave_json_arena.h"
#include "conversation/behave_conv_scan.h"
#include "text/behave_model.h"
#include "text/behave_similarity.h"
#include "text/behave_lexicon_ext.h"

#include "base/behave_secretbox.h"


#define NGX_HTTP_BEHAVE_SURFACE_ANALYZE   0x01
#define NGX_HTTP_BEHAVE_SURFACE_WEBHOOKS  0x02
#define NGX_HTTP_BEHAVE_SURFACE_GATEWAY   0x04
#define NGX_HTTP_BEHAVE_SURFACE_METRICS   0x08
#define NGX_HTTP_BEHAVE_SURFACE_REVIEWS   0x10
#define NGX_HTTP_BEHAVE_SURFACE_HEALTH    0x20

/* the handlers that need no key */
#define NGX_HTTP_BEHAVE_SURFACE_KEYLESS                                     \
    (NGX_HTTP_BEHAVE_SURFACE_METRICS|NGX_HTTP_BEHAVE_SURFACE_HEALTH)


static ngx_int_t ngx_http_behave_preconfiguration(ngx_conf_t *cf);
static ngx_int_t ngx_http_behave_postconfiguration(ngx_conf_t *cf);
static void *ngx_http_behave_create_main_conf(ngx_conf_t *cf);
static char *ngx_http_behave_init_main_conf(ngx_conf_t *cf, void *conf);
static void *ngx_http_behave_create_loc_conf(ngx_conf_t *cf);
static char *ngx_http_behave_merge_loc_conf(ngx_conf_t *cf, void *parent,
    void *child);

static char *ngx_http_behave_surface_set(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_behave_health(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_behave_models(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_behave_gateway_limits(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_behave_trace_sample(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_behave_trace_retention(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static void ngx_http_behave_models_free(void *data);
static char *ngx_http_behave_lexicon(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static void ngx_http_behave_lexicon_free(void *data);
static char *ngx_http_behave_conf_parsed(ngx_conf_t *cf, ngx_uint_t models,
    void **out);
static char *ngx_http_behave_keys(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_behave_secret_key(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_behave_redis_auth_set(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_behave_redis_set(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static ngx_int_t ngx_http_behave_init_module(ngx_cycle_t *cycle);
static ngx_int_t ngx_http_behave_init_process(ngx_cycle_t *cycle);
static void ngx_http_behave_exit_process(ngx_cycle_t *cycle);
static char *ngx_http_behave_merge_checks(ngx_conf_t *cf,
    ngx_http_behave_loc_conf_t *prev, ngx_http_behave_loc_conf_t *conf);


/* a surface directive's post: the surface it sets and its handler */
typedef struct {
    ngx_uint_t                  surface;
    ngx_http_handler_pt         handler;
} ngx_http_behave_surface_t;

static ngx_http_behave_surface_t  ngx_http_behave_analyze_surface = {
    NGX_HTTP_BEHAVE_SURFACE_ANALYZE, ngx_http_behave_analyze_handler
};
static ngx_http_behave_surface_t  ngx_http_behave_webhooks_surface = {
    NGX_HTTP_BEHAVE_SURFACE_WEBHOOKS, ngx_http_behave_webhooks_handler
};
static ngx_http_behave_surface_t  ngx_http_behave_reviews_surface = {
    NGX_HTTP_BEHAVE_SURFACE_REVIEWS, ngx_http_behave_reviews_handler
};
static ngx_http_behave_surface_t  ngx_http_behave_gateway_surface = {
    NGX_HTTP_BEHAVE_SURFACE_GATEWAY, ngx_http_behave_gateway_handler
};
static ngx_http_behave_surface_t  ngx_http_behave_metrics_surface = {
    NGX_HTTP_BEHAVE_SURFACE_METRICS, ngx_http_behave_metrics_handler
};
static ngx_http_behave_surface_t  ngx_http_behave_health_surface = {
    NGX_HTTP_BEHAVE_SURFACE_HEALTH, ngx_http_behave_health_handler
};

static ngx_conf_post_t  ngx_http_behave_message_size_post;
static ngx_conf_post_t  ngx_http_behave_body_size_post;
static ngx_conf_post_t  ngx_http_behave_public_url_post;
static ngx_conf_post_t  ngx_http_behave_redis_timeout_post;
static ngx_conf_post_t  ngx_http_behave_shm_size_post;
static char *ngx_http_behave_node_name_check(ngx_conf_t *cf, void *post,
    void *data);
static ngx_conf_post_t  ngx_http_behave_node_name_post;
static ngx_conf_num_bounds_t  ngx_http_behave_max_turns_bounds = {
    ngx_conf_check_num_bounds, 1, 1000
};


static ngx_command_t  ngx_http_behave_commands[] = {

    { ngx_string("behave_analyze"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_behave_surface_set,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      &ngx_http_behave_analyze_surface },

    { ngx_string("behave_webhooks"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_behave_surface_set,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      &ngx_http_behave_webhooks_surface },

    { ngx_string("behave_reviews"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_behave_surface_set,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      &ngx_http_behave_reviews_surface },

    { ngx_string("behave_public_url"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_str_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_loc_conf_t, public_url),
      &ngx_http_behave_public_url_post },

    { ngx_string("behave_secret_key"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_http_behave_secret_key,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_gateway"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_behave_surface_set,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      &ngx_http_behave_gateway_surface },

    { ngx_string("behave_error_page"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_behave_error_page,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_metrics"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_behave_surface_set,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      &ngx_http_behave_metrics_surface },

    { ngx_string("behave_health"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS|NGX_CONF_TAKE1,
      ngx_http_behave_health,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      &ngx_http_behave_health_surface },

    { ngx_string("behave_models"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_http_behave_models,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_lexicon"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_http_behave_lexicon,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_gateway_limits"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_1MORE,
      ngx_http_behave_gateway_limits,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_trace_sample"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_http_behave_trace_sample,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_trace_retention"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE2,
      ngx_http_behave_trace_retention,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_keys"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_behave_keys,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_max_message_size"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_size_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_loc_conf_t, max_message_size),
      &ngx_http_behave_message_size_post },

    { ngx_string("behave_max_body_size"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_size_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_loc_conf_t, max_body_size),
      &ngx_http_behave_body_size_post },

    { ngx_string("behave_redis"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_1MORE,
      ngx_http_behave_redis_set,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_redis_auth"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE12,
      ngx_http_behave_redis_auth_set,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_sentinel_auth"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE12,
      ngx_http_behave_redis_auth_set,
      NGX_HTTP_MAIN_CONF_OFFSET,
      1,
      NULL },

    { ngx_string("behave_node_name"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_str_slot,
      NGX_HTTP_MAIN_CONF_OFFSET,
      offsetof(ngx_http_behave_main_conf_t, node_name),
      &ngx_http_behave_node_name_post },

    { ngx_string("behave_redis_timeout"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_msec_slot,
      NGX_HTTP_MAIN_CONF_OFFSET,
      offsetof(ngx_http_behave_main_conf_t, redis_timeout),
      &ngx_http_behave_redis_timeout_post },

    { ngx_string("behave_conversation_ttl"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_sec_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_loc_conf_t, conversation_ttl),
      NULL },

    { ngx_string("behave_conversation_max_turns"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_num_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_loc_conf_t, conversation_max_turns),
      &ngx_http_behave_max_turns_bounds },

    { ngx_string("behave_redact"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_behave_loc_conf_t, redact),
      NULL },

    { ngx_string("behave_thread_pool"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE12,
      ngx_http_behave_thread_pool,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("behave_shm_size"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_size_slot,
      NGX_HTTP_MAIN_CONF_OFFSET,
      offsetof(ngx_http_behave_main_conf_t, shm_size),
      &ngx_http_behave_shm_size_post },

      ngx_null_command
};


static ngx_http_module_t  ngx_http_behave_module_ctx = {
    ngx_http_behave_preconfiguration,      /* preconfiguration */
    ngx_http_behave_postconfiguration,     /* postconfiguration */

    ngx_http_behave_create_main_conf,      /* create main configuration */
    ngx_http_behave_init_main_conf,        /* init main configuration */

    NULL,                                  /* create server configuration */
    NULL,                                  /* merge server configuration */

    ngx_http_behave_create_loc_conf,       /* create location configuration */
    ngx_http_behave_merge_loc_conf         /* merge location configuration */
};


ngx_module_t  ngx_http_behave_module = {
    NGX_MODULE_V1,
    &ngx_http_behave_module_ctx,           /* module context */
    ngx_http_behave_commands,              /* module directives */
    NGX_HTTP_MODULE,                       /* module type */
    NULL,                                  /* init master */
    ngx_http_behave_init_module,           /* init module */
    ngx_http_behave_init_process,          /* init process */
    NULL,                                  /* init thread */
    NULL,                                  /* exit thread */
    ngx_http_behave_exit_process,          /* exit process */
    NULL,                                  /* exit master */
    NGX_MODULE_V1_PADDING
};


/*
 * Checks of single directives run as the directive is read, so their
 * errors carry its line; the sizes also note where they were written for
 * the check that compares them (ngx_http_behave_merge_checks).
 */

static char *
ngx_http_behave_message_size_check(ngx_conf_t *cf, void *post, void *data)
{
    size_t                      *sp = data;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = (ngx_http_behave_loc_conf_t *) ((u_char *) data
               - offsetof(ngx_http_behave_loc_conf_t, max_message_size));
    ngx_http_behave_conf_pos(cf, &blcf->message_size_pos);

    return (*sp == 0) ? "must be greater than 0" : NGX_CONF_OK;
}


static char *
ngx_http_behave_body_size_check(ngx_conf_t *cf, void *post, void *data)
{
    size_t                      *sp = data;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = (ngx_http_behave_loc_conf_t *) ((u_char *) data
               - offsetof(ngx_http_behave_loc_conf_t, max_body_size));
    ngx_http_behave_conf_pos(cf, &blcf->body_size_pos);

    return (*sp == 0) ? "must be greater than 0" : NGX_CONF_OK;
}


static char *
ngx_http_behave_public_url_check(ngx_conf_t *cf, void *post, void *data)
{
    ngx_str_t  *url = data;

    if (ngx_strncmp(url->data, "http://", 7) != 0
        && ngx_strncmp(url->data, "https://", 8) != 0)
    {
        return "must start with http:// or https://";
    }

    return NGX_CONF_OK;
}


static char *
ngx_http_behave_redis_timeout_check(ngx_conf_t *cf, void *post, void *data)
{
    ngx_msec_t  *ms = data;

    return (*ms == 0) ? "must be at least 1ms" : NGX_CONF_OK;
}


static char *
ngx_http_behave_shm_size_check(ngx_conf_t *cf, void *post, void *data)
{
    size_t  *sp = data;

    if (*sp < 8 * ngx_pagesize) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"behave_shm_size\" must be at least %uz",
                           8 * ngx_pagesize);
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


static ngx_conf_post_t  ngx_http_behave_message_size_post = {
    ngx_http_behave_message_size_check
};

static ngx_conf_post_t  ngx_http_behave_body_size_post = {
    ngx_http_behave_body_size_check
};

static ngx_conf_post_t  ngx_http_behave_public_url_post = {
    ngx_http_behave_public_url_check
};

static ngx_conf_post_t  ngx_http_behave_redis_timeout_post = {
    ngx_http_behave_redis_timeout_check
};

static ngx_conf_post_t  ngx_http_behave_shm_size_post = {
    ngx_http_behave_shm_size_check
};


static ngx_int_t
ngx_http_behave_preconfiguration(ngx_conf_t *cf)
{
    /* before this module's first cJSON allocation (its directives) */
    behave_json_hooks_install();

    return ngx_http_behave_return_guard(cf);
}


/* a node name is part of agent ids ("<node>/<pid>") and metric labels */

static char *
ngx_http_behave_node_name_check(ngx_conf_t *cf, void *post, void *data)
{
    ngx_str_t  *name = data;

    ngx_uint_t  i;

    if (name->len == 0 || name->len > 64) {
        return "must be 1 to 64 of [A-Za-z0-9_.:-]";
    }

    for (i = 0; i < name->len; i++) {
        if (!isalnum(name->data[i])
            && ngx_strlchr((u_char *) "_.:-", (u_char *) "_.:-" + 4,
                           name->data[i]) == NULL)
        {
            return "must be 1 to 64 of [A-Za-z0-9_.:-]";
        }
    }

    return NGX_CONF_OK;
}


static ngx_conf_post_t  ngx_http_behave_node_name_post = {
    ngx_http_behave_node_name_check
};


static ngx_int_t
ngx_http_behave_postconfiguration(ngx_conf_t *cf)
{
    ngx_http_behave_return_guard_done();

    if (ngx_http_behave_filter_init(cf) != NGX_OK
        || ngx_http_behave_stats_init(cf) != NGX_OK
        || ngx_http_behave_trace_init(cf) != NGX_OK)
    {
        return NGX_ERROR;
    }

    return NGX_OK;
}


static void *
ngx_http_behave_create_main_conf(ngx_conf_t *cf)
{
    ngx_http_behave_main_conf_t  *bmcf;

    bmcf = ngx_pcalloc(cf->pool, sizeof(ngx_http_behave_main_conf_t));
    if (bmcf == NULL) {
        return NULL;
    }

    /*
     * set by ngx_pcalloc():
     *
     *     bmcf->redis = { 0, NULL };
     */

    bmcf->shm_size = NGX_CONF_UNSET_SIZE;
    bmcf->redis_timeout = NGX_CONF_UNSET_MSEC;
    bmcf->trace_sample = -1;
    bmcf->trace_max_count = NGX_CONF_UNSET_UINT;
    bmcf->trace_max_age = NGX_CONF_UNSET;

    return bmcf;
}


static char *
ngx_http_behave_init_main_conf(ngx_conf_t *cf, void *conf)
{
    ngx_http_behave_main_conf_t *bmcf = conf;

    ngx_str_t  name = ngx_string(NGX_HTTP_BEHAVE_SHM_NAME);

    ngx_conf_init_size_value(bmcf->shm_size, NGX_HTTP_BEHAVE_SHM_DEFAULT);
    ngx_conf_init_msec_value(bmcf->redis_timeout, 50);
    ngx_conf_init_uint_value(bmcf->trace_max_count, 10000);
    ngx_conf_init_value(bmcf->trace_max_age, 24 * 3600);

    if (bmcf->trace_sample < 0) {
        bmcf->trace_sample = 0.01;
    }

    bmcf->shm_zone = ngx_shared_memory_add(cf, &name, bmcf->shm_size,
                                           &ngx_http_behave_module);
    if (bmcf->shm_zone == NULL) {
        return NGX_CONF_ERROR;
    }

    bmcf->shm_zone->init = ngx_http_behave_meter_init_zone;
    bmcf->shm_zone->data = bmcf;

    return NGX_CONF_OK;
}


static void *
ngx_http_behave_create_loc_conf(ngx_conf_t *cf)
{
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_pcalloc(cf->pool, sizeof(ngx_http_behave_loc_conf_t));
    if (blcf == NULL) {
        return NULL;
    }

    /*
     * set by ngx_pcalloc():
     *
     *     blcf->keys_file = { 0, NULL };
     *     blcf->surfaces = 0;
     */

    blcf->keys = NGX_CONF_UNSET_PTR;
    blcf->max_message_size = NGX_CONF_UNSET_SIZE;
    blcf->max_body_size = NGX_CONF_UNSET_SIZE;
    blcf->conversation_ttl = NGX_CONF_UNSET;
    blcf->conversation_max_turns = NGX_CONF_UNSET_UINT;
    blcf->redact = NGX_CONF_UNSET;
    blcf->thread_pool = NGX_CONF_UNSET_PTR;
    blcf->thread_min = NGX_CONF_UNSET_SIZE;

    return blcf;
}


static char *
ngx_http_behave_merge_loc_conf(ngx_conf_t *cf, void *parent, void *child)
{
    ngx_http_behave_loc_conf_t *prev = parent;
    ngx_http_behave_loc_conf_t *conf = child;

    ngx_http_core_loc_conf_t  *clcf;

    if (conf->keys == NGX_CONF_UNSET_PTR) {
        conf->keys_file = prev->keys_file;
        conf->keys_mtime = prev->keys_mtime;
        conf->keys_loaded = prev->keys_loaded;
    }

    ngx_conf_merge_ptr_value(conf->keys, prev->keys, NULL);
    ngx_conf_merge_size_value(conf->max_message_size,
                              prev->max_message_size, 32 * 1024);
    ngx_conf_merge_size_value(conf->max_body_size,
                              prev->max_body_size, 1024 * 1024);
    ngx_conf_merge_sec_value(conf->conversation_ttl,
                             prev->conversation_ttl, 24 * 3600);
    ngx_conf_merge_uint_value(conf->conversation_max_turns,
                              prev->conversation_max_turns, 50);
    ngx_conf_merge_value(conf->redact, prev->redact, 0);
    ngx_conf_merge_ptr_value(conf->thread_pool, prev->thread_pool, NULL);
    ngx_conf_merge_size_value(conf->thread_min, prev->thread_min, 0);
    ngx_conf_merge_str_value(conf->public_url, prev->public_url, "");

    if (!conf->gw_limits_set) {
        conf->gw_limits_set = prev->gw_limits_set;
        conf->gw_rpm = prev->gw_limits_set
                       ? prev->gw_rpm : NGX_HTTP_BEHAVE_GW_RPM_DEFAULT;
        conf->gw_concurrent = prev->gw_limits_set
                              ? prev->gw_concurrent
                              : NGX_HTTP_BEHAVE_GW_CONCURRENT_DEFAULT;
        conf->gw_tokens_per_day = prev->gw_limits_set
                                  ? prev->gw_tokens_per_day
                                  : NGX_HTTP_BEHAVE_GW_TOKENS_DEFAULT;
    }

    if (ngx_http_behave_merge_checks(cf, prev, conf) != NGX_CONF_OK) {
        return NGX_CONF_ERROR;
    }

    /*
     * A body over behave_max_body_size is refused by nginx itself, before
     * it is read (the filter makes that answer JSON): client_max_body_size
     * is raised to behave_max_body_size where it is lower.
     */

    if (conf->surfaces) {
        clcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_core_module);

        if (clcf->client_max_body_size != 0
            && clcf->client_max_body_size < (off_t) conf->max_body_size)
        {
            clcf->client_max_body_size = conf->max_body_size;
        }
    }

    return NGX_CONF_OK;
}


/*
 * What no single directive can check, found once the levels are merged;
 * each error names the line of the directive it is about.
 */

static char *
ngx_http_behave_merge_checks(ngx_conf_t *cf, ngx_http_behave_loc_conf_t *prev,
    ngx_http_behave_loc_conf_t *conf)
{
    ngx_http_core_loc_conf_t     *clcf;
    ngx_http_behave_main_conf_t  *bmcf;
    ngx_http_behave_conf_pos_t   *pos;

    if (conf->message_size_pos.file.len == 0) {
        conf->message_size_pos = prev->message_size_pos;
    }

    if (conf->body_size_pos.file.len == 0) {
        conf->body_size_pos = prev->body_size_pos;
    }

    if (conf->max_message_size > conf->max_body_size) {
        pos = conf->message_size_pos.file.len ? &conf->message_size_pos
                                               : &conf->body_size_pos;

        return ngx_http_behave_conf_error_at(cf, pos,
                   "\"behave_max_message_size\" %uz is larger than "
                   "\"behave_max_body_size\" %uz",
                   conf->max_message_size, conf->max_body_size);
    }

    if (conf->surfaces == 0) {
        return NGX_CONF_OK;
    }

    /* proxy_pass & co. after the behave directive replace its handler */
    clcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_core_module);

    if (clcf->handler != conf->handler) {
        return ngx_http_behave_conf_error_at(cf, &conf->surface_pos,
                   "\"%V\" and another content handler (proxy_pass, "
                   "fastcgi_pass, ...) in one location: one of them would "
                   "never run", &conf->surface_name);
    }

    if ((conf->surfaces & ~NGX_HTTP_BEHAVE_SURFACE_KEYLESS)
        && conf->keys == NULL)
    {
        return ngx_http_behave_conf_error_at(cf, &conf->surface_pos,
                   "\"%V\" needs \"behave_keys\" at this or an outer "
                   "level", &conf->surface_name);
    }

    if (conf->surfaces & NGX_HTTP_BEHAVE_SURFACE_WEBHOOKS) {
        bmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_behave_module);

        if (bmcf->redis.len == 0 || !bmcf->secret_key_set) {
            return ngx_http_behave_conf_error_at(cf, &conf->surface_pos,
                       "\"behave_webhooks\" needs \"behave_redis\" and "
                       "\"behave_secret_key\" at the http level");
        }
    }

    if (conf->surfaces & NGX_HTTP_BEHAVE_SURFACE_REVIEWS) {
        bmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_behave_module);

        if (bmcf->redis.len == 0) {
            return ngx_http_behave_conf_error_at(cf, &conf->surface_pos,
                       "\"behave_reviews\" needs \"behave_redis\" at the "
                       "http level");
        }
    }

    return NGX_CONF_OK;
}


static char *
ngx_http_behave_health(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_loc_conf_t *blcf = conf;

    char  *rv;

    rv = ngx_http_behave_surface_set(cf, cmd, conf);
    if (rv != NGX_CONF_OK) {
        return rv;
    }

    return ngx_http_behave_health_options(cf, &blcf->health);
}


/* behave_analyze, behave_webhooks, ...: the surface is the command's post */
static char *
ngx_http_behave_surface_set(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_loc_conf_t *blcf = conf;

    ngx_http_core_loc_conf_t   *clcf;
    ngx_http_behave_surface_t  *sf;

    sf = cmd->post;

    if (blcf->surfaces) {
        return "is duplicate: one behave handler per location";
    }

    clcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_core_module);

    if (clcf->handler != NULL) {
        return "conflicts with another content handler in this location";
    }

    if (blcf->return_pos.file.len) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"%V\" in a location with \"return\" "
                           "(%V:%ui): the behave handler would never run",
                           &((ngx_str_t *) cf->args->elts)[0],
                           &blcf->return_pos.file, blcf->return_pos.line);
        return NGX_CONF_ERROR;
    }

    clcf->handler = sf->handler;
    blcf->handler = sf->handler;
    blcf->surfaces = sf->surface;
    blcf->surface_name = ((ngx_str_t *) cf->args->elts)[0];
    ngx_http_behave_conf_pos(cf, &blcf->surface_pos);

    return NGX_CONF_OK;
}


static char *
ngx_http_behave_keys(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_loc_conf_t *blcf = conf;

    ngx_str_t  *value;

    if (blcf->keys != NGX_CONF_UNSET_PTR) {
        return "is duplicate";
    }

    value = cf->args->elts;
    blcf->keys_file = value[1];
    blcf->keys_loaded = ngx_time();

    return ngx_http_behave_keys_load(cf, &blcf->keys_file, &blcf->keys,
                                     &blcf->keys_mtime);
}


static char *
ngx_http_behave_redis_set(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_main_conf_t *bmcf = conf;

    if (bmcf->redis.data != NULL) {
        return "is duplicate";
    }

    return ngx_http_behave_redis_conf(cf, bmcf);
}


static char *
ngx_http_behave_redis_auth_set(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_behave_main_conf_t *bmcf = conf;

    if (cmd->offset == 1) {
        return ngx_http_behave_redis_auth_conf(cf, &bmcf->sentinel_user,
                                               &bmcf->sentinel_password);
    }

    return ngx_http_behave_redis_auth_conf(cf, &bmcf->redis_user,
                                           &bmcf->redis_password);
}


static ngx_int_t
ngx_http_behave_init_module(ngx_cycle_t *cycle)
{
    ngx_http_behave_main_conf_t  *bmcf;

    /*
     * The external lexicon of this configuration, installed here, in the
     * master, once the configuration is known to be good: workers forked
     * from now on read it; a failed reload never installs its own.
     */
    bmcf = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_behave_module);
    behave_lex_overlay_install(bmcf ? bmcf->lexicon : NULL);

    /* before any thread of behave_thread_pool runs the core */
    behave_gw_init();

    /* the conversation tables' index, once in the master for every
     * worker, not in each worker's first request with history */
    behave_conv_scan_init();
    behave_sim_init();
    behave_model_tables_init();

    ngx_http_behave_redis_scripts_init();

    return NGX_OK;
}


static ngx_int_t
ngx_http_behave_init_process(ngx_cycle_t *cycle)
{
    ngx_http_behave_stats_init_process(cycle);
    ngx_http_behave_meter_init_process(cycle);
    ngx_http_behave_agents_init_process(cycle);

    return ngx_http_behave_redis_init_process(cycle);
}


static void
ngx_http_behave_exit_process(ngx_cycle_t *cycle)
{
    ngx_http_behave_redis_exit_process(cycle);
}


/*
 * The master key that seals webhook secrets at rest: 64 hex characters,
 * as "openssl rand -hex 32" writes them.  Read once at configuration.
 */

static char *
ngx_http_behave_secret_key(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_main_conf_t *bmcf = conf;

    char       *rv;
    ngx_str_t  *value, file, text;

    if (bmcf->secret_key_set) {
        return "is duplicate";
    }

    value = cf->args->elts;
    file = value[1];

    rv = ngx_http_behave_conf_read(cf, "behave_secret_key", &file, 256,
                                   &text);
    if (rv != NGX_CONF_OK) {
        return rv;
    }

    if (behave_master_key_parse((char *) text.data, text.len,
                                bmcf->secret_key)
        != 0)
    {
        ngx_explicit_memzero(text.data, text.len);
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "behave_secret_key: \"%V\" must hold 64 hex "
                           "characters (openssl rand -hex 32)", &file);
        return NGX_CONF_ERROR;
    }

    ngx_explicit_memzero(text.data, text.len);
    bmcf->secret_key_set = 1;

    return NGX_CONF_OK;
}


/* the model catalog of orchestrate-models, read and checked once here */

static char *
ngx_http_behave_models(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_main_conf_t *bmcf = conf;

    void  *cat;
    char  *rv;

    if (bmcf->models != NULL) {
        return "is duplicate";
    }

    rv = ngx_http_behave_conf_parsed(cf, 1, &cat);
    if (rv != NGX_CONF_OK) {
        return rv;
    }

    bmcf->models = cat;

    return NGX_CONF_OK;
}


static void
ngx_http_behave_models_free(void *data)
{
    behave_gw_catalog_free(data);
}


/* behave_gateway_limits rpm=600 concurrent=100 tokens_per_day=10m */

static char *
ngx_http_behave_gateway_limits(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_behave_loc_conf_t *blcf = conf;

    off_t        n;
    ngx_str_t   *value, v;
    ngx_uint_t   i;

    if (blcf->gw_limits_set) {
        return "is duplicate";
    }

    blcf->gw_rpm = NGX_HTTP_BEHAVE_GW_RPM_DEFAULT;
    blcf->gw_concurrent = NGX_HTTP_BEHAVE_GW_CONCURRENT_DEFAULT;
    blcf->gw_tokens_per_day = NGX_HTTP_BEHAVE_GW_TOKENS_DEFAULT;
    blcf->gw_limits_set = 1;

    value = cf->args->elts;

    for (i = 1; i < cf->args->nelts; i++) {
        v = value[i];

        if (v.len > 4 && ngx_strncmp(v.data, "rpm=", 4) == 0) {
            v.data += 4;
            v.len -= 4;
            n = ngx_atoof(v.data, v.len);
            blcf->gw_rpm = (ngx_uint_t) n;

        } else if (v.len > 11 && ngx_strncmp(v.data, "concurrent=", 11) == 0) {
            v.data += 11;
            v.len -= 11;
            n = ngx_atoof(v.data, v.len);
            blcf->gw_concurrent = (ngx_uint_t) n;

        } else if (v.len > 15
                   && ngx_strncmp(v.data, "tokens_per_day=", 15) == 0)
        {
            v.data += 15;
            v.len -= 15;

            /* 10m = ten million here: a count, not a size */
            n = ngx_atoof(v.data, v.len - 1);

            if (v.data[v.len - 1] == 'm' || v.data[v.len - 1] == 'M') {
                n = n == NGX_ERROR ? n : n * 1000000;

            } else if (v.data[v.len - 1] == 'k' || v.data[v.len - 1] == 'K') {
                n = n == NGX_ERROR ? n : n * 1000;

            } else {
                n = ngx_atoof(v.data, v.len);
            }

            blcf->gw_tokens_per_day = (uint64_t) n;

        } else {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "behave_gateway_limits: unknown \"%V\" "
                               "(rpm=N concurrent=N tokens_per_day=N[k|m])",
                               &value[i]);
            return NGX_CONF_ERROR;
        }

        if (n == NGX_ERROR) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "behave_gateway_limits: invalid number in "
                               "\"%V\" (0 turns a limit off)", &value[i]);
            return NGX_CONF_ERROR;
        }
    }

    return NGX_CONF_OK;
}


static char *
ngx_http_behave_trace_sample(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_main_conf_t *bmcf = conf;

    char       *end;
    ngx_str_t  *value;

    if (bmcf->trace_sample >= 0) {
        return "is duplicate";
    }

    value = cf->args->elts;
    bmcf->trace_sample = strtod((char *) value[1].data, &end);

    if (end != (char *) value[1].data + value[1].len
        || bmcf->trace_sample < 0 || bmcf->trace_sample > 1)
    {
        return "must be a number from 0 to 1";
    }

    return NGX_CONF_OK;
}


/* behave_trace_retention COUNT AGE: traces kept per tenant */

static char *
ngx_http_behave_trace_retention(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_behave_main_conf_t *bmcf = conf;

    ngx_int_t   n;
    ngx_str_t  *value;

    if (bmcf->trace_max_count != NGX_CONF_UNSET_UINT) {
        return "is duplicate";
    }

    value = cf->args->elts;

    n = ngx_atoi(value[1].data, value[1].len);
    if (n <= 0) {
        return "needs a count of traces greater than 0";
    }

    bmcf->trace_max_count = n;

    bmcf->trace_max_age = ngx_parse_time(&value[2], 1);
    if (bmcf->trace_max_age == (time_t) NGX_ERROR
        || bmcf->trace_max_age <= 0)
    {
        return "needs an age such as 24h";
    }

    return NGX_CONF_OK;
}


/*
 * behave_lexicon FILE: a VADER (token, mean, sd, ratings) or AFINN (token,
 * score) file, scaled and merged over the built-in lexicon.
 */

static char *
ngx_http_behave_lexicon(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_main_conf_t *bmcf = conf;

    void       *ov;
    char       *rv;
    ngx_str_t  *value;

    if (bmcf->lexicon != NULL) {
        return "is duplicate";
    }

    rv = ngx_http_behave_conf_parsed(cf, 0, &ov);
    if (rv != NGX_CONF_OK) {
        return rv;
    }

    bmcf->lexicon = ov;

    value = cf->args->elts;
    ngx_conf_log_error(NGX_LOG_NOTICE, cf, 0,
                       "behave_lexicon: %uz terms from \"%V\"",
                       behave_lex_overlay_count(bmcf->lexicon), &value[1]);

    return NGX_CONF_OK;
}


/*
 * The file a directive names (its one argument), read and parsed by the
 * core at configuration time: the model catalog of behave_models (at
 * most 4 MiB), or behave_lexicon's overlay (64 MiB); what the parse made
 * lives as long as the cycle's pool.
 */

static char *
ngx_http_behave_conf_parsed(ngx_conf_t *cf, ngx_uint_t models, void **out)
{
    int                     rc;
    char                    err[256], *rv;
    ngx_str_t              *value, text;
    ngx_pool_cleanup_pt     free_fn;
    behave_gw_catalog_t    *cat;
    behave_lex_overlay_t   *ov;

    value = cf->args->elts;

    /* the directive's name is NUL-terminated, as every argument is */
    rv = ngx_http_behave_conf_read(cf, (char *) value[0].data, &value[1],
                                   models ? 4 * 1024 * 1024
                                          : 64 * 1024 * 1024,
                                   &text);
    if (rv != NGX_CONF_OK) {
        return rv;
    }

    if (models) {
        rc = behave_gw_catalog_load((char *) text.data, text.len, &cat, err,
                                    sizeof(err));
        *out = cat;
        free_fn = ngx_http_behave_models_free;

    } else {
        rc = behave_lex_overlay_parse((char *) text.data, text.len, &ov,
                                      err, sizeof(err));
        *out = ov;
        free_fn = ngx_http_behave_lexicon_free;
    }

    if (rc != 0) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "%V: %V: %s", &value[0],
                           &value[1], err);
        return NGX_CONF_ERROR;
    }

    if (ngx_http_behave_on_cleanup(cf->pool, free_fn, *out) != NGX_OK) {
        free_fn(*out);
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


static void
ngx_http_behave_lexicon_free(void *data)
{
    behave_lex_overlay_free(data);
}
