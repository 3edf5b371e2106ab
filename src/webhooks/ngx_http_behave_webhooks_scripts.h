/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C: its Redis scripts.
 */

#ifndef NGX_HTTP_BEHAVE_WEBHOOKS_SCRIPTS_H
#define NGX_HTTP_BEHAVE_WEBHOOKS_SCRIPTS_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_redis.h"


extern ngx_http_behave_redis_script_t  ngx_http_behave_wh_create_script;
extern ngx_http_behave_redis_script_t  ngx_http_behave_wh_list_script;
extern ngx_http_behave_redis_script_t  ngx_http_behave_wh_patch_script;
extern ngx_http_behave_redis_script_t  ngx_http_behave_wh_commit_script;


#endif /* NGX_HTTP_BEHAVE_WEBHOOKS_SCRIPTS_H */
