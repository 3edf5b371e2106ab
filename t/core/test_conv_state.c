/*
 * A conversation's state (behave_conv_state.h), both ways: every turn of
 * every labelled conversation (the shared support set, the project's
 * data/corpus conv-*.jsonl and blind-conv.jsonl, and all of them back to
 * back as one long chat) is assessed from the stored state of the turns
 * before it, as the endpoint does (live turn, state encoded and decoded
 * between turns), and from full history decoded from the turn log
 * records; every field of the result must agree.  Plus the stored form:
 * size bound, round trip, rejection of corrupt states.
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
#include "conversation/behave_conv_state.h"
#include "conversation/behave_turn.h"


#define MAX_TURNS  400
#define LONG_STEP  7


static behave_turn_t   live[MAX_TURNS], logged[MAX_TURNS];
static char           *texts[MAX_TURNS];
static char            enc[MAX_TURNS][BEHAVE_CONV_SCAN_MAX + 512];
static int             nlive;
static int             compared, differ, convs;


static int
same_result(const behave_conv_result_t *a, const behave_conv_result_t *b)
{
    return a->prior_turns == b->prior_turns
           && a->false_resolution == b->false_resolution
           && strcmp(a->false_resolution_reason,
                     b->false_resolution_reason) == 0
           && a->repeat_contact_risk == b->repeat_contact_risk
           && a->repetition == b->repetition
           && a->repetition_similarity == b->repetition_similarity
           && a->escalating == b->escalating
           && a->peak_severity == b->peak_severity
           && a->action == b->action
           && strcmp(a->reason, b->reason) == 0
           && a->safe_response_guidance == b->safe_response_guidance
           && a->review_status == b->review_status
           && a->degraded == b->degraded
           && strcmp(a->degraded_reason, b->degraded_reason) == 0
           && a->claim_turn == b->claim_turn
           && a->repeated_turn == b->repeated_turn;
}


/* a turn as the log gives it back: its stored record decoded */
static void
relog(int i)
{
    size_t  n;

    n = behave_turn_encode(&live[i], enc[i], sizeof(enc[i]));

    if (n == 0 || behave_turn_decode(enc[i], n, &logged[i]) != 0) {
        logged[i] = live[i];
        printf("# turn %d does not round-trip through the log\n", i);
        differ++;
    }
}


static void
add_turn(const char *speaker, const char *text)
{
    behave_annotation_t  a;

    if (nlive >= MAX_TURNS) {
        return;
    }

    texts[nlive] = strdup(text);
    behave_annotate(text, strlen(text), &a);
    behave_turn_from_annotation(&live[nlive],
        strcmp(speaker, "agent") == 0 ? BEHAVE_SPEAKER_AGENT
                                      : BEHAVE_SPEAKER_CUSTOMER,
        texts[nlive], strlen(text), &a, (uint64_t) nlive * 1000);
    relog(nlive);
    nlive++;
}


static void
reset(void)
{
    int  i;

    for (i = 0; i < nlive; i++) {
        free(texts[i]);
    }

    nlive = 0;
}


/* both ways at every step-th turn; returns how many turns disagreed */
static int
replay(const char *name, int step)
{
    int                   i, bad;
    char                  buf[BEHAVE_CONV_STATE_MAX];
    size_t                len;
    behave_conv_rec_t     rec;
    behave_conv_state_t   st;
    behave_conv_result_t  inc, full;

    bad = 0;
    len = 0;

    for (i = 0; i < nlive; i++) {
        if (len == 0) {
            behave_conv_state_init(&st);

        } else if (behave_conv_state_decode(buf, len, &st) != 0) {
            printf("# %s turn %d: the stored state does not decode\n", name,
                   i);
            return bad + 1;
        }

        behave_conversation_record(&live[i], &rec);
        behave_conversation_assess_state(&st, &rec, &inc);
        behave_conv_state_push(&st, &rec);
        len = behave_conv_state_encode(&st, buf);

        if (i % step != 0 && i != nlive - 1) {
            continue;
        }

        behave_conversation_assess(logged, (size_t) i, &logged[i], &full);
        compared++;

        if (!same_result(&inc, &full)) {
            bad++;
            printf("# %s turn %d differs:\n#   incremental %s %.3f: %s\n"
                   "#   full        %s %.3f: %s\n", name, i,
                   behave_action_name(inc.action), inc.repetition_similarity,
                   inc.reason, behave_action_name(full.action),
                   full.repetition_similarity, full.reason);
        }
    }

    return bad;
}


