/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Unit tests of the streaming tokenizer (src/core/text/behave_tokenize.c).
 */

#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "behave_lexicon.h"
#include "behave_tokenize.h"


#define MAXTOK  64


static int  ntok;
static behave_token_t  toks[MAXTOK];


static int
tokenize(const char *s, size_t len)
{
    behave_tokenizer_t  tz;
    behave_token_t      t;

    ntok = 0;
    behave_tok_init(&tz, s, len);

    while (behave_tok_next(&tz, &t) != BEHAVE_TOK_END) {
        if (ntok < MAXTOK) {
            toks[ntok] = t;
        }
        ntok++;
    }

    return ntok;
}


static void
test_words(void)
{
    tokenize("Hello, World", 12);
    is_int(ntok, 3, "words and comma: 3 tokens");
    is_str(toks[0].text, "hello", "lowercased");
    ok(toks[0].flags & BEHAVE_TOK_INITCAP, "initial capital noted");
    is_int(toks[1].type, BEHAVE_TOK_PUNCT, "comma is punctuation");
    is_str(toks[2].text, "world", "second word");
}


static void
test_caps(void)
{
    tokenize("this is GREAT but I am OK", 25);
    ok(toks[2].flags & BEHAVE_TOK_CAPS, "GREAT is ALL CAPS");
    ok(!(toks[4].flags & BEHAVE_TOK_CAPS), "single letter I is not CAPS");
    ok(toks[6].flags & BEHAVE_TOK_CAPS, "OK is ALL CAPS");
    ok(!(toks[0].flags & BEHAVE_TOK_CAPS), "lowercase word is not CAPS");
}


static void
test_elongation(void)
{
    tokenize("sooo goooood", 12);
    is_str(toks[0].text, "soo", "elongated run cut to two");
    is_str(toks[0].alt, "so", "alt form squeezed to one");
    ok(toks[0].flags & BEHAVE_TOK_ELONG, "elongation flagged");
    is_str(toks[1].text, "good", "gooood -> good");
    tokenize("good", 4);
    ok(!(toks[0].flags & BEHAVE_TOK_ELONG), "double letter is no elongation");
}


static void
test_apostrophes(void)
{
    tokenize("don\xe2\x80\x99t won't 'quoted'", 21);
    is_str(toks[0].text, "don't", "curly apostrophe folded");
    ok(toks[0].flags & BEHAVE_TOK_APOS, "contraction flagged");
    is_str(toks[1].text, "won't", "straight apostrophe kept");
    is_int(toks[2].type, BEHAVE_TOK_PUNCT, "leading quote is punctuation");
    is_str(toks[3].text, "quoted", "quoted word");
}


static void
test_punct_runs(void)
{
    tokenize("what?!? no!!! ok...", 19);
    is_int(toks[1].type, BEHAVE_TOK_PUNCT, "?!? is one token");
    is_int(toks[1].cp, '?', "a run with ? asks");
    is_int(toks[1].repeat, 3, "run length 3");
    is_int(toks[3].cp, '!', "!!! exclaims");
    is_int(toks[3].repeat, 3, "three exclamation marks");
    is_int(toks[5].cp, '.', "ellipsis");
    tokenize("\xc2\xbf" "Qu\xc3\xa9?", 7);
    is_int(toks[0].cp, '?', "inverted question mark folded to ?");
}


static void
test_emoji(void)
{
    tokenize("love it \xf0\x9f\x98\x8d\xf0\x9f\x8f\xbd!", 17);
    is_int(ntok, 4, "skin tone modifier skipped");
    is_int(toks[2].type, BEHAVE_TOK_EMOJI, "emoji token");
    is_int(toks[2].cp, 0x1f60d, "heart eyes code point");
    tokenize("\xe2\x9d\xa4\xef\xb8\x8f", 6);
    is_int(ntok, 1, "variation selector skipped");
    is_str(toks[0].text, "\xe2\x9d\xa4", "heart without selector");
}


static void
test_emoticons(void)
{
    tokenize("nice :) bad :( lol :D <3 XD", 27);
    is_int(toks[1].type, BEHAVE_TOK_EMOTICON, ":) is an emoticon");
    is_str(toks[1].text, ":)", ":) text");
    is_str(toks[3].text, ":(", ":( text");
    is_str(toks[5].text, ":d", ":D lowercased");
    is_str(toks[6].text, "<3", "heart");
    is_str(toks[7].text, "xd", "XD");
    tokenize("see (below): max(1) 8)", 22);
    ok(toks[2].type != BEHAVE_TOK_EMOTICON, "): after a word is no emoticon");
}


static void
test_numbers_urls(void)
{
    tokenize("order 4471-22 at https://x.io/a?b=1 @bob 3rd", 44);
    is_int(toks[1].type, BEHAVE_TOK_NUMBER, "number");
    is_int(toks[2].type, BEHAVE_TOK_PUNCT, "hyphen splits the reference");
    is_int(toks[5].type, BEHAVE_TOK_SYMBOL, "URL is one symbol");
    ok(toks[5].flags & BEHAVE_TOK_URL, "URL flagged");
    ok(toks[6].flags & BEHAVE_TOK_URL, "mention flagged");
    is_int(toks[7].type, BEHAVE_TOK_WORD, "3rd is a word");
}


static void
test_non_ascii(void)
{
    tokenize("\xc3\x89TAIT tr\xc3\xa8s \xc3\xa4rgerlich", 22);
    is_str(toks[0].text, "\xc3\xa9tait", "accented capital lowercased");
    ok(toks[0].flags & BEHAVE_TOK_CAPS, "accented word in CAPS");
    is_str(toks[1].text, "tr\xc3\xa8s", "accented word kept");
    ok(toks[2].flags & BEHAVE_TOK_NONASCII, "non-ASCII flagged");
}


