/*
 * The review queue's pure part: cursors, times, the list query, the
 * PATCH body, records and the JSON of one review with its findings.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "reviews/behave_review.h"
#include "conversation/behave_turn_log.h"


static void
test_cursor(void)
{
    char     c[BEHAVE_REVIEW_CURSOR_MAX], id[BEHAVE_REVIEW_ID_MAX + 1];
    int64_t  ms;
    size_t   i, len;

    static const char  *ids[] = {
        "conv:a", "call:retell:r1", "conv:x.y@z-1_2", "call:vapi:v"
    };

    for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        ok(behave_review_cursor_encode(1732400000123LL, ids[i],
                                       strlen(ids[i]), c, sizeof(c)) == 0,
           "cursor %zu encodes", i);
        ok(strspn(c, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                     "0123456789-_") == strlen(c), "cursor %zu url-safe", i);
        ok(behave_review_cursor_decode(c, strlen(c), &ms, id, sizeof(id))
           == 0, "cursor %zu decodes", i);
        is_int(ms, 1732400000123LL, "cursor %zu time", i);
        is_str(id, ids[i], "cursor %zu id", i);
    }

    behave_review_cursor_encode(5, "conv:abc", 8, c, sizeof(c));
    len = strlen(c);

    ok(behave_review_cursor_decode("", 0, &ms, id, sizeof(id)) != 0,
       "empty cursor refused");
    ok(behave_review_cursor_decode("!!!!", 4, &ms, id, sizeof(id)) != 0,
       "non-base64 refused");
    ok(behave_review_cursor_decode(c, len - 1, &ms, id, sizeof(id)) != 0,
       "truncated cursor refused");
    /* "hello" */
    ok(behave_review_cursor_decode("aGVsbG8", 7, &ms, id, sizeof(id)) != 0,
       "base64 of something else refused");
    /* "1:12:other:x": not a review id */
    ok(behave_review_cursor_decode("MToxMjpvdGhlcjp4", 16, &ms, id,
                                   sizeof(id)) != 0,
       "cursor with a foreign id refused");
    /* "1:x:conv:a" */
    ok(behave_review_cursor_decode("MTp4OmNvbnY6YQ", 14, &ms, id, sizeof(id))
       != 0, "cursor with a non-numeric time refused");
}


static void
test_time(void)
{
    int64_t  ms;

    ok(behave_review_time_parse("1970-01-01T00:00:00Z", 20, &ms) == 0
       && ms == 0, "epoch");
    ok(behave_review_time_parse("2026-11-23T10:00:00.5Z", 22, &ms) == 0
       && ms == 1795428000500LL, "with fraction: %lld", (long long) ms);
    ok(behave_review_time_parse("2024-02-29T23:59:59.999Z", 24, &ms) == 0
       && ms == 1709251199999LL, "leap day");
    ok(behave_review_time_parse("2023-02-29T00:00:00Z", 20, &ms) != 0,
       "no leap day in 2023");
    ok(behave_review_time_parse("2026-13-01T00:00:00Z", 20, &ms) != 0,
       "month 13");
    ok(behave_review_time_parse("2026-01-01 00:00:00Z", 20, &ms) != 0,
       "space for T");
    ok(behave_review_time_parse("2026-01-01T00:00:00+01:00", 25, &ms) != 0,
       "offsets other than Z refused");
    ok(behave_review_time_parse("1732400000000", 13, &ms) == 0
       && ms == 1732400000000LL, "unix ms");
    ok(behave_review_time_parse("-5", 2, &ms) != 0, "negative refused");
}


