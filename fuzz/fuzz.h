/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Shared by the libFuzzer harnesses (fuzz/fuzz_*.c): one fixed clock so a
 * crash reproduces, and a check that aborts, so a broken invariant is a
 * crash the fuzzer keeps, not a silent pass.
 *
 * The harnesses hand the parsers the fuzzer's buffer as it is, without a
 * NUL after it: a parser that reads past the length it was given is then
 * caught by AddressSanitizer.
 */

#ifndef BEHAVE_FUZZ_H
#define BEHAVE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "base/behave_json.h"


/* 2026-01-01T00:00:00Z */
#define FUZZ_NOW_MS  1767225600000LL

#define FUZZ_CHECK(c)                                                       \
    do {                                                                    \
        if (!(c)) {                                                         \
            fprintf(stderr, "fuzz check failed: %s at %s:%d\n", #c,         \
                    __FILE__, __LINE__);                                    \
            abort();                                                        \
        }                                                                   \
    } while (0)


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


/* a printed tree must read back as JSON */
static inline void
fuzz_check_json(const char *text, size_t len)
{
    cJSON  *back;

    FUZZ_CHECK(text != NULL);
    FUZZ_CHECK(strlen(text) == len);

    back = cJSON_ParseWithLength(text, len);
    FUZZ_CHECK(back != NULL);
    cJSON_Delete(back);
}


/* an answer's body: printed, read back, freed with its tree */
static inline void
fuzz_check_tree(cJSON *tree)
{
    char    *json;
    size_t   len;

    json = behave_json_print(tree, &len);
    fuzz_check_json(json, len);
    free(json);
    cJSON_Delete(tree);
}


/* splits data at the first "\n": *head gets the line, the rest after it */
static inline size_t
fuzz_line(const uint8_t *data, size_t size, size_t *rest)
{
    const uint8_t  *nl;

    nl = memchr(data, '\n', size);
    if (nl == NULL) {
        *rest = size;
        return size;
    }

    *rest = (size_t) (nl - data) + 1;
    return (size_t) (nl - data);
}


#endif /* BEHAVE_FUZZ_H */
