/*
 * A chat request's conversation findings (behave_chat.c) are /v1/analyze's
 * (behave_conversation_assess() over the same turns, which t/011 holds
 * to the endpoint): every customer turn of the corpus' written
 * conversations, as a chat request in each format, with the memo, with a
 * memo of one set of four slots that every turn takes over, and with
 * none.  Also SipHash's published vectors and the memo's keys and sets.
 */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "tap.h"
#include "testdata.h"
#include "text/behave_annotate.h"
#include "conversation/behave_chat.h"
#include "conversation/behave_conversation.h"
#include "text/behave_extract.h"
#include "base/behave_siphash.h"
#include "conversation/behave_turn.h"
#include "conversation/behave_turn_memo.h"


#define MAX_TURNS  64
#define FORMATS    4
#define POOL_MAX   4000
#define LONG_CHATS 80


typedef struct {
    char                  *text;
    int                    agent;
} pool_turn_t;


static behave_turn_t        tv[MAX_TURNS];
static behave_turn_memo_t  *memo_big, *memo_one;
static int                  compared, differ, formats_seen[FORMATS];
static int                  requests;
static pool_turn_t          pool[POOL_MAX];
static size_t               npool;


static void
test_siphash(void)
{
    unsigned char  key[16], msg[64];
    size_t         i;

    for (i = 0; i < sizeof(key); i++) {
        key[i] = (unsigned char) i;
    }

    for (i = 0; i < sizeof(msg); i++) {
        msg[i] = (unsigned char) i;
    }

    /* the reference implementation's vectors.h, entries 0, 7, 8, 15, 63 */
    ok(behave_siphash(key, msg, 0) == 0x726fdb47dd0e0e31ULL, "siphash: 0");
    ok(behave_siphash(key, msg, 7) == 0xab0200f58b01d137ULL, "siphash: 7");
    ok(behave_siphash(key, msg, 8) == 0x93f5f5799a932462ULL, "siphash: 8");
    ok(behave_siphash(key, msg, 15) == 0xa129ca6149be45e5ULL,
       "siphash: 15 (the paper's example)");
    ok(behave_siphash(key, msg, 63) == 0x958a324ceb064572ULL, "siphash: 63");
}


static void
test_memo(void)
{
    behave_conv_rec_t               rec;
    behave_turn_memo_t             *m;
    behave_turn_memo_key_t          k;
    const behave_turn_memo_slot_t  *s;

    m = behave_turn_memo_create(1000);
    ok(m != NULL && m->mask == 508,
       "memo: rounded down to a power of two, in sets of four");

    memset(&rec, 0, sizeof(rec));
    rec.severity = 3;

    ok(behave_turn_memo_get(m, 0, "hello", 5, &k) == NULL, "memo: a miss");
    behave_turn_memo_put(m, &k, BEHAVE_URGENCY_HIGH, 1, &rec);

    s = behave_turn_memo_get(m, 0, "hello", 5, &k);
    ok(s != NULL && s->urgency == BEHAVE_URGENCY_HIGH
       && s->rec.severity == 3, "memo: found again");
    ok(behave_turn_memo_get(m, 1, "hello", 5, &k) == NULL,
       "memo: the other role is another turn");
    ok(behave_turn_memo_get(m, 0, "hello", 4, &k) == NULL,
       "memo: another text is another turn");
    is_int(m->hits, 1, "memo: hits counted");
    is_int(m->misses, 3, "memo: misses counted");

    behave_turn_memo_free(m);

    /* one set: the fifth turn takes the slot used least recently */
    m = behave_turn_memo_create(1);
    ok(m != NULL && m->mask == 0, "memo: a set at least");

    (void) behave_turn_memo_get(m, 0, "one", 3, &k);
    behave_turn_memo_put(m, &k, BEHAVE_URGENCY_LOW, 1, &rec);
    (void) behave_turn_memo_get(m, 0, "two", 3, &k);
    behave_turn_memo_put(m, &k, BEHAVE_URGENCY_LOW, 1, &rec);
    (void) behave_turn_memo_get(m, 0, "three", 5, &k);
    behave_turn_memo_put(m, &k, BEHAVE_URGENCY_LOW, 1, &rec);
    (void) behave_turn_memo_get(m, 1, "four", 4, &k);
    behave_turn_memo_put(m, &k, BEHAVE_URGENCY_LOW, 1, &rec);
    ok(behave_turn_memo_get(m, 0, "one", 3, &k) != NULL
       && behave_turn_memo_get(m, 1, "four", 4, &k) != NULL,
       "memo: the four turns of a set kept");
    (void) behave_turn_memo_get(m, 0, "five", 4, &k);
    behave_turn_memo_put(m, &k, BEHAVE_URGENCY_LOW, 1, &rec);
    ok(behave_turn_memo_get(m, 0, "one", 3, &k) != NULL,
       "memo: a turn used again is kept");
    ok(behave_turn_memo_get(m, 0, "two", 3, &k) == NULL,
       "memo: the turn used least recently made room");
    ok(behave_turn_memo_get(m, 0, "three", 5, &k) != NULL
       && behave_turn_memo_get(m, 0, "five", 4, &k) != NULL,
       "memo: the others and the new turn are there");

    behave_turn_memo_free(m);
}


