/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The arguments of one Redis command (or of a MULTI's commands, one after
 * another), built in place: each added with its length, numbers printed
 * into the args' own room.  hiredis copies them when the command is sent.
 * More arguments than the room is a programming error: overflow is set
 * and the caller sends nothing.
 */

#ifndef NGX_HTTP_BEHAVE_REDIS_ARGS_H
#define NGX_HTTP_BEHAVE_REDIS_ARGS_H

#include "ngx_http_behave_common.h"


#define NGX_HTTP_BEHAVE_REDIS_ARGS_MAX  16


typedef struct {
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
    a->argc = 0;
    a->nnums = 0;
    a->overflow = 0;
}


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


/* a signed number in decimal */
static ngx_inline void
ngx_http_behave_redis_arg_num(ngx_http_behave_redis_args_t *a, int64_t n)
{
    u_char  *p;

    if (a->nnums == NGX_HTTP_BEHAVE_REDIS_ARGS_MAX) {
        a->overflow = 1;
        return;
    }

    p = a->nums[a->nnums++];
    ngx_http_behave_redis_arg(a, (const char *) p,
                              ngx_sprintf(p, "%L", n) - p);
}


#endif /* NGX_HTTP_BEHAVE_REDIS_ARGS_H */
