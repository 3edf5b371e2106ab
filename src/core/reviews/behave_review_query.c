/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The review queue's inputs: the list query, its cursor and times, the
 * review ids and the PATCH body.  Every input is checked strictly: a
 * value that is not exactly what docs/API.md says is a 400 naming it.
 */


#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/behave_hex.h"
#include "base/behave_json.h"
#include "reviews/behave_review.h"
#include "base/behave_time.h"
#include "base/behave_utf8.h"


#define BEHAVE_REVIEW_ARG_MAX  512


static size_t behave_review_unescape(const char *s, size_t len, char *out,
    size_t cap, int *bad);
static behave_err_e behave_review_query_arg(const char *name, size_t nlen,
    const char *v, size_t vlen, behave_review_query_t *q,
    behave_error_t *err);
static int behave_review_one_of(const char *v, size_t len,
    const char *const *names, const char **found);
static int behave_review_digits(const char *s, size_t len, int64_t *out);
static int64_t behave_review_days(int64_t y, unsigned m, unsigned d);


static const char *const  behave_review_statuses[] = {
    "needs_review", "escalated", NULL
};

static const char  behave_b64url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";


int
behave_review_id_valid(const char *id, size_t len)
{
    /* "call:" or "conv:", and at least one byte after it */
    if (len < 6
        || (strncmp(id, "call:", 5) != 0 && strncmp(id, "conv:", 5) != 0))
    {
        return 0;
    }

    return behave_ascii_name_valid(id, len, BEHAVE_REVIEW_ID_MAX, "_.:@-");
}


int
behave_review_cursor_encode(int64_t ms, const char *id, size_t id_len,
    char *out, size_t cap)
{
    char      raw[BEHAVE_REVIEW_ID_MAX + 32];
    size_t    n, i, o;
    uint32_t  v;
    int       k;

    k = snprintf(raw, sizeof(raw), "1:%lld:%.*s", (long long) ms,
                 (int) id_len, id);
    if (k < 0 || (size_t) k >= sizeof(raw)) {
        return -1;
    }

    n = (size_t) k;

    if ((n + 2) / 3 * 4 + 1 > cap) {
        return -1;
    }

    o = 0;

    for (i = 0; i < n; i += 3) {
        v = (uint32_t) (unsigned char) raw[i] << 16;

        if (i + 1 < n) {
            v |= (uint32_t) (unsigned char) raw[i + 1] << 8;
        }

        if (i + 2 < n) {
            v |= (unsigned char) raw[i + 2];
        }

        out[o++] = behave_b64url[(v >> 18) & 63];
        out[o++] = behave_b64url[(v >> 12) & 63];

        if (i + 1 < n) {
            out[o++] = behave_b64url[(v >> 6) & 63];
        }

        if (i + 2 < n) {
            out[o++] = behave_b64url[v & 63];
        }
    }

    out[o] = '\0';

    return 0;
}


int
behave_review_cursor_decode(const char *s, size_t len, int64_t *ms,
    char *id, size_t cap)
{
    char        raw[BEHAVE_REVIEW_CURSOR_MAX];
    const char  *p, *colon;
    size_t       i, n, bits;
    uint32_t     acc;

    if (len == 0 || len >= BEHAVE_REVIEW_CURSOR_MAX || len % 4 == 1) {
        return -1;
    }

    n = 0;
    acc = 0;
    bits = 0;

    for (i = 0; i < len; i++) {
        p = memchr(behave_b64url, s[i], 64);
        if (p == NULL || s[i] == '\0') {
            return -1;
        }

        acc = (acc << 6) | (uint32_t) (p - behave_b64url);
        bits += 6;

        if (bits >= 8) {
            bits -= 8;
            raw[n++] = (char) ((acc >> bits) & 0xff);
        }
    }

    /* the unused low bits of the last character must be zero */
    if (bits && (acc & ((1u << bits) - 1)) != 0) {
        return -1;
    }

    if (n < 5 || raw[0] != '1' || raw[1] != ':') {
        return -1;
    }

    colon = memchr(raw + 2, ':', n - 2);
    if (colon == NULL
        || behave_review_digits(raw + 2, colon - raw - 2, ms) != 0)
    {
        return -1;
    }

    p = colon + 1;
    n -= p - raw;

    if (!behave_review_id_valid(p, n) || n + 1 > cap) {
        return -1;
    }

    memcpy(id, p, n);
    id[n] = '\0';

    return 0;
}


/* 1..16 digits: milliseconds until year 2286 and beyond, no overflow */

static int
behave_review_digits(const char *s, size_t len, int64_t *out)
{
    size_t   i;
    int64_t  v;

    if (len == 0 || len > 16) {
        return -1;
    }

    v = 0;

    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return -1;
        }

        v = v * 10 + (s[i] - '0');
    }

    *out = v;

    return 0;
}


