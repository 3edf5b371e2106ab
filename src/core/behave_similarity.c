/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Character trigram similarity; see behave_similarity.h for the method.
 */

#include <stdlib.h>
#include <string.h>

#include "behave_similarity.h"


#define BEHAVE_SIM_CONTAIN_WEIGHT  0.85


static size_t behave_sim_next(const unsigned char *p, size_t len, size_t *i,
    unsigned char *c);
static void behave_sim_sort(uint32_t *v, size_t n);


/*
 * Returns the next normalised byte of the text in *c (0 for a separator)
 * and 1, or 0 at the end.  Apostrophes are skipped entirely.
 */

static size_t
behave_sim_next(const unsigned char *p, size_t len, size_t *i, unsigned char *c)
{
    unsigned char  ch;

    while (*i < len) {
        ch = p[*i];

        if (ch == '\'') {
            (*i)++;
            continue;
        }

        /* U+2018 and U+2019, the typographic apostrophes */
        if (ch == 0xe2 && *i + 2 < len && p[*i + 1] == 0x80
            && (p[*i + 2] == 0x98 || p[*i + 2] == 0x99))
        {
            *i += 3;
            continue;
        }

        (*i)++;

        if (ch >= 'A' && ch <= 'Z') {
            *c = (unsigned char) (ch + ('a' - 'A'));

        } else if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')
                   || ch >= 0x80)
        {
            *c = ch;

        } else {
            *c = 0;
        }

        return 1;
    }

    return 0;
}


/*
 * LSD radix sort, four passes of eight bits: a few hundred hashes sort in
 * well under a microsecond, where qsort()'s calls through a comparison
 * function took several on every turn of a long conversation.
 */

static void
behave_sim_sort(uint32_t *v, size_t n)
{
    size_t    i, pass, count[256], sum, c;
    uint32_t  tmp[BEHAVE_SIM_MAX_GRAMS], *src, *dst, *t;

    src = v;
    dst = tmp;

    for (pass = 0; pass < 32; pass += 8) {
        memset(count, 0, sizeof(count));

        for (i = 0; i < n; i++) {
            count[(src[i] >> pass) & 0xff]++;
        }

        sum = 0;
        for (i = 0; i < 256; i++) {
            c = count[i];
            count[i] = sum;
            sum += c;
        }

        for (i = 0; i < n; i++) {
            dst[count[(src[i] >> pass) & 0xff]++] = src[i];
        }

        t = src;
        src = dst;
        dst = t;
    }

    /* four passes: the result is back in v */
}


void
behave_sim_prepare(const char *text, size_t len, behave_sim_set_t *set)
{
    size_t          i, k, n, m;
    uint32_t        h;
    unsigned char   c, buf[BEHAVE_SIM_MAX_GRAMS + 2];

    /* normalise into " word word " with single separators */
    buf[0] = ' ';
    m = 1;
    i = 0;

    while (m < sizeof(buf) - 1
           && behave_sim_next((const unsigned char *) text, len, &i, &c))
    {
        if (c == 0) {
            if (buf[m - 1] != ' ') {
                buf[m++] = ' ';
            }
            continue;
        }

        buf[m++] = c;
    }

    if (buf[m - 1] != ' ') {
        buf[m++] = ' ';
    }

    n = 0;

    for (i = 0; i + 3 <= m; i++) {

        /* FNV-1a over the three bytes */
        h = 2166136261u;
        for (k = 0; k < 3; k++) {
            h ^= buf[i + k];
            h *= 16777619u;
        }

        set->grams[n++] = h;
    }

    behave_sim_sort(set->grams, n);

    /* keep each gram once */
    k = 0;
    for (i = 0; i < n; i++) {
        if (k == 0 || set->grams[k - 1] != set->grams[i]) {
            set->grams[k++] = set->grams[i];
        }
    }

    set->n = k;
}


void
behave_sim_compare(const behave_sim_set_t *a, const behave_sim_set_t *b,
    behave_similarity_t *out)
{
    size_t  i, j, common, uni, small;
    double  contain;

    common = 0;
    i = 0;
    j = 0;

    while (i < a->n && j < b->n) {
        if (a->grams[i] == b->grams[j]) {
            common++;
            i++;
            j++;

        } else if (a->grams[i] < b->grams[j]) {
            i++;

        } else {
            j++;
        }
    }

    uni = a->n + b->n - common;
    small = a->n < b->n ? a->n : b->n;

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
