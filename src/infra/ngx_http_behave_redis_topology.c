/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Which connection a command takes.
 *
 * Cluster: the seeds are connected first; the first one up is asked
 * CLUSTER SLOTS, and every master it names gets a connection.  The map is
 * read again on MOVED (at most every 100ms) and when a master's connection
 * goes (a replica may have taken over).  A slot whose master is down
 * answers "redis unavailable" at once: only that master's slots degrade.
 *
 * Sentinel: one connection to a sentinel (the next configured one when it
 * goes), asked SENTINEL get-master-addr-by-name at start, every 500ms
 * while the master's connection is down, every 5s otherwise, at once when
 * the master answers READONLY (it was demoted), and at once when a second
 * connection to the same sentinel, subscribed to +switch-master, hears of
 * a failover.  A new address replaces the master's connection without a
 * reload.
 */


#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_node.h"
#include "base/behave_slot.h"


#define NGX_HTTP_BEHAVE_REDIS_REFRESH_MIN   100
#define NGX_HTTP_BEHAVE_REDIS_REFRESH_DOWN  1000
#define NGX_HTTP_BEHAVE_REDIS_ASK_DOWN      500
#define NGX_HTTP_BEHAVE_REDIS_ASK_UP        5000


static void ngx_http_behave_redis_node_up(ngx_http_behave_redis_node_t *node);
static void ngx_http_behave_redis_node_down(
    ngx_http_behave_redis_node_t *node);
static void ngx_http_behave_redis_refresh_handler(ngx_event_t *ev);
static void ngx_http_behave_redis_on_slots(redisAsyncContext *ac, void *r,
    void *privdata);
static ngx_int_t ngx_http_behave_redis_slots_range(redisReply *e,
    ngx_http_behave_redis_node_t *asked, uint8_t *map);
static ngx_http_behave_redis_node_t *ngx_http_behave_redis_addr_node(
    const char *ip, size_t len, long long port,
    ngx_http_behave_redis_node_t *asked);
static void ngx_http_behave_redis_discover_handler(ngx_event_t *ev);
static void ngx_http_behave_redis_ask_master(void);
static void ngx_http_behave_redis_on_master(redisAsyncContext *ac, void *r,
    void *privdata);
static void ngx_http_behave_redis_on_switch(redisAsyncContext *ac, void *r,
    void *privdata);


void
ngx_http_behave_redis_topology_start(void)
{
    ngx_str_t                     *a;
    ngx_uint_t                     i;
    ngx_http_behave_redis_t       *rd;
    ngx_http_behave_redis_node_t  *node;

    rd = &ngx_http_behave_redis;
    a = rd->bmcf->redis_addrs->elts;

    /* before the first connection: the connections call back through it */
    rd->hooks.node_up = ngx_http_behave_redis_node_up;
    rd->hooks.node_down = ngx_http_behave_redis_node_down;

    rd->refresh.handler = ngx_http_behave_redis_refresh_handler;
    rd->refresh.log = rd->log;
    rd->refresh.cancelable = 1;

    rd->discover.handler = ngx_http_behave_redis_discover_handler;
    rd->discover.log = rd->log;
    rd->discover.cancelable = 1;

    if (rd->mode == NGX_HTTP_BEHAVE_REDIS_SENTINEL) {
        /* nodes[0]: the master, address unknown until a sentinel says */
        (void) ngx_http_behave_redis_node_add((u_char *) "", 0,
                                              NGX_HTTP_BEHAVE_REDIS_ROLE_DATA);
        node = ngx_http_behave_redis_node_add(a[0].data, a[0].len,
                                          NGX_HTTP_BEHAVE_REDIS_ROLE_SENTINEL);
        if (node != NULL) {
            ngx_http_behave_redis_node_connect(node);
        }

        node = ngx_http_behave_redis_node_add(a[0].data, a[0].len,
                                        NGX_HTTP_BEHAVE_REDIS_ROLE_SUBSCRIBER);
        if (node != NULL) {
            ngx_http_behave_redis_node_connect(node);
        }

        ngx_add_timer(&rd->discover, NGX_HTTP_BEHAVE_REDIS_ASK_DOWN);
        return;
    }

    for (i = 0; i < rd->bmcf->redis_addrs->nelts; i++) {
        node = ngx_http_behave_redis_node_add(a[i].data, a[i].len,
                                              NGX_HTTP_BEHAVE_REDIS_ROLE_DATA);
        if (node != NULL) {
            ngx_http_behave_redis_node_connect(node);
        }
    }
}


