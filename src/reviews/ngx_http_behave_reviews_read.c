/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * GET /v1/reviews (the queue, one script) and GET /v1/reviews/<id>: the
 * record and its history (one script), then the turns it points to (a
 * call's stored turns, or the conversation's own log, in another slot),
 * assembled by the core.  Every key is the caller's tenant's.
 */


#include "ngx_http_behave_reviews_read.h"
#include "ngx_http_behave_redis_reply.h"
#include "ngx_http_behave_reviews_util.h"
#include "ngx_http_behave_rv_get_lua.h"             /* rv_get.lua */
#include "ngx_http_behave_rv_list_lua.h"            /* rv_list.lua */

#include "webhooks/behave_callsum.h"           /* BEHAVE_CALLSUM_WINDOW */
#include "webhooks/behave_provider.h"
#include "conversation/behave_turn_log.h"


typedef struct {
    ngx_str_t                   id;
    behave_review_fields_t      f;
    const char                **history;
    size_t                     *history_len;
    size_t                      nhistory;
    ngx_str_t                  *turns_key;
    size_t                      window;
} ngx_http_behave_rv_get_t;


static const char *const *ngx_http_behave_reviews_providers(void);
static ngx_int_t ngx_http_behave_reviews_read(ngx_http_request_t *r,
    ngx_http_behave_redis_args_t *a, ngx_http_behave_redis_pt handler,
    void *data);
static void ngx_http_behave_reviews_list_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static cJSON *ngx_http_behave_reviews_list_json(redisReply *reply);
static void ngx_http_behave_reviews_get_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static ngx_int_t ngx_http_behave_reviews_keep(ngx_http_request_t *r,
    ngx_http_behave_rv_get_t *g, redisReply *reply);
static ngx_int_t ngx_http_behave_reviews_turns(ngx_http_request_t *r,
    ngx_http_behave_rv_get_t *g);
static void ngx_http_behave_reviews_turns_reply(ngx_http_request_t *r,
    void *data, redisReply *reply, const char *reason);
static cJSON *ngx_http_behave_reviews_detail(ngx_http_request_t *r,
    ngx_http_behave_rv_get_t *g, redisReply *v);


ngx_int_t
ngx_http_behave_reviews_list(ngx_http_request_t *r)
{
    int64_t                        max;
    ngx_str_t                     *index, *prefix;
    behave_error_t                 err;
    ngx_http_behave_redis_args_t   a;
    behave_review_query_t          q;
    ngx_http_behave_ctx_t         *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    if (behave_review_query_parse((char *) r->args.data, r->args.len,
                                  ngx_http_behave_reviews_providers(), &q,
                                  &err)
        != BEHAVE_OK)
    {
        return ngx_http_behave_send_error(r, &err);
    }

    index = ngx_http_behave_review_key(r, ctx->key->tenant, "index", "", 0);
    prefix = ngx_http_behave_review_key(r, ctx->key->tenant, "r:", "", 0);

    if (index == NULL || prefix == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    max = q.to_ms;

    if (q.has_cursor && (max < 0 || q.cursor_ms < max)) {
        max = q.cursor_ms;
    }

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_rv_list_script);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_RV_LIST_KEY_INDEX,
                                  index);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_PREFIX,
                                  prefix);

    if (max >= 0) {
        ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_MAX,
                                      max);
    } else {
        ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_MAX,
                                      "+inf");
    }

    if (q.from_ms >= 0) {
        ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_MIN,
                                      q.from_ms);
    } else {
        ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_MIN,
                                      "-inf");
    }

    if (q.has_cursor) {
        ngx_http_behave_redis_put_num(&a,
                                      NGX_HTTP_BEHAVE_RV_LIST_ARG_CURSOR_SCORE,
                                      q.cursor_ms);
    } else {
        ngx_http_behave_redis_put_str(&a,
                                      NGX_HTTP_BEHAVE_RV_LIST_ARG_CURSOR_SCORE,
                                      "");
    }

    /* the arguments are copied when the command is sent */
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_CURSOR_ID,
                                  q.cursor_id);
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_STATUS,
                                  q.status ? q.status : "");
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_PROVIDER,
                                  q.provider ? q.provider : "");
    ngx_http_behave_redis_put_str(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_REVIEWED,
                                  (q.reviewed < 0) ? ""
                                  : (q.reviewed ? "1" : "0"));
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_LIMIT,
                                  q.limit);
    ngx_http_behave_redis_put_num(&a, NGX_HTTP_BEHAVE_RV_LIST_ARG_SCAN_CAP,
                                  BEHAVE_REVIEW_SCAN_MAX);

    ngx_log_debug3(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave reviews: list of tenant \"%s\", limit %ui%s",
                   ctx->key->tenant, (ngx_uint_t) q.limit,
                   q.has_cursor ? ", from a cursor" : "");

    return ngx_http_behave_reviews_read(r, &a,
                                        ngx_http_behave_reviews_list_reply,
                                        NULL);
}


