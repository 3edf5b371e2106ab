/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Prints the annotation of each line of stdin (or of argv[1]): a
 * debugging aid for the lexicon and the rules.
 */

#include <stdio.h>
#include <string.h>
#include "behave_annotate.h"


static void cli_print(const char *text, size_t len);


static void
cli_print(const char *text, size_t len)
{
    size_t               n, i;
    char                 buf[16];
    const char          *tags[8];
    behave_annotation_t  a;

    behave_annotate(text, len, &a);

    printf("%-8s %+.3f | urg %-8s %.2f | load %-8s %.2f | eng %-10s %.2f"
           " | reg %-11s %.2f | conf %.2f sig %u cues 0x%03x",
           behave_valence_name(a.valence), a.scores.valence,
           behave_urgency_name(a.urgency), a.scores.urgency,
           behave_load_name(a.cognitive_load), a.scores.cognitive_load,
           behave_engagement_name(a.engagement), a.scores.engagement,
           behave_register_name(a.social_register), a.scores.formality,
           a.confidence, a.signals_fired, a.cues);

    n = behave_cultural_tags(&a, tags, 8, buf, sizeof(buf));
    for (i = 0; i < n; i++) {
        printf(" %s", tags[i]);
    }

    printf("\n");
}


int
main(int argc, char **argv)
{
    char    line[65536];
    size_t  len;

    if (argc > 1) {
        cli_print(argv[1], strlen(argv[1]));
        return 0;
    }

    while (fgets(line, sizeof(line), stdin)) {
        len = strlen(line);
        if (len && line[len - 1] == '\n') {
            line[--len] = '\0';
        }
        cli_print(line, len);
    }

    return 0;
}
