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

#include "conversation/behave_conversation.h"


#define BEHAVE_CONV_CASE_TURNS  64     /* turns replayed of one case */


typedef struct {
    const char    *id;         /* "?" when it has none */
    const cJSON   *expect;     /* the array of expectations */
    int            nt;         /* turns decoded */
    behave_turn_t  tv[BEHAVE_CONV_CASE_TURNS];
} behave_conv_case_t;


/*
 * conv's turns decoded into cc->tv (the first BEHAVE_CONV_CASE_TURNS);
 * -1 when its turns or its expectations are not arrays.
 */
static __attribute__((unused)) int
behave_conv_case(const cJSON *conv, behave_conv_case_t *cc)
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

    cc->nt = behave_turns_from_json(turns, cc->tv, BEHAVE_CONV_CASE_TURNS);

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


/*
 * The turn an expectation is about, assessed with the turns before it as
 * its history (as the module assesses turns arriving one by one); -1
 * when it names none of the turns
 */
static __attribute__((unused)) int
behave_conv_case_assess(behave_conv_case_t *cc, const cJSON *e,
    behave_conv_result_t *r)
{
    int  t;

    t = behave_conv_case_turn(cc, e);

    if (t >= 0) {
        behave_conversation_assess(cc->tv, (size_t) t, &cc->tv[t], r);
    }

    return t;
}


#endif /* BEHAVE_CONV_CASE_H */
