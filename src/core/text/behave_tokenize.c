/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Streaming tokenizer, see behave_tokenize.h.  One pass, constant work
 * per byte: the annotator calls behave_tok_next() until BEHAVE_TOK_END.
 */

#include <string.h>
#include <utf8proc.h>

#include "text/behave_lexicon.h"
#include "text/behave_tokenize.h"


typedef enum {
    BEHAVE_CP_OTHER = 0,
    BEHAVE_CP_SPACE,
    BEHAVE_CP_NEWLINE,
    BEHAVE_CP_LETTER,
    BEHAVE_CP_DIGIT,
    BEHAVE_CP_APOS,
    BEHAVE_CP_PUNCT,
    BEHAVE_CP_EMOJI,
    BEHAVE_CP_IGNORE,           /* joiners, variation selectors, tones */
    BEHAVE_CP_SYMBOL
} behave_cp_class_e;


static behave_cp_class_e behave_cp_class(uint32_t cp);
static uint32_t behave_cp_lower(uint32_t cp, unsigned *upper,
    unsigned *lower);
static uint32_t behave_cp_width(uint32_t cp);
static void behave_tok_nfc(char *text, unsigned *len);
static size_t behave_utf8_encode(uint32_t cp, char *out);
static int behave_tok_emoticon(behave_tokenizer_t *tz, behave_token_t *tok);
static int behave_tok_letter_emoticon(unsigned char c, unsigned char next);
static int behave_tok_url(const unsigned char *p, size_t avail);
static int behave_tok_word_ascii(behave_tokenizer_t *tz,
    behave_token_t *tok);
static int behave_tok_plain_word(behave_tokenizer_t *tz,
    behave_token_t *tok, unsigned space);
static void behave_tok_word(behave_tokenizer_t *tz, behave_token_t *tok,
    unsigned ascii_tried);
static void behave_tok_punct(behave_tokenizer_t *tz, behave_token_t *tok,
    uint32_t cp, size_t n);
static void behave_tok_skip_nonspace(behave_tokenizer_t *tz);


/* the shapes only: their meaning is in the lexicon (emoji.tsv) */
static const char  *const behave_emoticons[] = {
    ">:-(", ">:(", ":'-(", ":'-)", ":'(", ":')", "</3", "<3",
    ":-)", ":-(", ":-d", ":-p", ":-/", ":-|", ":-o", ":-*", ";-)", "8-)",
    ":)", ":(", ":d", ":p", ":/", ":\\", ":|", ":o", ":*", ":]", ":[",
    ":@", ":$", ":s", ";)", ";(", ";d", ";p", "=)", "=(", "=d", "=/",
    "(:", "):", "xd", "x)", "x(", "^_^", "^^", "-_-", "t_t", ">_<",
    "o_o", "d:", NULL
};


size_t
behave_utf8_decode(const unsigned char *p, const unsigned char *end,
    uint32_t *cp)
{
    size_t    n, i;
    uint32_t  c, min;

    c = p[0];

    if (c < 0x80) {
        *cp = c;
        return 1;
    }

    if ((c & 0xe0) == 0xc0) {
        n = 2; c &= 0x1f; min = 0x80;

    } else if ((c & 0xf0) == 0xe0) {
        n = 3; c &= 0x0f; min = 0x800;

    } else if ((c & 0xf8) == 0xf0) {
        n = 4; c &= 0x07; min = 0x10000;

    } else {
        return 0;
    }

    if ((size_t) (end - p) < n) {
        return 0;
    }

    for (i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            return 0;
        }
        c = (c << 6) | (p[i] & 0x3f);
    }

    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
        return 0;
    }

    *cp = c;
    return n;
}


static size_t
behave_utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char) cp;
        return 1;
    }

    if (cp < 0x800) {
        out[0] = (char) (0xc0 | (cp >> 6));
        out[1] = (char) (0x80 | (cp & 0x3f));
        return 2;
    }

    if (cp < 0x10000) {
        out[0] = (char) (0xe0 | (cp >> 12));
        out[1] = (char) (0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char) (0x80 | (cp & 0x3f));
        return 3;
    }

    out[0] = (char) (0xf0 | (cp >> 18));
    out[1] = (char) (0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char) (0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char) (0x80 | (cp & 0x3f));
    return 4;
}


