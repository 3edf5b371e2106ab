/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Unit tests of the external lexicon (behave_lexicon_ext.h): both file
 * formats, every error with its line number, and the merge as the
 * annotator sees it once the overlay is installed and after it is not.
 */

#include <stdlib.h>
#include "tap.h"
#include "text/behave_annotate.h"
#include "text/behave_lexicon.h"
#include "text/behave_lexicon_ext.h"


static behave_annotation_t  a;


static double
val(const char *s)
{
    behave_annotate(s, strlen(s), &a);
    return a.scores.valence;
}


static behave_lex_overlay_t *
parse(const char *text, char *err, size_t errlen)
{
    behave_lex_overlay_t  *ov;

    if (behave_lex_overlay_parse(text, strlen(text), &ov, err, errlen) != 0)
    {
        return NULL;
    }

    return ov;
}


static const behave_lex_entry_t *
find(const char *s)
{
    return behave_lex_find(s, strlen(s));
}


static void
test_afinn(void)
{
    char                       err[128];
    behave_lex_overlay_t      *ov;
    const behave_lex_entry_t  *e;

    ov = parse("\xef\xbb\xbf# AFINN-style sample\r\n"
               "\r\n"
               "abandon\t-2\r\n"
               "Superb\t5\n"
               "  # indented comment\n"
               "does not work\t-3\n"
               "meh\t+1\n"
               "meh\t2.5\n"
               "world-class\t4\n"
               "(-:\t2",
               err, sizeof(err));

    ok(ov != NULL, "afinn: parses (%s)", ov ? "ok" : err);
    if (ov == NULL) {
        return;
    }

    is_int(behave_lex_overlay_count(ov), 5,
           "afinn: 5 distinct terms (meh listed twice)");
    is_int(behave_lex_overlay_skipped(ov), 1,
           "afinn: the emoticon the tokenizer never produces is skipped");

    e = behave_lex_overlay_find(ov, "superb", 6);
    ok(e != NULL, "afinn: term lowercased");
    is_near(e ? e->valence : 0, 4.0, 1e-6, "afinn: 5 scaled to 4");

    e = behave_lex_overlay_find(ov, "abandon", 7);
    is_near(e ? e->valence : 0, -1.6, 1e-6, "afinn: -2 scaled to -1.6");

    e = behave_lex_overlay_find(ov, "meh", 3);
    is_near(e ? e->valence : 0, 2.0, 1e-6, "afinn: the later line wins");

    e = behave_lex_overlay_find(ov, "does not work", 13);
    ok(e != NULL && e->ntok == 3 && !(e->flags & BEHAVE_LEX_PREFIX),
       "afinn: a phrase is a 3-word entry");

    e = behave_lex_overlay_find(ov, "does not", 8);
    ok(e != NULL && (e->flags & BEHAVE_LEX_MORE),
       "afinn: its prefix is findable and marked MORE");

    e = behave_lex_overlay_find(ov, "world class", 11);
    is_near(e ? e->valence : 0, 3.2, 1e-6,
            "afinn: a hyphenated term is the phrase the tokenizer reads");

    e = behave_lex_overlay_find(ov, "table", 5);
    ok(e == behave_lex_find_builtin("table", 5),
       "afinn: other terms fall back to the built-in lexicon");

    behave_lex_overlay_free(ov);
}


