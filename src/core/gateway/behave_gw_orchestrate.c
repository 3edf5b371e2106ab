/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * POST /api/v1/orchestrate-models: estimate the request's tokens,
 * annotate the query, drop every catalog model that breaks a constraint
 * (latency, cost, context window, capabilities) and rank the rest by a
 * weighted score whose weights the annotation moves: urgency favours
 * latency, cognitive load favours quality.  docs/API.md (Surface A) documents the
 * heuristic, the formula and every field; keep them in step.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gateway/behave_gateway.h"
#include "gateway/behave_gw_internal.h"
#include "text/behave_annotate.h"
#include "base/behave_round.h"
#include "text/behave_tokenize.h"


#define BEHAVE_GW_QUERY_MAX      1048576
#define BEHAVE_GW_MESSAGES_MAX   1000
#define BEHAVE_GW_MSG_OVERHEAD   4       /* tokens of role and framing */
#define BEHAVE_GW_CLOSEST        3       /* candidates in a 422 */

#define BEHAVE_GW_V_LATENCY      0x01
#define BEHAVE_GW_V_COST         0x02
#define BEHAVE_GW_V_CONTEXT      0x04
#define BEHAVE_GW_V_CAPABILITY   0x08


typedef struct {
    const char           *query;
    const cJSON          *context;
    const cJSON          *caps;        /* required capabilities, or NULL */
    int                   has_latency;
    int                   has_cost;
    int                   out_given;
    double                latency_limit;
    double                cost_limit;
    int64_t               in_tokens;
    int64_t               out_tokens;
    int64_t               ts;
    behave_annotation_t   a;
    double                wq;          /* weights, summing to 1 */
    double                ws;
    double                wc;
} behave_gw_route_t;


typedef struct {
    const behave_gw_model_t  *m;
    double                    cost;     /* USD for this request */
    double                    q;        /* quality 0..1 */
    double                    s;        /* speed 0..1, 1 = fastest */
    double                    c;        /* cheapness 0..1, 1 = cheapest */
    double                    score;
    double                    distance; /* how far from feasible */
    unsigned                  violations;
    const char               *missing;  /* first missing capability */
} behave_gw_cand_t;


static behave_err_e behave_gw_route_parse(const cJSON *req,
    behave_gw_route_t *r, behave_error_t *err);
static behave_err_e behave_gw_context_tokens(const cJSON *context,
    int64_t *tokens, behave_error_t *err);
static behave_err_e behave_gw_caps_parse(const cJSON *req,
    behave_gw_route_t *r, behave_error_t *err);
static double behave_gw_text_tokens(const char *s, size_t len);
static size_t behave_gw_annotated_len(const char *query, size_t len);
static void behave_gw_weights(behave_gw_route_t *r);
static void behave_gw_check(const behave_gw_route_t *r,
    behave_gw_cand_t *c);
static void behave_gw_score(const behave_gw_route_t *r,
    behave_gw_cand_t *c, size_t n);
static double behave_gw_log_rank(double v, double lo, double hi);
static int behave_gw_cand_cmp(const void *a, const void *b);
static int behave_gw_distance_cmp(const void *a, const void *b);
static cJSON *behave_gw_route_json(const behave_gw_route_t *r,
    behave_gw_cand_t *c, size_t n, size_t feasible);
static void behave_gw_reason(const behave_gw_route_t *r,
    const behave_gw_cand_t *c, size_t n, size_t feasible, char *buf,
    size_t size);
static cJSON *behave_gw_violations_json(const behave_gw_route_t *r,
    const behave_gw_cand_t *c);
static cJSON *behave_gw_constraints_json(const behave_gw_route_t *r);
static cJSON *behave_gw_unprocessable_json(const behave_gw_route_t *r,
    behave_gw_cand_t *c, size_t n, const behave_error_t *err);


