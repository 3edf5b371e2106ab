/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The arguments of one Redis command (or of a MULTI's commands, one after
 * another), built in place: each added with its length, numbers printed
 * into the args' own room.  hiredis copies them when the command is sent.
 * More arguments than the room is a programming error: overflow is set
 * and the caller sends nothing.
 *
 * A script's are set by name, never by position:
 *
 *     ngx_http_behave_redis_args_script(&a, &ngx_http_behave_x_script);
 *     ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_X_KEY_STATE, key);
 *     ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_X_ARG_TTL, ttl);
 *     ...                        (a rest: ngx_http_behave_redis_arg())
 *     ngx_http_behave_redis_run(r, &a, handler, data, &reason);
 *
 * the slots named in the script's own .lua file ("--! keys", "--! argv");
 * a slot left unset is refused when sent, unless the script says it is
 * optional.
 */

#ifndef NGX_HTTP_BEHAVE_REDIS_ARGS_H
#define NGX_HTTP_BEHAVE_REDIS_ARGS_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_redis.h"


#define NGX_HTTP_BEHAVE_REDIS_ARGS_MAX  72


typedef struct {
    ngx_http_behave_redis_script_t *script;   /* NULL: a plain command */
    int                         argc;
    const char                 *argv[NGX_HTTP_BEHAVE_REDIS_ARGS_MAX];
    size_t                      len[NGX_HTTP_BEHAVE_REDIS_ARGS_MAX];

    /* room for the numbers added with ngx_http_behave_redis_arg_num() */
    u_char                      nums[NGX_HTTP_BEHAVE_REDIS_ARGS_MAX]
                                    [NGX_INT64_LEN + 4];
    ngx_uint_t                  nnums;
    unsigned                    overflow:1;
} ngx_http_behave_redis_args_t;


static ngx_inline void
ngx_http_behave_redis_args_init(ngx_http_behave_redis_args_t *a)
{
    a->script = NULL;
    a->argc = 0;
    a->nnums = 0;
    a->overflow = 0;
}


/* the script's slots, all unset */
static ngx_inline void
ngx_http_behave_redis_args_script(ngx_http_behave_redis_args_t *a,
    ngx_http_behave_redis_script_t *script)
{
    int  i;

    ngx_http_behave_redis_args_init(a);
    a->script = script;
    a->argc = script->slots;

    for (i = 0; i < script->slots; i++) {
        a->argv[i] = NULL;
        a->len[i] = 0;
    }
}


static ngx_inline void
ngx_http_behave_redis_put(ngx_http_behave_redis_args_t *a, int slot,
    const char *s, size_t len)
{
    a->argv[slot] = s;
    a->len[slot] = len;
}


#define ngx_http_behave_redis_put_str(a, slot, s)                           \
    ngx_http_behave_redis_put(a, slot, (s), ngx_strlen((s)))

#define ngx_http_behave_redis_put_ngx(a, slot, str)                         \
    ngx_http_behave_redis_put(a, slot, (const char *) (str)->data,           \
                              (str)->len)


static ngx_inline void
ngx_http_behave_redis_arg(ngx_http_behave_redis_args_t *a, const char *s,
    size_t len)
{
    if (a->argc == NGX_HTTP_BEHAVE_REDIS_ARGS_MAX) {
        a->overflow = 1;
        return;
    }

    a->argv[a->argc] = s;
    a->len[a->argc++] = len;
}


/* a NUL-terminated string: literals and C strings */
#define ngx_http_behave_redis_arg_str(a, s)                                 \
    ngx_http_behave_redis_arg(a, s, ngx_strlen(s))

#define ngx_http_behave_redis_arg_ngx(a, str)                               \
    ngx_http_behave_redis_arg(a, (const char *) (str)->data, (str)->len)


/* a signed number in decimal, printed into the args' room */
static ngx_inline const char *
ngx_http_behave_redis_num(ngx_http_behave_redis_args_t *a, int64_t n,
    size_t *len)
{
    u_char  *p;

    if (a->nnums == NGX_HTTP_BEHAVE_REDIS_ARGS_MAX) {
        a->overflow = 1;
        *len = 0;
        return "";
    }

    p = a->nums[a->nnums++];
    *len = ngx_sprintf(p, "%L", n) - p;

    return (const char *) p;
}


static ngx_inline void
ngx_http_behave_redis_arg_num(ngx_http_behave_redis_args_t *a, int64_t n)
{
    size_t       len;
    const char  *p;

    p = ngx_http_behave_redis_num(a, n, &len);
    ngx_http_behave_redis_arg(a, p, len);
}


static ngx_inline void
ngx_http_behave_redis_put_num(ngx_http_behave_redis_args_t *a, int slot,
    int64_t n)
{
    size_t       len;
    const char  *p;

    p = ngx_http_behave_redis_num(a, n, &len);
    ngx_http_behave_redis_put(a, slot, p, len);
}


#endif /* NGX_HTTP_BEHAVE_REDIS_ARGS_H */
