/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Measures the annotator against the shared data sets, in process:
 *
 *   behave_eval [-v] [-f FLOORS] DATA_DIR
 *   behave_eval [-v] -c CONVERSATIONS.jsonl
 *
 * sentiment TSV files: Pearson r of scores.valence against the human mean and
 * 3-class accuracy (human: > 0.5 positive, < -0.5 negative on -4..4; ours:
 * the valence label cut points, score >= 0.30 positive, <= -0.25
 * negative).  support/messages.jsonl: exact and within-one accuracy per
 * dimension, confusion matrices, critical recall and false positives,
 * cultural tag precision and recall.  support/conversations.jsonl: each
 * conversation replayed turn by turn (the history of a turn is the turns
 * before it), precision and recall of each finding over the labelled turns
 * (true: a positive, false: a negative, absent: not counted) and the
 * accuracy of the recommended action.  With -f, exits 1 when a figure is
 * below its floor ("name value" lines).  -v lists every miss.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>
#include "text/behave_annotate.h"
#include "tools/behave_jsonl.h"
#include "conversation/behave_conversation.h"
#include "tools/behave_conv_case.h"
#include "conversation/behave_turn.h"


#define EVAL_MAX_FIG    64
#define EVAL_NFIND      3       /* boolean findings */


typedef struct {
    int         tp;
    int         fp;
    int         fn;
    int         tn;
} eval_pr_t;


typedef struct {
    char        name[64];
    double      value;
} eval_fig_t;


typedef struct {
    eval_fig_t  fig[EVAL_MAX_FIG];
    int         n;
    int         verbose;
} eval_t;


static void eval_add(eval_t *ev, const char *name, double v);
static int eval_sentiment(eval_t *ev, const char *dir, const char *file,
    const char *tag);
static int eval_support(eval_t *ev, const char *dir);
static void eval_conv_one(eval_t *ev, const cJSON *conv, eval_pr_t *pr,
    int *act_n, int *act_right);
static int eval_conversations(eval_t *ev, const char *path);
static int eval_floors(eval_t *ev, const char *path);
static double eval_now(void);


static const char  *eval_dims[5] = {
    "emotional_valence", "urgency_level", "cognitive_load",
    "engagement_state", "social_register"
};

static const char  *eval_short[5] = {
    "valence", "urgency", "load", "engagement", "register"
};

static const int  eval_nvalues[5] = { 4, 5, 4, 4, 4 };

static const char  *eval_findings[EVAL_NFIND] = {
    "false_resolution", "repetition", "escalating"
};


static double
eval_now(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}


static void
eval_add(eval_t *ev, const char *name, double v)
{
    if (ev->n < EVAL_MAX_FIG) {
        snprintf(ev->fig[ev->n].name, sizeof(ev->fig[ev->n].name), "%s",
                 name);
        ev->fig[ev->n].value = v;
        ev->n++;
    }
}


static int
eval_sentiment(eval_t *ev, const char *dir, const char *file,
    const char *tag)
{
    char                 path[4096], name[64], *buf, *line, *next, *t1, *t2;
    size_t               len;
    double               sx, sy, sxx, syy, sxy, x, y, r, t0, el;
    long                 n, right;
    int                  hc, oc;
    behave_annotation_t  a;

    snprintf(path, sizeof(path), "%s/sentiment/%s", dir, file);
    buf = behave_read_file(path, &len);
    if (buf == NULL) {
        printf("sentiment %-8s skipped (%s: %s)\n", tag, path,
               strerror(errno));
        return 0;
    }

    sx = sy = sxx = syy = sxy = 0;
    n = right = 0;
    el = 0;

    for (line = buf; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) {
            *next++ = '\0';
        }

        t1 = strchr(line, '\t');
        if (t1 == NULL) {
            continue;
        }
        t2 = strchr(t1 + 1, '\t');
        if (t2 == NULL) {
            continue;
        }

        y = strtod(t1 + 1, NULL);

        t0 = eval_now();
        behave_annotate(t2 + 1, strlen(t2 + 1), &a);
        el += eval_now() - t0;

        x = a.scores.valence;

        sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y;
        n++;

        hc = y > 0.5 ? 1 : (y < -0.5 ? -1 : 0);
        oc = x >= 0.30 ? 1 : (x <= -0.25 ? -1 : 0);
        right += hc == oc;

        if (ev->verbose > 1 && fabs(x * 4 - y) > 2.0) {
            printf("  miss %s human %+.2f ours %+.2f  %s\n", tag, y, x * 4,
                   t2 + 1);
        }
    }

    free(buf);

    if (n < 2) {
        return 0;
    }

    r = (n * sxy - sx * sy)
        / sqrt((n * sxx - sx * sx) * (n * syy - sy * sy));

    printf("sentiment %-8s n=%-5ld r=%.3f  3-class=%.3f  %.0f ns/msg\n",
           tag, n, r, (double) right / n, el / n * 1e9);

    snprintf(name, sizeof(name), "r_%s", tag);
    eval_add(ev, name, r);
    snprintf(name, sizeof(name), "class3_%s", tag);
    eval_add(ev, name, (double) right / n);

    return 0;
}