behave_err_e
behave_gw_orchestrate(const cJSON *req, const behave_gw_catalog_t *cat,
    int64_t now_ms, cJSON **resp, behave_error_t *err)
{
    cJSON              *answer;
    size_t              i, n, feasible;
    behave_gw_cand_t   *c;
    behave_gw_route_t   r;

    *resp = NULL;
    memset(&r, 0, sizeof(r));

    if (behave_gw_timestamp(req, now_ms, &r.ts, err) != BEHAVE_OK
        || behave_gw_route_parse(req, &r, err) != BEHAVE_OK)
    {
        return err->err;
    }

    if (cat == NULL || cat->nmodels == 0) {
        return behave_error_set(err, BEHAVE_ERR_UNAVAILABLE,
                                "no model catalog is configured "
                                "(behave_models)");
    }

    n = cat->nmodels;
    c = calloc(n, sizeof(*c));
    if (c == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    behave_gw_weights(&r);
    feasible = 0;

    for (i = 0; i < n; i++) {
        c[i].m = &cat->models[i];
        behave_gw_check(&r, &c[i]);
        feasible += (c[i].violations == 0);
    }

    if (feasible == 0) {
        behave_error_set(err, BEHAVE_ERR_UNPROCESSABLE,
                         "none of the %zu models meets the constraints", n);
        *resp = behave_gw_unprocessable_json(&r, c, n, err);
        free(c);
        return err->err;
    }

    behave_gw_score(&r, c, n);
    qsort(c, n, sizeof(*c), behave_gw_cand_cmp);

    answer = behave_gw_route_json(&r, c, n, feasible);
    free(c);

    return behave_gw_answer(answer, resp, err);
}


static behave_err_e
behave_gw_route_parse(const cJSON *req, behave_gw_route_t *r,
    behave_error_t *err)
{
    int      rc;
    int64_t  ctx;
    size_t   len;

    rc = behave_gw_string(req, "", "query", BEHAVE_GW_QUERY_MAX, &r->query,
                          err);
    if (rc < 0) {
        return err->err;
    }

    if (rc == 0) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "field \"query\" is required");
    }

    len = strlen(r->query);

    if (strspn(r->query, " \t\r\n") == len) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"query\" must be a non-empty string");
    }

    if ((r->has_latency = behave_gw_number(req, "", "latency_limit", 1,
                                           3600000, &r->latency_limit, err))
        < 0
        || (r->has_cost = behave_gw_number(req, "", "cost_constraint", 0,
                                           1000000, &r->cost_limit, err))
           < 0
        || (r->out_given = behave_gw_integer(req, "",
                                             "expected_output_tokens", 1,
                                             10000000, &r->out_tokens, err))
           < 0
        || behave_gw_context_tokens(
               cJSON_GetObjectItemCaseSensitive(req, "context"), &ctx, err)
           != BEHAVE_OK
        || behave_gw_caps_parse(req, r, err) != BEHAVE_OK)
    {
        return err->err;
    }

    r->in_tokens = (int64_t) ceil(behave_gw_text_tokens(r->query, len))
                   + BEHAVE_GW_MSG_OVERHEAD + ctx;

    if (!r->out_given) {
        /* an answer is usually about twice the question, within bounds */
        r->out_tokens = (int64_t) behave_gw_clamp(
            2.0 * ceil(behave_gw_text_tokens(r->query, len)), 128, 1024);
    }

    behave_annotate(r->query, behave_gw_annotated_len(r->query, len),
                    &r->a);

    return BEHAVE_OK;
}


/*
 * The annotation reads the query's first BEHAVE_GW_TEXT_MAX bytes, cut at
 * a character: what the other surfaces read of one text, and the most
 * of a prompt its urgency and load show in; a 1 MiB query would hold the
 * worker for ~10 ms for no other answer.  Tokens count the whole query.
 */
static size_t
behave_gw_annotated_len(const char *query, size_t len)
{
    size_t  n;

    if (len <= BEHAVE_GW_TEXT_MAX) {
        return len;
    }

    n = BEHAVE_GW_TEXT_MAX;

    while (n > 0 && ((unsigned char) query[n] & 0xc0) == 0x80) {
        n--;
    }

    return n;
}


/* a string, or an array of strings or {"role", "content"} messages */
static behave_err_e
behave_gw_context_tokens(const cJSON *context, int64_t *tokens,
    behave_error_t *err)
{
    size_t        i;
    double        t;
    const cJSON  *msg, *content;

    *tokens = 0;

    if (context == NULL || cJSON_IsNull(context)) {
        return BEHAVE_OK;
    }

    if (cJSON_IsString(context)) {
        *tokens = (int64_t) ceil(behave_gw_text_tokens(context->valuestring,
                                     strlen(context->valuestring)));
        return BEHAVE_OK;
    }

    if (!cJSON_IsArray(context)
        || cJSON_GetArraySize(context) > BEHAVE_GW_MESSAGES_MAX)
    {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"context\" must be a string or an "
                                "array of at most %d messages",
                                BEHAVE_GW_MESSAGES_MAX);
    }

    t = 0.0;
    i = 0;

    cJSON_ArrayForEach(msg, context) {
        content = cJSON_IsObject(msg)
                  ? cJSON_GetObjectItemCaseSensitive(msg, "content") : msg;

        if (!cJSON_IsString(content)) {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                    "field \"context[%zu]\" must be a string "
                                    "or an object with a string \"content\"",
                                    i);
        }

        t += ceil(behave_gw_text_tokens(content->valuestring,
                                        strlen(content->valuestring)))
             + BEHAVE_GW_MSG_OVERHEAD;
        i++;
    }

    *tokens = (int64_t) t;
    return BEHAVE_OK;
}