/* the filter's providers: the table's (behave_provider.h), and "api" */

static const char *const *
ngx_http_behave_reviews_providers(void)
{
    size_t                    n;
    const behave_provider_t  *const *p;

    static const char        *names[32];

    if (names[0] == NULL) {
        n = 0;

        for (p = behave_providers; *p != NULL && n < 30; p++) {
            names[n++] = (*p)->name;
        }

        names[n] = "api";
    }

    return names;
}


/*
 * Sends a read's script.  There is no body to read: the handler itself
 * holds the request on while Redis works.
 */

static ngx_int_t
ngx_http_behave_reviews_read(ngx_http_request_t *r,
    ngx_http_behave_redis_args_t *a, ngx_http_behave_redis_pt handler,
    void *data)
{
    const char  *reason;

    if (ngx_http_behave_redis_run(r, a, handler, data, &reason) != NGX_OK)
    {
        return ngx_http_behave_reviews_unavailable(r, reason);
    }

    r->main->count++;

    return NGX_DONE;
}


static void
ngx_http_behave_reviews_list_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    if (reply == NULL || reply->type != REDIS_REPLY_ARRAY
        || reply->elements != 3
        || reply->element[0]->type != REDIS_REPLY_ARRAY
        || reply->element[1]->type != REDIS_REPLY_STRING
        || reply->element[2]->type != REDIS_REPLY_STRING)
    {
        if (reply != NULL && reply->type == REDIS_REPLY_ERROR) {
            ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                          "behave: reviews list script: %s", reply->str);
        }

        ngx_http_finalize_request(r,
            ngx_http_behave_reviews_unavailable(r, reason));
        return;
    }

    ngx_http_finalize_request(r,
        ngx_http_behave_reviews_send(r,
            ngx_http_behave_reviews_list_json(reply)));
}


/* { items, next id, next score } -> {"reviews":[...],"next_cursor":...} */

static cJSON *
ngx_http_behave_reviews_list_json(redisReply *reply)
{
    size_t                  i;
    cJSON                  *o, *list, *item;
    int64_t                 ms;
    redisReply             *items, *e, *nid, *nsc;
    behave_review_fields_t  f;
    char                    cursor[BEHAVE_REVIEW_CURSOR_MAX];

    o = cJSON_CreateObject();
    list = cJSON_AddArrayToObject(o, "reviews");

    if (list == NULL) {
        cJSON_Delete(o);
        return NULL;
    }

    items = reply->element[0];

    for (i = 0; i < items->elements; i++) {
        e = items->element[i];

        if (e->type != REDIS_REPLY_ARRAY || e->elements != 3
            || e->element[0]->type != REDIS_REPLY_STRING
            || e->element[2]->type != REDIS_REPLY_ARRAY)
        {
            continue;
        }

        ngx_http_behave_reviews_fields(e->element[2], &f);

        item = behave_review_item_json(e->element[0]->str,
                                       e->element[0]->len, &f);
        if (item != NULL) {
            cJSON_AddItemToArray(list, item);
        }
    }

    nid = reply->element[1];
    nsc = reply->element[2];

    /* scores are whole milliseconds: "1795428000500" */
    ms = (nsc->len > 0 && nsc->len < 20)
         ? (int64_t) ngx_atoof((u_char *) nsc->str, nsc->len) : -1;

    if (nid->len > 0 && ms >= 0
        && behave_review_cursor_encode(ms, nid->str, nid->len, cursor,
                                       sizeof(cursor))
           == 0)
    {
        cJSON_AddStringToObject(o, "next_cursor", cursor);

    } else {
        cJSON_AddNullToObject(o, "next_cursor");
    }

    return o;
}


