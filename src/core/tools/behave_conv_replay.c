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
 * Redis, the state path) with these.
 *
 *     behave_conv_replay FILE.jsonl
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "behave_annotate.h"
#include "behave_conversation.h"
#include "behave_json.h"
#include "behave_turn.h"


#define REPLAY_MAX_TURNS  1000


static behave_turn_t  tv[REPLAY_MAX_TURNS];


static void
replay(cJSON *conv)
{
    int                   i, nt;
    char                 *out;
    size_t                len;
    cJSON                *id, *turns, *e, *msg, *spk;
    const char           *text;
    behave_jw_t           w;
    behave_annotation_t   a;
    behave_conv_result_t  r;

    id = cJSON_GetObjectItem(conv, "id");
    turns = cJSON_GetObjectItem(conv, "turns");

    nt = cJSON_GetArraySize(turns);
    if (nt > REPLAY_MAX_TURNS) {
        nt = REPLAY_MAX_TURNS;
    }

    for (i = 0; i < nt; i++) {
        e = cJSON_GetArrayItem(turns, i);
        msg = cJSON_GetObjectItem(e, "message");
        spk = cJSON_GetObjectItem(e, "speaker");
        text = cJSON_IsString(msg) ? msg->valuestring : "";

        behave_annotate(text, strlen(text), &a);
        behave_turn_from_annotation(&tv[i],
            cJSON_IsString(spk) && strcmp(spk->valuestring, "agent") == 0
                ? BEHAVE_SPEAKER_AGENT : BEHAVE_SPEAKER_CUSTOMER,
            text, strlen(text), &a, (uint64_t) i * 1000);
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
    FILE   *f;
    char   *line;
    cJSON  *conv;

    if (argc != 2 || (f = fopen(argv[1], "r")) == NULL) {
        fprintf(stderr, "usage: behave_conv_replay FILE.jsonl\n");
        return 2;
    }

    line = malloc(1 << 22);

    while (line != NULL && fgets(line, 1 << 22, f) != NULL) {
        conv = cJSON_Parse(line);
        if (conv != NULL) {
            replay(conv);
            cJSON_Delete(conv);
        }
    }

    free(line);
    fclose(f);

    return 0;
}