static behave_cp_class_e
behave_cp_class(uint32_t cp)
{
    if (cp < 0x80) {
        /* letters first: most tokens start with one */
        if ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') {
            return BEHAVE_CP_LETTER;
        }
        if (cp == '\n') {
            return BEHAVE_CP_NEWLINE;
        }
        if (cp == ' ' || cp == '\t' || cp == '\r' || cp == '\f'
            || cp == '\v')
        {
            return BEHAVE_CP_SPACE;
        }
        if (cp >= '0' && cp <= '9') {
            return BEHAVE_CP_DIGIT;
        }
        if (cp == '\'') {
            return BEHAVE_CP_APOS;
        }
        if (cp == '$' || cp == '#' || cp == '@' || cp == '%' || cp == '&'
            || cp == '+' || cp == '=' || cp == '<' || cp == '>'
            || cp == '^' || cp == '~' || cp == '|' || cp == '*'
            || cp == '`' || cp == '\\')
        {
            return BEHAVE_CP_SYMBOL;
        }
        if (cp < 0x20 || cp == 0x7f) {
            return BEHAVE_CP_SPACE;
        }
        return BEHAVE_CP_PUNCT;
    }

    if (cp == 0x2019 || cp == 0x2018 || cp == 0x02bc) {
        return BEHAVE_CP_APOS;
    }

    if (cp == 0x00a0 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x3000) {
        return BEHAVE_CP_SPACE;
    }

    if (cp == 0x2028 || cp == 0x2029 || cp == 0x85) {
        return BEHAVE_CP_NEWLINE;
    }

    if (cp == 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)
        || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x1f3fb && cp <= 0x1f3ff)
        || (cp >= 0xe0000 && cp <= 0xe007f) || cp == 0x20e3)
    {
        return BEHAVE_CP_IGNORE;
    }

    if ((cp >= 0x1f000 && cp <= 0x1faff) || (cp >= 0x2600 && cp <= 0x27bf)
        || (cp >= 0x2b00 && cp <= 0x2bff) || (cp >= 0x2300 && cp <= 0x23ff)
        || cp == 0x3297 || cp == 0x3299 || cp == 0x2122 || cp == 0x2139)
    {
        return BEHAVE_CP_EMOJI;
    }

    if ((cp >= 0x2010 && cp <= 0x2027) || (cp >= 0x2030 && cp <= 0x205e)
        || cp == 0xa1 || cp == 0xbf || cp == 0xab || cp == 0xbb
        || (cp >= 0x3001 && cp <= 0x303f) || (cp >= 0xff01 && cp <= 0xff0f)
        || cp == 0xff1f || cp == 0xb7)
    {
        return BEHAVE_CP_PUNCT;
    }

    if (cp < 0xc0 || cp == 0xd7 || cp == 0xf7
        || (cp >= 0x2070 && cp <= 0x2bff) || (cp >= 0xe000 && cp <= 0xf8ff))
    {
        return BEHAVE_CP_SYMBOL;
    }

    return BEHAVE_CP_LETTER;
}


/*
 * Unicode's simple lower-case mapping (utf8proc, Unicode 15), the same for
 * every locale: "I" is "i" and "İ" is "i" too (not Turkish "ı"); "ß" stays
 * "ß" (full case folding would make it "ss", which no lexicon entry is
 * written as).  ASCII never comes here: the callers lower it themselves.
 */
static uint32_t
behave_cp_lower(uint32_t cp, unsigned *upper, unsigned *lower)
{
    uint32_t  lc;

    lc = (uint32_t) utf8proc_tolower((utf8proc_int32_t) cp);

    *upper = (lc != cp) || utf8proc_isupper((utf8proc_int32_t) cp);
    *lower = !*upper && utf8proc_islower((utf8proc_int32_t) cp);

    return lc;
}


/*
 * Full-width Latin letters and digits (U+FF10..FF5A, as East Asian input
 * methods type them) are read as their ASCII selves, so "ＨＥＬＰ" is the
 * lexicon's "help": the part of NFKC the lexicon needs, without the rest
 * (which would also turn "²" into "2" and "ﬁ" into "fi").
 */
