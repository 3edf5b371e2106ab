/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * hiredis 0.14 has no nginx adapter, no timers and no timeouts: this file
 * is all three, for every connection ("node") of a worker.
 *
 * Rules, stated once:
 * - Connections are opened in init_process (never in the master) to
 *   numeric addresses or unix sockets, so connect() never waits on DNS.
 * - Events are level-triggered: hiredis reads at most 16 KiB per call, and
 *   a level-triggered fd is reported again while data is left.
 * - hiredis owns the fd: the cleanup hook removes the events and returns
 *   the ngx_connection_t to nginx without closing the fd (hiredis closes
 *   it once; closing it here too would close an unrelated, reused fd).
 * - A command that outlives behave_redis_timeout drops its connection
 *   (ngx_http_behave_redis_cmd.c).  Reconnects back off from 100ms to 5s
 *   (2s in cluster and sentinel modes, where a node that comes back
 *   should serve again soon).  Timers of the connections are cancelable,
 *   so "nginx -s quit" does not wait for them.
 */


#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_node.h"
#include "ngx_http_behave_stats.h"


#define NGX_HTTP_BEHAVE_REDIS_BACKOFF_MAX   5000
#define NGX_HTTP_BEHAVE_REDIS_BACKOFF_HA    2000


static void ngx_http_behave_redis_schedule(
    ngx_http_behave_redis_node_t *node);
static void ngx_http_behave_redis_reconnect_handler(ngx_event_t *ev);
static void ngx_http_behave_redis_connect_timeout(ngx_event_t *ev);
static void ngx_http_behave_redis_on_connect(const redisAsyncContext *ac,
    int status);
static void ngx_http_behave_redis_on_disconnect(const redisAsyncContext *ac,
    int status);
static void ngx_http_behave_redis_auth(ngx_http_behave_redis_node_t *node);
static void ngx_http_behave_redis_on_auth(redisAsyncContext *ac, void *r,
    void *privdata);
static void ngx_http_behave_redis_update_state(void);
static void ngx_http_behave_redis_went(ngx_http_behave_redis_node_t *node,
    ngx_uint_t up);
static void ngx_http_behave_redis_lost(ngx_http_behave_redis_node_t *node);

static ngx_int_t ngx_http_behave_redis_attach(
    ngx_http_behave_redis_node_t *node, redisAsyncContext *ac);
static void ngx_http_behave_redis_add_read(void *data);
static void ngx_http_behave_redis_del_read(void *data);
static void ngx_http_behave_redis_add_write(void *data);
static void ngx_http_behave_redis_del_write(void *data);
static void ngx_http_behave_redis_cleanup(void *data);
static void ngx_http_behave_redis_read_handler(ngx_event_t *ev);
static void ngx_http_behave_redis_write_handler(ngx_event_t *ev);


ngx_http_behave_redis_t  ngx_http_behave_redis;


/* configuration */

char *
ngx_http_behave_redis_parse_address(ngx_conf_t *cf, ngx_str_t *addr)
{
    u_char     *p;
    ngx_int_t   port;

    if (addr->len > 5 && ngx_strncmp(addr->data, "unix:", 5) == 0) {
        if (addr->len >= NGX_HTTP_BEHAVE_REDIS_ADDR_LEN) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "behave_redis \"%V\": path too long", addr);
            return NGX_CONF_ERROR;
        }

        return NGX_CONF_OK;
    }

    p = ngx_strlchr(addr->data, addr->data + addr->len, ':');

    if (p == NULL || p == addr->data
        || ngx_inet_addr(addr->data, p - addr->data) == INADDR_NONE)
    {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "behave_redis \"%V\" must be IPv4:port or "
                           "unix:/path (a hostname would make workers "
                           "wait on DNS)", addr);
        return NGX_CONF_ERROR;
    }

    port = ngx_atoi(p + 1, addr->data + addr->len - p - 1);

    if (port < 1 || port > 65535) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "behave_redis \"%V\": invalid port", addr);
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


