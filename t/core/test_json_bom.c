/*
 * A body that starts with a UTF-8 byte order mark (RFC 8259 8.1; docs/
 * API.md allows one): the strict check passes it, and so must the parse
 * that follows it.  Found by fuzz_json: cJSON refuses the BOM, so such a
 * body used to be answered 400 invalid_json with no reason.
 */

#include <string.h>

#include "base/behave_json_parse.h"
#include "analyze/behave_request.h"
#include "tap.h"


int
main(void)
{
    size_t                 at;
    cJSON                 *root;
    const char            *why;
    behave_error_t         err;
    behave_analyze_req_t   req;
    static const char      bom3[] = "\xef\xbb\xbf" "3";
    static const char      body[] = "\xef\xbb\xbf" " {\"message\":\"hi\"}";
    static const char      two[] = "\xef\xbb\xbf\xef\xbb\xbf" "3";

    ok(behave_json_check(bom3, sizeof(bom3) - 1, &at, &why),
       "the check passes a leading BOM");
    root = behave_json_parse_strict(bom3, sizeof(bom3) - 1, &err);
    ok(root != NULL && cJSON_IsNumber(root) && root->valueint == 3,
       "and the parse reads the value after it");
    cJSON_Delete(root);

    is_int(behave_analyze_req_parse(body, sizeof(body) - 1, 100, &req, &err),
           BEHAVE_OK, "an analyze body with a BOM is accepted");
    if (err.err == BEHAVE_OK) {
        is_str(req.message, "hi", "... and read");
        behave_analyze_req_free(&req);
    }

    ok(!behave_json_check(two, sizeof(two) - 1, &at, &why),
       "two BOMs are refused");
    ok(behave_json_parse_strict(two, sizeof(two) - 1, &err) == NULL
       && err.err == BEHAVE_ERR_INVALID_JSON, "... by the parse too");

    return tap_done();
}
