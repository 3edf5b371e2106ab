/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The Redis path: hiredis async connections driven by nginx's event loop,
 * one per worker to a single Redis (the default), to each master of a
 * Redis Cluster, or to the master the sentinels name.
 */

#ifndef NGX_HTTP_BEHAVE_REDIS_H
#define NGX_HTTP_BEHAVE_REDIS_H

#include <hiredis/hiredis.h>
#include <hiredis/async.h>

#include "ngx_http_behave_common.h"


/* behave_redis's forms (bmcf->redis_mode) */
#define NGX_HTTP_BEHAVE_REDIS_SINGLE     0
#define NGX_HTTP_BEHAVE_REDIS_CLUSTER    1
#define NGX_HTTP_BEHAVE_REDIS_SENTINEL   2


/*
 * Called exactly once per command that was accepted: with the reply, or
 * with reply == NULL and a short reason ("timeout", "disconnected") when
 * there will be none.  Never called once the request is gone.
 */
typedef void (*ngx_http_behave_redis_pt)(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason);


/*
 * A Redis script: each is a .lua file beside the C that runs it, compiled
 * in by scripts/gen-redis-scripts, which also gives its keys and
 * arguments their slots (ngx_http_behave_<stem>_lua.h): keys first, then
 * the arguments, then any rest.
 */
typedef struct {
    const char                 *name;         /* the trace span's */
    const char                 *source;
    char                        sha1[41];
    int                         nkeys;
    int                         nkeys_min;    /* the rest are optional */
    int                         slots;        /* keys and named arguments */
    uint64_t                    optional;     /* a bit a slot */
    unsigned                    rest:1;       /* more arguments may follow */
} ngx_http_behave_redis_script_t;


ngx_int_t ngx_http_behave_redis_init_process(ngx_cycle_t *cycle);
void ngx_http_behave_redis_exit_process(ngx_cycle_t *cycle);

char *ngx_http_behave_redis_parse_address(ngx_conf_t *cf, ngx_str_t *addr);

/*
 * behave_redis ADDRESS | cluster ADDRESS... | sentinel NAME ADDRESS...;
 * behave_redis_auth / behave_sentinel_auth [USER] PASSWORD;
 */
char *ngx_http_behave_redis_conf(ngx_conf_t *cf,
    ngx_http_behave_main_conf_t *bmcf);
char *ngx_http_behave_redis_auth_conf(ngx_conf_t *cf, ngx_str_t *user,
    ngx_str_t *password);

/*
 * Sends EVALSHA (EVAL again after NOSCRIPT).  NGX_OK when the command is
 * on its way and the handler will run; NGX_DECLINED with *reason set when
 * Redis is not available now (the caller answers degraded at once).
 */
ngx_int_t ngx_http_behave_redis_eval(ngx_http_request_t *r,
    ngx_http_behave_redis_script_t *script, int nkeys, int argc,
    const char **argv, const size_t *argvlen,
    ngx_http_behave_redis_pt handler, void *data, const char **reason);

/*
 * Sends MULTI, ncmd commands (argc[i] arguments each, one after another in
 * argv and argvlen) and EXEC: several steps made atomic without a script.
 * The handler gets EXEC's reply, an array with each command's reply; the
 * contract is that of ngx_http_behave_redis_eval().  name is the trace
 * span's.
 */
ngx_int_t ngx_http_behave_redis_multi(ngx_http_request_t *r,
    const char *name, ngx_uint_t ncmd, const int *argc, const char **argv,
    const size_t *argvlen, ngx_http_behave_redis_pt handler, void *data,
    const char **reason);

/*
 * One command of a request; argv[1] is its key (EVAL and EVALSHA: the
 * first of their keys; none: any node).  The
 * contract is that of ngx_http_behave_redis_eval(); name is the span's.
 */
ngx_int_t ngx_http_behave_redis_command(ngx_http_request_t *r,
    const char *name, int argc, const char **argv, const size_t *argvlen,
    ngx_http_behave_redis_pt handler, void *data, const char **reason);

/*
 * A fire-and-forget command with no request behind it (metering, traces,
 * heartbeats), keyed as above.  Past a budget of unanswered ones per
 * connection, further ones are shed (NGX_DECLINED, counted in
 * behave_redis_background_shed_total): a slow Redis never costs the
 * connection that carries the turns.
 */
ngx_int_t ngx_http_behave_redis_command_bg(int argc, const char **argv,
    const size_t *argvlen, void (*done)(redisReply *reply, void *data),
    void *data);

/*
 * A script in the background, as ngx_http_behave_redis_command_bg():
 * EVALSHA, EVAL again after NOSCRIPT; argv holds its keys, then its
 * arguments
 */
ngx_int_t ngx_http_behave_redis_eval_bg(ngx_http_behave_redis_script_t *script,
    int nkeys, int argc, const char **argv, const size_t *argvlen,
    void (*done)(redisReply *reply, void *data), void *data);

/*
 * The key of a tenant's record, in the request pool and NUL-terminated:
 * prefix (one of ngx_http_behave_redis_keys.h, its "%s" the tenant's hash
 * tag), then "<what><id>".  NULL when out of memory.
 */
ngx_str_t *ngx_http_behave_redis_key(ngx_http_request_t *r,
    const char *prefix, const char *tenant, const char *what, const char *id,
    size_t id_len);

/* degraded answers are logged once per interval, with a count */
void ngx_http_behave_redis_log_degraded(ngx_http_request_t *r,
    const char *what, const char *reason);

ngx_uint_t ngx_http_behave_redis_configured(ngx_http_request_t *r);
/* any data connection up (cluster: at least one master) */
ngx_uint_t ngx_http_behave_redis_connected(void);


#endif /* NGX_HTTP_BEHAVE_REDIS_H */
