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

#include "conversation/behave_turn.h"
#include "base/behave_utf8.h"


static int behave_turn_uint(const char **pp, const char *end, uint64_t max,
    uint64_t *v);
static int behave_turn_hex(const char **pp, const char *end, unsigned *v);
static int behave_turn_score(const char **pp, const char *end, double *v);


size_t
behave_turn_encoded_max(const behave_turn_t *t)
{
    return BEHAVE_TURN_HEADER_MAX + t->text_len;
}


static unsigned
behave_turn_hexdigit(char c)
{
    if (c >= '0' && c <= '9') {
        return (unsigned) (c - '0');
    }

    if (c >= 'a' && c <= 'f') {
        return (unsigned) (c - 'a' + 10);
    }

    return 16;
}


/* the meaning as hex pairs and a tab; returns the bytes written */
static int
behave_turn_meaning_hex(const int8_t *m, char *p)
{
    unsigned                    i, b;
    static const char  *const   hex = "0123456789abcdef";

    for (i = 0; i < BEHAVE_MEANING_DIM; i++) {
        b = (uint8_t) m[i];
        p[2 * i] = hex[b >> 4];
        p[2 * i + 1] = hex[b & 15];
    }

    p[2 * BEHAVE_MEANING_DIM] = '\t';

    return 2 * BEHAVE_MEANING_DIM + 1;
}


static int
behave_turn_meaning_read(const char **pp, const char *end, int8_t *m)
{
    unsigned     i, hi, lo;
    const char  *p;

    p = *pp;

    if (end - p < 2 * BEHAVE_MEANING_DIM + 1
        || p[2 * BEHAVE_MEANING_DIM] != '\t')
    {
        return -1;
    }

    for (i = 0; i < BEHAVE_MEANING_DIM; i++) {
        hi = behave_turn_hexdigit(p[2 * i]);
        lo = behave_turn_hexdigit(p[2 * i + 1]);
        if (hi > 15 || lo > 15) {
            return -1;
        }

        m[i] = (int8_t) (uint8_t) (hi << 4 | lo);
    }

    *pp = p + 2 * BEHAVE_MEANING_DIM + 1;

    return 0;
}


