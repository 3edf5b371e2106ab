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
 * RFC 6901: "" or "/" followed by reference tokens, where '~' is only
 * followed by '0' or '1'.  Returns 1 when p[0..len) is one.
 */
int behave_json_pointer_valid(const char *p, size_t len);

/* the value pointer refers to inside root, or NULL */
const cJSON *behave_json_pointer_get(const cJSON *root, const char *pointer);


#endif /* BEHAVE_EXTRACT_H */
