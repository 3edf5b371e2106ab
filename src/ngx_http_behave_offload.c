/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Heavy core work in an nginx thread pool (ngx_http_behave_offload.h).
 *
 * While the work runs the request is "blocked" (r->main->blocked), as
 * nginx's own thread reads make it: nginx frees no request that is
 * blocked, so the data in its pool stays valid for the thread whatever
 * the client does.  A client that closes the connection meanwhile
 * (ngx_http_test_reading) terminates the request, which nginx defers
 * while it is blocked; the completion handler then finishes it (499)
 * instead of resuming it.  The request is also held as a Redis step holds
 * it (the caller finishes with NGX_DONE), and the completion finishes it
 * with what resume() returns.
 */


#include "ngx_http_behave_offload.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_util.h"


#define NGX_HTTP_BEHAVE_THREAD_MIN  (16 * 1024)


#if (NGX_THREADS)

/* what a thread of the pool runs: work(data), a request's or a release */
typedef struct {
    ngx_http_behave_work_pt     work;
    void                       *data;
} ngx_http_behave_job_t;


typedef struct {
    ngx_http_behave_job_t       job;        /* first: the task's context */
    ngx_http_request_t         *request;
    ngx_http_behave_resume_pt   resume;
    double                      posted_ms;
    ngx_event_t                 hold;       /* a timer while in a thread */
} ngx_http_behave_offload_t;


static void ngx_http_behave_offload_nice(void);
static void ngx_http_behave_job_run(void *data, ngx_log_t *log);
static void ngx_http_behave_offload_done(ngx_event_t *ev);
static void ngx_http_behave_offload_hold(ngx_event_t *ev);
static void ngx_http_behave_release_done(ngx_event_t *ev);

#endif


char *
ngx_http_behave_thread_pool(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_behave_loc_conf_t  *blcf = conf;

    ssize_t     min;
    ngx_str_t  *value, s;

    if (blcf->thread_pool != NGX_CONF_UNSET_PTR) {
        return "is duplicate";
    }

    value = cf->args->elts;
    min = NGX_HTTP_BEHAVE_THREAD_MIN;

    if (cf->args->nelts == 3) {
        if (ngx_strncmp(value[2].data, "min=", 4) != 0) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "invalid parameter \"%V\": expected min=SIZE",
                               &value[2]);
            return NGX_CONF_ERROR;
        }

        s.data = value[2].data + 4;
        s.len = value[2].len - 4;

        min = ngx_parse_size(&s);
        if (min == NGX_ERROR) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "invalid size \"%V\"", &value[2]);
            return NGX_CONF_ERROR;
        }
    }

    blcf->thread_min = (size_t) min;

    if (ngx_strcmp(value[1].data, "off") == 0) {
        if (cf->args->nelts == 3) {
            return "takes no min= with \"off\"";
        }

        blcf->thread_pool = NULL;
        return NGX_CONF_OK;
    }

#if (NGX_THREADS)

    /* a pool that no "thread_pool" declares fails "nginx -t" (not default) */
    blcf->thread_pool = ngx_thread_pool_add(cf, &value[1]);
    if (blcf->thread_pool == NULL) {
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;

#else

    ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                       "\"behave_thread_pool\" needs nginx built "
                       "--with-threads");
    return NGX_CONF_ERROR;

#endif
}


