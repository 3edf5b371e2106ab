/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The gateway's request bodies (surface A).  The first byte picks the
 * operation: behavioral-signals, analyze-behavior (the body's own
 * "fuzz_prior" member, when an array, stands for the stored history),
 * adaptive-ui, orchestrate-models against a fixed catalog.  The body is
 * read as the glue reads it (behave_json_parse_object); every answer and
 * every error must print as JSON.
 */

#include "fuzz.h"
#include "gateway/behave_gateway.h"
#include "analyze/behave_request.h"
#include "base/behave_json.h"


static const char  fuzz_catalog_json[] =
    "{\"models\":["
    "{\"id\":\"small\",\"provider\":\"acme\",\"p50_latency_ms\":300,"
    "\"cost_per_1k_input\":0.0002,\"cost_per_1k_output\":0.0006,"
    "\"context_window\":16000,\"quality_tier\":2,"
    "\"capabilities\":[\"chat\",\"json\"]},"
    "{\"id\":\"large\",\"provider\":\"acme\",\"p50_latency_ms\":1800,"
    "\"cost_per_1k_input\":0.01,\"cost_per_1k_output\":0.03,"
    "\"context_window\":200000,\"quality_tier\":5,"
    "\"capabilities\":[\"chat\",\"json\",\"vision\",\"tools\"]}]}";

static behave_gw_catalog_t  *fuzz_catalog;


static void fuzz_gw_session(const cJSON *req, const cJSON *prior);
static void fuzz_gw_answer(behave_err_e rc, cJSON *resp,
    const behave_error_t *err);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char             errbuf[160];
    cJSON           *req, *resp, *hist, *stored;
    const cJSON     *prior;
    behave_err_e     rc, src;
    behave_error_t   err, serr;

    if (fuzz_catalog == NULL) {
        FUZZ_CHECK(behave_gw_catalog_load(fuzz_catalog_json,
                                          sizeof(fuzz_catalog_json) - 1,
                                          &fuzz_catalog, errbuf,
                                          sizeof(errbuf)) == 0);
    }

    if (size == 0) {
        return 0;
    }

    memset(&err, 0, sizeof(err));
    req = behave_json_parse_object((const char *) data + 1, size - 1, &err);
    if (req == NULL) {
        FUZZ_CHECK(err.err != BEHAVE_OK);
        return 0;
    }

    resp = NULL;

    switch (data[0] % 4) {

    case 0:
        rc = behave_gw_signals(req, FUZZ_NOW_MS, &resp, &err);
        break;

    case 1:
        prior = cJSON_GetObjectItemCaseSensitive(req, "fuzz_prior");
        prior = cJSON_IsArray(prior) ? prior : NULL;
        rc = behave_gw_behavior(req, prior, FUZZ_NOW_MS, &resp, &err);

        /* what the glue stores is validated the same way, first */
        stored = NULL;
        src = behave_gw_behavior_store(req, BEHAVE_GW_EVENTS_MAX, &stored,
                                       &serr);
        FUZZ_CHECK((src == BEHAVE_OK) == (rc == BEHAVE_OK));
        FUZZ_CHECK(src == BEHAVE_OK || src == rc);
        FUZZ_CHECK((src == BEHAVE_OK) == (stored != NULL));
        FUZZ_CHECK(stored == NULL
                   || cJSON_GetArraySize(stored) <= BEHAVE_GW_EVENTS_MAX);

        if (rc == BEHAVE_OK) {
            fuzz_gw_answer(rc, resp, &err);

            /* the stored form read back as a session's history */
            resp = NULL;
            rc = behave_gw_behavior(req, stored, FUZZ_NOW_MS, &resp, &err);
            fuzz_gw_answer(rc, resp, &err);

            hist = behave_gw_behavior_history(req, prior,
                                              BEHAVE_GW_EVENTS_MAX);
            FUZZ_CHECK(hist != NULL);
            FUZZ_CHECK(cJSON_GetArraySize(hist) <= BEHAVE_GW_EVENTS_MAX);

            /* stored and read back next time: the prior of a new call */
            resp = NULL;
            rc = behave_gw_behavior(req, hist, FUZZ_NOW_MS + 1000, &resp,
                                    &err);
            cJSON_Delete(hist);

            fuzz_gw_session(req, prior);
        }

        cJSON_Delete(stored);
        break;

    case 2:
        rc = behave_gw_adaptive(req, FUZZ_NOW_MS, &resp, &err);
        break;

    default:
        rc = behave_gw_orchestrate(req, fuzz_catalog, FUZZ_NOW_MS, &resp,
                                   &err);
        break;
    }

    fuzz_gw_answer(rc, resp, &err);
    cJSON_Delete(req);

    return 0;
}


/*
 * The session path: the prior seeds a state, the request's batch is
 * appended twice (the second time a retry: nothing new), the state is
 * rewritten; and the request's "fuzz_state" string read as a state.
 */
static void
fuzz_gw_session(const cJSON *req, const cJSON *prior)
{
    char                 *seed, *batch, *st;
    size_t                len, blen;
    cJSON                *resp;
    const cJSON          *raw;
    behave_err_e          rc;
    behave_error_t        err;
    behave_gw_rewrite_t   rw;

    if (behave_gw_behavior_batch(req, &batch, &blen, &err) != BEHAVE_OK) {
        return;
    }

    seed = behave_gw_behavior_seed(prior, 7, &len);
    FUZZ_CHECK(seed != NULL);

    st = malloc(len + blen);
    memcpy(st, seed, len);
    memcpy(st + len, batch, blen);

    resp = NULL;
    rc = behave_gw_behavior_session(req, FUZZ_NOW_MS, st, len, batch, blen,
                                    7, &resp, &rw, &err);
    fuzz_gw_answer(rc, resp, &err);
    FUZZ_CHECK(!rw.reset);
    free(rw.blob);
    free(rw.hot);

    resp = NULL;
    rc = behave_gw_behavior_session(req, FUZZ_NOW_MS, st, len + blen, batch,
                                    blen, 7, &resp, &rw, &err);
    FUZZ_CHECK(rc != BEHAVE_OK || !rw.reset);
    FUZZ_CHECK(rc != BEHAVE_OK
               || cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
                      resp, "events_new")) == 0);
    fuzz_gw_answer(rc, resp, &err);
    free(rw.blob);
    free(rw.hot);

    raw = cJSON_GetObjectItemCaseSensitive(req, "fuzz_state");

    if (cJSON_IsString(raw)) {
        resp = NULL;
        rc = behave_gw_behavior_session(req, FUZZ_NOW_MS, raw->valuestring,
                                        strlen(raw->valuestring), batch,
                                        blen, 7, &resp, &rw, &err);
        fuzz_gw_answer(rc, resp, &err);
        free(rw.blob);
        free(rw.hot);
    }

    free(st);
    free(seed);
    free(batch);
}


static void
fuzz_gw_answer(behave_err_e rc, cJSON *resp, const behave_error_t *err)
{
    char    *json;
    size_t   len;

    /* only orchestrate-models' 422 carries a body: signals' 422 (no
     * emotional evidence) is a plain error */
    if (resp != NULL) {
        FUZZ_CHECK(rc == BEHAVE_OK || rc == BEHAVE_ERR_UNPROCESSABLE);
        fuzz_check_tree(resp);
        return;
    }

    FUZZ_CHECK(rc != BEHAVE_OK);
    FUZZ_CHECK(err->err == rc);
    FUZZ_CHECK(behave_error_status(rc) >= 400);

    json = behave_error_json(err, &len);
    fuzz_check_json(json, len);
    free(json);
}
