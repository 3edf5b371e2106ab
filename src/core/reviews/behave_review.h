/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The review queue: calls (surface C) and conversations (surface B) that
 * concluded needs_review or escalated, for a person to look at.  This is
 * the pure part: the stored record's fields, the list query (filters,
 * cursor), the PATCH body, and the JSON of an item and of one review with
 * its transcript and findings.  docs/API.md (Reviews) is the reference.
 *
 * A review id names what it points to, so a conversation flagged again
 * updates its one review instead of adding another:
 *
 *     call:<provider>:<call id>        a webhook call
 *     conv:<conversation id>           a /v1/analyze conversation
 *
 * Ids are [A-Za-z0-9_.:@-], at most BEHAVE_REVIEW_ID_MAX bytes.
 *
 * Cursor: base64url (no padding) of "1:<score ms>:<id>", the position of
 * the last item of a page; the next page holds what sorts after it
 * (score descending, then id descending).  It is a position, not a
 * snapshot: it stays valid whatever the filters, and an item updated
 * meanwhile (a conversation flagged again) moves to the top.
 */

#ifndef BEHAVE_REVIEW_H
#define BEHAVE_REVIEW_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "conversation/behave_conversation.h"
#include "base/behave_error.h"
#include "conversation/behave_turn.h"

/*
 * The fields of a stored record, BEHAVE_RF_*, in the order the scripts
 * read them back: behave_review.fields, compiled (generated) by
 * scripts/gen-redis-scripts
 */
#include "behave_review_fields.h"


#define BEHAVE_REVIEW_ID_MAX       200
#define BEHAVE_REVIEW_CURSOR_MAX   300      /* encoded, with NUL */
#define BEHAVE_REVIEW_LIMIT        25
#define BEHAVE_REVIEW_LIMIT_MAX    100
#define BEHAVE_REVIEW_BY_MAX       128
#define BEHAVE_REVIEW_NOTE_MAX     2000
#define BEHAVE_REVIEW_HISTORY_MAX  100      /* entries kept per review */
#define BEHAVE_REVIEW_SCAN_MAX     2000     /* index entries a page reads */
#define BEHAVE_REVIEW_ENTRY_MAX    (BEHAVE_REVIEW_NOTE_MAX * 6 + 512)


/* a record as read back: v[i] NULL when absent; not NUL-terminated */
typedef struct {
    const char            *v[BEHAVE_RF_LAST];
    size_t                 len[BEHAVE_RF_LAST];
} behave_review_fields_t;


/* a record to write: field/value pairs for HSET (values point inside) */
#define BEHAVE_REVIEW_PAIRS_MAX    (2 * BEHAVE_RF_LAST)

typedef struct behave_review_rec_s {
    size_t                 n;
    const char            *argv[BEHAVE_REVIEW_PAIRS_MAX];
    size_t                 len[BEHAVE_REVIEW_PAIRS_MAX];

    char                   id[BEHAVE_REVIEW_ID_MAX + 1];
    char                   num[8][24];
    char                   reason[BEHAVE_CONV_REASON_MAX + 32];
    char                   reopened[96];    /* history entry if reopened */
} behave_review_rec_t;


/*
 * What a webhook call's record says: the webhooks glue fills it from the
 * call's summary (the queue reads no surface of the core but its own)
 */
typedef struct {
    const char            *provider;
    const char            *conversation_id;
    behave_review_e        review_status;
    behave_action_e        action;
    const char            *action_reason;
    int                    peak_severity;
    size_t                 turns;
    const char            *provider_verdict;   /* names */
    const char            *service_verdict;
    int                    verdict_disagrees;
    int                    false_resolution;
    const char            *false_resolution_reason;
    int                    escalating;
    int                    repeat_contact_risk;
} behave_review_call_t;


/*
 * The record of a webhook call or of a flagged conversation turn (its
 * block, the turns so far); now_ms is the time of the finding.  0, or -1
 * when an id does not fit.
 */
int behave_review_rec_call(behave_review_rec_t *rec,
    const behave_review_call_t *c, const char *call_id, int redacted,
    int64_t now_ms);
int behave_review_rec_conv(behave_review_rec_t *rec,
    const behave_conv_result_t *res, const char *conversation_id,
    size_t turns, int redacted, int64_t now_ms);

/* the statuses that put a call or a conversation in the queue */
int behave_review_wanted(behave_review_e status);


/*
 * A conversation's filing mark, kept next to its state (same Redis
 * slot) and read back with it: the fingerprint of what its review last
 * showed (8 hex digits), the findings filed so far (1, bits), when it
 * was filed (8, seconds).  A flagged turn files only when
 * behave_review_mark_due() says so: the review changed or has a new
 * finding, or has no mark, or was filed refresh seconds ago (so that its
 * time, its turns and its TTL follow a conversation that goes on
 * failing).  The mark is written only once a filing succeeded.
 */
#define BEHAVE_REVIEW_MARK_LEN     17
#define BEHAVE_REVIEW_REFRESH      60       /* seconds, at most */

#define BEHAVE_REVIEW_F_FALSE_RESOLUTION  0x1
#define BEHAVE_REVIEW_F_ESCALATING        0x2
#define BEHAVE_REVIEW_F_REPEAT_CONTACT    0x4

