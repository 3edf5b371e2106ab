/*
 * The compact printer: numbers, escapes, nesting, and a round trip of
 * what it prints through cJSON's parser.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "base/behave_json.h"
#include "analyze/behave_response.h"
#include "tap.h"


static void
num_is(double v, const char *want)
{
    char    buf[32];
    size_t  n;

    n = behave_json_number(buf, v);
    buf[n] = '\0';
    is_str(buf, want, "number %.17g prints as %s", v, want);
}


/*
 * One value through a writer that starts too small, so that growing is
 * tested too: a number (s == NULL) or a string.
 */
static void
value_is(const char *s, double v, const char *want)
{
    char        *out;
    size_t       len;
    behave_jw_t  w;

    out = NULL;
    if (behave_jw_init(&w, 2)) {
        if (s != NULL) {
            behave_jw_value_string(&w, s);
        } else {
            behave_jw_value_fixed3(&w, v);
        }
        out = behave_jw_finish(&w, &len);
    }

    is_str(out, want, "%s written as %s", s ? "string" : "fixed3", want);
    free(out);
}

#define fixed3_is(v, want)  value_is(NULL, v, want)
/* long and escaped strings through the eight-bytes-at-a-time path */
#define string_is(s, want)  value_is(s, 0, want)


int
main(void)
{
    char    *out;
    cJSON   *root, *back;
    size_t   len;

    num_is(0, "0");
    num_is(-0.0, "0");
    num_is(42, "42");
    num_is(-7, "-7");
    num_is(0.25, "0.25");
    num_is(-0.612, "-0.612");
    num_is(1.5e-3, "0.0015");
    num_is(1234567.125, "1234567.125");
    num_is(9007199254740993.0, "9007199254740992");
    num_is(1700000000123.0, "1700000000123");
    num_is(0.1 + 0.2, "0.30000000000000004");
    num_is(1.0 / 0.0, "null");

    fixed3_is(0, "0");
    fixed3_is(-0.0004, "0");
    fixed3_is(0.79, "0.79");
    fixed3_is(-0.4984, "-0.498");
    fixed3_is(0.0005, "0.001");
    fixed3_is(0.05, "0.05");
    fixed3_is(1.5, "1.5");
    fixed3_is(12345.0125, "12345.013");
    fixed3_is(-1, "-1");
    fixed3_is(1.0 / 0.0, "null");
    fixed3_is(1e15, "1000000000000000");

    fixed3_is(2.5e-3, "0.003");
    fixed3_is(-2.5e-3, "-0.003");
    fixed3_is(0.49999999999999994e-3, "0");

    /* the writer's integer rounding agrees with behave_round3() */
    {
        int           fine = 1;
        char         *got;
        size_t        n, k;
        double        v;
        unsigned      seed = 7;
        behave_jw_t   w;

        for (k = 0; k < 200000 && fine; k++) {
            seed = seed * 1103515245u + 12345u;
            v = ((double) (seed >> 4) / (1u << 28) - 0.5) * (k % 2 ? 4 : 4e6);

            if (k % 3 == 0) {
                v = (double) (long) (v * 2000) / 2000;     /* halves */
            }

            got = NULL;
            if (behave_jw_init(&w, 8)) {
                behave_jw_value_fixed3(&w, v);
                got = behave_jw_finish(&w, &n);
            }

            fine = got != NULL && strtod(got, NULL) == behave_round3(v);
            if (!fine) {
                printf("# %.17g: %s, want %.17g\n", v, got ? got : "NULL",
                       behave_round3(v));
            }
            free(got);
        }

        ok(fine, "fixed3 equals round3 on 200,000 values, halves included");
    }

    /* behave_json_fixed() is printf's "%.Nf", ties and edges included */
    {
        int           fine = 1, d;
        char          got[32], want[32];
        size_t        n, k;
        double        v;
        unsigned      seed = 11;

        static const double  edges[] = {
            0.0, -0.0, 0.5, 1.5, 2.5, 0.125, 0.375, 0.005, 0.015, 0.045,
            1.005, 2.675, 0.0625, 9.995, 99.5, 0.94999999999999996,
            0.95, 1e11, 999999999999.5, 1e12, 1e13, -1.25, 0.25,
            0.0049999999999999992, 5799.4, 3.4, 0.6, 0.7, 0.8
        };

        for (k = 0; k < 2 * 400000 + 4 * 29 && fine; k++) {
            if (k < 4 * 29) {
                v = edges[k / 4];
                d = (int) (k % 4);
            } else {
                seed = seed * 1103515245u + 12345u;
                v = (double) (seed >> 4) / (1u << 28)
                    * (k % 3 == 0 ? 1.0 : k % 3 == 1 ? 100.0 : 1e5);
                if (k % 5 == 0) {
                    v = (double) (long) (v * 2000) / 2000;   /* ties */
                }
                d = (int) (k % 4);
            }

            n = behave_json_fixed(got, v, (unsigned) d);
            got[n] = '\0';
            snprintf(want, sizeof(want), "%.*f", d, v);
            fine = strcmp(got, want) == 0;
            if (!fine) {
                printf("# %.17g %%.%df: %s, want %s\n", v, d, got, want);
            }
        }

        ok(fine, "behave_json_fixed equals snprintf %%.Nf on 800,000 values");
    }

    /* a value too long for 32 bytes: the length is what was written */
    {
        char    got[32];
        size_t  n;

        n = behave_json_fixed(got, 1e40, 3);
        ok(n <= 31 && strlen(got) == n,
           "behave_json_fixed returns the truncated length of 1e40");
    }

    /* the keyed writers of labels: uint and fixed3 members */
    {
        char         *got;
        size_t        n;
        behave_jw_t   w;

        got = NULL;
        if (behave_jw_init(&w, 4)) {
            behave_jw_open(&w, NULL);
            behave_jw_uint(&w, "a", 0);
            behave_jw_uint(&w, "b", 4294967295u);
            behave_jw_fixed3(&w, "c", 1.0005421936511993);
            behave_jw_number(&w, "d", 7);
            behave_jw_close(&w);
            got = behave_jw_finish(&w, &n);
        }

        is_str(got, "{\"a\":0,\"b\":4294967295,\"c\":1.001,\"d\":7}",
               "uint and fixed3 members, commas as the other writers'");
        free(got);
    }

    {
        char         *got;
        size_t        n;
        behave_jw_t   w;

        got = NULL;
        if (behave_jw_init(&w, 2)) {
            behave_jw_value_label(&w, "semi-formal");
            behave_jw_value_label(&w, "");
            got = behave_jw_finish(&w, &n);
        }
        is_str(got, "\"semi-formal\"\"\"", "labels written quoted, grown");
        free(got);
    }

    string_is("", "\"\"");
    string_is("expedite", "\"expedite\"");
    string_is("abcdefgh\"ijklmnop", "\"abcdefgh\\\"ijklmnop\"");
    string_is("0123456789abcdef\\", "\"0123456789abcdef\\\\\"");
    string_is("tab\there and\x01 \xc3\xa9t\xc3\xa9 long enough",
              "\"tab\\there and\\u0001 \xc3\xa9t\xc3\xa9 long enough\"");

    root = cJSON_Parse("{\"a\":[1,2.5,-3,true,false,null],"
                       "\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\\u00e9\","
                       "\"o\":{},\"e\":[]}");
    ok(root != NULL, "fixture parses");

    out = behave_json_print(root, &len);
    ok(out != NULL && len == strlen(out), "printed with its length");
    is_str(out, "{\"a\":[1,2.5,-3,true,false,null],"
                "\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\xc3\xa9\","
                "\"o\":{},\"e\":[]}", "compact output, escapes kept");

    back = cJSON_Parse(out);
    ok(back != NULL && cJSON_Compare(root, back, 1), "round trip equal");

    cJSON_Delete(back);
    cJSON_Delete(root);
    free(out);

    return tap_done();
}
