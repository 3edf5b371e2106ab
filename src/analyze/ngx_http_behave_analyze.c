/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface B: POST /v1/analyze.  The annotation is computed in the body
 * handler; with a conversation_id the answer waits for one Redis step
 * (ngx_http_behave_conversation.c) and is sent from its callback.
 */


#include "ngx_http_behave_common.h"
#include "ngx_http_behave_analyze.h"
#include "ngx_http_behave_stats.h"

#include "behave_redact.h"


static void ngx_http_behave_analyze_body(ngx_http_request_t *r);
static ngx_int_t ngx_http_behave_analyze_process(ngx_http_request_t *r,
    ngx_str_t *body);
static ngx_int_t ngx_http_behave_analyze_redact(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an);
static void ngx_http_behave_analyze_cleanup(void *data);


ngx_int_t
ngx_http_behave_analyze_handler(ngx_http_request_t *r)
{
    ngx_int_t                    rc;
    behave_error_t               err;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_loc_conf_t  *blcf;

    ctx = ngx_http_behave_get_ctx(r);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_http_behave_stats_enter(r, NGX_HTTP_BEHAVE_STAT_ANALYZE);

    if (r->method != NGX_HTTP_POST) {
        if (ngx_http_discard_request_body(r) != NGX_OK) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        return ngx_http_behave_method_not_allowed(r, "POST");
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    if (ngx_http_behave_authenticate(r, blcf->keys, BEHAVE_SCOPE_ANALYZE,
                                     &ctx->key, &err)
        != NGX_OK
        || ngx_http_behave_check_body(r, blcf->max_body_size, &err) != NGX_OK)
    {
        if (ngx_http_discard_request_body(r) != NGX_OK) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        return ngx_http_behave_send_error(r, &err);
    }

    rc = ngx_http_read_client_request_body(r, ngx_http_behave_analyze_body);

    if (rc >= NGX_HTTP_SPECIAL_RESPONSE) {
        return rc;
    }

    return NGX_DONE;
}


static void
ngx_http_behave_analyze_body(ngx_http_request_t *r)
{
    ngx_int_t                    rc;
    ngx_str_t                    body;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    rc = ngx_http_behave_body_string(r, blcf->max_body_size, &body);

    if (rc == NGX_DECLINED) {
        rc = ngx_http_behave_fail(r, BEHAVE_ERR_TOO_LARGE,
                 "the request body is larger than behave_max_body_size");

    } else if (rc == NGX_OK) {
        rc = ngx_http_behave_analyze_process(r, &body);

    } else {
        rc = NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (rc == NGX_DONE) {
        /* the conversation step answers later: keep the request */
        r->main->count++;
    }

    ngx_http_finalize_request(r, rc);
}


static ngx_int_t
ngx_http_behave_analyze_process(ngx_http_request_t *r, ngx_str_t *body)
{
    behave_error_t               err;
    ngx_pool_cleanup_t          *cln;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_analyze_t   *an;
    ngx_http_behave_loc_conf_t  *blcf;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    an = ngx_pcalloc(r->pool, sizeof(ngx_http_behave_analyze_t));
    cln = ngx_pool_cleanup_add(r->pool, 0);

    if (an == NULL || cln == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (behave_analyze_req_parse((char *) body->data, body->len,
                                 blcf->max_message_size, &an->req, &err)
        != BEHAVE_OK)
    {
        return ngx_http_behave_send_error(r, &err);
    }

    /* the parsed tree lives until the request is gone, whatever happens */
    cln->handler = ngx_http_behave_analyze_cleanup;
    cln->data = an;
    ctx->surface = an;

    if (ngx_http_behave_analyze_redact(r, an) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    an->latency_ms = ngx_http_behave_now_ms();
    behave_annotate(an->text, an->text_len, &an->ann);
    behave_route(&an->ann, &an->routing);
    an->latency_ms = ngx_http_behave_now_ms() - an->latency_ms;

    /* for the $behave_* variables of the access log */
    ctx->ann = &an->ann;
    ctx->routing = &an->routing;

    if (an->req.conversation_id != NULL) {
        ctx->conversation_id.data = (u_char *) an->req.conversation_id;
        ctx->conversation_id.len = an->req.conversation_id_len;
    }

    ngx_http_behave_meter_count(r, ctx->key, 1, &an->usage);

    if (an->req.conversation_id != NULL) {
        return ngx_http_behave_conversation_start(r, an);
    }

    return ngx_http_behave_analyze_respond(r, an, NULL);
}


/* with behave_redact on, what is analysed and stored is the redacted form */

static ngx_int_t
ngx_http_behave_analyze_redact(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an)
{
    size_t                       cap, len;
    unsigned                     found;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    an->text = (char *) an->req.message;
    an->text_len = an->req.message_len;

    if (!blcf->redact) {
        return NGX_OK;
    }

    cap = BEHAVE_REDACT_BOUND(an->req.message_len);

    an->text = ngx_pnalloc(r->pool, cap + 1);
    if (an->text == NULL) {
        return NGX_ERROR;
    }

    if (behave_redact(an->req.message, an->req.message_len, an->text, cap,
                      &len, &found)
        != 0)
    {
        return NGX_ERROR;
    }

    an->text[len] = '\0';
    an->text_len = len;
    an->redacted = 1;

    return NGX_OK;
}


ngx_int_t
ngx_http_behave_analyze_respond(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const behave_conv_result_t *conversation)
{
    char                    *json;
    size_t                   len;
    ngx_int_t                rc;
    u_char                  *session_id;
    behave_analyze_resp_t    resp;
    ngx_http_behave_ctx_t   *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    /* in the pool: $behave_session_id reads it at the log phase */
    session_id = ngx_pnalloc(r->pool, 4 + 32 + 1);
    if (session_id == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_memcpy(session_id, "ses_", 4);

    if (ngx_http_behave_random_hex(session_id + 4, 16) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ctx->session_id.data = session_id;
    ctx->session_id.len = 4 + 32;

    ngx_memzero(&resp, sizeof(behave_analyze_resp_t));

    resp.session_id = (char *) session_id;
    resp.latency_ms = an->latency_ms;
    resp.annotation = &an->ann;
    resp.routing = &an->routing;
    resp.tenant_remaining = an->usage.remaining;
    resp.overage = an->usage.overage;
    resp.meter = an->usage.meter;
    resp.conversation = conversation;
    resp.conversation_id = an->req.conversation_id;
    resp.redacted = (int) an->redacted;

    /* the body lives in the request pool: the span is still valid */
    resp.metadata = an->req.metadata;
    resp.metadata_len = an->req.metadata_len;

    resp.gateway_latency_ms = ngx_http_behave_now_ms() - ctx->started_ms;

    json = behave_analyze_response_json(&resp, &len);
    if (json == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    rc = ngx_http_behave_send_json(r, NGX_HTTP_OK, (u_char *) json, len);
    free(json);

    return rc;
}


static void
ngx_http_behave_analyze_cleanup(void *data)
{
    ngx_http_behave_analyze_t  *an = data;

    behave_analyze_req_free(&an->req);
}
