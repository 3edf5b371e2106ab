/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A conversation's filing mark (behave_review.h): what its review last
 * showed a reviewer, so that a flagged turn files only when that changes.
 */


#include <stdio.h>
#include <string.h>

#include "base/behave_hex.h"
#include "reviews/behave_review.h"


static int behave_review_mark_read(const char *mark, size_t len,
    uint32_t *fp, unsigned *findings, uint32_t *t);
static uint32_t behave_review_fnv(uint32_t h, const char *s, int digits);


/*
 * FNV-1a over what a conversation's record shows (behave_review_rec_conv()
 * writes it from the same result) but its "turns" and "updated_at",
 * which move at every turn, and the findings, which stick in the record
 * once written (behave_review_rec_conv() writes them only when true) and
 * come back as bits in *findings: a mark keeps the union of those filed,
 * so that a turn without one is not a change, and a turn with a new one
 * is.  In the reason, the turn numbers ("customer turn 57 ...") are left
 * out: the same finding at a later turn is not new to a reviewer, whose
 * findings list every turn.  Cheap on purpose: a flagged turn computes it
 * whether or not it files.
 */

uint32_t
behave_review_conv_fingerprint(const behave_conv_result_t *res,
    int redacted, unsigned *findings)
{
    uint32_t  h;

    h = 2166136261u;
    h = behave_review_fnv(h, behave_review_name(res->review_status), 1);
    h = behave_review_fnv(h, behave_action_name(res->action), 1);
    h = behave_review_fnv(h, res->reason, 0);
    h = (h ^ (unsigned) (res->peak_severity & 0xff)) * 16777619u;
    h = (h ^ (redacted ? 1u : 0u)) * 16777619u;

    *findings = (res->false_resolution ? BEHAVE_REVIEW_F_FALSE_RESOLUTION : 0)
                | (res->escalating ? BEHAVE_REVIEW_F_ESCALATING : 0)
                | (res->repeat_contact_risk ? BEHAVE_REVIEW_F_REPEAT_CONTACT
                                            : 0);

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
        || behave_hex_field(mark, 8, fp) != 0
        || behave_hex_field(mark + 8, 1, &f) != 0
        || behave_hex_field(mark + 9, 8, t) != 0)
    {
        return -1;
    }

    *findings = f;

    return 0;
}


/* the string and its end; without digits, its digits left out */

static uint32_t
behave_review_fnv(uint32_t h, const char *s, int digits)
{
    for ( /* void */ ; *s != '\0'; s++) {
        if (!digits && *s >= '0' && *s <= '9') {
            continue;
        }

        h = (h ^ (unsigned char) *s) * 16777619u;
    }

    return (h ^ 0xffu) * 16777619u;
}