/* {k1: v1, k2: v2} appended to the array list */

static void
add_pair(cJSON *list, const char *k1, const char *v1, const char *k2,
    const char *v2)
{
    cJSON  *o;

    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, k1, v1);
    cJSON_AddStringToObject(o, k2, v2);
    cJSON_AddItemToArray(list, o);
}


/* turns 0..k of a conversation as a chat request body, in format f */

static cJSON *
chat_body(int k, int f)
{
    int     i;
    cJSON  *root, *list, *e, *parts;

    root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "model", "m");

    if (f == 3) {
        list = cJSON_AddArrayToObject(root, "input");
        add_pair(list, "role", "developer", "content",
                 "You are a support agent.");

    } else {
        if (f == 2) {
            cJSON_AddStringToObject(root, "system", "You are kind.");
        }

        list = cJSON_AddArrayToObject(root, "messages");

        if (f == 0) {
            add_pair(list, "role", "system", "content", "You are helpful.");
        }
    }

    for (i = 0; i <= k; i++) {
        e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "role",
                                tv[i].speaker == BEHAVE_SPEAKER_AGENT
                                ? "assistant" : "user");

        if (f == 0) {
            /* chat.completions, a string */
            cJSON_AddStringToObject(e, "content", tv[i].text);

        } else {
            /* parts or blocks: text, with others around it */
            parts = cJSON_AddArrayToObject(e, "content");
            add_pair(parts, "type",
                     f == 3 ? (tv[i].speaker == BEHAVE_SPEAKER_AGENT
                               ? "output_text" : "input_text")
                            : "text",
                     "text", tv[i].text);

            if (f == 2 && tv[i].speaker == BEHAVE_SPEAKER_AGENT) {
                add_pair(parts, "type", "tool_use", "id", "toolu_1");
            }

            if (f == 3) {
                cJSON_AddStringToObject(e, "type", "message");
            }
        }

        cJSON_AddItemToArray(list, e);

        if (f == 3 && tv[i].speaker == BEHAVE_SPEAKER_AGENT) {
            add_pair(list, "type", "function_call_output", "output", "{}");
        }
    }

    return root;
}


static int
same_result(const behave_conv_result_t *a, const behave_conv_result_t *b)
{
    return a->action == b->action
           && a->false_resolution == b->false_resolution
           && a->repetition == b->repetition
           && a->escalating == b->escalating
           && a->peak_severity == b->peak_severity
           && a->review_status == b->review_status
           && a->repeat_contact_risk == b->repeat_contact_risk
           && a->repetition_similarity == b->repetition_similarity
           && a->prior_turns == b->prior_turns
           && strcmp(a->reason, b->reason) == 0
           && strcmp(a->false_resolution_reason,
                     b->false_resolution_reason) == 0;
}


/* the chat's findings for customer turn k (as the latest) and the core's */