char *
ngx_http_behave_redis_conf(ngx_conf_t *cf, ngx_http_behave_main_conf_t *bmcf)
{
    ngx_str_t   *value, *a;
    ngx_uint_t   i, first;

    value = cf->args->elts;
    first = 1;
    bmcf->redis_mode = NGX_HTTP_BEHAVE_REDIS_SINGLE;

    if (cf->args->nelts > 2
        && ngx_strcmp(value[1].data, "cluster") == 0)
    {
        bmcf->redis_mode = NGX_HTTP_BEHAVE_REDIS_CLUSTER;
        first = 2;

    } else if (cf->args->nelts > 3
               && ngx_strcmp(value[1].data, "sentinel") == 0)
    {
        bmcf->redis_mode = NGX_HTTP_BEHAVE_REDIS_SENTINEL;
        bmcf->redis_master = value[2];
        first = 3;

    } else if (cf->args->nelts != 2
               || ngx_strcmp(value[1].data, "cluster") == 0
               || ngx_strcmp(value[1].data, "sentinel") == 0)
    {
        return "takes ADDRESS, cluster ADDRESS..., or sentinel MASTER_NAME "
               "ADDRESS...";
    }

    if (cf->args->nelts - first >= NGX_HTTP_BEHAVE_REDIS_NODES_MAX / 2) {
        return "has too many addresses";
    }

    bmcf->redis_addrs = ngx_array_create(cf->pool, cf->args->nelts - first,
                                         sizeof(ngx_str_t));
    if (bmcf->redis_addrs == NULL) {
        return NGX_CONF_ERROR;
    }

    for (i = first; i < cf->args->nelts; i++) {
        if (ngx_http_behave_redis_parse_address(cf, &value[i])
            != NGX_CONF_OK)
        {
            return NGX_CONF_ERROR;
        }

        a = ngx_array_push(bmcf->redis_addrs);
        if (a == NULL) {
            return NGX_CONF_ERROR;
        }

        *a = value[i];
    }

    bmcf->redis = value[first];

    return NGX_CONF_OK;
}


char *
ngx_http_behave_redis_auth_conf(ngx_conf_t *cf, ngx_str_t *user,
    ngx_str_t *password)
{
    ngx_str_t  *value;

    if (password->data != NULL) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (cf->args->nelts == 3) {
        *user = value[1];
        *password = value[2];

    } else {
        *password = value[1];
    }

    if (password->len == 0) {
        return "needs a password";
    }

    return NGX_CONF_OK;
}


/* the worker's connections: none yet, no hooks yet */

void
ngx_http_behave_redis_nodes_init(ngx_cycle_t *cycle,
    ngx_http_behave_main_conf_t *bmcf)
{
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;
    ngx_memzero(rd, sizeof(ngx_http_behave_redis_t));

    rd->bmcf = bmcf;
    rd->log = cycle->log;
    rd->mode = bmcf->redis_mode;
}


/* at the worker's exit: every connection closed, none reopened */

void
ngx_http_behave_redis_nodes_close(void)
{
    ngx_uint_t                     i;
    ngx_http_behave_redis_t       *rd;
    ngx_http_behave_redis_node_t  *node;

    rd = &ngx_http_behave_redis;
    rd->bmcf = NULL;

    for (i = 0; i < rd->nnodes; i++) {
        node = &rd->nodes[i];

        if (node->reconnect.timer_set) {
            ngx_del_timer(&node->reconnect);
        }

        ngx_http_behave_redis_node_drop(node, NULL);
    }
}


ngx_http_behave_redis_node_t *
ngx_http_behave_redis_node_add(u_char *addr, size_t len,
    ngx_http_behave_redis_role_e role)
{
    ngx_uint_t                     i;
    ngx_http_behave_redis_t       *rd;
    ngx_http_behave_redis_node_t  *node;

    rd = &ngx_http_behave_redis;

    for (i = 0; i < rd->nnodes; i++) {
        node = &rd->nodes[i];

        if (node->role == role && node->addr_len == len
            && ngx_strncmp(node->addr, addr, len) == 0)
        {
            return node;
        }
    }

    if (rd->nnodes == NGX_HTTP_BEHAVE_REDIS_NODES_MAX
        || len >= NGX_HTTP_BEHAVE_REDIS_ADDR_LEN)
    {
        return NULL;
    }

    node = &rd->nodes[rd->nnodes];
    ngx_memzero(node, sizeof(ngx_http_behave_redis_node_t));

    node->index = rd->nnodes++;
    node->role = role;
    node->backoff = NGX_HTTP_BEHAVE_REDIS_BACKOFF_MIN;

    node->reconnect.handler = ngx_http_behave_redis_reconnect_handler;
    node->reconnect.log = rd->log;
    node->reconnect.data = node;
    node->reconnect.cancelable = 1;

    node->connect_timer.handler = ngx_http_behave_redis_connect_timeout;
    node->connect_timer.log = rd->log;
    node->connect_timer.data = node;
    node->connect_timer.cancelable = 1;

    ngx_http_behave_redis_node_set_addr(node, addr, len);

    return node;
}


