/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface A: the types its files share (one request of an operation).
 * Types only: each .c of src/gateway declares its functions in its own .h.
 */

#ifndef NGX_HTTP_BEHAVE_GW_H
#define NGX_HTTP_BEHAVE_GW_H

/* nginx's headers first: ngx_config.h sets what the system headers see */
#include "ngx_http_behave_common.h"

#include <cjson/cJSON.h>

#include "base/behave_json_arena.h"


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
    behave_json_arena_t        *arena;          /* owns req when set */
    const behave_key_t         *key;
    int64_t                     now_ms;

    /* what the steps that may run in a thread read and write */
    ngx_str_t                   body;           /* filled by the parse */
    ngx_chain_t                *bufs;           /* the body's parts */
    ngx_http_behave_loc_conf_t *blcf;
    const void                 *models;         /* behave_gw_catalog_t */
    behave_error_t              err;
    int                         rc;             /* behave_err_e */
    char                       *out;            /* the answer, malloc()ed */
    size_t                      out_len;
    unsigned                    empty:1;        /* a GET without a body */
    unsigned                    oom:1;
    unsigned                    unread:1;       /* short read of the body */

    u_char                      limit_id[24];   /* "key:<16 hex>" */
    ngx_http_behave_limit_t     limit;
    ngx_http_behave_gw_pt       limited_handler;
};


#endif /* NGX_HTTP_BEHAVE_GW_H */
