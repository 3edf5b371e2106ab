/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A conversation's filing mark (behave_review.h): what its review last
 * showed a reviewer, so that a flagged turn files only when that changes.
 */


#include <stdio.h>
#include <string.h>

#include "behave_review.h"


static int behave_review_mark_read(const char *mark, size_t len,
    uint32_t *fp, unsigned *findings, uint32_t *t);
static int behave_review_mark_hex(const char *s, int n, uint32_t *v);


/*
 * The findings a record keeps once written (behave_review_rec_conv()
 * writes them only when true, and the filing never clears them): a mark
 * keeps them as bits, the union of what was filed, so that a turn
 * without one is not a change, and a turn with a new one is.
 */
static const char  *behave_review_sticky[] = {
    "false_resolution", "escalating", "repeat_contact_risk",
    "false_resolution_reason"
};

#define BEHAVE_REVIEW_STICKY_BITS  3      /* the reason goes with its bit */


/*
 * FNV-1a over the record's field/value pairs but "turns" and
 * "updated_at", which move at every turn, and the sticky findings, which
 * come back in *findings.  In the reasons, the turn numbers ("customer
 * turn 57 ...") are left out: the same finding at a later turn is not
 * new to a reviewer, whose findings list every turn.
 */

uint32_t
behave_review_rec_fingerprint(const behave_review_rec_t *rec,
    unsigned *findings)
{
    int          reason;
    size_t       i, j, k, nl;
    uint32_t     h;
    const char  *name, *v;

    h = 2166136261u;
    *findings = 0;

    for (i = 0; i + 1 < rec->n; i += 2) {
        name = rec->argv[i];

        if (strcmp(name, "turns") == 0 || strcmp(name, "updated_at") == 0) {
            continue;
        }

        for (k = 0; k < sizeof(behave_review_sticky) / sizeof(char *); k++) {
            if (strcmp(name, behave_review_sticky[k]) == 0) {
                break;
            }
        }

        if (k < sizeof(behave_review_sticky) / sizeof(char *)) {
            if (k < BEHAVE_REVIEW_STICKY_BITS && rec->len[i + 1] == 1
                && rec->argv[i + 1][0] == '1')
            {
                *findings |= 1u << k;
            }

            continue;
        }

        nl = strlen(name);
        reason = nl >= 6 && strcmp(name + nl - 6, "reason") == 0;

        for (j = 0; j <= nl; j++) {
            h = (h ^ (unsigned char) name[j]) * 16777619u;
        }

        v = rec->argv[i + 1];

        for (j = 0; j < rec->len[i + 1]; j++) {
            if (reason && v[j] >= '0' && v[j] <= '9') {
                continue;
            }

            h = (h ^ (unsigned char) v[j]) * 16777619u;
        }

        h = (h ^ 0xffu) * 16777619u;
    }

    return h;
}


/* the findings filed so far: the old mark's and this filing's */

void
behave_review_mark_make(char *out, const char *old, size_t old_len,
    uint32_t fp, unsigned findings, int64_t now_sec)
{
    uint32_t  ofp, ot;
    unsigned  of;

    if (behave_review_mark_read(old, old_len, &ofp, &of, &ot) == 0) {
        findings |= of;
    }

    snprintf(out, BEHAVE_REVIEW_MARK_LEN + 1, "%08x%x%08x", (unsigned) fp,
             findings & 0xfu, (unsigned) ((uint64_t) now_sec & 0xffffffffu));
}


/*
 * Due when there is no mark (a new review, an older build's
 * conversation, a review changed by a person since), when it is not one
 * this build wrote, when what the review shows changed (a new finding
 * among them), or when the last filing is refresh seconds old (or the
 * clocks disagree by as much).
 */

int
behave_review_mark_due(const char *mark, size_t len, uint32_t fp,
    unsigned findings, int64_t now_sec, int64_t refresh)
{
    int64_t   age;
    uint32_t  mfp, mt;
    unsigned  mf;

    if (behave_review_mark_read(mark, len, &mfp, &mf, &mt) != 0) {
        return 1;
    }

    if (mfp != fp || (findings & ~mf) != 0) {
        return 1;
    }

    age = (int64_t) (uint32_t) ((uint64_t) now_sec - mt);

    return age >= refresh && age <= 0xffffffffLL - refresh;
}


int64_t
behave_review_mark_refresh(int64_t ttl)
{
    return ttl / 2 < BEHAVE_REVIEW_REFRESH ? (ttl > 1 ? ttl / 2 : 1)
                                           : BEHAVE_REVIEW_REFRESH;
}


static int
behave_review_mark_read(const char *mark, size_t len, uint32_t *fp,
    unsigned *findings, uint32_t *t)
{
    uint32_t  f;

    if (len != BEHAVE_REVIEW_MARK_LEN
        || behave_review_mark_hex(mark, 8, fp) != 0
        || behave_review_mark_hex(mark + 8, 1, &f) != 0
        || behave_review_mark_hex(mark + 9, 8, t) != 0)
    {
        return -1;
    }

    *findings = f;

    return 0;
}


/* n lowercase hex digits, as behave_review_mark_make() writes them */

static int
behave_review_mark_hex(const char *s, int n, uint32_t *v)
{
    int       i;
    uint32_t  x;

    x = 0;

    for (i = 0; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            x = (x << 4) | (uint32_t) (s[i] - '0');

        } else if (s[i] >= 'a' && s[i] <= 'f') {
            x = (x << 4) | (uint32_t) (s[i] - 'a' + 10);

        } else {
            return -1;
        }
    }

    *v = x;

    return 0;
}
