/*
 * Replays the labelled conversations of the shared data set
 * (support/conversations.jsonl) through the annotator and the
 * conversation logic, one TAP line per expectation.
 *
 * The data directory is argv[1], else $BEHAVE_DATA, else
 * <repo>/../shared/data with <repo> found from the executable's path
 * (build/core/test_... lives two levels below it).  Missing data skips.
 *
 * Findings depend on the annotator, which is still being tuned, so a
 * failing expectation is reported as "not ok ... # TODO" and the test asserts
 * only a floor on the share that holds (BEHAVE_DATA_FLOOR).  The floor is
 * what the conversation logic reaches with a neutral annotator (its own
 * phrases and surface cues alone): raising the annotator can only help.
 */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "tap.h"
#include "testdata.h"
#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"
#include "tools/behave_conv_case.h"
#include "conversation/behave_turn.h"


#define BEHAVE_DATA_FILE   "support/conversations.jsonl"
#define BEHAVE_DATA_FLOOR  0.80


static int  held, total;


static int
find_data(int argc, char **argv, char *path, size_t len)
{
    const char  *env;

    if (argc > 1) {
        if (strstr(argv[1], ".jsonl") != NULL) {
            snprintf(path, len, "%s", argv[1]);
        } else {
            snprintf(path, len, "%s/%s", argv[1], BEHAVE_DATA_FILE);
        }
        return 0;
    }

    env = getenv("BEHAVE_DATA");
    if (env != NULL && env[0]) {
        snprintf(path, len, "%s/%s", env, BEHAVE_DATA_FILE);
        return 0;
    }

    return testdata_repo_path(path, len, "../shared/data/" BEHAVE_DATA_FILE);
}


static void
check_bool(const char *id, int turn, const char *what, cJSON *want, int got,
    const behave_conv_result_t *r)
{
    int  pass;

    if (!cJSON_IsBool(want)) {
        return;
    }

    pass = cJSON_IsTrue(want) == !!got;
    total++;
    held += pass;

    printf("%sok %d - %s turn %d %s=%s%s\n", pass ? "" : "not ", ++tap_run,
           id, turn, what,
           cJSON_IsTrue(want) ? "true" : "false",
           pass ? "" : " # TODO annotator or rules");
    if (!pass) {
        printf("#   got %d; sim %.3f sev %d action %s: %s\n", got,
               r->repetition_similarity, r->peak_severity,
               behave_action_name(r->action), r->reason);
    }
}


static void
replay(cJSON *conv)
{
    int                    t, i;
    cJSON                 *e, *want;
    behave_conv_case_t     cc;
    behave_conv_result_t   r;

    if (behave_conv_case(conv, &cc) != 0) {
        return;
    }

    if (getenv("BEHAVE_DATA_VERBOSE")) {
        for (i = 0; i < cc.nt; i++) {
            if (cc.tv[i].speaker == BEHAVE_SPEAKER_CUSTOMER) {
                behave_conversation_assess(cc.tv, (size_t) i, &cc.tv[i], &r);
                printf("# %s %d sev=%d sim=%.3f rep=%d fr=%d esc=%d "
                       "action=%s review=%s rcr=%d\n", cc.id, i,
                       cc.tv[i].severity,
                       r.repetition_similarity, r.repetition,
                       r.false_resolution, r.escalating,
                       behave_action_name(r.action),
                       behave_review_name(r.review_status),
                       r.repeat_contact_risk);
            }
        }
    }

    cJSON_ArrayForEach(e, cc.expect) {
        t = behave_conv_case_assess(&cc, e, &r);
        if (t < 0) {
            continue;
        }

        check_bool(cc.id, t, "false_resolution",
                   cJSON_GetObjectItem(e, "false_resolution"),
                   r.false_resolution, &r);
        check_bool(cc.id, t, "repetition", cJSON_GetObjectItem(e, "repetition"),
                   r.repetition, &r);
        check_bool(cc.id, t, "escalating", cJSON_GetObjectItem(e, "escalating"),
                   r.escalating, &r);

        want = cJSON_GetObjectItem(e, "action");
        if (cJSON_IsString(want)) {
            int  pass = strcmp(want->valuestring,
                               behave_action_name(r.action)) == 0;
            total++;
            held += pass;
            printf("%sok %d - %s turn %d action=%s%s\n", pass ? "" : "not ",
                   ++tap_run, cc.id, t,
                   want->valuestring,
                   pass ? "" : " # TODO annotator or rules");
            if (!pass) {
                printf("#   got %s: %s\n", behave_action_name(r.action),
                       r.reason);
            }
        }
    }
}


int
main(int argc, char **argv)
{
    char    path[PATH_MAX + 64], line[65536];
    FILE   *f;
    cJSON  *conv;

    /* tap.h helpers this file has no use for */

    if (find_data(argc, argv, path, sizeof(path)) != 0
        || (f = fopen(path, "r")) == NULL)
    {
        skip("no shared data");
        return tap_done();
    }

    while (fgets(line, sizeof(line), f) != NULL) {
        conv = cJSON_Parse(line);
        if (conv == NULL) {
            continue;
        }
        replay(conv);
        cJSON_Delete(conv);
    }

    fclose(f);

    printf("# conversation expectations holding: %d / %d\n", held, total);

    ok(total > 0 && held >= BEHAVE_DATA_FLOOR * total,
       "at least %.0f%% of the expectations hold (%d / %d)",
       BEHAVE_DATA_FLOOR * 100, held, total);

    return tap_done();
}
