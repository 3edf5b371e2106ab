/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface C receiver: POST /v1/webhooks/<slug>, signed by the platform.
 *
 * Steps, one request reference held from the body handler to the end:
 *
 *   1. read the whole body (temp-file buffers included);
 *   2. resolve the slug in Redis: the slug key names the tenant and the
 *      endpoint (its own slot), then the tenant's record gives the
 *      endpoint and its sealed secret (the tenant's slot);
 *   3. open the secret, verify the signature over the raw bytes; only
 *      then parse.  An unknown slug and a bad signature answer the same
 *      401; the reason goes to the log at info, never the secret;
 *   4. a paused endpoint, or an event with no call to analyse, is
 *      acknowledged with 200 and recorded, nothing is analysed or billed;
 *   5. a transcript is analysed in memory, in slices of about
 *      BEHAVE_CALLSUM_STEP_BYTES of turn text, one per event-loop
 *      iteration (behave_callsum_begin/step/finish: a 5,000-turn call
 *      would otherwise hold the worker for a tenth of a second), then ONE
 *      Redis script stores it or finds it already stored (retry), takes
 *      the segment and records the delivery; billing follows only a
 *      "processed" answer.  Any failure before that script answers 503
 *      with Retry-After and has written nothing.
 *
 * The opened secret lives in the request pool for the verification only
 * and is wiped right after it.
 */


#include "ngx_http_behave_webhooks_receiver.h"
#include "ngx_http_behave_body.h"
#include "ngx_http_behave_meter.h"
#include "ngx_http_behave_offload.h"
#include "ngx_http_behave_redis_reply.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_script.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_review_index.h"
#include "ngx_http_behave_stats.h"
#include "ngx_http_behave_util.h"
#include "ngx_http_behave_wh_commit_lua.h"         /* wh_commit.lua */
#include "ngx_http_behave_wh_delivery_lua.h"       /* wh_delivery.lua */
#include "ngx_http_behave_wh_resolve_fields.h"
#include "ngx_http_behave_webhooks_util.h"

#include "webhooks/behave_callsum.h"
#include "analyze/behave_request.h"
#include "reviews/behave_review.h"
#include "base/behave_secretbox.h"
#include "webhooks/behave_provider.h"
#include "webhooks/behave_webhook_parse.h"


typedef struct ngx_http_behave_wh_lookup_s  ngx_http_behave_wh_lookup_t;

typedef struct {
    ngx_str_t                   slug;
    ngx_str_t                   body;
    int64_t                     received_ms;
    const ngx_http_behave_wh_lookup_t  *lookup;   /* the step under way */
    char                        delivery_id[NGX_HTTP_BEHAVE_WH_ID_SIZE];

    char                       *tenant;
    char                       *endpoint_id;
    const behave_provider_t    *provider;
    behave_provider_opts_t      opts;           /* the endpoint's options */
    unsigned                    shared_secret:1;
    unsigned                    active:1;

    ngx_http_request_t         *request;
    behave_call_t               call;
    behave_callsum_job_t       *job;        /* the analysis under way */
    ngx_event_t                 slice;      /* its next step, posted */
    ngx_event_t                 hold;       /* a timer while slicing */
    ngx_uint_t                  steps;
    behave_review_log_t         log;        /* a flagged call's turns,
                                               stored for the review */
    unsigned                    logging:1;  /* log.buf is being filled */
    behave_callsum_t            sum;
    behave_turn_t              *turns;      /* analysed, for the review */
    double                      core_ms;

    /* what the summary says besides the findings (rv->sum) */
    behave_callsum_meta_t       meta;

    /* what the verification (and parse) that may run in a thread use */
    ngx_chain_t                *bufs;           /* the body's parts */
    unsigned                    unread:1;       /* short read of them */
    ngx_http_behave_loc_conf_t *blcf;
    char                       *secret;         /* opened, wiped after */
    size_t                      secret_cap;
    size_t                      secret_len;
    behave_sig_headers_t        sig_headers;
    int64_t                     now_ms;
    behave_sig_err_e            sig_rc;
    behave_err_e                parse_rc;
    behave_error_t              parse_err;
    unsigned                    parsed:1;
} ngx_http_behave_wh_recv_t;


/*
 * The slug is resolved in two Redis lookups that read their reply alike:
 * an error is a 503, a reply of another type an unknown slug (401), and
 * the expected one goes to the next step.
 */
struct ngx_http_behave_wh_lookup_s {
    const char                 *span;
    const char                 *log;
    int                         type;       /* the reply expected */
    ngx_int_t                 (*next)(ngx_http_request_t *r,
                                      ngx_http_behave_wh_recv_t *rv,
                                      redisReply *reply);
};


static void ngx_http_behave_wh_recv_body(ngx_http_request_t *r);
static ngx_int_t ngx_http_behave_wh_resolve(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv);
static ngx_int_t ngx_http_behave_wh_lookup(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, const ngx_http_behave_wh_lookup_t *step,
    int argc, const char **argv, const size_t *len);
static void ngx_http_behave_wh_lookup_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_wh_owner(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, redisReply *owner);
static ngx_int_t ngx_http_behave_wh_endpoint(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, redisReply *reply);
static ngx_http_behave_step_t ngx_http_behave_wh_open(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, redisReply *sealed);
static void ngx_http_behave_wh_verify(void *data);
static ngx_int_t ngx_http_behave_wh_verified(ngx_http_request_t *r,
    void *data);
static void ngx_http_behave_wh_free_call(void *ptr);
static void ngx_http_behave_wh_headers(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, behave_sig_headers_t *h);
static ngx_int_t ngx_http_behave_wh_process(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv);
static void ngx_http_behave_wh_slice(ngx_event_t *ev);
static void ngx_http_behave_wh_hold(ngx_event_t *ev);
static ngx_int_t ngx_http_behave_wh_step(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv);
static ngx_int_t ngx_http_behave_wh_commit(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv);
static void ngx_http_behave_wh_commit_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_wh_acknowledge(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, const char *status, const char *why);
static void ngx_http_behave_wh_record(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, const char *outcome);
static void ngx_http_behave_wh_record_done(redisReply *reply, void *data);
static void ngx_http_behave_wh_bill(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, ngx_uint_t n);
static void ngx_http_behave_wh_delivery(ngx_http_behave_wh_recv_t *rv,
    behave_delivery_t *d);
static ngx_int_t ngx_http_behave_wh_processed(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, redisReply *segment);
static int64_t ngx_http_behave_wh_segment(redisReply *seg);
static ngx_int_t ngx_http_behave_wh_duplicate(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, redisReply *segment, redisReply *stored);
static ngx_int_t ngx_http_behave_wh_unauthorized(ngx_http_request_t *r);
static void ngx_http_behave_wh_publish(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv);
static ngx_int_t ngx_http_behave_wh_slug_valid(ngx_str_t *slug);
static ngx_int_t ngx_http_behave_wh_review_args(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, const behave_callsum_meta_t *m,
    ngx_http_behave_redis_args_t *a);
static void ngx_http_behave_wh_recv_cleanup(void *data);


/* the slug key gives "<tenant> <id>", then the endpoint's record */
static const ngx_http_behave_wh_lookup_t  ngx_http_behave_wh_slug_step = {
    "redis.webhook-slug", "webhook slug", REDIS_REPLY_STRING,
    ngx_http_behave_wh_owner
};

static const ngx_http_behave_wh_lookup_t  ngx_http_behave_wh_resolve_step = {
    "redis.webhook-resolve", "webhook resolve", REDIS_REPLY_ARRAY,
    ngx_http_behave_wh_endpoint
};


ngx_int_t
ngx_http_behave_webhooks_receive(ngx_http_request_t *r, ngx_str_t *slug)
{
    behave_error_t               err;
    ngx_time_t                  *tp;
    ngx_http_behave_wh_recv_t   *rv;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    if (r->method != NGX_HTTP_POST
        || r->headers_in.content_length_n > (off_t) blcf->max_body_size)
    {
        if (r->method != NGX_HTTP_POST) {
            return ngx_http_behave_method_not_allowed(r, "POST");
        }

        behave_error_set(&err, BEHAVE_ERR_TOO_LARGE,
                         "the request body is larger than "
                         "behave_max_body_size");

        return ngx_http_behave_refuse(r, &err);
    }

    /* frees the parsed call whatever path the request takes */
    rv = ngx_http_behave_surface_new(r, sizeof(ngx_http_behave_wh_recv_t),
                                     ngx_http_behave_wh_recv_cleanup);
    if (rv == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    tp = ngx_timeofday();
    rv->received_ms = (int64_t) tp->sec * 1000 + tp->msec;
    rv->slug = *slug;
    rv->request = r;
    rv->blcf = blcf;

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave webhook: delivery to slug \"%V\", %O bytes "
                   "announced", slug, r->headers_in.content_length_n);

    return ngx_http_behave_read_body(r, ngx_http_behave_wh_recv_body);
}


static void
ngx_http_behave_wh_recv_cleanup(void *data)
{
    ngx_http_behave_wh_recv_t  *rv = data;

    behave_call_t  *copy;

    /* the request went away between two steps: the next one never runs */
    if (rv->slice.posted) {
        ngx_delete_posted_event(&rv->slice);
    }

    if (rv->hold.timer_set) {
        ngx_del_timer(&rv->hold);
    }

    behave_callsum_free(rv->job);
    rv->job = NULL;
    behave_review_log_free(&rv->log);

    free(rv->turns);
    rv->turns = NULL;

    /* the parsed body of a 4 MiB call takes milliseconds to free */
    copy = NULL;

    if (rv->call.root != NULL || rv->call.turns != NULL) {
        copy = malloc(sizeof(behave_call_t));
    }

    if (copy == NULL) {
        behave_call_free(&rv->call);
        return;
    }

    ngx_memcpy(copy, &rv->call, sizeof(behave_call_t));
    ngx_memzero(&rv->call, sizeof(behave_call_t));

    ngx_http_behave_offload_free(rv->blcf, rv->body.len,
                                 ngx_http_behave_wh_free_call, copy);
}


static void
ngx_http_behave_wh_free_call(void *ptr)
{
    behave_call_free(ptr);
    free(ptr);
}


static void
ngx_http_behave_wh_recv_body(ngx_http_request_t *r)
{
    ngx_int_t                    rc;
    ngx_http_behave_wh_recv_t   *rv;
    ngx_http_behave_loc_conf_t  *blcf;

    rv = ngx_http_behave_surface(r);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    /* the string is filled where the signature is checked */
    rc = ngx_http_behave_body_size(r, blcf->max_body_size, &rv->body);
    rv->bufs = r->request_body ? r->request_body->bufs : NULL;

    if (rc == NGX_DECLINED) {
        rc = ngx_http_behave_fail(r, BEHAVE_ERR_TOO_LARGE,
                 "the request body is larger than behave_max_body_size");

    } else if (rc != NGX_OK) {
        rc = ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                  "body not readable");

    } else if (!ngx_http_behave_wh_slug_valid(&rv->slug)) {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "behave: webhook refused: malformed slug");
        rc = ngx_http_behave_wh_unauthorized(r);

    } else {
        rc = ngx_http_behave_wh_resolve(r, rv);
    }

    ngx_http_behave_finish(r, rc);
}


