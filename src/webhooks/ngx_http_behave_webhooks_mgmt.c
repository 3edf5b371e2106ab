/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C management: POST, GET and PATCH /v1/webhooks with a portal
 * key.  The tenant is the key's, and every Redis key used is inside that
 * tenant's key space: another tenant's id is simply not found (404).
 *
 * The signing secret is sealed (AES-256-GCM, behave_secret_key, the
 * endpoint id as associated data) before it leaves this file, and is
 * never logged or answered.
 */


#include "ngx_http_behave_webhooks_mgmt.h"
#include "ngx_http_behave_auth.h"
#include "ngx_http_behave_body.h"
#include "ngx_http_behave_redis_reply.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_args.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_util.h"
#include "ngx_http_behave_wh_create_lua.h"          /* wh_create.lua */
#include "ngx_http_behave_wh_list_lua.h"            /* wh_list.lua */
#include "ngx_http_behave_wh_patch_lua.h"           /* wh_patch.lua */
#include "ngx_http_behave_wh_endpoint_fields.h"
#include "ngx_http_behave_webhooks_util.h"

#include "webhooks/behave_callsum.h"
#include "base/behave_json_parse.h"
#include "base/behave_secretbox.h"
#include "webhooks/behave_provider.h"


typedef struct {
    cJSON                      *root;
    char                        id[NGX_HTTP_BEHAVE_WH_ID_SIZE];
    char                        slug[BEHAVE_SLUG_SIZE];
    const char                 *provider;
    const char                 *auth;
    char                        signature[256]; /* options, stored form */
    const char                 *description;
    time_t                      created_at;
    ngx_http_behave_redis_args_t  create;   /* step 2's, kept for it */
} ngx_http_behave_wh_mgmt_t;


static void ngx_http_behave_wh_mgmt_body(ngx_http_request_t *r);
static ngx_http_behave_step_t ngx_http_behave_wh_mgmt_parse(
    ngx_http_request_t *r, ngx_http_behave_wh_mgmt_t *m);
static void ngx_http_behave_wh_mgmt_cleanup(void *data);

static ngx_int_t ngx_http_behave_wh_create(ngx_http_request_t *r,
    ngx_http_behave_wh_mgmt_t *m);
static ngx_int_t ngx_http_behave_wh_create_check(ngx_http_request_t *r,
    ngx_http_behave_wh_mgmt_t *m, cJSON **secret, behave_error_t *err);
static ngx_int_t ngx_http_behave_wh_signature(ngx_http_behave_wh_mgmt_t *m,
    const behave_provider_t *provider, behave_error_t *err);
static void ngx_http_behave_wh_slug_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static void ngx_http_behave_wh_create_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);

static ngx_int_t ngx_http_behave_wh_list(ngx_http_request_t *r);
static void ngx_http_behave_wh_list_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason);

static ngx_int_t ngx_http_behave_wh_patch(ngx_http_request_t *r,
    ngx_http_behave_wh_mgmt_t *m);
static void ngx_http_behave_wh_patch_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);

static void ngx_http_behave_wh_storage_failed(ngx_http_request_t *r,
    const char *reason);
static cJSON *ngx_http_behave_wh_record(ngx_http_request_t *r,
    redisReply *fields);
static int64_t ngx_http_behave_wh_time(const char *v);
static ngx_int_t ngx_http_behave_wh_id_valid(ngx_str_t *id);