void
ngx_http_behave_redis_topology_stop(void)
{
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    if (rd->refresh.timer_set) {
        ngx_del_timer(&rd->refresh);
    }

    if (rd->discover.timer_set) {
        ngx_del_timer(&rd->discover);
    }
}


/*
 * The node of a key.  Single and sentinel: the one data node.  Cluster:
 * the master of the key's slot; while the map is not known, any master
 * up (a MOVED then teaches the map).
 */

ngx_http_behave_redis_node_t *
ngx_http_behave_redis_route(const char *key, size_t len)
{
    ngx_uint_t                     i, idx;
    ngx_http_behave_redis_t       *rd;
    ngx_http_behave_redis_node_t  *node;

    rd = &ngx_http_behave_redis;

    if (rd->mode != NGX_HTTP_BEHAVE_REDIS_CLUSTER) {
        return &rd->nodes[0];
    }

    idx = key ? rd->slots[ngx_http_behave_redis_slot(key, len)] : 0;

    if (idx != 0) {
        return &rd->nodes[idx - 1];
    }

    for (i = 0; i < rd->nnodes; i++) {
        node = &rd->nodes[i];

        if (node->state == NGX_HTTP_BEHAVE_REDIS_CONNECTED) {
            return node;
        }
    }

    return NULL;
}


ngx_uint_t
ngx_http_behave_redis_slot(const char *key, size_t len)
{
    return behave_key_slot(key, len);
}


ngx_http_behave_redis_node_t *
ngx_http_behave_redis_moved(ngx_uint_t slot, u_char *addr, size_t len)
{
    u_char                        *p;
    ngx_http_behave_redis_t       *rd;
    ngx_http_behave_redis_node_t  *node;

    rd = &ngx_http_behave_redis;

    p = ngx_strlchr(addr, addr + len, ':');

    /* a node announced by host name would make the worker wait on DNS */
    if (p == NULL || ngx_inet_addr(addr, p - addr) == INADDR_NONE) {
        return NULL;
    }

    node = ngx_http_behave_redis_node_add(addr, len,
                                          NGX_HTTP_BEHAVE_REDIS_ROLE_DATA);
    if (node == NULL) {
        return NULL;
    }

    if (node->ac == NULL) {
        ngx_http_behave_redis_node_connect(node);
    }

    rd->slots[slot] = (uint8_t) (node->index + 1);

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, rd->log, 0,
                   "behave redis: slot %ui now on \"%s\"", slot, node->addr);

    ngx_http_behave_redis_refresh();

    return node;
}


static void
ngx_http_behave_redis_node_up(ngx_http_behave_redis_node_t *node)
{
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    switch (rd->mode) {

    case NGX_HTTP_BEHAVE_REDIS_CLUSTER:
        ngx_http_behave_redis_refresh();
        break;

    case NGX_HTTP_BEHAVE_REDIS_SENTINEL:
        if (node->role == NGX_HTTP_BEHAVE_REDIS_ROLE_SENTINEL) {
            ngx_http_behave_redis_ask_master();

        } else if (node->role == NGX_HTTP_BEHAVE_REDIS_ROLE_SUBSCRIBER) {
            (void) redisAsyncCommand(node->ac,
                                     ngx_http_behave_redis_on_switch, NULL,
                                     "SUBSCRIBE +switch-master");
        }

        break;
    }
}


static void
ngx_http_behave_redis_node_down(ngx_http_behave_redis_node_t *node)
{
    ngx_str_t                *a;
    ngx_uint_t                n;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    if (rd->bmcf == NULL) {
        return;
    }

    switch (rd->mode) {

    case NGX_HTTP_BEHAVE_REDIS_CLUSTER:
        ngx_http_behave_redis_refresh();

        if (!rd->refresh.timer_set) {
            ngx_add_timer(&rd->refresh, NGX_HTTP_BEHAVE_REDIS_REFRESH_DOWN);
        }

        break;

    case NGX_HTTP_BEHAVE_REDIS_SENTINEL:
        if (node->role == NGX_HTTP_BEHAVE_REDIS_ROLE_SENTINEL) {
            /* the next sentinel, at the reconnect already scheduled */
            a = rd->bmcf->redis_addrs->elts;
            n = rd->bmcf->redis_addrs->nelts;
            rd->sentinel = (rd->sentinel + 1) % n;
            rd->asking_sentinel = 0;
            ngx_http_behave_redis_node_set_addr(node, a[rd->sentinel].data,
                                                a[rd->sentinel].len);
            break;
        }

        if (node->role == NGX_HTTP_BEHAVE_REDIS_ROLE_SUBSCRIBER) {
            /* back at its reconnect, to the sentinel asked by then */
            a = rd->bmcf->redis_addrs->elts;
            ngx_http_behave_redis_node_set_addr(node, a[rd->sentinel].data,
                                                a[rd->sentinel].len);
            break;
        }

        if (rd->discover.timer_set) {
            ngx_del_timer(&rd->discover);
        }

        ngx_add_timer(&rd->discover, NGX_HTTP_BEHAVE_REDIS_ASK_DOWN);
        break;
    }
}


