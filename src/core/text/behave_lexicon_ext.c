/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * An external lexicon merged over the compiled-in one (see
 * behave_lexicon_ext.h): the parser, the overlay's hash table and the
 * process-wide installed overlay.
 */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/behave_lexicon_ext.h"
#include "text/behave_tokenize.h"


#define BEHAVE_LEX_EXT_PHRASE   6       /* BEHAVE_PHRASE, behave_annotate.c */
#define BEHAVE_LEX_EXT_KEY_MAX  255     /* longest key behave_lex_find takes */
#define BEHAVE_LEX_EXT_FIELDS   4       /* VADER: token, mean, sd, ratings */
#define BEHAVE_LEX_EXT_CHUNK    8192    /* term storage, bytes a chunk */
#define BEHAVE_LEX_EXT_SLOTS    64      /* first hash table size */
#define BEHAVE_LEX_EXT_QUOTE    32      /* bytes of a bad value shown */

#define BEHAVE_LEX_EXT_AFINN    2       /* formats, by their field count */
#define BEHAVE_LEX_EXT_VADER    4


typedef struct behave_lex_chunk_s  behave_lex_chunk_t;

struct behave_lex_chunk_s {
    behave_lex_chunk_t    *next;
    size_t                 used;
    size_t                 size;
    char                   data[];
};


struct behave_lex_overlay_s {
    behave_lex_entry_t    *entries;     /* merged copies, own terms */
    unsigned char         *real;        /* per entry: a term of the file */
    size_t                 nentries;
    size_t                 nalloc;
    uint32_t              *slots;       /* entry index + 1, 0 when free */
    size_t                 nslots;      /* a power of 2, at most half full */
    size_t                 count;       /* real entries */
    size_t                 skipped;
    behave_lex_chunk_t    *chunks;
};


static const behave_lex_entry_t *behave_lex_overlay_find_any(
    const void *lex, const char *key, size_t len, uint32_t h);

const behave_lex_overlay_t  *behave_lex_overlay_current;


static uint32_t behave_lex_ext_hash(const char *key, size_t len);
static size_t behave_lex_ext_lookup(const behave_lex_overlay_t *ov,
    const char *key, size_t len, uint32_t h);
static int behave_lex_ext_grow(behave_lex_overlay_t *ov);
static char *behave_lex_ext_strdup(behave_lex_overlay_t *ov,
    const char *s, size_t len);
static size_t behave_lex_ext_add(behave_lex_overlay_t *ov, const char *key,
    size_t len, unsigned ntok, const behave_lex_entry_t *base);
static int behave_lex_ext_term(behave_lex_overlay_t *ov, const char *key,
    size_t len, unsigned ntok, float valence);
static int behave_lex_ext_key(const char *term, size_t len, char *key,
    size_t *klen, unsigned *ntok);
static int behave_lex_ext_number(const char *s, size_t len, double *v);
static void behave_lex_ext_trim(const char **s, size_t *len);
static void behave_lex_ext_quote(char *buf, size_t size, const char *s,
    size_t len);
static void behave_lex_ext_error(char *err, size_t errlen, unsigned line,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));


/* the built-in lexicon's hash: a lookup hashes its key once for both */
static uint32_t
behave_lex_ext_hash(const char *key, size_t len)
{
    return behave_lex_hash(key, len);
}


/* entry index + 1 of key, 0 if absent; the table always has a free slot */
static size_t
behave_lex_ext_lookup(const behave_lex_overlay_t *ov, const char *key,
    size_t len, uint32_t h)
{
    size_t                     i, mask;
    uint32_t                   s;
    const behave_lex_entry_t  *e;

    if (ov->nslots == 0) {
        return 0;
    }

    mask = ov->nslots - 1;

    for (i = h & mask; ; i = (i + 1) & mask) {
        s = ov->slots[i];
        if (s == 0) {
            return 0;
        }

        e = &ov->entries[s - 1];
        if (e->len == len && memcmp(e->term, key, len) == 0) {
            return s;
        }
    }
}


