/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The strict check is a loop over the bytes with an explicit stack of
 * open containers (one byte each), so that a deeply nested body costs no
 * C stack; strings, the bulk of every body, are skipped eight bytes at a
 * time when nothing in them needs a look.
 */

#include <stdint.h>
#include <string.h>

#include "base/behave_json.h"             /* behave_json_plain_run */
#include "base/behave_json_build.h"
#include "base/behave_json_parse.h"
#include "base/behave_utf8.h"


#define BEHAVE_JSON_NUMBER_MAX  63      /* cJSON reads at most 63 bytes */


typedef struct {
    const unsigned char  *p;
    const unsigned char  *end;
    const char           *why;
} behave_jscan_t;


static int behave_json_string(behave_jscan_t *s);
static int behave_json_escape(behave_jscan_t *s);
static int behave_json_hex4(behave_jscan_t *s, unsigned *cp);
static int behave_json_scan_number(behave_jscan_t *s);
static int behave_json_literal(behave_jscan_t *s);
static inline void behave_json_ws(behave_jscan_t *s);


int
behave_json_check(const char *p, size_t len, size_t *at, const char **why)
{
    size_t          depth;
    unsigned char   stack[BEHAVE_JSON_DEPTH_MAX], c;
    behave_jscan_t  s;

    s.p = (const unsigned char *) p;
    s.end = s.p + len;
    s.why = NULL;
    depth = 0;

    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
        s.p += 3;
    }

    behave_json_ws(&s);

    if (s.p == s.end) {
        s.why = "no value";
        goto fail;
    }

value:

    behave_json_ws(&s);

    if (s.p == s.end) {
        s.why = "unexpected end of input";
        goto fail;
    }

    c = *s.p;

    if (c == '{' || c == '[') {
        if (depth == BEHAVE_JSON_DEPTH_MAX) {
            s.why = "nested too deeply";
            goto fail;
        }

        stack[depth++] = c;
        s.p++;
        behave_json_ws(&s);

        if (s.p < s.end && *s.p == (c == '{' ? '}' : ']')) {
            s.p++;
            depth--;
            goto after;
        }

        if (c == '{') {
            goto member;
        }

        goto value;
    }

    if (c == '"') {
        if (!behave_json_string(&s)) {
            goto fail;
        }

    } else if (c == '-' || (c >= '0' && c <= '9')) {
        if (!behave_json_scan_number(&s)) {
            goto fail;
        }

    } else if (!behave_json_literal(&s)) {
        goto fail;
    }

after:

    behave_json_ws(&s);

    if (depth == 0) {
        if (s.p != s.end) {
            s.why = "data after the JSON value";
            goto fail;
        }

        return 1;
    }

    if (s.p == s.end) {
        s.why = "unexpected end of input";
        goto fail;
    }

    c = *s.p++;

    if (c == ',') {
        if (stack[depth - 1] == '{') {
            goto member;
        }

        goto value;
    }

    if (c == (stack[depth - 1] == '{' ? '}' : ']')) {
        depth--;
        goto after;
    }

    s.p--;
    s.why = stack[depth - 1] == '{' ? "expected ',' or '}'"
                                    : "expected ',' or ']'";
    goto fail;

member:

    behave_json_ws(&s);

    if (s.p == s.end || *s.p != '"') {
        s.why = "expected a member name";
        goto fail;
    }

    if (!behave_json_string(&s)) {
        goto fail;
    }

    behave_json_ws(&s);

    if (s.p == s.end || *s.p != ':') {
        s.why = "expected ':'";
        goto fail;
    }

    s.p++;
    goto value;

fail:

    *at = (size_t) ((const char *) s.p - p);
    *why = s.why;

    return 0;
}


cJSON *
behave_json_parse_strict(const char *p, size_t len, behave_error_t *err)
{
    int          deep;
    size_t       at;
    cJSON       *root;
    const char  *why;

    if (!behave_json_check(p, len, &at, &why)) {
        behave_error_set(err, BEHAVE_ERR_INVALID_JSON,
                         "request body is not valid JSON: %s at byte %zu",
                         why, at);
        return NULL;
    }

    /* the check allows one leading byte order mark; cJSON does not */
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
        p += 3;
        len -= 3;
    }

    /* checked: built in one more pass (behave_json_build.h), cJSON's
     * parse only for a body nested too deep for the build */
    root = behave_json_build(p, len, &deep);

    if (root == NULL && deep) {
        root = cJSON_ParseWithLength(p, len);
    }

    if (root == NULL) {
        /* checked above: only memory can fail here */
        behave_error_set(err, BEHAVE_ERR_INVALID_JSON,
                         "request body is not valid JSON");
    }

    return root;
}


behave_err_e
behave_json_check_object(const char *body, size_t len, behave_error_t *err)
{
    size_t       at;
    const char  *why, *p, *end;

    if (!behave_utf8_valid((const unsigned char *) body, len)) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_UTF8,
                                "request body is not valid UTF-8");
    }

    if (!behave_json_check(body, len, &at, &why)) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_JSON,
                                "request body is not valid JSON: %s at "
                                "byte %zu", why, at);
    }

    p = body;
    end = body + len;

    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
        p += 3;
    }

    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    {
        p++;
    }

    if (p == end || *p != '{') {
        return behave_error_set(err, BEHAVE_ERR_INVALID_JSON,
                                "request body must be a JSON object");
    }

    return BEHAVE_OK;
}