ngx_int_t
ngx_http_behave_webhooks_mgmt(ngx_http_request_t *r)
{
    behave_error_t               err;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_loc_conf_t  *blcf;

    if (!(r->method & (NGX_HTTP_GET|NGX_HTTP_POST|NGX_HTTP_PATCH))) {
        return ngx_http_behave_method_not_allowed(r, "GET, POST, PATCH");
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    if (ngx_http_behave_authenticate(r, blcf->keys, BEHAVE_SCOPE_PORTAL,
                                     &ctx->key, &err)
        != NGX_OK
        || (r->method != NGX_HTTP_GET
            && ngx_http_behave_check_body(r, blcf->max_body_size, &err)
               != NGX_OK))
    {
        return ngx_http_behave_refuse(r, &err);
    }

    if (r->method == NGX_HTTP_GET) {
        if (ngx_http_discard_request_body(r) != NGX_OK) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        return ngx_http_behave_wh_list(r);
    }

    return ngx_http_behave_read_body(r, ngx_http_behave_wh_mgmt_body);
}


static void
ngx_http_behave_wh_mgmt_body(ngx_http_request_t *r)
{
    ngx_http_behave_step_t      step;
    ngx_http_behave_wh_mgmt_t  *m;

    m = ngx_pcalloc(r->pool, sizeof(ngx_http_behave_wh_mgmt_t));
    if (m == NULL) {
        ngx_http_behave_finish(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    step = ngx_http_behave_wh_mgmt_parse(r, m);

    if (step.answered) {
        ngx_http_behave_finish(r, step.rc);
        return;
    }

    ngx_http_behave_finish(r, (r->method == NGX_HTTP_POST)
                              ? ngx_http_behave_wh_create(r, m)
                              : ngx_http_behave_wh_patch(r, m));
}


/* m->root a JSON object, or answered */

static ngx_http_behave_step_t
ngx_http_behave_wh_mgmt_parse(ngx_http_request_t *r,
    ngx_http_behave_wh_mgmt_t *m)
{
    ngx_str_t                    body;
    behave_error_t               err;
    ngx_http_behave_step_t       step;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    step = ngx_http_behave_body_take(r, blcf->max_body_size, &body);
    if (step.answered) {
        return step;
    }

    if (ngx_http_behave_on_cleanup(r->pool, ngx_http_behave_wh_mgmt_cleanup,
                                   m)
        != NGX_OK)
    {
        return ngx_http_behave_answered(NGX_HTTP_INTERNAL_SERVER_ERROR);
    }

    m->root = behave_json_parse_object((char *) body.data, body.len, &err);

    if (m->root == NULL) {
        return ngx_http_behave_answered(ngx_http_behave_send_error(r, &err));
    }

    return ngx_http_behave_go_on();
}


static void
ngx_http_behave_wh_mgmt_cleanup(void *data)
{
    ngx_http_behave_wh_mgmt_t  *m = data;

    /* the tree held the secret: it goes with the request */
    cJSON_Delete(m->root);
    m->root = NULL;
}


/* POST /v1/webhooks */

static ngx_int_t
ngx_http_behave_wh_create(ngx_http_request_t *r, ngx_http_behave_wh_mgmt_t *m)
{
    u_char                        *slug, *owner;
    char                          *sealed;
    size_t                         slen, sealed_len;
    cJSON                         *secret;
    ngx_str_t                     *ep, *index;
    const char                    *reason;
    behave_error_t                 err;
    ngx_http_behave_ctx_t         *ctx;
    ngx_http_behave_main_conf_t   *bmcf;
    ngx_http_behave_redis_args_t  *a, slug_args;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    bmcf = ngx_http_get_module_main_conf(r, ngx_http_behave_module);

    if (ngx_http_behave_wh_create_check(r, m, &secret, &err) != NGX_OK) {
        return ngx_http_behave_send_error(r, &err);
    }

    if (behave_random_id("wh", m->id, sizeof(m->id)) != 0
        || behave_random_slug(m->slug, sizeof(m->slug)) != 0)
    {
        return ngx_http_behave_webhooks_unavailable(r, "randomness",
                                                    "RAND_bytes failed");
    }

    slen = ngx_strlen(secret->valuestring);
    sealed = ngx_pnalloc(r->pool, behave_secretbox_sealed_size(slen));

    if (sealed == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* bound to the id: a record copied onto another endpoint won't open */
    if (behave_secretbox_seal(bmcf->secret_key, secret->valuestring, slen,
                              m->id, ngx_strlen(m->id), sealed,
                              behave_secretbox_sealed_size(slen), &sealed_len)
        != 0)
    {
        return ngx_http_behave_webhooks_unavailable(r, "sealing",
                                                    "encryption failed");
    }

    m->created_at = ngx_time();

    ep = ngx_http_behave_webhooks_key(r, ctx->key->tenant, "ep:", m->id,
                                      ngx_strlen(m->id));
    index = ngx_http_behave_webhooks_key(r, ctx->key->tenant, "endpoints",
                                         "", 0);

    /* the slug key is global: the receiver knows no tenant */
    slug = ngx_pnalloc(r->pool, sizeof(NGX_HTTP_BEHAVE_KEY_WH_SLUG)
                                + BEHAVE_SLUG_SIZE);
    owner = ngx_pnalloc(r->pool, BEHAVE_TENANT_MAX + 1 + sizeof(m->id));

    if (ep == NULL || index == NULL || slug == NULL || owner == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    a = &m->create;
    ngx_http_behave_redis_args_script(a, &ngx_http_behave_wh_create_script);
    ngx_http_behave_redis_put_ngx(a, NGX_HTTP_BEHAVE_WH_CREATE_KEY_RECORD, ep);
    ngx_http_behave_redis_put_ngx(a, NGX_HTTP_BEHAVE_WH_CREATE_KEY_INDEX,
                                  index);
    ngx_http_behave_redis_put_str(a, NGX_HTTP_BEHAVE_WH_CREATE_ARG_TENANT,
                                  ctx->key->tenant);
    ngx_http_behave_redis_put_str(a, NGX_HTTP_BEHAVE_WH_CREATE_ARG_ID, m->id);
    ngx_http_behave_redis_put_str(a, NGX_HTTP_BEHAVE_WH_CREATE_ARG_SLUG,
                                  m->slug);
    ngx_http_behave_redis_put_str(a, NGX_HTTP_BEHAVE_WH_CREATE_ARG_PROVIDER,
                                  m->provider);
    ngx_http_behave_redis_put_str(a, NGX_HTTP_BEHAVE_WH_CREATE_ARG_AUTH,
                                  m->auth);
    ngx_http_behave_redis_put_str(a,
                                  NGX_HTTP_BEHAVE_WH_CREATE_ARG_DESCRIPTION,
                                  m->description);
    ngx_http_behave_redis_put_num(a, NGX_HTTP_BEHAVE_WH_CREATE_ARG_CREATED_AT,
                                  m->created_at);
    ngx_http_behave_redis_put(a, NGX_HTTP_BEHAVE_WH_CREATE_ARG_SECRET,
                              sealed, sealed_len);
    ngx_http_behave_redis_put_str(a, NGX_HTTP_BEHAVE_WH_CREATE_ARG_OPTIONS,
                                  m->signature);

    /*
     * Step 1: the slug, a global key in a slot of its own (the receiver
     * knows no tenant), claimed with SET NX so two endpoints can never
     * share one.  Step 2 writes the tenant's keys.  A failure between the
     * two leaves a slug whose record does not exist: the receiver answers
     * it as an unknown slug, and nobody knows it (it was never returned).
     */
    a = &slug_args;
    ngx_http_behave_redis_args_init(a);
    ngx_http_behave_redis_arg_str(a, "SET");
    ngx_http_behave_redis_arg(a, (char *) slug,
                              ngx_sprintf(slug, NGX_HTTP_BEHAVE_KEY_WH_SLUG
                                          "%s", m->slug)
                              - slug);
    ngx_http_behave_redis_arg(a, (char *) owner,
                              ngx_sprintf(owner, "%s %s", ctx->key->tenant,
                                          m->id)
                              - owner);
    ngx_http_behave_redis_arg_str(a, "NX");

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave webhooks: claiming slug \"%s\" for endpoint %s",
                   m->slug, m->id);

    if (ngx_http_behave_redis_command(r, "redis.webhook-slug", a->argc,
                                      a->argv, a->len,
                                      ngx_http_behave_wh_slug_reply, m,
                                      &reason)
        != NGX_OK)
    {
        return ngx_http_behave_webhooks_unavailable(r, "storage", reason);
    }

    return NGX_DONE;
}


static void
ngx_http_behave_wh_slug_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    ngx_http_behave_wh_mgmt_t  *m = data;

    if (reply == NULL || reply->type != REDIS_REPLY_STATUS) {
        if (reply != NULL && reply->type == REDIS_REPLY_ERROR) {
            ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                          "behave: webhook slug: %s", reply->str);
        }

        ngx_http_behave_finish(r,
            ngx_http_behave_webhooks_unavailable(r, "storage",
                reason ? reason
                       : (reply && reply->type == REDIS_REPLY_NIL)
                         ? "slug taken" : "redis error"));
        return;
    }

    /* NGX_DONE: the create script's reply holds the request on */
    ngx_http_behave_finish(r,
        ngx_http_behave_webhooks_run(r, &m->create,
                                     ngx_http_behave_wh_create_reply, m,
                                     "storage"));
}


static ngx_int_t
ngx_http_behave_wh_create_check(ngx_http_request_t *r,
    ngx_http_behave_wh_mgmt_t *m, cJSON **secret, behave_error_t *err)
{
    size_t                    len;
    cJSON                    *s, *v;
    const behave_provider_t  *provider;

    provider = behave_provider_default();
    m->auth = "hmac";
    m->description = "";

    v = cJSON_GetObjectItemCaseSensitive(m->root, "provider");

    if (v != NULL && !cJSON_IsNull(v)) {
        provider = cJSON_IsString(v)
                   ? behave_provider_find(v->valuestring,
                                          ngx_strlen(v->valuestring))
                   : NULL;

        if (provider == NULL) {
            behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                             "provider must be one of %s",
                             behave_provider_list());
            return NGX_ERROR;
        }
    }

    m->provider = provider->name;

    v = cJSON_GetObjectItemCaseSensitive(m->root, "auth");

    if (v != NULL && !cJSON_IsNull(v)) {
        if (cJSON_IsString(v) && ngx_strcmp(v->valuestring, "hmac") == 0) {
            m->auth = "hmac";

        } else if (cJSON_IsString(v)
                   && ngx_strcmp(v->valuestring, "shared_secret") == 0
                   && provider->shared_secret)
        {
            m->auth = "shared_secret";

        } else {
            behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                             "auth must be \"hmac\"%s",
                             provider->shared_secret
                             ? ", or \"shared_secret\"" : "");
            return NGX_ERROR;
        }
    }

    if (ngx_http_behave_wh_signature(m, provider, err) != NGX_OK) {
        return NGX_ERROR;
    }

    v = cJSON_GetObjectItemCaseSensitive(m->root, "description");

    if (v != NULL && !cJSON_IsNull(v)) {
        if (!cJSON_IsString(v)
            || ngx_strlen(v->valuestring) > NGX_HTTP_BEHAVE_WH_DESCR_MAX)
        {
            behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                             "description must be a string of at most %d "
                             "bytes", NGX_HTTP_BEHAVE_WH_DESCR_MAX);
            return NGX_ERROR;
        }

        m->description = v->valuestring;
    }

    s = cJSON_GetObjectItemCaseSensitive(m->root, "secret");

    if (s == NULL || cJSON_IsNull(s)) {
        behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                         "missing field: secret (the platform's signing "
                         "secret)");
        return NGX_ERROR;
    }

    len = cJSON_IsString(s) ? ngx_strlen(s->valuestring) : 0;

    /* the message never echoes the secret, only what is wrong with it */
    if (!cJSON_IsString(s) || len < NGX_HTTP_BEHAVE_WH_SECRET_MIN
        || len > BEHAVE_SECRETBOX_PLAIN_MAX)
    {
        behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                         "secret must be a string of %d to %d bytes",
                         NGX_HTTP_BEHAVE_WH_SECRET_MIN,
                         BEHAVE_SECRETBOX_PLAIN_MAX);
        return NGX_ERROR;
    }

    /* a provider's own rule for its secrets (the standard's: base64) */
    if (provider->secret_check != NULL
        && provider->secret_check(s->valuestring, len, err) != BEHAVE_OK)
    {
        return NGX_ERROR;
    }

    *secret = s;

    (void) r;

    return NGX_OK;
}