static void
test_query(void)
{
    behave_error_t         err;
    behave_review_query_t  q;
    char                   c[BEHAVE_REVIEW_CURSOR_MAX], args[512];

    /* what the glue passes: the table's names and "api" */
    static const char *const  providers[] = {
        "elevenlabs", "retell", "vapi", "standard", "api", NULL
    };

    ok(behave_review_query_parse("", 0, providers, &q, &err) == BEHAVE_OK
       && q.limit == BEHAVE_REVIEW_LIMIT && q.status == NULL
       && q.reviewed == -1 && q.from_ms == -1 && !q.has_cursor,
       "empty query: defaults");

#define Q(s)  behave_review_query_parse(s, strlen(s), providers, &q, &err)

    ok(Q("status=escalated&provider=retell&limit=2&reviewed=false&x=1")
       == BEHAVE_OK && strcmp(q.status, "escalated") == 0
       && strcmp(q.provider, "retell") == 0 && q.limit == 2
       && q.reviewed == 0, "filters");
    ok(Q("from=2026-11-23T00%3A00%3A00Z&to=1795428000500") == BEHAVE_OK
       && q.from_ms == 1795392000000LL && q.to_ms == 1795428000500LL,
       "percent-encoded time");
    is_int(Q("status=ok"), BEHAVE_ERR_INVALID_FIELD, "status ok refused");
    is_int(Q("provider=skype"), BEHAVE_ERR_INVALID_FIELD, "bad provider");
    is_int(Q("limit=0"), BEHAVE_ERR_INVALID_FIELD, "limit 0");
    is_int(Q("limit=101"), BEHAVE_ERR_INVALID_FIELD, "limit 101");
    is_int(Q("limit=ten"), BEHAVE_ERR_INVALID_FIELD, "limit ten");
    is_int(Q("from=yesterday"), BEHAVE_ERR_INVALID_FIELD, "bad from");
    is_int(Q("from=2000&to=1000"), BEHAVE_ERR_INVALID_FIELD,
           "from after to");
    is_int(Q("cursor=zzz"), BEHAVE_ERR_INVALID_FIELD, "bad cursor");
    ok(strstr(err.message, "cursor") != NULL, "message names the cursor");
    is_int(Q("status=%zz"), BEHAVE_ERR_INVALID_FIELD, "broken escape");
    is_int(Q("status=%00"), BEHAVE_ERR_INVALID_FIELD, "NUL escape");

    behave_review_cursor_encode(42, "conv:c1", 7, c, sizeof(c));
    snprintf(args, sizeof(args), "limit=5&cursor=%s", c);
    ok(Q(args) == BEHAVE_OK && q.has_cursor && q.cursor_ms == 42
       && strcmp(q.cursor_id, "conv:c1") == 0, "cursor round trip");

#undef Q
}


static void
test_patch(void)
{
    char                   *s;
    size_t                  len;
    cJSON                  *j;
    behave_error_t          err;
    behave_review_patch_t   p;

#define P(s)                                                                \
    (j = cJSON_Parse(s), len = behave_review_patch_parse(j, &p, &err),      \
     cJSON_Delete(j), (int) len)

    is_int(P("{\"reviewed_by\":\"ana\"}"), BEHAVE_OK, "by alone");
    ok(p.reviewed == 1, "reviewed defaults to true");
    is_int(P("{}"), BEHAVE_ERR_MISSING_FIELD, "no reviewed_by");
    is_int(P("{\"reviewed_by\":\"\"}"), BEHAVE_ERR_INVALID_FIELD, "empty by");
    is_int(P("{\"reviewed_by\":\"a\",\"reviewed\":\"yes\"}"),
           BEHAVE_ERR_INVALID_FIELD, "reviewed not boolean");
    is_int(P("{\"reviewed_by\":\"a\",\"note\":5}"), BEHAVE_ERR_INVALID_FIELD,
           "note not a string");

#undef P

    j = cJSON_Parse("{\"reviewed_by\":\"ana\",\"note\":\"called back\","
                    "\"reviewed\":false}");
    ok(behave_review_patch_parse(j, &p, &err) == BEHAVE_OK, "full body");
    s = behave_review_patch_entry(&p, 1000, &len);
    is_str(s, "{\"event\":\"marked_unreviewed\",\"at\":"
              "\"1970-01-01T00:00:01.000Z\",\"by\":\"ana\","
              "\"note\":\"called back\"}", "history entry");
    free(s);
    cJSON_Delete(j);
}


static const struct {
    int          speaker;
    const char  *text;
}  conv[] = {
    { 0, "My refund for order 1234 has not arrived." },
    { 1, "I have processed your refund, it is all sorted now." },
    { 0, "It is still not there, nothing has come in!" },
    { 1, "Sorry about that, let me check." },
    { 0, "This is the third time I call about this, I am furious!!" },
};


