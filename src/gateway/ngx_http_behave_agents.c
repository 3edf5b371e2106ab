/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * agent-status: the agents are the service's own workers, on every node.
 * This node's come live from the shared memory zone; the other nodes'
 * from the heartbeats they publish into one Redis hash every 2 seconds
 * (behave:fleet, field = node name).  A node whose heartbeat is older
 * than 10 seconds shows as down; after an hour it is left out.
 */


#include "ngx_http_behave_agents.h"
#include "ngx_http_behave_reply.h"
#include "ngx_http_behave_util.h"
#include "ngx_http_behave_redis.h"
#include "ngx_http_behave_redis_keys.h"
#include "ngx_http_behave_redis_script.h"
#include "ngx_http_behave_stats.h"
#include "ngx_http_behave_fleet_read_lua.h"        /* fleet_read.lua */

#include "base/behave_json.h"
#include "analyze/behave_response.h"


#define NGX_HTTP_BEHAVE_HEARTBEAT        2000
#define NGX_HTTP_BEHAVE_HEARTBEAT_STALE  10000
#define NGX_HTTP_BEHAVE_HEARTBEAT_GONE   3600000


typedef struct {
    cJSON                      *agents;
    ngx_atomic_uint_t           buckets[NGX_HTTP_BEHAVE_STAT_BUCKETS];
    ngx_uint_t                  inflight;
    double                      throughput;
    const char                 *filter;
} ngx_http_behave_fleet_t;


static cJSON *ngx_http_behave_node_json(ngx_http_behave_stats_t *st,
    int64_t now_ms);
static void ngx_http_behave_fleet_add_node(ngx_http_behave_fleet_t *fl,
    cJSON *node, int64_t now_ms, ngx_uint_t live);
static void ngx_http_behave_fleet_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_fleet_respond(ngx_http_request_t *r,
    ngx_http_behave_gw_t *gw, redisReply *reply);
static void ngx_http_behave_heartbeat(ngx_event_t *ev);
static void ngx_http_behave_heartbeat_done(redisReply *reply, void *data);
static int64_t ngx_http_behave_now_unix_ms(void);


static ngx_event_t  ngx_http_behave_heartbeat_ev;

/* the node's name: behave_node_name or "<host>:<port>" (stats.c) */
#define ngx_http_behave_node  ngx_http_behave_stats_node()


void
ngx_http_behave_agents_init_process(ngx_cycle_t *cycle)
{
    ngx_http_behave_main_conf_t  *bmcf;

    bmcf = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_behave_module);

    /* one publisher per node is enough: the first worker */
    if (bmcf == NULL || bmcf->redis.len == 0 || ngx_worker != 0) {
        return;
    }

    ngx_http_behave_heartbeat_ev.handler = ngx_http_behave_heartbeat;
    ngx_http_behave_heartbeat_ev.log = cycle->log;
    ngx_http_behave_heartbeat_ev.data = bmcf;
    ngx_http_behave_heartbeat_ev.cancelable = 1;

    ngx_add_timer(&ngx_http_behave_heartbeat_ev, 500);
}


static int64_t
ngx_http_behave_now_unix_ms(void)
{
    ngx_time_t  *tp;

    tp = ngx_timeofday();

    return (int64_t) tp->sec * 1000 + tp->msec;
}


static void
ngx_http_behave_heartbeat(ngx_event_t *ev)
{
    char                     *json;
    cJSON                    *node;
    size_t                    len[4];
    const char               *argv[4];
    ngx_http_behave_stats_t  *st;

    if (ngx_exiting || ngx_terminate) {
        return;
    }

    st = ngx_http_behave_stats();
    node = st ? ngx_http_behave_node_json(st, ngx_http_behave_now_unix_ms())
              : NULL;
    json = node ? behave_json_print(node, NULL) : NULL;
    cJSON_Delete(node);

    if (json != NULL) {
        argv[0] = "HSET";
        argv[1] = NGX_HTTP_BEHAVE_KEY_FLEET;
        argv[2] = ngx_http_behave_node;
        argv[3] = json;
        len[0] = 4;
        len[1] = sizeof(NGX_HTTP_BEHAVE_KEY_FLEET) - 1;
        len[2] = ngx_strlen(ngx_http_behave_node);
        len[3] = ngx_strlen(json);

        (void) ngx_http_behave_redis_command_bg(4, argv, len,
                   ngx_http_behave_heartbeat_done, NULL);
        free(json);
    }

    ngx_add_timer(ev, NGX_HTTP_BEHAVE_HEARTBEAT);
}


