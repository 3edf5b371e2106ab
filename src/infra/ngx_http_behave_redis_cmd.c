/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The top of the adapter (ngx_http_behave_redis_node.h): the worker's
 * start and end, and the commands: routed to a node
 * (ngx_http_behave_redis_topology.c), written on its connection
 * (ngx_http_behave_redis.c), answered to their request or background
 * callback, redirected in a cluster.
 *
 * Rules, stated once:
 * - Each command carries a heap-allocated record: hiredis calls its
 *   callback exactly once (with NULL when the context is freed), and that
 *   callback either sends it again (a cluster redirect, NOSCRIPT) or frees
 *   it.  The request may go away first: its pool cleanup detaches the
 *   record, and the late reply is dropped.
 * - A command that outlives behave_redis_timeout answers its request as
 *   "timeout" and its connection is dropped: a Redis that accepts but
 *   never answers would otherwise pile up commands.
 * - Cluster: a MOVED reply updates the slot map and the command goes to
 *   the node named; ASK sends it there once after ASKING; TRYAGAIN (keys
 *   of one slot split by a migration in progress) waits 20ms.  The first
 *   two redirects are followed at once, later ones after 20ms each: two
 *   nodes that both redirect (the moments a migration's new owner is
 *   being announced node by node) agree within a few milliseconds.  At
 *   most NGX_HTTP_BEHAVE_REDIS_REDIRECTS redirects a command.
 */


#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_node.h"
#include "ngx_http_behave_stats.h"
#include "ngx_http_behave_util.h"


#define NGX_HTTP_BEHAVE_REDIS_LOG_INTERVAL  10

/* a command's debug lines go to its request's log, if it has one */
#define ngx_http_behave_redis_cmd_log(cmd)                                    \
    ((cmd)->request ? (cmd)->request->connection->log                          \
                    : ngx_http_behave_redis.log)
#define NGX_HTTP_BEHAVE_REDIS_REDIRECTS     8
#define NGX_HTTP_BEHAVE_REDIS_AT_ONCE       2
#define NGX_HTTP_BEHAVE_REDIS_TRYAGAIN      20

/*
 * Background commands (metering flushes, heartbeats, traces) have no
 * request to time out: past this many unanswered ones on a connection,
 * new ones are shed until Redis catches up.
 */
#define NGX_HTTP_BEHAVE_REDIS_BG_MAX        256
/* bytes of the formatting buffer a worker keeps between commands */
#define NGX_HTTP_BEHAVE_REDIS_FMT_KEEP      65536


typedef struct {
    ngx_http_request_t             *request;      /* NULL once detached */
    ngx_http_behave_redis_pt        handler;
    void                           *data;
    void                          (*bg_done)(redisReply *reply, void *data);
    ngx_event_t                     timer;
    ngx_event_t                     retry;        /* TRYAGAIN */
    double                          started_ms;   /* for the trace span */
    ngx_pool_cleanup_t             *cln;          /* of the request */
    ngx_uint_t                      answered;
    const char                     *name;         /* of the span */

    ngx_http_behave_redis_node_t   *node;         /* sent to, or to be */
    ngx_uint_t                      redirects;

    /* the whole command, kept for NOSCRIPT and redirects */
    ngx_http_behave_redis_script_t *script;
    int                             argc;
    char                          **argv;
    size_t                         *argvlen;
    ngx_uint_t                      ncmd;         /* MULTI: commands */
    int                            *cmd_argc;
    int                             key;          /* argv index, or -1 */

    /* MULTI: the redirect a queued command got (EXEC then aborts) */
    u_char                          moved[NGX_HTTP_BEHAVE_REDIS_ADDR_LEN];

    unsigned                        eval:1;       /* EVAL, not EVALSHA */
    unsigned                        asking:1;     /* at the next send */
    unsigned                        asked:1;      /* at the last one */
} ngx_http_behave_redis_cmd_t;


static ngx_http_behave_redis_cmd_t *ngx_http_behave_redis_cmd_new(
    ngx_http_request_t *r, int skip, int nkeys, ngx_uint_t ncmd,
    const int *cmd_argc, int argc, const char **argv, const size_t *argvlen);
static void ngx_http_behave_redis_cmd_free(ngx_http_behave_redis_cmd_t *cmd);
static int ngx_http_behave_redis_key_index(int argc, const char **argv,
    const size_t *argvlen);
