/*
 * The pre-filter's text extraction: every body format, the last user
 * entry, parts joined, RFC 6901 pointers, and what yields no text.
 */

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "behave_extract.h"


static char  got[4096];


/* the extracted text, "(none)" or "(nomem)" */

static const char *
extract(const char *json, const char *pointer)
{
    char              *text;
    size_t             len;
    cJSON             *root;
    behave_extract_e   rc;

    root = cJSON_Parse(json);
    if (root == NULL) {
        return "(bad json)";
    }

    rc = behave_extract_text(root, pointer, &text, &len);
    cJSON_Delete(root);

    if (rc == BEHAVE_EXTRACT_NONE) {
        return "(none)";
    }

    if (rc != BEHAVE_EXTRACT_OK) {
        return "(nomem)";
    }

    if (len != strlen(text) || len >= sizeof(got)) {
        free(text);
        return "(bad length)";
    }

    memcpy(got, text, len + 1);
    free(text);

    return got;
}


static void
test_openai_chat(void)
{
    is_str(extract("{\"model\":\"m\",\"messages\":["
                   "{\"role\":\"system\",\"content\":\"be nice\"},"
                   "{\"role\":\"user\",\"content\":\"first\"},"
                   "{\"role\":\"assistant\",\"content\":\"ok\"},"
                   "{\"role\":\"user\",\"content\":\"second\"}]}", NULL),
           "second", "chat: the last user entry");

    is_str(extract("{\"messages\":[{\"role\":\"user\",\"content\":["
                   "{\"type\":\"text\",\"text\":\"look at\"},"
                   "{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}},"
                   "{\"type\":\"text\",\"text\":\"this\"}]}]}", NULL),
           "look at\nthis", "chat: text parts joined, others skipped");

    is_str(extract("{\"messages\":[{\"role\":\"user\",\"content\":\"words\"},"
                   "{\"role\":\"user\",\"content\":[{\"type\":\"image_url\","
                   "\"image_url\":{\"url\":\"x\"}}]}]}", NULL),
           "words", "chat: a user entry without text is skipped");

    is_str(extract("{\"messages\":[{\"role\":\"user\",\"content\":\"\"}]}",
                   NULL),
           "", "chat: empty content is text");

    is_str(extract("{\"messages\":[{\"role\":\"system\",\"content\":\"s\"}]}",
                   NULL),
           "(none)", "chat: no user entry");

    is_str(extract("{\"messages\":[\"user\", 3, null, {\"role\":1}]}", NULL),
           "(none)", "chat: odd entries are ignored");
}


static void
test_openai_responses(void)
{
    is_str(extract("{\"model\":\"m\",\"input\":\"plain input\"}", NULL),
           "plain input", "responses: input string");

    is_str(extract("{\"input\":[{\"role\":\"user\",\"content\":\"one\"},"
                   "{\"type\":\"message\",\"role\":\"user\",\"content\":["
                   "{\"type\":\"input_text\",\"text\":\"two\"},"
                   "{\"type\":\"input_image\",\"image_url\":\"x\"},"
                   "{\"type\":\"input_text\",\"text\":\"three\"}]},"
                   "{\"type\":\"function_call_output\",\"output\":\"x\"}]}",
                   NULL),
           "two\nthree", "responses: items, input_text parts");

    is_str(extract("{\"input\":[{\"role\":\"developer\",\"content\":\"d\"}]}",
                   NULL),
           "(none)", "responses: no user item");
}


static void
test_anthropic(void)
{
    is_str(extract("{\"model\":\"claude\",\"max_tokens\":10,"
                   "\"system\":\"sys\",\"messages\":["
                   "{\"role\":\"user\",\"content\":\"hello claude\"}]}",
                   NULL),
           "hello claude", "anthropic: string content");

    is_str(extract("{\"messages\":[{\"role\":\"user\",\"content\":["
                   "{\"type\":\"image\",\"source\":{}},"
                   "{\"type\":\"text\",\"text\":\"block one\"},"
                   "{\"type\":\"text\",\"text\":\"block two\"}]},"
                   "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\","
                   "\"text\":\"answer\"}]}]}", NULL),
           "block one\nblock two", "anthropic: blocks, assistant ignored");

    is_str(extract("{\"messages\":[{\"role\":\"user\",\"content\":\"asked\"},"
                   "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
                   "\"tool_use_id\":\"t\",\"content\":\"42\"}]}]}", NULL),
           "asked", "anthropic: a tool result turn keeps the last text");
}