static int
behave_lex_ext_grow(behave_lex_overlay_t *ov)
{
    size_t     n, i, j, mask;
    uint32_t  *slots;

    n = ov->nslots ? ov->nslots * 2 : BEHAVE_LEX_EXT_SLOTS;

    slots = calloc(n, sizeof(uint32_t));
    if (slots == NULL) {
        return -1;
    }

    mask = n - 1;

    for (i = 0; i < ov->nentries; i++) {
        j = behave_lex_ext_hash(ov->entries[i].term, ov->entries[i].len)
            & mask;
        while (slots[j] != 0) {
            j = (j + 1) & mask;
        }
        slots[j] = (uint32_t) (i + 1);
    }

    free(ov->slots);
    ov->slots = slots;
    ov->nslots = n;

    return 0;
}


/*
 * Terms live in chunks that never move, so that the entries (which do
 * move while the table grows) can point at them.
 */
static char *
behave_lex_ext_strdup(behave_lex_overlay_t *ov, const char *s, size_t len)
{
    size_t               size;
    char                *p;
    behave_lex_chunk_t  *c;

    c = ov->chunks;

    if (c == NULL || c->size - c->used < len + 1) {
        size = len + 1 > BEHAVE_LEX_EXT_CHUNK ? len + 1 : BEHAVE_LEX_EXT_CHUNK;

        c = malloc(sizeof(behave_lex_chunk_t) + size);
        if (c == NULL) {
            return NULL;
        }

        c->next = ov->chunks;
        c->used = 0;
        c->size = size;
        ov->chunks = c;
    }

    p = c->data + c->used;
    memcpy(p, s, len);
    p[len] = '\0';
    c->used += len + 1;

    return p;
}


/*
 * A new entry for key: a copy of the built-in one when there is one (all
 * its weights and flags kept), else an empty word.  Returns its index + 1,
 * 0 when out of memory.
 */
static size_t
behave_lex_ext_add(behave_lex_overlay_t *ov, const char *key, size_t len,
    unsigned ntok, const behave_lex_entry_t *base)
{
    size_t               n, j, mask;
    char                *term;
    unsigned char       *real;
    behave_lex_entry_t  *e;

    if (ov->nentries >= UINT32_MAX / 4) {
        return 0;
    }

    if ((ov->nentries + 1) * 2 > ov->nslots && behave_lex_ext_grow(ov) != 0)
    {
        return 0;
    }

    if (ov->nentries == ov->nalloc) {
        n = ov->nalloc ? ov->nalloc * 2 : BEHAVE_LEX_EXT_SLOTS;

        e = realloc(ov->entries, n * sizeof(behave_lex_entry_t));
        if (e == NULL) {
            return 0;
        }
        ov->entries = e;

        real = realloc(ov->real, n);
        if (real == NULL) {
            return 0;
        }
        ov->real = real;

        ov->nalloc = n;
    }

    term = behave_lex_ext_strdup(ov, key, len);
    if (term == NULL) {
        return 0;
    }

    e = &ov->entries[ov->nentries];

    if (base != NULL) {
        *e = *base;

    } else {
        memset(e, 0, sizeof(behave_lex_entry_t));
        e->ntok = (uint8_t) ntok;
    }

    e->term = term;
    e->len = (uint8_t) len;
    ov->real[ov->nentries] = 0;

    mask = ov->nslots - 1;
    j = behave_lex_ext_hash(key, len) & mask;
    while (ov->slots[j] != 0) {
        j = (j + 1) & mask;
    }

    ov->slots[j] = (uint32_t) (ov->nentries + 1);

    return ++ov->nentries;
}


/*
 * Merges one term of the file: its valence replaces the built-in one.  A
 * phrase also needs each of its proper prefixes findable and marked MORE,
 * because the annotator extends a match word by word and stops at the
 * first unknown prefix (scripts/gen-lexicon does the same for the built-in
 * phrases).  A prefix the built-in lexicon already marks needs no entry.
 */