static ngx_http_behave_redis_cmd_t *ngx_http_behave_redis_cmd_of(
    ngx_http_request_t *r, int skip, int nkeys, ngx_uint_t ncmd,
    const int *cmd_argc, int argc, const char **argv, const size_t *argvlen,
    ngx_http_behave_redis_pt handler, void *data, const char **reason);
static ngx_int_t ngx_http_behave_redis_launch(ngx_http_request_t *r,
    ngx_http_behave_redis_cmd_t *cmd, const char **reason);
static ngx_int_t ngx_http_behave_redis_start(
    ngx_http_behave_redis_cmd_t *cmd, const char **reason);
static ngx_int_t ngx_http_behave_redis_send(ngx_http_behave_redis_cmd_t *cmd);
static void ngx_http_behave_redis_reply(redisAsyncContext *ac, void *reply,
    void *privdata);
static void ngx_http_behave_redis_queued(redisAsyncContext *ac, void *reply,
    void *privdata);
static ngx_int_t ngx_http_behave_redis_redirect(
    ngx_http_behave_redis_cmd_t *cmd, u_char *err, size_t len);
static void ngx_http_behave_redis_retry_handler(ngx_event_t *ev);
static void ngx_http_behave_redis_finish(ngx_http_behave_redis_cmd_t *cmd,
    redisReply *reply, const char *reason);
static void ngx_http_behave_redis_answer(ngx_http_behave_redis_cmd_t *cmd,
    redisReply *reply, const char *reason);
static void ngx_http_behave_redis_cmd_timeout(ngx_event_t *ev);
static void ngx_http_behave_redis_request_gone(void *data);
static u_char *ngx_http_behave_redis_num(u_char *p, size_t n);
static u_char *ngx_http_behave_redis_format(u_char *buf, int argc,
    const char **argv, const size_t *argvlen);
static int ngx_http_behave_redis_argv(redisAsyncContext *ac,
    redisCallbackFn *fn, void *privdata, int argc, const char **argv,
    const size_t *argvlen);


/*
 * argv[] of a script command is laid out as
 *     EVALSHA|EVAL, sha1|source, numkeys, keys..., args...
 * the first two are set at each send (static strings); the rest is copied
 * so that the EVAL that follows a NOSCRIPT, or a redirected command, can
 * still be sent.
 */

ngx_int_t
ngx_http_behave_redis_eval(ngx_http_request_t *r,
    ngx_http_behave_redis_script_t *script, int nkeys, int argc,
    const char **argv, const size_t *argvlen,
    ngx_http_behave_redis_pt handler, void *data, const char **reason)
{
    ngx_http_behave_redis_cmd_t  *cmd;

    cmd = ngx_http_behave_redis_cmd_of(r, 3, nkeys, 0, NULL, argc, argv,
                                       argvlen, handler, data, reason);
    if (cmd == NULL) {
        return NGX_DECLINED;
    }

    cmd->script = script;
    cmd->name = script->name;
    cmd->key = nkeys > 0 ? 3 : -1;

    return ngx_http_behave_redis_launch(r, cmd, reason);
}


ngx_int_t
ngx_http_behave_redis_multi(ngx_http_request_t *r, const char *name,
    ngx_uint_t ncmd, const int *argc, const char **argv,
    const size_t *argvlen, ngx_http_behave_redis_pt handler, void *data,
    const char **reason)
{
    int                           total;
    ngx_uint_t                    i;
    ngx_http_behave_redis_cmd_t  *cmd;

    total = 0;

    for (i = 0; i < ncmd; i++) {
        total += argc[i];
    }

    cmd = ngx_http_behave_redis_cmd_of(r, 0, -1, ncmd, argc, total, argv,
                                       argvlen, handler, data, reason);
    if (cmd == NULL) {
        return NGX_DECLINED;
    }

    cmd->name = name;
    cmd->key = argc[0] > 1 ? 1 : -1;

    return ngx_http_behave_redis_launch(r, cmd, reason);
}


ngx_int_t
ngx_http_behave_redis_command(ngx_http_request_t *r, const char *name,
    int argc, const char **argv, const size_t *argvlen,
    ngx_http_behave_redis_pt handler, void *data, const char **reason)
{
    ngx_http_behave_redis_cmd_t  *cmd;

    cmd = ngx_http_behave_redis_cmd_of(r, 0, -1, 0, NULL, argc, argv,
                                       argvlen, handler, data, reason);
    if (cmd == NULL) {
        return NGX_DECLINED;
    }

    cmd->name = name;
    cmd->key = ngx_http_behave_redis_key_index(argc, argv, argvlen);

    return ngx_http_behave_redis_launch(r, cmd, reason);
}