static ngx_int_t
ngx_http_behave_wh_resolve(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv)
{
    u_char      *p;
    size_t       len[2];
    const char  *argv[2];

    p = ngx_pnalloc(r->pool, sizeof(NGX_HTTP_BEHAVE_KEY_WH_SLUG)
                             + rv->slug.len);
    if (p == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    argv[0] = "GET";
    len[0] = sizeof("GET") - 1;
    argv[1] = (char *) p;
    len[1] = ngx_sprintf(p, NGX_HTTP_BEHAVE_KEY_WH_SLUG "%V", &rv->slug) - p;

    return ngx_http_behave_wh_lookup(r, rv, &ngx_http_behave_wh_slug_step,
                                     2, argv, len);
}


static ngx_int_t
ngx_http_behave_wh_lookup(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, const ngx_http_behave_wh_lookup_t *step,
    int argc, const char **argv, const size_t *len)
{
    const char  *reason;

    rv->lookup = step;

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave webhook: %s", step->log);

    if (ngx_http_behave_redis_command(r, step->span, argc, argv, len,
                                      ngx_http_behave_wh_lookup_reply, rv,
                                      &reason)
        != NGX_OK)
    {
        return ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                    reason);
    }

    return NGX_DONE;
}


static void
ngx_http_behave_wh_lookup_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    ngx_int_t                           rc;
    ngx_http_behave_wh_recv_t          *rv = data;
    const ngx_http_behave_wh_lookup_t  *step = rv->lookup;

    if (ngx_http_behave_redis_failed(r, reply, step->log)) {
        rc = ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                  reason ? reason
                                                         : "redis error");

    } else if (reply->type != step->type) {
        ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave webhook: %s: reply type %d, not found",
                       step->log, reply->type);
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "behave: webhook refused: unknown slug");
        rc = ngx_http_behave_wh_unauthorized(r);

    } else {
        rc = step->next(r, rv, reply);
    }

    /* NGX_DONE: the next step holds the request on */
    ngx_http_behave_finish(r, rc);
}