static void
test_newlines(void)
{
    tokenize("Dear Sir,\n\nThanks", 17);
    is_int(toks[3].type, BEHAVE_TOK_NEWLINE, "newline run");
    is_int(toks[3].repeat, 2, "two newlines");
}


static void
test_fuzz(void)
{
    int            i, j;
    unsigned char  buf[256];
    unsigned       seed;

    seed = 12345;
    for (i = 0; i < 2000; i++) {
        for (j = 0; j < 256; j++) {
            seed = seed * 1103515245u + 12345u;
            buf[j] = (unsigned char) (seed >> 16);
        }
        tokenize((const char *) buf, (size_t) (seed % 256));
    }
    ok(1, "random bytes do not crash the tokenizer");

    tokenize("\xff\xfe\xc3", 3);
    is_int(ntok, 0, "invalid UTF-8 skipped");
    tokenize(NULL, 0);
    is_int(ntok, 0, "NULL text is empty");
}


static void
test_long_word(void)
{
    size_t  i;
    char    buf[200];

    for (i = 0; i < sizeof(buf); i++) {
        buf[i] = (char) ('a' + i % 3);
    }

    tokenize(buf, sizeof(buf));
    is_int(ntok, 1, "long word is one token");
    ok(toks[0].flags & BEHAVE_TOK_CUT, "long word flagged as cut");
    ok(toks[0].len < BEHAVE_TOK_MAX, "text stays in the buffer");
}


/* where the plain-ASCII word path hands over to the general one */
static void
test_ascii_path_edges(void)
{
    char  w[64];

    for (size_t i = 0; i < sizeof(w); i++) {
        w[i] = "ab"[i % 2];     /* no run of three */
    }
    tokenize(w, 47);
    is_int(ntok, 1, "47 letters: one word");
    ok(toks[0].len == 47 && !(toks[0].flags & BEHAVE_TOK_CUT),
       "47 letters fit, not cut");

    tokenize("abababababababababababababababababababababababab", 48);
    ok(toks[0].flags & BEHAVE_TOK_CUT, "48 letters are cut");

    tokenize("Wow2 it's caf\xc3\xa9 NOOO", 20);
    is_str(toks[0].text, "wow2", "a digit after letters: one word");
    ok(toks[0].flags & BEHAVE_TOK_DIGITS, "digits flagged");
    is_str(toks[1].text, "it's", "an apostrophe between letters stays");
    is_str(toks[2].text, "caf\xc3\xa9", "a non-ASCII letter stays");
    ok((toks[3].flags & BEHAVE_TOK_ELONG) && (toks[3].flags & BEHAVE_TOK_CAPS),
       "NOOO: elongated, in capitals");
    is_str(toks[3].text, "noo", "NOOO kept as noo");

    tokenize("AbC dE", 6);
    ok(toks[0].flags & BEHAVE_TOK_INITCAP, "AbC: initial capital");
    ok(!(toks[0].flags & BEHAVE_TOK_CAPS), "AbC: not all capitals");
    ok(!(toks[1].flags & BEHAVE_TOK_INITCAP), "dE: no initial capital");
}


/*
 * The annotator looks words up with the hash the tokenizer computed: it
 * must be the lexicon's hash of the text, whichever path read the word.
 */
static void
test_word_hash(void)
{
    int          i, bad, words;
    size_t       k;
    const char  *texts[] = {
        "Hello  World, sooo GOOD!!! don't caf\xc3\xa9 wow2 AbC x",
        "xD D: x) max( http://a.b/c www.x.y hi:) it's 911 Zz",
        "abababababababababababababababababababababababababab ok",
        "\tTabs\nand\r\nnewlines\xc2\xa0nbsp ZZZZ fine",
    };

    bad = 0;
    words = 0;

    for (k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
        tokenize(texts[k], strlen(texts[k]));

        for (i = 0; i < ntok && i < MAXTOK; i++) {
            if (toks[i].type != BEHAVE_TOK_WORD) {
                continue;
            }
            words++;
            if (toks[i].hash != behave_lex_hash(toks[i].text, toks[i].len)) {
                bad++;
            }
        }
    }

    ok(words >= 20, "hash check saw the words (%d)", words);
    is_int(bad, 0, "every word's hash is the lexicon hash of its text");

    /* the plain-word path leaves these to the general one */
    tokenize("so xD", 5);
    is_int(toks[1].type, BEHAVE_TOK_EMOTICON, "xD after a word: emoticon");
    tokenize("ok D:", 5);
    is_int(toks[1].type, BEHAVE_TOK_EMOTICON, "D: after a word: emoticon");
    tokenize("see http://x.io now", 19);
    is_int(toks[1].type, BEHAVE_TOK_SYMBOL, "a URL is a symbol");
    is_str(toks[2].text, "now", "the word after a URL");
    tokenize("  two   spaces", 14);
    ok(toks[0].flags & BEHAVE_TOK_SPACE, "leading spaces flagged");
    is_int((int) toks[1].off, 8, "offset after a run of spaces");
    ok(toks[1].cp == 0 && toks[1].repeat == 0 && toks[1].alt_len == 0,
       "a plain word has no code point, run or alternative");
}


int
main(void)
{
    test_words();
    test_caps();
    test_elongation();
    test_apostrophes();
    test_punct_runs();
    test_emoji();
    test_emoticons();
    test_numbers_urls();
    test_non_ascii();
    test_newlines();
    test_fuzz();
    test_long_word();
    test_ascii_path_edges();
    test_word_hash();

    return tap_done();
}
