/*
 * The tree of a checked body built by behave_json_build() is cJSON's own
 * (cJSON_ParseWithLength() of the same bytes), node for node: types,
 * names, strings byte for byte, numbers bit for bit, valueint, the links
 * (prev included); with and without the arena's hooks, on hand-made
 * bodies (every escape, surrogates, numbers cJSON saturates, nesting
 * past the build's own depth) and every line of the corpus files.  Run
 * under AddressSanitizer too, which would see a read past a body's end
 * or a block freed twice.
 */

#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "base/behave_json_arena.h"
#include "base/behave_json_build.h"
#include "base/behave_json_parse.h"
#include "tools/behave_read_file.h"
#include "tap.h"
#include "testdata.h"


static int
same(const cJSON *a, const cJSON *b)
{
    const cJSON  *x, *y;

    if ((a->type & 0xff) != (b->type & 0xff) || a->valueint != b->valueint
        || memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) != 0
        || (a->string == NULL) != (b->string == NULL)
        || (a->string != NULL && strcmp(a->string, b->string) != 0)
        || (a->valuestring == NULL) != (b->valuestring == NULL)
        || (a->valuestring != NULL
            && strcmp(a->valuestring, b->valuestring) != 0)
        || (a->child == NULL) != (b->child == NULL))
    {
        return 0;
    }

    for (x = a->child, y = b->child; x != NULL && y != NULL;
         x = x->next, y = y->next)
    {
        /* the first child's prev is the last, the others' the one before */
        if ((x->prev == NULL) != (y->prev == NULL)
            || (x->next == NULL) != (y->next == NULL)
            || (x != a->child && x->prev->next != x)
            || (x == a->child && x->prev->next != NULL)
            || !same(x, y))
        {
            return 0;
        }
    }

    return x == NULL && y == NULL;
}


/* s checked, built, and compared with cJSON's tree of it */
static int
built_as_cjson(const char *s, size_t len)
{
    int                   deep, r;
    size_t                at;
    cJSON                *a, *b;
    const char           *why;
    behave_error_t        err;
    behave_json_arena_t  *arena;

    if (!behave_json_check(s, len, &at, &why)) {
        return 0;
    }

    a = behave_json_build(s, len, &deep);
    b = cJSON_ParseWithLength(s, len);

    r = a != NULL && b != NULL && same(a, b);

    cJSON_Delete(a);

    /* with the hooks, in a request's arena too (the pre-filter's way) */
    if (behave_json_hooks_installed()) {
        a = behave_json_parse_strict_arena(s, len, &arena, &err);
        r = r && a != NULL && arena != NULL && same(a, b);
        behave_json_arena_release(arena);
    }

    cJSON_Delete(b);

    return r;
}


static const char  *bodies[] = {
    "{}",
    "[]",
    " \t\r\n{ \"a\" : [ ] , \"b\" : { } } \n",
    "\"just a string\"",
    "\"\"",
    "0", "-0", "7", "-12", "3.25", "1e3", "1E+2", "-2.5e-3",
    "2147483647", "2147483648", "-2147483648", "-2147483649", "1e400",
    "-1e400", "0.1", "123456789012345678901234567890",
    "true", "false", "null",
    "[true,false,null,1,\"x\",[],{}]",
    "{\"model\":\"gpt-4o-mini\",\"temperature\":0.7,\"max_tokens\":512,"
    "\"stream\":false,\"messages\":[{\"role\":\"system\",\"content\":"
    "\"Be brief.\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\","
    "\"text\":\"hi\"}]}]}",
    "{\"e\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"}",
    "{\"u\":\"caf\\u00e9 \\u00E9 \\u0041 \\u07ff \\u0800 \\uffff\"}",
    "{\"s\":\"\\ud83d\\ude00 and \\uD834\\uDD1E\"}",
    "{\"raw\":\"caf\xc3\xa9 \xe2\x80\x99 \xf0\x9f\x98\x80\"}",
    "{\"esc_at_8\":\"1234567\\n1234567\\\"12345678\\\\\"}",
    "{\"dup\":1,\"dup\":2,\"Dup\":3}",
    "{\"a\":{\"b\":{\"c\":[[[[\"deep\"]]]]}}}",
    "{\"k\\u00e9y\":\"v\",\"\":\"empty name\"}",
    "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]",
    "  [ \"a\" , \"b\" ]  ",
    "\"0123456789abcdef0123456789abcdef\"",
    "12",
};


