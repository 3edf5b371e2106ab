/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The risk head (see behave_risk.h).  Serving sums one int8 a feature
 * from a table indexed by the low bits of the feature's id; training
 * (scripts/train-risk, through behave_features -r) lists the same ids, so
 * the two cannot disagree on what a feature is.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "text/behave_risk.h"
#include "text/behave_risk_data.h"


/* FNV-1a of a kind letter and a text: the trained layer's own hash */
static uint32_t
behave_risk_fnv(char kind, const char *s, size_t len)
{
    size_t    i;
    uint32_t  h;

    h = 0x811c9dc5u;
    h ^= (unsigned char) kind;
    h *= 0x01000193u;

    for (i = 0; i < len; i++) {
        h ^= (unsigned char) s[i];
        h *= 0x01000193u;
    }

    return h ? h : 1;
}


static inline void
behave_risk_add(behave_risk_state_t *r, uint32_t f)
{
    unsigned       j;
    const int8_t  *row;

    r->sum += behave_risk_w[f & behave_risk_mask];
    r->n++;

    if (behave_risk_net_bits == 0) {
        return;
    }

    /* a fixed width: the compiler adds the row in a few vector steps */
    row = behave_risk_net_w + (size_t) (f & behave_risk_net_mask)
                              * BEHAVE_RISK_HIDDEN;

    for (j = 0; j < BEHAVE_RISK_HIDDEN; j++) {
        r->run[j] += row[j];
    }

    /* every row was counted in n: the run holds the rows since the last
     * multiple of BEHAVE_RISK_HIDDEN_RUN */
    if ((r->n & (BEHAVE_RISK_HIDDEN_RUN - 1)) == 0) {
        for (j = 0; j < BEHAVE_RISK_HIDDEN; j++) {
            r->hidden[j] += r->run[j];
            r->run[j] = 0;
        }
    }
}


void
behave_risk_feature(behave_risk_state_t *r, uint32_t f)
{
    behave_risk_add(r, f);
}


static void
behave_risk_named(behave_risk_state_t *r, uint32_t f, const char *fmt,
    const char *s, size_t len)
{
    char  name[64];

    if (r->sink == NULL) {
        behave_risk_feature(r, f);
        return;
    }

    snprintf(name, sizeof(name), fmt, (int) len, s);
    r->sink(r->sink_data, f, name);
}


static inline uint32_t
behave_risk_gram(const char *s)
{
    uint32_t  h;

    h = (0x811c9dc5u ^ (unsigned char) 'g') * 0x01000193u;
    h = (h ^ (unsigned char) s[0]) * 0x01000193u;
    h = (h ^ (unsigned char) s[1]) * 0x01000193u;
    h = (h ^ (unsigned char) s[2]) * 0x01000193u;
    h = (h ^ (unsigned char) s[3]) * 0x01000193u;

    return h ? h : 1;
}


void
behave_risk_word(behave_risk_state_t *r, const char *w, size_t n)
{
    size_t  i;
    char    buf[40];

    /* a word of one or two letters is its own feature ("u:") already;
     * beyond 36 letters it is a link or a hash, not a word */
    if (n < 3 || n > sizeof(buf) - 4) {
        return;
    }

    buf[0] = '<';
    memcpy(buf + 1, w, n);
    buf[n + 1] = '>';

    if (r->sink != NULL) {
        for (i = 0; i + 4 <= n + 2; i++) {
            behave_risk_named(r, behave_risk_fnv('g', buf + i, 4),
                              "g:%.*s", buf + i, 4);
        }

        return;
    }

    /* serving: behave_risk_fnv('g', ...) of four letters, written out
     * (a gram a letter of the word: most of the risk head's features) */
    for (i = 0; i + 4 <= n + 2; i++) {
        behave_risk_add(r, behave_risk_gram(buf + i));
    }
}


void
behave_risk_length(behave_risk_state_t *r, unsigned words)
{
    unsigned  b;
    char      s[4];

    for (b = 0; words > 1 && b < 12; b++) {
        words >>= 1;
    }

    s[0] = (char) ('a' + b);
    behave_risk_named(r, behave_risk_fnv('L', s, 1), "L:%.*s", s, 1);
}


/*
 * The network's logit: its hidden units rectified, then summed.  Each
 * unit's sum is taken in the same order as one unit at a time was (its
 * bias and row, then the dense inputs one by one), but a step for all
 * units at once, which the compiler does two units an instruction.
 */
static double
behave_risk_net(const behave_risk_state_t *r, const float *d, double norm)
{
    unsigned  i, j;
    double    x[BEHAVE_RISK_HIDDEN], out;

    for (j = 0; j < BEHAVE_RISK_HIDDEN; j++) {
        x[j] = behave_risk_net_b1[j]
               + behave_risk_net_scale * (double) (r->hidden[j] + r->run[j])
                 * norm;
    }

    for (i = 0; i < BEHAVE_RISK_DENSE; i++) {
        for (j = 0; j < BEHAVE_RISK_HIDDEN; j++) {
            x[j] += behave_risk_net_dense[i * BEHAVE_RISK_HIDDEN + j] * d[i];
        }
    }

    out = behave_risk_net_b2;

    for (j = 0; j < BEHAVE_RISK_HIDDEN; j++) {
        if (x[j] > 0.0) {
            out += behave_risk_net_w2[j] * x[j];
        }
    }

    return out;
}


double
behave_risk_score(const behave_risk_state_t *r, const float *d)
{
    unsigned  i;
    double    logit, norm, u;

    if (r->n == 0 || behave_risk_bits == 0) {
        return 0.0;
    }

    norm = 1.0 / sqrt((double) r->n);
    logit = behave_risk_bias + behave_risk_scale * (double) r->sum * norm;

    for (i = 0; i < BEHAVE_RISK_DENSE; i++) {
        logit += behave_risk_dense[i] * d[i];
    }

    if (behave_risk_net_bits == 0) {
        u = behave_risk_calib_a * logit + behave_risk_calib_b;

    } else {
        u = behave_risk_calib2[0] * logit
            + behave_risk_calib2[1] * behave_risk_net(r, d, norm)
            + behave_risk_calib2[2];
    }

    return 1.0 / (1.0 + exp(-u));
}


int
behave_risk_present(void)
{
    return behave_risk_bits != 0;
}


double
behave_risk_default_threshold(void)
{
    return behave_risk_threshold;
}
