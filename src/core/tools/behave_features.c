/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Lists the model's features of each message, for scripts/train:
 *
 *   behave_features [-r] [-d NAMES] < messages.jsonl > features.txt
 *
 * Input: one JSON object a line with "text" (or "message").  Output: one
 * line a message, the feature ids in hex separated by spaces (the same
 * code that serves computes them, see behave_annotate_features).  With
 * -d, every id's readable name is written to NAMES ("id<TAB>name").
 * With -r, the risk head's own features (letter 4-grams "g:", the length
 * "L:") are listed too (scripts/train-risk); without, only the trained
 * layer's (scripts/train).
 * (behave_annotate_cli -j prints the labels the weights then give.)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "text/behave_annotate.h"
#include "base/behave_utf8.h"


#define FEAT_NAMES  (1u << 20)


typedef struct {
    int         risk;           /* -r: the risk head's own features too */
    FILE       *names;
    uint32_t   *seen;           /* ids already named, open addressing */
} feat_ctx_t;


static void
feat_sink(void *data, uint32_t f, const char *name)
{
    uint32_t     i;
    feat_ctx_t  *ctx = data;

    if (!ctx->risk && name[1] == ':' && (name[0] == 'g' || name[0] == 'L')) {
        return;
    }

    printf(" %08x", f);

    if (ctx->names == NULL) {
        return;
    }

    for (i = f & (FEAT_NAMES - 1); ctx->seen[i] != 0;
         i = (i + 1) & (FEAT_NAMES - 1))
    {
        if (ctx->seen[i] == f) {
            return;
        }
    }

    ctx->seen[i] = f;
    fprintf(ctx->names, "%08x\t%s\n", f, name);
}


int
main(int argc, char **argv)
{
    char                *line;
    size_t               cap;
    ssize_t              n;
    cJSON               *j, *t;
    feat_ctx_t           ctx;
    behave_annotation_t  a;

    ctx.names = NULL;
    ctx.seen = NULL;
    ctx.risk = argc > 1 && strcmp(argv[1], "-r") == 0;
    if (ctx.risk) {
        argc--;
        argv++;
    }

    if (argc == 3 && strcmp(argv[1], "-d") == 0) {
        ctx.names = fopen(argv[2], "w");
        ctx.seen = calloc(FEAT_NAMES, sizeof(uint32_t));
        if (ctx.names == NULL || ctx.seen == NULL) {
            perror(argv[2]);
            return 1;
        }

    } else if (argc != 1) {
        fprintf(stderr, "usage: behave_features [-r] [-d NAMES] < in.jsonl\n");
        return 2;
    }

    line = NULL;
    cap = 0;

    while ((n = getline(&line, &cap, stdin)) > 0) {
        j = cJSON_ParseWithLength(line, (size_t) n);
        t = cJSON_GetObjectItemCaseSensitive(j, "text");
        if (!cJSON_IsString(t)) {
            t = cJSON_GetObjectItemCaseSensitive(j, "message");
        }

        if (cJSON_IsString(t)
            && behave_utf8_valid((const unsigned char *) t->valuestring,
                                 strlen(t->valuestring)))
        {
            behave_annotate_features(t->valuestring, strlen(t->valuestring),
                                     &a, feat_sink, &ctx);
        }

        printf("\n");
        cJSON_Delete(j);
    }

    free(line);
    free(ctx.seen);

    if (ctx.names != NULL) {
        fclose(ctx.names);
    }

    return 0;
}
