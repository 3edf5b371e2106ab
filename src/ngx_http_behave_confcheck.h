/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Configuration checks that span directives, with errors that name the
 * directive's own file and line (a check made while merging would
 * otherwise point at the closing "}" of http{}).
 */

#ifndef NGX_HTTP_BEHAVE_CONFCHECK_H
#define NGX_HTTP_BEHAVE_CONFCHECK_H

#include "ngx_http_behave_common.h"


void ngx_http_behave_conf_pos(ngx_conf_t *cf,
    ngx_http_behave_conf_pos_t *pos);
char *ngx_http_behave_conf_error_at(ngx_conf_t *cf,
    ngx_http_behave_conf_pos_t *pos, const char *fmt, ...);

/*
 * "return" at location level makes a content handler dead code: the
 * rewrite module's directive is wrapped while http{} is parsed so that
 * either order is refused at the line of the second directive.
 */
ngx_int_t ngx_http_behave_return_guard(ngx_conf_t *cf);
void ngx_http_behave_return_guard_done(void);


#endif /* NGX_HTTP_BEHAVE_CONFCHECK_H */