/*
 * The record of a request's command (ngx_http_behave_redis_cmd_new()'s
 * arguments), with the pool cleanup that will detach it made now: once
 * sent, nothing may fail for want of memory.  NULL with *reason set.
 */

static ngx_http_behave_redis_cmd_t *
ngx_http_behave_redis_cmd_of(ngx_http_request_t *r, int skip, int nkeys,
    ngx_uint_t ncmd, const int *cmd_argc, int argc, const char **argv,
    const size_t *argvlen, ngx_http_behave_redis_pt handler, void *data,
    const char **reason)
{
    ngx_pool_cleanup_t           *cln;
    ngx_http_behave_redis_cmd_t  *cmd;

    if (ngx_http_behave_redis.nnodes == 0) {
        *reason = "redis unavailable";
        return NULL;
    }

    cln = ngx_pool_cleanup_add(r->pool, 0);
    cmd = ngx_http_behave_redis_cmd_new(r, skip, nkeys, ncmd, cmd_argc, argc,
                                        argv, argvlen);

    if (cln == NULL || cmd == NULL) {
        if (cmd != NULL) {
            ngx_free(cmd);
        }

        *reason = "out of memory";
        return NULL;
    }

    /* its handler is set once the command is on its way */
    cmd->cln = cln;
    cmd->handler = handler;
    cmd->data = data;

    return cmd;
}


/*
 * Sends a request's command; once on its way, time it out, and detach it
 * when the request goes first.
 */

static ngx_int_t
ngx_http_behave_redis_launch(ngx_http_request_t *r,
    ngx_http_behave_redis_cmd_t *cmd, const char **reason)
{
    if (ngx_http_behave_redis_start(cmd, reason) != NGX_OK) {
        ngx_free(cmd);
        return NGX_DECLINED;
    }

    cmd->cln->handler = ngx_http_behave_redis_request_gone;
    cmd->cln->data = cmd;

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

    return NGX_OK;
}


ngx_str_t *
ngx_http_behave_redis_key(ngx_http_request_t *r, const char *prefix,
    const char *tenant, const char *what, const char *id, size_t id_len)
{
    u_char     *p;
    size_t      len;
    ngx_str_t  *key;

    key = ngx_palloc(r->pool, sizeof(ngx_str_t));
    if (key == NULL) {
        return NULL;
    }

    /* the prefix's "%s" leaves room for the NUL */
    len = ngx_strlen(prefix) + ngx_strlen(tenant) + ngx_strlen(what) + id_len;

    p = ngx_pnalloc(r->pool, len);
    if (p == NULL) {
        return NULL;
    }

    key->data = p;
    p = ngx_sprintf(p, prefix, tenant);
    p = ngx_sprintf(p, "%s%*s", what, id_len, id);
    *p = '\0';
    key->len = p - key->data;

    return key;
}


ngx_int_t
ngx_http_behave_redis_command_bg(int argc, const char **argv,
    const size_t *argvlen, void (*done)(redisReply *reply, void *data),
    void *data)
{
    const char                   *reason;
    ngx_http_behave_redis_cmd_t  *cmd;

    if (ngx_http_behave_redis.nnodes == 0) {
        return NGX_DECLINED;
    }

    cmd = ngx_http_behave_redis_cmd_new(NULL, 0, -1, 0, NULL, argc, argv,
                                        argvlen);
    if (cmd == NULL) {
        return NGX_ERROR;
    }

    cmd->bg_done = done;
    cmd->data = data;
    cmd->name = "redis";
    cmd->key = ngx_http_behave_redis_key_index(argc, argv, argvlen);

    if (ngx_http_behave_redis_start(cmd, &reason) != NGX_OK) {
        ngx_free(cmd);
        return NGX_DECLINED;
    }

    return NGX_OK;
}


/*
 * A script with no request behind it, by EVALSHA (EVAL again after
 * NOSCRIPT, as a request's): argv holds its keys and arguments
 */

