/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The labelled conversations of the shared data (one a line: {"id",
 * "turns", "expect": [{"turn", the findings, "action"}]}), read the same
 * way by the evaluation tool and the core's unit tests.
 */

#ifndef BEHAVE_CONV_CASE_H
#define BEHAVE_CONV_CASE_H

#include <cjson/cJSON.h>

#include "behave_conversation.h"


typedef struct {
    const char    *id;         /* "?" when it has none */
    const cJSON   *expect;     /* the array of expectations */
    int            nt;         /* turns decoded */
} behave_conv_case_t;


/*
 * conv's turns decoded into tv (at most max); -1 when its turns or its
 * expectations are not arrays.
 */
static __attribute__((unused)) int
behave_conv_case(const cJSON *conv, behave_turn_t *tv, int max,
    behave_conv_case_t *cc)
{
    const cJSON  *id, *turns;

    id = cJSON_GetObjectItem(conv, "id");
    turns = cJSON_GetObjectItem(conv, "turns");
    cc->expect = cJSON_GetObjectItem(conv, "expect");
    cc->id = cJSON_IsString(id) ? id->valuestring : "?";
    cc->nt = 0;

    if (!cJSON_IsArray(turns) || !cJSON_IsArray(cc->expect)) {
        return -1;
    }

    cc->nt = behave_turns_from_json(turns, tv, max);

    return 0;
}


/* the turn an expectation is about; -1 when it names none of the turns */
static __attribute__((unused)) int
behave_conv_case_turn(const behave_conv_case_t *cc, const cJSON *e)
{
    const cJSON  *t;

    t = cJSON_GetObjectItem(e, "turn");

    if (!cJSON_IsNumber(t) || t->valueint < 0 || t->valueint >= cc->nt) {
        return -1;
    }

    return t->valueint;
}


#endif /* BEHAVE_CONV_CASE_H */
