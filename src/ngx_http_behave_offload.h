/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Heavy core work off the event loop: "behave_thread_pool NAME [min=SIZE]"
 * runs a request's pure core steps (the strict check and parse of a large
 * body, a gateway computation, a webhook's HMAC) in an nginx thread pool,
 * so that no request holds the worker's other connections for
 * milliseconds; the request goes on on the event loop when the step is
 * done.  Without the directive, or for a body under min, the step runs
 * inline as before: the answers are the same either way.
 *
 * A step's work() runs in a thread: it may call the core and malloc(),
 * never nginx (no pool, no log, no request); it reads and writes only the
 * data it was given, which lives in the request's pool.  resume() runs on
 * the event loop and returns what to finish the request with, as any
 * step that answers does.  A client that leaves during the work ends the
 * request once the work is back (499): resume() is not called, and the
 * request pool's cleanups free what work() made.
 */

#ifndef NGX_HTTP_BEHAVE_OFFLOAD_H
#define NGX_HTTP_BEHAVE_OFFLOAD_H

#include "ngx_http_behave_common.h"


typedef void (*ngx_http_behave_work_pt)(void *data);
/* returns what to finish the request with (ngx_http_behave_reply.h) */
typedef ngx_int_t (*ngx_http_behave_resume_pt)(ngx_http_request_t *r,
    void *data);


/* the directive's handler */
char *ngx_http_behave_thread_pool(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);

/*
 * work(data) then resume(r, data): in a thread and then on the event loop
 * when the location has a pool and size is at least its min (returns
 * NGX_DONE: the completion finishes the request with what resume()
 * returns), else both at once (returns what resume() returned).  Either
 * way the caller finishes the request with what this returns.
 */
ngx_int_t ngx_http_behave_offload(ngx_http_request_t *r, size_t size,
    ngx_http_behave_work_pt work, ngx_http_behave_resume_pt resume,
    void *data);

/*
 * free_fn(ptr) in the location's thread pool when it has one and size is
 * at least its min, else at once: for large trees released by a pool
 * cleanup, when the request is going away.  The request may be gone
 * before it runs: ptr must be malloc()ed memory, not the pool's.
 */
void ngx_http_behave_offload_free(ngx_http_behave_loc_conf_t *blcf,
    size_t size, void (*free_fn)(void *ptr), void *ptr);


#endif /* NGX_HTTP_BEHAVE_OFFLOAD_H */