cJSON *
behave_json_parse_object(const char *body, size_t len, behave_error_t *err)
{
    cJSON  *root;

    if (!behave_utf8_valid((const unsigned char *) body, len)) {
        behave_error_set(err, BEHAVE_ERR_INVALID_UTF8,
                         "request body is not valid UTF-8");
        return NULL;
    }

    root = behave_json_parse_strict(body, len, err);
    if (root == NULL) {
        return NULL;
    }

    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        behave_error_set(err, BEHAVE_ERR_INVALID_JSON,
                         "request body must be a JSON object");
        return NULL;
    }

    return root;
}


static inline void
behave_json_ws(behave_jscan_t *s)
{
    while (s->p < s->end
           && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n'
               || *s->p == '\r'))
    {
        s->p++;
    }
}


/* s->p at the opening '"'; on success just past the closing one */
static int
behave_json_string(behave_jscan_t *s)
{
    unsigned char  c;

    s->p++;

    for ( ;; ) {
        s->p = behave_json_plain_run(s->p, s->end);

        if (s->p == s->end) {
            s->why = "unterminated string";
            return 0;
        }

        c = *s->p;

        if (c == '"') {
            s->p++;
            return 1;
        }

        if (c < 0x20) {
            s->why = "control character in a string (escape it)";
            return 0;
        }

        if (c == '\\') {
            if (!behave_json_escape(s)) {
                return 0;
            }
            continue;
        }

        s->p++;
    }
}


/*
 * s->p at a backslash.  \u0000 is refused: a NUL would cut the string
 * short in C.  A high surrogate must be followed by an escaped low one
 * and a low one must not stand alone (cJSON refuses those too, but with
 * no reason).
 */
static int
behave_json_escape(behave_jscan_t *s)
{
    unsigned  cp, lo;

    if (s->end - s->p < 2) {
        s->why = "unterminated string";
        return 0;
    }

    switch (s->p[1]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
    case 't':
        s->p += 2;
        return 1;

    case 'u':
        break;

    default:
        s->p++;
        s->why = "invalid escape";
        return 0;
    }

    s->p += 2;

    if (!behave_json_hex4(s, &cp)) {
        return 0;
    }

    if (cp == 0) {
        s->p -= 6;
        s->why = "\\u0000 in a string";
        return 0;
    }

    if (cp >= 0xdc00 && cp <= 0xdfff) {
        s->p -= 6;
        s->why = "unpaired surrogate escape";
        return 0;
    }

    if (cp < 0xd800 || cp > 0xdbff) {
        return 1;
    }

    if (s->end - s->p < 2 || s->p[0] != '\\' || s->p[1] != 'u') {
        s->why = "unpaired surrogate escape";
        return 0;
    }

    s->p += 2;

    if (!behave_json_hex4(s, &lo)) {
        return 0;
    }

    if (lo < 0xdc00 || lo > 0xdfff) {
        s->p -= 6;
        s->why = "unpaired surrogate escape";
        return 0;
    }

    return 1;
}


static int
behave_json_hex4(behave_jscan_t *s, unsigned *cp)
{
    int            i;
    unsigned char  c;

    *cp = 0;

    for (i = 0; i < 4; i++) {
        if (s->p == s->end) {
            s->why = "unterminated string";
            return 0;
        }

        c = *s->p;

        if (c >= '0' && c <= '9') {
            *cp = *cp * 16 + (c - '0');

        } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
            *cp = *cp * 16 + ((c | 0x20) - 'a' + 10);

        } else {
            s->why = "invalid \\u escape (four hex digits expected)";
            return 0;
        }

        s->p++;
    }

    return 1;
}


/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int
behave_json_scan_number(behave_jscan_t *s)
{
    const unsigned char  *start;

    start = s->p;

    if (*s->p == '-') {
        s->p++;
    }

    if (s->p == s->end || *s->p < '0' || *s->p > '9') {
        goto bad;
    }

    if (*s->p++ == '0') {
        if (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
            goto bad;
        }

    } else {
        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
            s->p++;
        }
    }

    if (s->p < s->end && *s->p == '.') {
        s->p++;

        if (s->p == s->end || *s->p < '0' || *s->p > '9') {
            goto bad;
        }

        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
            s->p++;
        }
    }

    if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
        s->p++;

        if (s->p < s->end && (*s->p == '+' || *s->p == '-')) {
            s->p++;
        }

        if (s->p == s->end || *s->p < '0' || *s->p > '9') {
            goto bad;
        }

        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
            s->p++;
        }
    }

    if (s->p - start > BEHAVE_JSON_NUMBER_MAX) {
        s->p = start;
        s->why = "number longer than 63 characters";
        return 0;
    }

    return 1;

bad:

    s->why = "invalid number";
    return 0;
}


static int
behave_json_literal(behave_jscan_t *s)
{
    size_t  n, left;

    static const char  *const lit[] = { "true", "false", "null" };

    left = (size_t) (s->end - s->p);

    for (n = 0; n < 3; n++) {
        if (left >= strlen(lit[n])
            && memcmp(s->p, lit[n], strlen(lit[n])) == 0)
        {
            s->p += strlen(lit[n]);
            return 1;
        }
    }

    s->why = "unexpected character";
    return 0;
}
