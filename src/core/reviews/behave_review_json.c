/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The review queue's records and answers: what is stored when a call or
 * a conversation is flagged, a queue row, and one review with its
 * transcript and findings (behave_review.h).
 */


#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/behave_json.h"
#include "text/behave_redact.h"
#include "base/behave_round.h"
#include "base/behave_time.h"
#include "reviews/behave_review.h"
#include "conversation/behave_turn_log.h"
#include "conversation/behave_conv_state.h"


typedef struct behave_review_member_s  behave_review_member_t;


static void behave_review_pair(behave_review_rec_t *rec, const char *name,
    const char *v);
static const char *behave_review_num(behave_review_rec_t *rec, int slot,
    long long v);
static void behave_review_reopened(behave_review_rec_t *rec,
    int64_t now_ms);
static int behave_review_rec_open(behave_review_rec_t *rec, int k,
    const char *reason, int64_t now_ms);
static void behave_review_rec_figures(behave_review_rec_t *rec,
    int peak_severity, size_t turns, int redacted, int64_t now_ms);
static void behave_review_add_str(cJSON *o, const char *name,
    const behave_review_fields_t *f, behave_review_field_e i);
static void behave_review_add_int(cJSON *o, const char *name,
    const behave_review_fields_t *f, behave_review_field_e i);
static void behave_review_add_bool(cJSON *o, const char *name,
    const behave_review_fields_t *f, behave_review_field_e i);
static void behave_review_add_time(cJSON *o, const char *name,
    const behave_review_fields_t *f, behave_review_field_e i);
static void behave_review_add_members(cJSON *o,
    const behave_review_fields_t *f, const behave_review_member_t *m,
    size_t n);
static long long behave_review_int(const behave_review_fields_t *f,
    behave_review_field_e i);
static cJSON *behave_review_turn_json(const behave_turn_t *t, size_t num);
static cJSON *behave_review_cues_json(unsigned cues);
static void behave_review_findings(cJSON *transcript, cJSON *findings,
    const behave_turn_t *turns, size_t n, size_t first, size_t window);
static void behave_review_finding(cJSON *findings, const char *type,
    size_t turn, const char *reason);


static const struct {
    unsigned     bit;
    const char  *name;
}  behave_review_cue_names[] = {
    { BEHAVE_CUE_QUESTION, "question" },
    { BEHAVE_CUE_RESOLUTION_CLAIM, "resolution_claim" },
    { BEHAVE_CUE_NOT_RESOLVED, "not_resolved" },
    { BEHAVE_CUE_CONFUSION, "confusion" },
    { BEHAVE_CUE_CRISIS, "crisis" },
    { BEHAVE_CUE_GIVING_UP, "giving_up" },
    { BEHAVE_CUE_THANKS, "thanks" },
    { BEHAVE_CUE_SPECIALIST, "specialist" },
    { BEHAVE_CUE_REPEAT_CONTACT, "repeat_contact" },
    { BEHAVE_CUE_CONTRAST, "contrast" },
    { BEHAVE_CUE_ASKS, "asks" },
};


/* a member of an answer: its name, the stored field, how it is written */
struct behave_review_member_s {
    const char             *name;
    behave_review_field_e   field;
    void                  (*add)(cJSON *o, const char *name,
                                 const behave_review_fields_t *f,
                                 behave_review_field_e i);
};


#define behave_review_nmembers(m)  (sizeof(m) / sizeof((m)[0]))


/* a list's item, in the order of docs/API.md */
static const behave_review_member_t  behave_review_item_members[] = {
    { "kind", BEHAVE_RF_KIND, behave_review_add_str },
    { "provider", BEHAVE_RF_PROVIDER, behave_review_add_str },
    { "conversation_id", BEHAVE_RF_CONVERSATION_ID, behave_review_add_str },
    { "call_id", BEHAVE_RF_CALL_ID, behave_review_add_str },
    { "status", BEHAVE_RF_STATUS, behave_review_add_str },
    { "action", BEHAVE_RF_ACTION, behave_review_add_str },
    { "peak_severity", BEHAVE_RF_PEAK_SEVERITY, behave_review_add_int },
    { "turns", BEHAVE_RF_TURNS, behave_review_add_int },
    { "created_at", BEHAVE_RF_CREATED_AT, behave_review_add_time },
    { "updated_at", BEHAVE_RF_UPDATED_AT, behave_review_add_time },
    { "storage_mode", BEHAVE_RF_STORAGE_MODE, behave_review_add_str },
    { "false_resolution", BEHAVE_RF_FALSE_RESOLUTION,
      behave_review_add_bool },
    { "escalating", BEHAVE_RF_ESCALATING, behave_review_add_bool },
    { "repeat_contact_risk", BEHAVE_RF_REPEAT_CONTACT,
      behave_review_add_bool },
    { "reviewed", BEHAVE_RF_REVIEWED, behave_review_add_bool },
    { "reviewed_by", BEHAVE_RF_REVIEWED_BY, behave_review_add_str },
    { "reviewed_at", BEHAVE_RF_REVIEWED_AT, behave_review_add_time },
};


