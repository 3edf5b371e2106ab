/*
 * The pre-filter's text extraction: every body format, the last user
 * entry, parts joined, RFC 6901 pointers, and what yields no text; the
 * chat's turns before it (roles, windows, cuts, what is left out).
 */

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "text/behave_extract.h"


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


static char  turns_got[16384];


/*
 * The chat of json read for max turns, as "u:text|a:text|...", then
 * " [format, N left out]"; or "(none)", "(nomem)"
 */

static const char *
turns(const char *json, size_t max)
{
    char              *p, *last;
    size_t             i;
    cJSON             *root;
    behave_chat_t      chat;
    behave_extract_e   rc;

    root = cJSON_Parse(json);
    if (root == NULL) {
        return "(bad json)";
    }

    rc = behave_extract_chat(root, max, &chat);

    if (rc != BEHAVE_EXTRACT_OK) {
        cJSON_Delete(root);
        return rc == BEHAVE_EXTRACT_NONE ? "(none)" : "(nomem)";
    }

    p = turns_got;
    last = turns_got + sizeof(turns_got);

    for (i = 0; i < chat.n; i++) {
        p += snprintf(p, last - p, "%s%s:%.*s", i ? "|" : "",
                      chat.turn[i].role == BEHAVE_CHAT_USER ? "u" : "a",
                      (int) chat.turn[i].len, chat.turn[i].text);
    }

    snprintf(p, last - p, " [%s, %zu left out]", chat.format, chat.left_out);

    behave_chat_free(&chat);
    cJSON_Delete(root);

    return turns_got;
}


static void
test_chat_turns(void)
{
    const char  *chat;

    chat = "{\"model\":\"m\",\"messages\":["
           "{\"role\":\"system\",\"content\":\"be nice\"},"
           "{\"role\":\"user\",\"content\":\"first\"},"
           "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{}]},"
           "{\"role\":\"tool\",\"tool_call_id\":\"c\",\"content\":\"42\"},"
           "{\"role\":\"assistant\",\"content\":\"done\"},"
           "{\"role\":\"developer\",\"content\":\"dev\"},"
           "{\"role\":\"user\",\"content\":[{\"type\":\"text\","
           "\"text\":\"it is\"},{\"type\":\"text\",\"text\":\"not\"}]},"
           "{\"role\":\"assistant\",\"content\":\"Sure,\"}]}";

    is_str(turns(chat, 50),
           "u:first|a:done|u:it is\nnot [messages, 0 left out]",
           "chat: user and assistant turns with text; system, tool, "
           "developer, tool calls and the prefill after the latest are not");
    is_str(turns(chat, 2), "a:done|u:it is\nnot [messages, 1 left out]",
           "chat: the last max turns, ending at the latest user message");
    is_str(turns(chat, 1), "u:it is\nnot [messages, 2 left out]",
           "chat: max 1 is the latest message alone");

    is_str(turns("{\"messages\":["
                 "{\"role\":\"user\",\"content\":\"cancel my order\"},"
                 "{\"role\":\"assistant\",\"content\":["
                 "{\"type\":\"thinking\",\"thinking\":\"hm\"},"
                 "{\"type\":\"text\",\"text\":\"Cancelled.\"},"
                 "{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"x\","
                 "\"input\":{}}]},"
                 "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
                 "\"tool_use_id\":\"t\",\"content\":\"ok\"}]},"
                 "{\"role\":\"user\",\"content\":[{\"type\":\"text\","
                 "\"text\":\"still there\"}]}]}", 50),
           "u:cancel my order|a:Cancelled.|u:still there "
           "[messages, 0 left out]",
           "anthropic: text blocks only; a tool result turn is no turn");

    is_str(turns("{\"input\":["
                 "{\"role\":\"developer\",\"content\":\"d\"},"
                 "{\"role\":\"user\",\"content\":\"one\"},"
                 "{\"type\":\"message\",\"role\":\"assistant\",\"content\":["
                 "{\"type\":\"output_text\",\"text\":\"answer\"}]},"
                 "{\"type\":\"function_call\",\"name\":\"f\"},"
                 "{\"type\":\"function_call_output\",\"output\":\"x\"},"
                 "{\"type\":\"message\",\"role\":\"user\",\"content\":["
                 "{\"type\":\"input_text\",\"text\":\"two\"}]}]}", 50),
           "u:one|a:answer|u:two [input, 0 left out]",
           "responses: items, output_text of the assistant");

    is_str(turns("{\"input\":\"just this\"}", 50),
           "u:just this [input, 0 left out]", "responses: input string");
    is_str(turns("{\"message\":\"own\"}", 50), "u:own [message, 0 left out]",
           "own: message");
    is_str(turns("{\"text\":\"alias\"}", 50), "u:alias [text, 0 left out]",
           "own: text");
    is_str(turns("{\"messages\":[{\"role\":\"assistant\",\"content\":\"hi\"}]}",
                 50),
           "(none)", "chat: no user message, no chat");
    is_str(turns("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}", 0),
           "(none)", "max 0 reads nothing");

    is_str(turns("{\"messages\":["
                 "{\"role\":\"user\",\"content\":\"  \\n\"},"
                 "{\"role\":\"assistant\",\"content\":\"caf\\u00e9\"},"
                 "{\"role\":\"user\",\"content\":\"\"}]}", 50),
           "a:caf\xc3\xa9|u: [messages, 1 left out]",
           "a blank earlier turn is left out, a blank latest one is read");
}


