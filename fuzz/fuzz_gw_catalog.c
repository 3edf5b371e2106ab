/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The model catalog file ("behave_models FILE;").  A catalog that loads
 * then answers a few fixed orchestrate-models requests.
 */

#include "fuzz.h"
#include "gateway/behave_gateway.h"
#include "base/behave_json.h"


static const char  *fuzz_cat_requests[] = {
    "{}",
    "{\"task\":{\"type\":\"chat\",\"estimated_input_tokens\":1200,"
    "\"estimated_output_tokens\":300},\"constraints\":{\"max_latency_ms\":"
    "1000,\"max_cost_usd\":0.01,\"min_quality_tier\":2,"
    "\"required_capabilities\":[\"json\"]}}",
    "{\"constraints\":{\"min_quality_tier\":5,\"max_latency_ms\":1}}",
};


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char                  errbuf[200];
    size_t                i;
    cJSON                *req, *resp;
    behave_err_e          rc;
    behave_error_t        err;
    behave_gw_catalog_t  *cat;

    memset(errbuf, 'x', sizeof(errbuf));
    cat = NULL;

    if (behave_gw_catalog_load((const char *) data, size, &cat, errbuf,
                               sizeof(errbuf)) != 0)
    {
        FUZZ_CHECK(memchr(errbuf, '\0', sizeof(errbuf)) != NULL);
        return 0;
    }

    FUZZ_CHECK(cat != NULL);
    FUZZ_CHECK(behave_gw_catalog_count(cat) <= 1024);

    for (i = 0; i < sizeof(fuzz_cat_requests) / sizeof(char *); i++) {
        req = cJSON_Parse(fuzz_cat_requests[i]);
        FUZZ_CHECK(req != NULL);

        resp = NULL;
        rc = behave_gw_orchestrate(req, cat, FUZZ_NOW_MS, &resp, &err);

        if (resp != NULL) {
            FUZZ_CHECK(rc == BEHAVE_OK || rc == BEHAVE_ERR_UNPROCESSABLE);
            fuzz_check_tree(resp);
        }

        cJSON_Delete(req);
    }

    behave_gw_catalog_free(cat);

    return 0;
}