/* what the detail adds to the item */
static const behave_review_member_t  behave_review_detail_members[] = {
    { "action_reason", BEHAVE_RF_ACTION_REASON, behave_review_add_str },
    { "false_resolution_reason", BEHAVE_RF_FALSE_RESOLUTION_REASON,
      behave_review_add_str },
    { "note", BEHAVE_RF_NOTE, behave_review_add_str },
};


static const behave_review_member_t  behave_review_verdict_members[] = {
    { "provider", BEHAVE_RF_PROVIDER_VERDICT, behave_review_add_str },
    { "service", BEHAVE_RF_SERVICE_VERDICT, behave_review_add_str },
    { "disagreement", BEHAVE_RF_DISAGREEMENT, behave_review_add_bool },
};


int
behave_review_wanted(behave_review_e status)
{
    return status == BEHAVE_REVIEW_NEEDS_REVIEW
           || status == BEHAVE_REVIEW_ESCALATED;
}


static void
behave_review_pair(behave_review_rec_t *rec, const char *name, const char *v)
{
    if (v == NULL || rec->n + 2 > BEHAVE_REVIEW_PAIRS_MAX) {
        return;
    }

    rec->argv[rec->n] = name;
    rec->len[rec->n] = strlen(name);
    rec->argv[rec->n + 1] = v;
    rec->len[rec->n + 1] = strlen(v);
    rec->n += 2;
}


static const char *
behave_review_num(behave_review_rec_t *rec, int slot, long long v)
{
    snprintf(rec->num[slot], sizeof(rec->num[slot]), "%lld", v);
    return rec->num[slot];
}


static void
behave_review_reopened(behave_review_rec_t *rec, int64_t now_ms)
{
    char  at[32];

    behave_iso8601_ms(now_ms, at, sizeof(at));
    snprintf(rec->reopened, sizeof(rec->reopened),
             "{\"event\":\"reopened\",\"at\":\"%s\"}", at);
}


/*
 * The start of every record, once its id is written (k bytes, as
 * snprintf() returned): the id checked, the finding's reason kept and
 * the reopening stamp.
 */
static int
behave_review_rec_open(behave_review_rec_t *rec, int k, const char *reason,
    int64_t now_ms)
{
    if (k < 0 || (size_t) k >= sizeof(rec->id)
        || !behave_review_id_valid(rec->id, (size_t) k))
    {
        return -1;
    }

    snprintf(rec->reason, sizeof(rec->reason), "%s", reason);
    behave_review_reopened(rec, now_ms);

    return 0;
}


/* the figures of every record, written in rec->num's three slots */
static void
behave_review_rec_figures(behave_review_rec_t *rec, int peak_severity,
    size_t turns, int redacted, int64_t now_ms)
{
    behave_review_pair(rec, "peak_severity",
                       behave_review_num(rec, 0, peak_severity));
    behave_review_pair(rec, "turns",
                       behave_review_num(rec, 1, (long long) turns));
    behave_review_pair(rec, "updated_at",
                       behave_review_num(rec, 2, (long long) now_ms));
    behave_review_pair(rec, "storage_mode", redacted ? "redacted" : "full");
}