static int
eval_value_index(int dim, const char *s)
{
    int          i;
    const char  *name;

    for (i = 0; i < eval_nvalues[dim]; i++) {
        switch (dim) {
        case 0: name = behave_valence_name((behave_valence_e) i); break;
        case 1: name = behave_urgency_name((behave_urgency_e) i); break;
        case 2: name = behave_load_name((behave_load_e) i); break;
        case 3: name = behave_engagement_name((behave_engagement_e) i);
                break;
        default: name = behave_register_name((behave_register_e) i); break;
        }
        if (strcmp(name, s) == 0) {
            return i;
        }
    }

    return -1;
}


static const char *
eval_value_name(int dim, int i)
{
    switch (dim) {
    case 0: return behave_valence_name((behave_valence_e) i);
    case 1: return behave_urgency_name((behave_urgency_e) i);
    case 2: return behave_load_name((behave_load_e) i);
    case 3: return behave_engagement_name((behave_engagement_e) i);
    default: return behave_register_name((behave_register_e) i);
    }
}


/*
 * Within one level on the ordered scales.  Valence is not fully ordered:
 * positive < neutral < negative, and mixed is next to every value.
 * Register: formal < semi-formal < informal; crisis is next to none.
 */
static int
eval_within_one(int dim, int want, int got)
{
    static const int  vrank[4] = { 0, 1, 2, -1 };

    if (want == got) {
        return 1;
    }

    if (dim == 0) {
        if (want == BEHAVE_VALENCE_MIXED || got == BEHAVE_VALENCE_MIXED) {
            return 1;
        }
        return abs(vrank[want] - vrank[got]) <= 1;
    }

    if (dim == 4) {
        if (want == BEHAVE_REGISTER_CRISIS || got == BEHAVE_REGISTER_CRISIS)
        {
            return 0;
        }
    }

    return abs(want - got) <= 1;
}


static int
eval_got(const behave_annotation_t *a, int dim)
{
    switch (dim) {
    case 0: return a->valence;
    case 1: return a->urgency;
    case 2: return a->cognitive_load;
    case 3: return a->engagement;
    default: return a->social_register;
    }
}