static void
add_conv(cJSON *conv)
{
    cJSON       *turns, *e, *msg, *spk;

    turns = cJSON_GetObjectItem(conv, "turns");

    cJSON_ArrayForEach(e, turns) {
        msg = cJSON_GetObjectItem(e, "message");
        spk = cJSON_GetObjectItem(e, "speaker");

        if (cJSON_IsString(msg) && cJSON_IsString(spk)) {
            add_turn(spk->valuestring, msg->valuestring);
        }
    }
}


/* each conversation of a file both ways; the long chat gathers them */
static int
replay_file(const char *path, cJSON *all)
{
    FILE   *f;
    char   *line;
    int     n, bad;
    cJSON  *conv, *id;

    f = fopen(path, "r");
    if (f == NULL) {
        printf("# %s: absent, skipped\n", path);
        return -1;
    }

    line = malloc(1 << 20);
    n = 0;
    bad = 0;

    while (line != NULL && fgets(line, 1 << 20, f) != NULL) {
        conv = cJSON_Parse(line);
        if (conv == NULL) {
            continue;
        }

        id = cJSON_GetObjectItem(conv, "id");
        reset();
        add_conv(conv);
        bad += replay(cJSON_IsString(id) ? id->valuestring : "?", 1);
        n++;
        convs++;

        cJSON_AddItemToArray(all, cJSON_Duplicate(
            cJSON_GetObjectItem(conv, "turns"), 1));
        cJSON_Delete(conv);
    }

    free(line);
    fclose(f);

    ok(n > 0 && bad == 0, "%s: %d conversations, every turn alike both ways "
       "(%d differ)", path, n, bad);

    return n;
}


static void
test_data(void)
{
    int          bad, files;
    char         path[PATH_MAX + 64];
    cJSON       *all, *turns, *e, *msg, *spk;
    const char  *env;

    static const char  *corpus[] = { "data/corpus/conv-a.jsonl",
                                     "data/corpus/conv-b.jsonl",
                                     "data/corpus/blind-conv.jsonl" };
    size_t  i;

    all = cJSON_CreateArray();
    files = 0;

    env = getenv("BEHAVE_DATA");
    if (env != NULL && env[0]) {
        snprintf(path, sizeof(path), "%s/support/conversations.jsonl", env);

    } else if (testdata_repo_path(path, sizeof(path),
                                  "../shared/data/support/conversations.jsonl")
               != 0)
    {
        path[0] = '\0';
    }

    if (path[0] && replay_file(path, all) >= 0) {
        files++;
    }

    for (i = 0; i < sizeof(corpus) / sizeof(corpus[0]); i++) {
        if (testdata_repo_path(path, sizeof(path), corpus[i]) == 0
            && replay_file(path, all) >= 0)
        {
            files++;
        }
    }

    ok(files >= 3, "the project's own conversation sets were found (%d "
       "files)", files);

    /* all of them back to back: a chat far longer than any window */
    reset();

    cJSON_ArrayForEach(turns, all) {
        cJSON_ArrayForEach(e, turns) {
            msg = cJSON_GetObjectItem(e, "message");
            spk = cJSON_GetObjectItem(e, "speaker");

            if (cJSON_IsString(msg) && cJSON_IsString(spk)) {
                add_turn(spk->valuestring, msg->valuestring);
            }
        }
    }

    bad = replay("long chat", LONG_STEP);

    ok(nlive >= 300 && bad == 0, "one chat of %d turns, every %dth turn "
       "alike both ways (%d differ)", nlive, LONG_STEP, bad);

    printf("# %d conversations, %d turns compared both ways\n", convs,
           compared);

    cJSON_Delete(all);
}