static uint32_t
behave_cp_width(uint32_t cp)
{
    if ((cp >= 0xff10 && cp <= 0xff19) || (cp >= 0xff21 && cp <= 0xff3a)
        || (cp >= 0xff41 && cp <= 0xff5a))
    {
        return cp - 0xfee0;
    }

    return cp;
}


/*
 * A word with non-ASCII letters in NFC, the form the lexicon is written
 * in: "e" + U+0301 becomes "é".  In place, no allocation: the word is at
 * most BEHAVE_TOK_MAX - 1 bytes and NFC never makes it longer.
 */
static void
behave_tok_nfc(char *text, unsigned *len)
{
    utf8proc_ssize_t   n;
    utf8proc_int32_t   buf[BEHAVE_TOK_MAX * 2];

    static const utf8proc_option_t  opts = UTF8PROC_STABLE
                                           | UTF8PROC_COMPOSE;

    n = utf8proc_decompose((const utf8proc_uint8_t *) text, *len, buf,
                           BEHAVE_TOK_MAX * 2, opts);
    if (n < 0 || n > BEHAVE_TOK_MAX * 2) {
        return;
    }

    n = utf8proc_normalize_utf32(buf, n, opts);
    if (n < 0) {
        return;
    }

    n = utf8proc_reencode(buf, n, opts);
    if (n < 0 || (size_t) n > *len) {
        return;
    }

    memcpy(text, buf, (size_t) n);
    text[n] = '\0';
    *len = (unsigned) n;
}


void
behave_tok_init(behave_tokenizer_t *tz, const char *text, size_t len)
{
    tz->start = (const unsigned char *) text;
    tz->p = tz->start;
    tz->end = tz->start + (text ? len : 0);
}


static void
behave_tok_skip_nonspace(behave_tokenizer_t *tz)
{
    while (tz->p < tz->end && *tz->p != ' ' && *tz->p != '\n'
           && *tz->p != '\t' && *tz->p != '\r')
    {
        tz->p++;
    }
}


/* a letter that may open an emoticon: "xD", "x)", "D:", "o_o" */
static int
behave_tok_letter_emoticon(unsigned char c, unsigned char next)
{
    return ((c | 0x20) == 'x' && (next | 0x20) == 'd') || next == ')'
           || next == '(' || next == '_' || next == ':';
}


/* URLs carry no sentiment of their own: read as one symbol */
static int
behave_tok_url(const unsigned char *p, size_t avail)
{
    return (p[0] == 'h' || p[0] == 'w')
           && ((avail >= 7 && memcmp(p, "http://", 7) == 0)
               || (avail >= 8 && memcmp(p, "https://", 8) == 0)
               || (avail >= 4 && memcmp(p, "www.", 4) == 0));
}


/*
 * Emoticons are matched against a short list of shapes; one that starts
 * with a letter ("xD", "D:") needs a boundary before it, and every one a
 * boundary after it, so "8)" in a list or "x(" in "max(" are left alone.
 */
static int
behave_tok_emoticon(behave_tokenizer_t *tz, behave_token_t *tok)
{
    size_t                i, n, avail;
    unsigned char         c, prev, last, first;
    const char  *const   *e;
    const unsigned char  *p;

    p = tz->p;
    avail = (size_t) (tz->end - p);
    prev = p > tz->start ? p[-1] : ' ';

    if (avail < 2) {
        return 0;
    }

    /* cheap filter first: most tokens are words that are no emoticon */
    c = p[0] | 0x20;
    if (c >= 'a' && c <= 'z') {
        if (!behave_tok_letter_emoticon(p[0], p[1])) {
            return 0;
        }
    } else if (p[0] == '\0' || strchr(":;=(<>)^-", p[0]) == NULL) {
        return 0;
    }

    first = p[0] >= 'A' && p[0] <= 'Z' ? p[0] + 0x20 : p[0];

    for (e = behave_emoticons; *e; e++) {
        /* most differ at once: no strlen() for them */
        if ((unsigned char) (*e)[0] != first) {
            continue;
        }

        n = strlen(*e);
        if (n > avail) {
            continue;
        }

        for (i = 0; i < n; i++) {
            c = p[i];
            if (c >= 'A' && c <= 'Z') {
                c += 0x20;
            }
            if (c != (unsigned char) (*e)[i]) {
                break;
            }
        }

        if (i < n) {
            continue;
        }

        if ((((*e)[0] >= 'a' && (*e)[0] <= 'z') || (*e)[0] == '('
             || (*e)[0] == ')')
            && (((prev | 0x20) >= 'a' && (prev | 0x20) <= 'z')
                || (prev >= '0' && prev <= '9')))
        {
            continue;
        }

        /* ":)))" is one emoticon, emphasised */
        last = p[n - 1];
        tok->repeat = 1;
        while (n < avail && p[n] == last) {
            n++;
            tok->repeat++;
        }

        if (n < avail && (((p[n] | 0x20) >= 'a' && (p[n] | 0x20) <= 'z')
                          || (p[n] >= '0' && p[n] <= '9')))
        {
            continue;
        }

        tok->type = BEHAVE_TOK_EMOTICON;
        tok->len = (unsigned) strlen(*e);
        memcpy(tok->text, *e, tok->len + 1);
        tz->p += n;
        return 1;
    }

    return 0;
}


