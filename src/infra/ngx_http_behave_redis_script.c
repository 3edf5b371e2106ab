/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Running the module's Redis scripts: see ngx_http_behave_redis_script.h.
 */


#include <openssl/sha.h>

#include "ngx_http_behave_redis_script.h"


void
ngx_http_behave_redis_scripts_init(void)
{
    u_char                           md[SHA_DIGEST_LENGTH];
    ngx_http_behave_redis_script_t **s;

    for (s = ngx_http_behave_redis_scripts; *s != NULL; s++) {
        SHA1((const u_char *) (*s)->source, ngx_strlen((*s)->source), md);
        *ngx_hex_dump((u_char *) (*s)->sha1, md, SHA_DIGEST_LENGTH) = '\0';
    }
}


int
ngx_http_behave_redis_args_ready(ngx_http_behave_redis_args_t *a, int *slot)
{
    int                              i, unset, nkeys;
    ngx_http_behave_redis_script_t  *s;

    s = a->script;
    nkeys = s->nkeys;
    unset = 0;

    if (a->overflow || a->argc < s->slots || (!s->rest && a->argc > s->slots))
    {
        *slot = s->slots;
        return -1;
    }

    for (i = 0; i < s->slots; i++) {
        if (a->argv[i] != NULL) {
            continue;
        }

        if (!(s->optional & ((uint64_t) 1 << i))) {
            *slot = i;
            return -1;
        }

        if (i >= s->nkeys) {
            a->argv[i] = "";
            continue;
        }

        unset++;
    }

    if (unset == 0) {
        return nkeys;
    }

    /* the optional keys, the last ones, are left out: all of them */
    for (i = s->nkeys_min; i < s->nkeys; i++) {
        if (a->argv[i] != NULL) {
            *slot = i;
            return -1;
        }
    }

    nkeys = s->nkeys_min;
    unset = s->nkeys - nkeys;

    for (i = s->nkeys; i < a->argc; i++) {
        a->argv[i - unset] = a->argv[i];
        a->len[i - unset] = a->len[i];
    }

    a->argc -= unset;

    return nkeys;
}


ngx_int_t
ngx_http_behave_redis_run(ngx_http_request_t *r,
    ngx_http_behave_redis_args_t *a, ngx_http_behave_redis_pt handler,
    void *data, const char **reason)
{
    int  nkeys, slot;

    nkeys = ngx_http_behave_redis_args_ready(a, &slot);

    if (nkeys < 0) {
        ngx_log_error(NGX_LOG_ALERT, r->connection->log, 0,
                      "behave: %s: argument %d unset or too many",
                      a->script->name, slot);
        *reason = "bad script arguments";
        return NGX_DECLINED;
    }

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave redis: script %s, %d keys, %d arguments",
                   a->script->name, nkeys, a->argc - nkeys);

    return ngx_http_behave_redis_eval(r, a->script, nkeys, a->argc, a->argv,
                                      a->len, handler, data, reason);
}


ngx_int_t
ngx_http_behave_redis_run_bg(ngx_http_behave_redis_args_t *a,
    void (*done)(redisReply *reply, void *data), void *data)
{
    int  nkeys, slot;

    nkeys = ngx_http_behave_redis_args_ready(a, &slot);

    if (nkeys < 0) {
        ngx_log_error(NGX_LOG_ALERT, ngx_cycle->log, 0,
                      "behave: %s: argument %d unset or too many",
                      a->script->name, slot);
        return NGX_ERROR;
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, ngx_cycle->log, 0,
                   "behave redis: background script %s, %d keys",
                   a->script->name, nkeys);

    return ngx_http_behave_redis_eval_bg(a->script, nkeys, a->argc, a->argv,
                                         a->len, done, data);
}
