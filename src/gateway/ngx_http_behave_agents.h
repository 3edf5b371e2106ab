/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface A: agent-status and the fleet heartbeat.
 */

#ifndef NGX_HTTP_BEHAVE_AGENTS_H
#define NGX_HTTP_BEHAVE_AGENTS_H

#include "ngx_http_behave_gw.h"


ngx_int_t ngx_http_behave_agents_status(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw);
void ngx_http_behave_agents_init_process(ngx_cycle_t *cycle);


#endif /* NGX_HTTP_BEHAVE_AGENTS_H */