/* one code point of 1-4 bytes: a call to memcpy costs more than this */
static inline void
behave_tok_put(char *dst, unsigned *len, const char *src, size_t k)
{
    char  *d;

    d = dst + *len;
    *len += (unsigned) k;

    switch (k) {
    case 4:
        d[3] = src[3];
        /* fall through */
    case 3:
        d[2] = src[2];
        /* fall through */
    case 2:
        d[1] = src[1];
        /* fall through */
    default:
        d[0] = src[0];
    }
}


/*
 * Most words are ASCII letters and nothing else: lowercased in one pass,
 * with the flags the general loop below would give them.  A word that
 * goes on with a digit, an apostrophe or a non-ASCII character, has a run
 * of three (elongation) or is too long to fit returns 0, and the general
 * loop starts it over.
 */

static int
behave_tok_word_ascii(behave_tokenizer_t *tz, behave_token_t *tok)
{
    size_t                i, n;
    uint32_t              h;
    unsigned              nupper, run;
    unsigned char         c, lc, prev;
    const unsigned char  *p;

    p = tz->p;
    n = (size_t) (tz->end - p);

    /* the general loop cuts from the (BEHAVE_TOK_MAX - 1)th letter on */
    if (n > BEHAVE_TOK_MAX - 1) {
        n = BEHAVE_TOK_MAX - 1;
    }

    nupper = 0;
    run = 0;
    prev = 0;
    h = BEHAVE_LEX_HASH_INIT;

    for (i = 0; i < n; i++) {
        c = p[i];
        lc = c | 0x20;

        if ((unsigned) (lc - 'a') >= 26) {
            break;
        }

        if (lc != prev) {
            prev = lc;
            run = 1;

        } else if (++run == 3) {
            return 0;
        }

        nupper += c != lc;
        h = behave_lex_hash_step(h, lc);
        tok->text[i] = (char) lc;
    }

    /* the word must end here, as the general loop would end it */
    if (i == 0) {
        return 0;
    }

    if (p + i < tz->end) {
        c = p[i];

        if (c >= 0x80 || c == '\'' || (c >= '0' && c <= '9')
            || (unsigned) ((c | 0x20) - 'a') < 26)
        {
            return 0;
        }
    }

    tok->type = BEHAVE_TOK_WORD;
    tok->len = (unsigned) i;
    tok->hash = h;
    tok->text[i] = '\0';
    tok->alt_len = 0;
    tok->alt[0] = '\0';

    if (p[0] != (p[0] | 0x20)) {
        tok->flags |= BEHAVE_TOK_INITCAP;
    }

    if (nupper >= 2 && nupper == i) {
        tok->flags |= BEHAVE_TOK_CAPS;
    }

    tz->p += i;

    return 1;
}