ngx_int_t
ngx_http_behave_reviews_get(ngx_http_request_t *r, ngx_str_t *id)
{
    ngx_str_t                     *rec, *hist;
    ngx_http_behave_ctx_t         *ctx;
    ngx_http_behave_rv_get_t      *g;
    ngx_http_behave_redis_args_t   a;

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);

    g = ngx_pcalloc(r->pool, sizeof(ngx_http_behave_rv_get_t));
    rec = ngx_http_behave_review_key(r, ctx->key->tenant, "r:",
                                      (char *) id->data, id->len);
    hist = ngx_http_behave_review_key(r, ctx->key->tenant, "h:",
                                       (char *) id->data, id->len);

    if (g == NULL || rec == NULL || hist == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    g->id = *id;

    ngx_http_behave_redis_args_script(&a, &ngx_http_behave_rv_get_script);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_RV_GET_KEY_RECORD, rec);
    ngx_http_behave_redis_put_ngx(&a, NGX_HTTP_BEHAVE_RV_GET_KEY_HISTORY,
                                  hist);

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "behave reviews: reading \"%V\"", id);

    return ngx_http_behave_reviews_read(r, &a,
                                        ngx_http_behave_reviews_get_reply, g);
}


static void
ngx_http_behave_reviews_get_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    ngx_int_t                  rc;
    ngx_http_behave_rv_get_t  *g = data;

    if (ngx_http_behave_redis_failed(r, reply, "reviews get script")) {
        rc = ngx_http_behave_reviews_unavailable(r, reason);

    } else if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2
               || reply->element[0]->type != REDIS_REPLY_ARRAY
               || reply->element[1]->type != REDIS_REPLY_ARRAY)
    {
        rc = ngx_http_behave_fail(r, BEHAVE_ERR_NOT_FOUND, "no such review");

    } else {
        rc = ngx_http_behave_reviews_keep(r, g, reply);

        if (rc == NGX_OK) {
            rc = ngx_http_behave_reviews_turns(r, g);
        }
    }

    if (rc != NGX_DONE) {
        ngx_http_finalize_request(r, rc);
    }
}


/* the reply goes when this callback returns: what is needed is copied */

