/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Unit tests of the streaming tokenizer (src/core/text/behave_tokenize.c).
 */

#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "text/behave_lexicon.h"
#include "text/behave_tokenize.h"


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


/* one word in, its folded text out */
static void
word_is(const char *in, const char *want, const char *name)
{
    tokenize(in, strlen(in));
    ok(ntok == 1 && toks[0].type == BEHAVE_TOK_WORD, "%s: one word", name);
    is_str(toks[0].text, want, "%s", name);
    is_int((int) toks[0].len, (int) strlen(want), "%s: length", name);
    ok(toks[0].hash == behave_lex_hash(want, strlen(want)),
       "%s: hash of the folded text", name);
}


/* Unicode case mapping (utf8proc) and NFC, by script */
static void
test_unicode_fold(void)
{
    /* Polish: the Latin Extended-A letters whose upper case is odd */
    word_is("\xc5\x81\xc3\xb3" "d\xc5\xba", "\xc5\x82\xc3\xb3" "d\xc5\xba",
            "Polish \xc5\x81\xc3\xb3" "d\xc5\xba -> "
            "\xc5\x82\xc3\xb3" "d\xc5\xba");
    word_is("\xc5\x82\xc3\xb3" "d\xc5\xba", "\xc5\x82\xc3\xb3" "d\xc5\xba",
            "Polish \xc5\x82\xc3\xb3" "d\xc5\xba unchanged");
    word_is("\xc5\xbb\xc3\x93\xc5\x81W", "\xc5\xbc\xc3\xb3\xc5\x82w",
            "Polish \xc5\xbb\xc3\x93\xc5\x81W lowered");
    ok(toks[0].flags & BEHAVE_TOK_CAPS, "Polish: ALL CAPS noted");
    word_is("Za\xc5\xbc\xc3\xb3\xc5\x82\xc4\x87",
            "za\xc5\xbc\xc3\xb3\xc5\x82\xc4\x87", "Polish Za...");

    /* Greek: simple lower case, a final sigma kept as written */
    word_is("\xce\x9a\xce\xb1\xce\xbb\xce\xb7\xce\xbc\xce\xad\xcf\x81\xce\xb1",
            "\xce\xba\xce\xb1\xce\xbb\xce\xb7\xce\xbc\xce\xad\xcf\x81\xce\xb1",
            "Greek Kalimera");
    word_is("\xce\x9a\xce\x91\xce\x9b\xce\x97\xce\x9c\xce\x95\xce\xa1\xce\x91",
            "\xce\xba\xce\xb1\xce\xbb\xce\xb7\xce\xbc\xce\xb5\xcf\x81\xce\xb1",
            "Greek capitals lowered");
    ok(toks[0].flags & BEHAVE_TOK_CAPS, "Greek: ALL CAPS noted");
    word_is("\xce\xbb\xcf\x8c\xce\xb3\xce\xbf\xcf\x82",
            "\xce\xbb\xcf\x8c\xce\xb3\xce\xbf\xcf\x82",
            "Greek final sigma kept");

    /* Cyrillic */
    word_is("\xd0\x9f\xd0\xbe\xd0\xbc\xd0\xbe\xd0\xb3\xd0\xb8\xd1\x82\xd0\xb5",
            "\xd0\xbf\xd0\xbe\xd0\xbc\xd0\xbe\xd0\xb3\xd0\xb8\xd1\x82\xd0\xb5",
            "Cyrillic Pomogite");
    ok(toks[0].flags & BEHAVE_TOK_INITCAP, "Cyrillic: initial capital noted");
    word_is("\xd0\x9f\xd0\x9e\xd0\x9c\xd0\x9e\xd0\xa9\xd0\xac",
            "\xd0\xbf\xd0\xbe\xd0\xbc\xd0\xbe\xd1\x89\xd1\x8c",
            "Cyrillic POMOSHCH");
    ok(toks[0].flags & BEHAVE_TOK_CAPS, "Cyrillic: ALL CAPS noted");

    /* Turkish: one mapping for every locale (documented) */
    word_is("\xc4\xb0stanbul", "istanbul", "Turkish dotted \xc4\xb0 -> i");
    word_is("\xc4\xb1\xc5\x9f\xc4\xb1k", "\xc4\xb1\xc5\x9f\xc4\xb1k",
            "Turkish dotless \xc4\xb1 stays \xc4\xb1");
    word_is("I\xc5\x9eIK", "i\xc5\x9fik", "Turkish I folds to i, not \xc4\xb1");

    /* full-width Latin letters and digits read as ASCII */
    word_is("\xef\xbc\xa8\xef\xbc\xa5\xef\xbc\xac\xef\xbc\xb0", "help",
            "full-width HELP -> help");
    word_is("\xef\xbd\x88\xef\xbd\x85\xef\xbd\x8c\xef\xbd\x90", "help",
            "full-width lower -> help");
    tokenize("\xef\xbc\x91\xef\xbc\x92\xef\xbc\x93", 9);
    ok(ntok == 1 && toks[0].type == BEHAVE_TOK_NUMBER
       && strcmp(toks[0].text, "123") == 0,
       "full-width digits: the number 123");

    /* NFC: a decomposed accent is the precomposed letter */
    word_is("cafe\xcc\x81", "caf\xc3\xa9", "NFC: e + U+0301 -> \xc3\xa9");
    word_is("CAFE\xcc\x81", "caf\xc3\xa9", "NFC after lowering: E + U+0301");
    word_is("\xc3\xbc" "ber", "\xc3\xbc" "ber", "precomposed u-umlaut kept");
    word_is("u\xcc\x88" "ber", "\xc3\xbc" "ber", "u + U+0308 -> \xc3\xbc");
    word_is("An" "\xcc\x83o", "a\xc3\xb1o", "NFC: n + U+0303 -> n-tilde");

    /* what did not change: Latin-1, German sharp s */
    word_is("\xc3\x9c\xc3\x84\xc3\x96", "\xc3\xbc\xc3\xa4\xc3\xb6",
            "German umlauts");
    word_is("Stra\xc3\x9f" "e", "stra\xc3\x9f" "e",
            "sharp s kept (no full folding)");
    word_is("\xc5\x92UVRE", "\xc5\x93uvre", "French \xc5\x92");
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
    test_unicode_fold();

    return tap_done();
}
