/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Character trigram similarity; see behave_similarity.h for the method.
 */

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "text/behave_similarity.h"


#define BEHAVE_SIM_CONTAIN_WEIGHT  0.85


/*
 * What each ASCII byte becomes in the normalised text: letters lowercased,
 * digits kept, the apostrophe dropped (0), anything else a separator.
 */
static const unsigned char  behave_sim_ascii[128] = {
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x00,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37,
    0x38, 0x39, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67,
    0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f,
    0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77,
    0x78, 0x79, 0x7a, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67,
    0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f,
    0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77,
    0x78, 0x79, 0x7a, 0x20, 0x20, 0x20, 0x20, 0x20,
};


static size_t behave_sim_normalize(const unsigned char *p, size_t len,
    unsigned char *buf, size_t size);
static size_t behave_sim_slot(uint32_t h, unsigned bits);
static size_t behave_sim_find(const behave_sim_set_t *set, uint32_t h);


/*
 * The slot of a trigram in a table of 2^bits slots: a multiplicative
 * remix, as the low bits of three packed bytes are not spread at all.
 */

static size_t
behave_sim_slot(uint32_t h, unsigned bits)
{
    return (size_t) ((h * 2654435761u) >> (32 - bits));
}


/* the slot holding h, or the empty slot where it would go */
static size_t
behave_sim_find(const behave_sim_set_t *set, uint32_t h)
{
    size_t  i, mask;

    mask = ((size_t) 1 << set->bits) - 1;

    for (i = behave_sim_slot(h, set->bits);
         set->table[i] != 0 && set->table[i] != h;
         i = (i + 1) & mask)
    {
        /* void */
    }

    return i;
}


/*
 * Writes " word word " into buf, with single separators: letters and
 * digits kept (ASCII lowercased), apostrophes dropped, any other ASCII a
 * separator, bytes of multibyte characters kept.  Returns the length.
 */

static size_t
behave_sim_normalize(const unsigned char *p, size_t len, unsigned char *buf,
    size_t size)
{
    size_t         i, m;
    unsigned char  ch;

    buf[0] = ' ';
    m = 1;

    for (i = 0; i < len && m < size - 1; i++) {
        ch = p[i];

        if (ch < 0x80) {
            ch = behave_sim_ascii[ch];

            /* kept unless dropped, or a separator after a separator */
            buf[m] = ch;
            m += ch != 0 && (ch != ' ' || buf[m - 1] != ' ');

        } else if (ch == 0xe2 && i + 2 < len && p[i + 1] == 0x80
                   && (p[i + 2] == 0x98 || p[i + 2] == 0x99))
        {
            i += 2;                 /* U+2018, U+2019: apostrophes too */

        } else {
            buf[m++] = ch;
        }
    }

    if (buf[m - 1] != ' ') {
        buf[m++] = ' ';
    }

    return m;
}


void
behave_sim_prepare(const char *text, size_t len, behave_sim_set_t *set)
{
    size_t          i, k, m, grams;
    uint32_t        h;
    unsigned char   buf[BEHAVE_SIM_MAX_GRAMS + 2];

    m = behave_sim_normalize((const unsigned char *) text, len, buf,
                             sizeof(buf));

    /* a table at most half full: 2^bits >= 2 * grams */
    grams = m >= 3 ? m - 2 : 0;

    for (set->bits = 4; ((size_t) 1 << set->bits) < 2 * grams; set->bits++) {
        /* void */
    }

    memset(set->table, 0, sizeof(uint32_t) << set->bits);
    set->n = 0;

    for (i = 0; i + 3 <= m; i++) {

        /* the three bytes themselves, and bit 24 so that 0 stays empty */
        h = 0x1000000u | (uint32_t) buf[i] << 16 | (uint32_t) buf[i + 1] << 8
            | buf[i + 2];

        k = behave_sim_find(set, h);

        if (set->table[k] == 0) {
            set->table[k] = h;
            set->grams[set->n++] = h;
        }
    }
}


void
behave_sim_compare(const behave_sim_set_t *a, const behave_sim_set_t *b,
    behave_similarity_t *out)
{
    size_t                   i, common, uni, small;
    double                   contain;
    const behave_sim_set_t  *few, *many;

    /* one probe per trigram of the smaller set */
    few = a->n < b->n ? a : b;
    many = few == a ? b : a;

    common = 0;

    for (i = 0; i < few->n; i++) {
        common += many->table[behave_sim_find(many, few->grams[i])] != 0;
    }

    uni = a->n + b->n - common;
    small = few->n;

    out->jaccard = uni ? (double) common / uni : 0.0;
    out->containment = small ? (double) common / small : 0.0;

    contain = BEHAVE_SIM_CONTAIN_WEIGHT * out->containment;
    out->score = out->jaccard > contain ? out->jaccard : contain;
}