/* "signature": the provider's options (Vapi's HMAC plan), stored form */

static ngx_int_t
ngx_http_behave_wh_signature(ngx_http_behave_wh_mgmt_t *m,
    const behave_provider_t *provider, behave_error_t *err)
{
    cJSON  *v;

    m->signature[0] = '\0';

    v = cJSON_GetObjectItemCaseSensitive(m->root, "signature");

    if (provider->options_make == NULL) {
        if (v != NULL && !cJSON_IsNull(v)) {
            behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                             "provider %s takes no signature options",
                             provider->name);
            return NGX_ERROR;
        }

        return NGX_OK;
    }

    if (provider->options_make(cJSON_IsNull(v) ? NULL : v, m->signature,
                               sizeof(m->signature), err)
        != BEHAVE_OK)
    {
        return NGX_ERROR;
    }

    return NGX_OK;
}


static void
ngx_http_behave_wh_create_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    cJSON                      *o;
    ngx_int_t                   rc;
    behave_endpoint_t           e;
    ngx_http_behave_wh_mgmt_t  *m = data;

    if (reply == NULL || reply->type != REDIS_REPLY_INTEGER
        || reply->integer != 1)
    {
        if (reply != NULL && reply->type == REDIS_REPLY_ERROR) {
            ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                          "behave: webhook create script: %s", reply->str);
        }

        ngx_http_behave_finish(r,
            ngx_http_behave_webhooks_unavailable(r, "storage",
                reason ? reason : "redis error"));
        return;
    }

    ngx_memzero(&e, sizeof(behave_endpoint_t));

    e.id = m->id;
    e.slug = m->slug;
    e.receiver_url = ngx_http_behave_webhooks_receiver_url(r, m->slug);
    e.provider = m->provider;
    e.auth = m->auth;
    e.signature = m->signature;
    e.description = m->description;
    e.active = 1;
    e.created_at = m->created_at;

    o = (e.receiver_url != NULL) ? behave_endpoint_json(&e) : NULL;

    if (o != NULL) {
        cJSON_AddArrayToObject(o, "deliveries");
    }

    ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                  "behave: webhook endpoint %s created (%s)", m->id,
                  m->provider);

    rc = ngx_http_behave_send_cjson(r, NGX_HTTP_CREATED, o);

    ngx_http_behave_finish(r, rc);
}