/* days since 1970-01-01 of a proleptic Gregorian date */

static int64_t
behave_review_days(int64_t y, unsigned m, unsigned d)
{
    int64_t   era;
    unsigned  yoe, doy, doe;

    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = (unsigned) (y - era * 400);
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

    return era * 146097 + (int64_t) doe - 719468;
}


int
behave_review_time_parse(const char *s, size_t len, int64_t *ms)
{
    int64_t   y, mo, d, h, mi, sec, frac;
    size_t    flen;

    static const unsigned  mdays[] = {
        31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
    };

    if (len > 0 && s[0] >= '0' && s[0] <= '9' && memchr(s, '-', len) == NULL)
    {
        return behave_review_digits(s, len, ms);
    }

    /* YYYY-MM-DDTHH:MM:SS[.f{1,3}]Z */
    if (len < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T'
        && s[10] != 't') || s[13] != ':' || s[16] != ':'
        || (s[len - 1] != 'Z' && s[len - 1] != 'z'))
    {
        return -1;
    }

    if (behave_review_digits(s, 4, &y) || behave_review_digits(s + 5, 2, &mo)
        || behave_review_digits(s + 8, 2, &d)
        || behave_review_digits(s + 11, 2, &h)
        || behave_review_digits(s + 14, 2, &mi)
        || behave_review_digits(s + 17, 2, &sec))
    {
        return -1;
    }

    frac = 0;

    if (len > 20) {
        flen = len - 21;

        if (s[19] != '.' || flen < 1 || flen > 3
            || behave_review_digits(s + 20, flen, &frac))
        {
            return -1;
        }

        for (; flen < 3; flen++) {
            frac *= 10;
        }
    }

    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1]
        || (mo == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)))
        || h > 23 || mi > 59 || sec > 59)
    {
        return -1;
    }

    *ms = ((behave_review_days(y, (unsigned) mo, (unsigned) d) * 24 + h) * 60
           + mi) * 60000 + sec * 1000 + frac;

    return 0;
}


/* percent-decoding and '+' as space; *bad for a broken escape */

static size_t
behave_review_unescape(const char *s, size_t len, char *out, size_t cap,
    int *bad)
{
    size_t  i, o;
    int     hi, lo;

    o = 0;

    for (i = 0; i < len; i++) {
        if (o + 1 >= cap) {
            *bad = 1;
            return 0;
        }

        if (s[i] == '+') {
            out[o++] = ' ';

        } else if (s[i] == '%') {
            if (i + 2 >= len) {
                *bad = 1;
                return 0;
            }

            hi = behave_hex_digit(s[i + 1]);
            lo = behave_hex_digit(s[i + 2]);

            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                *bad = 1;
                return 0;
            }

            out[o++] = (char) (hi * 16 + lo);
            i += 2;

        } else {
            out[o++] = s[i];
        }
    }

    out[o] = '\0';

    return o;
}


behave_err_e
behave_review_query_parse(const char *args, size_t len,
    const char *const *providers, behave_review_query_t *q,
    behave_error_t *err)
{
    int           bad;
    char          name[32], value[BEHAVE_REVIEW_ARG_MAX];
    size_t        nlen, vlen;
    const char   *p, *end, *amp, *eq;
    behave_err_e  rc;

    memset(q, 0, sizeof(*q));
    q->reviewed = -1;
    q->from_ms = -1;
    q->to_ms = -1;
    q->limit = BEHAVE_REVIEW_LIMIT;
    q->providers = providers;

    p = args;
    end = args + len;

    while (p < end) {
        amp = memchr(p, '&', end - p);
        if (amp == NULL) {
            amp = end;
        }

        eq = memchr(p, '=', amp - p);
        if (eq == NULL) {
            eq = amp;
        }

        bad = 0;
        nlen = behave_review_unescape(p, eq - p, name, sizeof(name), &bad);

        /* a name longer than any we know is not ours: ignored */
        if (!bad) {
            vlen = (eq < amp) ? behave_review_unescape(eq + 1, amp - eq - 1,
                                                       value, sizeof(value),
                                                       &bad)
                              : 0;
            value[vlen] = '\0';

            if (bad) {
                return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                           "query parameter \"%.*s\" is badly encoded or "
                           "too long", (int) nlen, name);
            }

            rc = behave_review_query_arg(name, nlen, value, vlen, q, err);
            if (rc != BEHAVE_OK) {
                return rc;
            }
        }

        p = amp + 1;
    }

    if (q->from_ms >= 0 && q->to_ms >= 0 && q->from_ms > q->to_ms) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "\"from\" is later than \"to\"");
    }

    return BEHAVE_OK;
}