int
behave_review_rec_call(behave_review_rec_t *rec,
    const behave_review_call_t *s, const char *call_id, int redacted,
    int64_t now_ms)
{
    int  k;

    memset(rec, 0, sizeof(*rec));

    k = snprintf(rec->id, sizeof(rec->id), "call:%s:%s", s->provider,
                 call_id);
    if (behave_review_rec_open(rec, k, s->false_resolution_reason, now_ms)
        != 0)
    {
        return -1;
    }

    behave_review_pair(rec, "kind", "call");
    behave_review_pair(rec, "provider", s->provider);
    behave_review_pair(rec, "conversation_id", s->conversation_id);
    behave_review_pair(rec, "call_id", call_id);
    behave_review_pair(rec, "status", behave_review_name(s->review_status));
    behave_review_pair(rec, "action", behave_action_name(s->action));
    behave_review_pair(rec, "action_reason", s->action_reason);
    behave_review_rec_figures(rec, s->peak_severity, s->turns, redacted,
                              now_ms);
    behave_review_pair(rec, "provider_verdict", s->provider_verdict);
    behave_review_pair(rec, "service_verdict", s->service_verdict);
    behave_review_pair(rec, "verdict_disagreement",
                       s->verdict_disagrees ? "1" : "0");
    behave_review_pair(rec, "false_resolution",
                       s->false_resolution ? "1" : "0");
    behave_review_pair(rec, "false_resolution_reason", rec->reason);
    behave_review_pair(rec, "escalating", s->escalating ? "1" : "0");
    behave_review_pair(rec, "repeat_contact_risk",
                       s->repeat_contact_risk ? "1" : "0");

    return 0;
}


int
behave_review_rec_conv(behave_review_rec_t *rec,
    const behave_conv_result_t *res, const char *conversation_id,
    size_t turns, int redacted, int64_t now_ms)
{
    int  k;

    memset(rec, 0, sizeof(*rec));

    k = snprintf(rec->id, sizeof(rec->id), "conv:%s", conversation_id);
    if (behave_review_rec_open(rec, k, res->false_resolution_reason, now_ms)
        != 0)
    {
        return -1;
    }

    behave_review_pair(rec, "kind", "conversation");
    behave_review_pair(rec, "provider", "api");
    behave_review_pair(rec, "conversation_id", conversation_id);
    behave_review_pair(rec, "status", behave_review_name(res->review_status));
    behave_review_pair(rec, "action", behave_action_name(res->action));
    behave_review_pair(rec, "action_reason", res->reason);
    behave_review_rec_figures(rec, res->peak_severity, turns, redacted,
                              now_ms);
    behave_review_pair(rec, "service_verdict", "failure");

    /*
     * The findings stick: written only when true, so a later flagged turn
     * without them does not clear what an earlier one found.
     */
    if (res->false_resolution) {
        behave_review_pair(rec, "false_resolution", "1");
        behave_review_pair(rec, "false_resolution_reason", rec->reason);
    }

    if (res->escalating) {
        behave_review_pair(rec, "escalating", "1");
    }

    if (res->repeat_contact_risk) {
        behave_review_pair(rec, "repeat_contact_risk", "1");
    }

    return 0;
}


char *
behave_review_turn_log(const behave_turn_t *turns, size_t n, int redact,
    uint64_t ts_ms, size_t *len)
{
    behave_review_log_t  log;

    if (behave_review_log_begin(&log, redact, ts_ms) != 0
        || behave_review_log_add(&log, turns, n) != 0)
    {
        behave_review_log_free(&log);
        return NULL;
    }

    *len = log.used;

    return log.buf;
}


int
behave_review_log_begin(behave_review_log_t *log, int redact,
    uint64_t ts_ms)
{
    log->cap = 256;
    log->used = 0;
    log->redact = redact;
    log->ts_ms = ts_ms;
    log->next = 0;
    log->buf = malloc(log->cap);

    return log->buf != NULL ? 0 : -1;
}


int
behave_review_log_add(behave_review_log_t *log, const behave_turn_t *turns,
    size_t n)
{
    char           *red, *nbuf;
    size_t          i, need, rlen, k;
    behave_turn_t   t;

    for (i = 0; i < n; i++) {
        t = turns[i];
        red = NULL;

        if (t.ts_ms == 0) {
            t.ts_ms = log->ts_ms;
        }

        if (log->redact) {
            red = malloc(BEHAVE_REDACT_BOUND(t.text_len) + 1);

            if (red == NULL
                || behave_redact(t.text, t.text_len, red,
                                 BEHAVE_REDACT_BOUND(t.text_len) + 1, &rlen,
                                 NULL)
                   != 0)
            {
                free(red);
                return -1;
            }

            t.text = red;
            t.text_len = rlen;
        }

        need = behave_turn_encoded_max(&t) + 2;

        if (log->used + need > log->cap) {
            while (log->used + need > log->cap) {
                log->cap *= 2;
            }

            nbuf = realloc(log->buf, log->cap);
            if (nbuf == NULL) {
                free(red);
                return -1;
            }

            log->buf = nbuf;
        }

        k = behave_turn_encode(&t, log->buf + log->used,
                               log->cap - log->used);
        k = k ? behave_turn_log_record(log->buf + log->used, k,
                                       log->cap - log->used)
              : 0;
        free(red);

        /* a turn that does not encode is left out, as a reader would */
        log->used += k;
    }

    return 0;
}


