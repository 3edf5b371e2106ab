/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * hiredis 0.14 has no nginx adapter, no timers and no timeouts: this file
 * is all three.
 *
 * Rules, stated once:
 * - One connection per worker, opened in init_process (never in the
 *   master) to a numeric address or a unix socket, so connect() never
 *   waits on DNS.
 * - Events are level-triggered: hiredis reads at most 16 KiB per call, and
 *   a level-triggered fd is reported again while data is left.
 * - hiredis owns the fd: the cleanup hook removes the events and returns
 *   the ngx_connection_t to nginx without closing the fd (hiredis closes
 *   it once; closing it here too would close an unrelated, reused fd).
 * - Each command carries a heap-allocated record: hiredis calls its
 *   callback exactly once (with NULL when the context is freed), and that
 *   callback frees it.  The request may go away first: its pool cleanup
 *   detaches the record, and the late reply is dropped.
 * - A command that outlives behave_redis_timeout answers its request as
 *   "timeout" and the connection is dropped: a Redis that accepts but
 *   never answers would otherwise pile up commands.  Reconnects back off
 *   from 100ms to 5s.  Timers of the connection are cancelable, so
 *   "nginx -s quit" does not wait for them.
 */


#include <openssl/sha.h>

#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_stats.h"
#include "ngx_http_behave_util.h"


#define NGX_HTTP_BEHAVE_REDIS_BACKOFF_MIN   100
#define NGX_HTTP_BEHAVE_REDIS_BACKOFF_MAX   5000
#define NGX_HTTP_BEHAVE_REDIS_LOG_INTERVAL  10

/*
 * Background commands (metering flushes, heartbeats, traces) have no
 * request to time out: this many unanswered ones mean a Redis that
 * accepts but does not answer, and the connection is dropped.
 */
#define NGX_HTTP_BEHAVE_REDIS_BG_MAX        256


typedef enum {
    NGX_HTTP_BEHAVE_REDIS_OFF = 0,
    NGX_HTTP_BEHAVE_REDIS_CONNECTING,
    NGX_HTTP_BEHAVE_REDIS_CONNECTED
} ngx_http_behave_redis_state_e;


typedef struct {
    redisAsyncContext              *ac;
    ngx_connection_t               *conn;
    ngx_http_behave_redis_state_e   state;
    ngx_msec_t                      backoff;
    ngx_event_t                     reconnect;
    ngx_event_t                     connect_timer;
    ngx_http_behave_main_conf_t    *bmcf;
    ngx_log_t                      *log;

    time_t                          degraded_logged;
    ngx_uint_t                      degraded_suppressed;
    ngx_uint_t                      bg_pending;
    unsigned                        writing:1;
} ngx_http_behave_redis_t;


typedef struct {
    ngx_http_request_t             *request;      /* NULL once detached */
    ngx_http_behave_redis_pt        handler;
    void                           *data;
    void                          (*bg_done)(redisReply *reply, void *data);
    ngx_event_t                     timer;
    double                          started_ms;   /* for the trace span */
    ngx_pool_cleanup_t             *cln;          /* of the request */
    ngx_uint_t                      answered;
    const char                     *name;         /* of the span */

    /* for the EVAL that follows a NOSCRIPT */
    ngx_http_behave_redis_script_t *script;
    int                             argc;
    char                          **argv;
    size_t                         *argvlen;
} ngx_http_behave_redis_cmd_t;


static void ngx_http_behave_redis_connect(void);
static void ngx_http_behave_redis_drop(const char *why);
static void ngx_http_behave_redis_schedule(void);
static void ngx_http_behave_redis_reconnect_handler(ngx_event_t *ev);
static void ngx_http_behave_redis_connect_timeout(ngx_event_t *ev);
static void ngx_http_behave_redis_on_connect(const redisAsyncContext *ac,
    int status);
static void ngx_http_behave_redis_on_disconnect(const redisAsyncContext *ac,
    int status);