/* GET /v1/webhooks */

static ngx_int_t
ngx_http_behave_wh_list(ngx_http_request_t *r)
{
    ngx_str_t                     *index, *prefix;
    ngx_int_t                      rc;
    ngx_http_behave_ctx_t         *ctx;
    ngx_http_behave_redis_args_t   a;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    index = ngx_http_behave_webhooks_key(r, ctx->key->tenant, "endpoints",
                                         "", 0);
    prefix = ngx_http_behave_webhooks_key(r, ctx->key->tenant, "", "", 0);

    if (index == NULL || prefix == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_wh_list_script);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_WH_LIST_KEY_INDEX,
                                  index);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_WH_LIST_ARG_PREFIX,
                                  prefix);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_WH_LIST_ARG_DELIVERIES,
                                  NGX_HTTP_BEHAVE_WH_DELIVERIES);

    rc = ngx_http_behave_webhooks_run(r, &a, ngx_http_behave_wh_list_reply,
                                      NULL, "storage");

    /* no body to read: the handler itself waits for Redis */
    return (rc == NGX_DONE) ? ngx_http_behave_wait(r) : rc;
}


static void
ngx_http_behave_wh_list_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    size_t       i;
    cJSON       *o, *list, *ep, *dl;
    redisReply  *e;

    if (reply == NULL || reply->type != REDIS_REPLY_ARRAY) {
        ngx_http_behave_wh_storage_failed(r, reason);
        return;
    }

    o = cJSON_CreateObject();
    list = cJSON_AddArrayToObject(o, "webhooks");

    if (list == NULL) {
        cJSON_Delete(o);
        ngx_http_behave_finish(r, NGX_HTTP_INTERNAL_SERVER_ERROR);
        return;
    }

    for (i = 0; i < reply->elements; i++) {
        e = reply->element[i];

        if (e->type != REDIS_REPLY_ARRAY || e->elements != 2
            || e->element[1]->type != REDIS_REPLY_ARRAY)
        {
            continue;
        }

        ep = ngx_http_behave_wh_record(r, e->element[0]);
        if (ep == NULL) {
            continue;
        }

        dl = cJSON_AddArrayToObject(ep, "deliveries");
        ngx_http_behave_redis_json_items(e->element[1], dl);

        cJSON_AddItemToArray(list, ep);
    }

    ngx_http_behave_finish(r,
        ngx_http_behave_send_cjson(r, NGX_HTTP_OK, o));
}