static behave_err_e
behave_gw_caps_parse(const cJSON *req, behave_gw_route_t *r,
    behave_error_t *err)
{
    size_t        i;
    const cJSON  *c;

    if (behave_gw_array(req, "", "required_capabilities", &r->caps, err)
        < 0)
    {
        return err->err;
    }

    i = 0;

    cJSON_ArrayForEach(c, r->caps) {
        if (!cJSON_IsString(c) || c->valuestring[0] == '\0'
            || strlen(c->valuestring) > BEHAVE_GW_NAME_MAX
            || i >= BEHAVE_GW_CAPS_MAX)
        {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                    "field \"required_capabilities\" must be "
                                    "an array of at most %d strings of 1..%d "
                                    "bytes", BEHAVE_GW_CAPS_MAX,
                                    BEHAVE_GW_NAME_MAX);
        }

        i++;
    }

    return BEHAVE_OK;
}


/*
 * Tokens without a tokenizer: ASCII runs at 4 bytes a token (English
 * BPE averages), CJK ideographs, kana and Hangul at 1 token each (they
 * rarely merge), emoji and other astral characters at 1, any other
 * non-ASCII character (accented Latin, Cyrillic, Greek, Arabic...) at 1/2.
 */
static double
behave_gw_text_tokens(const char *s, size_t len)
{
    size_t                n;
    double                t;
    uint32_t              cp;
    const unsigned char  *p, *end;

    t = 0.0;
    p = (const unsigned char *) s;
    end = p + len;

    while (p < end) {
        if (*p < 0x80) {
            t += 0.25;
            p++;
            continue;
        }

        n = behave_utf8_decode(p, end, &cp);

        if (n == 0) {
            t += 1.0;
            p++;
            continue;
        }

        p += n;

        if ((cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF)
            || (cp >= 0xF900 && cp <= 0xFAFF) || cp >= 0x10000)
        {
            t += 1.0;

        } else {
            t += 0.5;
        }
    }

    return t;
}


/*
 * Base weights quality 0.55, latency 0.25, cost 0.2 (an answer that
 * does not help costs more than a slow one).  Urgency above 0.2 (what
 * plain statements score) adds 0.8 per unit to latency; cognitive load
 * above 0.1 adds 0.6 per unit to quality; then the three are scaled back
 * to a sum of 1.
 */
static void
behave_gw_weights(behave_gw_route_t *r)
{
    double  q, s, c, sum;

    q = 0.55 + 0.6 * fmax(0.0, r->a.scores.cognitive_load - 0.1);
    s = 0.25 + 0.8 * fmax(0.0, r->a.scores.urgency - 0.2);
    c = 0.2;
    sum = q + s + c;

    r->wq = q / sum;
    r->ws = s / sum;
    r->wc = c / sum;
}


/* the constraints a model breaks, and by how much (for a 422) */
static void
behave_gw_check(const behave_gw_route_t *r, behave_gw_cand_t *c)
{
    double                    need;
    const cJSON              *cap;
    const behave_gw_model_t  *m;

    m = c->m;
    c->cost = (double) r->in_tokens / 1000.0 * m->cost_per_1k_input
              + (double) r->out_tokens / 1000.0 * m->cost_per_1k_output;

    if (r->has_latency && m->p50_latency_ms > r->latency_limit) {
        c->violations |= BEHAVE_GW_V_LATENCY;
        c->distance += m->p50_latency_ms / r->latency_limit - 1.0;
    }

    if (r->has_cost && c->cost > r->cost_limit) {
        c->violations |= BEHAVE_GW_V_COST;
        c->distance += (c->cost - r->cost_limit)
                       / fmax(r->cost_limit, 0.0001);
    }

    need = (double) (r->in_tokens + r->out_tokens);

    if (need > m->context_window) {
        c->violations |= BEHAVE_GW_V_CONTEXT;
        c->distance += need / m->context_window - 1.0;
    }

    cJSON_ArrayForEach(cap, r->caps) {
        if (!behave_gw_model_has(m, cap->valuestring)) {
            c->violations |= BEHAVE_GW_V_CAPABILITY;
            c->distance += 1.0;
            c->missing = c->missing ? c->missing : cap->valuestring;
        }
    }
}


