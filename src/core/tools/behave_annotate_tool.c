/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * behave-annotate: annotates a file of messages with the same core as
 * nginx, so that an operator can measure their own traffic before they
 * switch routing on (docs/API.md, "behave-annotate").
 *
 *   behave-annotate [-q] [--csv | --jsonl] [--field NAME]
 *                   [--threshold T]... [FILE...]
 *
 * Input: JSON lines with "message" (or "text", or --field), or CSV with a
 * header row naming a "message" or "text" column (or --field); the format
 * is guessed from the first byte when not given.  Output: one JSON object
 * a message on stdout (its line, annotation, scores, routing); at the end,
 * on stderr, how many messages each risk threshold would route (the
 * default operating point, the given thresholds, and a range).
 * Exit 0, 1 when a file cannot be read, 2 on bad usage; a line that is
 * not a message is counted as skipped and named on stderr.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "text/behave_annotate.h"
#include "text/behave_risk.h"
#include "text/behave_routing.h"
#include "base/behave_utf8.h"
#include "text/behave_scores.h"
#include "tools/behave_tool_util.h"


#define TOOL_MAX_THRESHOLDS  32
#define TOOL_MAX_TEXT        (1 << 20)


typedef struct {
    int          quiet;
    int          format;            /* 0 guess, 'c' csv, 'j' jsonl */
    const char  *field;
    double       thr[TOOL_MAX_THRESHOLDS];
    size_t       nthr;
    size_t       count[TOOL_MAX_THRESHOLDS];
    size_t       messages;
    size_t       skipped;
    size_t       critical;
    int          csv_col;           /* the text's column, -1 before the
                                       header */
} tool_ctx_t;


static void
tool_usage(void)
{
    fprintf(stderr,
            "usage: behave-annotate [-q] [--csv | --jsonl] [--field NAME]\n"
            "                       [--threshold T]... [FILE...]\n");
}


/* thousandths, as /v1/analyze answers them */
static double
tool_round3(double v)
{
    return (double) (long long) (v * 1000.0 + (v < 0 ? -0.5 : 0.5))
           / 1000.0;
}



static void
tool_emit(tool_ctx_t *ctx, const char *name, size_t line, const char *text,
    size_t len)
{
    size_t               i, n;
    char                 buf[16], *out;
    const char          *tags[8];
    cJSON               *o, *an, *sc, *ro, *cc;
    behave_scores_t      s;
    behave_routing_t     r;
    behave_annotation_t  a;

    if (len > TOOL_MAX_TEXT
        || !behave_utf8_valid((const unsigned char *) text, len))
    {
        fprintf(stderr, "behave-annotate: %s:%zu: skipped (%s)\n", name,
                line, len > TOOL_MAX_TEXT ? "over 1 MiB" : "not UTF-8");
        ctx->skipped++;
        return;
    }

    behave_annotate(text, len, &a);
    behave_route(&a, &r);
    behave_scores_agreed(&a, &s);

    ctx->messages++;
    ctx->critical += a.urgency == BEHAVE_URGENCY_CRITICAL;

    for (i = 0; i < ctx->nthr; i++) {
        ctx->count[i] += a.scores.risk >= ctx->thr[i];
    }

    if (ctx->quiet) {
        return;
    }

    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "source", name);
    cJSON_AddNumberToObject(o, "line", (double) line);

    an = cJSON_AddObjectToObject(o, "annotation");
    cJSON_AddStringToObject(an, "emotional_valence",
                            behave_valence_name(a.valence));
    cJSON_AddStringToObject(an, "cognitive_load",
                            behave_load_name(a.cognitive_load));
    cJSON_AddStringToObject(an, "urgency_level",
                            behave_urgency_name(a.urgency));
    cJSON_AddStringToObject(an, "engagement_state",
                            behave_engagement_name(a.engagement));
    cJSON_AddStringToObject(an, "social_register",
                            behave_register_name(a.social_register));
    cc = cJSON_AddArrayToObject(an, "cultural_context");
    n = behave_cultural_tags(&a, tags, 8, buf, sizeof(buf));
    for (i = 0; i < n; i++) {
        cJSON_AddItemToArray(cc, cJSON_CreateString(tags[i]));
    }

    sc = cJSON_AddObjectToObject(o, "scores");
    cJSON_AddNumberToObject(sc, "valence", tool_round3(s.valence));
    cJSON_AddNumberToObject(sc, "urgency", tool_round3(s.urgency));
    cJSON_AddNumberToObject(sc, "cognitive_load",
                            tool_round3(s.cognitive_load));
    cJSON_AddNumberToObject(sc, "engagement", tool_round3(s.engagement));
    cJSON_AddNumberToObject(sc, "formality", tool_round3(s.formality));
    cJSON_AddNumberToObject(sc, "risk", tool_round3(s.risk));

    ro = cJSON_AddObjectToObject(o, "routing");
    cJSON_AddStringToObject(ro, "response_posture", r.response_posture);
    cJSON_AddStringToObject(ro, "recommended_tone", r.recommended_tone);
    cJSON_AddStringToObject(ro, "suggested_action", r.suggested_action);

    out = cJSON_PrintUnformatted(o);
    if (out != NULL) {
        puts(out);
        free(out);
    }

    cJSON_Delete(o);
}


