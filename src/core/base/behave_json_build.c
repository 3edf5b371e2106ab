/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A loop over the checked bytes with an explicit stack of the open
 * containers, like the check (behave_json_parse.c): every value a node
 * linked after its parent's last child.  Nothing is checked again: a
 * byte that is not where the check let it be cannot be here.
 */

#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/behave_json.h"             /* behave_json_plain_run */
#include "base/behave_json_build.h"


#define BEHAVE_JSON_NUMBER_MAX  63      /* cJSON reads at most 63 bytes */


static cJSON *behave_json_build_node(cJSON **open, cJSON **last, size_t depth,
    char *key);
static char *behave_json_build_text(const unsigned char **pp,
    const unsigned char *end);
static unsigned char *behave_json_build_unescape(const unsigned char *p,
    const unsigned char *end, unsigned char *out);
static unsigned behave_json_build_hex(const unsigned char *p);
static void behave_json_build_number(cJSON *item, const unsigned char **pp,
    const unsigned char *end);


static inline const unsigned char *
behave_json_build_ws(const unsigned char *p, const unsigned char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) {
        p++;
    }

    return p;
}


cJSON *
behave_json_build(const char *text, size_t len, int *deep)
{
    char                 *key;
    cJSON                *item, *open[BEHAVE_JSON_BUILD_DEPTH],
                         *last[BEHAVE_JSON_BUILD_DEPTH], *root;
    size_t                depth;
    unsigned char         c;
    const unsigned char  *p, *end;

    *deep = 0;
    p = (const unsigned char *) text;
    end = p + len;
    depth = 0;
    root = NULL;
    key = NULL;

value:

    p = behave_json_build_ws(p, end);

    item = behave_json_build_node(open, last, depth, key);
    if (item == NULL) {
        goto fail;
    }

    key = NULL;

    if (root == NULL) {
        root = item;
    }

    c = *p;

    switch (c) {

    case '{':
    case '[':
        if (depth == BEHAVE_JSON_BUILD_DEPTH) {
            *deep = 1;
            goto fail;
        }

        item->type = c == '{' ? cJSON_Object : cJSON_Array;
        open[depth] = item;
        last[depth] = NULL;
        depth++;

        p = behave_json_build_ws(p + 1, end);

        if (*p == (c == '{' ? '}' : ']')) {
            p++;
            depth--;
            goto after;
        }

        if (c == '{') {
            goto member;
        }

        goto value;

    case '"':
        item->valuestring = behave_json_build_text(&p, end);
        if (item->valuestring == NULL) {
            goto fail;
        }

        item->type = cJSON_String;
        break;

    case 't':
        item->type = cJSON_True;
        item->valueint = 1;
        p += 4;
        break;

    case 'f':
        item->type = cJSON_False;
        p += 5;
        break;

    case 'n':
        item->type = cJSON_NULL;
        p += 4;
        break;

    default:
        behave_json_build_number(item, &p, end);
        break;
    }

after:

    p = behave_json_build_ws(p, end);

    if (depth == 0) {
        return root;
    }

    /* ',' or the closing bracket: the check saw to it */
    if (*p++ == ',') {
        if (open[depth - 1]->type == cJSON_Object) {
            goto member;
        }

        goto value;
    }

    depth--;
    goto after;

member:

    p = behave_json_build_ws(p, end);

    key = behave_json_build_text(&p, end);
    if (key == NULL) {
        goto fail;
    }

    /* the ':' after the name */
    p = behave_json_build_ws(p, end) + 1;
    goto value;

fail:

    /* what was built is linked from the root, but for a pending name */
    if (key != NULL) {
        cJSON_free(key);
    }

    cJSON_Delete(root);

    return NULL;
}


/* a new node, linked after the last child of the innermost container */
static cJSON *
behave_json_build_node(cJSON **open, cJSON **last, size_t depth, char *key)
{
    cJSON  *item, *parent;

    item = cJSON_malloc(sizeof(cJSON));
    if (item == NULL) {
        return NULL;
    }

    memset(item, 0, sizeof(cJSON));

    if (depth == 0) {
        return item;
    }

    parent = open[depth - 1];

    if (last[depth - 1] == NULL) {
        parent->child = item;

    } else {
        last[depth - 1]->next = item;
        item->prev = last[depth - 1];
    }

    /* cJSON's list: the first child's prev is the last one */
    parent->child->prev = item;
    last[depth - 1] = item;

    /* an object's member takes its name, as cJSON moves it there */
    item->string = key;

    return item;
}


