/*
 * The error table: codes and statuses, and the mapping of nginx's own
 * statuses (behave_error_page) to the JSON error shape.
 */

#include <stdlib.h>
#include <string.h>

#include "base/behave_error.h"
#include "tap.h"


static void
status_is(int status, int want_sent, const char *want_code)
{
    int             sent;
    char           *json;
    behave_err_e    e;
    behave_error_t  err;

    e = behave_error_for_status(status, &sent, &err);
    is_int(sent, want_sent, "nginx %d is sent as %d", status, want_sent);
    is_str(behave_error_code(e), want_code, "nginx %d: code %s", status,
           want_code);
    ok(strlen(err.message) > 0, "nginx %d: a message", status);

    json = behave_error_json(&err, NULL);
    ok(json != NULL && strstr(json, want_code) != NULL
       && strncmp(json, "{\"error\":{\"code\":", 17) == 0,
       "nginx %d: the JSON shape", status);
    free(json);
}


int
main(void)
{
    int  i;

    for (i = 1; i < BEHAVE_ERR_LAST; i++) {
        ok(behave_error_status(i) >= 400 && behave_error_status(i) < 600,
           "%s has an error status", behave_error_code(i));
    }

    is_int(behave_error_status(BEHAVE_ERR_LAST), 500, "out of range: 500");

    status_is(400, 400, "bad_request");
    status_is(404, 404, "not_found");
    status_is(405, 405, "method_not_allowed");
    status_is(408, 408, "request_timeout");
    status_is(413, 413, "payload_too_large");
    status_is(414, 414, "uri_too_long");
    status_is(494, 400, "bad_request");
    status_is(497, 400, "bad_request");
    status_is(500, 500, "internal_error");
    status_is(501, 501, "not_implemented");
    status_is(503, 503, "unavailable");
    status_is(411, 411, "bad_request");
    status_is(416, 416, "bad_request");
    status_is(502, 502, "internal_error");
    status_is(504, 504, "internal_error");
    status_is(200, 500, "internal_error");

    return tap_done();
}
