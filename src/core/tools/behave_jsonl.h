/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Reading a JSONL corpus (data/corpus, the shared data sets), for the
 * core's tools and unit tests: each line's tree, or each conversation's
 * turns (never on a request path).
 */

#ifndef BEHAVE_JSONL_H
#define BEHAVE_JSONL_H

#include <string.h>

#include <cjson/cJSON.h>

#include "behave_read_file.h"


typedef void (*behave_jsonl_line_pt)(const cJSON *line, void *data);

/* text: a turn's "message"; first: the conversation's first such turn */
typedef void (*behave_jsonl_turn_pt)(const char *text, int agent, int first,
    void *data);


/*
 * fn() on every line that parses (the others are passed over: a corpus
 * may end with an empty line); -1 when the file cannot be read.
 */
static __attribute__((unused)) int
behave_jsonl_each(const char *path, behave_jsonl_line_pt fn, void *data)
{
    char    *buf, *line, *next;
    size_t   len;
    cJSON   *j;

    buf = behave_read_file(path, &len);
    if (buf == NULL) {
        return -1;
    }

    for (line = buf; line != NULL && *line; line = next) {
        next = strchr(line, '\n');
        if (next != NULL) {
            *next++ = '\0';
        }

        j = cJSON_Parse(line);
        if (j != NULL) {
            fn(j, data);
            cJSON_Delete(j);
        }
    }

    free(buf);

    return 0;
}


typedef struct {
    behave_jsonl_turn_pt   fn;
    void                  *data;
} behave_jsonl_turns_t;


static __attribute__((unused)) void
behave_jsonl_turns_of(const cJSON *conv, void *data)
{
    int                    first;
    const cJSON           *e, *msg, *spk;
    behave_jsonl_turns_t  *t = data;

    first = 1;

    cJSON_ArrayForEach(e, cJSON_GetObjectItem(conv, "turns")) {
        msg = cJSON_GetObjectItem(e, "message");
        spk = cJSON_GetObjectItem(e, "speaker");

        if (!cJSON_IsString(msg)) {
            continue;
        }

        t->fn(msg->valuestring,
              cJSON_IsString(spk) && strcmp(spk->valuestring, "agent") == 0,
              first, t->data);
        first = 0;
    }
}


/* fn() on every turn with a message of every conversation of the file */
static __attribute__((unused)) int
behave_jsonl_turns(const char *path, behave_jsonl_turn_pt fn, void *data)
{
    behave_jsonl_turns_t  t;

    t.fn = fn;
    t.data = data;

    return behave_jsonl_each(path, behave_jsonl_turns_of, &t);
}


#endif /* BEHAVE_JSONL_H */