static void
tool_jsonl(tool_ctx_t *ctx, const char *name, size_t line, const char *s,
    size_t len)
{
    cJSON  *j, *t;

    j = cJSON_ParseWithLength(s, len);
    t = NULL;

    if (cJSON_IsObject(j)) {
        t = cJSON_GetObjectItemCaseSensitive(j, ctx->field ? ctx->field
                                                           : "message");
        if (t == NULL && ctx->field == NULL) {
            t = cJSON_GetObjectItemCaseSensitive(j, "text");
        }
    }

    if (!cJSON_IsString(t)) {
        fprintf(stderr, "behave-annotate: %s:%zu: skipped (no \"%s\" "
                "string)\n", name, line, ctx->field ? ctx->field
                                                     : "message");
        ctx->skipped++;

    } else {
        tool_emit(ctx, name, line, t->valuestring, strlen(t->valuestring));
    }

    cJSON_Delete(j);
}


/*
 * One CSV record (RFC 4180: quoted fields hold commas, newlines and
 * doubled quotes) read from f into a growing buffer; its fields' starts
 * and lengths in fs/fl.  Returns the number of fields, 0 at the end.
 */
static size_t
tool_csv_record(FILE *f, char **buf, size_t *cap, size_t *fs, size_t *fl,
    size_t max, size_t *lines)
{
    int     c, quoted, any;
    size_t  n, nf;

    n = 0;
    nf = 0;
    quoted = 0;
    any = 0;
    fs[0] = 0;

    while ((c = getc(f)) != EOF) {
        any = 1;

        if (n + 2 > *cap) {
            *cap = *cap ? *cap * 2 : 4096;
            *buf = realloc(*buf, *cap);
            if (*buf == NULL) {
                return 0;
            }
        }

        if (quoted) {
            if (c == '"') {
                c = getc(f);
                if (c != '"') {
                    quoted = 0;
                    if (c == EOF) {
                        break;
                    }
                    ungetc(c, f);
                    continue;
                }
            }

            *lines += c == '\n';
            (*buf)[n++] = (char) c;
            continue;
        }

        if (c == '"') {
            quoted = 1;
            continue;
        }

        if (c == ',' || c == '\n') {
            if (nf < max) {
                fl[nf] = n - fs[nf];
                nf++;
            }

            (*buf)[n++] = '\0';

            if (c == '\n') {
                *lines += 1;
                return nf;
            }

            if (nf < max) {
                fs[nf] = n;
            }

            continue;
        }

        if (c != '\r') {
            (*buf)[n++] = (char) c;
        }
    }

    if (!any) {
        return 0;
    }

    if (nf < max) {
        fl[nf] = n - fs[nf];
        nf++;
    }

    if (n + 1 > *cap) {
        *buf = realloc(*buf, n + 1);
        if (*buf == NULL) {
            return 0;
        }
    }

    (*buf)[n] = '\0';
    *lines += 1;

    return nf;
}


static int
tool_csv(tool_ctx_t *ctx, const char *name, FILE *f)
{
    char    *buf;
    size_t   cap, nf, i, fs[256], fl[256], lines, at;

    buf = NULL;
    cap = 0;
    lines = 0;
    ctx->csv_col = -1;

    for ( ;; ) {
        at = lines + 1;
        nf = tool_csv_record(f, &buf, &cap, fs, fl, 256, &lines);
        if (nf == 0) {
            break;
        }

        if (ctx->csv_col < 0) {
            for (i = 0; i < nf; i++) {
                if (ctx->field ? strcmp(buf + fs[i], ctx->field) == 0
                    : strcmp(buf + fs[i], "message") == 0
                      || strcmp(buf + fs[i], "text") == 0)
                {
                    ctx->csv_col = (int) i;
                    break;
                }
            }

            if (ctx->csv_col < 0) {
                fprintf(stderr, "behave-annotate: %s: the header names no "
                        "\"%s\" column\n", name,
                        ctx->field ? ctx->field : "message\" or \"text");
                free(buf);
                return 1;
            }

            continue;
        }

        if ((size_t) ctx->csv_col >= nf) {
            fprintf(stderr, "behave-annotate: %s:%zu: skipped (too few "
                    "fields)\n", name, at);
            ctx->skipped++;
            continue;
        }

        tool_emit(ctx, name, at, buf + fs[ctx->csv_col],
                  fl[ctx->csv_col]);
    }

    free(buf);
    return 0;
}


