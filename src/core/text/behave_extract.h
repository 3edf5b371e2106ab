/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The pre-filter's text extraction: which words of an LLM request body are
 * the user's latest message.  Pure logic on a parsed cJSON tree.
 *
 * Formats recognised, in this order, when no pointer is configured:
 *   messages[]  OpenAI chat completions and Anthropic messages: the last
 *               entry with role "user" that holds text; content is a
 *               string or an array of parts/blocks of type "text"
 *   input       OpenAI responses: a string, or items: the last item with
 *               role "user" that holds text; content is a string or an
 *               array of parts of type "input_text" or "text"
 *   message     the service's own body: a string
 *   text        likewise
 * With a pointer (RFC 6901) only the value it points to is read: a string,
 * or an array of text parts as above.  Several text parts are joined with
 * "\n", so that words of two parts never run together.
 *
 * The chat (behave_extract_chat()): the user's latest message and the
 * turns before it in the same list, messages[] or input items, for the
 * conversation findings.  An entry is a turn when its role is "user" (the
 * customer) or "assistant" (the agent) and it holds text: parts of type
 * "text" in messages[] (OpenAI and Anthropic alike), "input_text" or
 * "text" for a user item of input, "output_text", "input_text" or "text"
 * for an assistant item.  System, developer and tool entries, tool calls
 * and results, images, and whatever comes after the user's latest message
 * (an assistant prefill) are not turns.  The other formats have the one
 * turn.
 */

#ifndef BEHAVE_EXTRACT_H
#define BEHAVE_EXTRACT_H

#include <stddef.h>
#include <cjson/cJSON.h>


typedef enum {
    BEHAVE_EXTRACT_OK = 0,
    BEHAVE_EXTRACT_NONE,            /* no text where one was looked for */
    BEHAVE_EXTRACT_NOMEM
} behave_extract_e;


/*
 * Finds the text in root.  pointer is NULL for the built-in formats, or a
 * JSON pointer already checked by behave_json_pointer_valid().  On
 * BEHAVE_EXTRACT_OK *text is malloc()ed, NUL-terminated and *len bytes
 * long (it may be empty); the caller frees it.  The text is not checked
 * for UTF-8: JSON strings may hold any byte.
 */
behave_extract_e behave_extract_text(const cJSON *root, const char *pointer,
    char **text, size_t *len);

/*
 * An earlier turn is read up to this many bytes (the conversation
 * logic's own scan, BEHAVE_CONV_SCAN_MAX), and the earlier turns up to
 * BEHAVE_CHAT_HISTORY_MAX bytes in all: whatever the body, the history
 * costs a worker what a 16 KiB message does (about a millisecond when no
 * turn is remembered, behave_worst), on top of the latest message.
 */
#define BEHAVE_CHAT_TURN_MAX     4096
#define BEHAVE_CHAT_HISTORY_MAX  (16 * 1024)
#define BEHAVE_CHAT_TURNS_MAX    1000     /* turns a chat is read for */


typedef enum {
    BEHAVE_CHAT_USER = 0,
    BEHAVE_CHAT_ASSISTANT
} behave_chat_role_e;


typedef struct {
    behave_chat_role_e     role;
    const char            *text;      /* in the tree, or own */
    size_t                 len;
    char                  *own;       /* parts joined: malloc()ed, or NULL */
} behave_chat_turn_t;


typedef struct {
    const char            *format;    /* "messages", "input", "message",
                                         "text": where the text was */
    behave_chat_turn_t    *turn;      /* oldest first, malloc()ed */
    size_t                 n;         /* the last is the latest message */
    size_t                 left_out;  /* earlier turns with text not read */
} behave_chat_t;


/*
 * The user's latest message and at most max - 1 turns before it (max is 1
 * to BEHAVE_CHAT_TURNS_MAX), oldest first.  The latest message is as
 * behave_extract_text() finds it, not checked (the caller checks its size
 * and its UTF-8).  An earlier turn is cut to BEHAVE_CHAT_TURN_MAX bytes at
 * a character boundary and left out when it is blank or not valid UTF-8;
 * the turns stop where the earlier ones would pass
 * BEHAVE_CHAT_HISTORY_MAX bytes.  Texts point into root: it must outlive
 * the chat.  On BEHAVE_EXTRACT_OK, chat->n >= 1 and the caller frees the
 * chat with behave_chat_free(); else there is nothing to free.
 */
behave_extract_e behave_extract_chat(const cJSON *root, size_t max,
    behave_chat_t *chat);

void behave_chat_free(behave_chat_t *chat);

/*
 * RFC 6901: "" or "/" followed by reference tokens, where '~' is only
 * followed by '0' or '1'.  Returns 1 when p[0..len) is one.
 */
int behave_json_pointer_valid(const char *p, size_t len);

/* the value pointer refers to inside root, or NULL */
const cJSON *behave_json_pointer_get(const cJSON *root, const char *pointer);


#endif /* BEHAVE_EXTRACT_H */