static int
eval_support(eval_t *ev, const char *dir)
{
    char                 path[4096], *buf, *line, *next, name[64], tbuf[16];
    const char          *tags[8];
    size_t               len, nt, i, j;
    int                  d, want, got, n, exact[5], near[5];
    int                  conf[5][5][5], crit_n, crit_hit, crit_fp;
    int                  tag_tp, tag_fp, tag_fn, found;
    cJSON               *msg, *text, *v, *ctx, *it;
    behave_annotation_t  a;

    snprintf(path, sizeof(path), "%s/support/messages.jsonl", dir);
    buf = behave_read_file(path, &len);
    if (buf == NULL) {
        printf("support messages skipped (%s: %s)\n", path,
               strerror(errno));
        return 0;
    }

    memset(exact, 0, sizeof(exact));
    memset(near, 0, sizeof(near));
    memset(conf, 0, sizeof(conf));
    n = crit_n = crit_hit = crit_fp = 0;
    tag_tp = tag_fp = tag_fn = 0;

    for (line = buf; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) {
            *next++ = '\0';
        }

        msg = cJSON_Parse(line);
        if (msg == NULL) {
            continue;
        }

        text = cJSON_GetObjectItem(msg, "text");
        if (!cJSON_IsString(text)) {
            cJSON_Delete(msg);
            continue;
        }

        behave_annotate(text->valuestring, strlen(text->valuestring), &a);
        n++;

        for (d = 0; d < 5; d++) {
            v = cJSON_GetObjectItem(msg, eval_dims[d]);
            want = cJSON_IsString(v) ? eval_value_index(d, v->valuestring)
                                     : -1;
            if (want < 0) {
                continue;
            }

            got = eval_got(&a, d);
            exact[d] += want == got;
            near[d] += eval_within_one(d, want, got);
            conf[d][want][got]++;

            if (d == 1) {
                if (want == BEHAVE_URGENCY_CRITICAL) {
                    crit_n++;
                    crit_hit += got == BEHAVE_URGENCY_CRITICAL;
                } else if (got == BEHAVE_URGENCY_CRITICAL) {
                    crit_fp++;
                }
            }

            if (ev->verbose && want != got) {
                printf("  %-4s %-10s want %-11s got %-11s | %.90s\n",
                       cJSON_GetObjectItem(msg, "id")->valuestring,
                       eval_short[d], eval_value_name(d, want),
                       eval_value_name(d, got), text->valuestring);
            }
        }

        nt = behave_cultural_tags(&a, tags, 8, tbuf, sizeof(tbuf));
        ctx = cJSON_GetObjectItem(msg, "cultural_context");

        for (i = 0; i < nt; i++) {
            found = 0;
            cJSON_ArrayForEach(it, ctx) {
                if (cJSON_IsString(it) && strcmp(it->valuestring, tags[i]) == 0)
                {
                    found = 1;
                }
            }
            if (found) {
                tag_tp++;
            } else {
                tag_fp++;
                if (ev->verbose) {
                    printf("  %-4s tag extra %s | %.90s\n",
                           cJSON_GetObjectItem(msg, "id")->valuestring,
                           tags[i], text->valuestring);
                }
            }
        }

        cJSON_ArrayForEach(it, ctx) {
            found = 0;
            for (j = 0; j < nt; j++) {
                if (cJSON_IsString(it) && strcmp(it->valuestring, tags[j]) == 0)
                {
                    found = 1;
                }
            }
            if (!found) {
                tag_fn++;
                if (ev->verbose) {
                    printf("  %-4s tag missing %s | %.90s\n",
                           cJSON_GetObjectItem(msg, "id")->valuestring,
                           it->valuestring, text->valuestring);
                }
            }
        }

        cJSON_Delete(msg);
    }

    free(buf);

    if (n == 0) {
        printf("support messages: none read\n");
        return 0;
    }

    printf("\nsupport messages n=%d\n", n);
    printf("  %-11s %7s %10s\n", "dimension", "exact", "within-1");

    for (d = 0; d < 5; d++) {
        printf("  %-11s %7.3f %10.3f\n", eval_short[d],
               (double) exact[d] / n, (double) near[d] / n);
        snprintf(name, sizeof(name), "exact_%s", eval_short[d]);
        eval_add(ev, name, (double) exact[d] / n);
        snprintf(name, sizeof(name), "within1_%s", eval_short[d]);
        eval_add(ev, name, (double) near[d] / n);
    }

    for (d = 0; d < 5; d++) {
        printf("\n  confusion %s (rows: expected, columns: ours)\n  %-12s",
               eval_short[d], "");
        for (j = 0; j < (size_t) eval_nvalues[d]; j++) {
            printf(" %11.11s", eval_value_name(d, (int) j));
        }
        printf("\n");
        for (i = 0; i < (size_t) eval_nvalues[d]; i++) {
            printf("  %-12s", eval_value_name(d, (int) i));
            for (j = 0; j < (size_t) eval_nvalues[d]; j++) {
                printf(" %11d", conf[d][i][j]);
            }
            printf("\n");
        }
    }

    printf("\n  critical: recall %d/%d, false positives %d\n", crit_hit,
           crit_n, crit_fp);
    eval_add(ev, "critical_recall", crit_n ? (double) crit_hit / crit_n : 1);
    eval_add(ev, "critical_fp_neg", -crit_fp);

    printf("  cultural tags: precision %.3f, recall %.3f (tp %d fp %d fn %d)"
           "\n", tag_tp + tag_fp ? (double) tag_tp / (tag_tp + tag_fp) : 1,
           tag_tp + tag_fn ? (double) tag_tp / (tag_tp + tag_fn) : 1,
           tag_tp, tag_fp, tag_fn);
    eval_add(ev, "tags_precision",
             tag_tp + tag_fp ? (double) tag_tp / (tag_tp + tag_fp) : 1);
    eval_add(ev, "tags_recall",
             tag_tp + tag_fn ? (double) tag_tp / (tag_tp + tag_fn) : 1);

    return 0;
}