static void
test_detail(void)
{
    char                    *log, *s;
    size_t                   i, n, len;
    uint64_t                 first;
    cJSON                   *o, *tr, *fi, *e;
    behave_turn_t            turns[5], back[5];
    behave_turn_log_t        tl;
    behave_annotation_t      a;
    behave_review_rec_t      rec;
    behave_conv_result_t     res;
    behave_review_fields_t   f;

    for (i = 0; i < 5; i++) {
        behave_annotate(conv[i].text, strlen(conv[i].text), &a);
        behave_turn_from_annotation(&turns[i], conv[i].speaker, conv[i].text,
                                    strlen(conv[i].text), &a, 0);
    }

    log = behave_review_turn_log(turns, 5, 0, 1000, &len);
    ok(log != NULL, "turn log");
    behave_turn_log_open(&tl, log, len);
    n = behave_turn_log_tail(&tl, 50, back, &first);
    is_int(n, 5, "five turns back");
    ok(back[2].ts_ms == 1000, "time filled in");

    behave_conversation_assess(turns, 2, &turns[2], &res);
    ok(res.false_resolution, "the example is a false resolution");
    ok(behave_review_rec_conv(&rec, &res, "c-1", 3, 0, 5000) == 0,
       "conversation record");
    is_str(rec.id, "conv:c-1", "conversation id");
    ok(rec.n % 2 == 0 && rec.n >= 22, "pairs: %zu", rec.n);

    memset(&f, 0, sizeof(f));

    for (i = 0; i < rec.n; i += 2) {
        if (strcmp(rec.argv[i], "status") == 0) {
            f.v[BEHAVE_RF_STATUS] = rec.argv[i + 1];
            f.len[BEHAVE_RF_STATUS] = rec.len[i + 1];
        }

        if (strcmp(rec.argv[i], "updated_at") == 0) {
            f.v[BEHAVE_RF_UPDATED_AT] = rec.argv[i + 1];
            f.len[BEHAVE_RF_UPDATED_AT] = rec.len[i + 1];
        }
    }

    {
        const char  *hist[2] = { "{\"event\":\"marked_reviewed\"}", "junk" };
        size_t       hlen[2] = { 27, 4 };

        o = behave_review_detail_json("conv:c-1", 8, &f, hist, hlen, 2,
                                      back, n, 0, 50);
    }

    ok(o != NULL, "detail");
    is_str(cJSON_GetStringValue(cJSON_GetObjectItem(o, "status")),
           "needs_review", "status");
    is_str(cJSON_GetStringValue(cJSON_GetObjectItem(o, "updated_at")),
           "1970-01-01T00:00:05.000Z", "updated_at");
    is_int(cJSON_GetArraySize(cJSON_GetObjectItem(o, "history")), 1,
           "history: a bad line left out");

    tr = cJSON_GetObjectItem(o, "transcript");
    is_int(cJSON_GetArraySize(tr), 5, "five turns");
    e = cJSON_GetArrayItem(tr, 2);
    ok(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(e, "review"),
                                        "false_resolution")),
       "turn 2 carries the false resolution");
    ok(cJSON_GetObjectItem(cJSON_GetArrayItem(tr, 1), "review") == NULL,
       "agent turns have no review");

    fi = cJSON_GetObjectItem(o, "findings");
    e = cJSON_GetArrayItem(fi, 0);
    is_str(cJSON_GetStringValue(cJSON_GetObjectItem(e, "type")),
           "false_resolution", "first finding");
    is_int(cJSON_GetNumberValue(cJSON_GetObjectItem(e, "turn")), 2,
           "fired at turn 2");
    is_int(cJSON_GetNumberValue(cJSON_GetObjectItem(e, "claim_turn")), 1,
           "claimed at turn 1");

    s = cJSON_PrintUnformatted(o);
    ok(s != NULL && strstr(s, "\"cues\":[") != NULL, "cues listed");
    free(s);

    cJSON_Delete(o);
    free(log);

    log = behave_review_turn_log(turns, 1, 1, 0, &len);
    ok(log != NULL && len > 0, "redacted turn log");
    free(log);

    /* built in steps of any budget: the same bytes, redacted or not */
    for (i = 0; i < 2; i++) {
        size_t               b, steps;
        behave_review_log_t  sl;

        static const size_t  budgets[] = { 0, 1, 60, 100000 };

        log = behave_review_turn_log(turns, 5, (int) i, 1000, &len);

        for (b = 0; b < sizeof(budgets) / sizeof(budgets[0]); b++) {
            int  rc;

            ok(behave_review_log_begin(&sl, (int) i, 1000) == 0,
               "log in steps: begin");

            steps = 0;

            do {
                rc = behave_review_log_step(&sl, turns, 5, budgets[b]);
                steps++;
            } while (rc == 0);

            ok(rc == 1 && log != NULL && sl.used == len
               && memcmp(sl.buf, log, len) == 0,
               "log in steps (redact %zu, budget %zu, %zu steps): the same "
               "bytes", i, budgets[b], steps);

            if (budgets[b] <= 1) {
                is_int(steps, 5, "budget %zu: a turn a step", budgets[b]);
            }

            behave_review_log_free(&sl);
        }

        free(log);
    }
}