static void
compare_turn(const char *id, int k, int last)
{
    int                      f, v, want_peak;
    cJSON                   *root;
    behave_chat_t            chat;
    behave_annotation_t      a;
    behave_conv_result_t     want;
    behave_turn_memo_t      *memos[3];
    behave_chat_findings_t   got;

    behave_conversation_assess(tv, (size_t) k, &tv[k], &want);

    want_peak = 0;

    for (v = 0; v <= k; v++) {
        if (tv[v].speaker == BEHAVE_SPEAKER_CUSTOMER
            && (int) tv[v].urgency > want_peak)
        {
            want_peak = (int) tv[v].urgency;
        }
    }

    memos[0] = memo_big;
    memos[1] = memo_one;
    memos[2] = NULL;

    f = requests++ % FORMATS;
    formats_seen[f]++;

    /* the request ends on the agent's next turn when there is one: an
     * assistant prefill, not read */
    root = chat_body(k < last && tv[k + 1].speaker == BEHAVE_SPEAKER_AGENT
                     ? k + 1 : k, f);

    if (behave_extract_chat(root, 50, &chat) != BEHAVE_EXTRACT_OK
        || chat.n != (size_t) k + 1)
    {
        ok(0, "%s turn %d: %zu turns read", id, k, chat.n);
        cJSON_Delete(root);
        return;
    }

    behave_annotate(chat.turn[k].text, chat.turn[k].len, &a);

    for (v = 0; v < 3; v++) {
        compared++;

        if (behave_chat_assess(&chat, &a, memos[v], &got) != 0
            || !same_result(&got.conv, &want)
            || memcmp(&got.conv, &want, sizeof(want)) != 0
            || (int) got.peak_urgency != want_peak
            || got.turns != (size_t) k + 1)
        {
            differ++;
            printf("# %s turn %d (format %d, memo %d): chat %s/%d/%d/%d, "
                   "core %s/%d/%d/%d\n", id, k, f, v,
                   behave_action_name(got.conv.action),
                   got.conv.false_resolution, got.conv.repetition,
                   got.conv.escalating, behave_action_name(want.action),
                   want.false_resolution, want.repetition, want.escalating);
        }
    }

    behave_chat_free(&chat);
    cJSON_Delete(root);
}


static void
replay_file(const char *rel)
{
    int      n, k;
    char     path[PATH_MAX + 64], *buf, *line, *next;
    size_t   len;
    cJSON   *c, *id;

    if (testdata_repo_path(path, sizeof(path), rel) != 0
        || (buf = behave_read_file(path, &len)) == NULL)
    {
        skip(rel);
        return;
    }

    for (line = buf; line != NULL && *line; line = next) {
        next = strchr(line, '\n');
        if (next != NULL) {
            *next++ = '\0';
        }

        c = cJSON_Parse(line);
        if (c == NULL) {
            continue;
        }

        id = cJSON_GetObjectItem(c, "id");
        n = behave_turns_from_json(cJSON_GetObjectItem(c, "turns"), tv,
                                   MAX_TURNS);

        /* every turn that is one, for the long chats */
        for (k = 0; k < n && npool < POOL_MAX; k++) {
            if (strspn(tv[k].text, " \t\r\n") < tv[k].text_len) {
                pool[npool].text = strndup(tv[k].text, tv[k].text_len);
                pool[npool].agent = tv[k].speaker == BEHAVE_SPEAKER_AGENT;
                npool++;
            }
        }

        for (k = 1; k < n; k++) {
            if (tv[k].speaker == BEHAVE_SPEAKER_CUSTOMER
                && strspn(tv[k].text, " \t\r\n") < tv[k].text_len)
            {
                compare_turn(cJSON_IsString(id) ? id->valuestring : "?", k,
                             n - 1);
            }
        }

        cJSON_Delete(c);
    }

    free(buf);
}


/*
 * Chats of 50 turns made of the corpus' turns in order (runs of either
 * role as they come): more user turns than the state's ring keeps, whose
 * older turns the chat reads only in part (behave_chat.c), and assistant
 * claims denied early and late
 */

static void
test_long_chats(void)
{
    int                   c, n, k, fr, before;
    size_t                i;
    behave_annotation_t   a;
    behave_conv_state_t   st;

    fr = 0;
    before = differ;

    for (c = 0; c < LONG_CHATS && npool > MAX_TURNS; c++) {
        i = (size_t) c * 97 % npool;

        for (n = 0; n < 50; n++, i = (i + 1) % npool) {
            behave_annotate(pool[i].text, strlen(pool[i].text), &a);
            behave_turn_from_annotation(&tv[n], pool[i].agent
                                        ? BEHAVE_SPEAKER_AGENT
                                        : BEHAVE_SPEAKER_CUSTOMER,
                                        pool[i].text, strlen(pool[i].text),
                                        &a, (uint64_t) n * 1000);
        }

        while (n > 30 && tv[n - 1].speaker == BEHAVE_SPEAKER_AGENT) {
            n--;
        }

        for (k = n - 3; k < n; k++) {
            if (tv[k].speaker == BEHAVE_SPEAKER_CUSTOMER) {
                behave_conversation_fold(tv, (size_t) k, &st);
                fr += st.fr;
                compare_turn("long chat", k, n - 1);
            }
        }
    }

    ok(differ == before,
       "chats of 50 corpus turns: the chat's findings are the core's");
    ok(fr > 10, "long chats: a false resolution earlier in %d of them", fr);
}


/* a first message has no history: no findings, as /v1/analyze */

