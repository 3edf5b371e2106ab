/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Prints the annotation of each line of stdin (or of argv[1]): a
 * debugging aid for the lexicon, the rules and the model.
 *
 *   behave_annotate_cli [TEXT]        one line of text a message
 *   behave_annotate_cli -j            JSON lines in ({"text": ...}), one
 *                                     JSON object out a message: v u l e
 *                                     r, the cultural tags and the meaning
 *                                     signature (for scripts/eval-corpus)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "text/behave_annotate.h"
#include "text/behave_model.h"
#include "base/behave_utf8.h"
#include "text/behave_scores.h"


static void cli_print(const char *text, size_t len, int json);
static void cli_json_line(const char *line, size_t len);


static void
cli_print(const char *text, size_t len, int json)
{
    size_t               n, i;
    char                 buf[16];
    const char          *tags[8];
    behave_scores_t      sc;
    behave_annotation_t  a;

    behave_annotate(text, len, &a);

    if (json) {
        printf("{\"v\":\"%s\",\"u\":\"%s\",\"l\":\"%s\",\"e\":\"%s\","
               "\"r\":\"%s\",\"risk\":%.6f,\"ri\":[%g,%g,%g,%g],"
               "\"tags\":[",
               behave_valence_name(a.valence), behave_urgency_name(a.urgency),
               behave_load_name(a.cognitive_load),
               behave_engagement_name(a.engagement),
               behave_register_name(a.social_register), a.scores.risk,
               a.risk_inputs[0], a.risk_inputs[1], a.risk_inputs[2],
               a.risk_inputs[3]);

    } else {
        printf("%-8s %+.3f | urg %-8s %.2f | load %-8s %.2f | eng %-10s %.2f"
               " | reg %-11s %.2f | risk %.3f | conf %.2f sig %u cues 0x%03x",
               behave_valence_name(a.valence), a.scores.valence,
               behave_urgency_name(a.urgency), a.scores.urgency,
               behave_load_name(a.cognitive_load), a.scores.cognitive_load,
               behave_engagement_name(a.engagement), a.scores.engagement,
               behave_register_name(a.social_register), a.scores.formality,
               a.scores.risk, a.confidence, a.signals_fired, a.cues);
    }

    n = behave_cultural_tags(&a, tags, 8, buf, sizeof(buf));
    for (i = 0; i < n; i++) {
        printf(json ? "%s\"%s\"" : "%s%s", json ? (i ? "," : "") : " ",
               tags[i]);
    }

    if (json) {
        /* the scores as answered, in their labels' bands */
        behave_scores_agreed(&a, &sc);
        printf("],\"s\":{\"valence\":%.3f,\"urgency\":%.3f,"
               "\"cognitive_load\":%.3f,\"engagement\":%.3f,"
               "\"formality\":%.3f},\"m\":[", sc.valence, sc.urgency,
               sc.cognitive_load, sc.engagement, sc.formality);
        /* the axes unpacked: a cosine of them is the C one */
        for (i = 0; i < BEHAVE_MEANING_AXES; i++) {
            printf("%s%d", i ? "," : "", behave_meaning_axis(a.meaning, i));
        }
        printf("]}");
    }

    printf("\n");
}


/* an unreadable line still answers one (empty-text) line, to keep order */
static void
cli_json_line(const char *line, size_t len)
{
    cJSON       *j, *t;
    const char  *text;

    j = cJSON_ParseWithLength(line, len);
    t = cJSON_GetObjectItemCaseSensitive(j, "text");
    text = cJSON_IsString(t) ? t->valuestring : "";

    if (!behave_utf8_valid((const unsigned char *) text, strlen(text))) {
        text = "";
    }

    cli_print(text, strlen(text), 1);
    cJSON_Delete(j);
}


int
main(int argc, char **argv)
{
    char     *line;
    size_t    cap;
    ssize_t   n;
    int       json;

    json = argc > 1 && strcmp(argv[1], "-j") == 0;

    if (argc > 1 && !json) {
        cli_print(argv[1], strlen(argv[1]), 0);
        return 0;
    }

    line = NULL;
    cap = 0;

    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (json) {
            cli_json_line(line, (size_t) n);
            continue;
        }

        if (line[n - 1] == '\n') {
            line[--n] = '\0';
        }

        cli_print(line, (size_t) n, 0);
    }

    free(line);

    return 0;
}
