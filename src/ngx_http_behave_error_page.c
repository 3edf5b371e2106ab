/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * "behave_error_page;": the JSON error shape for nginx's own refusals.
 * nginx answers some requests itself, with an HTML page, before (or
 * instead of) any module: a URI or header line too long (414, 494), a
 * malformed request (400), a Transfer-Encoding it does not know (501), a
 * URI that normalises into no location (404).  Most of these happen while
 * the header is read, before a location is chosen, so only the server's
 * error_page can catch them:
 *
 *     error_page 400 404 405 408 413 414 494 500 501 503 /behave-error;
 *     location = /behave-error { internal; behave_error_page; }
 *
 * A URI, not a named location: nginx refuses to go to a named location
 * from a request whose request line did not parse ("empty URI").
 * Without "=" in error_page nginx keeps the status it was sending
 * (r->err_status; 494 already made 400 by error_page itself); this
 * handler answers it as JSON, with the kind and message of the core's
 * table (behave_error_for_status()).  Reached without an error it
 * answers 404.
 */


#include "ngx_http_behave_error_page.h"
#include "ngx_http_behave_reply.h"


static ngx_int_t ngx_http_behave_error_page_handler(ngx_http_request_t *r);


char *
ngx_http_behave_error_page(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_core_loc_conf_t  *clcf;

    clcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_core_module);

    if (clcf->handler != NULL) {
        return "conflicts with another content handler in this location";
    }

    clcf->handler = ngx_http_behave_error_page_handler;

    /*
     * A 413 redirected here still carries its Content-Length; when nginx
     * has already read the client's end of the body, nothing marks it as
     * discarded and the size check of this location would refuse it again,
     * now with the HTML page.  Unless the operator says otherwise.
     */
    if (clcf->client_max_body_size == NGX_CONF_UNSET) {
        clcf->client_max_body_size = 0;
    }

    return NGX_CONF_OK;
}


static ngx_int_t
ngx_http_behave_error_page_handler(ngx_http_request_t *r)
{
    int              sent;
    char            *json;
    size_t           len;
    ngx_int_t        status;
    behave_error_t   err;

    status = r->err_status ? r->err_status : NGX_HTTP_NOT_FOUND;

    behave_error_for_status((int) status, &sent, &err);

    /* nginx logged the cause already; this is its answer, not an event */
    ngx_log_debug2(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave error page: %i as %d", status, sent);

    if (ngx_http_discard_request_body(r) != NGX_OK) {
        r->keepalive = 0;
    }

    /* the header filter sends err_status when it is set */
    r->err_status = sent;

    json = behave_error_json(&err, &len);
    if (json == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    status = ngx_http_behave_send_json(r, sent, (u_char *) json, len);
    free(json);

    return status;
}
