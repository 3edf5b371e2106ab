/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Character trigram similarity; see behave_similarity.h for the method.
 */

#include <stdlib.h>
#include <string.h>

#include "behave_similarity.h"


#define BEHAVE_SIM_CONTAIN_WEIGHT  0.85


static size_t behave_sim_normalize(const unsigned char *p, size_t len,
    unsigned char *buf, size_t size);
static size_t behave_sim_slot(uint32_t h, unsigned bits);
static size_t behave_sim_find(const behave_sim_set_t *set, uint32_t h);


/*
 * The slot of a hash in a table of 2^bits slots: a multiplicative remix,
 * as the low bits of FNV-1a over three bytes are not spread well.
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

        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
            buf[m++] = ch;

        } else if (ch >= 'A' && ch <= 'Z') {
            buf[m++] = (unsigned char) (ch + ('a' - 'A'));

        } else if (ch == '\'') {
            /* "don't" equals "dont" */

        } else if (ch < 0x80) {
            if (buf[m - 1] != ' ') {
                buf[m++] = ' ';
            }

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

        /* FNV-1a over the three bytes; 0 marks an empty slot */
        h = (2166136261u ^ buf[i]) * 16777619u;
        h = (h ^ buf[i + 1]) * 16777619u;
        h = (h ^ buf[i + 2]) * 16777619u;

        h += (h == 0);

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
