/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Strict JSON in (RFC 8259), for every body a client sends.  cJSON
 * 1.7.15 alone is lenient where it matters to us: it stops after the
 * first value (trailing data and concatenated documents pass), decodes
 * \u0000 into a NUL that ends the C string early, reads a bad \u escape
 * (\u12G4) as U+0000, and lets raw control bytes through.  The check here
 * runs over the raw bytes first; a body that passes it has no NUL in any
 * decoded string, so strlen() of a cJSON valuestring is its decoded
 * length; the tree is then built from it, cJSON's own
 * (behave_json_build.h).
 */

#ifndef BEHAVE_JSON_PARSE_H
#define BEHAVE_JSON_PARSE_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "base/behave_error.h"


#define BEHAVE_JSON_DEPTH_MAX  1000      /* cJSON's CJSON_NESTING_LIMIT */


/*
 * Returns 1 when p[0..len) is exactly one JSON value, with only white
 * space (and a leading UTF-8 byte order mark, RFC 8259 8.1) around it,
 * every escape well-formed, no \u0000, no unpaired surrogate escape and
 * no raw control byte inside a string, nesting within
 * BEHAVE_JSON_DEPTH_MAX.  Else 0, with *at the byte offset of the fault
 * and *why a short reason (static text, no input in it).  One pass, no
 * allocation; UTF-8 is checked apart (behave_utf8_valid()).
 */
int behave_json_check(const char *p, size_t len, size_t *at,
    const char **why);

/*
 * behave_json_check(), then the tree (behave_json_build()): the tree of
 * any JSON value, or NULL
 * with err set to BEHAVE_ERR_INVALID_JSON (or INTERNAL when out of
 * memory).
 */
cJSON *behave_json_parse_strict(const char *p, size_t len,
    behave_error_t *err);

/*
 * The checks of behave_json_parse_object() without the tree: valid UTF-8,
 * strict JSON, an object; the same errors.  BEHAVE_OK or err->err.
 */
behave_err_e behave_json_check_object(const char *body, size_t len,
    behave_error_t *err);

/*
 * The request body of every surface: valid UTF-8 (else
 * BEHAVE_ERR_INVALID_UTF8), strict JSON (above), and an object.
 */
cJSON *behave_json_parse_object(const char *body, size_t len,
    behave_error_t *err);


#endif /* BEHAVE_JSON_PARSE_H */