/*
 * One conversation: every turn annotated once, then each labelled turn
 * assessed with the turns before it as its history, as the module does
 * when the turns arrive one by one.
 */
static void
eval_conv_one(eval_t *ev, const cJSON *conv, eval_pr_t *pr, int *act_n,
    int *act_right)
{
    int                    i, t, k, want, got;
    cJSON                 *e, *w;
    behave_conv_case_t     cc;
    behave_conv_result_t   r;

    if (behave_conv_case(conv, &cc) != 0) {
        return;
    }

    cJSON_ArrayForEach(e, cc.expect) {
        t = behave_conv_case_assess(&cc, e, &r);
        if (t < 0) {
            continue;
        }

        for (k = 0; k < EVAL_NFIND; k++) {
            w = cJSON_GetObjectItem(e, eval_findings[k]);
            if (!cJSON_IsBool(w)) {
                continue;
            }

            want = cJSON_IsTrue(w);
            got = k == 0 ? r.false_resolution
                  : (k == 1 ? r.repetition : r.escalating);
            got = !!got;

            pr[k].tp += want && got;
            pr[k].fp += !want && got;
            pr[k].fn += want && !got;
            pr[k].tn += !want && !got;

            /* -v: the misses; -v -v -v: every labelled finding */
            if (ev->verbose && (want != got || ev->verbose > 2)) {
                printf("  %-4s turn %-2d %-16s want %-5s got %-5s "
                       "(sim %.2f sev", cc.id, t, eval_findings[k],
                       want ? "true" : "false", got ? "true" : "false",
                       r.repetition_similarity);
                for (i = 0; i <= t; i++) {
                    if (cc.tv[i].speaker == BEHAVE_SPEAKER_CUSTOMER) {
                        printf(" %d", cc.tv[i].severity);
                    }
                }
                printf(") | %.70s\n", cc.tv[t].text);
            }
        }

        w = cJSON_GetObjectItem(e, "action");
        if (cJSON_IsString(w)) {
            (*act_n)++;

            if (strcmp(w->valuestring, behave_action_name(r.action)) == 0) {
                (*act_right)++;
            }

            /* -v: the wrong actions; -v -v -v: every one, with why */
            if (ev->verbose
                && (ev->verbose > 2
                    || strcmp(w->valuestring,
                              behave_action_name(r.action)) != 0))
            {
                printf("  %-4s turn %-2d %-16s want %-8s got %-8s | %.70s"
                       "\n", cc.id, t, "action", w->valuestring,
                       behave_action_name(r.action), cc.tv[t].text);
                if (ev->verbose > 1) {
                    printf("        (%s)\n", r.reason);
                }
            }
        }
    }
}


/*
 * Precision over the turns where we report a finding, recall over the
 * turns labelled with it; with nothing to divide by a figure is 1 (no
 * false alarm, nothing missed), and the counts say so.
 */
typedef struct {
    eval_t      *ev;
    eval_pr_t    pr[EVAL_NFIND];
    int          nconv;
    int          act_n;
    int          act_right;
} eval_convs_t;


static void
eval_conv_line(const cJSON *conv, void *data)
{
    eval_convs_t  *c = data;

    eval_conv_one(c->ev, conv, c->pr, &c->act_n, &c->act_right);
    c->nconv++;
}