static void
behave_tok_word(behave_tokenizer_t *tz, behave_token_t *tok,
    unsigned ascii_tried)
{
    size_t             n, m, k;
    unsigned           upper, lower, nupper, nlower, run, first, digits,
                       letters;
    uint32_t           cp, lc, last, next;
    char               buf[4];
    behave_cp_class_e  cls;

    nupper = 0;
    nlower = 0;
    run = 0;
    last = 0;
    first = 1;
    digits = 0;
    letters = 0;

    if (!ascii_tried && behave_tok_word_ascii(tz, tok)) {
        return;
    }

    tok->type = BEHAVE_TOK_WORD;

    while (tz->p < tz->end) {
        cp = *tz->p;

        /*
         * ASCII letters, most of any text, take a short way with the same
         * effect as the general one below
         */
        if ((cp | 0x20) - 'a' < 26) {
            tz->p++;
            letters++;
            lc = cp | 0x20;

            if (cp != lc) {
                nupper++;
                if (first) {
                    tok->flags |= BEHAVE_TOK_INITCAP;
                }
            } else {
                nlower++;
            }

            first = 0;
            run = (lc == last) ? run + 1 : 1;
            last = lc;

            if (tok->len + 2 > BEHAVE_TOK_MAX) {
                tok->flags |= BEHAVE_TOK_CUT;
                continue;
            }

            if (run >= 3) {
                tok->flags |= BEHAVE_TOK_ELONG;
                continue;
            }

            tok->text[tok->len++] = (char) lc;

            if (run < 2) {
                tok->alt[tok->alt_len++] = (char) lc;
            }

            continue;
        }

        if (cp - '0' < 10) {
            n = 1;
            cls = BEHAVE_CP_DIGIT;

        } else {
            n = behave_utf8_decode(tz->p, tz->end, &cp);
            if (n == 0) {
                break;
            }

            cp = behave_cp_width(cp);
            cls = behave_cp_class(cp);

            if (cp >= '0' && cp <= '9') {
                cls = BEHAVE_CP_DIGIT;
            }
        }

        if (cls == BEHAVE_CP_APOS) {
            /* an apostrophe belongs to the word only between letters */
            if (first || tz->p + n >= tz->end) {
                break;
            }

            m = behave_utf8_decode(tz->p + n, tz->end, &next);
            if (m == 0 || behave_cp_class(next) != BEHAVE_CP_LETTER) {
                break;
            }

            cp = '\'';
            tok->flags |= BEHAVE_TOK_APOS;

        } else if (cls != BEHAVE_CP_LETTER && cls != BEHAVE_CP_DIGIT) {
            break;
        }

        tz->p += n;

        if (cls == BEHAVE_CP_DIGIT) {
            digits++;
        } else if (cls == BEHAVE_CP_LETTER) {
            letters++;
        }

        if (cp < 0x80) {
            lc = (cp - 'A' < 26) ? cp | 0x20 : cp;
            upper = lc != cp;
            lower = !upper;

        } else {
            lc = behave_cp_lower(cp, &upper, &lower);
        }

        if (cls == BEHAVE_CP_LETTER) {
            if (upper) {
                nupper++;
                if (first) {
                    tok->flags |= BEHAVE_TOK_INITCAP;
                }
            } else if (lower) {
                nlower++;
            }
        }

        if (cp >= 0x80) {
            tok->flags |= BEHAVE_TOK_NONASCII;
        }

        first = 0;
        run = (lc == last) ? run + 1 : 1;
        last = lc;

        if (lc < 0x80) {
            buf[0] = (char) lc;
            k = 1;
        } else {
            k = behave_utf8_encode(lc, buf);
        }

        if (tok->len + k + 1 > BEHAVE_TOK_MAX) {
            tok->flags |= BEHAVE_TOK_CUT;
            continue;
        }

        /* elongation: "sooo" is kept as "soo" in text, "so" in alt */
        if (run >= 3 && cls == BEHAVE_CP_LETTER) {
            tok->flags |= BEHAVE_TOK_ELONG;
            continue;
        }

        behave_tok_put(tok->text, &tok->len, buf, k);

        if (cls == BEHAVE_CP_DIGIT) {
            tok->flags |= BEHAVE_TOK_DIGITS;
        }

        if (run < 2 || cls != BEHAVE_CP_LETTER) {
            behave_tok_put(tok->alt, &tok->alt_len, buf, k);
        }
    }

    tok->text[tok->len] = '\0';
    tok->alt[tok->alt_len] = '\0';

    if (!(tok->flags & BEHAVE_TOK_ELONG)) {
        tok->alt_len = 0;
        tok->alt[0] = '\0';
    }

    /* "e" + U+0301 is the lexicon's "é" (ASCII is NFC already) */
    if (tok->flags & BEHAVE_TOK_NONASCII) {
        behave_tok_nfc(tok->text, &tok->len);

        if (tok->alt_len) {
            behave_tok_nfc(tok->alt, &tok->alt_len);
        }
    }

    if (nupper >= 2 && nlower == 0) {
        tok->flags |= BEHAVE_TOK_CAPS;
    }

    if (letters == 0 && digits > 0) {
        tok->type = BEHAVE_TOK_NUMBER;
    }

    tok->hash = behave_lex_hash(tok->text, tok->len);
}


