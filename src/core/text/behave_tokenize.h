/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A streaming tokenizer for short informal texts: words (lowercased with
 * Unicode's simple case mapping, in NFC, full-width Latin read as ASCII;
 * ALL CAPS and elongation noted), numbers, emoji, emoticons, punctuation
 * runs (docs/API.md, "How words are normalised").  No allocation; the caller owns the state and the token.  Any byte
 * sequence is accepted: invalid UTF-8 is skipped byte by byte.
 */

#ifndef BEHAVE_TOKENIZE_H
#define BEHAVE_TOKENIZE_H

#include <stddef.h>
#include <stdint.h>


#define BEHAVE_TOK_MAX  48      /* longer words are cut (and flagged) */


typedef enum {
    BEHAVE_TOK_END = 0,
    BEHAVE_TOK_WORD,
    BEHAVE_TOK_NUMBER,
    BEHAVE_TOK_EMOJI,
    BEHAVE_TOK_EMOTICON,
    BEHAVE_TOK_PUNCT,           /* cp is the character, repeat the run */
    BEHAVE_TOK_SYMBOL,          /* currency, #, @mention, URL, other */
    BEHAVE_TOK_NEWLINE          /* repeat: newlines in the run */
} behave_tok_type_e;


#define BEHAVE_TOK_CAPS      0x01   /* ALL CAPS word of 2+ letters */
#define BEHAVE_TOK_ELONG     0x02   /* a letter repeated 3+ times */
#define BEHAVE_TOK_CUT       0x04   /* longer than BEHAVE_TOK_MAX - 1 */
#define BEHAVE_TOK_INITCAP   0x08   /* starts with an upper-case letter */
#define BEHAVE_TOK_NONASCII  0x10   /* has non-ASCII letters */
#define BEHAVE_TOK_APOS      0x20   /* has an apostrophe ("don't") */
#define BEHAVE_TOK_SPACE     0x40   /* whitespace before the token */
#define BEHAVE_TOK_URL       0x80   /* symbol: a URL or @mention */
#define BEHAVE_TOK_DIGITS    0x100  /* word: its text has digits */


typedef struct {
    behave_tok_type_e      type;
    unsigned               flags;       /* BEHAVE_TOK_* */
    uint32_t               cp;          /* punct/emoji/symbol code point */
    unsigned               repeat;      /* run length of punct/newline */
    size_t                 off;         /* byte offset in the text */
    unsigned               len;         /* of text */
    unsigned               alt_len;     /* of alt, 0 unless ELONG */
    uint32_t               hash;        /* word: behave_lex_hash of text */
    char                   text[BEHAVE_TOK_MAX];  /* normalised */
    char                   alt[BEHAVE_TOK_MAX];   /* runs cut to one */
} behave_token_t;


typedef struct {
    const unsigned char   *start;
    const unsigned char   *p;
    const unsigned char   *end;
} behave_tokenizer_t;


void behave_tok_init(behave_tokenizer_t *tz, const char *text, size_t len);

/* fills tok and returns its type; BEHAVE_TOK_END when the text is done */
behave_tok_type_e behave_tok_next(behave_tokenizer_t *tz,
    behave_token_t *tok);

/* decodes one UTF-8 sequence; returns its length, 0 if invalid */
size_t behave_utf8_decode(const unsigned char *p, const unsigned char *end,
    uint32_t *cp);


#endif /* BEHAVE_TOKENIZE_H */