static void
test_vader(void)
{
    char                       err[128];
    behave_lex_overlay_t      *ov;
    const behave_lex_entry_t  *e;

    ov = parse("$:\t-1.5\t0.80623\t[-1, -1, -1, -1, -3, -1, -3, -1, -2, -1]\n"
               ":)\t2.0\t1.18322\t[2, 2, 1, 1, 1, 1, 4, 3, 4, 1]\n"
               ":-(\t-1.5\t0.5\t[-2, -1, -1, -2, -2, -1, -2, -1, -1, -2]\n"
               "8-d\t1.7\t1.1\t[2, 1, 2, 1, 3, 1, 2, 1, 2, 2]\n"
               "adorable\t2.2\t0.6\t[3, 2, 2, 3, 2, 2, 1, 3, 2, 2]\n"
               "fed up\t-1.8\t0.9\t[-2, -2, -1, -1, -3, -2, -2, -2, -1, -2]\n"
               "zorbly\t-3.25\t0.4\n",
               err, sizeof(err));

    ok(ov != NULL, "vader: parses (%s)", ov ? "ok" : err);
    if (ov == NULL) {
        return;
    }

    is_int(behave_lex_overlay_count(ov), 5, "vader: 5 terms loaded");
    is_int(behave_lex_overlay_skipped(ov), 2,
           "vader: \"$:\" and \"8-d\" skipped (not tokens)");

    e = behave_lex_overlay_find(ov, ":)", 2);
    is_near(e ? e->valence : 0, 2.0, 1e-6, "vader: mean taken as is");
    is_near(e ? e->formality : 0, -0.1, 1e-6,
            "vader: the built-in emoticon keeps its formality weight");

    e = behave_lex_overlay_find(ov, ":-(", 3);
    ok(e != NULL && e->valence < -1.4, "vader: \":-(\" loaded");

    e = behave_lex_overlay_find(ov, "zorbly", 6);
    is_near(e ? e->valence : 0, -3.25, 1e-6,
            "vader: 3 fields (no ratings) accepted");

    e = behave_lex_overlay_find(ov, "fed up", 6);
    is_near(e ? e->valence : 0, -1.8, 1e-6,
            "vader: built-in phrase overridden");

    behave_lex_overlay_free(ov);

    ov = parse("# nothing but comments\n\n", err, sizeof(err));
    ok(ov != NULL && behave_lex_overlay_count(ov) == 0,
       "an empty file is an empty overlay");
    behave_lex_overlay_free(ov);
}


static void
test_errors(void)
{
    size_t                 i;
    char                   err[160], *big;
    behave_lex_overlay_t  *ov;

    static const struct {
        const char  *text;
        const char  *want;
    } cases[] = {
        { "good\t2\nbad\tawful\n",
          "line 2: score \"awful\" is not a number" },
        { "# c\n\ngood\t2\nbad\t-6\n",
          "line 4: score -6 outside -5..5" },
        { "good\t2\t0.5\t[2]\nbad\t-4.5\t0.5\t[-4]\n",
          "line 2: mean -4.5 outside -4..4" },
        { "good\t2\n\t3\n",
          "line 2: empty token" },
        { "good\t2\n   \t3\n",
          "line 2: empty token" },
        { "good\t2\nnice\t1\t0.3\t[1]\n",
          "line 2: 4 tab-separated fields: expected 2 (AFINN format, "
          "detected on line 1)" },
        { "\n# header\ngood\t2\t0.5\t[2]\nbad\t-2\n",
          "line 4: 2 tab-separated fields: expected 4 (VADER format, "
          "detected on line 3)" },
        { "just a word\n",
          "line 1: 1 tab-separated fields: expected 2 (AFINN: token, "
          "score) or 4 (VADER: token, mean, sd, ratings)" },
        { "good\t2\t-0.5\t[2]\n",
          "line 1: sd \"-0.5\" is not a number >= 0" },
        { "good\t\n",
          "line 1: score \"\" is not a number" },
        { "good\t1e3\n",
          "line 1: score \"1e3\" is not a number" },
        { "good\tinf\n",
          "line 1: score \"inf\" is not a number" },
        { "good\t2\nbad\t-\n",
          "line 2: score \"-\" is not a number" },
        { "good\t0x10\n",
          "line 1: score \"0x10\" is not a number" },
        { "good\t3\x01\n",
          "line 1: score \"3?\" is not a number" },
    };

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ov = (behave_lex_overlay_t *) 1;
        ok(behave_lex_overlay_parse(cases[i].text, strlen(cases[i].text),
                                    &ov, err, sizeof(err)) == -1
           && ov == NULL, "error case %zu fails", i);
        is_str(err, cases[i].want, "error case %zu: message", i);
    }

    /* a line of 1025 bytes on line 3; 1024 is still fine */
    big = malloc(4096);
    if (big == NULL) {
        return;
    }

    for (i = 0; i < 4096; i++) {
        big[i] = (char) ('a' + i % 26);     /* no letter runs */
    }

    memcpy(big, "x\t1\n", 4);
    memcpy(big + 4 + 1022, "\t1\n", 3);            /* line 2: 1024 bytes */
    memcpy(big + 4 + 1025 + 1023, "\t1\n", 3);     /* line 3: 1025 bytes */

    ov = NULL;
    ok(behave_lex_overlay_parse(big, 4 + 1025 + 1023 + 3, &ov, err,
                                sizeof(err)) == -1,
       "a line over 1024 bytes fails");
    is_str(err, "line 3: longer than 1024 bytes", "long line: message");

    ok(behave_lex_overlay_parse(big, 4 + 1025, &ov, err, sizeof(err)) == 0,
       "a line of 1024 bytes is read (%s)", err);
    is_int(behave_lex_overlay_skipped(ov), 1,
           "its 1022-byte token is too long for a word: skipped");
    behave_lex_overlay_free(ov);

    /* a long bad value is cut in the message, a tiny buffer still ends */
    memset(big, 'a', 4096);
    memcpy(big, "x\t", 2);
    ok(behave_lex_overlay_parse(big, 200, &ov, err, sizeof(err)) == -1,
       "long bad score fails");
    is_str(err, "line 1: score \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...\" "
           "is not a number", "long bad score: cut in the message");

    ok(behave_lex_overlay_parse(big, 200, &ov, err, 5) == -1
       && strcmp(err, "line") == 0, "tiny error buffer: cut, terminated");
    ok(behave_lex_overlay_parse(big, 200, &ov, NULL, 0) == -1,
       "no error buffer: still fails");

    free(big);
}