void
ngx_http_behave_redis_node_set_addr(ngx_http_behave_redis_node_t *node,
    u_char *addr, size_t len)
{
    len = ngx_min(len, NGX_HTTP_BEHAVE_REDIS_ADDR_LEN - 1);
    *ngx_cpymem(node->addr, addr, len) = '\0';
    node->addr_len = len;
}


void
ngx_http_behave_redis_node_connect(ngx_http_behave_redis_node_t *node)
{
    u_char                   *p;
    ngx_int_t                 port;
    redisAsyncContext        *ac;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    if (node->ac != NULL || node->addr_len == 0 || rd->bmcf == NULL) {
        return;
    }

    if (node->reconnect.timer_set) {
        ngx_del_timer(&node->reconnect);
    }

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, rd->log, 0,
                   "behave redis: connecting to \"%s\"", node->addr);

    if (ngx_strncmp(node->addr, "unix:", 5) == 0) {
        ac = redisAsyncConnectUnix((char *) node->addr + 5);

    } else {
        /* "ip:port" was checked: in the configuration or by the caller */
        p = (u_char *) ngx_strchr(node->addr, ':');
        port = p ? ngx_atoi(p + 1, node->addr + node->addr_len - p - 1) : -1;

        if (p == NULL || port < 1) {
            ngx_log_error(NGX_LOG_ERR, rd->log, 0,
                          "behave: redis \"%s\": bad address", node->addr);
            return;
        }

        *p = '\0';
        ac = redisAsyncConnect((char *) node->addr, (int) port);
        *p = ':';
    }

    if (ac == NULL || ac->err) {
        ngx_log_error(NGX_LOG_ERR, rd->log, 0,
                      "behave: redis \"%s\": cannot connect: %s", node->addr,
                      ac ? ac->errstr : "out of memory");

        if (ac != NULL) {
            redisAsyncFree(ac);
        }

        ngx_http_behave_redis_schedule(node);
        return;
    }

    ac->data = node;

    if (ngx_http_behave_redis_attach(node, ac) != NGX_OK) {
        redisAsyncFree(ac);
        ngx_http_behave_redis_schedule(node);
        return;
    }

    node->ac = ac;
    node->state = NGX_HTTP_BEHAVE_REDIS_CONNECTING;

    redisAsyncSetConnectCallback(ac, ngx_http_behave_redis_on_connect);
    redisAsyncSetDisconnectCallback(ac, ngx_http_behave_redis_on_disconnect);

    /* queued first, so written before any command */
    ngx_http_behave_redis_auth(node);

    /* hiredis learns that connect() finished on the first write event */
    ngx_http_behave_redis_add_write(ac->ev.data);

    ngx_add_timer(&node->connect_timer,
                  ngx_max(rd->bmcf->redis_timeout * 10, 1000));
}


static void
ngx_http_behave_redis_auth(ngx_http_behave_redis_node_t *node)
{
    ngx_str_t                    *user, *pass;
    ngx_http_behave_main_conf_t  *bmcf;

    bmcf = ngx_http_behave_redis.bmcf;

    if (node->role != NGX_HTTP_BEHAVE_REDIS_ROLE_DATA) {
        user = &bmcf->sentinel_user;
        pass = &bmcf->sentinel_password;

    } else {
        user = &bmcf->redis_user;
        pass = &bmcf->redis_password;
    }

    if (pass->len == 0) {
        return;
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis.log, 0,
                   "behave redis: AUTH queued to \"%s\"%s", node->addr,
                   user->len ? " with a user" : "");

    if (user->len) {
        (void) redisAsyncCommand(node->ac, ngx_http_behave_redis_on_auth,
                                 node, "AUTH %b %b", user->data, user->len,
                                 pass->data, pass->len);

    } else {
        (void) redisAsyncCommand(node->ac, ngx_http_behave_redis_on_auth,
                                 node, "AUTH %b", pass->data, pass->len);
    }
}