ngx_int_t
ngx_http_behave_offload(ngx_http_request_t *r, size_t size,
    ngx_http_behave_work_pt work, ngx_http_behave_resume_pt resume,
    void *data)
{
#if (NGX_THREADS)
    ngx_thread_task_t           *task;
    ngx_http_behave_offload_t   *o;
    ngx_http_behave_loc_conf_t  *blcf;

    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    if (blcf->thread_pool == NULL || size < blcf->thread_min) {
        goto in_loop;
    }

    task = ngx_thread_task_alloc(r->pool, sizeof(ngx_http_behave_offload_t));
    if (task == NULL) {
        goto in_loop;
    }

    o = task->ctx;
    o->job.work = work;
    o->job.data = data;
    o->request = r;
    o->resume = resume;

    task->handler = ngx_http_behave_job_run;
    task->event.data = o;
    task->event.handler = ngx_http_behave_offload_done;

    if (ngx_thread_task_post(blcf->thread_pool, task) != NGX_OK) {
        /* the pool's queue is full (logged by nginx): inline, not a 5xx */
        goto in_loop;
    }

    o->posted_ms = ngx_http_behave_now_ms();
    r->main->blocked++;

    /*
     * A worker that is asked to quit leaves when no timer is left: this
     * one, never due in practice, keeps it until the work is back and
     * the request answered, as a Redis command's timeout does.
     */
    o->hold.handler = ngx_http_behave_offload_hold;
    o->hold.data = o;
    o->hold.log = r->connection->log;
    ngx_add_timer(&o->hold, 86400000);

    /* a client that leaves meanwhile terminates the request (deferred) */
    r->read_event_handler = ngx_http_test_reading;

    return NGX_DONE;

in_loop:

#endif

    work(data);

    return resume(r, data);
}


void
ngx_http_behave_offload_free(ngx_http_behave_loc_conf_t *blcf, size_t size,
    void (*free_fn)(void *ptr), void *ptr)
{
#if (NGX_THREADS)
    ngx_thread_task_t      *task;
    ngx_http_behave_job_t  *job;

    if (blcf->thread_pool == NULL || size < blcf->thread_min) {
        goto in_loop;
    }

    /* the request is going away: the task is memory of its own */
    task = ngx_calloc(sizeof(ngx_thread_task_t)
                      + sizeof(ngx_http_behave_job_t), ngx_cycle->log);
    if (task == NULL) {
        goto in_loop;
    }

    job = (ngx_http_behave_job_t *) (task + 1);
    job->work = free_fn;
    job->data = ptr;

    task->ctx = job;
    task->handler = ngx_http_behave_job_run;
    task->event.data = task;
    task->event.handler = ngx_http_behave_release_done;
    task->event.log = ngx_cycle->log;

    if (ngx_thread_task_post(blcf->thread_pool, task) == NGX_OK) {
        return;
    }

    ngx_free(task);

in_loop:

#endif

    free_fn(ptr);
}


#if (NGX_THREADS)

/*
 * The pool's threads yield the CPU to the event loops: on a machine whose
 * cores are all busy, a worker's loop (every request's next step) runs
 * before the heavy work of the few large ones.  Linux's nice value is per
 * thread; set once in each thread of the pool, failures ignored (the work
 * is done either way).
 */
static void
ngx_http_behave_offload_nice(void)
{
#if (NGX_LINUX)
    static __thread ngx_uint_t  niced;

    if (!niced) {
        niced = 1;
        (void) setpriority(PRIO_PROCESS, (id_t) syscall(SYS_gettid), 10);
    }
#endif
}


/* data: a job, or an offload whose job comes first */

static void
ngx_http_behave_job_run(void *data, ngx_log_t *log)
{
    ngx_http_behave_job_t  *job = data;

    ngx_http_behave_offload_nice();
    job->work(job->data);
}


static void
ngx_http_behave_offload_done(ngx_event_t *ev)
{
    ngx_connection_t           *c;
    ngx_http_request_t         *r;
    ngx_http_behave_offload_t  *o;

    o = ev->data;
    r = o->request;
    c = r->connection;

    ngx_http_set_log_request(c->log, r);

    r->main->blocked--;

    if (o->hold.timer_set) {
        ngx_del_timer(&o->hold);
    }

    /* the trace shows the wait: queue and work, "thread" */
    ngx_http_behave_span(r, "thread", o->posted_ms, NULL);

    if (c->error) {
        /* terminated while blocked: now it can go (the cleanups free) */
        ngx_http_finalize_request(r, NGX_HTTP_CLIENT_CLOSED_REQUEST);

    } else {
        ngx_http_behave_finish(r, o->resume(r, o->job.data));
    }

    ngx_http_run_posted_requests(c);
}


static void
ngx_http_behave_offload_hold(ngx_event_t *ev)
{
    /* a day in a thread: nothing to do but wait on */
}


static void
ngx_http_behave_release_done(ngx_event_t *ev)
{
    /* ngx_thread_pool_handler() took the next task before calling this */
    ngx_free(ev->data);
}

#endif