static ngx_int_t
ngx_http_behave_reviews_keep(ngx_http_request_t *r,
    ngx_http_behave_rv_get_t *g, redisReply *reply)
{
    size_t       i;
    redisReply  *h, *e;

    ngx_http_behave_reviews_fields(reply->element[0], &g->f);

    for (i = 0; i < BEHAVE_RF_LAST; i++) {
        if (g->f.v[i] == NULL) {
            continue;
        }

        g->f.v[i] = (char *) ngx_pstrdup(r->pool, &(ngx_str_t) {
                                             g->f.len[i],
                                             (u_char *) g->f.v[i] });
        if (g->f.v[i] == NULL && g->f.len[i] != 0) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        if (g->f.v[i] == NULL) {
            g->f.v[i] = "";
        }
    }

    h = reply->element[1];

    g->history = ngx_palloc(r->pool, (h->elements + 1) * sizeof(char *));
    g->history_len = ngx_palloc(r->pool, (h->elements + 1) * sizeof(size_t));

    if (g->history == NULL || g->history_len == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    for (i = 0; i < h->elements; i++) {
        e = h->element[i];

        if (e->type != REDIS_REPLY_STRING || e->len == 0) {
            continue;
        }

        g->history[g->nhistory] = (char *) ngx_pstrdup(r->pool,
                                      &(ngx_str_t) { e->len,
                                                     (u_char *) e->str });
        if (g->history[g->nhistory] == NULL) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        g->history_len[g->nhistory++] = e->len;
    }

    return NGX_OK;
}


/* a call's turns are ours; a conversation's are its own log */

static ngx_int_t
ngx_http_behave_reviews_turns(ngx_http_request_t *r,
    ngx_http_behave_rv_get_t *g)
{
    u_char                      *p;
    size_t                       len[2], clen;
    const char                  *argv[2], *reason;
    ngx_http_behave_ctx_t       *ctx;
    ngx_http_behave_loc_conf_t  *blcf;

    static const int             argc[1] = { 2 };

    ctx = ngx_http_get_module_ctx(r, ngx_http_behave_module);
    blcf = ngx_http_get_module_loc_conf(r, ngx_http_behave_module);

    clen = g->f.len[BEHAVE_RF_CONVERSATION_ID];

    if (g->f.v[BEHAVE_RF_KIND] != NULL
        && g->f.len[BEHAVE_RF_KIND] == 12
        && ngx_strncmp(g->f.v[BEHAVE_RF_KIND], "conversation", 12) == 0
        && g->f.v[BEHAVE_RF_CONVERSATION_ID] != NULL)
    {
        g->turns_key = ngx_palloc(r->pool, sizeof(ngx_str_t));
        p = ngx_pnalloc(r->pool, sizeof("behave:{:}:log")
                                 + ngx_strlen(ctx->key->tenant) + clen);

        if (g->turns_key == NULL || p == NULL) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        g->turns_key->data = p;
        g->turns_key->len = ngx_sprintf(p, "behave:{%s:%*s}:log",
                                        ctx->key->tenant, clen,
                                        g->f.v[BEHAVE_RF_CONVERSATION_ID])
                            - p;
        g->window = blcf->conversation_max_turns;

    } else {
        g->turns_key = ngx_http_behave_review_key(r, ctx->key->tenant, "t:",
                                                   (char *) g->id.data,
                                                   g->id.len);
        if (g->turns_key == NULL) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }

        g->window = BEHAVE_CALLSUM_WINDOW;
    }

    argv[0] = "GET";
    len[0] = 3;
    argv[1] = (char *) g->turns_key->data;
    len[1] = g->turns_key->len;

    if (ngx_http_behave_redis_multi(r, "redis.reviews-turns", 1, argc, argv,
                                    len, ngx_http_behave_reviews_turns_reply,
                                    g, &reason)
        != NGX_OK)
    {
        return ngx_http_behave_reviews_unavailable(r, reason);
    }

    return NGX_DONE;
}


static void
ngx_http_behave_reviews_turns_reply(ngx_http_request_t *r, void *data,
    redisReply *reply, const char *reason)
{
    redisReply                *v;
    ngx_http_behave_rv_get_t  *g = data;

    if (reply == NULL || reply->type != REDIS_REPLY_ARRAY
        || reply->elements != 1)
    {
        ngx_http_finalize_request(r,
            ngx_http_behave_reviews_unavailable(r, reason));
        return;
    }

    v = reply->element[0];

    /* turns gone before their record (expired): an empty transcript */
    if (v->type != REDIS_REPLY_STRING) {
        v = NULL;
    }

    ngx_http_finalize_request(r,
        ngx_http_behave_reviews_send(r,
            ngx_http_behave_reviews_detail(r, g, v)));
}


static cJSON *
ngx_http_behave_reviews_detail(ngx_http_request_t *r,
    ngx_http_behave_rv_get_t *g, redisReply *v)
{
    size_t              n;
    uint64_t            first;
    behave_turn_t      *turns;
    behave_turn_log_t   log;

    behave_turn_log_open(&log, v ? v->str : "", v ? v->len : 0);

    turns = ngx_palloc(r->pool, (log.records + 1) * sizeof(behave_turn_t));
    if (turns == NULL) {
        return NULL;
    }

    first = 0;
    n = log.records ? behave_turn_log_tail(&log, log.records, turns, &first)
                    : 0;

    return behave_review_detail_json((char *) g->id.data, g->id.len, &g->f,
                                     g->history, g->history_len,
                                     g->nhistory, turns, n, (size_t) first,
                                     g->window);
}