static ngx_int_t ngx_http_behave_redis_attach(redisAsyncContext *ac);
static void ngx_http_behave_redis_add_read(void *data);
static void ngx_http_behave_redis_del_read(void *data);
static void ngx_http_behave_redis_add_write(void *data);
static void ngx_http_behave_redis_del_write(void *data);
static void ngx_http_behave_redis_cleanup(void *data);
static void ngx_http_behave_redis_read_handler(ngx_event_t *ev);
static void ngx_http_behave_redis_write_handler(ngx_event_t *ev);

static ngx_http_behave_redis_cmd_t *ngx_http_behave_redis_cmd_new(
    ngx_http_request_t *r, int skip, int nkeys, int argc, const char **argv,
    const size_t *argvlen);
static void ngx_http_behave_redis_cmd_free(ngx_http_behave_redis_cmd_t *cmd);
static void ngx_http_behave_redis_track(ngx_http_request_t *r,
    ngx_http_behave_redis_cmd_t *cmd, ngx_pool_cleanup_t *cln);
static ngx_int_t ngx_http_behave_redis_send(ngx_http_behave_redis_cmd_t *cmd,
    const char *verb, const char *script);
static void ngx_http_behave_redis_reply(redisAsyncContext *ac, void *reply,
    void *privdata);
static void ngx_http_behave_redis_answer(ngx_http_behave_redis_cmd_t *cmd,
    redisReply *reply, const char *reason);
static void ngx_http_behave_redis_cmd_timeout(ngx_event_t *ev);
static void ngx_http_behave_redis_request_gone(void *data);


/* per worker process: built in init_process, gone with the process */
static ngx_http_behave_redis_t  ngx_http_behave_redis;


char *
ngx_http_behave_redis_parse_address(ngx_conf_t *cf, ngx_str_t *addr)
{
    u_char     *p;
    ngx_int_t   port;

    if (addr->len > 5 && ngx_strncmp(addr->data, "unix:", 5) == 0) {
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


ngx_int_t
ngx_http_behave_redis_init_process(ngx_cycle_t *cycle)
{
    ngx_http_behave_redis_t      *rd;
    ngx_http_behave_main_conf_t  *bmcf;

    bmcf = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_behave_module);

    if (bmcf == NULL || bmcf->redis.len == 0) {
        return NGX_OK;
    }

    rd = &ngx_http_behave_redis;
    ngx_memzero(rd, sizeof(ngx_http_behave_redis_t));

    rd->bmcf = bmcf;
    rd->log = cycle->log;
    rd->backoff = NGX_HTTP_BEHAVE_REDIS_BACKOFF_MIN;

    rd->reconnect.handler = ngx_http_behave_redis_reconnect_handler;
    rd->reconnect.log = cycle->log;
    rd->reconnect.data = rd;
    rd->reconnect.cancelable = 1;

    rd->connect_timer.handler = ngx_http_behave_redis_connect_timeout;
    rd->connect_timer.log = cycle->log;
    rd->connect_timer.data = rd;
    rd->connect_timer.cancelable = 1;

    ngx_http_behave_redis_connect();

    return NGX_OK;
}


void
ngx_http_behave_redis_exit_process(ngx_cycle_t *cycle)
{
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    if (rd->bmcf == NULL) {
        return;
    }

    if (rd->reconnect.timer_set) {
        ngx_del_timer(&rd->reconnect);
    }

    rd->bmcf = NULL;
    ngx_http_behave_redis_drop(NULL);
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
    return ngx_http_behave_redis.state == NGX_HTTP_BEHAVE_REDIS_CONNECTED;
}


static void
ngx_http_behave_redis_connect(void)
{
    u_char                   *p, host[NGX_SOCKADDR_STRLEN + 1];
    ngx_str_t                *addr;
    redisAsyncContext        *ac;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;
    addr = &rd->bmcf->redis;

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, rd->log, 0,
                   "behave redis: connecting to \"%V\"", addr);

    if (ngx_strncmp(addr->data, "unix:", 5) == 0) {
        ac = redisAsyncConnectUnix((char *) addr->data + 5);

    } else {
        p = ngx_strlchr(addr->data, addr->data + addr->len, ':');
        *ngx_cpymem(host, addr->data,
                    ngx_min((size_t) (p - addr->data), NGX_SOCKADDR_STRLEN))
            = '\0';

        ac = redisAsyncConnect((char *) host,
                               ngx_atoi(p + 1,
                                        addr->data + addr->len - p - 1));
    }

    if (ac == NULL || ac->err) {
        ngx_log_error(NGX_LOG_ERR, rd->log, 0,
                      "behave: redis \"%V\": cannot connect: %s", addr,
                      ac ? ac->errstr : "out of memory");

        if (ac != NULL) {
            redisAsyncFree(ac);
        }

        ngx_http_behave_redis_schedule();
        return;
    }

    if (ngx_http_behave_redis_attach(ac) != NGX_OK) {
        redisAsyncFree(ac);
        ngx_http_behave_redis_schedule();
        return;
    }

    rd->ac = ac;
    rd->state = NGX_HTTP_BEHAVE_REDIS_CONNECTING;

    redisAsyncSetConnectCallback(ac, ngx_http_behave_redis_on_connect);
    redisAsyncSetDisconnectCallback(ac, ngx_http_behave_redis_on_disconnect);

    /* hiredis learns that connect() finished on the first write event */
    ngx_http_behave_redis_add_write(ac->ev.data);

    ngx_add_timer(&rd->connect_timer,
                  ngx_max(rd->bmcf->redis_timeout * 10, 1000));
}


