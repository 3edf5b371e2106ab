/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The compact JSON printer (behave_json.c) that writes every answer: any
 * tree cJSON reads is printed, read back, and must be the same tree.
 * Also the strict check every request body passes first
 * (behave_json_check): what it accepts cJSON reads, what it refuses is
 * refused with a reason and an offset inside the input, and the
 * printer's own output always passes it.
 */

#include <math.h>

#include "fuzz.h"
#include "base/behave_json.h"
#include "base/behave_json_parse.h"


/* "1e999" is JSON that cJSON reads as infinity, which prints as null */
static int
fuzz_json_finite(const cJSON *item)
{
    const cJSON  *c;

    if (cJSON_IsNumber(item) && !isfinite(item->valuedouble)) {
        return 0;
    }

    for (c = item->child; c != NULL; c = c->next) {
        if (!fuzz_json_finite(c)) {
            return 0;
        }
    }

    return 1;
}


/* the same tree, member by member in order (cJSON_Compare looks members
 * up by name, which a repeated name defeats) */
static int
fuzz_json_same(const cJSON *a, const cJSON *b)
{
    if ((a->type & 0xff) != (b->type & 0xff)) {
        return 0;
    }

    if ((a->string == NULL) != (b->string == NULL)
        || (a->string != NULL && strcmp(a->string, b->string) != 0))
    {
        return 0;
    }

    if (cJSON_IsNumber(a)) {
        return a->valuedouble == b->valuedouble
               || fabs(a->valuedouble - b->valuedouble)
                  <= fabs(a->valuedouble) * 1e-15;
    }

    if (cJSON_IsString(a)) {
        return strcmp(a->valuestring, b->valuestring) == 0;
    }

    for (a = a->child, b = b->child;
         a != NULL && b != NULL;
         a = a->next, b = b->next)
    {
        if (!fuzz_json_same(a, b)) {
            return 0;
        }
    }

    return a == NULL && b == NULL;
}


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char            *text;
    size_t           len, at;
    cJSON           *root, *back;
    const char      *why;
    behave_error_t   err;

    root = behave_json_parse_object((const char *) data, size, &err);
    if (root != NULL) {
        FUZZ_CHECK(cJSON_IsObject(root));
        cJSON_Delete(root);
    } else {
        FUZZ_CHECK(err.err != BEHAVE_OK);
    }

    why = NULL;
    if (behave_json_check((const char *) data, size, &at, &why)) {
        root = behave_json_parse_strict((const char *) data, size, &err);
        FUZZ_CHECK(root != NULL);
        cJSON_Delete(root);

    } else {
        FUZZ_CHECK(why != NULL && at <= size);
        FUZZ_CHECK(behave_json_parse_strict((const char *) data, size, &err)
                   == NULL);
        FUZZ_CHECK(err.err == BEHAVE_ERR_INVALID_JSON);
    }

    root = cJSON_ParseWithLength((const char *) data, size);
    if (root == NULL) {
        return 0;
    }

    text = behave_json_print(root, &len);
    FUZZ_CHECK(text != NULL);
    FUZZ_CHECK(strlen(text) == len);

    back = cJSON_ParseWithLength(text, len);
    FUZZ_CHECK(back != NULL);

    /* what the module writes is strict JSON (strings without a NUL:
     * cJSON's own strings end at their first one) */
    FUZZ_CHECK(behave_json_check(text, len, &at, &why));
    if (fuzz_json_finite(root)) {
        FUZZ_CHECK(fuzz_json_same(root, back));
    }

    cJSON_Delete(back);
    cJSON_Delete(root);
    free(text);

    return 0;
}