ngx_int_t
ngx_http_behave_redis_eval_bg(ngx_http_behave_redis_script_t *script,
    int nkeys, int argc, const char **argv, const size_t *argvlen,
    void (*done)(redisReply *reply, void *data), void *data)
{
    const char                   *reason;
    ngx_http_behave_redis_cmd_t  *cmd;

    if (ngx_http_behave_redis.nnodes == 0) {
        return NGX_DECLINED;
    }

    cmd = ngx_http_behave_redis_cmd_new(NULL, 3, nkeys, 0, NULL, argc, argv,
                                        argvlen);
    if (cmd == NULL) {
        return NGX_ERROR;
    }

    cmd->bg_done = done;
    cmd->data = data;
    cmd->script = script;
    cmd->name = script->name;
    cmd->key = nkeys > 0 ? 3 : -1;

    if (ngx_http_behave_redis_start(cmd, &reason) != NGX_OK) {
        ngx_free(cmd);
        return NGX_DECLINED;
    }

    return NGX_OK;
}


/*
 * Where a plain command's key is: argv[1], or argv[3] for EVAL and
 * EVALSHA (script, numkeys, keys...); -1 for none.
 */

static int
ngx_http_behave_redis_key_index(int argc, const char **argv,
    const size_t *argvlen)
{
    if (argc < 2) {
        return -1;
    }

    if ((argvlen[0] == 4 && ngx_strncasecmp((u_char *) argv[0],
                                            (u_char *) "EVAL", 4) == 0)
        || (argvlen[0] == 7 && ngx_strncasecmp((u_char *) argv[0],
                                               (u_char *) "EVALSHA", 7) == 0))
    {
        return (argc > 3 && !(argvlen[2] == 1 && argv[2][0] == '0')) ? 3
                                                                     : -1;
    }

    return 1;
}


/*
 * One allocation: the record, the MULTI's argument counts, then skip +
 * argc argv slots, their lengths and copies of the arguments.  With
 * nkeys >= 0 slot skip - 1 holds it.
 */

static ngx_http_behave_redis_cmd_t *
ngx_http_behave_redis_cmd_new(ngx_http_request_t *r, int skip, int nkeys,
    ngx_uint_t ncmd, const int *cmd_argc, int argc, const char **argv,
    const size_t *argvlen)
{
    int                           i, n;
    u_char                       *p;
    size_t                        size;
    ngx_http_behave_redis_cmd_t  *cmd;

    n = skip + argc;
    size = sizeof(ngx_http_behave_redis_cmd_t) + ncmd * sizeof(int)
           + n * (sizeof(char *) + sizeof(size_t)) + NGX_INT_T_LEN + 1
           + sizeof(void *);

    for (i = 0; i < argc; i++) {
        size += argvlen[i] + 1;
    }

    cmd = ngx_calloc(size, ngx_cycle->log);
    if (cmd == NULL) {
        return NULL;
    }

    cmd->request = r;
    cmd->argc = n;
    cmd->argv = (char **) ngx_align_ptr(cmd + 1, sizeof(void *));
    cmd->argvlen = (size_t *) (cmd->argv + n);
    cmd->cmd_argc = (int *) (cmd->argvlen + n);
    cmd->ncmd = ncmd;

    for (i = 0; i < (int) ncmd; i++) {
        cmd->cmd_argc[i] = cmd_argc[i];
    }

    p = (u_char *) (cmd->cmd_argc + ncmd);

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

    cmd->retry.handler = ngx_http_behave_redis_retry_handler;
    cmd->retry.data = cmd;
    cmd->retry.log = ngx_cycle->log;
    cmd->retry.cancelable = 1;

    return cmd;
}


static void
ngx_http_behave_redis_cmd_free(ngx_http_behave_redis_cmd_t *cmd)
{
    if (cmd->timer.timer_set) {
        ngx_del_timer(&cmd->timer);
    }

    if (cmd->retry.timer_set) {
        ngx_del_timer(&cmd->retry);
    }

    if (cmd->cln != NULL) {
        cmd->cln->handler = NULL;
    }

    ngx_free(cmd);
}


/* routes a new command and sends it */

