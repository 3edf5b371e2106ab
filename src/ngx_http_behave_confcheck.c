/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Cross-directive configuration checks.
 *
 * The "return" guard, stated once: the rewrite module's "return" command
 * is wrapped from this module's preconfiguration (the start of http{})
 * to its postconfiguration (the end), so the wrapper exists only while
 * this module's code is loaded and the block is parsed.  When the parse
 * fails half-way, a cleanup of the configuration's pool puts the original
 * back before the module can be unloaded (cleanups run newest first, and
 * load_module's unload cleanup is older).
 */


#include "ngx_http_behave_common.h"
#include "ngx_http_behave_confcheck.h"


typedef char *(*ngx_http_behave_set_pt)(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);


static char *ngx_http_behave_return(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static void ngx_http_behave_return_restore(void *data);


static ngx_command_t           *ngx_http_behave_return_cmd;
static ngx_http_behave_set_pt   ngx_http_behave_return_set;


void
ngx_http_behave_conf_pos(ngx_conf_t *cf, ngx_http_behave_conf_pos_t *pos)
{
    /* the name's bytes live in the cycle's pool, the ngx_str_t may not */
    pos->file = cf->conf_file->file.name;
    pos->line = cf->conf_file->line;
}


char *
ngx_http_behave_conf_error_at(ngx_conf_t *cf,
    ngx_http_behave_conf_pos_t *pos, const char *fmt, ...)
{
    u_char   buf[NGX_MAX_CONF_ERRSTR], *p;
    va_list  args;

    va_start(args, fmt);
    p = ngx_vslprintf(buf, buf + sizeof(buf), fmt, args);
    va_end(args);

    if (pos->file.len == 0) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "%*s", p - buf, buf);
        return NGX_CONF_ERROR;
    }

    /* the form of ngx_conf_log_error(), with the directive's position */
    ngx_log_error(NGX_LOG_EMERG, cf->log, 0, "%*s in %V:%ui", p - buf, buf,
                  &pos->file, pos->line);

    return NGX_CONF_ERROR;
}


ngx_int_t
ngx_http_behave_return_guard(ngx_conf_t *cf)
{
    ngx_uint_t           i;
    ngx_command_t       *cmd;
    ngx_module_t        *m;
    ngx_pool_cleanup_t  *cln;

    if (ngx_http_behave_return_cmd != NULL) {
        return NGX_OK;
    }

    /* by name: an nginx built without the rewrite module has none */
    for (i = 0; cf->cycle->modules[i]; i++) {
        m = cf->cycle->modules[i];

        if (ngx_strcmp(m->name, "ngx_http_rewrite_module") != 0) {
            continue;
        }

        for (cmd = m->commands; cmd != NULL && cmd->name.len; cmd++) {
            if (ngx_strcmp(cmd->name.data, "return") != 0
                || cmd->set == ngx_http_behave_return)
            {
                continue;
            }

            cln = ngx_pool_cleanup_add(cf->pool, 0);
            if (cln == NULL) {
                return NGX_ERROR;
            }

            cln->handler = ngx_http_behave_return_restore;

            ngx_http_behave_return_cmd = cmd;
            ngx_http_behave_return_set = cmd->set;
            cmd->set = ngx_http_behave_return;

            return NGX_OK;
        }
    }

    return NGX_OK;
}


void
ngx_http_behave_return_guard_done(void)
{
    ngx_http_behave_return_restore(NULL);
}


static void
ngx_http_behave_return_restore(void *data)
{
    if (ngx_http_behave_return_cmd != NULL) {
        ngx_http_behave_return_cmd->set = ngx_http_behave_return_set;
        ngx_http_behave_return_cmd = NULL;
    }
}


static char *
ngx_http_behave_return(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    char                        *rv;
    ngx_http_behave_loc_conf_t  *blcf;

    rv = ngx_http_behave_return_set(cf, cmd, conf);

    /* inside "if" a return is conditional: the handler still runs */
    if (rv != NGX_CONF_OK || cf->cmd_type != NGX_HTTP_LOC_CONF) {
        return rv;
    }

    blcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_behave_module);

    if (blcf->surfaces) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"return\" in a location with \"%V\" (%V:%ui): "
                           "the behave handler would never run",
                           &blcf->surface_name, &blcf->surface_pos.file,
                           blcf->surface_pos.line);
        return NGX_CONF_ERROR;
    }

    ngx_http_behave_conf_pos(cf, &blcf->return_pos);

    return NGX_CONF_OK;
}
