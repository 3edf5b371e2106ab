/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Inside the Redis adapter: the connections of a worker ("nodes") and the
 * topology that routes a command to one of them.  Three layers, calls
 * going down only:
 *   ngx_http_behave_redis_cmd.c       the worker's start and end, commands,
 *                                     redirects (uses both below)
 *   ngx_http_behave_redis_topology.c  cluster slot map, sentinel (uses the
 *                                     connections)
 *   ngx_http_behave_redis.c           the connections, hiredis' nginx
 *                                     adapter (calls nothing above: a
 *                                     node coming up or going down is told
 *                                     through the hooks the topology sets)
 *
 * Three modes, one code path for commands:
 * - single:   nodes[0] is the configured Redis;
 * - cluster:  one node per master, found through CLUSTER SLOTS; a key's
 *             slot picks its node;
 * - sentinel: nodes[0] is the master the sentinels name, nodes[1] the
 *             sentinel being asked (it cycles through the configured ones),
 *             nodes[2] a second connection to it, subscribed to
 *             +switch-master (a subscribed connection takes no queries).
 */

#ifndef NGX_HTTP_BEHAVE_REDIS_NODE_H
#define NGX_HTTP_BEHAVE_REDIS_NODE_H

#include <hiredis/hiredis.h>
#include <hiredis/async.h>

#include "ngx_http_behave_common.h"


#define NGX_HTTP_BEHAVE_REDIS_BACKOFF_MIN   100
#define NGX_HTTP_BEHAVE_REDIS_NODES_MAX     64
#define NGX_HTTP_BEHAVE_REDIS_ADDR_LEN      128
#define NGX_HTTP_BEHAVE_REDIS_SLOTS         16384


typedef enum {
    NGX_HTTP_BEHAVE_REDIS_OFF = 0,
    NGX_HTTP_BEHAVE_REDIS_CONNECTING,
    NGX_HTTP_BEHAVE_REDIS_CONNECTED
} ngx_http_behave_redis_state_e;


typedef enum {
    NGX_HTTP_BEHAVE_REDIS_ROLE_DATA = 0,
    NGX_HTTP_BEHAVE_REDIS_ROLE_SENTINEL,      /* asked where the master is */
    NGX_HTTP_BEHAVE_REDIS_ROLE_SUBSCRIBER     /* told of +switch-master */
} ngx_http_behave_redis_role_e;


typedef struct {
    redisAsyncContext              *ac;
    ngx_connection_t               *conn;
    ngx_http_behave_redis_state_e   state;
    ngx_http_behave_redis_role_e    role;
    ngx_msec_t                      backoff;
    ngx_event_t                     reconnect;
    ngx_event_t                     connect_timer;
    ngx_uint_t                      bg_pending;
    ngx_uint_t                      index;

    /* "ip:port" or "unix:/path", NUL-terminated; "" not known yet */
    u_char                          addr[NGX_HTTP_BEHAVE_REDIS_ADDR_LEN];
    size_t                          addr_len;

    unsigned                        writing:1;
} ngx_http_behave_redis_node_t;


/* what the layer above the connections does when one changes */
typedef struct {
    void  (*node_up)(ngx_http_behave_redis_node_t *node);
    void  (*node_down)(ngx_http_behave_redis_node_t *node);
} ngx_http_behave_redis_hooks_t;


typedef struct {
    ngx_http_behave_main_conf_t    *bmcf;
    ngx_log_t                      *log;
    ngx_uint_t                      mode;

    ngx_http_behave_redis_node_t    nodes[NGX_HTTP_BEHAVE_REDIS_NODES_MAX];
    ngx_uint_t                      nnodes;

    /* cluster: node index + 1 per slot, 0 while unknown */
    uint8_t                         slots[NGX_HTTP_BEHAVE_REDIS_SLOTS];
    ngx_event_t                     refresh;
    ngx_msec_t                      refreshed_at;
    ngx_uint_t                      next_asked;
    unsigned                        refreshing:1;
    unsigned                        mapped:1;

    /* sentinel: which configured sentinel nodes[1] is */
    ngx_uint_t                      sentinel;
    ngx_event_t                     discover;
    unsigned                        asking_sentinel:1;

    time_t                          degraded_logged;
    ngx_uint_t                      degraded_suppressed;

    /* set by ngx_http_behave_redis_topology_start() */
    ngx_http_behave_redis_hooks_t   hooks;
} ngx_http_behave_redis_t;


/* per worker process: built in init_process, gone with the process */
extern ngx_http_behave_redis_t  ngx_http_behave_redis;


/* ngx_http_behave_redis.c */
void ngx_http_behave_redis_nodes_init(ngx_cycle_t *cycle,
    ngx_http_behave_main_conf_t *bmcf);
void ngx_http_behave_redis_nodes_close(void);
ngx_http_behave_redis_node_t *ngx_http_behave_redis_node_add(u_char *addr,
    size_t len, ngx_http_behave_redis_role_e role);
void ngx_http_behave_redis_node_set_addr(ngx_http_behave_redis_node_t *node,
    u_char *addr, size_t len);
void ngx_http_behave_redis_node_connect(ngx_http_behave_redis_node_t *node);
void ngx_http_behave_redis_node_drop(ngx_http_behave_redis_node_t *node,
    const char *why);

/* ngx_http_behave_redis_topology.c */
void ngx_http_behave_redis_topology_start(void);
void ngx_http_behave_redis_topology_stop(void);
ngx_http_behave_redis_node_t *ngx_http_behave_redis_route(const char *key,
    size_t len);
ngx_http_behave_redis_node_t *ngx_http_behave_redis_moved(ngx_uint_t slot,
    u_char *addr, size_t len);
void ngx_http_behave_redis_refresh(void);
void ngx_http_behave_redis_readonly(void);

ngx_uint_t ngx_http_behave_redis_slot(const char *key, size_t len);


#endif /* NGX_HTTP_BEHAVE_REDIS_NODE_H */
