/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Answers and the end of a request: the one way every handler sends a
 * JSON answer or error and finishes.
 *
 * The rule, for every handler:
 * - a function that sends the answer returns what to finalize with: the
 *   result of sending, an HTTP status for nginx to send, or NGX_DONE when
 *   a Redis step will answer later;
 * - a step that may refuse the request (reading and parsing a body,
 *   checking fields) returns ngx_http_behave_step_t: either it handed
 *   back its result (go on) or the request's answer is decided (stop,
 *   with rc to finish with).  The type keeps "parsed" and "answered with
 *   NGX_OK" apart: an ngx_int_t cannot be tested as a step.
 */

#ifndef NGX_HTTP_BEHAVE_REPLY_H
#define NGX_HTTP_BEHAVE_REPLY_H

#include "ngx_http_behave_common.h"


typedef struct {
    ngx_int_t                   rc;             /* when answered */
    unsigned                    answered:1;
} ngx_http_behave_step_t;


/* the step handed back its result: the handler goes on */
static ngx_inline ngx_http_behave_step_t
ngx_http_behave_go_on(void)
{
    ngx_http_behave_step_t  s = { NGX_OK, 0 };

    return s;
}


/* the answer is decided: rc is what ngx_http_behave_finish() takes */
static ngx_inline ngx_http_behave_step_t
ngx_http_behave_answered(ngx_int_t rc)
{
    ngx_http_behave_step_t  s = { rc, 1 };

    return s;
}


ngx_int_t ngx_http_behave_send_json(ngx_http_request_t *r, ngx_uint_t status,
    u_char *json, size_t len);
/* json malloc()ed: sent without a copy, freed with the request's pool */
ngx_int_t ngx_http_behave_send_malloced(ngx_http_request_t *r,
    ngx_uint_t status, char *json, size_t len);
ngx_int_t ngx_http_behave_send_error(ngx_http_request_t *r,
    behave_error_t *err);
ngx_int_t ngx_http_behave_send_cjson(ngx_http_request_t *r, ngx_uint_t status,
    cJSON *obj);
ngx_int_t ngx_http_behave_fail(ngx_http_request_t *r, behave_err_e code,
    const char *message);
ngx_int_t ngx_http_behave_add_header(ngx_http_request_t *r, const char *name,
    const char *value);

/* from a content handler: the body is discarded, then the error sent */
ngx_int_t ngx_http_behave_refuse(ngx_http_request_t *r, behave_error_t *err);
ngx_int_t ngx_http_behave_method_not_allowed(ngx_http_request_t *r,
    const char *allow);

/*
 * The end of a body handler or a Redis callback: exactly one call per
 * request.  NGX_DONE keeps the request for a Redis step still on its way.
 */
void ngx_http_behave_finish(ngx_http_request_t *r, ngx_int_t rc);

/* from a content handler whose Redis step answers later */
ngx_int_t ngx_http_behave_wait(ngx_http_request_t *r);


#endif /* NGX_HTTP_BEHAVE_REPLY_H */
