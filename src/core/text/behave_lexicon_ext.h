/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * An external lexicon laid over the compiled-in one (the directive
 * "behave_lexicon FILE;"), in one of two public formats, detected per file
 * from the column count of its first data line:
 *
 *   VADER  token TAB mean TAB sd [TAB ratings]   mean -4..4, taken as is
 *   AFINN  token TAB score                       score -5..5, times 0.8
 *
 * so that both land on the built-in valence scale (-4..4).  Blank lines
 * and lines whose first non-blank character is '#' are skipped; a UTF-8
 * BOM and CRLF line ends are accepted.  Any other bad line fails the whole
 * file with "line N: reason": a line over 1024 bytes, a wrong field count,
 * an empty token, a score that is not a plain decimal number or is beyond
 * the format's range (and, for VADER, an sd that is not a number; the
 * ratings list is not read).
 *
 * Merge: an overlay term replaces the valence of the built-in entry of the
 * same term (word, phrase, emoji or emoticon) and keeps everything else of
 * it (flags, cues, crisis kind, dimension weights); a term the built-in
 * lexicon does not know becomes a plain sentiment word with that valence.
 * Inflections reach the overlay as they reach the built-in lexicon
 * ("loved" finds an overlay "love").  When a term is listed twice, the
 * later line wins.
 *
 * Terms are normalised by the annotator's own tokenizer, so that a term is
 * stored exactly as the annotator will look it up: lowercased, the
 * typographic apostrophe made "'", letter runs cut to two ("sooo" is
 * "soo"), hyphens between words read as spaces ("world-class" is the
 * phrase "world class").  A term is kept when it reads as
 *
 *   - one to 6 words (numbers allowed after the first word), or
 *   - exactly one emoji, or one emoticon of the tokenizer's list
 *     (":)", ":-(", ":d", "<3", "xd", ";)", "^_^"... see behave_tokenize.c).
 *
 * Any other term can never be matched in a message and is skipped without
 * an error (counted by behave_lex_overlay_skipped()): emoticons the
 * tokenizer does not produce as one token ("(-:", "$:", "8-d"), terms
 * mixing words and punctuation ("a.m."), phrases of more than 6 words and
 * words of 48 bytes or more.  In VADER's file most emoticons are of the
 * skipped kind; the common ones (":)", ":(", ":d", ":p", "<3"...) load.
 *
 * Lookups stay cheap: the overlay is an open-addressing hash table (FNV-1a,
 * linear probing, at most half full) built at parse time, holding a merged
 * copy of every overlaid entry plus the phrase prefixes its new phrases
 * need.  behave_lex_find() asks it first when one is installed and falls
 * back to the built-in table with the same hash, computed once; with none
 * installed the cost is one pointer test.
 */

#ifndef BEHAVE_LEXICON_EXT_H
#define BEHAVE_LEXICON_EXT_H

#include <stddef.h>

#include "text/behave_lexicon.h"


#define BEHAVE_LEX_EXT_LINE_MAX  1024   /* bytes, line end excluded */


typedef struct behave_lex_overlay_s  behave_lex_overlay_t;


/*
 * Parses len bytes of text (no NUL needed).  Returns 0 and a new overlay
 * in *out, or -1 with "line N: reason" in err (always NUL-terminated when
 * errlen > 0) and *out NULL.  Out of memory is reported as an error too.
 */
int behave_lex_overlay_parse(const char *text, size_t len,
    behave_lex_overlay_t **out, char *err, size_t errlen);

/* frees ov (NULL is fine); uninstalls it first if it is installed */
void behave_lex_overlay_free(behave_lex_overlay_t *ov);

/*
 * The overlay consulted by every behave_annotate() from now on (NULL:
 * none).  Process-wide and not synchronised: the nginx glue sets it in
 * init_module, in the master before the workers fork, so that workers
 * only read it.  ov must outlive its installation.
 */
void behave_lex_overlay_install(const behave_lex_overlay_t *ov);

/* distinct terms loaded (skipped terms and phrase prefixes not counted) */
size_t behave_lex_overlay_count(const behave_lex_overlay_t *ov);

/* terms skipped because the tokenizer cannot produce them (see above) */
size_t behave_lex_overlay_skipped(const behave_lex_overlay_t *ov);


/*
 * The installed overlay (install sets behave_lex_source too, which
 * behave_lexicon.c follows), and a lookup in it that falls back to the
 * built-in lexicon.
 */
extern const behave_lex_overlay_t  *behave_lex_overlay_current;

const behave_lex_entry_t *behave_lex_overlay_find(
    const behave_lex_overlay_t *ov, const char *key, size_t len);
/* h = behave_lex_hash(key, len) */
const behave_lex_entry_t *behave_lex_overlay_find_hashed(
    const behave_lex_overlay_t *ov, const char *key, size_t len, uint32_t h);


#endif /* BEHAVE_LEXICON_EXT_H */
