/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The pre-filter's text extraction from an LLM request body.  Input: a
 * first line that is the configured JSON pointer when it starts with
 * "/" (checked as the config parser checks it), then the body.  The
 * built-in formats are tried on every body, the pointer when valid; and
 * the chat's turns for windows of 1, 3 and 50 turns, checked against the
 * bounds behave_extract.h promises, then their findings
 * (behave_chat_assess(), with a small memo kept across inputs).
 */

#include "fuzz.h"
#include "text/behave_annotate.h"
#include "conversation/behave_chat.h"
#include "text/behave_extract.h"
#include "conversation/behave_turn_memo.h"
#include "base/behave_utf8.h"


static void fuzz_extract_one(const cJSON *root, const char *pointer);
static void fuzz_extract_chat(const cJSON *root, size_t max);


static behave_turn_memo_t  *fuzz_memo;


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char    *pointer;
    size_t   n, rest;
    cJSON   *root;

    pointer = NULL;

    if (size > 0 && data[0] == '/') {
        n = fuzz_line(data, size, &rest);

        if (behave_json_pointer_valid((const char *) data, n)
            && memchr(data, '\0', n) == NULL)
        {
            pointer = strndup((const char *) data, n);
            FUZZ_CHECK(pointer != NULL);
        }

        data += rest;
        size -= rest;
    }

    root = cJSON_ParseWithLength((const char *) data, size);
    if (root == NULL) {
        free(pointer);
        return 0;
    }

    fuzz_extract_one(root, NULL);
    fuzz_extract_chat(root, 1);
    fuzz_extract_chat(root, 3);
    fuzz_extract_chat(root, 50);

    if (pointer != NULL) {
        fuzz_extract_one(root, pointer);
        (void) behave_json_pointer_get(root, pointer);
    }

    cJSON_Delete(root);
    free(pointer);

    return 0;
}


static void
fuzz_extract_one(const cJSON *root, const char *pointer)
{
    char              *text;
    size_t             len;
    behave_extract_e   rc;

    text = NULL;
    len = 0;
    rc = behave_extract_text(root, pointer, &text, &len);

    FUZZ_CHECK(rc == BEHAVE_EXTRACT_OK || rc == BEHAVE_EXTRACT_NONE
               || rc == BEHAVE_EXTRACT_NOMEM);

    if (rc == BEHAVE_EXTRACT_OK) {
        FUZZ_CHECK(text != NULL);
        FUZZ_CHECK(text[len] == '\0');
        free(text);
    }
}


static void
fuzz_extract_chat(const cJSON *root, size_t max)
{
    size_t                   i, bytes;
    behave_chat_t            chat;
    behave_extract_e         rc;
    behave_annotation_t      a;
    behave_chat_findings_t   f;
    const behave_chat_turn_t  *t;

    rc = behave_extract_chat(root, max, &chat);

    FUZZ_CHECK(rc == BEHAVE_EXTRACT_OK || rc == BEHAVE_EXTRACT_NONE
               || rc == BEHAVE_EXTRACT_NOMEM);

    if (rc != BEHAVE_EXTRACT_OK) {
        return;
    }

    FUZZ_CHECK(chat.n >= 1 && chat.n <= max);
    FUZZ_CHECK(chat.turn[chat.n - 1].role == BEHAVE_CHAT_USER);

    bytes = 0;

    for (i = 0; i + 1 < chat.n; i++) {
        t = &chat.turn[i];
        FUZZ_CHECK(t->len <= BEHAVE_CHAT_TURN_MAX);
        FUZZ_CHECK(behave_utf8_valid((const unsigned char *) t->text,
                                     t->len));
        bytes += t->len;
    }

    FUZZ_CHECK(bytes <= BEHAVE_CHAT_HISTORY_MAX);

    /* the glue's checks of the latest message, then the findings */
    t = &chat.turn[chat.n - 1];

    if (chat.n > 1 && t->len <= 32768
        && behave_utf8_valid((const unsigned char *) t->text, t->len))
    {
        if (fuzz_memo == NULL) {
            fuzz_memo = behave_turn_memo_create(16);
            FUZZ_CHECK(fuzz_memo != NULL);
        }

        behave_annotate(t->text, t->len, &a);
        FUZZ_CHECK(behave_chat_assess(&chat, &a, fuzz_memo, &f) == 0);
        FUZZ_CHECK(f.turns == chat.n && f.conv.peak_severity <= 4);
        FUZZ_CHECK(f.peak_urgency >= a.urgency);
    }

    behave_chat_free(&chat);
}