size_t
behave_turn_encode(const behave_turn_t *t, char *buf, size_t len)
{
    int       n;
    double    v;
    unsigned  meaning;

    /* only customer turns are compared for repetition: agent turns keep
     * the shorter b1 form */
    meaning = t->has_meaning && t->speaker == BEHAVE_SPEAKER_CUSTOMER;

    v = t->valence_score;
    if (!(v >= -1.0)) {             /* also catches NaN */
        v = -1.0;
    }
    if (v > 1.0) {
        v = 1.0;
    }

    n = snprintf(buf, len, "%s\t%c\t%llu\t%d\t%d\t%d\t%d\t%.3f\t%x\t",
                 meaning ? BEHAVE_TURN_VERSION : "b1",
                 t->speaker == BEHAVE_SPEAKER_AGENT ? 'a' : 'c',
                 (unsigned long long) t->ts_ms,
                 t->severity < 0 ? 0 : (t->severity > 4 ? 4 : t->severity),
                 (int) t->urgency, (int) t->load, (int) t->valence, v,
                 t->cues);

    if (n < 0 || (size_t) n + t->text_len > len) {
        return 0;
    }

    if (meaning) {
        if ((size_t) n + 2 * BEHAVE_MEANING_DIM + 1 + t->text_len > len) {
            return 0;
        }

        n += behave_turn_meaning_hex(t->meaning, buf + n);
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
    uint64_t     v[5];
    const char  *p, *end;

    /*
     * One pass over the fields, each parsed where it is read and ended by
     * its tab: no split first, as this runs for every turn of the history
     * on every request.
     */
    if (s == NULL || len < 5 || s[0] != 'b' || (s[1] != '1' && s[1] != '2')
        || s[2] != '\t' || (s[3] != 'c' && s[3] != 'a') || s[4] != '\t')
    {
        return -1;
    }

    out->speaker = s[3] == 'a' ? BEHAVE_SPEAKER_AGENT
                               : BEHAVE_SPEAKER_CUSTOMER;
    p = s + 5;
    end = s + len;

    if (behave_turn_uint(&p, end, UINT64_MAX, &v[0]) != 0
        || behave_turn_uint(&p, end, 4, &v[1]) != 0
        || behave_turn_uint(&p, end, BEHAVE_URGENCY_CRITICAL, &v[2]) != 0
        || behave_turn_uint(&p, end, BEHAVE_LOAD_OVERLOAD, &v[3]) != 0
        || behave_turn_uint(&p, end, BEHAVE_VALENCE_MIXED, &v[4]) != 0
        || behave_turn_score(&p, end, &out->valence_score) != 0
        || behave_turn_hex(&p, end, &out->cues) != 0)
    {
        return -1;
    }

    out->ts_ms = v[0];
    out->severity = (int) v[1];
    out->urgency = (behave_urgency_e) v[2];
    out->load = (behave_load_e) v[3];
    out->valence = (behave_valence_e) v[4];

    out->has_meaning = 0;

    if (s[1] == '2') {
        if (behave_turn_meaning_read(&p, end, out->meaning) != 0) {
            return -1;
        }

        out->has_meaning = 1;
    }

    out->text = p;
    out->text_len = (size_t) (end - p);

    if (!behave_utf8_valid_text((const unsigned char *) out->text,
                                out->text_len))
    {
        return -1;
    }

    return 0;
}


/*
 * A field ends at its tab, which is consumed.  At most 19 digits: no
 * overflow check is needed on the way.
 */

static int
behave_turn_uint(const char **pp, const char *end, uint64_t max,
    uint64_t *v)
{
    unsigned     d;
    uint64_t     r;
    const char  *p, *lim;

    lim = end - *pp > 20 ? *pp + 20 : end;
    r = 0;

    for (p = *pp; p < lim; p++) {
        d = (unsigned) (unsigned char) *p - '0';
        if (d > 9) {
            break;
        }
        r = r * 10 + d;
    }

    if (p == lim || *p != '\t' || p == *pp || r > max) {
        return -1;
    }

    *pp = p + 1;
    *v = r;
    return 0;
}


static int
behave_turn_hex(const char **pp, const char *end, unsigned *v)
{
    unsigned     r, d;
    const char  *p, *lim;

    lim = end - *pp > 9 ? *pp + 9 : end;
    r = 0;

    for (p = *pp; p < lim; p++) {
        if (*p >= '0' && *p <= '9') {
            d = (unsigned) (*p - '0');

        } else if (*p >= 'a' && *p <= 'f') {
            d = (unsigned) (*p - 'a' + 10);

        } else {
            break;
        }

        r = (r << 4) | d;
    }

    if (p == lim || *p != '\t' || p == *pp) {
        return -1;
    }

    *pp = p + 1;
    *v = r;
    return 0;
}


/* "-0.250", "1.000", "0.5": at most one digit before the point */
static int
behave_turn_score(const char **pp, const char *end, double *v)
{
    int          neg, digits;
    double       r, scale;
    const char  *p;

    p = *pp;
    neg = 0;

    if (p < end && *p == '-') {
        neg = 1;
        p++;
    }

    if (p == end || *p < '0' || *p > '1') {
        return -1;
    }

    r = *p++ - '0';

    if (p < end && *p == '.') {
        p++;

        /*
         * A running sum, as this format has always been read: the same
         * doubles for the same text, whatever version wrote the turn.
         */
        scale = 1.0;

        for (digits = 0; p < end && *p != '\t'; p++) {
            if (*p < '0' || *p > '9' || ++digits > 6) {
                return -1;
            }
            scale /= 10.0;
            r += (*p - '0') * scale;
        }

        if (digits == 0) {
            return -1;
        }
    }

    if (p == end || *p != '\t' || r > 1.0) {
        return -1;
    }

    *pp = p + 1;
    *v = neg ? -r : r;
    return 0;
}