static ngx_int_t
ngx_http_behave_redis_start(ngx_http_behave_redis_cmd_t *cmd,
    const char **reason)
{
    ngx_http_behave_redis_node_t  *node;

    node = cmd->key >= 0
           ? ngx_http_behave_redis_route(cmd->argv[cmd->key],
                                         cmd->argvlen[cmd->key])
           : ngx_http_behave_redis_route(NULL, 0);

    if (node == NULL || node->ac == NULL) {
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis_cmd_log(cmd),
                       0, "behave redis: \"%s\": no node up for its key",
                       cmd->name ? cmd->name : "-");
        *reason = "redis unavailable";
        return NGX_DECLINED;
    }

    if (cmd->bg_done != NULL
        && node->bg_pending >= NGX_HTTP_BEHAVE_REDIS_BG_MAX)
    {
        ngx_log_debug2(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis.log, 0,
                       "behave redis: background command shed, \"%s\" has "
                       "%ui unanswered", node->addr, node->bg_pending);
        ngx_http_behave_stats_redis_bg_shed();
        *reason = "background budget";
        return NGX_DECLINED;
    }

    cmd->node = node;
    cmd->started_ms = ngx_http_behave_now_ms();

    if (ngx_http_behave_redis_send(cmd) != NGX_OK) {
        *reason = "redis unavailable";
        return NGX_DECLINED;
    }

    return NGX_OK;
}


/* writes the command into cmd->node's output buffer */

static ngx_int_t
ngx_http_behave_redis_send(ngx_http_behave_redis_cmd_t *cmd)
{
    char                          **argv;
    size_t                         *argvlen;
    ngx_uint_t                      i;
    redisAsyncContext              *ac;
    redisCallbackFn                *fn;

    ac = cmd->node->ac;

    if (ac == NULL) {
        return NGX_ERROR;
    }

    /* the command's name, never its arguments (they may hold texts) */
    ngx_log_debug4(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis_cmd_log(cmd), 0,
                   "behave redis: send \"%s\" to \"%s\", %d arguments%s",
                   cmd->name ? cmd->name : "-", cmd->node->addr, cmd->argc,
                   cmd->asking ? ", after ASKING" : "");

    cmd->asked = cmd->asking;

    if (cmd->asking) {
        cmd->asking = 0;

        if (redisAsyncCommand(ac, NULL, NULL, "ASKING") != REDIS_OK) {
            return NGX_ERROR;
        }
    }

    if (cmd->script != NULL) {
        cmd->argv[0] = (char *) (cmd->eval ? "EVAL" : "EVALSHA");
        cmd->argvlen[0] = ngx_strlen(cmd->argv[0]);
        cmd->argv[1] = (char *) (cmd->eval ? cmd->script->source
                                           : cmd->script->sha1);
        cmd->argvlen[1] = ngx_strlen(cmd->argv[1]);
    }

    if (cmd->ncmd == 0) {
        if (ngx_http_behave_redis_argv(ac, ngx_http_behave_redis_reply, cmd,
                                       cmd->argc, (const char **) cmd->argv,
                                       cmd->argvlen)
            != REDIS_OK)
        {
            return NGX_ERROR;
        }

        goto sent;
    }

    /*
     * MULTI: hiredis formats each command into its output buffer at once;
     * only EXEC's reply is wanted, and the first command's, which tells a
     * redirect (EXEC then answers EXECABORT).  The commands go out back to
     * back, and Redis runs them as one step at EXEC.
     */
    cmd->moved[0] = '\0';

    if (redisAsyncCommand(ac, NULL, NULL, "MULTI") != REDIS_OK) {
        return NGX_ERROR;
    }

    argv = cmd->argv;
    argvlen = cmd->argvlen;

    for (i = 0; i < cmd->ncmd; i++) {
        fn = i == 0 ? ngx_http_behave_redis_queued : NULL;

        if (ngx_http_behave_redis_argv(ac, fn, i == 0 ? cmd : NULL,
                                       cmd->cmd_argc[i], (const char **) argv,
                                       argvlen)
            != REDIS_OK)
        {
            goto broken;
        }

        argv += cmd->cmd_argc[i];
        argvlen += cmd->cmd_argc[i];
    }

    if (redisAsyncCommand(ac, ngx_http_behave_redis_reply, cmd, "EXEC")
        != REDIS_OK)
    {
        goto broken;
    }

sent:

    if (cmd->bg_done != NULL) {
        cmd->node->bg_pending++;
    }

    return NGX_OK;

broken:

    /*
     * A MULTI without its EXEC would swallow the next commands.  The
     * queued callback may already hold cmd: dropping the connection runs
     * it with NULL, which it ignores; cmd stays the caller's.
     */
    ngx_http_behave_redis_node_drop(cmd->node,
                                    "a transaction could not be queued");
    return NGX_ERROR;
}


/* n in decimal, then CRLF (ngx_sprintf() parses its format each time) */