/* cluster: the slot map */

void
ngx_http_behave_redis_refresh(void)
{
    ngx_uint_t                     i;
    ngx_msec_t                     since;
    ngx_http_behave_redis_t       *rd;
    ngx_http_behave_redis_node_t  *node;

    rd = &ngx_http_behave_redis;

    if (rd->refreshing || rd->bmcf == NULL || ngx_exiting || ngx_terminate) {
        return;
    }

    since = ngx_current_msec - rd->refreshed_at;

    if (rd->mapped && since < NGX_HTTP_BEHAVE_REDIS_REFRESH_MIN) {
        if (!rd->refresh.timer_set) {
            ngx_add_timer(&rd->refresh,
                          NGX_HTTP_BEHAVE_REDIS_REFRESH_MIN - since);
        }

        return;
    }

    for (i = 0; i < rd->nnodes; i++) {
        node = &rd->nodes[(rd->next_asked + i) % rd->nnodes];

        if (node->state != NGX_HTTP_BEHAVE_REDIS_CONNECTED) {
            continue;
        }

        rd->next_asked = node->index + 1;

        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, rd->log, 0,
                       "behave redis: CLUSTER SLOTS asked of \"%s\"",
                       node->addr);

        if (redisAsyncCommand(node->ac, ngx_http_behave_redis_on_slots, node,
                              "CLUSTER SLOTS")
            == REDIS_OK)
        {
            rd->refreshing = 1;
        }

        return;
    }
}


/*
 * While a master that owns slots is down, the map is read again every
 * second: the cluster may promote its replica, and no MOVED would ever
 * say so (its slots' commands are refused here, never sent).
 */

static void
ngx_http_behave_redis_refresh_handler(ngx_event_t *ev)
{
    ngx_uint_t                s;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    ngx_http_behave_redis_refresh();

    if (rd->bmcf == NULL || ngx_exiting || ngx_terminate
        || rd->refresh.timer_set)
    {
        return;
    }

    for (s = 0; s < NGX_HTTP_BEHAVE_REDIS_SLOTS; s++) {
        if (rd->slots[s] != 0
            && rd->nodes[rd->slots[s] - 1].state
               != NGX_HTTP_BEHAVE_REDIS_CONNECTED)
        {
            ngx_add_timer(&rd->refresh, NGX_HTTP_BEHAVE_REDIS_REFRESH_DOWN);
            return;
        }
    }
}


/*
 * CLUSTER SLOTS: [[start, end, [ip, port, id, ...], replicas...], ...].
 * The new map replaces the old one whole: a slot no longer listed is
 * unknown (its commands go to any master, which redirects them).
 */

static void
ngx_http_behave_redis_on_slots(redisAsyncContext *ac, void *r,
    void *privdata)
{
    size_t                    i;
    redisReply               *reply = r;
    ngx_http_behave_redis_t  *rd;

    static uint8_t            map[NGX_HTTP_BEHAVE_REDIS_SLOTS];

    rd = &ngx_http_behave_redis;
    rd->refreshing = 0;
    rd->refreshed_at = ngx_current_msec;

    if (reply == NULL || rd->bmcf == NULL) {
        return;
    }

    if (reply->type != REDIS_REPLY_ARRAY) {
        ngx_log_error(NGX_LOG_ERR, rd->log, 0,
                      "behave: redis \"%s\": CLUSTER SLOTS: %*s "
                      "(is it a cluster?)",
                      ((ngx_http_behave_redis_node_t *) privdata)->addr,
                      (size_t) (reply->type == REDIS_REPLY_ERROR
                                ? ngx_min(reply->len, 80) : 0),
                      reply->str);
        return;
    }

    ngx_memzero(map, sizeof(map));

    for (i = 0; i < reply->elements; i++) {
        if (ngx_http_behave_redis_slots_range(reply->element[i], privdata,
                                              map)
            != NGX_OK)
        {
            ngx_log_error(NGX_LOG_ERR, rd->log, 0,
                          "behave: redis: CLUSTER SLOTS: an entry is "
                          "malformed or names a host, not an address");
        }
    }

    if (!rd->mapped) {
        ngx_log_error(NGX_LOG_INFO, rd->log, 0,
                      "behave: redis cluster: %uz slot ranges over %ui "
                      "nodes", reply->elements, rd->nnodes);
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, rd->log, 0,
                   "behave redis: slot map of %uz ranges, %ui nodes known",
                   reply->elements, rd->nnodes);

    ngx_memcpy(rd->slots, map, sizeof(map));
    rd->mapped = 1;
}


