/*
 * The conversation phrase index (behave_conv_index.h) against the plain
 * scan it replaces: for every phrase table and every kind of negation the
 * rules use, the index must find the same phrases (how many, and the
 * first) on
 *
 * - every phrase of every table as a text, alone and in the places where
 *   the matcher's word edges, negations, plans and questions decide
 *   ("so PHRASE now.", "not PHRASE", "i'll PHRASE?", "¿PHRASE", inside a
 *   longer word, upper case);
 * - every message and conversation turn of the repository's corpus and
 *   probes, and of the shared support data when it is there;
 * - a text with more candidates than the index keeps, which falls back
 *   to the scan.
 *
 * An index that missed a place a phrase can match would show here as a
 * count or a first phrase that differs.
 */

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tap.h"
#include "testdata.h"
#include "tools/behave_jsonl.h"
#include "conversation/behave_conv_scan.h"


static unsigned  texts, differ, unindexed;


/* one text: compared on every table; a difference is shown once */
static void
check(const char *text)
{
    int       indexed;
    unsigned  bad;

    bad = behave_conversation_index_check(text, strlen(text), &indexed);
    texts++;
    unindexed += !indexed;

    if (bad > 0 && differ++ < 10) {
        printf("#   index and scan differ on %u tables: \"%s\"\n", bad,
               text);
    }
}


static void
check_phrases(void)
{
    size_t       k, i;
    char         buf[512];
    const char  *p;
    static const char  *frames[] = {
        "%s", "so %s now.", "not %s", "i'll %s?", "\xc2\xbf%s",
        "\xc2\xa1%s!", "x%s", "%sx", "no, %s", "%s %s",
    };

    for (k = 0; (p = behave_conversation_phrase(k)) != NULL; k++) {
        for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
            snprintf(buf, sizeof(buf), frames[i], p, p);
            check(buf);
        }

        /* upper case: the text is lowercased before it is matched */
        snprintf(buf, sizeof(buf), "OK %s", p);
        for (i = 0; buf[i] != '\0'; i++) {
            buf[i] = (char) toupper((unsigned char) buf[i]);
        }
        check(buf);
    }

    ok(k > 800, "%zu phrases in the tables", k);
    ok(differ == 0, "index = scan on every phrase in %u texts", texts);
    ok(unindexed == 0, "the index answered for every phrase text (%u not)",
       unindexed);
}


static void
check_line(const cJSON *j, void *data)
{
    const cJSON  *e, *m;

    m = cJSON_GetObjectItem(j, "text");
    if (cJSON_IsString(m)) {
        check(m->valuestring);
    }

    cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "turns")) {
        m = cJSON_GetObjectItem(e, "message");
        if (cJSON_IsString(m)) {
            check(m->valuestring);
        }
    }
}


/* every "text" and every turn's "message" of a JSONL file; -1 if absent */
static int
check_file(const char *path)
{
    return behave_jsonl_each(path, check_line, NULL);
}


/* every JSONL file of the repository's corpus, and the probes */
static int
check_repo(void)
{
    int             n;
    char            dir[PATH_MAX], path[PATH_MAX + 256];
    DIR            *d;
    struct dirent  *de;

    n = 0;

    if (testdata_repo_path(dir, sizeof(dir), "data/corpus") != 0
        || (d = opendir(dir)) == NULL)
    {
        return 0;
    }

    while ((de = readdir(d)) != NULL) {
        if (strstr(de->d_name, ".jsonl") != NULL) {
            snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
            n += check_file(path) == 0;
        }
    }

    closedir(d);

    if (testdata_repo_path(path, sizeof(path), "t/data/conv-probes.jsonl")
        == 0)
    {
        n += check_file(path) == 0;
    }

    return n;
}


static void
check_corpus(void)
{
    int          n;
    char         path[PATH_MAX + 256];
    size_t       i;
    unsigned     before;
    static const char  *shared[] = {
        "../shared/data/support/conversations.jsonl",
        "../shared/data/support/messages.jsonl",
    };

    texts = 0;
    differ = 0;
    unindexed = 0;

    n = check_repo();
    ok(n > 20, "%d corpus files read, %u texts", n, texts);

    before = texts;

    for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++) {
        if (getenv("BEHAVE_DATA") != NULL) {
            /* BEHAVE_DATA is the shared data folder itself */
            snprintf(path, sizeof(path), "%s/%s", getenv("BEHAVE_DATA"),
                     shared[i] + sizeof("../shared/data/") - 1);

        } else if (testdata_repo_path(path, sizeof(path), shared[i]) != 0) {
            path[0] = '\0';
        }

        if (check_file(path) != 0) {
            skip("shared support data absent");
            break;
        }
    }

    if (i == sizeof(shared) / sizeof(shared[0])) {
        ok(texts > before, "%u shared support texts", texts - before);
    }

    ok(differ == 0, "index = scan on every corpus text");
    ok(unindexed == 0, "the index answered for every corpus text (%u not)",
       unindexed);
}


/* more candidates than kept: the scan answers, and still the same */
static void
check_overflow(void)
{
    int       indexed;
    char     *text;
    size_t    i, len;
    unsigned  bad;

    len = 0;
    text = malloc(4096);

    for (i = 0; len + 32 < 4096; i++) {
        len += (size_t) sprintf(text + len, "i don't know, not again. ");
    }

    bad = behave_conversation_index_check(text, len, &indexed);

    ok(!indexed, "a text of %zu repeated phrases falls back to the scan",
       i);
    is_int(bad, 0, "and the scan's answer is the one given");

    free(text);
}


int
main(void)
{
    check_phrases();
    check_corpus();
    check_overflow();

    return tap_done();
}