/* "<tenant> <id>": the record behave:wh:{<tenant>}:ep:<id> */

static ngx_int_t
ngx_http_behave_wh_owner(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, redisReply *owner)
{
    char        *tenant, *sp;
    size_t       len[2 + NGX_HTTP_BEHAVE_WH_R_LAST];
    ngx_str_t   *key;
    ngx_uint_t   i;
    const char  *argv[2 + NGX_HTTP_BEHAVE_WH_R_LAST];

    static const char  *fields[] = { NGX_HTTP_BEHAVE_WH_R_NAMES };

    sp = (char *) ngx_strlchr((u_char *) owner->str,
                              (u_char *) owner->str + owner->len, ' ');

    if (sp == NULL
        || !behave_tenant_valid(owner->str, sp - owner->str)
        || !behave_tenant_valid(sp + 1, owner->str + owner->len - sp - 1))
    {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "behave: webhook refused: malformed slug record");
        return ngx_http_behave_wh_unauthorized(r);
    }

    tenant = ngx_http_behave_webhooks_pstrdup(r, owner->str,
                                              sp - owner->str);
    if (tenant == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    key = ngx_http_behave_webhooks_key(r, tenant, "ep:", sp + 1,
                                       owner->str + owner->len - sp - 1);
    if (key == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    argv[0] = "HMGET";
    len[0] = sizeof("HMGET") - 1;
    argv[1] = (char *) key->data;
    len[1] = key->len;

    for (i = 0; i < NGX_HTTP_BEHAVE_WH_R_LAST; i++) {
        argv[2 + i] = fields[i];
        len[2 + i] = ngx_strlen(fields[i]);
    }

    return ngx_http_behave_wh_lookup(r, rv, &ngx_http_behave_wh_resolve_step,
                                     2 + NGX_HTTP_BEHAVE_WH_R_LAST, argv,
                                     len);
}


/*
 * The fields of wh_resolve.fields: the options are nil on endpoints of
 * other providers and on endpoints stored before they existed (the
 * defaults apply); every other field is there.
 */

static ngx_int_t
ngx_http_behave_wh_endpoint(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, redisReply *reply)
{
    size_t                  i;
    redisReply             *e;
    ngx_http_behave_ctx_t  *ctx;
    ngx_http_behave_step_t  step;

    if (reply->elements != NGX_HTTP_BEHAVE_WH_R_LAST) {
        return ngx_http_behave_wh_unauthorized(r);
    }

    for (i = 0; i < NGX_HTTP_BEHAVE_WH_R_LAST; i++) {
        if (i == NGX_HTTP_BEHAVE_WH_R_OPTIONS) {
            continue;
        }

        if (reply->element[i]->type != REDIS_REPLY_STRING) {
            ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                          "behave: webhook refused: incomplete endpoint");
            return ngx_http_behave_wh_unauthorized(r);
        }
    }

    e = reply->element[NGX_HTTP_BEHAVE_WH_R_TENANT];
    rv->tenant = ngx_http_behave_webhooks_pstrdup(r, e->str, e->len);
    e = reply->element[NGX_HTTP_BEHAVE_WH_R_ID];
    rv->endpoint_id = ngx_http_behave_webhooks_pstrdup(r, e->str, e->len);

    if (rv->tenant == NULL || rv->endpoint_id == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    e = reply->element[NGX_HTTP_BEHAVE_WH_R_PROVIDER];

    rv->provider = behave_provider_find(e->str, e->len);

    if (rv->provider == NULL) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: webhook endpoint %s has an unknown provider",
                      rv->endpoint_id);
        return ngx_http_behave_webhooks_unavailable(r, "the endpoint",
                                                    "bad record");
    }

    rv->shared_secret = ngx_strcmp(reply->element[NGX_HTTP_BEHAVE_WH_R_AUTH]
                                   ->str, "shared_secret")
                        == 0;

    e = reply->element[NGX_HTTP_BEHAVE_WH_R_OPTIONS];

    if (rv->provider->options_load != NULL) {
        rv->provider->options_load(e->type == REDIS_REPLY_STRING ? e->str
                                                                 : NULL,
                                   e->len, &rv->opts);
    }
    rv->active = reply->element[NGX_HTTP_BEHAVE_WH_R_ACTIVE]->str[0] == '1';

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    ctx->tenant = rv->tenant;

    ngx_log_debug4(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave webhook: endpoint %s of \"%s\", provider %s, %s",
                   rv->endpoint_id, rv->tenant,
                   rv->provider->name,
                   rv->active ? "active" : "paused");

    step = ngx_http_behave_wh_open(r, rv,
                                   reply->element[NGX_HTTP_BEHAVE_WH_R_SECRET]);
    if (step.answered) {
        return step.rc;
    }

    /* the HMAC over the raw body, and its parse: in a thread when large */
    return ngx_http_behave_offload(r, rv->body.len,
                                   ngx_http_behave_wh_verify,
                                   ngx_http_behave_wh_verified, rv);
}


