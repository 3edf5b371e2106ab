/*
 * POST /api/v1/orchestrate-models and the model catalog: load errors
 * that name the model and field, the shipped conf/models.json, and the
 * routing moving the right way (a tighter latency limit picks a faster
 * model, a tiny budget excludes expensive ones, urgency favours latency,
 * impossible constraints are a 422 with the closest candidates).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "gwtest.h"


static const char  catalog_json[] =
    "{\"models\":["
    "{\"id\":\"tiny\",\"provider\":\"p1\",\"p50_latency_ms\":150,"
    "\"cost_per_1k_input\":0.0001,\"cost_per_1k_output\":0.0002,"
    "\"context_window\":4096,\"quality_tier\":1,\"capabilities\":[\"chat\"]},"
    "{\"id\":\"fast\",\"provider\":\"p1\",\"p50_latency_ms\":300,"
    "\"cost_per_1k_input\":0.0002,\"cost_per_1k_output\":0.0008,"
    "\"context_window\":128000,\"quality_tier\":\"standard\","
    "\"capabilities\":[\"chat\",\"json\"]},"
    "{\"id\":\"pro\",\"provider\":\"p2\",\"p50_latency_ms\":1500,"
    "\"cost_per_1k_input\":0.003,\"cost_per_1k_output\":0.015,"
    "\"context_window\":200000,\"quality_tier\":\"premium\","
    "\"capabilities\":[\"chat\",\"json\",\"vision\"]},"
    "{\"id\":\"frontier\",\"provider\":\"p3\",\"p50_latency_ms\":5000,"
    "\"cost_per_1k_input\":0.015,\"cost_per_1k_output\":0.06,"
    "\"context_window\":200000,\"quality_tier\":5,"
    "\"capabilities\":[\"chat\",\"reasoning\"]}"
    "]}";


static behave_gw_catalog_t  *cat;


static behave_err_e
route_call(const cJSON *req, int64_t now_ms, cJSON **resp,
    behave_error_t *err)
{
    return behave_gw_orchestrate(req, cat, now_ms, resp, err);
}


/* a 422 answers with the closest candidates */
static cJSON *
route(const char *body, behave_err_e want, const char *name)
{
    return gwtest_run(route_call, body, want, BEHAVE_ERR_UNPROCESSABLE,
                      name);
}


static const char *
str(const cJSON *o, const char *name)
{
    const cJSON  *it;

    it = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(it) ? it->valuestring : "";
}


static int
excluded_for(const cJSON *r, const char *id, const char *constraint)
{
    const cJSON  *e, *reason;

    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(r, "excluded")) {
        if (strcmp(str(e, "id"), id) != 0) {
            continue;
        }

        cJSON_ArrayForEach(reason,
                           cJSON_GetObjectItemCaseSensitive(e, "reasons"))
        {
            if (strcmp(str(reason, "constraint"), constraint) == 0) {
                return 1;
            }
        }
    }

    return 0;
}


static void
load_errors(void)
{
    static const struct {
        const char  *json;
        const char  *want;
    } bad[] = {
        { "nope", "not valid JSON" },
        { "[{\"id\":\"a\\u0000b\"}]", "\\u0000 in a string at byte 9" },
        { "{\"models\":[]} {}", "data after the JSON value" },
        { "{\"models\":[]}", "1..1024 models" },
        { "[{\"provider\":\"x\"}]", "models[0].id" },
        { "[{\"id\":\"a\",\"provider\":\"x\",\"p50_latency_ms\":1,"
          "\"cost_per_1k_input\":0,\"cost_per_1k_output\":0,"
          "\"context_window\":10,\"quality_tier\":1},"
          "{\"id\":\"b\",\"provider\":\"x\",\"p50_latency_ms\":-5}]",
          "models[1].p50_latency_ms" },
        { "[{\"id\":\"a\",\"provider\":\"x\",\"p50_latency_ms\":1,"
          "\"cost_per_1k_input\":0,\"cost_per_1k_output\":0,"
          "\"context_window\":10,\"quality_tier\":\"gold\"}]",
          "models[0].quality_tier" },
        { "[{\"id\":\"a\",\"provider\":\"x\",\"p50_latency_ms\":1,"
          "\"cost_per_1k_input\":0,\"cost_per_1k_output\":0,"
          "\"context_window\":10,\"quality_tier\":1,\"capabilities\":[1]}]",
          "models[0].capabilities[0]" },
        { "[{\"id\":\"a\",\"provider\":\"x\",\"p50_latency_ms\":1,"
          "\"cost_per_1k_input\":0,\"cost_per_1k_output\":0,"
          "\"context_window\":10,\"quality_tier\":1},"
          "{\"id\":\"a\",\"provider\":\"x\",\"p50_latency_ms\":1,"
          "\"cost_per_1k_input\":0,\"cost_per_1k_output\":0,"
          "\"context_window\":10,\"quality_tier\":1}]", "repeats" },
        { "[{\"id\":\"a b\",\"provider\":\"x\"}]", "models[0].id" }
    };

    char                  errbuf[256];
    size_t                i;
    behave_gw_catalog_t  *c;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        errbuf[0] = '\0';
        c = (behave_gw_catalog_t *) 1;
        is_int(behave_gw_catalog_load(bad[i].json, strlen(bad[i].json), &c,
                                      errbuf, sizeof(errbuf)), -1,
               "catalog %zu rejected", i);
        ok(c == NULL && strstr(errbuf, bad[i].want) != NULL,
           "catalog %zu: '%s' names %s", i, errbuf, bad[i].want);
    }
}