static ngx_int_t
ngx_http_behave_redis_slots_range(redisReply *e,
    ngx_http_behave_redis_node_t *asked, uint8_t *map)
{
    long long                      s, start, end;
    redisReply                    *m;
    ngx_http_behave_redis_node_t  *node;

    if (e->type != REDIS_REPLY_ARRAY || e->elements < 3
        || e->element[0]->type != REDIS_REPLY_INTEGER
        || e->element[1]->type != REDIS_REPLY_INTEGER
        || e->element[2]->type != REDIS_REPLY_ARRAY
        || e->element[2]->elements < 2)
    {
        return NGX_ERROR;
    }

    start = e->element[0]->integer;
    end = e->element[1]->integer;
    m = e->element[2];

    if (start < 0 || end >= NGX_HTTP_BEHAVE_REDIS_SLOTS || start > end
        || m->element[0]->type != REDIS_REPLY_STRING
        || m->element[1]->type != REDIS_REPLY_INTEGER)
    {
        return NGX_ERROR;
    }

    node = ngx_http_behave_redis_addr_node(m->element[0]->str,
                                           m->element[0]->len,
                                           m->element[1]->integer, asked);
    if (node == NULL) {
        return NGX_ERROR;
    }

    for (s = start; s <= end; s++) {
        map[s] = (uint8_t) (node->index + 1);
    }

    return NGX_OK;
}


/* "" (or "?") as the ip: the node asked, whose own address it does not know */

static ngx_http_behave_redis_node_t *
ngx_http_behave_redis_addr_node(const char *ip, size_t len, long long port,
    ngx_http_behave_redis_node_t *asked)
{
    u_char                        *p, *colon, addr[NGX_SOCKADDR_STRLEN + 8];
    ngx_http_behave_redis_node_t  *node;

    if (port < 1 || port > 65535 || len > NGX_SOCKADDR_STRLEN) {
        return NULL;
    }

    if (len == 0 || (len == 1 && ip[0] == '?')) {
        colon = (u_char *) ngx_strchr(asked->addr, ':');

        if (colon == NULL || ngx_strncmp(asked->addr, "unix:", 5) == 0) {
            return NULL;
        }

        ip = (const char *) asked->addr;
        len = colon - asked->addr;
    }

    if (ngx_inet_addr((u_char *) ip, len) == INADDR_NONE) {
        return NULL;
    }

    p = ngx_sprintf(addr, "%*s:%L", len, ip, port);

    node = ngx_http_behave_redis_node_add(addr, p - addr,
                                          NGX_HTTP_BEHAVE_REDIS_ROLE_DATA);

    if (node != NULL && node->ac == NULL && !node->reconnect.timer_set) {
        ngx_http_behave_redis_node_connect(node);
    }

    return node;
}


/* sentinel: where the master is */

void
ngx_http_behave_redis_readonly(void)
{
    if (ngx_http_behave_redis.mode == NGX_HTTP_BEHAVE_REDIS_SENTINEL) {
        ngx_http_behave_redis_ask_master();
    }
}


static void
ngx_http_behave_redis_discover_handler(ngx_event_t *ev)
{
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    if (rd->bmcf == NULL || ngx_exiting || ngx_terminate) {
        return;
    }

    ngx_http_behave_redis_ask_master();

    ngx_add_timer(&rd->discover,
                  rd->nodes[0].state == NGX_HTTP_BEHAVE_REDIS_CONNECTED
                  ? NGX_HTTP_BEHAVE_REDIS_ASK_UP
                  : NGX_HTTP_BEHAVE_REDIS_ASK_DOWN);
}