/*
 * The endpoint's secret opened into the pool (wiped once verified), the
 * signature headers found, the time taken; or answered (503).
 */

static ngx_http_behave_step_t
ngx_http_behave_wh_open(ngx_http_request_t *r, ngx_http_behave_wh_recv_t *rv,
    redisReply *sealed)
{
    ngx_time_t                   *tp;
    ngx_http_behave_main_conf_t  *bmcf;

    bmcf = ngx_http_get_module_main_conf(r, ngx_http_behave_module);

    rv->secret_cap = sealed->len + 1;
    rv->secret = ngx_pnalloc(r->pool, rv->secret_cap);
    if (rv->secret == NULL) {
        return ngx_http_behave_answered(NGX_HTTP_INTERNAL_SERVER_ERROR);
    }

    if (behave_secretbox_open(bmcf->secret_key, sealed->str, sealed->len,
                              rv->endpoint_id, ngx_strlen(rv->endpoint_id),
                              rv->secret, rv->secret_cap, &rv->secret_len)
        != 0)
    {
        ngx_explicit_memzero(rv->secret, rv->secret_cap);

        /* fail closed: nothing is accepted that we cannot verify */
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: the secret of webhook endpoint %s does not "
                      "open: wrong behave_secret_key, or a damaged record",
                      rv->endpoint_id);
        return ngx_http_behave_answered(
                   ngx_http_behave_webhooks_unavailable(r, "the endpoint",
                                                        "secret unavailable"));
    }

    ngx_http_behave_wh_headers(r, rv, &rv->sig_headers);

    tp = ngx_timeofday();
    rv->now_ms = (int64_t) tp->sec * 1000 + tp->msec;

    return ngx_http_behave_go_on();
}


/*
 * In a thread for a large body: the signature, then, for a genuine body
 * to an active endpoint, the parse (a paused endpoint parses nothing).
 */

static void
ngx_http_behave_wh_verify(void *data)
{
    ngx_http_behave_wh_recv_t  *rv = data;

    if (ngx_http_behave_body_fill(rv->bufs, &rv->body) != NGX_OK) {
        ngx_explicit_memzero(rv->secret, rv->secret_cap);
        rv->unread = 1;
        return;
    }

    rv->sig_rc = behave_sig_verify(rv->provider, &rv->sig_headers,
                                   (char *) rv->body.data, rv->body.len,
                                   rv->secret, rv->secret_len,
                                   rv->shared_secret
                                   ? BEHAVE_SIG_ALLOW_SHARED_SECRET : 0,
                                   rv->provider->options_load ? &rv->opts
                                                              : NULL,
                                   rv->now_ms, NULL);

    ngx_explicit_memzero(rv->secret, rv->secret_cap);

    if (rv->sig_rc != BEHAVE_SIG_OK || !rv->active) {
        return;
    }

    rv->parse_rc = behave_call_parse(&rv->call, rv->provider,
                                     (char *) rv->body.data, rv->body.len,
                                     &rv->parse_err);
    rv->parsed = 1;
}


static ngx_int_t
ngx_http_behave_wh_verified(ngx_http_request_t *r, void *data)
{
    ngx_uint_t                  level;
    ngx_http_behave_wh_recv_t  *rv = data;

    if (rv->unread) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: short read of the request body temp file");
        return ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                    "body not readable");
    }

    if (rv->sig_rc != BEHAVE_SIG_OK) {
        level = (rv->sig_rc == BEHAVE_SIG_INTERNAL
                 || rv->sig_rc == BEHAVE_SIG_BAD_SECRET)
                ? NGX_LOG_ERR : NGX_LOG_INFO;

        ngx_log_error(level, r->connection->log, 0,
                      "behave: webhook to endpoint %s refused: %s",
                      rv->endpoint_id, behave_sig_err_name(rv->sig_rc));

        if (rv->sig_rc == BEHAVE_SIG_INTERNAL) {
            return ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                        "verification "
                                                        "failed");
        }

        return ngx_http_behave_wh_unauthorized(r);
    }

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave webhook: signature of %uz bytes verified for "
                   "endpoint %s", rv->body.len, rv->endpoint_id);

    if (!rv->active) {
        ngx_http_behave_stats_webhook(NGX_HTTP_BEHAVE_WH_PAUSED);
        ngx_http_behave_wh_record(r, rv, "paused");
        return ngx_http_behave_wh_acknowledge(r, rv, "paused",
                   "the endpoint is paused: acknowledged, not processed");
    }

    return ngx_http_behave_wh_process(r, rv);
}


/* the headers the endpoint's provider signs with: the first of each */

static void
ngx_http_behave_wh_headers(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, behave_sig_headers_t *h)
{
    size_t            i, n;
    ngx_str_t         key;
    const char       *names[BEHAVE_SIG_HEADERS_MAX];
    ngx_table_elt_t  *e;

    ngx_memzero(h, sizeof(behave_sig_headers_t));

    n = behave_provider_headers(rv->provider,
                                rv->provider->options_load ? &rv->opts
                                                           : NULL,
                                names);

    for (i = 0; i < n; i++) {
        key.data = (u_char *) names[i];
        key.len = ngx_strlen(names[i]);

        e = ngx_http_behave_find_header(r, &key);

        if (e != NULL) {
            (void) behave_sig_header_set(h, names[i],
                       (behave_sig_str_t) { (char *) e->value.data,
                                            e->value.len });
        }
    }

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave webhook: %uz of %uz %s signature headers found",
                   h->n, n, rv->provider->name);
}