static void
ngx_http_behave_redis_on_connect(const redisAsyncContext *ac, int status)
{
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    if (rd->connect_timer.timer_set) {
        ngx_del_timer(&rd->connect_timer);
    }

    if (status != REDIS_OK) {
        /* hiredis frees the context after this callback */
        ngx_log_error(NGX_LOG_ERR, rd->log, 0,
                      "behave: redis \"%V\": cannot connect: %s",
                      &rd->bmcf->redis, ac->errstr);

        rd->ac = NULL;
        rd->state = NGX_HTTP_BEHAVE_REDIS_OFF;
        ngx_http_behave_redis_schedule();
        return;
    }

    ngx_log_error(NGX_LOG_INFO, rd->log, 0,
                  "behave: redis \"%V\": connected", &rd->bmcf->redis);

    rd->state = NGX_HTTP_BEHAVE_REDIS_CONNECTED;
    rd->backoff = NGX_HTTP_BEHAVE_REDIS_BACKOFF_MIN;
    ngx_http_behave_stats_redis_state(1);
}


static void
ngx_http_behave_redis_on_disconnect(const redisAsyncContext *ac, int status)
{
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    if (status != REDIS_OK && rd->bmcf != NULL) {
        ngx_log_error(NGX_LOG_WARN, rd->log, 0,
                      "behave: redis \"%V\": connection lost: %s",
                      &rd->bmcf->redis,
                      ac->errstr[0] ? ac->errstr : "closed by peer");
    }

    rd->ac = NULL;
    rd->state = NGX_HTTP_BEHAVE_REDIS_OFF;
    ngx_http_behave_redis_schedule();
}


static void
ngx_http_behave_redis_connect_timeout(ngx_event_t *ev)
{
    ngx_http_behave_redis_drop("connect timed out");
}


/*
 * Frees the context now: hiredis runs every pending callback with NULL
 * (each answers its request as degraded) and then the cleanup hook.
 */

static void
ngx_http_behave_redis_drop(const char *why)
{
    redisAsyncContext        *ac;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;
    ac = rd->ac;

    if (rd->connect_timer.timer_set) {
        ngx_del_timer(&rd->connect_timer);
    }

    if (ac == NULL) {
        return;
    }

    if (why != NULL) {
        ngx_log_error(NGX_LOG_WARN, rd->log, 0,
                      "behave: redis \"%V\": %s, reconnecting",
                      &rd->bmcf->redis, why);
    }

    rd->ac = NULL;
    rd->state = NGX_HTTP_BEHAVE_REDIS_OFF;

    /*
     * No reconnect from the disconnect callback: it is scheduled below.
     * (redisAsyncSetDisconnectCallback() cannot unset a callback in
     * hiredis 0.14, hence the field.)
     */
    ac->onDisconnect = NULL;
    redisAsyncFree(ac);

    ngx_http_behave_redis_schedule();
}


