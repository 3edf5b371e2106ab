/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Severity and escalation; see behave_conv_escalation.h.  Valences are
 * in thousandths, as records keep them.
 */

#include <stddef.h>

#include "conversation/behave_conv_escalation.h"
#include "conversation/behave_conv_scan.h"


#define BEHAVE_CONV_ESC_WINDOW  4       /* customer turns looked at */
#define BEHAVE_CONV_ESC_FALL    200     /* valence fall (thousandths) */


static int behave_conv_intensity(const char *text, size_t len);
static int behave_conv_severity_persists(const char *text, size_t len,
    const behave_conv_norm_t *norm);
static int behave_conv_unhappy_before(const behave_conv_state_t *st, int m);
static int behave_conv_angry_before(const behave_conv_state_t *st, int m);
static int behave_conv_worse_before(const behave_conv_state_t *st, int m,
    const behave_conv_rec_t *cur);
static void behave_conv_escalation_second(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out, int *from);


/*
 * Raised voice, from the original text: a run of "!!", "??", "?!" and
 * shouting (an all-capitals word of five letters or more: shorter ones are
 * mostly acronyms, "SAML", "CSV").  Returns 0, 1 or 2 points.
 */

static int
behave_conv_intensity(const char *text, size_t len)
{
    size_t  i, run;
    int     punct, caps;

    punct = 0;
    caps = 0;

    for (i = 0; i + 1 < len; i++) {
        if ((text[i] == '!' || text[i] == '?')
            && (text[i + 1] == '!' || text[i + 1] == '?'))
        {
            punct = 1;
            break;
        }
    }

    i = 0;

    while (i < len) {
        if (!(text[i] >= 'A' && text[i] <= 'Z')) {
            i++;
            continue;
        }

        if (i > 0 && ((text[i - 1] >= 'a' && text[i - 1] <= 'z')
                      || (text[i - 1] >= '0' && text[i - 1] <= '9')))
        {
            i++;
            continue;
        }

        run = 0;
        while (i < len && text[i] >= 'A' && text[i] <= 'Z') {
            run++;
            i++;
        }

        if (i < len && ((text[i] >= 'a' && text[i] <= 'z')
                        || (text[i] >= '0' && text[i] <= '9')))
        {
            continue;               /* "IdP", "LS6" */
        }

        if (run >= 5) {
            caps = 1;
            break;
        }
    }

    return punct + caps;
}


/* says the problem persists ("still not working"): not_resolved.tsv */
static int
behave_conv_severity_persists(const char *text, size_t len,
    const behave_conv_norm_t *norm)
{
    behave_conv_norm_t  own;

    if (norm == NULL) {
        behave_conv_normalize(text, len, &own);
        norm = &own;
    }

    return behave_conv_match(norm, BEHAVE_CONV_T_NOT_RESOLVED, 0, NULL) != 0;
}


int
behave_conversation_severity(const behave_annotation_t *a, const char *text,
    size_t len)
{
    return behave_conversation_severity_norm(a, text, len, NULL);
}


int
behave_conversation_severity_norm(const behave_annotation_t *a,
    const char *text, size_t len, const behave_conv_norm_t *norm)
{
    int  s, points;

    s = 0;

    if (a->valence == BEHAVE_VALENCE_NEGATIVE
        || a->valence == BEHAVE_VALENCE_MIXED)
    {
        s = 1;
    }

    if (a->valence_blend <= -0.75) {
        s = 3;

    } else if (a->valence_blend <= -0.5) {
        s = 2;
    }

    switch (a->urgency) {
    case BEHAVE_URGENCY_MEDIUM:
        s = s > 2 ? s : 2;
        break;
    case BEHAVE_URGENCY_HIGH:
        s = s > 3 ? s : 3;
        break;
    case BEHAVE_URGENCY_CRITICAL:
        s = 4;
        break;
    default:
        break;
    }

    if ((a->cues & BEHAVE_CUE_CRISIS)
        || a->social_register == BEHAVE_REGISTER_CRISIS)
    {
        s = 4;
    }

    if (s == 0 && (a->cues & BEHAVE_CUE_NOT_RESOLVED)) {
        s = 1;
    }

    if (s == 0 && text != NULL
        && behave_conv_severity_persists(text, len, norm))
    {
        s = 1;
    }

    points = text != NULL ? behave_conv_intensity(text, len) : 0;

    if (points == 2 && s < 3) {
        s = 3;

    } else if (points == 1 && s < 2) {
        s = 2;
    }

    return s;
}


/* some of the m turns before the current one was unhappy */
static int
behave_conv_unhappy_before(const behave_conv_state_t *st, int m)
{
    int  k;

    for (k = 0; k < m; k++) {
        if (st->rec[k].severity >= 1) {
            return 1;
        }
    }

    return 0;
}


/* some of the m turns before the current one showed anger */
static int
behave_conv_angry_before(const behave_conv_state_t *st, int m)
{
    int  k;

    for (k = 0; k < m; k++) {
        if (st->rec[k].flags & BEHAVE_CONV_F_ANGER) {
            return 1;
        }
    }

    return 0;
}


/*
 * "i'm pissed, it just doesn't fucking work" ... "doesn't work and i even
 * tried deleting the app": the conversation's first customer turn, among
 * the m before the current one, was already clearly unhappy, at least as
 * severe and at least as negative.  The current turn is no worse than it
 * (labels.md: "the customer's turns get worse"), however calm the turns
 * between: a first message that vents is the angriest, not the start of
 * a rise.  The first turn only: read off any earlier turn, the rule
 * would lose written escalations that come back to an earlier peak.
 */