/* *pp at the opening '"', left past the closing one: the decoded text */
static char *
behave_json_build_text(const unsigned char **pp, const unsigned char *end)
{
    size_t                n;
    unsigned char        *s, *o;
    const unsigned char  *p, *start, *q;

    start = *pp + 1;
    p = start;

    /* most strings have no escape: their end, many bytes at a time */
    p = behave_json_plain_run(p, end);

    while (*p != '"' && *p != '\\') {
        p++;
    }

    if (*p == '"') {
        n = (size_t) (p - start);
        s = cJSON_malloc(n + 1);
        if (s == NULL) {
            return NULL;
        }

        memcpy(s, start, n);
        s[n] = '\0';
        *pp = p + 1;

        return (char *) s;
    }

    /* an escape: the end past every one, the escapes decoded to at most
     * their own length */
    for (q = p; *q != '"'; q++) {
        if (*q == '\\') {
            q++;
        }
    }

    s = cJSON_malloc((size_t) (q - start) + 1);
    if (s == NULL) {
        return NULL;
    }

    n = (size_t) (p - start);
    memcpy(s, start, n);
    o = behave_json_build_unescape(p, q, s + n);
    *o = '\0';
    *pp = q + 1;

    return (char *) s;
}


static unsigned char *
behave_json_build_unescape(const unsigned char *p, const unsigned char *end,
    unsigned char *o)
{
    unsigned  cp, lo;

    while (p < end) {
        if (*p != '\\') {
            *o++ = *p++;
            continue;
        }

        switch (p[1]) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;

        case 'u':
            cp = behave_json_build_hex(p + 2);

            /* the check let a high surrogate through only with a low one
             * escaped right after it */
            if (cp >= 0xd800 && cp <= 0xdbff) {
                lo = behave_json_build_hex(p + 8);
                cp = 0x10000 + (((cp & 0x3ff) << 10) | (lo & 0x3ff));
                p += 6;
            }

            if (cp < 0x80) {
                *o++ = (unsigned char) cp;

            } else if (cp < 0x800) {
                *o++ = (unsigned char) (0xc0 | (cp >> 6));
                *o++ = (unsigned char) (0x80 | (cp & 0x3f));

            } else if (cp < 0x10000) {
                *o++ = (unsigned char) (0xe0 | (cp >> 12));
                *o++ = (unsigned char) (0x80 | ((cp >> 6) & 0x3f));
                *o++ = (unsigned char) (0x80 | (cp & 0x3f));

            } else {
                *o++ = (unsigned char) (0xf0 | (cp >> 18));
                *o++ = (unsigned char) (0x80 | ((cp >> 12) & 0x3f));
                *o++ = (unsigned char) (0x80 | ((cp >> 6) & 0x3f));
                *o++ = (unsigned char) (0x80 | (cp & 0x3f));
            }

            p += 6;
            continue;

        default:                        /* '"', '\\', '/' */
            *o++ = p[1];
            break;
        }

        p += 2;
    }

    return o;
}


static unsigned
behave_json_build_hex(const unsigned char *p)
{
    unsigned  i, cp;

    cp = 0;

    for (i = 0; i < 4; i++) {
        cp = cp * 16 + (p[i] <= '9' ? p[i] - '0' : (p[i] | 0x20) - 'a' + 10);
    }

    return cp;
}


/*
 * As cJSON reads a number: its bytes copied with the locale's decimal
 * point for '.', strtod(), valueint saturated
 */
static void
behave_json_build_number(cJSON *item, const unsigned char **pp,
    const unsigned char *end)
{
    char                  buf[BEHAVE_JSON_NUMBER_MAX + 1];
    size_t                i;
    double                d;
    const unsigned char  *p;

    p = *pp;

    for (i = 0; i < BEHAVE_JSON_NUMBER_MAX && p + i < end; i++) {
        if ((p[i] >= '0' && p[i] <= '9') || p[i] == '-' || p[i] == '+'
            || p[i] == 'e' || p[i] == 'E')
        {
            buf[i] = (char) p[i];

        } else if (p[i] == '.') {
            buf[i] = localeconv()->decimal_point[0];

        } else {
            break;
        }
    }

    buf[i] = '\0';
    d = strtod(buf, NULL);

    item->type = cJSON_Number;
    item->valuedouble = d;
    item->valueint = d >= INT_MAX ? INT_MAX
                     : d <= (double) INT_MIN ? INT_MIN : (int) d;

    *pp = p + i;
}