/*
 * score = wq * quality + ws * speed + wc * cheapness over the feasible
 * models.  quality = (tier - 1) / 4; speed and cheapness place the
 * model between the slowest (0) and the fastest (1), the dearest and the
 * cheapest, on a log scale, because latencies and prices span orders of
 * magnitude and a linear scale would make every slow model worth 0.
 */
static void
behave_gw_score(const behave_gw_route_t *r, behave_gw_cand_t *c, size_t n)
{
    size_t  i;
    double  lat_lo, lat_hi, cost_lo, cost_hi;

    lat_lo = cost_lo = HUGE_VAL;
    lat_hi = cost_hi = 0.0;

    for (i = 0; i < n; i++) {
        if (c[i].violations == 0) {
            lat_lo = fmin(lat_lo, c[i].m->p50_latency_ms);
            lat_hi = fmax(lat_hi, c[i].m->p50_latency_ms);
            cost_lo = fmin(cost_lo, c[i].cost);
            cost_hi = fmax(cost_hi, c[i].cost);
        }
    }

    for (i = 0; i < n; i++) {
        if (c[i].violations != 0) {
            continue;
        }

        c[i].q = (c[i].m->quality_tier - 1) / 4.0;
        c[i].s = behave_gw_log_rank(c[i].m->p50_latency_ms, lat_lo, lat_hi);
        c[i].c = behave_gw_log_rank(c[i].cost, cost_lo, cost_hi);
        c[i].score = r->wq * c[i].q + r->ws * c[i].s + r->wc * c[i].c;
    }
}


/* 1 at lo, 0 at hi, log-linear between; a micro-unit keeps 0 finite */
static double
behave_gw_log_rank(double v, double lo, double hi)
{
    if (hi - lo < 1e-12) {
        return 1.0;
    }

    return 1.0 - log((v + 1e-6) / (lo + 1e-6))
                 / log((hi + 1e-6) / (lo + 1e-6));
}


/* feasible first by score, then cheaper, then faster, then by id */
static int
behave_gw_cand_cmp(const void *a, const void *b)
{
    const behave_gw_cand_t  *x = a, *y = b;

    if ((x->violations == 0) != (y->violations == 0)) {
        return x->violations == 0 ? -1 : 1;
    }

    if (x->violations != 0) {
        return behave_gw_distance_cmp(a, b);
    }

    if (fabs(x->score - y->score) > 1e-9) {
        return x->score > y->score ? -1 : 1;
    }

    if (x->cost != y->cost) {
        return x->cost < y->cost ? -1 : 1;
    }

    if (x->m->p50_latency_ms != y->m->p50_latency_ms) {
        return x->m->p50_latency_ms < y->m->p50_latency_ms ? -1 : 1;
    }

    return strcmp(x->m->id, y->m->id);
}


static int
behave_gw_distance_cmp(const void *a, const void *b)
{
    const behave_gw_cand_t  *x = a, *y = b;

    if (x->distance != y->distance) {
        return x->distance < y->distance ? -1 : 1;
    }

    return strcmp(x->m->id, y->m->id);
}