/* an earlier turn over BEHAVE_CHAT_TURN_MAX, and the history's budget */

static void
test_chat_bounds(void)
{
    int          i;
    char        *json, *p;
    size_t       k;
    cJSON       *root;
    behave_chat_t  chat;

    json = malloc(200000);
    p = json;
    p += sprintf(p, "{\"messages\":[{\"role\":\"assistant\",\"content\":\"");

    /* 4095 ASCII bytes then a 2-byte character: cut before it */
    memset(p, 'a', BEHAVE_CHAT_TURN_MAX - 1);
    p += BEHAVE_CHAT_TURN_MAX - 1;
    p += sprintf(p, "\xc3\xa9 tail\"},{\"role\":\"user\",\"content\":\"");

    /* the latest message is never cut */
    memset(p, 'b', 5000);
    p += 5000;
    sprintf(p, "\"}]}");

    root = cJSON_Parse(json);
    ok(behave_extract_chat(root, 50, &chat) == BEHAVE_EXTRACT_OK
       && chat.n == 2, "long turns: read");
    is_int(chat.turn[0].len, BEHAVE_CHAT_TURN_MAX - 1,
           "an earlier turn is cut at the start of a character");
    is_int(chat.turn[1].len, 5000, "the latest message is not cut");
    behave_chat_free(&chat);
    cJSON_Delete(root);

    /* 20 earlier turns of 4000 bytes: 4 fit in 16 KiB */
    p = json;
    p += sprintf(p, "{\"messages\":[");

    for (i = 0; i < 20; i++) {
        p += sprintf(p, "{\"role\":\"%s\",\"content\":\"%c",
                     i % 2 ? "assistant" : "user", 'A' + i);
        memset(p, 'x', 3999);
        p += 3999;
        p += sprintf(p, "\"},");
    }

    sprintf(p, "{\"role\":\"user\",\"content\":\"now\"}]}");

    root = cJSON_Parse(json);
    ok(behave_extract_chat(root, 50, &chat) == BEHAVE_EXTRACT_OK,
       "budget: read");
    is_int(chat.n, BEHAVE_CHAT_HISTORY_MAX / 4000 + 1,
           "budget: the earlier turns stop at 16 KiB");
    is_int(chat.left_out, 20 - BEHAVE_CHAT_HISTORY_MAX / 4000,
           "budget: the older ones are left out");
    ok(chat.n > 1 && chat.turn[0].text[0] == 'A' + 20 - (int) chat.n + 1,
       "budget: the newest are kept, in order");
    k = chat.n;
    behave_chat_free(&chat);
    cJSON_Delete(root);

    ok(k > 1, "budget: some history");

    /* a turn that is not UTF-8 (JSON does not check it) is left out */
    root = cJSON_Parse("{\"messages\":[{\"role\":\"user\",\"content\":\"ok\"},"
                       "{\"role\":\"assistant\",\"content\":\"bad \xff\"},"
                       "{\"role\":\"user\",\"content\":\"now\"}]}");
    ok(behave_extract_chat(root, 50, &chat) == BEHAVE_EXTRACT_OK
       && chat.n == 2 && chat.left_out == 1
       && chat.turn[0].role == BEHAVE_CHAT_USER,
       "an earlier turn that is not UTF-8 is left out");
    behave_chat_free(&chat);
    cJSON_Delete(root);

    free(json);
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
    test_chat_turns();
    test_chat_bounds();

    return tap_done();
}
