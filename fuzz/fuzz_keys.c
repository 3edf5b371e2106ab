/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * What the module reads of keys and secrets: lines of the API keys file,
 * the Authorization header's bearer token, the tenant name, the master
 * key file, and a sealed webhook secret as stored in Redis.  The first
 * byte picks which.
 */

#include "fuzz.h"
#include "base/behave_keys.h"
#include "base/behave_secretbox.h"


static const unsigned char  fuzz_master[BEHAVE_MASTER_KEY_LEN] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32
};


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int             rc;
    char           *out;
    size_t          n;
    const char     *s, *why, *tok;
    behave_key_t    key;
    unsigned char   master[BEHAVE_MASTER_KEY_LEN];

    if (size == 0) {
        return 0;
    }

    s = (const char *) data + 1;
    n = size - 1;

    switch (data[0] % 4) {

    case 0:
        why = NULL;
        rc = behave_key_parse_line(s, n, &key, &why);
        FUZZ_CHECK(rc >= -1 && rc <= 1);
        FUZZ_CHECK(rc != -1 || why != NULL);
        if (rc == 1) {
            FUZZ_CHECK(behave_tenant_valid(key.tenant, strlen(key.tenant)));
            FUZZ_CHECK(key.scopes != 0);
            FUZZ_CHECK(behave_key_find(&key, 1, "bk_not_the_key", 14) == -1);
        }
        break;

    case 1:
        tok = behave_bearer_token(s, n, &n);
        FUZZ_CHECK(tok == NULL || (tok >= s && tok + n <= s + size - 1));
        (void) behave_tenant_valid((const char *) data + 1, size - 1);
        break;

    case 2:
        if (behave_master_key_parse(s, n, master) == 0) {
            FUZZ_CHECK(memcmp(master, (unsigned char[32]) {0}, 32) != 0);
        }
        break;

    default:
        out = malloc(n + 1);
        FUZZ_CHECK(out != NULL);
        if (behave_secretbox_open(fuzz_master, s, n, "wh_fuzz", 7, out, n + 1,
                                  &n) == 0)
        {
            FUZZ_CHECK(out[n] == '\0');
        }
        free(out);
        break;
    }

    return 0;
}
