/*
 * Shared by the gateway core's unit tests (test_gw_*.c): the check made
 * on every call's outcome, one call from a test body to its checked
 * response, and reading a number out of a response.
 */

#ifndef BEHAVE_GWTEST_H
#define BEHAVE_GWTEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "tap.h"
#include "gateway/behave_gateway.h"


/*
 * The call answered want; an error, unless it is body_error (one that
 * still answers with a body), left no response and says why.
 */
static __attribute__((unused)) void
gwtest_outcome(behave_err_e rc, behave_err_e want, const cJSON *resp,
    const behave_error_t *err, behave_err_e body_error, const char *name)
{
    if (!is_int(rc, want, "%s: status", name)) {
        printf("#   message: %s\n", err->message);
    }

    if (rc != BEHAVE_OK && rc != body_error) {
        ok(resp == NULL && err->message[0], "%s: '%s'", name, err->message);
    }
}


/* the "now" every test calls the gateway core with */
#define GWTEST_NOW_MS  1718000000000LL


/* an entry point of the gateway core (orchestrate's with its catalog) */
typedef behave_err_e (*gwtest_call_pt)(const cJSON *req, int64_t now_ms,
    cJSON **resp, behave_error_t *err);


/*
 * body (a test's own, so it parses) through call at GWTEST_NOW_MS, its
 * outcome checked as gwtest_outcome() does and a success checked to
 * answer; the response is the caller's
 */
static __attribute__((unused)) cJSON *
gwtest_run(gwtest_call_pt call, const char *body, behave_err_e want,
    behave_err_e body_error, const char *name)
{
    cJSON           *req, *resp;
    behave_err_e     rc;
    behave_error_t   err;

    memset(&err, 0, sizeof(err));
    req = cJSON_Parse(body);
    ok(req != NULL, "%s: test body parses", name);

    resp = NULL;
    rc = call(req, GWTEST_NOW_MS, &resp, &err);

    gwtest_outcome(rc, want, resp, &err, body_error, name);

    if (rc == BEHAVE_OK) {
        ok(resp != NULL, "%s: a response", name);
    }

    cJSON_Delete(req);
    return resp;
}


/* o.a (or o.a.b) as a number; -1 when absent or not a number */
static __attribute__((unused)) double
gw_num(const cJSON *o, const char *a, const char *b)
{
    const cJSON  *it;

    it = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b != NULL) {
        it = cJSON_GetObjectItemCaseSensitive(it, b);
    }

    return cJSON_IsNumber(it) ? it->valuedouble : -1.0;
}


#endif /* BEHAVE_GWTEST_H */
