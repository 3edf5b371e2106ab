/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface B: POST /v1/analyze.  The annotation is computed in the body
 * handler; with a conversation_id the answer waits for one Redis step
 * (ngx_http_behave_conversation.c) and is sent from its callback.
 */


#include "ngx_http_behave_analyze.h"
#include "ngx_http_behave_auth.h"
#include "ngx_http_behave_body.h"
#include "ngx_http_behave_meter.h"
#include "ngx_http_behave_offload.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_trace.h"
#include "ngx_http_behave_util.h"

#include "text/behave_redact.h"


static void ngx_http_behave_analyze_body(ngx_http_request_t *r);
static ngx_int_t ngx_http_behave_analyze_process(ngx_http_request_t *r,
    ngx_str_t *body);
static void ngx_http_behave_analyze_run(void *data);
static ngx_int_t ngx_http_behave_analyze_parsed(ngx_http_request_t *r,
    void *data);
static void ngx_http_behave_analyze_conversation_done(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv);
static ngx_int_t ngx_http_behave_analyze_respond(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const behave_conv_result_t *conversation);
static ngx_int_t ngx_http_behave_analyze_redact(
    ngx_http_behave_analyze_t *an);
static void ngx_http_behave_analyze_cleanup(void *data);


ngx_int_t
ngx_http_behave_analyze_handler(ngx_http_request_t *r)
{
    behave_error_t               err;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_loc_conf_t  *blcf;

    ctx = ngx_http_behave_trace_enter(r, NGX_HTTP_BEHAVE_STAT_ANALYZE);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (r->method != NGX_HTTP_POST) {
        return ngx_http_behave_method_not_allowed(r, "POST");
    }

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    if (ngx_http_behave_authenticate(r, blcf->keys, BEHAVE_SCOPE_ANALYZE,
                                     &ctx->key, &err)
        != NGX_OK
        || ngx_http_behave_check_body(r, blcf->max_body_size, &err) != NGX_OK)
    {
        return ngx_http_behave_refuse(r, &err);
    }

    return ngx_http_behave_read_body(r, ngx_http_behave_analyze_body);
}


static void
ngx_http_behave_analyze_body(ngx_http_request_t *r)
{
    ngx_str_t                    body;
    ngx_http_behave_step_t       step;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    step = ngx_http_behave_body_reserve(r, blcf->max_body_size, &body);

    ngx_http_behave_finish(r, step.answered
                              ? step.rc
                              : ngx_http_behave_analyze_process(r, &body));
}