/*
 * The usual token, a plain ASCII word after plain spaces, without the
 * general path's work: anything the general path could read otherwise
 * (an emoticon such as "xD" or "D:", a URL, a word with an apostrophe, a
 * digit, a non-ASCII letter or an elongation) is read by the general
 * path from the same place: 0 when the short loop was not tried, -1 when
 * it was (the general path then skips it).
 */
static int
behave_tok_plain_word(behave_tokenizer_t *tz, behave_token_t *tok,
    unsigned space)
{
    size_t                avail;
    unsigned char         c;
    const unsigned char  *p;

    p = tz->p;
    c = p[0];

    if ((unsigned) ((c | 0x20) - 'a') >= 26) {
        return 0;
    }

    avail = (size_t) (tz->end - p);

    if ((avail >= 2 && behave_tok_letter_emoticon(c, p[1]))
        || behave_tok_url(p, avail))
    {
        return 0;
    }

    tok->flags = space ? BEHAVE_TOK_SPACE : 0;
    tok->cp = 0;
    tok->repeat = 0;
    tok->off = (size_t) (p - tz->start);

    if (!behave_tok_word_ascii(tz, tok)) {
        return -1;
    }

    /*
     * The lexicon lookup of this word comes soon, after the work on the
     * words before it: its slot is fetched meanwhile, as the table is
     * rarely in a near cache when a request arrives.
     */
    __builtin_prefetch(&behave_lex_slots[tok->hash
                                         & (behave_lex_nslots - 1)]);

    return 1;
}


static void
behave_tok_punct(behave_tokenizer_t *tz, behave_token_t *tok, uint32_t cp,
    size_t n)
{
    uint32_t  c;
    size_t    m;

    tok->type = BEHAVE_TOK_PUNCT;
    tok->repeat = 1;
    tz->p += n;

    /* fold look-alikes so the annotator sees few shapes */
    switch (cp) {
    case 0xbf:
    case 0xff1f:
        cp = '?';
        break;
    case 0xa1:
    case 0xff01:
        cp = '!';
        break;
    case 0x2026:
        cp = '.';
        tok->repeat = 3;
        break;
    case 0x3002:
        cp = '.';
        break;
    default:
        break;
    }

    tok->cp = cp;

    if (cp != '!' && cp != '?' && cp != '.') {
        tok->len = (unsigned) behave_utf8_encode(cp, tok->text);
        tok->text[tok->len] = '\0';
        return;
    }

    /* a run of ! and ? is one token: "?!?" asks and exclaims */
    while (tz->p < tz->end) {
        m = behave_utf8_decode(tz->p, tz->end, &c);
        if (m == 0) {
            break;
        }

        if (c == 0xbf || c == 0xff1f) {
            c = '?';
        } else if (c == 0xa1 || c == 0xff01) {
            c = '!';
        } else if (c == 0x2026) {
            c = '.';
        }

        if (cp == '.' ? c != '.' : (c != '!' && c != '?')) {
            break;
        }

        if (c == '?') {
            tok->cp = '?';
        }

        tok->repeat++;
        tz->p += m;
    }

    tok->text[0] = (char) tok->cp;
    tok->text[1] = '\0';
    tok->len = 1;
}