static u_char *
ngx_http_behave_redis_num(u_char *p, size_t n)
{
    u_char   tmp[NGX_SIZE_T_LEN];
    u_char  *t;

    t = tmp + NGX_SIZE_T_LEN;

    do {
        *--t = (u_char) ('0' + n % 10);
        n /= 10;
    } while (n != 0);

    p = ngx_cpymem(p, t, tmp + NGX_SIZE_T_LEN - t);
    *p++ = '\r';
    *p++ = '\n';

    return p;
}


/*
 * redisAsyncCommandArgv(), formatted here: hiredis 0.14 formats each
 * argument's "$<len>" with sdscatfmt() into a new sds string of its own,
 * about 400 instructions an argument (a flagged conversation turn sends
 * 45 of them in two commands: ~20k instructions a turn, callgrind).  One
 * buffer a worker, grown when needed, then one copy into hiredis' output
 * buffer.
 */

/* the commands' formatting buffer, kept from one command to the next */
static u_char  *ngx_http_behave_redis_fmt;
static size_t   ngx_http_behave_redis_fmt_cap;


/* the worker's connections, through the topology of its mode */

ngx_int_t
ngx_http_behave_redis_init_process(ngx_cycle_t *cycle)
{
    ngx_http_behave_main_conf_t  *bmcf;

    bmcf = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_behave_module);

    if (bmcf == NULL || bmcf->redis.len == 0) {
        return NGX_OK;
    }

    ngx_http_behave_redis_nodes_init(cycle, bmcf);
    ngx_http_behave_redis_topology_start();

    return NGX_OK;
}


/* at the worker's exit (the module's .so is unloaded after it) */

void
ngx_http_behave_redis_exit_process(ngx_cycle_t *cycle)
{
    if (ngx_http_behave_redis.bmcf == NULL) {
        return;
    }

    ngx_http_behave_redis_topology_stop();
    ngx_http_behave_redis_nodes_close();

    ngx_free(ngx_http_behave_redis_fmt);
    ngx_http_behave_redis_fmt = NULL;
    ngx_http_behave_redis_fmt_cap = 0;
}


static int
ngx_http_behave_redis_argv(redisAsyncContext *ac, redisCallbackFn *fn,
    void *privdata, int argc, const char **argv, const size_t *argvlen)
{
    int      i;
    u_char  *p, *buf;
    size_t   need;

    need = 1 + NGX_INT_T_LEN + 2;

    for (i = 0; i < argc; i++) {
        need += 1 + NGX_SIZE_T_LEN + 2 + argvlen[i] + 2;
    }

    /*
     * a large command (a webhook call's turns) is formatted in a buffer of
     * its own, freed at once: the kept buffer stays small, so a worker's
     * memory does not keep the largest command it ever sent
     */
    if (need > NGX_HTTP_BEHAVE_REDIS_FMT_KEEP) {
        buf = ngx_alloc(need, ngx_cycle->log);
        if (buf == NULL) {
            return REDIS_ERR;
        }

        p = ngx_http_behave_redis_format(buf, argc, argv, argvlen);
        i = redisAsyncFormattedCommand(ac, fn, privdata, (const char *) buf,
                                       p - buf);
        ngx_free(buf);

        return i;
    }

    if (need > ngx_http_behave_redis_fmt_cap) {
        ngx_free(ngx_http_behave_redis_fmt);
        ngx_http_behave_redis_fmt_cap = ngx_max(need, 4096);
        ngx_http_behave_redis_fmt = ngx_alloc(ngx_http_behave_redis_fmt_cap,
                                              ngx_cycle->log);

        if (ngx_http_behave_redis_fmt == NULL) {
            ngx_http_behave_redis_fmt_cap = 0;
            return REDIS_ERR;
        }
    }

    buf = ngx_http_behave_redis_fmt;
    p = ngx_http_behave_redis_format(buf, argc, argv, argvlen);

    return redisAsyncFormattedCommand(ac, fn, privdata, (const char *) buf,
                                      p - buf);
}


/* the command in Redis' protocol; returns the end */
static u_char *
ngx_http_behave_redis_format(u_char *buf, int argc, const char **argv,
    const size_t *argvlen)
{
    int      i;
    u_char  *p;

    *buf = '*';
    p = ngx_http_behave_redis_num(buf + 1, (size_t) argc);

    for (i = 0; i < argc; i++) {
        *p = '$';
        p = ngx_http_behave_redis_num(p + 1, argvlen[i]);
        p = ngx_cpymem(p, argv[i], argvlen[i]);
        *p++ = '\r';
        *p++ = '\n';
    }

    return p;
}