static void
shipped_catalog(void)
{
    char                  path[512], errbuf[256], *buf, *slash;
    long                  len;
    FILE                 *f;
    behave_gw_catalog_t  *c;

    snprintf(path, sizeof(path), "%s", __FILE__);
    slash = strstr(path, "t/core/");
    if (slash == NULL) {
        ok(0, "cannot find conf/ from %s", __FILE__);
        return;
    }

    snprintf(slash, sizeof(path) - (slash - path), "conf/models.json");
    f = fopen(path, "rb");
    ok(f != NULL, "conf/models.json opens");
    if (f == NULL) {
        return;
    }

    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc(len);
    ok(buf && fread(buf, 1, len, f) == (size_t) len, "conf/models.json read");
    fclose(f);

    errbuf[0] = '\0';
    is_int(behave_gw_catalog_load(buf, len, &c, errbuf, sizeof(errbuf)), 0,
           "conf/models.json loads '%s'", errbuf);
    is_int(behave_gw_catalog_count(c), 6, "conf/models.json has 6 models");
    behave_gw_catalog_free(c);
    free(buf);
}


static void
shape(void)
{
    cJSON        *r;
    const cJSON  *fb;

    r = route("{\"query\":\"Summarise this paragraph for me.\","
              "\"context\":[{\"role\":\"user\",\"content\":\"Earlier "
              "message\"},\"plain string message\"],\"timestamp\":42}",
              BEHAVE_OK, "no constraints");
    ok(str(r, "selected_model")[0] != '\0', "selected: %s",
       str(r, "selected_model"));
    ok(strlen(str(r, "routing_reason")) > 40, "reason: %s",
       str(r, "routing_reason"));
    fb = cJSON_GetObjectItemCaseSensitive(r, "fallback_chain");
    is_int(cJSON_GetArraySize(fb), 3, "fallback chain has the 3 others");
    ok(gw_num(r, "expected_latency", NULL) > 0, "expected latency");
    ok(gw_num(r, "expected_cost_usd", NULL) > 0, "expected cost");
    ok(gw_num(r, "estimated_tokens", "input") > 8, "input tokens include "
       "the context (%g)", gw_num(r, "estimated_tokens", "input"));
    is_int(gw_num(r, "estimated_tokens", "output"), 128,
           "output estimate has a floor of 128");
    is_int(gw_num(r, "candidates_considered", NULL), 4, "4 considered");
    is_int(gw_num(r, "candidates_excluded", NULL), 0, "none excluded");
    is_int(gw_num(r, "timestamp", NULL), 42, "timestamp echoed");
    is_near(gw_num(r, "weights", "quality") + gw_num(r, "weights", "latency")
            + gw_num(r, "weights", "cost"), 1.0, 0.002, "weights sum to 1");
    cJSON_Delete(r);

    /* 8 ASCII bytes are 2 tokens, 4 CJK characters 4, each + 4 */
    r = route("{\"query\":\"abcdefgh\"}", BEHAVE_OK, "ASCII tokens");
    is_int(gw_num(r, "estimated_tokens", "input"), 6, "ASCII: 8 bytes / 4 + 4");
    cJSON_Delete(r);
    r = route("{\"query\":\"\xe4\xbd\xa0\xe5\xa5\xbd"
              "\xe4\xb8\x96\xe7\x95\x8c\"}",
              BEHAVE_OK, "CJK tokens");
    is_int(gw_num(r, "estimated_tokens", "input"), 8, "CJK: 1 per char + 4");
    cJSON_Delete(r);
}


