/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Lookups in the generated lexicon (see behave_lexicon.h).
 */

#include <string.h>
#include "text/behave_lexicon.h"


#define BEHAVE_LEX_STEM_MAX  48


static const behave_lex_entry_t *behave_lex_real(const char *w, size_t len,
    uint32_t h);
static const behave_lex_entry_t *behave_lex_real_plus(const char *w,
    size_t n, uint32_t h, char c);


/*
 * Every lookup of the annotator (words, phrases, emoji, inflections) comes
 * here: an external lexicon (behave_lexicon_ext.h), when one is installed,
 * answers first and falls back to the built-in one itself.
 */
behave_lex_source_t  behave_lex_source;


const behave_lex_entry_t *
behave_lex_find(const char *key, size_t len)
{
    return behave_lex_find_hashed(key, len, behave_lex_hash(key, len));
}


const behave_lex_entry_t *
behave_lex_find_hashed(const char *key, size_t len, uint32_t h)
{
    if (behave_lex_source.find != NULL) {
        return behave_lex_source.find(behave_lex_source.lex, key, len, h);
    }

    return behave_lex_find_builtin_hashed(key, len, h);
}


const behave_lex_entry_t *
behave_lex_find_builtin(const char *key, size_t len)
{
    return behave_lex_find_builtin_hashed(key, len,
                                          behave_lex_hash(key, len));
}


/* keys are a word or a few: a loop is cheaper than a call to memcmp */
static inline int
behave_lex_same(const char *a, const char *b, size_t len)
{
    size_t  i;

    for (i = 0; i < len; i++) {
        if (a[i] != b[i]) {
            return 0;
        }
    }

    return 1;
}


/*
 * The table (scripts/gen-lexicon) is at most half full, so a probe run
 * is short; the upper hash bits in each slot reject nearly every other
 * key before its entry is read.
 */
const behave_lex_entry_t *
behave_lex_find_builtin_hashed(const char *key, size_t len, uint32_t h)
{
    size_t                     i, mask;
    uint32_t                   s, tag;
    const behave_lex_entry_t  *e;

    if (len == 0 || len > 255) {
        return NULL;
    }

    mask = behave_lex_nslots - 1;
    tag = h & 0xffff0000u;

    for (i = h & mask; ; i = (i + 1) & mask) {
        s = behave_lex_slots[i];
        if (s == 0) {
            return NULL;
        }

        if ((s & 0xffff0000u) != tag) {
            continue;
        }

        e = &behave_lex_entries[(s & 0xffff) - 1];
        if (e->len == len && behave_lex_same(e->term, key, len)) {
            return e;
        }
    }
}


static const behave_lex_entry_t *
behave_lex_real(const char *w, size_t len, uint32_t h)
{
    const behave_lex_entry_t  *e;

    e = behave_lex_find_hashed(w, len, h);
    if (e == NULL || (e->flags & BEHAVE_LEX_PREFIX)) {
        return NULL;
    }

    return e;
}


/* w[0 .. n) followed by c; h is the hash of w[0 .. n) */
static const behave_lex_entry_t *
behave_lex_real_plus(const char *w, size_t n, uint32_t h, char c)
{
    char  buf[BEHAVE_LEX_STEM_MAX + 1];

    memcpy(buf, w, n);
    buf[n] = c;

    return behave_lex_real(buf, n + 1,
                           behave_lex_hash_step(h, (unsigned char) c));
}


const behave_lex_entry_t *
behave_lex_find_word(const char *w, size_t len)
{
    const behave_lex_entry_t  *e;

    e = behave_lex_real(w, len, behave_lex_hash(w, len));
    if (e != NULL) {
        return e;
    }

    return behave_lex_find_stem(w, len);
}


/*
 * Inflected forms are found through their stem so that the data files
 * need only list base forms: -s, -es, -ies, -ed, -ied, -ing, -er, -est,
 * -ly, -ness, with the dropped "e" ("loving", "nicest") and doubled
 * consonant ("stopped", "biggest").
 * The flags that only make sense on the exact word are kept anyway: the
 * caller treats a stem hit as an ordinary hit.
 */
const behave_lex_entry_t *
behave_lex_find_stem(const char *w, size_t len)
{
    size_t                     n, i;
    uint32_t                   hp[BEHAVE_LEX_STEM_MAX + 1];
    const behave_lex_entry_t  *e;

    if (len < 4 || len > BEHAVE_LEX_STEM_MAX) {
        return NULL;
    }

    /* hp[i]: the hash of the first i bytes, for every stem below */
    hp[0] = BEHAVE_LEX_HASH_INIT;
    for (i = 0; i < len; i++) {
        hp[i + 1] = behave_lex_hash_step(hp[i], (unsigned char) w[i]);
    }

#define behave_ends(s)                                                      \
    (len > sizeof(s) + 1 && memcmp(w + len - (sizeof(s) - 1), s,            \
                                   sizeof(s) - 1) == 0)

#define behave_stem(n)  behave_lex_real(w, n, hp[n])

    /* the stem with one more letter: "stopp" + "e", "happ" + "y" */
#define behave_stem_plus(n, c)                                              \
    behave_lex_real_plus(w, n, hp[n], c)

    if (behave_ends("ies") || behave_ends("ied")) {
        return behave_stem_plus(len - 3, 'y');
    }

    if (behave_ends("ness")) {
        return behave_stem(len - 4);
    }

    if (behave_ends("ly")) {
        e = behave_stem(len - 2);
        if (e == NULL && behave_ends("ily")) {
            e = behave_stem_plus(len - 3, 'y');
        }
        return e;
    }

    if (behave_ends("ing") || behave_ends("ed") || behave_ends("est")
        || behave_ends("er"))
    {
        n = behave_ends("ing") || behave_ends("est") ? len - 3 : len - 2;

        e = behave_stem(n);
        if (e != NULL) {
            return e;
        }

        e = behave_stem_plus(n, 'e');
        if (e != NULL) {
            return e;
        }

        if (n >= 3 && w[n - 1] == w[n - 2]) {
            return behave_stem(n - 1);
        }

        return NULL;
    }

    if (behave_ends("es")) {
        e = behave_stem(len - 2);
        if (e != NULL) {
            return e;
        }
    }

    if (w[len - 1] == 's' && w[len - 2] != 's' && w[len - 2] != '\'') {
        return behave_stem(len - 1);
    }

#undef behave_stem_plus
#undef behave_stem
#undef behave_ends

    return NULL;
}


const char *
behave_lang_code(behave_lang_e lang)
{
    static const char  *const codes[] = { "en", "es", "fr", "de", "pt", "it",
                                    "hi", "nl", "tl" };

    if ((unsigned) lang >= BEHAVE_LANG_N) {
        return "";
    }

    return codes[lang];
}