static ngx_int_t
ngx_http_behave_wh_process(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv)
{
    behave_error_t  *err = &rv->parse_err;

    /* parsed with the verification (ngx_http_behave_wh_verify()) */
    if (rv->parse_rc != BEHAVE_OK) {
        if (err->err == BEHAVE_ERR_INTERNAL) {
            return ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                        "out of memory");
        }

        return ngx_http_behave_send_error(r, err);
    }

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave webhook: event \"%s\" (%s), %uz turns",
                   rv->call.event_type ? rv->call.event_type : "-",
                   behave_event_kind_name(rv->call.kind), rv->call.nturns);

    if (rv->call.kind != BEHAVE_EVENT_TRANSCRIPT) {
        ngx_http_behave_stats_webhook(NGX_HTTP_BEHAVE_WH_IGNORED);
        ngx_http_behave_wh_record(r, rv, "ignored");
        return ngx_http_behave_wh_acknowledge(r, rv, "ignored",
                   "no call to analyse in this event: acknowledged, "
                   "not processed");
    }

    if (rv->call.conversation_var_invalid) {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "behave: webhook to endpoint %s: "
                      BEHAVE_CONVERSATION_VAR " is not a valid id, the "
                      "platform's id is used", rv->endpoint_id);
    }

    rv->job = behave_callsum_begin(&rv->call);
    if (rv->job == NULL) {
        return ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                    "out of memory");
    }

    /*
     * The turns are analysed from the next loop iteration on, a slice at a
     * time; the posted event holds the request as a Redis command would.
     * ngx_posted_next_events, not ngx_posted_events: an event posted there
     * from a posted handler would run again before the loop polls, and
     * the slices would hold it as one.  A client that goes away meanwhile
     * ends the request (499), and the pool cleanup drops the slice.
     */
    rv->slice.handler = ngx_http_behave_wh_slice;
    rv->slice.data = rv;
    rv->slice.log = r->connection->log;

    r->read_event_handler = ngx_http_test_reading;

    ngx_post_event(&rv->slice, &ngx_posted_next_events);

    /*
     * A worker asked to quit leaves when no timer is left, and posted
     * events are none: this timer, never due in practice, keeps it until
     * the call is analysed and committed (the commit has its own).
     */
    rv->hold.handler = ngx_http_behave_wh_hold;
    rv->hold.data = rv;
    rv->hold.log = r->connection->log;
    ngx_add_timer(&rv->hold, 86400000);

    return NGX_DONE;
}


/*
 * One step of the analysis; then, for a call the review queue takes, its
 * turns' log (redacted when behave_redact is on) in steps of the same
 * size; the last step commits.
 */

static void
ngx_http_behave_wh_slice(ngx_event_t *ev)
{
    double                      started;
    ngx_int_t                   rc, done;
    ngx_connection_t           *c;
    ngx_http_request_t         *r;
    ngx_http_behave_wh_recv_t  *rv;

    rv = ev->data;
    r = rv->request;
    c = r->connection;

    started = ngx_http_behave_now_ms();
    done = ngx_http_behave_wh_step(r, rv);
    rv->core_ms += ngx_http_behave_now_ms() - started;
    rv->steps++;

    if (done == 0) {
        ngx_post_event(&rv->slice, &ngx_posted_next_events);
        return;
    }

    if (rv->hold.timer_set) {
        ngx_del_timer(&rv->hold);
    }

    if (done < 0) {
        rc = ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                  "out of memory");

    } else {
        ngx_log_debug3(NGX_LOG_DEBUG_HTTP, c->log, 0,
                       "behave: webhook call of %uz turns analysed in %ui "
                       "steps, %.3f ms", rv->call.nturns, rv->steps,
                       rv->core_ms);

        rc = ngx_http_behave_wh_commit(r, rv);
    }

    ngx_http_behave_finish(r, rc);
    ngx_http_run_posted_requests(c);
}


static void
ngx_http_behave_wh_hold(ngx_event_t *ev)
{
    /* a day of slices: nothing to do but wait on */
}


/* 1: all done, 0: another step, -1: out of memory */

static ngx_int_t
ngx_http_behave_wh_step(ngx_http_request_t *r, ngx_http_behave_wh_recv_t *rv)
{
    int                          rc;
    ngx_http_behave_loc_conf_t  *blcf;

    if (rv->logging) {
        rc = behave_review_log_step(&rv->log, rv->turns, rv->call.nturns,
                                    BEHAVE_CALLSUM_STEP_BYTES);

        ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "behave: webhook slice: %uz of %uz turns logged",
                       rv->log.next, rv->call.nturns);

        return rc;
    }

    rc = behave_callsum_step(rv->job, BEHAVE_CALLSUM_STEP_BYTES);

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave: webhook slice: %uz of %uz turns",
                   behave_callsum_done(rv->job), rv->call.nturns);

    if (rc == 0) {
        return 0;
    }

    behave_callsum_finish(rv->job, &rv->sum, &rv->turns);
    rv->job = NULL;

    /* as ngx_http_behave_wh_review_args() decides */
    if (!behave_review_wanted(rv->sum.review_status)
        || rv->call.call_id == NULL)
    {
        return 1;
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    if (behave_review_log_begin(&rv->log, (int) blcf->redact,
                                (uint64_t) rv->received_ms)
        != 0)
    {
        return -1;
    }

    rv->logging = 1;

    return 0;
}