static void
ngx_http_behave_heartbeat_done(redisReply *reply, void *data)
{
}


/*
 * This node as published: its name, the time, and every live worker
 * with its counters and latency histogram.
 */

static cJSON *
ngx_http_behave_node_json(ngx_http_behave_stats_t *st, int64_t now_ms)
{
    cJSON                          *node, *workers, *w, *b;
    ngx_uint_t                      i, k;
    ngx_http_behave_stat_worker_t  *sw;

    node = cJSON_CreateObject();
    if (node == NULL) {
        return NULL;
    }

    cJSON_AddStringToObject(node, "node", ngx_http_behave_node);
    cJSON_AddNumberToObject(node, "ts_ms", (double) now_ms);
    cJSON_AddNumberToObject(node, "throughput",
                            ngx_http_behave_stats_throughput(st));
    workers = cJSON_AddArrayToObject(node, "workers");

    for (i = 0; workers && i < NGX_HTTP_BEHAVE_STAT_WORKERS; i++) {
        sw = &st->workers[i];

        if (sw->pid == 0) {
            continue;
        }

        w = cJSON_CreateObject();
        if (w == NULL) {
            break;
        }

        cJSON_AddNumberToObject(w, "pid", (double) sw->pid);
        cJSON_AddBoolToObject(w, "alive", kill((ngx_pid_t) sw->pid, 0) == 0);
        cJSON_AddNumberToObject(w, "started", (double) sw->started);
        cJSON_AddNumberToObject(w, "requests", (double) sw->requests);
        cJSON_AddNumberToObject(w, "errors", (double) sw->errors);
        cJSON_AddNumberToObject(w, "inflight", (double) sw->inflight);
        cJSON_AddBoolToObject(w, "redis_up", sw->redis_up != 0);

        b = cJSON_AddArrayToObject(w, "buckets");
        for (k = 0; b && k < NGX_HTTP_BEHAVE_STAT_BUCKETS; k++) {
            cJSON_AddItemToArray(b, cJSON_CreateNumber((double)
                                                       sw->buckets[k]));
        }

        cJSON_AddItemToArray(workers, w);
    }

    return node;
}


ngx_int_t
ngx_http_behave_agents_status(ngx_http_request_t *r, ngx_http_behave_gw_t *gw)
{
    cJSON                         *filter;
    const char                    *reason;
    ngx_http_behave_redis_args_t   a;

    filter = cJSON_GetObjectItemCaseSensitive(gw->req, "filter");

    if (filter != NULL && !cJSON_IsNull(filter) && !cJSON_IsString(filter)) {
        return ngx_http_behave_fail(r, BEHAVE_ERR_INVALID_FIELD,
                   "field \"filter\" must be a string: a state (up, "
                   "degraded, down), a role (worker) or a node name");
    }

    if (!ngx_http_behave_redis_configured(r)) {
        return ngx_http_behave_fleet_respond(r, gw, NULL);
    }

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_fleet_read_script);
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_FLEET_READ_KEY_FLEET,
                                  NGX_HTTP_BEHAVE_KEY_FLEET);

    if (ngx_http_behave_redis_run(r, &a, ngx_http_behave_fleet_reply, gw,
                                  &reason)
        != NGX_OK)
    {
        return ngx_http_behave_fleet_respond(r, gw, NULL);
    }

    return NGX_DONE;
}


