/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Lookups in the generated lexicon (see behave_lexicon.h).
 */

#include <string.h>
#include "behave_lexicon.h"
#include "behave_lexicon_ext.h"


#define BEHAVE_LEX_STEM_MAX  48


static uint32_t behave_lex_hash(const char *key, size_t len, uint32_t seed);
static const behave_lex_entry_t *behave_lex_real(const char *w, size_t len);


/* FNV-1a with a seeded basis; scripts/gen-lexicon computes the same */
static uint32_t
behave_lex_hash(const char *key, size_t len, uint32_t seed)
{
    size_t    i;
    uint32_t  h;

    h = 2166136261u ^ (seed * 0x9e3779b1u);

    for (i = 0; i < len; i++) {
        h ^= (unsigned char) key[i];
        h *= 16777619u;
    }

    return h;
}


/*
 * Every lookup of the annotator (words, phrases, emoji, inflections) comes
 * here: an external lexicon (behave_lexicon_ext.h), when one is installed,
 * answers first and falls back to the built-in one itself.
 */
const behave_lex_entry_t *
behave_lex_find(const char *key, size_t len)
{
    if (behave_lex_overlay_current != NULL) {
        return behave_lex_overlay_find(behave_lex_overlay_current, key, len);
    }

    return behave_lex_find_builtin(key, len);
}


/*
 * A perfect hash (see scripts/gen-lexicon): the bucket of the key gives
 * the seed, the seeded hash gives the only slot where the key can be.
 */
const behave_lex_entry_t *
behave_lex_find_builtin(const char *key, size_t len)
{
    uint16_t                   s;
    uint32_t                   seed;
    const behave_lex_entry_t  *e;

    if (len == 0 || len > 255) {
        return NULL;
    }

    seed = behave_lex_seeds[behave_lex_hash(key, len, 0)
                            & (behave_lex_nbuckets - 1)];
    if (seed == 0) {
        return NULL;
    }

    s = behave_lex_slots[behave_lex_hash(key, len, seed)
                         & (behave_lex_nslots - 1)];
    if (s == 0) {
        return NULL;
    }

    e = &behave_lex_entries[s - 1];
    if (e->len == len && memcmp(e->term, key, len) == 0) {
        return e;
    }

    return NULL;
}


static const behave_lex_entry_t *
behave_lex_real(const char *w, size_t len)
{
    const behave_lex_entry_t  *e;

    e = behave_lex_find(w, len);
    if (e == NULL || (e->flags & BEHAVE_LEX_PREFIX)) {
        return NULL;
    }

    return e;
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
behave_lex_find_word(const char *w, size_t len)
{
    size_t                     n;
    char                       buf[BEHAVE_LEX_STEM_MAX + 2];
    const behave_lex_entry_t  *e;

    e = behave_lex_real(w, len);
    if (e != NULL || len < 4 || len > BEHAVE_LEX_STEM_MAX) {
        return e;
    }

    memcpy(buf, w, len);

#define behave_ends(s)                                                      \
    (len > sizeof(s) + 1 && memcmp(w + len - (sizeof(s) - 1), s,            \
                                   sizeof(s) - 1) == 0)

    if (behave_ends("ies") || behave_ends("ied")) {
        n = len - 3;
        buf[n] = 'y';
        return behave_lex_real(buf, n + 1);
    }

    if (behave_ends("ness")) {
        return behave_lex_real(w, len - 4);
    }

    if (behave_ends("ly")) {
        e = behave_lex_real(w, len - 2);
        if (e == NULL && behave_ends("ily")) {
            n = len - 3;
            buf[n] = 'y';
            e = behave_lex_real(buf, n + 1);
        }
        return e;
    }

    if (behave_ends("ing") || behave_ends("ed") || behave_ends("est")
        || behave_ends("er"))
    {
        n = behave_ends("ing") || behave_ends("est") ? len - 3 : len - 2;

        e = behave_lex_real(w, n);
        if (e != NULL) {
            return e;
        }

        buf[n] = 'e';
        e = behave_lex_real(buf, n + 1);
        if (e != NULL) {
            return e;
        }

        if (n >= 3 && w[n - 1] == w[n - 2]) {
            return behave_lex_real(w, n - 1);
        }

        return NULL;
    }

    if (behave_ends("es")) {
        e = behave_lex_real(w, len - 2);
        if (e != NULL) {
            return e;
        }
    }

    if (w[len - 1] == 's' && w[len - 2] != 's' && w[len - 2] != '\'') {
        return behave_lex_real(w, len - 1);
    }

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