static behave_err_e
behave_review_query_arg(const char *name, size_t nlen, const char *v,
    size_t vlen, behave_review_query_t *q, behave_error_t *err)
{
    int64_t  n;

#define behave_is(s)  (nlen == sizeof(s) - 1 && memcmp(name, s, nlen) == 0)

    if (behave_is("status")) {
        if (!behave_review_one_of(v, vlen, behave_review_statuses,
                                  &q->status))
        {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                       "\"status\" must be \"needs_review\" or "
                       "\"escalated\"");
        }

    } else if (behave_is("provider")) {
        if (!behave_review_one_of(v, vlen, q->providers, &q->provider)) {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                       "\"provider\" must be a provider's name, or "
                       "\"api\" for conversations");
        }

    } else if (behave_is("reviewed")) {
        if (vlen == 4 && memcmp(v, "true", 4) == 0) {
            q->reviewed = 1;

        } else if (vlen == 5 && memcmp(v, "false", 5) == 0) {
            q->reviewed = 0;

        } else {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                       "\"reviewed\" must be \"true\" or \"false\"");
        }

    } else if (behave_is("from") || behave_is("to")) {
        if (behave_review_time_parse(v, vlen, &n) != 0) {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                       "\"%s\" must be an ISO 8601 UTC time "
                       "(2026-01-31T09:30:00Z) or unix milliseconds",
                       name[0] == 'f' ? "from" : "to");
        }

        if (name[0] == 'f') {
            q->from_ms = n;

        } else {
            q->to_ms = n;
        }

    } else if (behave_is("limit")) {
        if (behave_review_digits(v, vlen, &n) != 0 || n < 1
            || n > BEHAVE_REVIEW_LIMIT_MAX)
        {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                       "\"limit\" must be an integer from 1 to %d",
                       BEHAVE_REVIEW_LIMIT_MAX);
        }

        q->limit = (unsigned) n;

    } else if (behave_is("cursor")) {
        if (behave_review_cursor_decode(v, vlen, &q->cursor_ms, q->cursor_id,
                                        sizeof(q->cursor_id))
            != 0)
        {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                       "\"cursor\" is not a cursor this API returned: pass "
                       "next_cursor unchanged, or omit it for the first "
                       "page");
        }

        q->has_cursor = 1;
    }

#undef behave_is

    return BEHAVE_OK;
}


static int
behave_review_one_of(const char *v, size_t len, const char *const *names,
    const char **found)
{
    for (; *names != NULL; names++) {
        if (strlen(*names) == len && memcmp(*names, v, len) == 0) {
            *found = *names;
            return 1;
        }
    }

    return 0;
}


behave_err_e
behave_review_patch_parse(const cJSON *root, behave_review_patch_t *p,
    behave_error_t *err)
{
    const cJSON  *v;

    memset(p, 0, sizeof(*p));
    p->reviewed = 1;
    p->note = "";

    v = cJSON_GetObjectItemCaseSensitive(root, "reviewed");

    if (v != NULL && !cJSON_IsNull(v)) {
        if (!cJSON_IsBool(v)) {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                    "field \"reviewed\" must be a boolean");
        }

        p->reviewed = cJSON_IsTrue(v);
    }

    v = cJSON_GetObjectItemCaseSensitive(root, "reviewed_by");

    if (v == NULL || cJSON_IsNull(v)) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "field \"reviewed_by\" is required: who "
                                "reviewed it");
    }

    if (!cJSON_IsString(v) || v->valuestring[0] == '\0'
        || strlen(v->valuestring) > BEHAVE_REVIEW_BY_MAX)
    {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"reviewed_by\" must be a string of "
                                "1 to %d bytes", BEHAVE_REVIEW_BY_MAX);
    }

    p->by = v->valuestring;

    v = cJSON_GetObjectItemCaseSensitive(root, "note");

    if (v != NULL && !cJSON_IsNull(v)) {
        if (!cJSON_IsString(v)
            || strlen(v->valuestring) > BEHAVE_REVIEW_NOTE_MAX)
        {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                    "field \"note\" must be a string of at "
                                    "most %d bytes", BEHAVE_REVIEW_NOTE_MAX);
        }

        p->note = v->valuestring;
    }

    return BEHAVE_OK;
}


char *
behave_review_patch_entry(const behave_review_patch_t *p, int64_t now_ms,
    size_t *len)
{
    char    at[32];
    cJSON  *o;
    char   *s;

    o = cJSON_CreateObject();
    if (o == NULL) {
        return NULL;
    }

    behave_iso8601_ms(now_ms, at, sizeof(at));

    cJSON_AddStringToObject(o, "event", p->reviewed ? "marked_reviewed"
                                                    : "marked_unreviewed");
    cJSON_AddStringToObject(o, "at", at);
    cJSON_AddStringToObject(o, "by", p->by);
    cJSON_AddStringToObject(o, "note", p->note);

    s = behave_json_print(o, len);
    cJSON_Delete(o);

    return s;
}