static void
test_own(void)
{
    is_str(extract("{\"message\":\"own message\"}", NULL), "own message",
           "own: message");
    is_str(extract("{\"text\":\"own text\"}", NULL), "own text", "own: text");
    is_str(extract("{\"message\":null,\"text\":\"alias\"}", NULL), "alias",
           "own: null message falls back to text");
    is_str(extract("{\"message\":{\"a\":1}}", NULL), "(none)",
           "own: a message that is not a string");
    is_str(extract("[\"message\"]", NULL), "(none)", "not an object");
    is_str(extract("{\"prompt\":\"x\"}", NULL), "(none)", "unknown format");
}


static void
test_pointer(void)
{
    const char  *doc;

    doc = "{\"a\":{\"b/c\":\"slash\",\"d~e\":\"tilde\",\"\":\"empty\"},"
          "\"list\":[\"zero\",{\"q\":\"one\"}],"
          "\"parts\":[{\"type\":\"text\",\"text\":\"p1\"},"
          "{\"type\":\"input_text\",\"text\":\"p2\"}],"
          "\"n\":5}";

    is_str(extract(doc, "/a/b~1c"), "slash", "pointer: ~1 is /");
    is_str(extract(doc, "/a/d~0e"), "tilde", "pointer: ~0 is ~");
    is_str(extract(doc, "/a/"), "empty", "pointer: empty key");
    is_str(extract(doc, "/list/0"), "zero", "pointer: array index");
    is_str(extract(doc, "/list/1/q"), "one", "pointer: index then key");
    is_str(extract(doc, "/parts"), "p1\np2", "pointer: array of parts");
    is_str(extract(doc, "/list/01"), "(none)", "pointer: leading zero");
    is_str(extract(doc, "/list/2"), "(none)", "pointer: index past the end");
    is_str(extract(doc, "/list/-"), "(none)", "pointer: - is no element");
    is_str(extract(doc, "/n"), "(none)", "pointer: a number is no text");
    is_str(extract(doc, "/nope"), "(none)", "pointer: missing key");
    is_str(extract("\"whole\"", ""), "whole", "pointer: \"\" is the root");
    is_str(extract("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],"
                   "\"custom\":{\"q\":\"only this\"}}", "/custom/q"),
           "only this", "pointer: the built-in formats are not tried");

    ok(behave_json_pointer_valid("", 0), "valid: empty");
    ok(behave_json_pointer_valid("/a~0b~1c/0", 10), "valid: escapes");
    ok(!behave_json_pointer_valid("a/b", 3), "invalid: no leading /");
    ok(!behave_json_pointer_valid("/a~2", 4), "invalid: ~2");
    ok(!behave_json_pointer_valid("/a~", 3), "invalid: trailing ~");
}


static void
test_many_parts(void)
{
    int     i;
    char   *p, json[8192];
    size_t  n;

    p = json;
    p += sprintf(p, "{\"messages\":[{\"role\":\"user\",\"content\":[");

    for (i = 0; i < 100; i++) {
        p += sprintf(p, "%s{\"type\":\"text\",\"text\":\"w\"}",
                     i ? "," : "");
    }

    sprintf(p, "]}]}");

    n = strlen(extract(json, NULL));
    is_int(n, 64 * 2 - 1, "parts beyond 64 are ignored");
}


int
main(void)
{
    test_openai_chat();
    test_openai_responses();
    test_anthropic();
    test_own();
    test_pointer();
    test_many_parts();

    return tap_done();
}