static void
ngx_http_behave_redis_schedule(void)
{
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;

    ngx_http_behave_stats_redis_state(0);
    ngx_http_behave_stats_redis_error();

    if (rd->bmcf == NULL || ngx_exiting || ngx_terminate
        || rd->reconnect.timer_set)
    {
        return;
    }

    ngx_add_timer(&rd->reconnect, rd->backoff);

    rd->backoff = ngx_min(rd->backoff * 2, NGX_HTTP_BEHAVE_REDIS_BACKOFF_MAX);
}


static void
ngx_http_behave_redis_reconnect_handler(ngx_event_t *ev)
{
    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, ev->log, 0,
                   "behave redis: reconnect timer, connected: %d, next "
                   "backoff %M", ngx_http_behave_redis.ac != NULL,
                   ngx_http_behave_redis.backoff);

    if (ngx_exiting || ngx_terminate || ngx_http_behave_redis.ac != NULL) {
        return;
    }

    ngx_http_behave_redis_connect();
}


/* the adapter: hiredis's fd in nginx's event loop */

static ngx_int_t
ngx_http_behave_redis_attach(redisAsyncContext *ac)
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

    ngx_http_behave_redis.conn = c;

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
    ngx_connection_t  *c = data;

    if (ngx_http_behave_redis.state == NGX_HTTP_BEHAVE_REDIS_CONNECTED
        && !ngx_http_behave_redis.writing)
    {
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
    ngx_connection_t  *c = data;

    ngx_http_behave_redis_del_read(c);
    ngx_http_behave_redis_del_write(c);

    if (c->read->posted) {
        ngx_delete_posted_event(c->read);
    }

    if (c->write->posted) {
        ngx_delete_posted_event(c->write);
    }

    if (ngx_http_behave_redis.conn == c) {
        ngx_http_behave_redis.conn = NULL;
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
    ngx_connection_t  *c = ev->data;

    ngx_http_behave_redis.writing = 1;
    redisAsyncHandleWrite(c->data);
    ngx_http_behave_redis.writing = 0;
}


/* commands */

void
ngx_http_behave_redis_script_init(ngx_http_behave_redis_script_t *s)
{
    u_char  md[SHA_DIGEST_LENGTH];

    SHA1((const u_char *) s->source, ngx_strlen(s->source), md);
    *ngx_hex_dump((u_char *) s->sha1, md, SHA_DIGEST_LENGTH) = '\0';
}


/*
 * argv[] of a script command is laid out as
 *     EVALSHA|EVAL, sha1|source, numkeys, keys..., args...
 * the first two are set at each send (static strings); the rest is copied
 * so that the EVAL that follows a NOSCRIPT can still be sent.
 */

ngx_int_t
ngx_http_behave_redis_eval(ngx_http_request_t *r,
    ngx_http_behave_redis_script_t *script, int nkeys, int argc,
    const char **argv, const size_t *argvlen,
    ngx_http_behave_redis_pt handler, void *data, const char **reason)
{
    ngx_pool_cleanup_t           *cln;
    ngx_http_behave_redis_cmd_t  *cmd;

    if (ngx_http_behave_redis.state == NGX_HTTP_BEHAVE_REDIS_OFF) {
        *reason = "redis unavailable";
        return NGX_DECLINED;
    }

    cln = ngx_pool_cleanup_add(r->pool, 0);
    cmd = ngx_http_behave_redis_cmd_new(r, 3, nkeys, argc, argv, argvlen);

    if (cln == NULL || cmd == NULL) {
        if (cmd != NULL) {
            ngx_free(cmd);
        }

        *reason = "out of memory";
        return NGX_DECLINED;
    }

    cmd->script = script;
    cmd->name = script->name;
    cmd->handler = handler;
    cmd->data = data;
    cmd->started_ms = ngx_http_behave_now_ms();

    if (ngx_http_behave_redis_send(cmd, "EVALSHA", script->sha1) != NGX_OK) {
        ngx_free(cmd);
        *reason = "redis unavailable";
        return NGX_DECLINED;
    }

    ngx_http_behave_redis_track(r, cmd, cln);

    return NGX_OK;
}


ngx_int_t
ngx_http_behave_redis_multi(ngx_http_request_t *r, const char *name,
    ngx_uint_t ncmd, const int *argc, const char **argv,
    const size_t *argvlen, ngx_http_behave_redis_pt handler, void *data,
    const char **reason)
{
    ngx_uint_t                    i;
    redisAsyncContext            *ac;
    ngx_pool_cleanup_t           *cln;
    ngx_http_behave_redis_cmd_t  *cmd;

    ac = ngx_http_behave_redis.ac;

    if (ngx_http_behave_redis.state == NGX_HTTP_BEHAVE_REDIS_OFF
        || ac == NULL)
    {
        *reason = "redis unavailable";
        return NGX_DECLINED;
    }

    cln = ngx_pool_cleanup_add(r->pool, 0);
    cmd = ngx_http_behave_redis_cmd_new(r, 0, -1, 0, NULL, NULL);

    if (cln == NULL || cmd == NULL) {
        if (cmd != NULL) {
            ngx_free(cmd);
        }

        *reason = "out of memory";
        return NGX_DECLINED;
    }

    cmd->name = name;
    cmd->handler = handler;
    cmd->data = data;
    cmd->started_ms = ngx_http_behave_now_ms();

    /*
     * hiredis formats each command into its output buffer at once, so the
     * arguments need no copy; only EXEC's reply is wanted.  The commands
     * go out back to back on this worker's connection, and Redis runs them
     * as one step at EXEC.
     */
    if (redisAsyncCommand(ac, NULL, NULL, "MULTI") != REDIS_OK) {
        goto failed;
    }

    for (i = 0; i < ncmd; i++) {
        if (redisAsyncCommandArgv(ac, NULL, NULL, argc[i], argv, argvlen)
            != REDIS_OK)
        {
            goto broken;
        }

        argv += argc[i];
        argvlen += argc[i];
    }

    if (redisAsyncCommand(ac, ngx_http_behave_redis_reply, cmd, "EXEC")
        != REDIS_OK)
    {
        goto broken;
    }

    ngx_http_behave_redis_track(r, cmd, cln);

    return NGX_OK;

broken:

    /* a MULTI without its EXEC would swallow the next commands */
    ngx_free(cmd);
    ngx_http_behave_redis_drop("a transaction could not be queued");
    *reason = "redis unavailable";
    return NGX_DECLINED;

failed:

    ngx_free(cmd);
    *reason = "redis unavailable";
    return NGX_DECLINED;
}


/*
 * A command of a request is on its way: time it out, and detach it when
 * the request goes first.
 */

static void
ngx_http_behave_redis_track(ngx_http_request_t *r,
    ngx_http_behave_redis_cmd_t *cmd, ngx_pool_cleanup_t *cln)
{
    cmd->cln = cln;
    cln->handler = ngx_http_behave_redis_request_gone;
    cln->data = cmd;

    cmd->timer.handler = ngx_http_behave_redis_cmd_timeout;
    cmd->timer.data = cmd;
    cmd->timer.log = r->connection->log;
    ngx_add_timer(&cmd->timer, ngx_http_behave_redis.bmcf->redis_timeout);

    /*
     * The body has been read: watch the connection while Redis works, so
     * a client that goes away ends the request (499) and its pool cleanup
     * detaches this command.
     */
    r->read_event_handler = ngx_http_test_reading;
}


ngx_int_t
ngx_http_behave_redis_command_bg(int argc, const char **argv,
    const size_t *argvlen, void (*done)(redisReply *reply, void *data),
    void *data)
{
    ngx_http_behave_redis_cmd_t  *cmd;

    if (ngx_http_behave_redis.state != NGX_HTTP_BEHAVE_REDIS_CONNECTED) {
        return NGX_DECLINED;
    }

    if (ngx_http_behave_redis.bg_pending >= NGX_HTTP_BEHAVE_REDIS_BG_MAX) {
        ngx_http_behave_redis_drop("background commands are not answered");
        return NGX_DECLINED;
    }

    cmd = ngx_http_behave_redis_cmd_new(NULL, 0, -1, argc, argv, argvlen);
    if (cmd == NULL) {
        return NGX_ERROR;
    }

    cmd->bg_done = done;
    cmd->data = data;
    cmd->name = "redis";

    if (redisAsyncCommandArgv(ngx_http_behave_redis.ac,
                              ngx_http_behave_redis_reply, cmd, cmd->argc,
                              (const char **) cmd->argv, cmd->argvlen)
        != REDIS_OK)
    {
        ngx_free(cmd);
        return NGX_ERROR;
    }

    ngx_http_behave_redis.bg_pending++;

    return NGX_OK;
}


/*
 * One allocation: the record, then skip + argc argv slots, their lengths
 * and copies of the arguments.  With nkeys >= 0 slot skip - 1 holds it.
 */

static ngx_http_behave_redis_cmd_t *
ngx_http_behave_redis_cmd_new(ngx_http_request_t *r, int skip, int nkeys,
    int argc, const char **argv, const size_t *argvlen)
{
    int                           i, n;
    u_char                       *p;
    size_t                        size;
    ngx_http_behave_redis_cmd_t  *cmd;

    n = skip + argc;
    size = sizeof(ngx_http_behave_redis_cmd_t)
           + n * (sizeof(char *) + sizeof(size_t)) + NGX_INT_T_LEN + 1;

    for (i = 0; i < argc; i++) {
        size += argvlen[i] + 1;
    }

    cmd = ngx_calloc(size, ngx_cycle->log);
    if (cmd == NULL) {
        return NULL;
    }

    cmd->request = r;
    cmd->argc = n;
    cmd->argv = (char **) (cmd + 1);
    cmd->argvlen = (size_t *) (cmd->argv + n);

    p = (u_char *) (cmd->argvlen + n);

    if (nkeys >= 0) {
        cmd->argv[skip - 1] = (char *) p;
        p = ngx_sprintf(p, "%d", nkeys);
        cmd->argvlen[skip - 1] = p - (u_char *) cmd->argv[skip - 1];
        *p++ = '\0';
    }

    for (i = 0; i < argc; i++) {
        cmd->argv[skip + i] = (char *) p;
        cmd->argvlen[skip + i] = argvlen[i];
        p = ngx_cpymem(p, argv[i], argvlen[i]);
        *p++ = '\0';
    }

    return cmd;
}


static void
ngx_http_behave_redis_cmd_free(ngx_http_behave_redis_cmd_t *cmd)
{
    if (cmd->timer.timer_set) {
        ngx_del_timer(&cmd->timer);
    }

    if (cmd->cln != NULL) {
        cmd->cln->handler = NULL;
    }

    ngx_free(cmd);
}


static ngx_int_t
ngx_http_behave_redis_send(ngx_http_behave_redis_cmd_t *cmd,
    const char *verb, const char *script)
{
    if (ngx_http_behave_redis.ac == NULL) {
        return NGX_ERROR;
    }

    cmd->argv[0] = (char *) verb;
    cmd->argvlen[0] = ngx_strlen(verb);
    cmd->argv[1] = (char *) script;
    cmd->argvlen[1] = ngx_strlen(script);

    /* the command's name, never its arguments (they may hold texts) */
    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis.log, 0,
                   "behave redis: send %s \"%s\", %d arguments", verb,
                   cmd->name ? cmd->name : "-", cmd->argc);

    if (redisAsyncCommandArgv(ngx_http_behave_redis.ac,
                              ngx_http_behave_redis_reply, cmd, cmd->argc,
                              (const char **) cmd->argv, cmd->argvlen)
        != REDIS_OK)
    {
        return NGX_ERROR;
    }

    return NGX_OK;
}