static void
ngx_http_behave_redis_on_auth(redisAsyncContext *ac, void *r, void *privdata)
{
    redisReply                    *reply = r;
    ngx_http_behave_redis_node_t  *node = privdata;

    if (reply == NULL || reply->type != REDIS_REPLY_ERROR) {
        ngx_log_debug2(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis.log, 0,
                       "behave redis: AUTH to \"%s\": %s", node->addr,
                       reply ? "accepted" : "no reply");
        return;
    }

    /* the error names no secret ("WRONGPASS invalid username-password") */
    ngx_log_error(NGX_LOG_ERR, ngx_http_behave_redis.log, 0,
                  "behave: redis \"%s\": authentication refused: %*s",
                  node->addr, (size_t) ngx_min(reply->len, 80), reply->str);
}


static void
ngx_http_behave_redis_on_connect(const redisAsyncContext *ac, int status)
{
    ngx_http_behave_redis_t       *rd;
    ngx_http_behave_redis_node_t  *node;

    rd = &ngx_http_behave_redis;
    node = ac->data;

    if (node->connect_timer.timer_set) {
        ngx_del_timer(&node->connect_timer);
    }

    if (status != REDIS_OK) {
        /* hiredis frees the context after this callback */
        ngx_log_error(NGX_LOG_ERR, rd->log, 0,
                      "behave: redis \"%s\": cannot connect: %s",
                      node->addr, ac->errstr);

        ngx_http_behave_redis_lost(node);
        return;
    }

    ngx_log_error(NGX_LOG_INFO, rd->log, 0,
                  "behave: redis \"%s\": connected", node->addr);

    node->state = NGX_HTTP_BEHAVE_REDIS_CONNECTED;
    node->backoff = NGX_HTTP_BEHAVE_REDIS_BACKOFF_MIN;

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, rd->log, 0,
                   "behave redis: \"%s\" up, %s", node->addr,
                   node->role == NGX_HTTP_BEHAVE_REDIS_ROLE_DATA
                   ? "data" : "sentinel");

    ngx_http_behave_redis_update_state();
    ngx_http_behave_redis_went(node, 1);
}


static void
ngx_http_behave_redis_on_disconnect(const redisAsyncContext *ac, int status)
{
    ngx_http_behave_redis_t       *rd;
    ngx_http_behave_redis_node_t  *node;

    rd = &ngx_http_behave_redis;
    node = ac->data;

    if (status != REDIS_OK && rd->bmcf != NULL) {
        ngx_log_error(NGX_LOG_WARN, rd->log, 0,
                      "behave: redis \"%s\": connection lost: %s",
                      node->addr,
                      ac->errstr[0] ? ac->errstr : "closed by peer");
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, rd->log, 0,
                   "behave redis: \"%s\" disconnected, status %d",
                   node->addr, status);

    ngx_http_behave_redis_lost(node);
}


/* a context hiredis frees after this callback: off, tried again later */
static void
ngx_http_behave_redis_lost(ngx_http_behave_redis_node_t *node)
{
    node->ac = NULL;
    node->state = NGX_HTTP_BEHAVE_REDIS_OFF;
    ngx_http_behave_redis_schedule(node);
    ngx_http_behave_redis_went(node, 0);
}


/* the layer above, told through its hooks (none before it starts) */
static void
ngx_http_behave_redis_went(ngx_http_behave_redis_node_t *node, ngx_uint_t up)
{
    ngx_http_behave_redis_hooks_t  *h;

    h = &ngx_http_behave_redis.hooks;

    if (up && h->node_up != NULL) {
        h->node_up(node);

    } else if (!up && h->node_down != NULL) {
        h->node_down(node);
    }
}


