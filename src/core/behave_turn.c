/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Compact serialisation of one stored turn; the format is described in
 * behave_turn.h.  The parser reads fields by hand rather than with
 * strtol()/strtod(): those accept spaces, signs, hex and locale forms,
 * and need a NUL-terminated string, which a Redis reply is not.
 */

#include <stdio.h>
#include <string.h>

#include "behave_turn.h"
#include "behave_utf8.h"
#include "behave_conversation.h"


#define BEHAVE_TURN_FIELDS  9       /* before the text */


static int behave_turn_uint(const char *p, size_t n, uint64_t max,
    uint64_t *v);
static int behave_turn_hex(const char *p, size_t n, unsigned *v);
static int behave_turn_score(const char *p, size_t n, double *v);


void
behave_turn_from_annotation(behave_turn_t *t, behave_speaker_e speaker,
    const char *text, size_t len, const behave_annotation_t *a,
    uint64_t ts_ms)
{
    t->speaker = speaker;
    t->text = text;
    t->text_len = len;
    t->valence_score = a->scores.valence;
    t->valence = a->valence;
    t->urgency = a->urgency;
    t->load = a->cognitive_load;
    t->cues = a->cues;
    t->severity = behave_conversation_severity(a, text, len);
    t->ts_ms = ts_ms;
}


size_t
behave_turn_encoded_max(const behave_turn_t *t)
{
    return BEHAVE_TURN_HEADER_MAX + t->text_len;
}


size_t
behave_turn_encode(const behave_turn_t *t, char *buf, size_t len)
{
    int     n;
    double  v;

    v = t->valence_score;
    if (!(v >= -1.0)) {             /* also catches NaN */
        v = -1.0;
    }
    if (v > 1.0) {
        v = 1.0;
    }

    n = snprintf(buf, len, "%s\t%c\t%llu\t%d\t%d\t%d\t%d\t%.3f\t%x\t",
                 BEHAVE_TURN_VERSION,
                 t->speaker == BEHAVE_SPEAKER_AGENT ? 'a' : 'c',
                 (unsigned long long) t->ts_ms,
                 t->severity < 0 ? 0 : (t->severity > 4 ? 4 : t->severity),
                 (int) t->urgency, (int) t->load, (int) t->valence, v,
                 t->cues);

    if (n < 0 || (size_t) n + t->text_len > len) {
        return 0;
    }

    if (t->text_len) {
        memcpy(buf + n, t->text, t->text_len);
    }

    if ((size_t) n + t->text_len < len) {
        buf[n + t->text_len] = '\0';
    }

    return (size_t) n + t->text_len;
}


int
behave_turn_decode(const char *s, size_t len, behave_turn_t *out)
{
    size_t       i, end, start, f, flen[BEHAVE_TURN_FIELDS];
    uint64_t     v;
    const char  *fp[BEHAVE_TURN_FIELDS];

    if (s == NULL) {
        return -1;
    }

    /*
     * Split the nine leading fields (the rest is the text) with a byte
     * loop, not memchr(): the fields are a few bytes long, and memchr()'s
     * vector setup cost more than the scan on every turn.
     */
    start = 0;

    for (f = 0; f < BEHAVE_TURN_FIELDS; f++) {

        /* no field of ours is longer than 24 bytes */
        end = len - start < 25 ? len : start + 25;

        for (i = start; i < end && s[i] != '\t'; i++) {
            /* void */
        }

        if (i == end) {
            return -1;
        }

        fp[f] = s + start;
        flen[f] = i - start;
        start = i + 1;
    }

    if (flen[0] != 2 || memcmp(fp[0], BEHAVE_TURN_VERSION, 2) != 0) {
        return -1;
    }

    if (flen[1] != 1 || (fp[1][0] != 'c' && fp[1][0] != 'a')) {
        return -1;
    }
    out->speaker = fp[1][0] == 'a' ? BEHAVE_SPEAKER_AGENT
                                   : BEHAVE_SPEAKER_CUSTOMER;

    if (behave_turn_uint(fp[2], flen[2], UINT64_MAX, &out->ts_ms) != 0) {
        return -1;
    }

    if (behave_turn_uint(fp[3], flen[3], 4, &v) != 0) {
        return -1;
    }
    out->severity = (int) v;

    if (behave_turn_uint(fp[4], flen[4], BEHAVE_URGENCY_CRITICAL, &v) != 0) {
        return -1;
    }
    out->urgency = (behave_urgency_e) v;

    if (behave_turn_uint(fp[5], flen[5], BEHAVE_LOAD_OVERLOAD, &v) != 0) {
        return -1;
    }
    out->load = (behave_load_e) v;

    if (behave_turn_uint(fp[6], flen[6], BEHAVE_VALENCE_MIXED, &v) != 0) {
        return -1;
    }
    out->valence = (behave_valence_e) v;

    if (behave_turn_score(fp[7], flen[7], &out->valence_score) != 0) {
        return -1;
    }

    if (behave_turn_hex(fp[8], flen[8], &out->cues) != 0) {
        return -1;
    }

    out->text = s + start;
    out->text_len = len - start;

    if (memchr(out->text, '\0', out->text_len) != NULL
        || !behave_utf8_valid((const unsigned char *) out->text,
                              out->text_len))
    {
        return -1;
    }

    return 0;
}


static int
behave_turn_uint(const char *p, size_t n, uint64_t max, uint64_t *v)
{
    size_t    i;
    uint64_t  r, d;

    if (n == 0 || n > 20) {
        return -1;
    }

    r = 0;

    for (i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') {
            return -1;
        }

        d = (uint64_t) (p[i] - '0');

        /* 19 digits cannot overflow: no division on the common path */
        if (i >= 19 && r > (UINT64_MAX - d) / 10) {
            return -1;
        }

        r = r * 10 + d;
    }

    if (r > max) {
        return -1;
    }

    *v = r;
    return 0;
}


static int
behave_turn_hex(const char *p, size_t n, unsigned *v)
{
    size_t    i;
    unsigned  r, d;

    if (n == 0 || n > 8) {
        return -1;
    }

    r = 0;

    for (i = 0; i < n; i++) {
        if (p[i] >= '0' && p[i] <= '9') {
            d = (unsigned) (p[i] - '0');

        } else if (p[i] >= 'a' && p[i] <= 'f') {
            d = (unsigned) (p[i] - 'a' + 10);

        } else {
            return -1;
        }

        r = (r << 4) | d;
    }

    *v = r;
    return 0;
}


/* "-0.250", "1.000", "0.5": at most one digit before the point */
static int
behave_turn_score(const char *p, size_t n, double *v)
{
    size_t  i;
    int     neg, frac, digits;
    double  r, scale;

    i = 0;
    neg = 0;

    if (n > 0 && p[0] == '-') {
        neg = 1;
        i = 1;
    }

    if (i >= n || p[i] < '0' || p[i] > '1') {
        return -1;
    }

    r = p[i++] - '0';
    frac = 0;
    digits = 0;
    scale = 1.0;

    if (i < n) {
        if (p[i++] != '.') {
            return -1;
        }
        frac = 1;
    }

    for ( /* void */ ; i < n; i++) {
        if (p[i] < '0' || p[i] > '9' || ++digits > 6) {
            return -1;
        }
        scale /= 10.0;
        r += (p[i] - '0') * scale;
    }

    if ((frac && digits == 0) || r > 1.0) {
        return -1;
    }

    *v = neg ? -r : r;
    return 0;
}

