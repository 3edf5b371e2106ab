/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Reading a JSONL corpus (data/corpus, the shared data sets), for the
 * core's tools and unit tests: each line's tree, or each conversation's
 * turns (never on a request path).
 */

#ifndef BEHAVE_JSONL_H
#define BEHAVE_JSONL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tools/behave_read_file.h"


typedef void (*behave_jsonl_line_pt)(const cJSON *line, void *data);

typedef struct {
    const char            *text;     /* a turn's "message" */
    int                    agent;    /* "speaker": "agent" */
    int                    first;    /* its conversation's first */
} behave_jsonl_turn_t;


/* turns read so far, into an array of max the caller gives */
typedef struct {
    behave_jsonl_turn_t   *turn;
    size_t                 n;
    size_t                 max;
} behave_jsonl_turns_t;


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


/* the texts outlive the corpus' trees: strdup()ed, kept until exit */
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

        if (!cJSON_IsString(msg) || t->n == t->max) {
            continue;
        }

        t->turn[t->n].text = strdup(msg->valuestring);
        t->turn[t->n].agent = cJSON_IsString(spk)
                              && strcmp(spk->valuestring, "agent") == 0;
        t->turn[t->n].first = first;
        t->n++;
        first = 0;
    }
}


/*
 * Every turn with a message of every conversation of the file, after
 * those t holds already (a tool reads several files); the file's name
 * and errno on stderr, and exit, when it cannot be read.
 */
static __attribute__((unused)) void
behave_jsonl_turns(const char *path, behave_jsonl_turns_t *t)
{
    if (behave_jsonl_each(path, behave_jsonl_turns_of, t) != 0) {
        perror(path);
        exit(1);
    }
}


#endif /* BEHAVE_JSONL_H */