static void
ngx_http_behave_redis_connect_timeout(ngx_event_t *ev)
{
    ngx_http_behave_redis_node_t  *node = ev->data;

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, ev->log, 0,
                   "behave redis: connect to \"%s\" timed out", node->addr);

    ngx_http_behave_redis_node_drop(node, "connect timed out");
}


/*
 * Frees the context now: hiredis runs every pending callback with NULL
 * (each answers its request as degraded) and then the cleanup hook.
 * why == NULL: quietly and with no reconnect (exit, or a new address that
 * the caller connects to at once).
 */

void
ngx_http_behave_redis_node_drop(ngx_http_behave_redis_node_t *node,
    const char *why)
{
    redisAsyncContext        *ac;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;
    ac = node->ac;

    if (node->connect_timer.timer_set) {
        ngx_del_timer(&node->connect_timer);
    }

    if (ac == NULL) {
        return;
    }

    if (why != NULL) {
        ngx_log_error(NGX_LOG_WARN, rd->log, 0,
                      "behave: redis \"%s\": %s, reconnecting",
                      node->addr, why);
    }

    node->ac = NULL;
    node->state = NGX_HTTP_BEHAVE_REDIS_OFF;

    /*
     * No reconnect from the disconnect callback: it is scheduled below.
     * (redisAsyncSetDisconnectCallback() cannot unset a callback in
     * hiredis 0.14, hence the field.)
     */
    ac->onDisconnect = NULL;
    redisAsyncFree(ac);

    if (why != NULL) {
        ngx_http_behave_redis_schedule(node);
        ngx_http_behave_redis_went(node, 0);

    } else {
        ngx_http_behave_redis_update_state();
    }
}


static void
ngx_http_behave_redis_schedule(ngx_http_behave_redis_node_t *node)
{
    ngx_msec_t                max;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    ngx_http_behave_redis_update_state();
    ngx_http_behave_stats_redis_error();

    if (rd->bmcf == NULL || ngx_exiting || ngx_terminate
        || node->reconnect.timer_set)
    {
        return;
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, rd->log, 0,
                   "behave redis: reconnect to \"%s\" in %M ms",
                   node->addr, node->backoff);

    ngx_add_timer(&node->reconnect, node->backoff);

    max = rd->mode == NGX_HTTP_BEHAVE_REDIS_SINGLE
          ? NGX_HTTP_BEHAVE_REDIS_BACKOFF_MAX
          : NGX_HTTP_BEHAVE_REDIS_BACKOFF_HA;

    node->backoff = ngx_min(node->backoff * 2, max);
}


static void
ngx_http_behave_redis_reconnect_handler(ngx_event_t *ev)
{
    ngx_http_behave_redis_node_t  *node = ev->data;

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, ev->log, 0,
                   "behave redis: reconnect timer of \"%s\", connected: %d, "
                   "next backoff %M", node->addr, node->ac != NULL,
                   node->backoff);

    if (ngx_exiting || ngx_terminate || node->ac != NULL) {
        return;
    }

    ngx_http_behave_redis_node_connect(node);
}


/*
 * What agent-status shows as "redis": every data connection up (in a
 * cluster, a master down is a worker partly degraded).
 */

static void
ngx_http_behave_redis_update_state(void)
{
    ngx_uint_t                i, up, n;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;
    up = 0;
    n = 0;

    for (i = 0; i < rd->nnodes; i++) {
        if (rd->nodes[i].role != NGX_HTTP_BEHAVE_REDIS_ROLE_DATA) {
            continue;
        }

        n++;
        up += rd->nodes[i].state == NGX_HTTP_BEHAVE_REDIS_CONNECTED;
    }

    ngx_http_behave_stats_redis_state(n && up == n);
}


ngx_uint_t
ngx_http_behave_redis_configured(ngx_http_request_t *r)
{
    ngx_http_behave_main_conf_t  *bmcf;

    bmcf = ngx_http_get_module_main_conf(r, ngx_http_behave_module);

    return bmcf->redis.len != 0;
}


ngx_uint_t
ngx_http_behave_redis_connected(void)
{
    ngx_uint_t                i;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    for (i = 0; i < rd->nnodes; i++) {
        if (rd->nodes[i].role == NGX_HTTP_BEHAVE_REDIS_ROLE_DATA
            && rd->nodes[i].state == NGX_HTTP_BEHAVE_REDIS_CONNECTED)
        {
            return 1;
        }
    }

    return 0;
}


