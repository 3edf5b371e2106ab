/*
 * Strict JSON in: what the check accepts and refuses (with where and
 * why), that every accepted body also parses in cJSON, and the two
 * request parsers built on it (analyze's simple way and the cJSON way
 * agree on every body).
 */

#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "base/behave_json.h"
#include "base/behave_json_parse.h"
#include "analyze/behave_request.h"
#include "tap.h"


/* the input as a test name: control bytes shown as '.' */
static const char *
shown(const char *s, size_t len)
{
    size_t       i;
    static char  buf[96];

    for (i = 0; i < len && i < sizeof(buf) - 1; i++) {
        buf[i] = (unsigned char) s[i] < 0x20 ? '.' : s[i];
    }

    buf[i] = '\0';
    return buf;
}


static void
good(const char *s)
{
    size_t       at;
    cJSON       *j;
    const char  *why;

    at = 0;
    why = NULL;
    ok(behave_json_check(s, strlen(s), &at, &why), "accepted: %s",
       shown(s, strlen(s)));

    j = cJSON_ParseWithLength(s, strlen(s));
    ok(j != NULL, "and cJSON parses it");
    cJSON_Delete(j);
}


static void
bad(const char *s, size_t len, size_t want_at, const char *want_why)
{
    size_t       at;
    const char  *why;

    at = (size_t) -1;
    why = NULL;

    ok(!behave_json_check(s, len, &at, &why), "refused: %s", shown(s, len));
    is_int(at, want_at, "at byte %zu", want_at);
    ok(why != NULL && strstr(why, want_why) != NULL, "why: %s (got %s)",
       want_why, why ? why : "(null)");
}

#define BAD(lit, at, why)  bad(lit, sizeof(lit) - 1, at, why)


static void
analyze_refuses(const char *body, behave_err_e want, const char *what)
{
    behave_error_t        err;
    behave_analyze_req_t  req;

    memset(&err, 0, sizeof(err));
    is_int(behave_analyze_req_parse(body, strlen(body), 32768, &req, &err),
           want, "analyze refuses %s", what);
    is_int(err.err, want, "with code %d (%s)", want, err.message);
}


/*
 * Random edits of good bodies: whatever the check passes, cJSON parses
 * (behave_json_parse_strict() counts on it), and the tree printed back
 * passes the check and prints the same again.  A fixed seed: the same
 * cases every run.
 */
static int
round_trip(const cJSON *j)
{
    int          same;
    char        *a, *b;
    cJSON       *again;
    size_t       alen, blen, at;
    const char  *why;

    a = behave_json_print(j, &alen);
    if (a == NULL || !behave_json_check(a, alen, &at, &why)) {
        free(a);
        return 0;
    }

    again = cJSON_ParseWithLength(a, alen);
    b = again ? behave_json_print(again, &blen) : NULL;
    same = b != NULL && blen == alen && memcmp(a, b, alen) == 0;

    free(a);
    free(b);
    cJSON_Delete(again);

    return same;
}


static void
mutations(void)
{
    int           k, passed, parsed, clean;
    char          buf[256];
    size_t        i, n, at, pos;
    cJSON        *j;
    unsigned      seed;
    const char   *why;

    static const char  *const seeds[] = {
        "{\"message\":\"h\\u00e9 \\\"q\\\" \\ud83d\\ude00\","
        "\"n\":[1.5e3,-0,true,null,{\"x\":false}]}",
        "[{\"type\":\"click\",\"t\":12,\"target\":\"a\\/b\"},[],{}]",
        "{\"a\":{\"b\":[\"\\n\\t\\u0041\",0.25,1E-2]}}"
    };
    static const char  alphabet[] = "{}[]\",:\\u0aG-+.eE \t\n\x01\x7f\xc3\xa9";

    seed = 12345;
    passed = parsed = clean = 0;

    for (k = 0; k < 30000; k++) {
        const char  *src = seeds[k % 3];

        n = strlen(src);
        memcpy(buf, src, n);

        for (i = 0; i < 1 + (size_t) (k % 3); i++) {
            seed = seed * 1103515245 + 12345;
            pos = (seed >> 8) % n;
            seed = seed * 1103515245 + 12345;

            switch ((seed >> 8) % 3) {
            case 0:                                  /* replace */
                buf[pos] = alphabet[(seed >> 12) % (sizeof(alphabet) - 1)];
                break;
            case 1:                                  /* delete */
                memmove(buf + pos, buf + pos + 1, n - pos - 1);
                n--;
                break;
            default:                                 /* insert */
                if (n + 1 < sizeof(buf)) {
                    memmove(buf + pos + 1, buf + pos, n - pos);
                    buf[pos] = alphabet[(seed >> 12)
                                        % (sizeof(alphabet) - 1)];
                    n++;
                }
            }
        }

        if (!behave_json_check(buf, n, &at, &why)) {
            continue;
        }

        passed++;
        j = cJSON_ParseWithLength(buf, n);
        parsed += j != NULL;
        clean += j != NULL && round_trip(j);
        cJSON_Delete(j);
    }

    ok(passed > 1000, "%d of 30000 random edits still pass the check",
       passed);
    is_int(parsed, passed, "cJSON parses every one the check passes");
    is_int(clean, passed, "and each prints back to text that passes and "
           "prints the same");
}


