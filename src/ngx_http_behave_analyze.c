/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface B: POST /v1/analyze.
 */


#include "ngx_http_behave_common.h"

#include "behave_annotate.h"
#include "behave_request.h"
#include "behave_response.h"
#include "behave_routing.h"


static void ngx_http_behave_analyze_body(ngx_http_request_t *r);
static ngx_int_t ngx_http_behave_analyze_process(ngx_http_request_t *r,
    ngx_http_behave_ctx_t *ctx, ngx_str_t *body);
static ngx_int_t ngx_http_behave_analyze_respond(ngx_http_request_t *r,
    ngx_http_behave_ctx_t *ctx, behave_analyze_req_t *req,
    behave_analyze_resp_t *resp);


ngx_int_t
ngx_http_behave_analyze_handler(ngx_http_request_t *r)
{
    ngx_int_t                       rc;
    behave_error_t                  err;
    ngx_http_behave_loc_conf_t     *blcf;
    ngx_http_behave_ctx_t  *ctx;

    if (r->method != NGX_HTTP_POST) {
        if (ngx_http_discard_request_body(r) != NGX_OK) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        return ngx_http_behave_method_not_allowed(r, "POST");
    }

    ctx = ngx_http_behave_get_ctx(r);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
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
    ngx_int_t                       rc;
    ngx_str_t                       body;
    ngx_http_behave_loc_conf_t     *blcf;
    ngx_http_behave_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    rc = ngx_http_behave_body_string(r, blcf->max_body_size, &body);

    if (rc == NGX_DECLINED) {
        rc = ngx_http_behave_fail(r, BEHAVE_ERR_TOO_LARGE,
                 "the request body is larger than behave_max_body_size");

    } else if (rc == NGX_OK) {
        rc = ngx_http_behave_analyze_process(r, ctx, &body);

    } else {
        rc = NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    ngx_http_finalize_request(r, rc);
}


static ngx_int_t
ngx_http_behave_analyze_process(ngx_http_request_t *r,
    ngx_http_behave_ctx_t *ctx, ngx_str_t *body)
{
    ngx_int_t                    rc;
    behave_error_t               err;
    behave_routing_t             routing;
    behave_annotation_t          ann;
    behave_analyze_req_t         req;
    behave_analyze_resp_t        resp;
    ngx_http_behave_usage_t      usage;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    if (behave_analyze_req_parse((char *) body->data, body->len,
                                 blcf->max_message_size, &req, &err)
        != BEHAVE_OK)
    {
        return ngx_http_behave_send_error(r, &err);
    }

    ngx_memzero(&resp, sizeof(resp));

    resp.latency_ms = ngx_http_behave_now_ms();
    behave_annotate(req.message, req.message_len, &ann);
    behave_route(&ann, &routing);
    resp.latency_ms = ngx_http_behave_now_ms() - resp.latency_ms;

    ngx_http_behave_meter_count(r, ctx->key, 1, &usage);

    resp.annotation = &ann;
    resp.routing = &routing;
    resp.tenant_remaining = usage.remaining;
    resp.overage = usage.overage;
    resp.meter = usage.meter;

    rc = ngx_http_behave_analyze_respond(r, ctx, &req, &resp);

    behave_analyze_req_free(&req);

    return rc;
}


static ngx_int_t
ngx_http_behave_analyze_respond(ngx_http_request_t *r,
    ngx_http_behave_ctx_t *ctx, behave_analyze_req_t *req,
    behave_analyze_resp_t *resp)
{
    char       *json;
    size_t      len;
    ngx_int_t   rc;
    u_char      session_id[4 + 32 + 1];

    ngx_memcpy(session_id, "ses_", 4);

    if (ngx_http_behave_random_hex(session_id + 4, 16) != NGX_OK) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    resp->session_id = (char *) session_id;

    if (req->metadata != NULL) {
        resp->metadata = cJSON_DetachItemViaPointer(req->root, req->metadata);
        req->metadata = NULL;
    }

    resp->gateway_latency_ms = ngx_http_behave_now_ms() - ctx->started_ms;

    json = behave_analyze_response_json(resp, &len);
    if (json == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    rc = ngx_http_behave_send_json(r, NGX_HTTP_OK, (u_char *) json, len);
    free(json);

    return rc;
}