/* PATCH /v1/webhooks?id=<id> */

static ngx_int_t
ngx_http_behave_wh_patch(ngx_http_request_t *r, ngx_http_behave_wh_mgmt_t *m)
{
    cJSON                         *active, *descr;
    ngx_str_t                      id, *key;
    ngx_http_behave_ctx_t         *ctx;
    ngx_http_behave_redis_args_t   a;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (ngx_http_arg(r, (u_char *) "id", 2, &id) != NGX_OK || id.len == 0) {
        return ngx_http_behave_fail(r, BEHAVE_ERR_MISSING_FIELD,
                                    "missing query argument: id");
    }

    if (!ngx_http_behave_wh_id_valid(&id)) {
        return ngx_http_behave_fail(r, BEHAVE_ERR_NOT_FOUND,
                                    "no such webhook endpoint");
    }

    active = cJSON_GetObjectItemCaseSensitive(m->root, "active");
    descr = cJSON_GetObjectItemCaseSensitive(m->root, "description");

    if (active != NULL && !cJSON_IsBool(active)) {
        return ngx_http_behave_fail(r, BEHAVE_ERR_INVALID_FIELD,
                                    "active must be true or false");
    }

    if (descr != NULL
        && (!cJSON_IsString(descr)
            || ngx_strlen(descr->valuestring) > NGX_HTTP_BEHAVE_WH_DESCR_MAX))
    {
        return ngx_http_behave_fail(r, BEHAVE_ERR_INVALID_FIELD,
                                    "description must be a string of at "
                                    "most 256 bytes");
    }

    key = ngx_http_behave_webhooks_key(r, ctx->key->tenant, "ep:",
                                       (char *) id.data, id.len);
    if (key == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_wh_patch_script);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_WH_PATCH_KEY_RECORD,
                                  key);
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_WH_PATCH_ARG_ACTIVE,
                                  active == NULL ? ""
                                  : cJSON_IsTrue(active) ? "1" : "0");
    ngx_http_behave_redis_put_str(&a,
                                  NGX_HTTP_BEHAVE_WH_PATCH_ARG_SET_DESCRIPTION,
                                  descr != NULL ? "1" : "0");
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_WH_PATCH_ARG_DESCRIPTION,
                                  descr != NULL ? descr->valuestring : "");
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_WH_PATCH_ARG_NOW,
                                  ngx_time());

    return ngx_http_behave_webhooks_run(r, &a, ngx_http_behave_wh_patch_reply,
                                        m, "storage");
}