static void
test_bodies(void)
{
    size_t  i;

    for (i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
        ok(built_as_cjson(bodies[i], strlen(bodies[i])), "as cJSON: body %zu",
           i);
    }
}


/* a number as the body's last bytes, in a buffer that ends with it */
static void
test_edges(void)
{
    char  *s;

    s = malloc(2);
    if (s == NULL) {
        return;
    }

    memcpy(s, "42", 2);
    ok(built_as_cjson(s, 2), "a body that ends in a number");

    memcpy(s, "[]", 2);
    ok(built_as_cjson(s, 2), "an empty array, nothing after it");
    free(s);

    s = malloc(9);
    if (s == NULL) {
        return;
    }

    /* the eight-byte steps stop at the body's end */
    memcpy(s, "\"abcdef\"", 8);
    ok(built_as_cjson(s, 8), "a string up to the last byte");
    free(s);
}


/* deeper than the build's stack: cJSON builds it, the same tree */
static void
test_deep(void)
{
    int             deep;
    char           *s;
    cJSON          *t;
    size_t          n, i;
    behave_error_t  err;

    n = BEHAVE_JSON_BUILD_DEPTH + 1;
    s = malloc(2 * n + 1);
    if (s == NULL) {
        return;
    }

    for (i = 0; i < n; i++) {
        s[i] = '[';
        s[n + i] = ']';
    }
    s[2 * n] = '\0';

    t = behave_json_build(s, 2 * n, &deep);
    ok(t == NULL && deep, "%zu open arrays: left to cJSON", n);

    t = behave_json_parse_strict(s, 2 * n, &err);
    ok(t != NULL && cJSON_IsArray(t), "which parses it");
    cJSON_Delete(t);

    t = behave_json_build(s + 1, 2 * n - 2, &deep);
    ok(t != NULL && !deep, "%zu: built", n - 1);
    cJSON_Delete(t);

    free(s);
}


/*
 * Every place of a long string, for the sixteen and eight bytes at a time
 * of behave_json_plain_run(): a control byte refused, an escape and a
 * non-ASCII byte read, wherever they stand
 */
static void
test_runs(void)
{
    int          bad, good;
    char         s[64];
    size_t       i, at, n;
    const char  *why;

    bad = 0;
    good = 0;

    for (i = 1; i < 48; i++) {
        n = 50;
        memset(s, 'a', n);
        s[0] = '"';
        s[n - 1] = '"';

        s[i] = '\x1f';
        bad += behave_json_check(s, n, &at, &why) == 0 && at == i;

        s[i] = (char) 0xe9;
        s[i + 1 < n - 1 ? i + 1 : i] = (char) 0x80;
        good += built_as_cjson(s, n);

        memset(s + 1, 'a', n - 2);
        s[i] = '\\';
        s[i + 1] = 'n';
        good += built_as_cjson(s, n);
    }

    ok(bad == 47, "a control byte refused at each of 47 places (%d)", bad);
    ok(good == 2 * 47, "an escape and a raw non-ASCII byte at each (%d)",
       good);
}


static void
test_corpus(const char *rel)
{
    char    path[PATH_MAX + 64], *buf, *line, *next;
    size_t  len, n, good;

    if (testdata_repo_path(path, sizeof(path), rel) != 0
        || (buf = behave_read_file(path, &len)) == NULL)
    {
        skip(rel);
        return;
    }

    n = 0;
    good = 0;

    for (line = buf; line != NULL && *line; line = next) {
        next = strchr(line, '\n');
        if (next != NULL) {
            *next++ = '\0';
        }

        n++;
        good += built_as_cjson(line, strlen(line));
    }

    ok(n > 0 && good == n, "%s: %zu of %zu lines as cJSON", rel, good, n);
    free(buf);
}


int
main(void)
{
    int  pass;

    for (pass = 0; pass < 2; pass++) {
        /* the second time through the arena's hooks (the module's) */
        if (pass == 1) {
            behave_json_hooks_install();
        }

        test_bodies();
        test_edges();
        test_deep();
        test_runs();
        test_corpus("data/corpus/conv-a.jsonl");
        test_corpus("data/corpus/conv-d.jsonl");
        test_corpus("data/corpus/blind-msg-a.jsonl");
    }

    return tap_done();
}