static ngx_int_t
ngx_http_behave_wh_commit(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv)
{
    char                          *summary, *record;
    size_t                         summary_len, record_len;
    u_char                        *p;
    ngx_int_t                      rc;
    ngx_str_t                     *key[3];
    behave_delivery_t              d;
    behave_callsum_meta_t         *m;
    ngx_http_behave_redis_args_t   a;
    char                           dedup[BEHAVE_CONVERSATION_ID_MAX + 32];

    if (behave_random_id("dlv", rv->delivery_id, sizeof(rv->delivery_id))
        != 0
        || behave_call_dedup_key(&rv->call, dedup, sizeof(dedup)) != 0)
    {
        return ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                    "no delivery id");
    }

    ngx_http_behave_wh_publish(r, rv);

    key[0] = ngx_http_behave_webhooks_key(r, rv->tenant, "call:", dedup,
                                          ngx_strlen(dedup));
    key[1] = ngx_http_behave_webhooks_key(r, rv->tenant, "conv:",
                                          rv->call.conversation_id,
                                          rv->call.conversation_id_len);
    key[2] = ngx_http_behave_webhooks_key(r, rv->tenant, "deliveries:",
                                          rv->endpoint_id,
                                          ngx_strlen(rv->endpoint_id));

    if (key[0] == NULL || key[1] == NULL || key[2] == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    m = &rv->meta;
    ngx_memzero(m, sizeof(behave_callsum_meta_t));

    m->status = "processed";
    m->delivery_id = rv->delivery_id;
    m->provider = rv->provider->name;
    m->event_type = rv->call.event_type;
    m->call_id = rv->call.call_id;
    m->conversation_id = rv->call.conversation_id;
    m->conversation_id_from_var = rv->call.conversation_id_from_var;
    m->latency_ms = rv->core_ms;

    ngx_http_behave_wh_delivery(rv, &d);

    d.kind = behave_event_kind_name(rv->call.kind);
    d.conversation_id = rv->call.conversation_id;
    d.review_status = behave_review_name(rv->sum.review_status);

    /* as stored: without what an answer adds (segment, billed) */
    summary = behave_callsum_json(&rv->sum, m, &summary_len);
    record = behave_delivery_json(&d, &record_len);

    /* "...call:<id>:segment" and "...conv:<id>:segments" */
    p = ngx_pnalloc(r->pool, key[0]->len + sizeof(":segment")
                             + key[1]->len + sizeof(":segments"));

    if (summary == NULL || record == NULL || p == NULL) {
        free(summary);
        free(record);
        return ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                    "out of memory");
    }

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_wh_commit_script);

    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_WH_COMMIT_KEY_CALL,
                                  key[0]);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_WH_COMMIT_KEY_CALL_SEGMENT,
                              (char *) p,
                              ngx_sprintf(p, "%V:segment", key[0]) - p);
    p += a.len[NGX_HTTP_BEHAVE_WH_COMMIT_KEY_CALL_SEGMENT];
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_WH_COMMIT_KEY_SEGMENTS,
                              (char *) p,
                              ngx_sprintf(p, "%V:segments", key[1]) - p);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_WH_COMMIT_KEY_DELIVERIES,
                                  key[2]);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_WH_COMMIT_ARG_SUMMARY,
                              summary, summary_len);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_WH_COMMIT_ARG_RECORD,
                              record, record_len);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_WH_COMMIT_ARG_CALL_TTL,
                                  NGX_HTTP_BEHAVE_WH_CALL_TTL);
    ngx_http_behave_redis_put_num(&a,
                                  NGX_HTTP_BEHAVE_WH_COMMIT_ARG_SEGMENT_TTL,
                                  NGX_HTTP_BEHAVE_WH_SEGMENT_TTL);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_WH_COMMIT_ARG_KEEP,
                                  NGX_HTTP_BEHAVE_WH_DELIVERIES);

    if (ngx_http_behave_wh_review_args(r, rv, m, &a) != NGX_OK) {
        free(summary);
        free(record);
        return ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                    "out of memory");
    }

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave webhook: commit of call \"%s\" on endpoint %s%s",
                   dedup, rv->endpoint_id,
                   a.argv[NGX_HTTP_BEHAVE_WH_COMMIT_KEY_REVIEW_INDEX]
                   ? ", filed for review" : "");

    rc = ngx_http_behave_webhooks_run(r, &a, ngx_http_behave_wh_commit_reply,
                                      rv, "the receiver");

    /* the arguments are copied: the JSON can go at once */
    free(summary);
    free(record);

    return rc;
}


static void
ngx_http_behave_wh_commit_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    ngx_int_t                   rc;
    redisReply                 *outcome;
    ngx_http_behave_wh_recv_t  *rv = data;

    outcome = (reply != NULL && reply->type == REDIS_REPLY_ARRAY
               && reply->elements >= 2
               && reply->element[0]->type == REDIS_REPLY_STRING)
              ? reply->element[0] : NULL;

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave webhook: commit of endpoint %s: %s",
                   rv->endpoint_id, outcome ? outcome->str : "no outcome");

    if (outcome != NULL && outcome->len == sizeof("processed") - 1
        && ngx_strncmp(outcome->str, "processed", outcome->len) == 0)
    {
        rc = ngx_http_behave_wh_processed(r, rv, reply->element[1]);

    } else if (outcome != NULL && reply->elements == 3) {
        rc = ngx_http_behave_wh_duplicate(r, rv, reply->element[1],
                                          reply->element[2]);

    } else {
        if (reply != NULL && reply->type == REDIS_REPLY_ERROR) {
            ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                          "behave: webhook commit script: %s", reply->str);
        }

        /*
         * A timeout may come after Redis ran the script: the retry then
         * finds the call stored and answers "duplicate", not billing it.
         */
        rc = ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                  reason ? reason
                                                         : "redis error");
    }

    ngx_http_behave_finish(r, rc);
}


/*
 * The segment Redis gave the call: a number, or the text of one (read
 * back with a stored summary); -1 for none
 */

static int64_t
ngx_http_behave_wh_segment(redisReply *seg)
{
    ngx_int_t  n;

    if (seg->type == REDIS_REPLY_INTEGER) {
        return seg->integer;
    }

    if (seg->type == REDIS_REPLY_STRING) {
        n = ngx_atoi((u_char *) seg->str, seg->len);
        return n == NGX_ERROR ? -1 : n;
    }

    return -1;
}


/*
 * A new call: the answer is its summary written from the analysis, with
 * the segment Redis gave it and what was billed.
 */

