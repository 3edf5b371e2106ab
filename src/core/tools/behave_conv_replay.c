/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The conversation block of every turn of labelled conversations, as the
 * core computes it from full history (behave_conversation_assess()): one
 * JSON line per turn after the first,
 *
 *     {"id":"...","turn":N,"conversation":{...spec 2.4 block...}}
 *
 * t/011-conversations-replay.t compares the endpoint's answers (nginx and
 * Redis, the state path) with these.  With --state, one line per
 * conversation instead: the stored state (behave_conv_state.h) after its
 * last turn, in hex, which t/011 compares with what Redis' script wrote:
 *
 *     {"id":"...","state":"7332..."}
 *
 *     behave_conv_replay [--state] FILE.jsonl
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "text/behave_annotate.h"
#include "conversation/behave_conv_state.h"
#include "conversation/behave_conversation.h"
#include "base/behave_json.h"
#include "conversation/behave_turn.h"


#define REPLAY_MAX_TURNS  1000


static behave_turn_t  tv[REPLAY_MAX_TURNS];


/* the state every turn leaves, folded as the upgrade from a log does */
static void
replay_state(const char *id, int nt)
{
    char                 buf[BEHAVE_CONV_STATE_MAX];
    size_t               len, k;
    behave_conv_state_t  st;

    behave_conversation_fold(tv, (size_t) nt, &st);

    len = behave_conv_state_encode(&st, buf);

    printf("{\"id\":\"%s\",\"state\":\"", id);
    for (k = 0; k < len; k++) {
        printf("%02x", (unsigned char) buf[k]);
    }
    printf("\"}\n");
}


static void
replay(cJSON *conv, int state)
{
    int                   i, nt;
    char                 *out;
    size_t                len;
    cJSON                *id, *turns;
    behave_jw_t           w;
    behave_conv_result_t  r;

    id = cJSON_GetObjectItem(conv, "id");
    turns = cJSON_GetObjectItem(conv, "turns");

    nt = behave_turns_from_json(turns, tv, REPLAY_MAX_TURNS);

    if (state) {
        replay_state(cJSON_IsString(id) ? id->valuestring : "", nt);
        return;
    }

    for (i = 1; i < nt; i++) {
        behave_conversation_assess(tv, (size_t) i, &tv[i], &r);

        if (!behave_jw_init(&w, 1024)) {
            exit(1);
        }

        behave_jw_open(&w, NULL);
        behave_jw_string(&w, "id", cJSON_IsString(id) ? id->valuestring
                                                       : "");
        behave_jw_number(&w, "turn", i);
        behave_conversation_write(&w, &r, "", 0);
        behave_jw_close(&w);

        out = behave_jw_finish(&w, &len);
        if (out == NULL) {
            exit(1);
        }

        printf("%s\n", out);
        free(out);
    }
}


int
main(int argc, char **argv)
{
    int     state;
    FILE   *f;
    char   *line;
    cJSON  *conv;

    state = argc == 3 && strcmp(argv[1], "--state") == 0;

    if (argc != 2 + state || (f = fopen(argv[1 + state], "r")) == NULL) {
        fprintf(stderr, "usage: behave_conv_replay [--state] FILE.jsonl\n");
        return 2;
    }

    line = malloc(1 << 22);

    while (line != NULL && fgets(line, 1 << 22, f) != NULL) {
        conv = cJSON_Parse(line);
        if (conv != NULL) {
            replay(conv, state);
            cJSON_Delete(conv);
        }
    }

    free(line);
    fclose(f);

    return 0;
}