behave_tok_type_e
behave_tok_next(behave_tokenizer_t *tz, behave_token_t *tok)
{
    int                   rc;
    size_t                n;
    uint32_t              cp;
    unsigned              space;
    behave_cp_class_e     cls;
    const unsigned char  *ascii_tried;

    space = 0;
    ascii_tried = NULL;

    while (tz->p < tz->end && *tz->p == ' ') {
        tz->p++;
        space = 1;
    }

    if (tz->p < tz->end) {
        rc = behave_tok_plain_word(tz, tok, space);

        if (rc == 1) {
            return BEHAVE_TOK_WORD;
        }

        if (rc < 0) {
            ascii_tried = tz->p;
        }
    }

    memset(tok, 0, offsetof(behave_token_t, text));
    tok->text[0] = '\0';
    tok->alt[0] = '\0';

    for ( ;; ) {
        if (tz->p >= tz->end) {
            tok->type = BEHAVE_TOK_END;
            tok->off = (size_t) (tz->p - tz->start);
            return BEHAVE_TOK_END;
        }

        tok->off = (size_t) (tz->p - tz->start);

        if (*tz->p == ' ') {
            tz->p++;
            space = 1;
            continue;
        }

        if (*tz->p < 0x80) {
            cp = *tz->p;
            n = 1;

        } else {
            n = behave_utf8_decode(tz->p, tz->end, &cp);
        }

        if (n == 0) {
            /* invalid byte: the caller validates, we just survive */
            tz->p++;
            continue;
        }

        cls = behave_cp_class(cp);

        if (cls == BEHAVE_CP_SPACE || cls == BEHAVE_CP_IGNORE) {
            tz->p += n;
            space = 1;
            continue;
        }

        break;
    }

    if (space) {
        tok->flags |= BEHAVE_TOK_SPACE;
    }

    if (cls == BEHAVE_CP_NEWLINE) {
        tok->type = BEHAVE_TOK_NEWLINE;
        tok->repeat = 0;

        while (tz->p < tz->end) {
            n = behave_utf8_decode(tz->p, tz->end, &cp);
            if (n == 0) {
                break;
            }
            cls = behave_cp_class(cp);
            if (cls == BEHAVE_CP_NEWLINE) {
                tok->repeat++;
            } else if (cls != BEHAVE_CP_SPACE) {
                break;
            }
            tz->p += n;
        }

        return tok->type;
    }

    if (cp < 0x80 && cls != BEHAVE_CP_DIGIT && behave_tok_emoticon(tz, tok))
    {
        return tok->type;
    }

    if (cls == BEHAVE_CP_LETTER || cls == BEHAVE_CP_DIGIT) {
        if (behave_tok_url(tz->p, (size_t) (tz->end - tz->p))) {
            behave_tok_skip_nonspace(tz);
            tok->type = BEHAVE_TOK_SYMBOL;
            tok->flags |= BEHAVE_TOK_URL;
            return tok->type;
        }

        behave_tok_word(tz, tok, tz->p == ascii_tried);
        return tok->type;
    }

    if (cls == BEHAVE_CP_EMOJI) {
        tok->type = BEHAVE_TOK_EMOJI;
        tok->cp = cp;
        tok->repeat = 1;
        tok->len = (unsigned) behave_utf8_encode(cp, tok->text);
        tok->text[tok->len] = '\0';
        tz->p += n;
        return tok->type;
    }

    if (cls == BEHAVE_CP_PUNCT || cls == BEHAVE_CP_APOS) {
        behave_tok_punct(tz, tok, cls == BEHAVE_CP_APOS ? '\'' : cp, n);
        return tok->type;
    }

    /* symbols: "@name" is a mention, "&amp;" an escaped entity */
    tok->type = BEHAVE_TOK_SYMBOL;
    tok->cp = cp;
    tz->p += n;

    if (cp == '@' && tz->p < tz->end && *tz->p != ' ') {
        behave_tok_skip_nonspace(tz);
        tok->flags |= BEHAVE_TOK_URL;

    } else if (cp == '&') {
        n = 0;
        while (tz->p + n < tz->end && n < 6
               && ((tz->p[n] | 0x20) >= 'a' && (tz->p[n] | 0x20) <= 'z'))
        {
            n++;
        }
        if (n > 0 && tz->p + n < tz->end && tz->p[n] == ';') {
            tz->p += n + 1;
        }
    }

    tok->len = (unsigned) behave_utf8_encode(cp, tok->text);
    tok->text[tok->len] = '\0';

    return tok->type;
}