static void
test_rec_call(void)
{
    size_t                  i;
    const char             *v;
    behave_review_call_t    s;
    behave_review_rec_t     rec;
    char                    longid[300];

    memset(&s, 0, sizeof(s));
    s.turns = 4;
    s.peak_severity = 4;
    s.review_status = BEHAVE_REVIEW_ESCALATED;
    s.action = BEHAVE_ACTION_HANDOFF;
    s.action_reason = "";
    s.false_resolution_reason = "";
    s.provider_verdict = "failure";
    s.service_verdict = "failure";
    s.provider = "retell";
    s.conversation_id = "c9";

    ok(behave_review_wanted(BEHAVE_REVIEW_ESCALATED)
       && behave_review_wanted(BEHAVE_REVIEW_NEEDS_REVIEW)
       && !behave_review_wanted(BEHAVE_REVIEW_MONITOR)
       && !behave_review_wanted(BEHAVE_REVIEW_OK), "what is filed");

    ok(behave_review_rec_call(&rec, &s, "r-1", 1, 86400000) == 0,
       "call record");
    is_str(rec.id, "call:retell:r-1", "call id");
    ok(strstr(rec.reopened, "\"event\":\"reopened\"") != NULL
       && strstr(rec.reopened, "1970-01-02T00:00:00.000Z") != NULL,
       "reopened entry: %s", rec.reopened);

    v = NULL;

    for (i = 0; i < rec.n; i += 2) {
        ok(rec.len[i] == strlen(rec.argv[i])
           && rec.len[i + 1] == strlen(rec.argv[i + 1]),
           "pair %zu lengths", i / 2);

        if (strcmp(rec.argv[i], "storage_mode") == 0) {
            v = rec.argv[i + 1];
        }
    }

    is_str(v, "redacted", "storage_mode redacted");

    memset(longid, 'x', sizeof(longid) - 1);
    longid[sizeof(longid) - 1] = '\0';
    ok(behave_review_rec_call(&rec, &s, longid, 0, 1) != 0,
       "an id too long is refused");
    ok(behave_review_rec_call(&rec, &s, "a/b", 0, 1) != 0,
       "an id with a slash is refused");

    ok(behave_review_id_valid("conv:a", 6) && !behave_review_id_valid("x:a", 3)
       && !behave_review_id_valid("conv:", 5)
       && !behave_review_id_valid("conv:a b", 8), "id rules");
}