static void
ngx_http_behave_redis_queued(redisAsyncContext *ac, void *r, void *privdata)
{
    redisReply                   *reply = r;
    ngx_http_behave_redis_cmd_t  *cmd = privdata;

    if (reply != NULL && reply->type == REDIS_REPLY_ERROR) {
        (void) ngx_cpystrn(cmd->moved, (u_char *) reply->str,
                           ngx_min(reply->len + 1, sizeof(cmd->moved)));
    }
}


static void
ngx_http_behave_redis_reply(redisAsyncContext *ac, void *r, void *privdata)
{
    u_char                       *err;
    size_t                        len;
    redisReply                   *reply = r;
    ngx_http_behave_redis_cmd_t  *cmd = privdata;

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis_cmd_log(cmd), 0,
                   "behave redis: reply to \"%s\": type %d%s",
                   cmd->name ? cmd->name : "-", reply ? reply->type : -1,
                   cmd->request == NULL && cmd->bg_done == NULL
                   ? ", its request is gone" : "");

    if (cmd->bg_done != NULL) {
        cmd->node->bg_pending--;
    }

    if (reply == NULL) {
        ngx_http_behave_redis_finish(cmd, NULL, "disconnected");
        return;
    }

    if (reply->type != REDIS_REPLY_ERROR
        || (cmd->answered && cmd->bg_done == NULL))
    {
        ngx_http_behave_redis_finish(cmd, reply, NULL);
        return;
    }

    err = (u_char *) reply->str;
    len = reply->len;

    if (cmd->script != NULL && !cmd->eval
        && ngx_strncmp(err, "NOSCRIPT", 8) == 0)
    {
        /* the script cache was flushed or Redis restarted: load it again */
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis_cmd_log(cmd),
                       0, "behave redis: NOSCRIPT for \"%s\", sent by EVAL",
                       cmd->name ? cmd->name : "-");
        cmd->eval = 1;

        if (ngx_http_behave_redis_send(cmd) == NGX_OK) {
            return;
        }
    }

    if (cmd->ncmd && cmd->moved[0] && ngx_strncmp(err, "EXECABORT", 9) == 0) {
        err = cmd->moved;
        len = ngx_strlen(err);
    }

    if (ngx_http_behave_redis_redirect(cmd, err, len) == NGX_OK) {
        return;
    }

    if (ngx_strncmp(err, "READONLY", 8) == 0) {
        /* a replica now: the sentinels know the new master */
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis_cmd_log(cmd),
                       0, "behave redis: \"%s\" is read-only now",
                       cmd->node->addr);
        ngx_http_behave_redis_readonly();
    }

    ngx_http_behave_redis_finish(cmd, reply, NULL);
}


/*
 * "MOVED <slot> <ip:port>", "ASK <slot> <ip:port>", "TRYAGAIN ...":
 * NGX_OK when the command is on its way again.
 */