int
main(void)
{
    char                  *deep;
    size_t                 i, at;
    cJSON                 *j;
    const char            *why;
    behave_error_t         err;
    behave_analyze_req_t   req;

    good("{}");
    good(" \t\r\n{\"a\":[1,-2.5e+3,0,0.25,true,false,null,\"x\"]} \n");
    good("\xef\xbb\xbf{\"bom\":1}");
    good("[]");
    good("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00\"");
    good("{\"long\":\"0123456789abcdef0123456789abcdef0123456789\"}");
    good("{\"a\":{\"b\":{\"c\":[[[]]]}}}");
    good("-0");
    good("1E5");

    /* the end of input: one value, white space only after it */
    BAD("{\"a\":1} x", 8, "data after");
    BAD("{\"a\":1}{\"a\":2}", 7, "data after");
    BAD("{\"a\":1}\x01", 7, "data after");
    BAD("{\"a\":1}\v", 7, "data after");
    bad("{\"a\":1}\0", 8, 7, "data after");
    BAD("", 0, "no value");
    BAD("   ", 3, "no value");

    /* strings */
    BAD("{\"a\":\"abc\\u0000{x}\"}", 9, "\\u0000");
    BAD("{\"a\":\"\\u12G4\"}", 10, "four hex digits");
    BAD("{\"a\":\"\\u12\"}", 10, "four hex digits");
    BAD("{\"a\":\"\\x\"}", 7, "invalid escape");
    BAD("{\"a\":\"\\'\"}", 7, "invalid escape");
    BAD("{\"a\":\"tab\there\"}", 9, "control character");
    BAD("{\"a\":\"nl\nhere\"}", 8, "control character");
    bad("{\"a\":\"nul\0here\"}", 15, 9, "control character");
    BAD("{\"a\":\"\\uD83D\"}", 12, "unpaired surrogate");
    BAD("{\"a\":\"\\uD83Dx\"}", 12, "unpaired surrogate");
    BAD("{\"a\":\"\\uDE00\"}", 6, "unpaired surrogate");
    BAD("{\"a\":\"\\uD83D\\u0041\"}", 12, "unpaired surrogate");
    BAD("{\"a\":\"open", 10, "unterminated");
    BAD("{\"a\":\"0123456789abcdef", 22, "unterminated");

    /* numbers */
    BAD("[01]", 2, "invalid number");
    BAD("[+1]", 1, "unexpected character");
    BAD("[1.]", 3, "invalid number");
    BAD("[.5]", 1, "unexpected character");
    BAD("[1e]", 3, "invalid number");
    BAD("[-]", 2, "invalid number");
    BAD("[0x10]", 2, "expected ','");
    BAD("[1111111111111111111111111111111111111111111111111111111111111111]",
        1, "longer than 63");

    /* structure */
    BAD("{\"a\" 1}", 5, "expected ':'");
    BAD("{a:1}", 1, "member name");
    BAD("{\"a\":1,}", 7, "member name");
    BAD("[1,]", 3, "unexpected character");
    BAD("[1 2]", 3, "expected ',' or ']'");
    BAD("{\"a\":1]", 6, "expected ',' or '}'");
    BAD("{\"a\":tru}", 5, "unexpected character");
    BAD("{\"a\":1", 6, "unexpected end");
    BAD("[", 1, "unexpected end");
    BAD("nul", 0, "unexpected character");

    /* depth: as deep as cJSON goes, and one more refused */
    deep = malloc(2 * BEHAVE_JSON_DEPTH_MAX + 2);
    memset(deep, '[', BEHAVE_JSON_DEPTH_MAX);
    memset(deep + BEHAVE_JSON_DEPTH_MAX, ']', BEHAVE_JSON_DEPTH_MAX);
    ok(behave_json_check(deep, 2 * BEHAVE_JSON_DEPTH_MAX, &at, &why),
       "%d levels accepted", BEHAVE_JSON_DEPTH_MAX);
    j = behave_json_parse_strict(deep, 2 * BEHAVE_JSON_DEPTH_MAX, &err);
    ok(j != NULL, "and parsed");
    cJSON_Delete(j);

    memset(deep, '[', BEHAVE_JSON_DEPTH_MAX + 1);
    memset(deep + BEHAVE_JSON_DEPTH_MAX + 1, ']', BEHAVE_JSON_DEPTH_MAX + 1);
    ok(!behave_json_check(deep, 2 * BEHAVE_JSON_DEPTH_MAX + 2, &at, &why)
       && strstr(why, "deeply") != NULL, "one more level refused");
    free(deep);

    /* the object parser: codes and messages */
    j = behave_json_parse_object("{\"a\":\"x\"} []", 12, &err);
    ok(j == NULL && err.err == BEHAVE_ERR_INVALID_JSON
       && strstr(err.message, "at byte 10") != NULL,
       "parse_object: trailing data is invalid_json (%s)", err.message);
    j = behave_json_parse_object("[1]", 3, &err);
    ok(j == NULL && err.err == BEHAVE_ERR_INVALID_JSON
       && strstr(err.message, "object") != NULL, "an array is not an object");
    j = behave_json_parse_object("{\"a\":\"\xff\"}", 9, &err);
    ok(j == NULL && err.err == BEHAVE_ERR_INVALID_UTF8, "bad UTF-8 first");

    /* analyze: both ways refuse alike */
    analyze_refuses("{\"message\":\"hi\"} {\"message\":\"x\"}",
                    BEHAVE_ERR_INVALID_JSON, "a second document");
    analyze_refuses("{\"message\":\"hi\"}x", BEHAVE_ERR_INVALID_JSON,
                    "trailing data");
    analyze_refuses("{\"message\":\"hi\",\"conversation_id\":"
                    "\"abc\\u0000{x}\"}", BEHAVE_ERR_INVALID_JSON,
                    "\\u0000 in conversation_id");
    analyze_refuses("{\"message\":\"hi \\u12G4 there\"}",
                    BEHAVE_ERR_INVALID_JSON, "a bad \\u escape");
    analyze_refuses("{\"message\":\"a\\u0000b\"}", BEHAVE_ERR_INVALID_JSON,
                    "\\u0000 in message");
    analyze_refuses("{\"message\":\"hi\",\"metadata\":{\"k\":\"\\u0000\"}}",
                    BEHAVE_ERR_INVALID_JSON, "\\u0000 in metadata");

    memset(&req, 0, sizeof(req));
    is_int(behave_analyze_req_parse("{\"message\":\"caf\\u00e9 ok\"}",
                                    sizeof("{\"message\":\"caf\\u00e9 ok\"}")
                                    - 1, 32768, &req, &err),
           BEHAVE_OK, "a good escape is fine");
    is_int(req.message_len, 8, "decoded length 8");
    behave_analyze_req_free(&req);

    /* every prefix of a good body is refused, never read past its end */
    {
        static const char  body[] =
            "{\"message\":\"h\\u00e9\",\"n\":[1.5e3,{\"x\":null}]}";

        for (i = 0; i < sizeof(body) - 1; i++) {
            if (behave_json_check(body, i, &at, &why)) {
                break;
            }
        }

        is_int(i, sizeof(body) - 1, "no proper prefix passes");
    }

    mutations();

    return tap_done();
}
