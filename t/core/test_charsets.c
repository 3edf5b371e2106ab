/*
 * The character-set checks of names that reach Redis keys (conversation
 * ids, tenants): a NUL byte inside the given length is refused.  Found by
 * fuzz_keys: strchr(set, c) finds the set's own terminating NUL when c is
 * NUL, so "_.-" used to accept it.
 */

#include <string.h>

#include "base/behave_keys.h"
#include "analyze/behave_request.h"
#include "base/behave_utf8.h"
#include "tap.h"


int
main(void)
{
    int            rc;
    const char    *why;
    behave_key_t   key;
    static const char  line[] =
        "9dbadd9db6cfea0403b1760f659413216617af9f49ec72a602305e80d6b5acae"
        " \0\0\0\0bex analyze 0";

    /* the byte class every one of them is checked with */
    ok(behave_ascii_name_valid("aZ09-_", 6, 6, "-_"), "letters, digits, punct");
    ok(!behave_ascii_name_valid("aZ09-_", 6, 5, "-_"), "longer than max");
    ok(!behave_ascii_name_valid("", 0, 5, "-_"), "empty refused");
    ok(!behave_ascii_name_valid("a.b", 3, 5, "-_"), "other punctuation");
    ok(!behave_ascii_name_valid("a\0b", 3, 5, "-_"), "a NUL refused");
    ok(!behave_ascii_name_valid("caf\xc3\xa9", 5, 5, "-_"), "non-ASCII");

    ok(behave_conversation_id_valid("conv-1:a@b.c_d", 14), "a valid id");
    ok(!behave_conversation_id_valid("ab\0cd", 5), "a NUL inside an id");
    ok(!behave_conversation_id_valid("\0", 1), "an id that is a NUL");

    ok(behave_tenant_valid("acme_1.x-y", 10), "a valid tenant");
    ok(!behave_tenant_valid("ac\0me", 5), "a NUL inside a tenant");
    ok(!behave_tenant_valid("\0", 1), "a tenant that is a NUL");

    why = NULL;
    rc = behave_key_parse_line(line, sizeof(line) - 1, &key, &why);
    is_int(rc, -1, "a key line whose tenant holds NULs is refused");
    ok(why != NULL, "... with a reason");

    return tap_done();
}