static void
ngx_http_behave_redis_reply(redisAsyncContext *ac, void *r, void *privdata)
{
    redisReply                   *reply = r;
    ngx_http_behave_redis_cmd_t  *cmd = privdata;

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis.log, 0,
                   "behave redis: reply to \"%s\": type %d%s",
                   cmd->name ? cmd->name : "-", reply ? reply->type : -1,
                   cmd->request == NULL && cmd->bg_done == NULL
                   ? ", its request is gone" : "");

    if (cmd->bg_done != NULL) {
        ngx_http_behave_redis.bg_pending--;
        cmd->bg_done(reply, cmd->data);
        ngx_http_behave_redis_cmd_free(cmd);
        return;
    }

    if (reply != NULL && reply->type == REDIS_REPLY_ERROR
        && cmd->script != NULL && !cmd->answered && cmd->request != NULL
        && ngx_strncmp(reply->str, "NOSCRIPT", 8) == 0)
    {
        /* the script cache was flushed or Redis restarted: load it again */
        if (ngx_http_behave_redis_send(cmd, "EVAL", cmd->script->source)
            == NGX_OK)
        {
            return;
        }
    }

    ngx_http_behave_redis_answer(cmd, reply,
                                 reply ? NULL : "disconnected");
    ngx_http_behave_redis_cmd_free(cmd);
}