static void
ngx_http_behave_fleet_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    ngx_http_behave_gw_t  *gw = data;

    if (reply != NULL && reply->type != REDIS_REPLY_ARRAY) {
        reply = NULL;
    }

    ngx_http_behave_finish(r,
                                   ngx_http_behave_fleet_respond(r, gw, reply));
}


static ngx_int_t
ngx_http_behave_fleet_respond(ngx_http_request_t *r, ngx_http_behave_gw_t *gw,
    redisReply *reply)
{
    size_t                    i;
    cJSON                    *resp, *node, *filter, *name;
    int64_t                   now_ms;
    ngx_http_behave_fleet_t   fl;
    ngx_http_behave_stats_t  *st;

    st = ngx_http_behave_stats();
    now_ms = ngx_http_behave_now_unix_ms();

    ngx_memzero(&fl, sizeof(ngx_http_behave_fleet_t));
    filter = cJSON_GetObjectItemCaseSensitive(gw->req, "filter");
    fl.filter = cJSON_IsString(filter) ? filter->valuestring : NULL;

    resp = cJSON_CreateObject();
    fl.agents = cJSON_AddArrayToObject(resp, "agents");

    if (resp == NULL || fl.agents == NULL || st == NULL) {
        cJSON_Delete(resp);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* this node, live */
    node = ngx_http_behave_node_json(st, now_ms);
    if (node != NULL) {
        ngx_http_behave_fleet_add_node(&fl, node, now_ms, 1);
        cJSON_Delete(node);
    }

    for (i = 0; reply != NULL && i + 1 < reply->elements; i += 2) {
        if (reply->element[i]->type != REDIS_REPLY_STRING
            || reply->element[i + 1]->type != REDIS_REPLY_STRING
            || ngx_strcmp(reply->element[i]->str, ngx_http_behave_node) == 0)
        {
            continue;
        }

        node = cJSON_ParseWithLength(reply->element[i + 1]->str,
                                     reply->element[i + 1]->len);
        name = node ? cJSON_GetObjectItem(node, "node") : NULL;

        if (cJSON_IsString(name)) {
            ngx_http_behave_fleet_add_node(&fl, node, now_ms, 0);
        }

        cJSON_Delete(node);
    }

    cJSON_AddNumberToObject(resp, "active_workflows", (double) fl.inflight);
    cJSON_AddNumberToObject(resp, "throughput",
                            behave_round3(fl.throughput));
    cJSON_AddNumberToObject(resp, "latency_p95",
                            behave_round3(ngx_http_behave_stats_p95(
                                (ngx_atomic_t *) fl.buckets)));
    cJSON_AddStringToObject(resp, "fleet", reply ? "shared" : "local");

    if (fl.filter != NULL) {
        cJSON_AddStringToObject(resp, "filter", fl.filter);
    }

    cJSON_AddNumberToObject(resp, "timestamp", (double) now_ms);

    return ngx_http_behave_send_cjson(r, NGX_HTTP_OK, resp);
}


static const char *
ngx_http_behave_agent_state(cJSON *w, ngx_uint_t node_fresh)
{
    double  requests, errors;

    if (!node_fresh || !cJSON_IsTrue(cJSON_GetObjectItem(w, "alive"))) {
        return "down";
    }

    requests = cJSON_GetNumberValue(cJSON_GetObjectItem(w, "requests"));
    errors = cJSON_GetNumberValue(cJSON_GetObjectItem(w, "errors"));

    /* up but impaired: no Redis, or more than 5% of answers are 5xx */
    if (cJSON_IsFalse(cJSON_GetObjectItem(w, "redis_up"))
        || (requests >= 20 && errors / requests > 0.05))
    {
        return "degraded";
    }

    return "up";
}


static void
ngx_http_behave_fleet_add_node(ngx_http_behave_fleet_t *fl, cJSON *node,
    int64_t now_ms, ngx_uint_t live)
{
    char                       id[128];
    cJSON                     *w, *a, *b;
    double                     ts;
    ngx_uint_t                 fresh, k, redis;
    const char                *name, *state;
    ngx_atomic_uint_t          buckets[NGX_HTTP_BEHAVE_STAT_BUCKETS];

    name = cJSON_GetStringValue(cJSON_GetObjectItem(node, "node"));
    ts = cJSON_GetNumberValue(cJSON_GetObjectItem(node, "ts_ms"));

    if (!live && now_ms - ts > NGX_HTTP_BEHAVE_HEARTBEAT_GONE) {
        return;
    }

    fresh = live || now_ms - ts <= NGX_HTTP_BEHAVE_HEARTBEAT_STALE;

    if (fresh) {
        fl->throughput += cJSON_GetNumberValue(cJSON_GetObjectItem(node,
                                                            "throughput"));
    }

    cJSON_ArrayForEach(w, cJSON_GetObjectItem(node, "workers")) {
        ngx_memzero(buckets, sizeof(buckets));
        k = 0;

        cJSON_ArrayForEach(b, cJSON_GetObjectItem(w, "buckets")) {
            if (k < NGX_HTTP_BEHAVE_STAT_BUCKETS) {
                buckets[k++] = (ngx_atomic_uint_t) cJSON_GetNumberValue(b);
            }
        }

        redis = !cJSON_IsFalse(cJSON_GetObjectItem(w, "redis_up"));
        state = ngx_http_behave_agent_state(w, fresh);

        /* a worker gone from this node's slots is history, not an agent */
        if (live && ngx_strcmp(state, "down") == 0) {
            continue;
        }

        if (ngx_strcmp(state, "down") != 0) {
            for (k = 0; k < NGX_HTTP_BEHAVE_STAT_BUCKETS; k++) {
                fl->buckets[k] += buckets[k];
            }

            fl->inflight += (ngx_uint_t) cJSON_GetNumberValue(
                                cJSON_GetObjectItem(w, "inflight"));
        }

        if (fl->filter != NULL && ngx_strcmp(fl->filter, state) != 0
            && ngx_strcmp(fl->filter, "worker") != 0
            && ngx_strcmp(fl->filter, name) != 0)
        {
            continue;
        }

        a = cJSON_CreateObject();
        if (a == NULL) {
            return;
        }

        *ngx_snprintf((u_char *) id, sizeof(id) - 1, "%s/%.0f", name,
                      cJSON_GetNumberValue(cJSON_GetObjectItem(w, "pid")))
            = '\0';

        cJSON_AddStringToObject(a, "id", id);
        cJSON_AddStringToObject(a, "node", name);
        cJSON_AddNumberToObject(a, "pid",
            cJSON_GetNumberValue(cJSON_GetObjectItem(w, "pid")));
        cJSON_AddStringToObject(a, "role", "worker");
        cJSON_AddStringToObject(a, "state", state);
        cJSON_AddNumberToObject(a, "requests",
            cJSON_GetNumberValue(cJSON_GetObjectItem(w, "requests")));
        cJSON_AddNumberToObject(a, "errors",
            cJSON_GetNumberValue(cJSON_GetObjectItem(w, "errors")));
        cJSON_AddNumberToObject(a, "in_flight",
            cJSON_GetNumberValue(cJSON_GetObjectItem(w, "inflight")));
        cJSON_AddNumberToObject(a, "latency_p95",
            behave_round3(ngx_http_behave_stats_p95((ngx_atomic_t *)
                                                    buckets)));
        cJSON_AddNumberToObject(a, "started_at",
            cJSON_GetNumberValue(cJSON_GetObjectItem(w, "started")));
        cJSON_AddNumberToObject(a, "last_seen_ms", live ? now_ms : ts);
        cJSON_AddBoolToObject(a, "redis", redis);

        cJSON_AddItemToArray(fl->agents, a);
    }
}