/* the adapter: hiredis's fd in nginx's event loop */

static ngx_int_t
ngx_http_behave_redis_attach(ngx_http_behave_redis_node_t *node,
    redisAsyncContext *ac)
{
    ngx_connection_t  *c;

    c = ngx_get_connection(ac->c.fd, ngx_http_behave_redis.log);
    if (c == NULL) {
        return NGX_ERROR;
    }

    c->data = ac;
    c->read->handler = ngx_http_behave_redis_read_handler;
    c->write->handler = ngx_http_behave_redis_write_handler;
    c->read->log = c->log;
    c->write->log = c->log;

    ac->ev.data = c;
    ac->ev.addRead = ngx_http_behave_redis_add_read;
    ac->ev.delRead = ngx_http_behave_redis_del_read;
    ac->ev.addWrite = ngx_http_behave_redis_add_write;
    ac->ev.delWrite = ngx_http_behave_redis_del_write;
    ac->ev.cleanup = ngx_http_behave_redis_cleanup;

    node->conn = c;

    return NGX_OK;
}


static void
ngx_http_behave_redis_add_read(void *data)
{
    ngx_connection_t  *c = data;

    if (!c->read->active) {
        (void) ngx_add_event(c->read, NGX_READ_EVENT, NGX_LEVEL_EVENT);
    }
}


static void
ngx_http_behave_redis_del_read(void *data)
{
    ngx_connection_t  *c = data;

    if (c->read->active) {
        (void) ngx_del_event(c->read, NGX_READ_EVENT, 0);
    }
}


/*
 * Once connected, commands are written at the end of the event loop
 * cycle, after every request of the cycle has added its own: one write()
 * carries them all, with no epoll_ctl() pair per command.  Only a connect
 * in progress, or a socket that could not take everything (hiredis asks
 * again from inside its write handler), waits for a write event.
 */

static void
ngx_http_behave_redis_add_write(void *data)
{
    ngx_connection_t              *c = data;
    redisAsyncContext             *ac = c->data;
    ngx_http_behave_redis_node_t  *node = ac->data;

    if (node->state == NGX_HTTP_BEHAVE_REDIS_CONNECTED && !node->writing) {
        if (!c->write->posted && !c->write->active) {
            ngx_post_event(c->write, &ngx_posted_events);
        }

        return;
    }

    if (!c->write->active) {
        (void) ngx_add_event(c->write, NGX_WRITE_EVENT, NGX_LEVEL_EVENT);
    }
}


static void
ngx_http_behave_redis_del_write(void *data)
{
    ngx_connection_t  *c = data;

    if (c->write->active) {
        (void) ngx_del_event(c->write, NGX_WRITE_EVENT, 0);
    }
}


static void
ngx_http_behave_redis_cleanup(void *data)
{
    ngx_connection_t              *c = data;
    redisAsyncContext             *ac = c->data;
    ngx_http_behave_redis_node_t  *node = ac->data;

    ngx_http_behave_redis_del_read(c);
    ngx_http_behave_redis_del_write(c);

    if (c->read->posted) {
        ngx_delete_posted_event(c->read);
    }

    if (c->write->posted) {
        ngx_delete_posted_event(c->write);
    }

    if (node->conn == c) {
        node->conn = NULL;
    }

    /*
     * hiredis closes the fd itself; ngx_free_connection() still needs it
     * to clear the files[] slot of fd-based event methods.
     */
    ngx_free_connection(c);
    c->fd = (ngx_socket_t) -1;
}


static void
ngx_http_behave_redis_read_handler(ngx_event_t *ev)
{
    ngx_connection_t  *c = ev->data;

    redisAsyncHandleRead(c->data);
}


static void
ngx_http_behave_redis_write_handler(ngx_event_t *ev)
{
    ngx_connection_t              *c = ev->data;
    redisAsyncContext             *ac = c->data;
    ngx_http_behave_redis_node_t  *node = ac->data;

    node->writing = 1;
    redisAsyncHandleWrite(ac);

    /* the context may be gone: node is not (it is static) */
    node->writing = 0;
}