int
behave_review_log_step(behave_review_log_t *log, const behave_turn_t *turns,
    size_t n, size_t budget)
{
    char    *nbuf;
    size_t   k, bytes;

    bytes = 0;

    /*
     * Room for the whole log at the first step, from the texts' lengths:
     * doubling a buffer of megabytes in a later step would copy it all in
     * that step.  Redaction or escapes that make it longer still grow it.
     */
    if (log->next == 0 && log->used == 0) {
        for (k = 0; k < n; k++) {
            bytes += turns[k].text_len + 128;
        }

        if (bytes > log->cap) {
            nbuf = realloc(log->buf, bytes);
            if (nbuf == NULL) {
                return -1;
            }

            log->buf = nbuf;
            log->cap = bytes;
        }

        bytes = 0;
    }

    for (k = log->next; k < n && (k == log->next || bytes < budget); k++) {
        bytes += turns[k].text_len + 64;
    }

    if (behave_review_log_add(log, turns + log->next, k - log->next) != 0) {
        return -1;
    }

    log->next = k;

    return k >= n;
}


void
behave_review_log_free(behave_review_log_t *log)
{
    free(log->buf);
    log->buf = NULL;
    log->used = 0;
}


/* JSON of stored records */

static long long
behave_review_int(const behave_review_fields_t *f, behave_review_field_e i)
{
    char  buf[24];

    if (f->v[i] == NULL || f->len[i] == 0 || f->len[i] >= sizeof(buf)) {
        return -1;
    }

    memcpy(buf, f->v[i], f->len[i]);
    buf[f->len[i]] = '\0';

    return strtoll(buf, NULL, 10);
}


static void
behave_review_add_str(cJSON *o, const char *name,
    const behave_review_fields_t *f, behave_review_field_e i)
{
    char  *s;

    if (f->v[i] == NULL) {
        cJSON_AddNullToObject(o, name);
        return;
    }

    s = malloc(f->len[i] + 1);
    if (s == NULL) {
        return;
    }

    memcpy(s, f->v[i], f->len[i]);
    s[f->len[i]] = '\0';
    cJSON_AddStringToObject(o, name, s);
    free(s);
}


static void
behave_review_add_int(cJSON *o, const char *name,
    const behave_review_fields_t *f, behave_review_field_e i)
{
    long long  v;

    v = behave_review_int(f, i);

    if (v < 0) {
        cJSON_AddNullToObject(o, name);

    } else {
        cJSON_AddNumberToObject(o, name, (double) v);
    }
}


static void
behave_review_add_bool(cJSON *o, const char *name,
    const behave_review_fields_t *f, behave_review_field_e i)
{
    cJSON_AddBoolToObject(o, name, f->v[i] != NULL && f->len[i] == 1
                                   && f->v[i][0] == '1');
}


static void
behave_review_add_time(cJSON *o, const char *name,
    const behave_review_fields_t *f, behave_review_field_e i)
{
    char       at[32];
    long long  v;

    v = behave_review_int(f, i);

    if (v <= 0) {
        cJSON_AddNullToObject(o, name);
        return;
    }

    behave_iso8601_ms(v, at, sizeof(at));
    cJSON_AddStringToObject(o, name, at);
}


static void
behave_review_add_members(cJSON *o, const behave_review_fields_t *f,
    const behave_review_member_t *m, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        m[i].add(o, m[i].name, f, m[i].field);
    }
}