static int
eval_conversations(eval_t *ev, const char *path)
{
    char           name[64];
    int            k, nconv, act_n, act_right;
    double         p, rc;
    eval_pr_t     *pr;
    eval_convs_t   c;

    memset(&c, 0, sizeof(c));
    c.ev = ev;

    if (behave_jsonl_each(path, eval_conv_line, &c) != 0) {
        printf("\nconversations skipped (%s: %s)\n", path, strerror(errno));
        return 0;
    }

    pr = c.pr;
    nconv = c.nconv;
    act_n = c.act_n;
    act_right = c.act_right;

    if (nconv == 0) {
        printf("\nconversations: none read\n");
        return 0;
    }

    printf("\nconversations n=%d (labelled turns, history = earlier turns)"
           "\n", nconv);
    printf("  %-17s %4s %4s %4s %4s %10s %8s\n", "finding", "tp", "fp",
           "fn", "tn", "precision", "recall");

    for (k = 0; k < EVAL_NFIND; k++) {
        p = pr[k].tp + pr[k].fp ? (double) pr[k].tp / (pr[k].tp + pr[k].fp)
                                : 1;
        rc = pr[k].tp + pr[k].fn ? (double) pr[k].tp / (pr[k].tp + pr[k].fn)
                                 : 1;

        printf("  %-17s %4d %4d %4d %4d %10.3f %8.3f\n", eval_findings[k],
               pr[k].tp, pr[k].fp, pr[k].fn, pr[k].tn, p, rc);

        snprintf(name, sizeof(name), "conv_%s_p", eval_findings[k]);
        eval_add(ev, name, p);
        snprintf(name, sizeof(name), "conv_%s_r", eval_findings[k]);
        eval_add(ev, name, rc);
    }

    printf("  action accuracy %.3f (%d/%d)\n",
           act_n ? (double) act_right / act_n : 1, act_right, act_n);
    eval_add(ev, "conv_action_acc", act_n ? (double) act_right / act_n : 1);

    return 0;
}


static int
eval_floors(eval_t *ev, const char *path)
{
    FILE    *f;
    char     line[256], name[64];
    double   floor;
    int      i, bad, seen;

    f = fopen(path, "r");
    if (f == NULL) {
        printf("floors: %s: %s\n", path, strerror(errno));
        return 1;
    }

    bad = 0;

    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#' || sscanf(line, "%63s %lf", name, &floor) != 2) {
            continue;
        }

        seen = 0;
        for (i = 0; i < ev->n; i++) {
            if (strcmp(ev->fig[i].name, name) != 0) {
                continue;
            }
            seen = 1;
            if (ev->fig[i].value < floor) {
                printf("BELOW FLOOR: %s = %.3f < %.3f\n", name,
                       ev->fig[i].value, floor);
                bad = 1;
            }
        }

        (void) seen;   /* a figure not measured (data missing) is skipped */
    }

    fclose(f);
    return bad;
}


int
main(int argc, char **argv)
{
    int          i;
    char         path[4096];
    const char  *dir, *floors, *conv;
    eval_t       ev;

    memset(&ev, 0, sizeof(ev));
    dir = NULL;
    floors = NULL;
    conv = NULL;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0) {
            ev.verbose++;
        } else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc) {
            floors = argv[++i];
        } else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
            conv = argv[++i];
        } else {
            dir = argv[i];
        }
    }

    if (conv != NULL) {
        /* only the conversations of one file (scripts/eval-corpus) */
        eval_conversations(&ev, conv);
        return 0;
    }

    if (dir == NULL) {
        dir = getenv("BEHAVE_DATA");
    }

    if (dir == NULL) {
        fprintf(stderr, "usage: behave_eval [-v] [-f FLOORS] DATA_DIR\n");
        return 2;
    }

    eval_sentiment(&ev, dir, "tweets_GroundTruth.tsv", "tweets");
    eval_sentiment(&ev, dir, "amazonReviewSnippets_GroundTruth.tsv",
                   "amazon");
    eval_support(&ev, dir);

    snprintf(path, sizeof(path), "%s/support/conversations.jsonl", dir);
    eval_conversations(&ev, path);

    printf("\nsummary\n");
    for (i = 0; i < ev.n; i++) {
        printf("  %-24s %8.3f\n", ev.fig[i].name, ev.fig[i].value);
    }

    if (floors != NULL && eval_floors(&ev, floors)) {
        return 1;
    }

    return 0;
}