/* of the record behave_review_rec_conv() would write; *findings: bits */
uint32_t behave_review_conv_fingerprint(const behave_conv_result_t *res,
    int redacted, unsigned *findings);
/* out: BEHAVE_REVIEW_MARK_LEN + 1 bytes; old: the mark read, or "" */
void behave_review_mark_make(char *out, const char *old, size_t old_len,
    uint32_t fp, unsigned findings, int64_t now_sec);
int behave_review_mark_due(const char *mark, size_t len, uint32_t fp,
    unsigned findings, int64_t now_sec, int64_t refresh);
/* the refresh for a review living ttl seconds: 60 s, or less if short */
int64_t behave_review_mark_refresh(int64_t ttl);


/*
 * The turns of a call as a turn log (behave_turn_log.h), malloc()ed;
 * with redact the text of each turn is stored redacted.  Turns whose
 * ts_ms is 0 get ts_ms.  NULL when out of memory.
 */
char *behave_review_turn_log(const behave_turn_t *turns, size_t n,
    int redact, uint64_t ts_ms, size_t *len);

/*
 * The same log built a few turns at a time, for a caller that spreads a
 * long call over event-loop steps: begin, add the turns in order (any
 * number a call), then buf[0..used) is the log (the caller takes buf, or
 * frees it with behave_review_log_free()).  begin and add return 0, or -1
 * when out of memory (the log must then be freed).
 */
typedef struct {
    char                  *buf;
    size_t                 used;
    size_t                 cap;
    int                    redact;
    uint64_t               ts_ms;
    size_t                 next;      /* behave_review_log_step()'s turn */
} behave_review_log_t;

int behave_review_log_begin(behave_review_log_t *log, int redact,
    uint64_t ts_ms);
int behave_review_log_add(behave_review_log_t *log,
    const behave_turn_t *turns, size_t n);
void behave_review_log_free(behave_review_log_t *log);

/*
 * Adds the next turns of turns[0..n) until about budget bytes of text are
 * added (at least one turn; redaction and encoding cost by the byte).
 * Returns 1 when all n are in, 0 when more remain, -1 out of memory.
 */
int behave_review_log_step(behave_review_log_t *log,
    const behave_turn_t *turns, size_t n, size_t budget);


/* GET /v1/reviews query */
typedef struct {
    const char            *status;          /* NULL: any */
    const char            *provider;        /* NULL: any */
    int                    reviewed;        /* -1 any, 0, 1 */
    int64_t                from_ms;         /* -1: none */
    int64_t                to_ms;           /* -1: none */
    unsigned               limit;
    int                    has_cursor;
    int64_t                cursor_ms;
    char                   cursor_id[BEHAVE_REVIEW_ID_MAX + 1];
    const char *const     *providers;       /* the filter's names */
} behave_review_query_t;

/*
 * Parses a query string (without '?'; percent-encoding and '+' decoded).
 * Unknown parameters are ignored.  providers: the names a "provider"
 * filter may take, NULL-terminated (the glue's, from the table of
 * behave_provider.h, and "api" for conversations).  BEHAVE_OK, or the
 * error to answer.
 */
behave_err_e behave_review_query_parse(const char *args, size_t len,
    const char *const *providers, behave_review_query_t *q,
    behave_error_t *err);

int behave_review_id_valid(const char *id, size_t len);

/* NUL-terminated cursor into out (BEHAVE_REVIEW_CURSOR_MAX); -1 if long */
int behave_review_cursor_encode(int64_t ms, const char *id, size_t id_len,
    char *out, size_t cap);
int behave_review_cursor_decode(const char *s, size_t len, int64_t *ms,
    char *id, size_t cap);

/* "2026-11-23T10:00:00Z", with optional .mmm, or unix milliseconds */
int behave_review_time_parse(const char *s, size_t len, int64_t *ms);


/* PATCH /v1/reviews/<id> */
typedef struct {
    int                    reviewed;
    const char            *by;
    const char            *note;            /* "" when absent */
} behave_review_patch_t;

behave_err_e behave_review_patch_parse(const cJSON *root,
    behave_review_patch_t *p, behave_error_t *err);

/* the history entry of a PATCH, malloc()ed JSON; NULL out of memory */
char *behave_review_patch_entry(const behave_review_patch_t *p,
    int64_t now_ms, size_t *len);


/* one queue row */
cJSON *behave_review_item_json(const char *id, size_t id_len,
    const behave_review_fields_t *f);

/*
 * One review in full: the row, reasons, verdicts, the review state and
 * its history (JSON texts, oldest first), and the transcript: turns[]
 * (oldest first, turn number first + i) with each turn's stored
 * annotation and, at each customer turn, the conversation logic run
 * again over the window of turns before it, whose findings are listed
 * with the turn that fired each.
 */
cJSON *behave_review_detail_json(const char *id, size_t id_len,
    const behave_review_fields_t *f, const char **history,
    const size_t *history_len, size_t nhistory, const behave_turn_t *turns,
    size_t n, size_t first, size_t window);


#endif /* BEHAVE_REVIEW_H */