static int
behave_lex_ext_term(behave_lex_overlay_t *ov, const char *key, size_t len,
    unsigned ntok, float valence)
{
    size_t                     i, j;
    unsigned                   k;
    behave_lex_entry_t        *e;
    const behave_lex_entry_t  *b;

    i = behave_lex_ext_lookup(ov, key, len,
                              behave_lex_ext_hash(key, len));
    if (i == 0) {
        i = behave_lex_ext_add(ov, key, len, ntok,
                               behave_lex_find_builtin(key, len));
        if (i == 0) {
            return -1;
        }
    }

    e = &ov->entries[i - 1];
    e->valence = valence;
    e->flags &= ~BEHAVE_LEX_PREFIX;

    if (!ov->real[i - 1]) {
        ov->real[i - 1] = 1;
        ov->count++;
    }

    for (j = 0, k = 0; j < len; j++) {
        if (key[j] != ' ') {
            continue;
        }

        k++;

        i = behave_lex_ext_lookup(ov, key, j, behave_lex_ext_hash(key, j));
        if (i != 0) {
            ov->entries[i - 1].flags |= BEHAVE_LEX_MORE;
            continue;
        }

        b = behave_lex_find_builtin(key, j);
        if (b != NULL && (b->flags & BEHAVE_LEX_MORE)) {
            continue;
        }

        i = behave_lex_ext_add(ov, key, j, k, b);
        if (i == 0) {
            return -1;
        }

        e = &ov->entries[i - 1];
        e->flags |= BEHAVE_LEX_MORE;

        if (b == NULL) {
            e->flags |= BEHAVE_LEX_PREFIX;
        }
    }

    return 0;
}


/*
 * The key under which the annotator will look the term up, made by the
 * annotator's own tokenizer.  Returns 1 with the key, 0 when no message
 * can ever produce the term as one lexicon unit (the caller skips it).
 */
static int
behave_lex_ext_key(const char *term, size_t len, char *key, size_t *klen,
    unsigned *ntok)
{
    size_t              n;
    unsigned            words, hyphen;
    behave_token_t      t;
    behave_tok_type_e   type;
    behave_tokenizer_t  tz;

    behave_tok_init(&tz, term, len);
    n = 0;
    words = 0;
    hyphen = 0;

    while ((type = behave_tok_next(&tz, &t)) != BEHAVE_TOK_END) {

        if (type == BEHAVE_TOK_EMOJI || type == BEHAVE_TOK_EMOTICON) {
            /* one symbol on its own; ":)))" is ":)" emphasised */
            if (words != 0 || t.repeat > 1 || t.len == 0
                || t.len > BEHAVE_LEX_EXT_KEY_MAX)
            {
                return 0;
            }

            memcpy(key, t.text, t.len);
            n = t.len;

            if (behave_tok_next(&tz, &t) != BEHAVE_TOK_END) {
                return 0;
            }

            *klen = n;
            *ntok = 1;
            return 1;
        }

        /* "world-class" is the phrase "world class", as in the .tsv files */
        if (type == BEHAVE_TOK_PUNCT && t.cp == '-' && t.repeat == 1
            && words != 0 && !hyphen && !(t.flags & BEHAVE_TOK_SPACE))
        {
            hyphen = 1;
            continue;
        }

        /* a phrase may go on with a number ("called 911"), not start so */
        if (!(type == BEHAVE_TOK_WORD
              || (type == BEHAVE_TOK_NUMBER && words != 0)))
        {
            return 0;
        }

        if ((t.flags & BEHAVE_TOK_CUT) || t.len == 0
            || words == BEHAVE_LEX_EXT_PHRASE
            || n + (words ? 1 : 0) + t.len > BEHAVE_LEX_EXT_KEY_MAX)
        {
            return 0;
        }

        if (words != 0) {
            key[n++] = ' ';
        }

        memcpy(key + n, t.text, t.len);
        n += t.len;
        words++;
        hyphen = 0;
    }

    if (words == 0 || hyphen) {
        return 0;
    }

    *klen = n;
    *ntok = words;
    return 1;
}


/*
 * A plain decimal: [-+]digits[.digits] or [-+].digits.  Parsed by hand:
 * strtod() follows the locale and takes "inf", "0x1p2" and "1e9".
 */
static int
behave_lex_ext_number(const char *s, size_t len, double *v)
{
    size_t  i, digits;
    double  x, scale;
    int     neg;

    i = 0;
    neg = 0;

    if (i < len && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }

    x = 0;
    digits = 0;

    while (i < len && s[i] >= '0' && s[i] <= '9') {
        x = x * 10 + (s[i] - '0');
        digits++;
        i++;
    }

    if (i < len && s[i] == '.') {
        i++;
        scale = 0.1;

        while (i < len && s[i] >= '0' && s[i] <= '9') {
            x += (s[i] - '0') * scale;
            scale /= 10;
            digits++;
            i++;
        }
    }

    if (digits == 0 || i != len) {
        return -1;
    }

    *v = neg ? -x : x;

    return 0;
}


