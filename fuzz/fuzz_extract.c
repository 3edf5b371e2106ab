/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The pre-filter's text extraction from an LLM request body.  Input: a
 * first line that is the configured JSON pointer when it starts with
 * "/" (checked as the config parser checks it), then the body.  The
 * built-in formats are tried on every body, the pointer when valid.
 */

#include "fuzz.h"
#include "behave_extract.h"


static void fuzz_extract_one(const cJSON *root, const char *pointer);


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char    *pointer;
    size_t   n, rest;
    cJSON   *root;

    pointer = NULL;

    if (size > 0 && data[0] == '/') {
        n = fuzz_line(data, size, &rest);

        if (behave_json_pointer_valid((const char *) data, n)
            && memchr(data, '\0', n) == NULL)
        {
            pointer = strndup((const char *) data, n);
            FUZZ_CHECK(pointer != NULL);
        }

        data += rest;
        size -= rest;
    }

    root = cJSON_ParseWithLength((const char *) data, size);
    if (root == NULL) {
        free(pointer);
        return 0;
    }

    fuzz_extract_one(root, NULL);

    if (pointer != NULL) {
        fuzz_extract_one(root, pointer);
        (void) behave_json_pointer_get(root, pointer);
    }

    cJSON_Delete(root);
    free(pointer);

    return 0;
}


static void
fuzz_extract_one(const cJSON *root, const char *pointer)
{
    char              *text;
    size_t             len;
    behave_extract_e   rc;

    text = NULL;
    len = 0;
    rc = behave_extract_text(root, pointer, &text, &len);

    FUZZ_CHECK(rc == BEHAVE_EXTRACT_OK || rc == BEHAVE_EXTRACT_NONE
               || rc == BEHAVE_EXTRACT_NOMEM);

    if (rc == BEHAVE_EXTRACT_OK) {
        FUZZ_CHECK(text != NULL);
        FUZZ_CHECK(text[len] == '\0');
        free(text);
    }
}
