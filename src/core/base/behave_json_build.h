/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The cJSON tree of a body that behave_json_check() has passed, built
 * here instead of by cJSON_ParseWithLength().  The check has read every
 * byte already; cJSON read them all again, twice per string (its length,
 * then its copy), a third of a chat request's core time outside the
 * annotator (callgrind: 181,000 instructions of a 7 KB body).  Knowing
 * the text sound, the build copies each string once, eight bytes at a
 * time up to its end, and checks nothing again.
 *
 * The tree is cJSON's own, node for node: the same types, strings, keys,
 * numbers (strtod() of the same bytes, valueint saturated as cJSON does),
 * the same links (a container's first child's prev is its last), so that
 * every cJSON function reads and frees it as one it built.  Its blocks
 * come from cJSON_malloc(), the hooks cJSON itself allocates through
 * (behave_json_arena.h's when installed), one a node and one a string
 * as cJSON's.
 */

#ifndef BEHAVE_JSON_BUILD_H
#define BEHAVE_JSON_BUILD_H

#include <stddef.h>
#include <cjson/cJSON.h>


/* containers open at once that the build keeps track of; a body nested
 * deeper (no chat is) is left to cJSON */
#define BEHAVE_JSON_BUILD_DEPTH  64


/*
 * The tree of p[0 .. len), which behave_json_check() passed (a leading
 * byte order mark skipped by the caller).  NULL when out of memory, or
 * with *deep set when the body nests deeper than BEHAVE_JSON_BUILD_DEPTH:
 * then cJSON_ParseWithLength() builds it.
 */
cJSON *behave_json_build(const char *p, size_t len, int *deep);


#endif /* BEHAVE_JSON_BUILD_H */