static void
ngx_http_behave_redis_ask_master(void)
{
    ngx_str_t                     *name;
    ngx_http_behave_redis_t       *rd;
    ngx_http_behave_redis_node_t  *s;

    rd = &ngx_http_behave_redis;
    s = &rd->nodes[1];

    if (rd->asking_sentinel || s->state != NGX_HTTP_BEHAVE_REDIS_CONNECTED) {
        return;
    }

    name = &rd->bmcf->redis_master;

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, rd->log, 0,
                   "behave redis: sentinel \"%s\" asked for master \"%V\"",
                   s->addr, name);

    if (redisAsyncCommand(s->ac, ngx_http_behave_redis_on_master, s,
                          "SENTINEL get-master-addr-by-name %b",
                          name->data, name->len)
        == REDIS_OK)
    {
        rd->asking_sentinel = 1;
    }
}


static void
ngx_http_behave_redis_on_master(redisAsyncContext *ac, void *r,
    void *privdata)
{
    u_char                        *p, addr[NGX_SOCKADDR_STRLEN + 8];
    redisReply                    *reply = r;
    ngx_http_behave_redis_t       *rd;
    ngx_http_behave_redis_node_t  *master;

    rd = &ngx_http_behave_redis;
    rd->asking_sentinel = 0;

    if (reply == NULL || rd->bmcf == NULL) {
        return;
    }

    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2
        || reply->element[0]->type != REDIS_REPLY_STRING
        || reply->element[1]->type != REDIS_REPLY_STRING
        || reply->element[0]->len > NGX_SOCKADDR_STRLEN
        || reply->element[1]->len > 5
        || ngx_inet_addr((u_char *) reply->element[0]->str,
                         reply->element[0]->len) == INADDR_NONE)
    {
        ngx_log_error(NGX_LOG_ERR, rd->log, 0,
                      "behave: redis sentinel \"%s\" does not name the "
                      "master \"%V\" by address",
                      ((ngx_http_behave_redis_node_t *) privdata)->addr,
                      &rd->bmcf->redis_master);
        return;
    }

    p = ngx_sprintf(addr, "%*s:%*s",
                    reply->element[0]->len, reply->element[0]->str,
                    reply->element[1]->len, reply->element[1]->str);

    master = &rd->nodes[0];

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, rd->log, 0,
                   "behave redis: sentinel names master %*s",
                   (size_t) (p - addr), addr);

    if (master->addr_len == (size_t) (p - addr)
        && ngx_strncmp(master->addr, addr, p - addr) == 0)
    {
        if (master->ac == NULL && !master->reconnect.timer_set) {
            ngx_http_behave_redis_node_connect(master);
        }

        return;
    }

    ngx_log_error(NGX_LOG_NOTICE, rd->log, 0,
                  "behave: redis master \"%V\" is %*s%s%s",
                  &rd->bmcf->redis_master, (size_t) (p - addr), addr,
                  master->addr_len ? ", was " : "", master->addr);

    /* in-flight commands of the old master answer degraded */
    ngx_http_behave_redis_node_drop(master, NULL);
    ngx_http_behave_redis_node_set_addr(master, addr, p - addr);
    master->backoff = NGX_HTTP_BEHAVE_REDIS_BACKOFF_MIN;
    ngx_http_behave_redis_node_connect(master);
}


/* ["message", "+switch-master", "<name> <old ip> <old port> <ip> <port>"] */

static void
ngx_http_behave_redis_on_switch(redisAsyncContext *ac, void *r,
    void *privdata)
{
    redisReply               *reply = r, *msg;
    ngx_str_t                *name;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    if (reply == NULL || rd->bmcf == NULL || reply->type != REDIS_REPLY_ARRAY
        || reply->elements != 3
        || reply->element[0]->type != REDIS_REPLY_STRING
        || ngx_strcmp(reply->element[0]->str, "message") != 0)
    {
        return;
    }

    msg = reply->element[2];
    name = &rd->bmcf->redis_master;

    if (msg->type != REDIS_REPLY_STRING || msg->len <= name->len
        || msg->str[name->len] != ' '
        || ngx_strncmp(msg->str, name->data, name->len) != 0)
    {
        return;
    }

    ngx_log_error(NGX_LOG_INFO, rd->log, 0,
                  "behave: redis sentinel: +switch-master \"%V\"", name);

    /* the address is asked again rather than parsed: one code path */
    ngx_http_behave_redis_ask_master();
}