static void
test_stored_form(void)
{
    int                   i, bad;
    char                  buf[BEHAVE_CONV_STATE_MAX];
    char                  again[BEHAVE_CONV_STATE_MAX];
    size_t                len, len2;
    behave_conv_rec_t     rec;
    behave_conv_state_t   st, st2;

    ok(BEHAVE_CONV_STATE_MAX <= 1536, "a state is at most 1.5 KB (%d bytes)",
       (int) BEHAVE_CONV_STATE_MAX);

    behave_conv_state_init(&st);
    len = behave_conv_state_encode(&st, buf);
    is_int((long long) len, BEHAVE_CONV_HEADER_SIZE, "empty state: a header");

    for (i = 0; i < nlive; i++) {
        behave_conversation_record(&live[i], &rec);
        behave_conv_state_push(&st, &rec);
    }

    len = behave_conv_state_encode(&st, buf);
    is_int((long long) len, BEHAVE_CONV_STATE_MAX,
           "after %d turns the state is full size, no more", nlive);
    ok(st.turns == (uint32_t) nlive && st.nrec == BEHAVE_CONV_RING,
       "it counts every turn (%u) and keeps %u records", st.turns, st.nrec);

    ok(behave_conv_state_decode(buf, len, &st2) == 0, "it decodes");
    len2 = behave_conv_state_encode(&st2, again);
    ok(len2 == len && memcmp(buf, again, len) == 0,
       "encode(decode(s)) == s");

    bad = 0;
    for (i = 0; i < (int) len; i++) {
        if (behave_conv_state_decode(buf, (size_t) i, &st2) == 0) {
            bad++;
        }
    }
    ok(bad == 0, "every truncation is rejected (%d accepted)", bad);

    memcpy(again, buf, len);
    again[1] = '3';
    ok(behave_conv_state_decode(again, len, &st2) != 0,
       "another version is rejected");

    memcpy(again, buf, len);
    again[5] = 'G';
    ok(behave_conv_state_decode(again, len, &st2) != 0,
       "a bad hex digit is rejected");

    memcpy(again, buf, len);
    again[18] = '9';
    ok(behave_conv_state_decode(again, len, &st2) != 0,
       "a peak severity above 4 is rejected");

    ok(behave_conv_state_decode(NULL, 0, &st2) != 0, "NULL is rejected");

    /* a tail (the review's mark) after the state: the size finds it */
    {
        char  tailed[BEHAVE_CONV_STATE_MAX + 32];

        memcpy(tailed, buf, len);
        memcpy(tailed + len, "0123456789abcdef0", 17);
        is_int((long long) behave_conv_state_size(tailed, len + 17),
               (long long) len, "the size ends before the tail");
        is_int((long long) behave_conv_state_size(buf, len), (long long) len,
               "no tail: the whole");
        is_int((long long) behave_conv_state_size(buf, len - 1), 0,
               "shorter than its header says: 0");
        is_int((long long) behave_conv_state_size(again, 10), 0,
               "shorter than a header: 0");
        ok(behave_conv_state_decode(tailed, len + 17, &st2) != 0,
           "the decoder takes the state alone");
        behave_conv_state_init(&st2);
        len2 = behave_conv_state_encode(&st2, again);
        is_int((long long) behave_conv_state_size(again, len2),
               BEHAVE_CONV_HEADER_SIZE, "an empty state: its header");
    }
}


int
main(void)
{
    test_data();
    test_stored_form();
    reset();

    return tap_done();
}
