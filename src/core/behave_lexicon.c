/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Lookups in the generated lexicon (see behave_lexicon.h).
 */

#include <string.h>
#include "behave_lexicon.h"


#define BEHAVE_LEX_STEM_MAX  48


static uint32_t behave_lex_hash(const char *key, size_t len);
static const behave_lex_entry_t *behave_lex_real(const char *w, size_t len);


static uint32_t
behave_lex_hash(const char *key, size_t len)
{
    size_t    i;
    uint32_t  h;

    h = 2166136261u;

    for (i = 0; i < len; i++) {
        h ^= (unsigned char) key[i];
        h *= 16777619u;
    }

    return h;
}


const behave_lex_entry_t *
behave_lex_find(const char *key, size_t len)
{
    size_t                     i, mask;
    unsigned                   probe;
    uint16_t                   s;
    const behave_lex_entry_t  *e;

    if (len == 0 || len > 255) {
        return NULL;
    }

    mask = behave_lex_nslots - 1;
    i = behave_lex_hash(key, len) & mask;

    /* the generator checked that no key needs more probes than this */
    for (probe = 0; probe < behave_lex_maxprobe; probe++) {
        s = behave_lex_slots[i];
        if (s == 0) {
            return NULL;
        }

        e = &behave_lex_entries[s - 1];
        if (e->len == len && memcmp(e->term, key, len) == 0) {
            return e;
        }

        i = (i + 1) & mask;
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
 * need only list base forms: -s, -es, -ies, -ed, -ied, -ing, -ly, -ness,
 * with the dropped "e" ("loving") and doubled consonant ("stopped").
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

    if (behave_ends("ing") || behave_ends("ed")) {
        n = behave_ends("ing") ? len - 3 : len - 2;

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
    static const char  *codes[] = { "en", "es", "fr", "de", "pt", "it",
                                    "hi", "nl", "tl" };

    if ((unsigned) lang >= BEHAVE_LANG_N) {
        return "";
    }

    return codes[lang];
}