static void
ngx_http_behave_redis_answer(ngx_http_behave_redis_cmd_t *cmd,
    redisReply *reply, const char *reason)
{
    ngx_connection_t    *c;
    ngx_http_request_t  *r;

    r = cmd->request;

    if (cmd->answered || r == NULL) {
        return;
    }

    cmd->answered = 1;

    if (cmd->timer.timer_set) {
        ngx_del_timer(&cmd->timer);
    }

    ngx_http_behave_span(r, cmd->name,
                         cmd->started_ms,
                         reason ? reason
                         : (reply->type == REDIS_REPLY_ERROR ? "redis error"
                                                             : NULL));

    c = r->connection;
    cmd->handler(r, cmd->data, reply, reason);
    ngx_http_run_posted_requests(c);
}


static void
ngx_http_behave_redis_cmd_timeout(ngx_event_t *ev)
{
    ngx_http_behave_redis_cmd_t  *cmd = ev->data;

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, ev->log, 0,
                   "behave redis: \"%s\" timed out",
                   cmd->name ? cmd->name : "-");

    ngx_http_behave_redis_answer(cmd, NULL, "timeout");

    /* frees cmd too: hiredis runs its callback with NULL */
    ngx_http_behave_redis_drop("a command timed out");
}


static void
ngx_http_behave_redis_request_gone(void *data)
{
    ngx_http_behave_redis_cmd_t  *cmd = data;

    /* the reply, when it comes, is dropped */
    cmd->request = NULL;
    cmd->cln = NULL;
    cmd->answered = 1;

    if (cmd->timer.timer_set) {
        ngx_del_timer(&cmd->timer);
    }
}


void
ngx_http_behave_redis_log_degraded(ngx_http_request_t *r, const char *what,
    const char *reason)
{
    time_t                    now;
    ngx_http_behave_redis_t  *rd;

    rd = &ngx_http_behave_redis;
    now = ngx_time();

    ngx_http_behave_stats_degraded();

    if (now - rd->degraded_logged < NGX_HTTP_BEHAVE_REDIS_LOG_INTERVAL) {
        rd->degraded_suppressed++;
        return;
    }

    ngx_log_error(NGX_LOG_WARN, r->connection->log, 0,
                  "behave: %s degraded: %s (%ui more in the last %ds)",
                  what, reason, rd->degraded_suppressed,
                  (int) (now - rd->degraded_logged < 3600
                         ? now - rd->degraded_logged : 0));

    rd->degraded_logged = now;
    rd->degraded_suppressed = 0;
}