static void
constraints(void)
{
    cJSON   *r;
    double   slow, fast;

    r = route("{\"query\":\"Explain the tradeoffs between these two "
              "architectures in detail.\",\"latency_limit\":6000}",
              BEHAVE_OK, "loose latency");
    slow = gw_num(r, "expected_latency", NULL);
    cJSON_Delete(r);

    r = route("{\"query\":\"Explain the tradeoffs between these two "
              "architectures in detail.\",\"latency_limit\":400}",
              BEHAVE_OK, "tight latency");
    fast = gw_num(r, "expected_latency", NULL);
    ok(fast <= 400, "tight: selected p50 within the limit (%g)", fast);
    ok(fast < slow, "a tighter latency limit picks a faster model "
       "(%g < %g)", fast, slow);
    ok(excluded_for(r, "pro", "latency"), "tight: pro excluded for latency");
    cJSON_Delete(r);

    r = route("{\"query\":\"Write a product description.\","
              "\"cost_constraint\":0.001}", BEHAVE_OK, "tiny budget");
    ok(gw_num(r, "expected_cost_usd", NULL) <= 0.001, "budget: cost %g "
       "within the limit", gw_num(r, "expected_cost_usd", NULL));
    ok(excluded_for(r, "frontier", "cost"), "budget: frontier excluded");
    ok(excluded_for(r, "pro", "cost"), "budget: pro excluded");
    cJSON_Delete(r);

    r = route("{\"query\":\"Describe this image.\","
              "\"required_capabilities\":[\"vision\"]}", BEHAVE_OK,
              "capability");
    is_str(str(r, "selected_model"), "pro", "vision: only pro has it");
    ok(excluded_for(r, "fast", "capability"), "vision: fast excluded");
    is_int(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r,
           "fallback_chain")), 0, "vision: no fallback");
    cJSON_Delete(r);

    r = route("{\"query\":\"Long answer please.\","
              "\"expected_output_tokens\":10000}", BEHAVE_OK, "context");
    ok(excluded_for(r, "tiny", "context_window"),
       "10000 output tokens do not fit tiny's 4096 window");
    cJSON_Delete(r);
}


static void long_query(void);


static void
urgency(void)
{
    cJSON   *calm, *urgent;

    calm = route("{\"query\":\"When you have a moment, could you compare "
                 "these two plans and tell me which suits a small team?\"}",
                 BEHAVE_OK, "calm query");
    urgent = route("{\"query\":\"URGENT: our checkout is down right now, "
                   "customers cannot pay, we need a fix immediately!!\"}",
                   BEHAVE_OK, "urgent query");

    ok(gw_num(urgent, "weights", "latency")
       > gw_num(calm, "weights", "latency"),
       "urgency raises the latency weight (%g > %g)",
       gw_num(urgent, "weights", "latency"),
       gw_num(calm, "weights", "latency"));
    ok(gw_num(urgent, "expected_latency", NULL)
       < gw_num(calm, "expected_latency", NULL),
       "urgency picks a faster model (%s %g ms vs %s %g ms)",
       str(urgent, "selected_model"), gw_num(urgent, "expected_latency", NULL),
       str(calm, "selected_model"), gw_num(calm, "expected_latency", NULL));

    cJSON_Delete(calm);
    cJSON_Delete(urgent);

    long_query();
}


/* a query of 64 KiB with the urgent sentence at its start or its end */
static cJSON *
long_route(int urgent_first, const char *name)
{
    char        *body;
    cJSON       *r;
    size_t       n;
    const char  *urgent = "URGENT: checkout is down right now, customers "
                          "cannot pay, we need a fix immediately!! ";

    n = 65536;
    body = calloc(1, n + 256);
    strcpy(body, "{\"query\":\"");

    if (urgent_first) {
        strcat(body, urgent);
    }

    while (strlen(body) < n) {
        strcat(body, "please compare the plans ");
    }

    if (!urgent_first) {
        strcat(body, urgent);
    }

    strcat(body, "\"}");
    r = route(body, BEHAVE_OK, name);
    free(body);

    return r;
}