static ngx_int_t
ngx_http_behave_analyze_process(ngx_http_request_t *r, ngx_str_t *body)
{
    ngx_http_behave_analyze_t   *an;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    /* what the parse makes lives until the request is gone, whatever */
    an = ngx_http_behave_surface_new(r, sizeof(ngx_http_behave_analyze_t),
                                     ngx_http_behave_analyze_cleanup);
    if (an == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    an->body = *body;
    an->bufs = r->request_body ? r->request_body->bufs : NULL;
    an->max_message_size = blcf->max_message_size;
    an->redact = blcf->redact;

    return ngx_http_behave_offload(r, body->len, ngx_http_behave_analyze_run,
                                   ngx_http_behave_analyze_parsed, an);
}


/*
 * In a thread for a large body: the body's string, the strict check, the
 * walk for the members read, the redaction and the annotation.
 */

static void
ngx_http_behave_analyze_run(void *data)
{
    ngx_http_behave_analyze_t  *an = data;

    if (ngx_http_behave_body_fill(an->bufs, &an->body) != NGX_OK) {
        an->unread = 1;
        return;
    }

    an->rc = behave_analyze_req_parse((char *) an->body.data, an->body.len,
                                      an->max_message_size, &an->req,
                                      &an->err);

    if (an->rc != BEHAVE_OK) {
        return;
    }

    an->parsed = 1;

    if (ngx_http_behave_analyze_redact(an) != NGX_OK) {
        behave_error_set(&an->err, BEHAVE_ERR_INTERNAL, "out of memory");
        an->rc = BEHAVE_ERR_INTERNAL;
        return;
    }

    an->latency_ms = ngx_http_behave_now_ms();
    behave_annotate(an->text, an->text_len, &an->ann);
    behave_route(&an->ann, &an->routing);
    an->latency_ms = ngx_http_behave_now_ms() - an->latency_ms;
}


static ngx_int_t
ngx_http_behave_analyze_parsed(ngx_http_request_t *r, void *data)
{
    ngx_http_behave_analyze_t  *an = data;

    ngx_http_behave_ctx_t  *ctx;

    if (an->unread) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "behave: short read of the request body temp file");
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (an->rc == BEHAVE_ERR_INTERNAL && an->parsed) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (an->rc != BEHAVE_OK) {
        return ngx_http_behave_send_error(r, &an->err);
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    /* for the $behave_* variables of the access log */
    ctx->ann = &an->ann;
    ctx->routing = &an->routing;

    if (an->req.conversation_id != NULL) {
        ctx->conversation_id.data = (u_char *) an->req.conversation_id;
        ctx->conversation_id.len = an->req.conversation_id_len;
    }

    ngx_http_behave_meter_count(r, ctx->key, 1, &an->usage);

    if (an->req.conversation_id == NULL) {
        return ngx_http_behave_analyze_respond(r, an, NULL);
    }

    an->conv.tenant = ctx->key->tenant;
    an->conv.conversation_id = an->req.conversation_id;
    an->conv.speaker = an->req.speaker;
    an->conv.text = an->text;
    an->conv.text_len = an->text_len;
    an->conv.ann = &an->ann;
    an->conv.done = ngx_http_behave_analyze_conversation_done;

    switch (ngx_http_behave_conversation_start(r, &an->conv)) {

    case NGX_DONE:
        return NGX_DONE;

    case NGX_OK:
        /* degraded at once: the answer is sent now */
        return ngx_http_behave_analyze_respond(r, an, an->conv.result);

    default:
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }
}


/* the conversation step's callback: the answer, then the request's end */

static void
ngx_http_behave_analyze_conversation_done(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv)
{
    ngx_http_behave_analyze_t  *an;

    an = (ngx_http_behave_analyze_t *) ((u_char *) conv
                                        - offsetof(ngx_http_behave_analyze_t,
                                                   conv));

    ngx_http_behave_finish(r, ngx_http_behave_analyze_respond(r, an,
                                                              conv->result));
}


/* with behave_redact on, what is analysed and stored is the redacted form */

/* in the thread of the parse when there is one: no pool, malloc() */

static ngx_int_t
ngx_http_behave_analyze_redact(ngx_http_behave_analyze_t *an)
{
    size_t    cap, len;
    unsigned  found;

    an->text = (char *) an->req.message;
    an->text_len = an->req.message_len;

    if (!an->redact) {
        return NGX_OK;
    }

    cap = BEHAVE_REDACT_BOUND(an->req.message_len);

    an->redacted_text = malloc(cap + 1);
    if (an->redacted_text == NULL) {
        return NGX_ERROR;
    }

    an->text = an->redacted_text;

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


static ngx_int_t
ngx_http_behave_analyze_respond(ngx_http_request_t *r,
    ngx_http_behave_analyze_t *an, const behave_conv_result_t *conversation)
{
    char                    *json;
    size_t                   len;
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

    /* the body lives in the request pool: the metadata's span is valid */
    behave_analyze_resp_init(&resp, (char *) session_id, an->usage.meter,
                             &an->req, &an->ann, &an->routing);

    resp.latency_ms = an->latency_ms;
    resp.tenant_remaining = an->usage.remaining;
    resp.overage = an->usage.overage;
    resp.conversation = conversation;
    resp.conversation_id = an->req.conversation_id;
    resp.redacted = (int) an->redacted;

    resp.gateway_latency_ms = ngx_http_behave_now_ms() - ctx->started_ms;

    json = behave_analyze_response_json(&resp, &len);

    return ngx_http_behave_send_malloced(r, NGX_HTTP_OK, json, len);
}


static void
ngx_http_behave_analyze_cleanup(void *data)
{
    ngx_http_behave_analyze_t  *an = data;

    behave_analyze_req_free(&an->req);
    free(an->redacted_text);
    an->redacted_text = NULL;
}
