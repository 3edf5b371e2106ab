/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Microbenchmark of behave_annotate():
 *
 *   behave_bench [FILE.tsv [ROUNDS]]
 *
 * Reads a TSV whose last column is the text (default: the tweets ground
 * truth of the shared data), annotates each message ROUNDS times (default
 * 50) and prints the median time per message and the throughput.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "text/behave_annotate.h"
#include "text/behave_model.h"
#include "tools/behave_read_file.h"
#include "tools/behave_tool_util.h"


#define BENCH_DEFAULT  "../shared/data/sentiment/tweets_GroundTruth.tsv"






int
main(int argc, char **argv)
{
    char                 *buf, *line, *next, *t, **texts;
    size_t                size, n, cap, i, *lens;
    int                   rounds, r;
    double                t0, total, *per;
    unsigned              sink;
    const char           *path;
    behave_annotation_t   a;

    path = argc > 1 ? argv[1] : BENCH_DEFAULT;
    rounds = argc > 2 ? atoi(argv[2]) : 50;
    if (rounds < 1) {
        rounds = 1;
    }

    /* as the module does at start */
    behave_model_tables_init();

    buf = behave_read_file(path, &size);
    if (buf == NULL) {
        perror(path);
        return 1;
    }

    cap = 1024;
    n = 0;
    texts = malloc(cap * sizeof(char *));
    lens = malloc(cap * sizeof(size_t));

    for (line = buf; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) {
            *next++ = '\0';
        }

        t = strrchr(line, '\t');
        t = t ? t + 1 : line;

        if (n == cap) {
            cap *= 2;
            texts = realloc(texts, cap * sizeof(char *));
            lens = realloc(lens, cap * sizeof(size_t));
        }

        texts[n] = t;
        lens[n] = strlen(t);
        n++;
    }

    if (n == 0) {
        fprintf(stderr, "%s: no messages\n", path);
        return 1;
    }

    per = malloc(n * sizeof(double));
    sink = 0;
    total = 0;

    /* warm up caches and branch predictors once */
    for (i = 0; i < n; i++) {
        behave_annotate(texts[i], lens[i], &a);
        sink += a.signals_fired;
    }

    for (i = 0; i < n; i++) {
        t0 = behave_clock_ns(CLOCK_MONOTONIC);
        for (r = 0; r < rounds; r++) {
            behave_annotate(texts[i], lens[i], &a);
            sink += a.signals_fired;
        }
        per[i] = (behave_clock_ns(CLOCK_MONOTONIC) - t0) / rounds;
        total += per[i];
    }

    qsort(per, n, sizeof(double), behave_cmp_double);

    printf("messages: %zu x %d rounds (%s)\n", n, rounds, path);
    printf("median: %.0f ns/message, p99: %.0f ns/message, mean: %.0f ns\n",
           per[n / 2], per[n * 99 / 100], total / n);
    printf("throughput: %.0f messages/s (one thread)\n", 1e9 * n / total);

    free(per);
    free(texts);
    free(lens);
    free(buf);

    return sink == 0xffffffffu;
}
