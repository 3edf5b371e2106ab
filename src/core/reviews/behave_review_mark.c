/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A conversation's filing mark (behave_review.h): what its review last
 * showed a reviewer, so that a flagged turn files only when that changes.
 */


#include <stdio.h>
#include <string.h>

#include "behave_review.h"


static int behave_review_mark_hex(const char *s, uint32_t *v);


/*
 * FNV-1a over the record's field/value pairs but "turns" and
 * "updated_at", which move at every turn.  In the reasons, the turn
 * numbers ("customer turn 57 ...") are left out: the same finding at a
 * later turn is not new to a reviewer, whose findings list every turn.
 */

uint32_t
behave_review_rec_fingerprint(const behave_review_rec_t *rec)
{
    int          reason;
    size_t       i, j, nl;
    uint32_t     h;
    const char  *name, *v;

    h = 2166136261u;

    for (i = 0; i + 1 < rec->n; i += 2) {
        name = rec->argv[i];

        if (strcmp(name, "turns") == 0 || strcmp(name, "updated_at") == 0) {
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


void
behave_review_mark_make(char *out, uint32_t fp, int64_t now_sec)
{
    snprintf(out, BEHAVE_REVIEW_MARK_LEN + 1, "%08x%08x", (unsigned) fp,
             (unsigned) ((uint64_t) now_sec & 0xffffffffu));
}


/*
 * Due when there is no mark (a new review, an older build's
 * conversation, a review marked by a person since), when it is not one
 * this build wrote, when what the review shows changed, or when the last
 * filing is refresh seconds old (or the clocks disagree by as much).
 */

int
behave_review_mark_due(const char *mark, size_t len, uint32_t fp,
    int64_t now_sec, int64_t refresh)
{
    int64_t   age;
    uint32_t  mfp, mt;

    if (len != BEHAVE_REVIEW_MARK_LEN
        || behave_review_mark_hex(mark, &mfp) != 0
        || behave_review_mark_hex(mark + 8, &mt) != 0)
    {
        return 1;
    }

    if (mfp != fp) {
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


/* eight lowercase hex digits, as behave_review_mark_make() writes them */

static int
behave_review_mark_hex(const char *s, uint32_t *v)
{
    int       i;
    uint32_t  x;

    x = 0;

    for (i = 0; i < 8; i++) {
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
