/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface A: the gateway of six operations under /api/v1/.
 */

#ifndef NGX_HTTP_BEHAVE_GATEWAY_H
#define NGX_HTTP_BEHAVE_GATEWAY_H

/* nginx's headers first: ngx_config.h sets what the system headers see */
#include "ngx_http_behave_common.h"

#include <cjson/cJSON.h>


typedef enum {
    NGX_HTTP_BEHAVE_GW_SIGNALS = 0,
    NGX_HTTP_BEHAVE_GW_ORCHESTRATE,
    NGX_HTTP_BEHAVE_GW_BEHAVIOR,
    NGX_HTTP_BEHAVE_GW_AGENTS,
    NGX_HTTP_BEHAVE_GW_ADAPTIVE,
    NGX_HTTP_BEHAVE_GW_TRACES,
    NGX_HTTP_BEHAVE_GW_OPS
} ngx_http_behave_gw_op_e;


typedef struct ngx_http_behave_gw_s  ngx_http_behave_gw_t;

typedef void (*ngx_http_behave_gw_pt)(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);


struct ngx_http_behave_gw_s {
    ngx_http_behave_gw_op_e     op;
    cJSON                      *req;            /* freed by a cleanup */
    const behave_key_t         *key;
    int64_t                     now_ms;

    u_char                      limit_id[24];   /* "key:<16 hex>" */
    ngx_http_behave_limit_t     limit;
    ngx_http_behave_gw_pt       limited_handler;
};


/* ngx_http_behave_gateway.c */
ngx_int_t ngx_http_behave_gateway_handler(ngx_http_request_t *r);
ngx_int_t ngx_http_behave_gateway_respond(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw, ngx_uint_t status, cJSON *resp);
void ngx_http_behave_gateway_finish(ngx_http_request_t *r, ngx_int_t rc);

/* ngx_http_behave_gw_behavior.c: analyze-behavior with session history */
void ngx_http_behave_behavior_init(void);
ngx_int_t ngx_http_behave_behavior_start(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);

/* ngx_http_behave_limits.c */
void ngx_http_behave_limits_init(void);
ngx_int_t ngx_http_behave_limits_check(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);
ngx_int_t ngx_http_behave_limits_headers(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);

/* ngx_http_behave_agents.c: agent-status and the fleet heartbeat */
void ngx_http_behave_agents_init(void);
ngx_int_t ngx_http_behave_agents_status(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);
void ngx_http_behave_agents_init_process(ngx_cycle_t *cycle);

/* ngx_http_behave_trace.c: observability/traces */
ngx_int_t ngx_http_behave_traces_query(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);


#endif /* NGX_HTTP_BEHAVE_GATEWAY_H */