static ngx_int_t
ngx_http_behave_wh_processed(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, redisReply *segment)
{
    char    *out;
    size_t   len;

    if (segment->type != REDIS_REPLY_INTEGER) {
        return ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                    "redis error");
    }

    ngx_http_behave_stats_webhook(NGX_HTTP_BEHAVE_WH_PROCESSED);
    ngx_http_behave_wh_bill(r, rv, rv->sum.turns);

    rv->meta.segment = segment->integer;
    rv->meta.with_segment = 1;
    rv->meta.billed = (int64_t) rv->sum.turns;
    rv->meta.with_billed = 1;

    out = behave_callsum_json(&rv->sum, &rv->meta, &len);
    if (out == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    return ngx_http_behave_send_malloced(r, NGX_HTTP_OK, out, len);
}


/*
 * A call stored before: its stored summary, read back and written by the
 * same writer as a first delivery's answer, as a duplicate, nothing billed
 */

static ngx_int_t
ngx_http_behave_wh_duplicate(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, redisReply *segment, redisReply *stored)
{
    char                   *out;
    size_t                  len;
    cJSON                  *tree;
    int64_t                 seg;
    behave_callsum_t        s;
    behave_callsum_meta_t   m;

    tree = NULL;

    if (stored->type != REDIS_REPLY_STRING
        || behave_callsum_read(stored->str, stored->len, &s, &m, &tree) != 0)
    {
        cJSON_Delete(tree);
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: stored summary of a call on endpoint %s "
                      "does not parse", rv->endpoint_id);
        return ngx_http_behave_webhooks_unavailable(r, "the receiver",
                                                    "bad stored summary");
    }

    ngx_http_behave_stats_webhook(NGX_HTTP_BEHAVE_WH_DUPLICATE);

    /* an older build's record has its segment in it: m has it then */
    seg = ngx_http_behave_wh_segment(segment);

    if (seg >= 0) {
        m.segment = seg;
        m.with_segment = 1;
    }

    m.status = "duplicate";
    m.billed = 0;
    m.with_billed = 1;

    out = behave_callsum_json(&s, &m, &len);
    cJSON_Delete(tree);

    if (out == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    return ngx_http_behave_send_malloced(r, NGX_HTTP_OK, out, len);
}


/* what every delivery record says, whatever its outcome */

static void
ngx_http_behave_wh_delivery(ngx_http_behave_wh_recv_t *rv,
    behave_delivery_t *d)
{
    ngx_memzero(d, sizeof(behave_delivery_t));

    d->delivery_id = rv->delivery_id;
    d->received_at_ms = rv->received_ms;
    d->type = rv->call.event_type;
    d->kind = rv->call.event_type ? behave_event_kind_name(rv->call.kind)
                                  : NULL;
    d->call_id = rv->call.call_id;
    d->http_status = NGX_HTTP_OK;
}


static ngx_int_t
ngx_http_behave_wh_acknowledge(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, const char *status, const char *why)
{
    cJSON  *o;

    o = cJSON_CreateObject();
    if (o == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    cJSON_AddStringToObject(o, "status", status);
    cJSON_AddBoolToObject(o, "acknowledged", 1);
    cJSON_AddBoolToObject(o, "processed", 0);
    cJSON_AddStringToObject(o, "delivery_id", rv->delivery_id);

    if (rv->call.event_type != NULL) {
        cJSON_AddStringToObject(o, "event_type", rv->call.event_type);
        cJSON_AddStringToObject(o, "kind",
                                behave_event_kind_name(rv->call.kind));
    }

    cJSON_AddStringToObject(o, "reason", why);
    cJSON_AddNumberToObject(o, "billed_annotations", 0);

    return ngx_http_behave_send_cjson(r, NGX_HTTP_OK, o);
}


/*
 * Acknowledged deliveries are recorded in the background: the answer is
 * 200 whether or not Redis keeps the line, since nothing is lost.
 */

static void
ngx_http_behave_wh_record(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, const char *outcome)
{
    char                          *json;
    size_t                         json_len;
    ngx_str_t                     *key;
    behave_delivery_t              d;
    ngx_http_behave_redis_args_t   a;

    if (behave_random_id("dlv", rv->delivery_id, sizeof(rv->delivery_id))
        != 0)
    {
        rv->delivery_id[0] = '\0';
        return;
    }

    ngx_http_behave_wh_publish(r, rv);

    key = ngx_http_behave_webhooks_key(r, rv->tenant, "deliveries:",
                                       rv->endpoint_id,
                                       ngx_strlen(rv->endpoint_id));
    if (key == NULL) {
        return;
    }

    ngx_http_behave_wh_delivery(rv, &d);

    d.outcome = outcome;
    d.segment = -1;

    json = behave_delivery_json(&d, &json_len);
    if (json == NULL) {
        return;
    }

    ngx_http_behave_redis_args_script(&a,
                                      &ngx_http_behave_wh_delivery_script);
    ngx_http_behave_redis_put_ngx(&a,
                                  NGX_HTTP_BEHAVE_WH_DELIVERY_KEY_DELIVERIES,
                                  key);
    ngx_http_behave_redis_put(&a, NGX_HTTP_BEHAVE_WH_DELIVERY_ARG_RECORD,
                              json, json_len);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_WH_DELIVERY_ARG_KEEP,
                                  NGX_HTTP_BEHAVE_WH_DELIVERIES);

    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave webhook: delivery on endpoint %s recorded as %s",
                   rv->endpoint_id, outcome);

    (void) ngx_http_behave_redis_run_bg(&a, ngx_http_behave_wh_record_done,
                                        NULL);
    free(json);
}


static void
ngx_http_behave_wh_record_done(redisReply *reply, void *data)
{
    /* nothing to do: a lost history line is not worth a retry */
}


/* the meter wants a key: the tenant's own quota, from behave_keys */