static cJSON *
behave_gw_route_json(const behave_gw_route_t *r, behave_gw_cand_t *c,
    size_t n, size_t feasible)
{
    int      ok;
    char     reason[1024];
    size_t   i;
    cJSON   *root, *o, *arr, *e;

    root = cJSON_CreateObject();
    if (root == NULL) {
        return NULL;
    }

    behave_gw_reason(r, c, n, feasible, reason, sizeof(reason));

    ok = behave_gw_add_str(root, "selected_model", c[0].m->id)
         && behave_gw_add_str(root, "provider", c[0].m->provider)
         && behave_gw_add_str(root, "routing_reason", reason)
         && behave_gw_add_num(root, "expected_latency",
                              behave_round3(c[0].m->p50_latency_ms))
         && behave_gw_add_num(root, "expected_cost_usd",
                              behave_gw_round6(c[0].cost));

    arr = ok ? cJSON_AddArrayToObject(root, "fallback_chain") : NULL;
    ok = arr != NULL;

    for (i = 1; ok && i < feasible; i++) {
        ok = cJSON_AddItemToArray(arr, cJSON_CreateString(c[i].m->id));
    }

    o = ok ? cJSON_AddObjectToObject(root, "estimated_tokens") : NULL;
    ok = o != NULL
         && behave_gw_add_num(o, "input", (double) r->in_tokens)
         && behave_gw_add_num(o, "output", (double) r->out_tokens)
         && behave_gw_add_str(o, "output_basis",
                              r->out_given ? "request" : "estimate");

    o = ok ? cJSON_AddObjectToObject(root, "query_annotation") : NULL;
    ok = o != NULL
         && behave_gw_add_str(o, "urgency", behave_urgency_name(r->a.urgency))
         && behave_gw_add_rounded(o, "urgency_score", r->a.scores.urgency)
         && behave_gw_add_str(o, "cognitive_load",
                              behave_load_name(r->a.cognitive_load))
         && behave_gw_add_rounded(o, "cognitive_load_score",
                                  r->a.scores.cognitive_load);

    o = ok ? cJSON_AddObjectToObject(root, "weights") : NULL;
    ok = o != NULL
         && behave_gw_add_rounded(o, "quality", r->wq)
         && behave_gw_add_rounded(o, "latency", r->ws)
         && behave_gw_add_rounded(o, "cost", r->wc);

    ok = ok && cJSON_AddItemToObject(root, "constraints",
                                     behave_gw_constraints_json(r));

    arr = ok ? cJSON_AddArrayToObject(root, "candidates") : NULL;
    ok = arr != NULL;

    for (i = 0; ok && i < feasible; i++) {
        e = cJSON_CreateObject();
        ok = cJSON_AddItemToArray(arr, e)
             && behave_gw_add_str(e, "id", c[i].m->id)
             && behave_gw_add_rounded(e, "score", c[i].score)
             && behave_gw_add_num(e, "quality_tier", c[i].m->quality_tier)
             && behave_gw_add_num(e, "expected_latency",
                                  behave_round3(c[i].m->p50_latency_ms))
             && behave_gw_add_num(e, "expected_cost_usd",
                                  behave_gw_round6(c[i].cost));
    }

    arr = ok ? cJSON_AddArrayToObject(root, "excluded") : NULL;
    ok = arr != NULL;

    for (i = feasible; ok && i < n; i++) {
        e = cJSON_CreateObject();
        ok = cJSON_AddItemToArray(arr, e)
             && behave_gw_add_str(e, "id", c[i].m->id)
             && cJSON_AddItemToObject(e, "reasons",
                                      behave_gw_violations_json(r, &c[i]));
    }

    ok = ok && behave_gw_add_num(root, "candidates_considered", (double) n)
         && behave_gw_add_num(root, "candidates_excluded",
                              (double) (n - feasible));

    return behave_gw_stamp(root, ok, BEHAVE_GW_ROUTER_MODEL, r->ts);
}


/* one readable sentence per rule that decided */
static void
behave_gw_reason(const behave_gw_route_t *r, const behave_gw_cand_t *c,
    size_t n, size_t feasible, char *buf, size_t size)
{
    size_t  len;

#define behave_gw_cat(...)                                                  \
    if (len < size) {                                                       \
        len += snprintf(buf + len, size - len, __VA_ARGS__);                \
    }

    len = 0;
    buf[0] = '\0';

    behave_gw_cat("%zu of %zu models meet the constraints", feasible, n);

    if (feasible < n) {
        behave_gw_cat(" (%zu excluded: see \"excluded\")", n - feasible);
    }

    behave_gw_cat(". Query urgency %s (%.2f) sets the latency weight to "
                  "%.2f; cognitive load %s (%.2f) sets the quality weight "
                  "to %.2f; cost weight %.2f.",
                  behave_urgency_name(r->a.urgency), r->a.scores.urgency,
                  r->ws, behave_load_name(r->a.cognitive_load),
                  r->a.scores.cognitive_load, r->wq, r->wc);

    behave_gw_cat(" %s scores %.3f (quality %.2f, speed %.2f, cost %.2f)",
                  c[0].m->id, c[0].score, c[0].q, c[0].s, c[0].c);

    if (feasible > 1) {
        behave_gw_cat(", ahead of %s at %.3f.", c[1].m->id, c[1].score);

    } else {
        behave_gw_cat(", the only model left.");
    }

#undef behave_gw_cat
}