cJSON *
behave_review_item_json(const char *id, size_t id_len,
    const behave_review_fields_t *f)
{
    cJSON  *o;
    char    buf[BEHAVE_REVIEW_ID_MAX + 1];

    o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }

    if (id_len > BEHAVE_REVIEW_ID_MAX) {
        id_len = BEHAVE_REVIEW_ID_MAX;
    }

    memcpy(buf, id, id_len);
    buf[id_len] = '\0';

    cJSON_AddStringToObject(o, "id", buf);
    behave_review_add_members(o, f, behave_review_item_members,
                        behave_review_nmembers(behave_review_item_members));

    return o;
}


cJSON *
behave_review_detail_json(const char *id, size_t id_len,
    const behave_review_fields_t *f, const char **history,
    const size_t *history_len, size_t nhistory, const behave_turn_t *turns,
    size_t n, size_t first, size_t window)
{
    size_t   i;
    cJSON   *o, *v, *h, *e, *tr, *fi;

    o = behave_review_item_json(id, id_len, f);
    if (o == NULL) {
        return NULL;
    }

    behave_review_add_members(o, f, behave_review_detail_members,
                      behave_review_nmembers(behave_review_detail_members));

    v = cJSON_AddObjectToObject(o, "verdicts");
    if (v != NULL) {
        behave_review_add_members(v, f, behave_review_verdict_members,
                     behave_review_nmembers(behave_review_verdict_members));
    }

    h = cJSON_AddArrayToObject(o, "history");

    for (i = 0; h != NULL && i < nhistory; i++) {
        e = cJSON_ParseWithLength(history[i], history_len[i]);

        /* a line that does not parse is left out, never fatal */
        if (cJSON_IsObject(e)) {
            cJSON_AddItemToArray(h, e);

        } else {
            cJSON_Delete(e);
        }
    }

    cJSON_AddNumberToObject(o, "turns_trimmed", (double) first);

    tr = cJSON_AddArrayToObject(o, "transcript");
    fi = cJSON_AddArrayToObject(o, "findings");

    if (tr == NULL || fi == NULL) {
        cJSON_Delete(o);
        return NULL;
    }

    for (i = 0; i < n; i++) {
        cJSON_AddItemToArray(tr, behave_review_turn_json(&turns[i],
                                                         first + i));
    }

    behave_review_findings(tr, fi, turns, n, first, window);

    if (behave_review_int(f, BEHAVE_RF_DISAGREEMENT) == 1) {
        e = cJSON_CreateObject();
        if (e != NULL) {
            cJSON_AddStringToObject(e, "type", "verdict_disagreement");
            cJSON_AddNullToObject(e, "turn");
            cJSON_AddStringToObject(e, "reason",
                                    "the platform's verdict differs from "
                                    "the service's");
            cJSON_AddItemToArray(fi, e);
        }
    }

    return o;
}


static cJSON *
behave_review_turn_json(const behave_turn_t *t, size_t num)
{
    char    at[32], *text;
    cJSON  *o, *a;

    o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }

    cJSON_AddNumberToObject(o, "turn", (double) num);
    cJSON_AddStringToObject(o, "speaker",
                            t->speaker == BEHAVE_SPEAKER_AGENT ? "agent"
                                                               : "customer");

    if (t->ts_ms) {
        behave_iso8601_ms((int64_t) t->ts_ms, at, sizeof(at));
        cJSON_AddStringToObject(o, "at", at);

    } else {
        cJSON_AddNullToObject(o, "at");
    }

    text = malloc(t->text_len + 1);
    if (text != NULL) {
        memcpy(text, t->text, t->text_len);
        text[t->text_len] = '\0';
        cJSON_AddStringToObject(o, "text", text);
        free(text);
    }

    a = cJSON_AddObjectToObject(o, "annotation");
    if (a != NULL) {
        cJSON_AddStringToObject(a, "emotional_valence",
                                behave_valence_name(t->valence));
        cJSON_AddNumberToObject(a, "valence_score",
                                behave_round3(t->valence_score));
        cJSON_AddStringToObject(a, "urgency_level",
                                behave_urgency_name(t->urgency));
        cJSON_AddStringToObject(a, "cognitive_load",
                                behave_load_name(t->load));
        cJSON_AddNumberToObject(a, "severity", t->severity);
        cJSON_AddItemToObject(a, "cues", behave_review_cues_json(t->cues));
    }

    return o;
}