/* the filing mark: what a reviewer sees, not the turn it was seen at */
static void
test_mark(void)
{
    char                   mark[BEHAVE_REVIEW_MARK_LEN + 1];
    char                   mark2[BEHAVE_REVIEW_MARK_LEN + 1];
    unsigned               f, f2;
    uint32_t               fp, fp2;
    behave_review_rec_t    rec;
    behave_conv_result_t   res;

    memset(&res, 0, sizeof(res));
    res.review_status = BEHAVE_REVIEW_NEEDS_REVIEW;
    res.action = BEHAVE_ACTION_HANDOFF;
    res.peak_severity = 3;
    snprintf(res.reason, sizeof(res.reason),
             "customer turn 7 signals a crisis or critical urgency");

    ok(behave_review_rec_conv(&rec, &res, "c1", 8, 0, 1000) == 0,
       "conversation record");
    fp = behave_review_conv_fingerprint(&res, 0, &f);
    is_int(f, 0, "no finding");

    /* a later turn, same finding: turns, time, turn numbers differ */
    snprintf(res.reason, sizeof(res.reason),
             "customer turn 57 signals a crisis or critical urgency");
    is_int(behave_review_conv_fingerprint(&res, 0, &f2), fp,
           "same review at a later turn: same fingerprint");

    res.peak_severity = 4;
    fp2 = behave_review_conv_fingerprint(&res, 0, &f2);
    ok(fp2 != fp, "peak severity moved: another fingerprint");

    res.peak_severity = 3;
    res.review_status = BEHAVE_REVIEW_ESCALATED;
    ok(behave_review_conv_fingerprint(&res, 0, &f2) != fp, "status: another");

    res.review_status = BEHAVE_REVIEW_NEEDS_REVIEW;
    res.action = BEHAVE_ACTION_ROUTE;
    ok(behave_review_conv_fingerprint(&res, 0, &f2) != fp, "action: another");

    res.action = BEHAVE_ACTION_HANDOFF;
    snprintf(res.reason, sizeof(res.reason), "high urgency: priority queue");
    ok(behave_review_conv_fingerprint(&res, 0, &f2) != fp,
       "the reason: another");

    snprintf(res.reason, sizeof(res.reason),
             "customer turn 57 signals a crisis or critical urgency");
    ok(behave_review_conv_fingerprint(&res, 1, &f2) != fp,
       "storage mode: another");

    /* the findings stick in the record: bits, not the fingerprint */
    res.escalating = 1;
    res.false_resolution = 1;
    snprintf(res.false_resolution_reason,
             sizeof(res.false_resolution_reason), "agent turn 5 claimed it");
    is_int(behave_review_conv_fingerprint(&res, 0, &f2), fp,
           "findings are not in the fingerprint");
    is_int(f2, 3, "they are bits: false_resolution 1, escalating 2");

    behave_review_mark_make(mark, "", 0, fp, 0, 1732400000);
    is_int(strlen(mark), BEHAVE_REVIEW_MARK_LEN, "mark length");
    ok(!behave_review_mark_due(mark, strlen(mark), fp, 0, 1732400000, 60),
       "same review, just filed: not due");
    ok(behave_review_mark_due(mark, strlen(mark), fp, 2, 1732400000, 60),
       "a new finding: due");

    behave_review_mark_make(mark2, mark, strlen(mark), fp, 2, 1732400000);
    ok(!behave_review_mark_due(mark2, strlen(mark2), fp, 0, 1732400001, 60),
       "a turn without the finding filed: not due (it sticks)");
    ok(!behave_review_mark_due(mark2, strlen(mark2), fp, 2, 1732400001, 60),
       "a turn with it again: not due");
    behave_review_mark_make(mark2, mark2, strlen(mark2), fp, 1, 1732400002);
    ok(!behave_review_mark_due(mark2, strlen(mark2), fp, 3, 1732400003, 60),
       "the mark keeps every finding filed");

    ok(!behave_review_mark_due(mark, strlen(mark), fp, 0, 1732400059, 60),
       "59 s later: not due");
    ok(behave_review_mark_due(mark, strlen(mark), fp, 0, 1732400060, 60),
       "60 s later: due (time, turns and TTL follow)");
    ok(!behave_review_mark_due(mark, strlen(mark), fp, 0, 1732399990, 60),
       "a clock 10 s behind: not due");
    ok(behave_review_mark_due(mark, strlen(mark), fp, 0, 1732390000, 60),
       "a clock far behind: due");
    ok(behave_review_mark_due(mark, strlen(mark), fp2, 0, 1732400001, 60),
       "changed review: due at once");
    ok(behave_review_mark_due("", 0, fp, 0, 1732400000, 60),
       "no mark (new review, older build, marked reviewed since): due");
    ok(behave_review_mark_due("0123456789abcdefZ", 17, fp, 0, 1732400000,
                              60),
       "not a mark: due");
    ok(behave_review_mark_due(mark, 16, fp, 0, 1732400000, 60),
       "a cut mark: due");

    is_int(behave_review_mark_refresh(86400), BEHAVE_REVIEW_REFRESH,
           "refresh: 60 s");
    is_int(behave_review_mark_refresh(30), 15, "refresh: half a short TTL");
    is_int(behave_review_mark_refresh(1), 1, "refresh: at least 1 s");
}

int
main(void)
{
    test_cursor();
    test_time();
    test_query();
    test_patch();
    test_detail();
    test_rec_call();
    test_mark();

    return tap_done();
}