static cJSON *
behave_gw_violations_json(const behave_gw_route_t *r,
    const behave_gw_cand_t *c)
{
    char    detail[160];
    cJSON  *arr, *e;

    arr = cJSON_CreateArray();

#define behave_gw_violation(name, ...)                                      \
    snprintf(detail, sizeof(detail), __VA_ARGS__);                          \
    e = cJSON_CreateObject();                                               \
    if (!cJSON_AddItemToArray(arr, e)                                       \
        || !behave_gw_add_str(e, "constraint", name)                        \
        || !behave_gw_add_str(e, "detail", detail))                         \
    {                                                                       \
        cJSON_Delete(arr);                                                  \
        return NULL;                                                        \
    }

    if (arr == NULL) {
        return NULL;
    }

    if (c->violations & BEHAVE_GW_V_LATENCY) {
        behave_gw_violation("latency", "p50 latency %g ms > limit %g ms",
                            c->m->p50_latency_ms, r->latency_limit);
    }

    if (c->violations & BEHAVE_GW_V_COST) {
        behave_gw_violation("cost", "expected cost $%.6f > limit $%.6f",
                            c->cost, r->cost_limit);
    }

    if (c->violations & BEHAVE_GW_V_CONTEXT) {
        behave_gw_violation("context_window", "%lld tokens > context window "
                            "%.0f", (long long) (r->in_tokens + r->out_tokens),
                            c->m->context_window);
    }

    if (c->violations & BEHAVE_GW_V_CAPABILITY) {
        behave_gw_violation("capability", "lacks capability \"%s\"",
                            c->missing);
    }

#undef behave_gw_violation

    return arr;
}


static cJSON *
behave_gw_constraints_json(const behave_gw_route_t *r)
{
    int     ok;
    cJSON  *o;

    o = cJSON_CreateObject();
    ok = o != NULL;

    if (ok && r->has_latency) {
        ok = behave_gw_add_num(o, "latency_limit", r->latency_limit);
    }

    if (ok && r->has_cost) {
        ok = behave_gw_add_num(o, "cost_constraint", r->cost_limit);
    }

    ok = ok && behave_gw_add_num(o, "tokens_needed",
                                 (double) (r->in_tokens + r->out_tokens));

    if (ok && r->caps != NULL) {
        ok = cJSON_AddItemToObject(o, "required_capabilities",
                                   cJSON_Duplicate(r->caps, 1));
    }

    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }

    return o;
}


/*
 * The 422 body: the usual error object plus the constraints and the
 * closest models, nearest first, with what each one breaks.
 */
static cJSON *
behave_gw_unprocessable_json(const behave_gw_route_t *r,
    behave_gw_cand_t *c, size_t n, const behave_error_t *err)
{
    int      ok;
    size_t   i;
    cJSON   *root, *e, *arr, *m;

    qsort(c, n, sizeof(*c), behave_gw_distance_cmp);

    root = cJSON_CreateObject();
    e = root ? cJSON_AddObjectToObject(root, "error") : NULL;
    ok = e != NULL
         && behave_gw_add_str(e, "code", behave_error_code(err->err))
         && behave_gw_add_str(e, "message", err->message)
         && cJSON_AddItemToObject(e, "constraints",
                                  behave_gw_constraints_json(r));

    arr = ok ? cJSON_AddArrayToObject(e, "closest_candidates") : NULL;
    ok = arr != NULL;

    for (i = 0; ok && i < n && i < BEHAVE_GW_CLOSEST; i++) {
        m = cJSON_CreateObject();
        ok = cJSON_AddItemToArray(arr, m)
             && behave_gw_add_str(m, "id", c[i].m->id)
             && behave_gw_add_rounded(m, "distance", c[i].distance)
             && behave_gw_add_num(m, "expected_latency",
                                  behave_round3(c[i].m->p50_latency_ms))
             && behave_gw_add_num(m, "expected_cost_usd",
                                  behave_gw_round6(c[i].cost))
             && cJSON_AddItemToObject(m, "violations",
                                      behave_gw_violations_json(r, &c[i]));
    }

    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }

    return root;
}
