/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The turn classifiers' side of training (scripts/train-turns): for each
 * JSON line of stdin, {"text": ..., "speaker": "agent"|"customer"}, one
 * JSON line out with the turn's feature hashes as the core computes
 * them ("f"), what the phrases decide alone ("claim" for an agent turn,
 * "deny" for a customer's) and the built-in classifier's probabilities
 * ("p", BEHAVE_AGENT_* or BEHAVE_REPLY_*), so that training and serving
 * cannot disagree on a feature.
 *
 *   behave_conv_feats < turns.jsonl
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "text/behave_annotate.h"
#include "conversation/behave_conv_claims.h"
#include "conversation/behave_conv_learned.h"


static void feats_print(void *ctx, uint32_t hash);
static void feats_line(const char *line);


static void
feats_print(void *ctx, uint32_t hash)
{
    int  *first;

    first = ctx;
    printf(*first ? "%u" : ",%u", (unsigned) hash);
    *first = 0;
}


static void
feats_line(const char *line)
{
    int                   agent, first;
    double                p[BEHAVE_CONV_LEARNED_CLASSES];
    cJSON                *j, *text, *spk;
    unsigned              quote;
    behave_conv_norm_t   *norm;
    behave_annotation_t   a;

    j = cJSON_Parse(line);
    text = cJSON_GetObjectItem(j, "text");
    spk = cJSON_GetObjectItem(j, "speaker");

    if (!cJSON_IsString(text)) {
        printf("{\"error\":\"no text\"}\n");
        cJSON_Delete(j);
        return;
    }

    agent = cJSON_IsString(spk) && strcmp(spk->valuestring, "agent") == 0;

    norm = malloc(sizeof(*norm));
    if (norm == NULL) {
        perror("behave_conv_feats");
        exit(1);
    }

    behave_annotate(text->valuestring, strlen(text->valuestring), &a);
    behave_conv_normalize(text->valuestring, strlen(text->valuestring), norm);

    printf("{\"f\":[");
    first = 1;
    behave_conv_features(norm, feats_print, &first);

    if (agent) {
        behave_conv_learned_agent(norm, p);
        printf("],\"claim\":%d", behave_conv_claim(norm, a.cues) != 0);

    } else {
        behave_conv_learned_reply(norm, p);
        printf("],\"deny\":%d", behave_conv_denies(norm, a.cues, 0, &quote));
    }

    printf(",\"p\":[%.6f,%.6f,%.6f,%.6f]}\n", p[0], p[1], p[2], p[3]);

    free(norm);
    cJSON_Delete(j);
}


int
main(void)
{
    char    *line;
    size_t   cap;
    ssize_t  n;

    line = NULL;
    cap = 0;

    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (line[n - 1] == '\n') {
            line[n - 1] = '\0';
        }

        if (line[0] != '\0') {
            feats_line(line);
        }
    }

    free(line);

    return 0;
}