static ngx_int_t
ngx_http_behave_redis_redirect(ngx_http_behave_redis_cmd_t *cmd, u_char *err,
    size_t len)
{
    u_char                        *p, *last, *addr;
    ngx_int_t                      slot;
    ngx_uint_t                     ask;
    ngx_http_behave_redis_node_t  *node;

    if (ngx_http_behave_redis.mode != NGX_HTTP_BEHAVE_REDIS_CLUSTER
        || cmd->redirects >= NGX_HTTP_BEHAVE_REDIS_REDIRECTS)
    {
        return NGX_DECLINED;
    }

    if (len >= 8 && ngx_strncmp(err, "TRYAGAIN", 8) == 0) {
        /* the same node again, as it was asked (ASKING or not) */
        ngx_log_debug2(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis_cmd_log(cmd),
                       0, "behave redis: TRYAGAIN for \"%s\", redirect %ui",
                       cmd->name ? cmd->name : "-", cmd->redirects + 1);
        cmd->redirects++;
        cmd->asking = cmd->asked;
        ngx_add_timer(&cmd->retry, NGX_HTTP_BEHAVE_REDIS_TRYAGAIN);
        return NGX_OK;
    }

    if (len > 6 && ngx_strncmp(err, "MOVED ", 6) == 0) {
        ask = 0;
        p = err + 6;

    } else if (len > 4 && ngx_strncmp(err, "ASK ", 4) == 0) {
        ask = 1;
        p = err + 4;

    } else {
        return NGX_DECLINED;
    }

    last = err + len;
    addr = ngx_strlchr(p, last, ' ');

    if (addr == NULL) {
        return NGX_DECLINED;
    }

    slot = ngx_atoi(p, addr - p);
    addr++;

    if (slot < 0 || slot >= NGX_HTTP_BEHAVE_REDIS_SLOTS || addr == last) {
        return NGX_DECLINED;
    }

    if (ask) {
        node = ngx_http_behave_redis_node_add(addr, last - addr,
                                              NGX_HTTP_BEHAVE_REDIS_ROLE_DATA);
        if (node != NULL && node->ac == NULL) {
            ngx_http_behave_redis_node_connect(node);
        }

    } else {
        node = ngx_http_behave_redis_moved(slot, addr, last - addr);
    }

    ngx_log_debug4(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis_cmd_log(cmd), 0,
                   "behave redis: %s slot %i to \"%s\"%s",
                   ask ? "ASK" : "MOVED", slot,
                   node ? node->addr : (u_char *) "-",
                   node && node->ac ? "" : ", not connected");

    if (node == NULL || node->ac == NULL) {
        return NGX_DECLINED;
    }

    cmd->redirects++;
    cmd->node = node;
    cmd->asking = ask;
    ngx_http_behave_stats_redis_redirect();

    if (cmd->redirects > NGX_HTTP_BEHAVE_REDIS_AT_ONCE) {
        ngx_add_timer(&cmd->retry, NGX_HTTP_BEHAVE_REDIS_TRYAGAIN);
        return NGX_OK;
    }

    if (ngx_http_behave_redis_send(cmd) != NGX_OK) {
        return NGX_DECLINED;
    }

    return NGX_OK;
}


static void
ngx_http_behave_redis_retry_handler(ngx_event_t *ev)
{
    const char                   *reason;
    ngx_http_behave_redis_cmd_t  *cmd = ev->data;

    if (cmd->request == NULL && cmd->bg_done == NULL) {
        ngx_http_behave_redis_cmd_free(cmd);
        return;
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis_cmd_log(cmd), 0,
                   "behave redis: \"%s\" sent again, to \"%s\"",
                   cmd->name ? cmd->name : "-",
                   cmd->node->ac ? cmd->node->addr : (u_char *) "the map");

    /* to the node the redirect named, or to whatever the map says now */
    if (cmd->node->ac != NULL) {
        if (ngx_http_behave_redis_send(cmd) == NGX_OK) {
            return;
        }

        reason = "redis unavailable";

    } else if (ngx_http_behave_redis_start(cmd, &reason) == NGX_OK) {
        return;
    }

    ngx_http_behave_redis_finish(cmd, NULL, reason);
}


/* the command's last word: to its request or its background callback */

static void
ngx_http_behave_redis_finish(ngx_http_behave_redis_cmd_t *cmd,
    redisReply *reply, const char *reason)
{
    if (cmd->bg_done != NULL) {
        cmd->bg_done(reply, cmd->data);

    } else {
        ngx_http_behave_redis_answer(cmd, reply, reason);
    }

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

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave redis: \"%s\" answered in %.3f ms%s",
                   cmd->name ? cmd->name : "-",
                   ngx_http_behave_now_ms() - cmd->started_ms,
                   reason ? ", without a reply" : "");

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

    if (cmd->retry.timer_set) {
        /* waiting to be sent again (TRYAGAIN): hiredis does not hold it */
        ngx_http_behave_redis_cmd_free(cmd);
        return;
    }

    /* frees cmd too: hiredis runs its callback with NULL */
    ngx_http_behave_redis_node_drop(cmd->node, "a command timed out");
}


static void
ngx_http_behave_redis_request_gone(void *data)
{
    ngx_http_behave_redis_cmd_t  *cmd = data;

    /* the reply, when it comes, is dropped */
    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, ngx_http_behave_redis.log, 0,
                   "behave redis: the request of \"%s\" is gone",
                   cmd->name ? cmd->name : "-");

    cmd->request = NULL;
    cmd->cln = NULL;
    cmd->answered = 1;

    if (cmd->timer.timer_set) {
        ngx_del_timer(&cmd->timer);
    }

    if (cmd->retry.timer_set) {
        /* waiting to be sent again: hiredis does not hold it */
        ngx_http_behave_redis_cmd_free(cmd);
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