static void
behave_lex_ext_trim(const char **s, size_t *len)
{
    while (*len > 0 && (**s == ' ' || **s == '\v' || **s == '\f')) {
        (*s)++;
        (*len)--;
    }

    while (*len > 0 && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\v'
                        || (*s)[*len - 1] == '\f'))
    {
        (*len)--;
    }
}


/* a bad value for the message: cut, control bytes made visible */
static void
behave_lex_ext_quote(char *buf, size_t size, const char *s, size_t len)
{
    size_t         i, n;
    unsigned char  c;

    n = len > BEHAVE_LEX_EXT_QUOTE ? BEHAVE_LEX_EXT_QUOTE : len;
    if (n > size - 4) {
        n = size - 4;
    }

    for (i = 0; i < n; i++) {
        c = (unsigned char) s[i];
        buf[i] = (c < 0x20 || c == 0x7f) ? '?' : (char) c;
    }

    if (n < len) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }

    buf[n] = '\0';
}


static void
behave_lex_ext_error(char *err, size_t errlen, unsigned line,
    const char *fmt, ...)
{
    int      n;
    va_list  ap;

    if (err == NULL || errlen == 0) {
        return;
    }

    n = snprintf(err, errlen, "line %u: ", line);
    if (n < 0 || (size_t) n >= errlen) {
        return;
    }

    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t) n, fmt, ap);
    va_end(ap);
}


int
behave_lex_overlay_parse(const char *text, size_t len,
    behave_lex_overlay_t **out, char *err, size_t errlen)
{
    size_t                 i, nf, klen, flen[BEHAVE_LEX_EXT_FIELDS];
    unsigned               line, format_line, ntok;
    int                    format;
    double                 v, sd, max;
    char                   key[BEHAVE_LEX_EXT_KEY_MAX + 1];
    char                   q[BEHAVE_LEX_EXT_QUOTE + 4];
    const char            *p, *end, *eol, *next, *c;
    const char            *f[BEHAVE_LEX_EXT_FIELDS];
    const char            *fname;
    behave_lex_overlay_t  *ov;

    *out = NULL;

    if (err != NULL && errlen > 0) {
        err[0] = '\0';
    }

    ov = calloc(1, sizeof(behave_lex_overlay_t));
    if (ov == NULL) {
        behave_lex_ext_error(err, errlen, 0, "out of memory");
        return -1;
    }

    p = text;
    end = text + len;
    line = 0;
    format = 0;
    format_line = 0;

    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
        p += 3;
    }

    for ( /* void */ ; p < end; p = next) {
        line++;

        eol = memchr(p, '\n', (size_t) (end - p));
        if (eol == NULL) {
            eol = end;
            next = end;

        } else {
            next = eol + 1;
        }

        if (eol > p && eol[-1] == '\r') {
            eol--;
        }

        if ((size_t) (eol - p) > BEHAVE_LEX_EXT_LINE_MAX) {
            behave_lex_ext_error(err, errlen, line,
                                 "longer than %d bytes",
                                 BEHAVE_LEX_EXT_LINE_MAX);
            goto failed;
        }

        for (c = p; c < eol && (*c == ' ' || *c == '\t'); c++) {
            /* void */
        }

        if (c == eol || *c == '#') {
            continue;
        }

        nf = 1;

        for (c = p; c < eol; c++) {
            nf += *c == '\t';
        }

        if (format == 0) {
            if (nf == 2) {
                format = BEHAVE_LEX_EXT_AFINN;

            } else if (nf == 3 || nf == 4) {
                format = BEHAVE_LEX_EXT_VADER;

            } else {
                behave_lex_ext_error(err, errlen, line,
                    "%zu tab-separated fields: expected 2 (AFINN: token, "
                    "score) or 4 (VADER: token, mean, sd, ratings)", nf);
                goto failed;
            }

            format_line = line;
        }

        if (format == BEHAVE_LEX_EXT_AFINN && nf != 2) {
            behave_lex_ext_error(err, errlen, line,
                "%zu tab-separated fields: expected 2 (AFINN format, "
                "detected on line %u)", nf, format_line);
            goto failed;
        }

        if (format == BEHAVE_LEX_EXT_VADER && nf != 3 && nf != 4) {
            behave_lex_ext_error(err, errlen, line,
                "%zu tab-separated fields: expected 4 (VADER format, "
                "detected on line %u)", nf, format_line);
            goto failed;
        }

        c = p;

        for (i = 0; i < nf; i++) {
            f[i] = c;
            c = memchr(c, '\t', (size_t) (eol - c));
            flen[i] = (size_t) ((c != NULL ? c : eol) - f[i]);
            c = c != NULL ? c + 1 : eol;
        }

        behave_lex_ext_trim(&f[0], &flen[0]);
        behave_lex_ext_trim(&f[1], &flen[1]);

        if (flen[0] == 0) {
            behave_lex_ext_error(err, errlen, line, "empty token");
            goto failed;
        }

        fname = format == BEHAVE_LEX_EXT_AFINN ? "score" : "mean";
        max = format == BEHAVE_LEX_EXT_AFINN ? 5 : 4;

        if (behave_lex_ext_number(f[1], flen[1], &v) != 0) {
            behave_lex_ext_quote(q, sizeof(q), f[1], flen[1]);
            behave_lex_ext_error(err, errlen, line,
                                 "%s \"%s\" is not a number", fname, q);
            goto failed;
        }

        if (!(v >= -max && v <= max)) {
            behave_lex_ext_quote(q, sizeof(q), f[1], flen[1]);
            behave_lex_ext_error(err, errlen, line,
                                 "%s %s outside -%g..%g", fname, q, max, max);
            goto failed;
        }

        if (format == BEHAVE_LEX_EXT_VADER) {
            behave_lex_ext_trim(&f[2], &flen[2]);

            if (behave_lex_ext_number(f[2], flen[2], &sd) != 0 || sd < 0) {
                behave_lex_ext_quote(q, sizeof(q), f[2], flen[2]);
                behave_lex_ext_error(err, errlen, line,
                                     "sd \"%s\" is not a number >= 0", q);
                goto failed;
            }

        } else {
            /* AFINN -5..5 onto the built-in -4..4 */
            v *= 0.8;
        }

        if (!behave_lex_ext_key(f[0], flen[0], key, &klen, &ntok)) {
            ov->skipped++;
            continue;
        }

        if (behave_lex_ext_term(ov, key, klen, ntok, (float) v) != 0) {
            behave_lex_ext_error(err, errlen, line, "out of memory");
            goto failed;
        }
    }

    *out = ov;
    return 0;