static void
test_no_history(void)
{
    cJSON                   *root;
    behave_chat_t            chat;
    behave_annotation_t      a;
    behave_chat_findings_t   got;

    root = cJSON_Parse("{\"messages\":[{\"role\":\"system\",\"content\":"
                       "\"s\"},{\"role\":\"user\",\"content\":\"hi\"}]}");
    ok(behave_extract_chat(root, 50, &chat) == BEHAVE_EXTRACT_OK
       && chat.n == 1, "no history: one turn");
    behave_annotate(chat.turn[0].text, chat.turn[0].len, &a);
    is_int(behave_chat_assess(&chat, &a, NULL, &got), -1,
           "no history: no findings");
    behave_chat_free(&chat);
    cJSON_Delete(root);
}


/* the latest message of the chat json, assessed with all before it */

static int
assess_latest(const char *json, behave_annotation_t *a,
    behave_chat_findings_t *got)
{
    int            rc;
    cJSON         *root;
    behave_chat_t  chat;

    root = cJSON_Parse(json);
    if (root == NULL || behave_extract_chat(root, 50, &chat)
                        != BEHAVE_EXTRACT_OK)
    {
        cJSON_Delete(root);
        return -2;
    }

    behave_annotate(chat.turn[chat.n - 1].text, chat.turn[chat.n - 1].len,
                    a);
    rc = behave_chat_assess(&chat, a, memo_big, got);
    behave_chat_free(&chat);
    cJSON_Delete(root);

    return rc;
}


/* the three cases, in the words of its examples */

static void
test_cases(void)
{
    behave_annotation_t      a;
    behave_chat_findings_t   got;

    ok(assess_latest("{\"messages\":["
        "{\"role\":\"user\",\"content\":\"Please cancel my order 55123.\"},"
        "{\"role\":\"assistant\",\"content\":\"I've cancelled your order, "
        "you're all set!\"},"
        "{\"role\":\"user\",\"content\":\"it's still there, I was charged "
        "again\"}]}", &a, &got) == 0
       && got.conv.false_resolution && got.conv.action == BEHAVE_ACTION_HANDOFF,
       "an assistant's false resolution: handoff");

    ok(assess_latest("{\"messages\":["
        "{\"role\":\"user\",\"content\":\"I want to kill myself tonight, I "
        "have the pills ready\"},"
        "{\"role\":\"assistant\",\"content\":\"I'm so sorry you feel this "
        "way. You are not alone.\"},"
        "{\"role\":\"user\",\"content\":\"what's the weather like\"},"
        "{\"role\":\"assistant\",\"content\":\"Sunny.\"},"
        "{\"role\":\"user\",\"content\":\"ok\"}]}", &a, &got) == 0
       && got.peak_urgency == BEHAVE_URGENCY_CRITICAL
       && got.conv.peak_severity == 4 && a.urgency < BEHAVE_URGENCY_HIGH,
       "an earlier crisis, a calm latest message: peak urgency critical");
    is_int(got.conv.action, BEHAVE_ACTION_HANDOFF,
           "an earlier crisis, a calm latest message: handoff (%s)",
           got.conv.reason);
    is_int(got.conv.review_status, BEHAVE_REVIEW_ESCALATED,
           "an earlier crisis, a calm latest message: escalated");
}


int
main(void)
{
    int  f;

    test_siphash();
    test_memo();

    memo_big = behave_turn_memo_create(BEHAVE_TURN_MEMO_SLOTS);
    memo_one = behave_turn_memo_create(1);
    ok(memo_big != NULL && memo_one != NULL, "memos made");

    test_no_history();
    test_cases();

    replay_file("data/corpus/conv-a.jsonl");
    replay_file("data/corpus/conv-b.jsonl");
    replay_file("data/corpus/conv-c.jsonl");
    replay_file("data/corpus/conv-d.jsonl");
    replay_file("data/corpus/conv-e.jsonl");
    replay_file("data/corpus/conv-f.jsonl");

    test_long_chats();

    ok(compared > 1000 && differ == 0,
       "every customer turn of the written conversations: the chat's "
       "findings are the core's (%d compared, %d differ)", compared, differ);

    for (f = 0; f < FORMATS; f++) {
        ok(formats_seen[f] > 100, "format %d replayed (%d turns)", f,
           formats_seen[f]);
    }

    ok(memo_big->hits > 1000,
       "the memo found turns again (%llu hits, %llu misses)",
       (unsigned long long) memo_big->hits,
       (unsigned long long) memo_big->misses);

    behave_turn_memo_free(memo_big);
    behave_turn_memo_free(memo_one);

    while (npool) {
        free(pool[--npool].text);
    }

    return tap_done();
}