static void
ngx_http_behave_wh_patch_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    cJSON  *o;

    if (reply != NULL && reply->type == REDIS_REPLY_NIL) {
        ngx_http_behave_finish(r,
            ngx_http_behave_fail(r, BEHAVE_ERR_NOT_FOUND,
                                 "no such webhook endpoint"));
        return;
    }

    if (reply == NULL || reply->type != REDIS_REPLY_ARRAY) {
        ngx_http_behave_wh_storage_failed(r, reason);
        return;
    }

    o = ngx_http_behave_wh_record(r, reply);

    ngx_http_behave_finish(r,
        ngx_http_behave_send_cjson(r, NGX_HTTP_OK, o));
}


/* a Redis step of the management API failed: 503, and the request ends */

static void
ngx_http_behave_wh_storage_failed(ngx_http_request_t *r, const char *reason)
{
    ngx_http_behave_finish(r,
        ngx_http_behave_webhooks_unavailable(r, "storage",
                                             reason ? reason : "redis error"));
}


/* the record from the fields of wh_endpoint.fields, in their order */

static cJSON *
ngx_http_behave_wh_record(ngx_http_request_t *r, redisReply *f)
{
    size_t              i;
    char               *v[NGX_HTTP_BEHAVE_WH_F_LAST];
    behave_endpoint_t   e;

    if (f->type != REDIS_REPLY_ARRAY
        || f->elements != NGX_HTTP_BEHAVE_WH_F_LAST)
    {
        return NULL;
    }

    for (i = 0; i < NGX_HTTP_BEHAVE_WH_F_LAST; i++) {
        v[i] = (f->element[i]->type == REDIS_REPLY_STRING)
               ? f->element[i]->str : NULL;
    }

    if (v[NGX_HTTP_BEHAVE_WH_F_ID] == NULL
        || v[NGX_HTTP_BEHAVE_WH_F_SLUG] == NULL)
    {
        return NULL;
    }

    ngx_memzero(&e, sizeof(behave_endpoint_t));

    e.id = v[NGX_HTTP_BEHAVE_WH_F_ID];
    e.slug = v[NGX_HTTP_BEHAVE_WH_F_SLUG];
    e.receiver_url = ngx_http_behave_webhooks_receiver_url(r, e.slug);
    e.provider = v[NGX_HTTP_BEHAVE_WH_F_PROVIDER];
    e.auth = v[NGX_HTTP_BEHAVE_WH_F_AUTH];
    e.description = v[NGX_HTTP_BEHAVE_WH_F_DESCRIPTION];
    e.created_at = ngx_http_behave_wh_time(v[NGX_HTTP_BEHAVE_WH_F_CREATED_AT]);
    e.updated_at = ngx_http_behave_wh_time(v[NGX_HTTP_BEHAVE_WH_F_UPDATED_AT]);
    e.active = v[NGX_HTTP_BEHAVE_WH_F_ACTIVE] != NULL
               && v[NGX_HTTP_BEHAVE_WH_F_ACTIVE][0] == '1';
    e.signature = v[NGX_HTTP_BEHAVE_WH_F_OPTIONS];

    return behave_endpoint_json(&e);
}


/* a time field: unix seconds, 0 when absent */

static int64_t
ngx_http_behave_wh_time(const char *v)
{
    return v != NULL ? strtoll(v, NULL, 10) : 0;
}


static ngx_int_t
ngx_http_behave_wh_id_valid(ngx_str_t *id)
{
    size_t  i;

    if (id->len > NGX_HTTP_BEHAVE_WH_ID_MAX) {
        return 0;
    }

    for (i = 0; i < id->len; i++) {
        if (!(isalnum(id->data[i]) || id->data[i] == '_')) {
            return 0;
        }
    }

    return 1;
}