failed:

    behave_lex_overlay_free(ov);
    return -1;
}


void
behave_lex_overlay_free(behave_lex_overlay_t *ov)
{
    behave_lex_chunk_t  *c, *next;

    if (ov == NULL) {
        return;
    }

    if (behave_lex_overlay_current == ov) {
        behave_lex_overlay_install(NULL);
    }

    for (c = ov->chunks; c != NULL; c = next) {
        next = c->next;
        free(c);
    }

    free(ov->slots);
    free(ov->entries);
    free(ov->real);
    free(ov);
}


void
behave_lex_overlay_install(const behave_lex_overlay_t *ov)
{
    behave_lex_overlay_current = ov;
    behave_lex_source.find = (ov != NULL) ? behave_lex_overlay_find_any
                                          : NULL;
    behave_lex_source.lex = ov;
}


/* behave_lex_find_pt: the overlay as behave_lexicon.c sees it */

static const behave_lex_entry_t *
behave_lex_overlay_find_any(const void *lex, const char *key, size_t len,
    uint32_t h)
{
    return behave_lex_overlay_find_hashed(lex, key, len, h);
}


size_t
behave_lex_overlay_count(const behave_lex_overlay_t *ov)
{
    return ov != NULL ? ov->count : 0;
}


size_t
behave_lex_overlay_skipped(const behave_lex_overlay_t *ov)
{
    return ov != NULL ? ov->skipped : 0;
}


const behave_lex_entry_t *
behave_lex_overlay_find(const behave_lex_overlay_t *ov, const char *key,
    size_t len)
{
    return behave_lex_overlay_find_hashed(ov, key, len,
                                          behave_lex_hash(key, len));
}


const behave_lex_entry_t *
behave_lex_overlay_find_hashed(const behave_lex_overlay_t *ov,
    const char *key, size_t len, uint32_t h)
{
    size_t  s;

    if (len == 0 || len > BEHAVE_LEX_EXT_KEY_MAX) {
        return NULL;
    }

    s = behave_lex_ext_lookup(ov, key, len, h);
    if (s != 0) {
        return &ov->entries[s - 1];
    }

    return behave_lex_find_builtin_hashed(key, len, h);
}