static void
test_install(void)
{
    char                       err[128];
    double                     meh, invoice, zorbly, blorped, smile, fire;
    double                     idiom, v;
    behave_lex_overlay_t      *ov, *ov2;
    const behave_lex_entry_t  *e;

    meh = val("meh");
    invoice = val("Here is the invoice.");
    zorbly = val("that was zorbly");
    blorped = val("it blorped again");
    smile = val("ok :)");
    fire = val("the server is on fire");
    idiom = val("I am on fire today");

    ok(meh < 0, "built-in: \"meh\" is mildly negative (%.3f)", meh);
    is_near(invoice, 0, 1e-9, "built-in: the invoice sentence is neutral");
    is_near(zorbly, 0, 1e-9, "built-in: \"zorbly\" unknown");

    ov = parse("meh\t3\t0.5\t[3]\n"
               "invoice\t-4\t0\t[-4]\n"
               "zorbly\t3.5\t0.4\t[3]\n"
               "blorp\t-3\t0.4\t[-3]\n"
               ":)\t-2.5\t0.4\t[-2]\n"
               "on fire\t-3\t0.4\t[-3]\n"
               "rubber duck\t2.5\t0.4\t[2]\n"
               "printer jam\t-3\t0.4\t[-3]\n",
               err, sizeof(err));

    ok(ov != NULL, "install: parses (%s)", ov ? "ok" : err);
    if (ov == NULL) {
        return;
    }

    ok(find("meh")->valence < 0, "not installed: the built-in answers");

    behave_lex_overlay_install(ov);

    v = val("meh");
    ok(v > 0.3, "\"meh\" set to +3 reads positive (%.3f)", v);
    e = find("meh");
    ok(e != NULL && (e->flags & BEHAVE_LEX_SLANG)
       && fabsf(e->formality + 0.15f) < 1e-6,
       "\"meh\" keeps its slang flag and formality weight");

    v = val("Here is the invoice.");
    ok(v < -0.5, "a neutral word set to -4 reads negative (%.3f)", v);
    e = find("invoice");
    ok(e != NULL && (e->flags & BEHAVE_LEX_SPECIFIC),
       "\"invoice\" keeps its specific-detail cue");

    v = val("that was zorbly");
    ok(v > 0.5, "an unknown word added with +3.5 reads positive (%.3f)", v);

    v = val("it blorped again");
    ok(v < -0.3, "an inflection finds an overlay word (%.3f, was %.3f)", v,
       blorped);

    v = val("ok :)");
    ok(v < 0, "an emoticon overlaid (%.3f, was %.3f)", v, smile);

    v = val("the server is on fire");
    ok(v < fire - 0.3,
       "a built-in prefix-only phrase becomes an entry (%.3f, was %.3f)", v,
       fire);
    is_near(val("I am on fire today"), idiom, 1e-9,
            "the longer built-in phrase behind it still matches");

    v = val("my rubber duck");
    ok(v > 0.3, "a new phrase matches (%.3f)", v);
    is_near(val("rubber"), 0, 1e-9,
            "its first word alone is only a prefix");

    v = val("another printer jam");
    ok(v < -0.3, "a new phrase behind a built-in word matches (%.3f)", v);
    e = find("printer");
    ok(e != NULL && !(e->flags & BEHAVE_LEX_PREFIX)
       && (e->flags & BEHAVE_LEX_EN) && (e->flags & BEHAVE_LEX_MORE)
       && e->valence == 0,
       "the built-in word stays a word and now leads to the phrase");

    /* a reload: the next overlay merges over the built-in lexicon only */
    ov2 = parse("zorbly\t-2\n", err, sizeof(err));
    ok(ov2 != NULL && behave_lex_overlay_find(ov2, "meh", 3)->valence < 0,
       "parsing while another overlay is installed merges over the "
       "built-in one");
    behave_lex_overlay_install(ov2);
    ok(val("that was zorbly") < 0, "the new overlay replaces the old");
    ok(val("meh") < 0, "and the old one's terms are gone");

    behave_lex_overlay_install(NULL);

    is_near(val("meh"), meh, 1e-12, "uninstalled: \"meh\" as before");
    is_near(val("Here is the invoice."), invoice, 1e-12,
            "uninstalled: invoice sentence as before");
    is_near(val("that was zorbly"), zorbly, 1e-12,
            "uninstalled: \"zorbly\" unknown again");
    is_near(val("it blorped again"), blorped, 1e-12,
            "uninstalled: \"blorped\" unknown again");
    is_near(val("ok :)"), smile, 1e-12, "uninstalled: \":)\"");

    /* freeing the installed overlay uninstalls it */
    behave_lex_overlay_install(ov);
    behave_lex_overlay_free(ov);
    is_near(val("meh"), meh, 1e-12, "freed while installed: uninstalled");

    behave_lex_overlay_free(ov2);
    behave_lex_overlay_free(NULL);
}


static void
test_many(void)
{
    size_t                 i, n, len;
    char                  *buf, err[128];
    behave_lex_overlay_t  *ov;

    /* enough terms to grow the table several times */
    n = 5000;
    buf = malloc(n * 32);
    if (buf == NULL) {
        return;
    }

    len = 0;
    for (i = 0; i < n; i++) {
        len += (size_t) sprintf(buf + len, "qw%zu zx%zu\t%d\n", i, i % 7,
                                (int) (i % 11) - 5);
    }

    ok(behave_lex_overlay_parse(buf, len, &ov, err, sizeof(err)) == 0,
       "5000 phrases parse");
    is_int(behave_lex_overlay_count(ov), n, "5000 phrases counted");
    ok(behave_lex_overlay_find(ov, "qw4321 zx2", 10) != NULL
       && behave_lex_overlay_find(ov, "qw4321", 6) != NULL
       && (behave_lex_overlay_find(ov, "qw4321", 6)->flags
           & BEHAVE_LEX_PREFIX),
       "a late phrase and its prefix are found");

    behave_lex_overlay_free(ov);
    free(buf);
}


int
main(void)
{
    test_afinn();
    test_vader();
    test_errors();
    test_install();
    test_many();

    return tap_done();
}
