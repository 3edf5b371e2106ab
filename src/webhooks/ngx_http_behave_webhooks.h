/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C: the webhook management API and the receiver of the voice
 * platforms' post-call webhooks.  docs/API.md (Surface C) is the reference.
 *
 * Redis keys (tenants and ids are [A-Za-z0-9_.:@-], so neither can close
 * the hash tag; every key of a tenant shares the slot of {<tenant>}):
 *
 *   behave:wh:slug:<slug>                          "<tenant> <id>", the
 *                                                  receiver's way in
 *   behave:wh:{<tenant>}:endpoints                 zset id -> created_at
 *   behave:wh:{<tenant>}:ep:<id>                   hash, the record
 *   behave:wh:{<tenant>}:deliveries:<id>           list, newest first, 50
 *   behave:wh:{<tenant>}:call:<provider>:<call id> the stored summary, 7 d
 *   behave:wh:{<tenant>}:conv:<conversation id>:segments
 *                                                  INCR counter, 30 d
 */

#ifndef NGX_HTTP_BEHAVE_WEBHOOKS_H
#define NGX_HTTP_BEHAVE_WEBHOOKS_H

#include "ngx_http_behave_common.h"
#include "ngx_http_behave_redis.h"

#include <cjson/cJSON.h>


#define NGX_HTTP_BEHAVE_WH_PATH           "/v1/webhooks"
#define NGX_HTTP_BEHAVE_WH_SECRET_MIN     16
#define NGX_HTTP_BEHAVE_WH_DESCR_MAX      256
#define NGX_HTTP_BEHAVE_WH_DELIVERIES     50
#define NGX_HTTP_BEHAVE_WH_CALL_TTL       (7 * 86400)
#define NGX_HTTP_BEHAVE_WH_SEGMENT_TTL    (30 * 86400)
#define NGX_HTTP_BEHAVE_WH_RETRY_AFTER    "5"

/* "wh_" + 32 hex digits, "dlv_" + 32 */
#define NGX_HTTP_BEHAVE_WH_ID_SIZE        40

/* the fields of an endpoint hash, in the order the scripts return them */
#define NGX_HTTP_BEHAVE_WH_FIELDS                                           \
    "'id', 'slug', 'provider', 'auth', 'description', 'created_at', "       \
    "'updated_at', 'active', 'signature'"
#define NGX_HTTP_BEHAVE_WH_NFIELDS        9


/* ngx_http_behave_webhooks_scripts.c */
extern ngx_http_behave_redis_script_t  ngx_http_behave_wh_create_script;
extern ngx_http_behave_redis_script_t  ngx_http_behave_wh_list_script;
extern ngx_http_behave_redis_script_t  ngx_http_behave_wh_patch_script;
extern ngx_http_behave_redis_script_t  ngx_http_behave_wh_resolve_script;
extern ngx_http_behave_redis_script_t  ngx_http_behave_wh_commit_script;

void ngx_http_behave_webhooks_init(void);

/* ngx_http_behave_webhooks_mgmt.c */
ngx_int_t ngx_http_behave_webhooks_mgmt(ngx_http_request_t *r);

/* ngx_http_behave_webhooks_receiver.c */
ngx_int_t ngx_http_behave_webhooks_receive(ngx_http_request_t *r,
    ngx_str_t *slug);

/* ngx_http_behave_webhooks.c: helpers shared by both */
ngx_int_t ngx_http_behave_webhooks_unavailable(ngx_http_request_t *r,
    const char *what, const char *reason);
ngx_str_t *ngx_http_behave_webhooks_key(ngx_http_request_t *r,
    const char *tenant, const char *what, const char *id, size_t id_len);
char *ngx_http_behave_webhooks_receiver_url(ngx_http_request_t *r,
    const char *slug);
char *ngx_http_behave_webhooks_pstrdup(ngx_http_request_t *r,
    const char *s, size_t len);


#endif /* NGX_HTTP_BEHAVE_WEBHOOKS_H */