static int
tool_file(tool_ctx_t *ctx, const char *name)
{
    int       c, rc;
    FILE     *f;
    char     *line;
    size_t    cap, no;
    ssize_t   n;

    f = strcmp(name, "-") == 0 ? stdin : fopen(name, "r");
    if (f == NULL) {
        fprintf(stderr, "behave-annotate: %s: %s\n", name, strerror(errno));
        return 1;
    }

    c = getc(f);
    if (c != EOF) {
        ungetc(c, f);
    }

    if (ctx->format == 'c' || (ctx->format == 0 && c != '{' && c != EOF)) {
        rc = tool_csv(ctx, name, f);

    } else {
        rc = 0;
        line = NULL;
        cap = 0;
        no = 0;

        while ((n = getline(&line, &cap, f)) > 0) {
            no++;
            if (strspn(line, " \t\r\n") == (size_t) n) {
                continue;
            }
            tool_jsonl(ctx, name, no, line, (size_t) n);
        }

        free(line);
    }

    if (f != stdin) {
        fclose(f);
    }

    return rc;
}


static void
tool_summary(tool_ctx_t *ctx)
{
    size_t  i;
    double  d;

    d = behave_risk_default_threshold();

    fprintf(stderr, "behave-annotate: %zu messages, %zu skipped; critical "
            "at the default threshold (risk >= %.3f): %zu (%.3f%%)\n",
            ctx->messages, ctx->skipped, d, ctx->critical,
            ctx->messages ? 100.0 * ctx->critical / ctx->messages : 0.0);
    fprintf(stderr, "behave-annotate: routed at each threshold "
            "(behave_route risk>=T):\n");

    for (i = 0; i < ctx->nthr; i++) {
        fprintf(stderr, "  risk >= %.3f  %8zu  %7.3f%%\n", ctx->thr[i],
                ctx->count[i],
                ctx->messages ? 100.0 * ctx->count[i] / ctx->messages : 0.0);
    }
}


int
main(int argc, char **argv)
{
    int         i, rc, files;
    char       *end;
    double      t;
    tool_ctx_t  ctx;

    static const double  range[] = { 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6,
                                     0.7, 0.8, 0.9, 0.95 };

    memset(&ctx, 0, sizeof(ctx));
    ctx.thr[ctx.nthr++] = behave_risk_default_threshold();

    for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
        if (strcmp(argv[i], "-q") == 0) {
            ctx.quiet = 1;

        } else if (strcmp(argv[i], "--csv") == 0) {
            ctx.format = 'c';

        } else if (strcmp(argv[i], "--jsonl") == 0) {
            ctx.format = 'j';

        } else if (strcmp(argv[i], "--field") == 0 && i + 1 < argc) {
            ctx.field = argv[++i];

        } else if (strcmp(argv[i], "--threshold") == 0 && i + 1 < argc) {
            t = strtod(argv[++i], &end);
            if (*end != '\0' || !(t >= 0.0 && t <= 1.0)
                || ctx.nthr == TOOL_MAX_THRESHOLDS)
            {
                fprintf(stderr, "behave-annotate: --threshold takes a "
                        "number from 0 to 1\n");
                return 2;
            }
            ctx.thr[ctx.nthr++] = t;

        } else if (strcmp(argv[i], "-h") == 0
                   || strcmp(argv[i], "--help") == 0)
        {
            tool_usage();
            return 0;

        } else {
            tool_usage();
            return 2;
        }
    }

    for (size_t k = 0; k < sizeof(range) / sizeof(range[0])
                       && ctx.nthr < TOOL_MAX_THRESHOLDS; k++)
    {
        ctx.thr[ctx.nthr++] = range[k];
    }

    /* the default first, then the others in order */
    qsort(ctx.thr + 1, ctx.nthr - 1, sizeof(double), behave_cmp_double);

    rc = 0;
    files = 0;

    for ( ; i < argc; i++) {
        rc |= tool_file(&ctx, argv[i]);
        files++;
    }

    if (files == 0) {
        rc |= tool_file(&ctx, "-");
    }

    fflush(stdout);
    tool_summary(&ctx);

    return rc;
}
