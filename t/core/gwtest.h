/*
 * Shared by the gateway core's unit tests (test_gw_*.c): the check made
 * on every call's outcome, and reading a number out of a response.
 */

#ifndef BEHAVE_GWTEST_H
#define BEHAVE_GWTEST_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "tap.h"
#include "behave_gateway.h"


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
