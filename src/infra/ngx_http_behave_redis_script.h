/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Running the module's Redis scripts.  Each is a .lua file beside the C
 * that runs it, compiled in by scripts/gen-redis-scripts, which gives its
 * keys and arguments their slots (ngx_http_behave_<stem>_lua.h, from the
 * file's "--! keys" and "--! argv" lines): they are set by name, never by
 * position (ngx_http_behave_redis_args.h), and checked here before the
 * script is sent.
 */

#ifndef NGX_HTTP_BEHAVE_REDIS_SCRIPT_H
#define NGX_HTTP_BEHAVE_REDIS_SCRIPT_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_args.h"


/* every script, NULL-terminated (generated) */
extern ngx_http_behave_redis_script_t  *ngx_http_behave_redis_scripts[];


/* the SHA1 of every script, once, before any is sent */
void ngx_http_behave_redis_scripts_init(void);

/*
 * The script's optional keys left out (all or none), its optional
 * arguments unset sent as "".  The number of keys, or -1 (*slot: the
 * first slot unset) for arguments that cannot be sent.
 */
int ngx_http_behave_redis_args_ready(ngx_http_behave_redis_args_t *a,
    int *slot);

/*
 * The script of a (ngx_http_behave_redis_args_script()) by EVALSHA, EVAL
 * again after NOSCRIPT: the contract of ngx_http_behave_redis_eval().
 */
ngx_int_t ngx_http_behave_redis_run(ngx_http_request_t *r,
    ngx_http_behave_redis_args_t *a, ngx_http_behave_redis_pt handler,
    void *data, const char **reason);

/*
 * The same with no request behind it, as
 * ngx_http_behave_redis_command_bg() (EVALSHA, EVAL after NOSCRIPT too)
 */
ngx_int_t ngx_http_behave_redis_run_bg(ngx_http_behave_redis_args_t *a,
    void (*done)(redisReply *reply, void *data), void *data);


#endif /* NGX_HTTP_BEHAVE_REDIS_SCRIPT_H */