/*
 * The urgent words in a query's first 32 KiB count, past them they are
 * not read (docs/API.md); its tokens count the whole query.
 */
static void
long_query(void)
{
    cJSON  *head, *tail;

    head = long_route(1, "64 KiB query, urgent at its start");
    tail = long_route(0, "64 KiB query, urgent at its end");

    ok(gw_num(head, "weights", "latency") > gw_num(tail, "weights", "latency"),
       "urgency in the first 32 KiB counts, past them not (%g > %g)",
       gw_num(head, "weights", "latency"), gw_num(tail, "weights", "latency"));
    ok(gw_num(tail, "estimated_tokens", "input") > 10000,
       "tokens count the whole query (%g)",
       gw_num(tail, "estimated_tokens", "input"));

    cJSON_Delete(head);
    cJSON_Delete(tail);
}


static void
impossible(void)
{
    cJSON         *r;
    const cJSON   *e, *closest;
    double         d0, d1;

    r = route("{\"query\":\"Anything.\",\"latency_limit\":100,"
              "\"cost_constraint\":0.00001}", BEHAVE_ERR_UNPROCESSABLE,
              "impossible");
    ok(r != NULL, "422 has a body");
    e = cJSON_GetObjectItemCaseSensitive(r, "error");
    is_str(str(e, "code"), "unprocessable", "422 code");
    closest = cJSON_GetObjectItemCaseSensitive(e, "closest_candidates");
    is_int(cJSON_GetArraySize(closest), 3, "3 closest candidates");
    is_str(str(cJSON_GetArrayItem(closest, 0), "id"), "tiny",
           "the nearest is tiny");
    d0 = gw_num(cJSON_GetArrayItem(closest, 0), "distance", NULL);
    d1 = gw_num(cJSON_GetArrayItem(closest, 1), "distance", NULL);
    ok(d0 <= d1, "closest first (%g <= %g)", d0, d1);
    ok(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
           cJSON_GetArrayItem(closest, 0), "violations")) >= 1,
       "violations listed");
    ok(cJSON_GetObjectItemCaseSensitive(e, "constraints") != NULL,
       "constraints echoed");
    cJSON_Delete(r);

    r = route("{\"query\":\"x\",\"required_capabilities\":[\"teleport\"]}",
              BEHAVE_ERR_UNPROCESSABLE, "unknown capability");
    cJSON_Delete(r);
}


static void
invalid(void)
{
    behave_gw_catalog_t  *save;

    route("{}", BEHAVE_ERR_MISSING_FIELD, "no query");
    route("{\"query\":7}", BEHAVE_ERR_INVALID_FIELD, "query a number");
    route("{\"query\":\" \"}", BEHAVE_ERR_INVALID_FIELD, "blank query");
    route("{\"query\":\"x\",\"latency_limit\":-1}", BEHAVE_ERR_INVALID_FIELD,
          "negative latency");
    route("{\"query\":\"x\",\"latency_limit\":\"fast\"}",
          BEHAVE_ERR_INVALID_FIELD, "latency a string");
    route("{\"query\":\"x\",\"cost_constraint\":-0.5}",
          BEHAVE_ERR_INVALID_FIELD, "negative cost");
    route("{\"query\":\"x\",\"context\":[1,2]}", BEHAVE_ERR_INVALID_FIELD,
          "context of numbers");
    route("{\"query\":\"x\",\"context\":{\"a\":1}}",
          BEHAVE_ERR_INVALID_FIELD, "context an object");
    route("{\"query\":\"x\",\"required_capabilities\":\"vision\"}",
          BEHAVE_ERR_INVALID_FIELD, "capabilities a string");
    route("{\"query\":\"x\",\"expected_output_tokens\":2.5}",
          BEHAVE_ERR_INVALID_FIELD, "output tokens not an integer");

    save = cat;
    cat = NULL;
    route("{\"query\":\"x\"}", BEHAVE_ERR_UNAVAILABLE, "no catalog");
    cat = save;
}


int
main(void)
{
    char  errbuf[256];

    load_errors();
    shipped_catalog();

    is_int(behave_gw_catalog_load(catalog_json, sizeof(catalog_json) - 1,
                                  &cat, errbuf, sizeof(errbuf)), 0,
           "test catalog loads");
    is_int(behave_gw_catalog_count(cat), 4, "4 models");

    shape();
    constraints();
    urgency();
    impossible();
    invalid();

    behave_gw_catalog_free(cat);

    return tap_done();
}