static void
ngx_http_behave_wh_bill(ngx_http_request_t *r, ngx_http_behave_wh_recv_t *rv,
    ngx_uint_t n)
{
    ngx_uint_t                   i;
    behave_key_t                *bill, *k;
    ngx_http_behave_usage_t      usage;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    bill = ngx_pcalloc(r->pool, sizeof(behave_key_t));
    if (bill == NULL) {
        return;
    }

    ngx_cpystrn((u_char *) bill->tenant, (u_char *) rv->tenant,
                sizeof(bill->tenant));

    if (blcf->keys != NULL) {
        k = blcf->keys->elts;

        for (i = 0; i < blcf->keys->nelts; i++) {
            if (ngx_strcmp(k[i].tenant, rv->tenant) == 0) {
                bill->quota = k[i].quota;
                break;
            }
        }
    }

    ngx_http_behave_meter_count(r, bill, n, &usage);
}


/*
 * A call that concludes needs_review or escalated is filed in the review
 * queue by the same script that stores it: four more keys (index,
 * record, history, turns) after the three, and after the five arguments
 * the review id, the time, the reopened entry, the turns and the
 * record's pairs.  Other calls keep the arguments as they are.
 */

static ngx_int_t
ngx_http_behave_wh_review_args(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv, const behave_callsum_meta_t *m,
    ngx_http_behave_redis_args_t *a)
{
    size_t                       i;
    ngx_str_t                   *keys[4];
    behave_review_rec_t         *rec;
    behave_review_call_t         c;
    ngx_http_behave_loc_conf_t  *blcf;

    if (!behave_review_wanted(rv->sum.review_status)
        || rv->call.call_id == NULL || rv->turns == NULL)
    {
        return NGX_OK;
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    rec = ngx_palloc(r->pool, sizeof(behave_review_rec_t));
    if (rec == NULL) {
        return NGX_ERROR;
    }

    /* the queue's record of a call, from its summary */
    c.provider = m->provider;
    c.conversation_id = m->conversation_id;
    c.review_status = rv->sum.review_status;
    c.action = rv->sum.action;
    c.action_reason = rv->sum.action_reason;
    c.peak_severity = rv->sum.peak_severity;
    c.turns = rv->sum.turns;
    c.provider_verdict = behave_verdict_name(rv->sum.provider_verdict);
    c.service_verdict = behave_verdict_name(rv->sum.service_verdict);
    c.verdict_disagrees = rv->sum.verdict_disagrees;
    c.false_resolution = rv->sum.false_resolution;
    c.false_resolution_reason = rv->sum.false_resolution_reason;
    c.escalating = rv->sum.escalating;
    c.repeat_contact_risk = rv->sum.repeat_contact_risk;

    if (behave_review_rec_call(rec, &c, rv->call.call_id, (int) blcf->redact,
                               rv->received_ms)
        != 0)
    {
        /* an id too long for the queue: the call is stored all the same */
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "behave: call on endpoint %s not filed for review: "
                      "its id is too long", rv->endpoint_id);
        return NGX_OK;
    }

    if (ngx_http_behave_review_keys(r, rv->tenant, rec->id, keys)
        != NGX_OK
        || rv->log.buf == NULL)
    {
        return NGX_ERROR;
    }

    ngx_http_behave_redis_put_ngx(a, NGX_HTTP_BEHAVE_WH_COMMIT_KEY_REVIEW_INDEX,
                                  keys[0]);
    ngx_http_behave_redis_put_ngx(a,
                                  NGX_HTTP_BEHAVE_WH_COMMIT_KEY_REVIEW_RECORD,
                                  keys[1]);
    ngx_http_behave_redis_put_ngx(a,
                                  NGX_HTTP_BEHAVE_WH_COMMIT_KEY_REVIEW_HISTORY,
                                  keys[2]);
    ngx_http_behave_redis_put_ngx(a, NGX_HTTP_BEHAVE_WH_COMMIT_KEY_REVIEW_TURNS,
                                  keys[3]);
    ngx_http_behave_redis_put_str(a, NGX_HTTP_BEHAVE_WH_COMMIT_ARG_REVIEW_ID,
                                  rec->id);
    ngx_http_behave_redis_put_num(a, NGX_HTTP_BEHAVE_WH_COMMIT_ARG_NOW,
                                  rv->received_ms);
    ngx_http_behave_redis_put_str(a, NGX_HTTP_BEHAVE_WH_COMMIT_ARG_REOPEN,
                                  rec->reopened);

    /* built in the steps before (ngx_http_behave_wh_step()), sent from
     * the log's own buffer: the pool cleanup frees it */
    ngx_http_behave_redis_put(a, NGX_HTTP_BEHAVE_WH_COMMIT_ARG_TURNS,
                              rv->log.buf, rv->log.used);

    for (i = 0; i < rec->n; i++) {
        ngx_http_behave_redis_arg(a, rec->argv[i], rec->len[i]);
    }

    return NGX_OK;
}


static ngx_int_t
ngx_http_behave_wh_unauthorized(ngx_http_request_t *r)
{
    ngx_http_behave_stats_webhook(NGX_HTTP_BEHAVE_WH_REJECTED);

    /* one answer for every refusal: a URL cannot be probed */
    return ngx_http_behave_fail(r, BEHAVE_ERR_UNAUTHORIZED,
                                "the webhook signature could not be "
                                "verified");
}


static ngx_int_t
ngx_http_behave_wh_slug_valid(ngx_str_t *slug)
{
    size_t  i;
    u_char  c;

    if (slug->len == 0 || slug->len > NGX_HTTP_BEHAVE_WH_SLUG_MAX) {
        return 0;
    }

    for (i = 0; i < slug->len; i++) {
        c = slug->data[i];

        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9') || c == '-' || c == '_'))
        {
            return 0;
        }
    }

    return 1;
}


/* $behave_session_id is the delivery, $behave_conversation_id the call's */

static void
ngx_http_behave_wh_publish(ngx_http_request_t *r,
    ngx_http_behave_wh_recv_t *rv)
{
    ngx_http_behave_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    ctx->session_id.data = (u_char *) rv->delivery_id;
    ctx->session_id.len = ngx_strlen(rv->delivery_id);

    if (rv->call.conversation_id != NULL) {
        ctx->conversation_id.data = (u_char *) rv->call.conversation_id;
        ctx->conversation_id.len = rv->call.conversation_id_len;
    }
}