double
behave_similarity(const char *a, size_t alen, const char *b, size_t blen,
    behave_similarity_t *out)
{
    behave_sim_set_t  sa, sb;

    behave_sim_prepare(a, alen, &sa);
    behave_sim_prepare(b, blen, &sb);
    behave_sim_compare(&sa, &sb, out);

    return out->score;
}


void
behave_sim_sketch(const behave_sim_set_t *set, behave_sim_sketch_t *out)
{
    size_t    i;
    uint32_t  h;

    memset(out->bits, 0, sizeof(out->bits));
    out->n = (unsigned) set->n;

    for (i = 0; i < set->n; i++) {
        h = (set->grams[i] * 2654435761u) >> (32 - 9);
        out->bits[h / 64] |= (uint64_t) 1 << (h % 64);
    }
}


/*
 * The number of distinct trigrams that fill x of the sketch's bits.  A
 * table: a repeated turn compares its sketch with a dozen stored ones,
 * three logarithms each, and that was a fifth of the comparison.
 * Filled once by the same expression, so the figures do not change.
 */
static double           behave_sim_counts[BEHAVE_SIM_SKETCH_BITS];
static pthread_once_t   behave_sim_counts_once = PTHREAD_ONCE_INIT;


static void
behave_sim_counts_init(void)
{
    unsigned  x;
    double    m;

    m = BEHAVE_SIM_SKETCH_BITS;

    for (x = 0; x < BEHAVE_SIM_SKETCH_BITS; x++) {
        behave_sim_counts[x] = -m * log(1.0 - x / m);
    }
}


void
behave_sim_init(void)
{
    (void) pthread_once(&behave_sim_counts_once, behave_sim_counts_init);
}


static double
behave_sim_count(unsigned x)
{
    if (x >= BEHAVE_SIM_SKETCH_BITS) {
        x = BEHAVE_SIM_SKETCH_BITS - 1;
    }

    return behave_sim_counts[x];
}


/*
 * Bits set in v.  __builtin_popcountll() is a call into libgcc on the
 * baseline x86-64 this is built for (no POPCNT): about a fifth of a
 * repeated turn's comparison (callgrind); this is inline and branch-free.
 */
static inline unsigned
behave_sim_popcount(uint64_t v)
{
    v = v - ((v >> 1) & 0x5555555555555555ULL);
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;

    return (unsigned) ((v * 0x0101010101010101ULL) >> 56);
}


void
behave_sim_sketch_compare(const behave_sim_sketch_t *a,
    const behave_sim_sketch_t *b, behave_similarity_t *out)
{
    unsigned  i, xa, xb, xu;
    double    na, nb, nu, common, small;

    (void) pthread_once(&behave_sim_counts_once, behave_sim_counts_init);

    xa = xb = xu = 0;

    for (i = 0; i < BEHAVE_SIM_SKETCH_WORDS; i++) {
        xa += behave_sim_popcount(a->bits[i]);
        xb += behave_sim_popcount(b->bits[i]);
        xu += behave_sim_popcount(a->bits[i] | b->bits[i]);
    }

    /*
     * All three sizes from the fills, not the known sizes: collisions
     * inside A or B shrink the union's fill alike, and the errors cancel
     * in |A| + |B| - |A | B|.
     */
    na = behave_sim_count(xa);
    nb = behave_sim_count(xb);
    nu = behave_sim_count(xu);

    common = na + nb - nu;
    common = common < 0 ? 0 : common;
    small = na < nb ? na : nb;

    out->jaccard = nu > 0 ? common / nu : 0;
    out->containment = small > 0 ? common / small : 0;

    if (out->jaccard > 1) {
        out->jaccard = 1;
    }

    if (out->containment > 1) {
        out->containment = 1;
    }

    out->score = out->jaccard;
    if (BEHAVE_SIM_CONTAIN_WEIGHT * out->containment > out->score) {
        out->score = BEHAVE_SIM_CONTAIN_WEIGHT * out->containment;
    }
}