static int
behave_conv_worse_before(const behave_conv_state_t *st, int m,
    const behave_conv_rec_t *cur)
{
    int  k;

    for (k = 0; k < m; k++) {
        if ((uint32_t) k + 1 == st->customers
            && st->rec[k].valence <= BEHAVE_CONV_DENY_VALENCE
            && st->rec[k].valence <= cur->valence
            && st->rec[k].severity >= cur->severity)
        {
            return 1;
        }
    }

    return 0;
}


/*
 * The second customer turn has one turn to be worse than: labels.md's
 * "valence falls, urgency rises" both at once, clearly, into a blocked
 * (high) urgency and a clearly unhappy turn ("It's Thursday now and still
 * nothing ... this isn't ok" after "Could someone come out this week?").
 * A turn that asks ("How do I set up automatic declines? I'm struggling
 * to find it") asks how to follow the answer: a new ask, not yet a rise.
 * Nor is the answer to "what happens exactly?" after a first turn that
 * said nothing of the problem ("game keeps doing the thing", "ich hab
 * eine Frage zu meinem Kontoauszug"): its calm measured no problem, so
 * the problem told at last is no rise from it.
 */
static void
behave_conv_escalation_second(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out, int *from)
{
    const behave_conv_rec_t  *prev;

    prev = &st->rec[0];

    if (prev->flags & BEHAVE_CONV_F_UNCLEAR) {
        return;
    }

    if (cur->urgency > prev->urgency
        && !(cur->flags & BEHAVE_CONV_F_QUESTION)
        && cur->urgency == BEHAVE_URGENCY_HIGH
        && prev->valence - cur->valence >= BEHAVE_CONV_ESC_FALL
        && cur->valence <= BEHAVE_CONV_DENY_VALENCE)
    {
        out->escalating = 1;
        *from = prev->severity;
    }
}


void
behave_conv_escalation(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur_rec, unsigned reasks,
    behave_conv_result_t *out, int *from, int *turns)
{
    int       sev[BEHAVE_CONV_ESC_WINDOW], val[BEHAVE_CONV_ESC_WINDOW];
    int       m, cur, base, high, k;
    uint32_t  total;

    cur = cur_rec->severity;
    total = st->customers + 1;
    out->peak_severity = cur > st->peak ? cur : st->peak;

    for (m = 0; m < BEHAVE_CONV_ESC_WINDOW - 1 && (unsigned) m < st->nrec;
         m++)
    {
        val[m] = st->rec[m].valence;
        sev[m] = st->rec[m].severity;
    }

    *from = 0;
    *turns = m + 1;

    if (total == 2 && m == 1) {
        behave_conv_escalation_second(st, cur_rec, out, from);

        /* "still broken, I'm switching to another provider" after a
         * first complaint: the ultimatum is the trend, two turns do */
        if (!out->escalating && (cur_rec->flags & BEHAVE_CONV_F_ANGER)
            && behave_conv_unhappy_before(st, m)
            && !behave_conv_angry_before(st, m))
        {
            out->escalating = 1;
            *from = BEHAVE_CONV_ESC_ANGER;
        }

        return;
    }

    if (total < 3 || m == 0) {
        return;
    }

    /*
     * Anger or an ultimatum that was not there before ("If nobody has come
     * by Friday I'm reporting you", "I took the day off for this. How
     * much longer?"), after an earlier unhappy turn: labels.md's rising
     * intensity, which the levels may not show (a calm wording of an
     * ultimatum reads as mild, even neutral); the words are unhappy
     * enough
     */
    if ((cur_rec->flags & BEHAVE_CONV_F_ANGER)
        && behave_conv_unhappy_before(st, m)
        && !behave_conv_angry_before(st, m))
    {
        out->escalating = 1;
        *from = BEHAVE_CONV_ESC_ANGER;
        return;
    }

    if (cur < 2 || behave_conv_worse_before(st, m, cur_rec)) {
        return;
    }

    base = sev[0];
    high = sev[0];

    for (k = 1; k < m; k++) {
        base = sev[k] < base ? sev[k] : base;
        high = sev[k] > high ? sev[k] : high;
    }

    *from = base;

    /*
     * The same thing asked a third time, now as a clear complaint after a
     * calm first ask ("When. Is. My. Refund. Coming."): the friction rises
     * with each ask even when no turn is yet angry
     */
    if (cur < 3) {
        out->escalating = reasks >= 2 && cur >= base + 2
                          && (cur_rec->flags
                              & (BEHAVE_CONV_F_STRONG | BEHAVE_CONV_F_REPEAT));
        return;
    }

    /*
     * Two levels above the calmest, and not out of a clear sky: an earlier
     * turn was already negative, or the customer keeps asking the same
     * thing (a third ask is friction even when worded calmly).
     */
    out->escalating = cur >= base + 2 && (high >= 1 || reasks >= 2);

    /*
     * Or a new peak of a distress that was already there: at least as
     * high as every turn of the window, above its calmest, from 3 up.
     */
    if (!out->escalating && cur >= 3 && cur >= high && cur > base
        && high >= 2)
    {
        out->escalating = 1;
    }

    /*
     * Or a steady slide: valence fell at each of the last three customer
     * turns, by 0.35 or more in all, ending at severity 3+ below zero (a
     * slide from thanks to a neutral "anytime after noon today" that the
     * annotator reads as high is no complaint).
     */
    if (!out->escalating && m >= 2 && cur_rec->valence < 0
        && val[1] - val[0] >= 100
        && val[0] - cur_rec->valence >= 100
        && val[1] - cur_rec->valence >= 350)
    {
        out->escalating = 1;
        *from = sev[1] < sev[0] ? sev[1] : sev[0];
    }
}