static cJSON *
behave_review_cues_json(unsigned cues)
{
    size_t  i;
    cJSON  *a;

    a = cJSON_CreateArray();

    for (i = 0; a != NULL && i < sizeof(behave_review_cue_names)
                                 / sizeof(behave_review_cue_names[0]); i++)
    {
        if (cues & behave_review_cue_names[i].bit) {
            cJSON_AddItemToArray(a, cJSON_CreateString(
                                        behave_review_cue_names[i].name));
        }
    }

    return a;
}


/*
 * The conversation logic again at each customer turn, from the running
 * state of the turns before it, folded turn by turn as /v1/analyze keeps
 * it (behave_conv_state.h): each turn gets its own review, and each
 * finding is listed at the turn that fired it (an escalation and a
 * repeat-contact risk where they begin, a false resolution and a
 * repetition every time).  window is kept for the callers: the state's
 * own ring bounds what is compared.
 */

static void
behave_review_findings(cJSON *transcript, cJSON *findings,
    const behave_turn_t *turns, size_t n, size_t first, size_t window)
{
    int                    was_escalating, was_repeat;
    size_t                 i;
    cJSON                 *t, *rv, *e;
    behave_conv_rec_t      rec;
    behave_conv_state_t   *st;
    behave_conv_result_t   res;

    (void) window;

    st = malloc(sizeof(behave_conv_state_t));
    if (st == NULL) {
        return;
    }

    behave_conv_state_init(st);
    st->turns = (uint32_t) first;
    st->dropped = (uint32_t) first;

    was_escalating = 0;
    was_repeat = 0;

    for (i = 0; i < n; i++) {
        behave_conversation_record(&turns[i], &rec);
        rec.turn = st->turns;

        if (turns[i].speaker != BEHAVE_SPEAKER_CUSTOMER) {
            behave_conv_state_push(st, &rec);
            continue;
        }

        behave_conversation_assess_state(st, &rec, &res);
        behave_conv_state_push(st, &rec);

        t = cJSON_GetArrayItem(transcript, (int) i);
        rv = (t != NULL) ? cJSON_AddObjectToObject(t, "review") : NULL;

        if (rv != NULL) {
            cJSON_AddStringToObject(rv, "review_status",
                                    behave_review_name(res.review_status));
            cJSON_AddStringToObject(rv, "action",
                                    behave_action_name(res.action));
            cJSON_AddBoolToObject(rv, "false_resolution",
                                  res.false_resolution);
            cJSON_AddBoolToObject(rv, "repetition", res.repetition);
            cJSON_AddBoolToObject(rv, "escalating", res.escalating);
        }

        if (res.false_resolution) {
            behave_review_finding(findings, "false_resolution", first + i,
                                  res.false_resolution_reason);
            e = cJSON_GetArrayItem(findings,
                                   cJSON_GetArraySize(findings) - 1);

            if (e != NULL && res.claim_turn >= 0) {
                cJSON_AddNumberToObject(e, "claim_turn",
                                        (double) res.claim_turn);
            }
        }

        if (res.repetition) {
            behave_review_finding(findings, "repetition", first + i,
                                  "the customer asks again what an earlier "
                                  "turn asked");
            e = cJSON_GetArrayItem(findings,
                                   cJSON_GetArraySize(findings) - 1);

            if (e != NULL && res.repeated_turn >= 0) {
                cJSON_AddNumberToObject(e, "repeated_turn",
                                        (double) res.repeated_turn);
            }
        }

        if (res.escalating && !was_escalating) {
            behave_review_finding(findings, "escalating", first + i,
                                  res.reason);
        }

        if (res.repeat_contact_risk && !was_repeat) {
            behave_review_finding(findings, "repeat_contact_risk", first + i,
                                  "the issue is likely to come back as a "
                                  "new contact");
        }

        if (turns[i].severity >= 4) {
            behave_review_finding(findings, "critical", first + i,
                                  "crisis or critical urgency (severity 4)");
        }

        was_escalating = res.escalating;
        was_repeat |= res.repeat_contact_risk;
    }

    free(st);
}


static void
behave_review_finding(cJSON *findings, const char *type, size_t turn,
    const char *reason)
{
    cJSON  *e;

    e = cJSON_CreateObject();
    if (e == NULL) {
        return;
    }

    cJSON_AddStringToObject(e, "type", type);
    cJSON_AddNumberToObject(e, "turn", (double) turn);
    cJSON_AddStringToObject(e, "reason", reason);
    cJSON_AddItemToArray(findings, e);
}
