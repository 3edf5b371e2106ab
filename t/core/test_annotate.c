/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Unit tests of the annotator, one group per rule (src/core/text/behave_annot_*
 * and the lexicon): each says what the rule must do on a small example.
 */

#include <stdlib.h>
#include "tap.h"
#include "text/behave_annotate.h"
#include "text/behave_lexicon.h"


static behave_annotation_t  a;


static const behave_annotation_t *
ann(const char *s)
{
    behave_annotate(s, strlen(s), &a);
    return &a;
}


static double
val(const char *s)
{
    return ann(s)->scores.valence;
}


static void
test_empty(void)
{
    behave_annotate("", 0, &a);
    is_int(a.valence, BEHAVE_VALENCE_NEUTRAL, "empty: neutral");
    is_int(a.urgency, BEHAVE_URGENCY_LOW, "empty: low urgency");
    is_int(a.cognitive_load, BEHAVE_LOAD_LOW, "empty: low load");
    is_int(a.cues, 0, "empty: no cues");
    behave_annotate(NULL, 0, &a);
    is_int(a.valence, BEHAVE_VALENCE_NEUTRAL, "NULL: neutral");
}


static void
test_lexicon(void)
{
    ok(val("I love this") > 0.5, "love is positive");
    ok(val("this is awful") < -0.5, "awful is negative");
    is_int(ann("the box is on the table")->valence, BEHAVE_VALENCE_NEUTRAL,
           "no sentiment word: neutral");
    ok(val("I loved it") > 0.5, "inflection: loved -> love");
    ok(val("they were so annoying") < -0.3, "inflection: annoying");
}


static void
test_negation(void)
{
    ok(val("this is good") > 0.3, "good is positive");
    ok(val("this is not good") < 0, "not good is negative");
    ok(val("this isn't good") < 0, "isn't good is negative");
    ok(val("this is never really good") < 0, "negation reaches 3 words");
    ok(val("no, this is good") > 0.3, "negation stops at a comma");
    ok(val("not good") > val("bad"), "not good is milder than bad");
}


static void
test_intensifiers(void)
{
    ok(val("very good") > val("good"), "very raises");
    ok(val("extremely bad") < val("bad"), "extremely raises the negative");
    ok(val("slightly good") < val("good"), "slightly lowers");
    ok(val("kind of good") < val("good"), "kind of lowers (phrase)");
    ok(val("it is VERY good") > val("it is very good"),
       "an intensifier in CAPS raises more");
}


static void
test_contrast(void)
{
    ok(val("the food was good but the service was terrible") < 0,
       "but: the clause after weighs more");
    ok(val("the service was terrible but the food was good") > 0,
       "but: reversed order");
    ok(val("it is cheap, however it broke") < 0, "however");
}


static void
test_caps(void)
{
    ok(val("this is GREAT news") > val("this is great news"),
       "ALL CAPS word is emphasised");
    ok(fabs(val("THIS IS GREAT NEWS") - val("this is great news")) < 0.05,
       "an all-caps text is not emphasis");
}


static void
test_punctuation(void)
{
    ok(val("good!!!") > val("good"), "exclamation marks raise");
    ok(val("good!!!!!!!!!!") - val("good!!!!") < 0.01,
       "exclamation effect is capped");
    ok(val("this is bad??") < val("this is bad"), "?? raises a negative");
    ok(ann("how do I reset it?")->cues & BEHAVE_CUE_QUESTION,
       "question mark: question cue");
    ok(ann("how do I reset my password")->cues & BEHAVE_CUE_QUESTION,
       "question word without ?: question cue");
}


static void
test_elongation(void)
{
    ok(val("so goooood") > val("so good"), "elongation raises");
    ok(val("sooo bad") < val("bad"), "elongated intensifier found");
}


static void
test_phrases(void)
{
    ok(val("not bad") > 0.2, "not bad is positive");
    ok(val("not bad at all!") > 0.3, "not bad at all is positive");
    ok(val("I have been on hold") < -0.1, "on hold is negative");
    ok(val("I was charged twice") < -0.3, "charged twice is negative");
    ok(val("waste of money") < -0.4, "waste of money");
    ok(val("works great") > 0.4, "works great");
}


static void
test_emoji(void)
{
    ok(val("ok \xf0\x9f\x98\x8d") > 0.3, "heart eyes emoji positive");
    ok(val("ok \xf0\x9f\x98\xa1") < -0.3, "angry emoji negative");
    ok(val("fine :)") > val("fine"), "smiley raises");
    ok(val("hmm :(") < -0.2, "frown is negative");
    ok(val("see you <3") > 0.3, "heart emoticon");
}


static void
test_idioms_not_crisis(void)
{
    /*
     * Known misses of the trained layer (src/core/text/behave_model.c): they
     * pinned the old rules' answers; scripts/eval-corpus measures how
     * often such cases go right on messages never trained on.
     */
    ann("I could murder a pizza right now");
    todo_ok(a.urgency != BEHAVE_URGENCY_CRITICAL, "trained layer",
            "idiom is not a crisis: I could murder a pizza right now");

    static const char  *idioms[] = {
        "this bill is killing me",
        "my phone died halfway through the call",
        "I'm dying to try the new plan!!",
        "my kid's gonna kill me if it is late",
        "Nearly had a heart attack when I opened this bill",
        "Shoot me an email when it's ready",
        "your new feature is a killer",
        "got killed by a hacker 5 times in ranked",
        "ugh this update is the death of me",
        NULL
    };
    const char  **s;

    for (s = idioms; *s; s++) {
        ann(*s);
        ok(a.urgency != BEHAVE_URGENCY_CRITICAL
           && !(a.cues & BEHAVE_CUE_CRISIS)
           && a.social_register != BEHAVE_REGISTER_CRISIS,
           "idiom is not a crisis: %s", *s);
    }

    ok(val("I'm dying to try it") > 0, "dying to: positive");
}


static void
test_crisis(void)
{
    ann("next time he comes to my house i'll put him in hospital");
    todo_ok(a.urgency == BEHAVE_URGENCY_CRITICAL, "trained layer",
            "crisis: a threat without a weapon or a place");
    ann("a guy just said he has a gun");
    todo_ok(a.urgency == BEHAVE_URGENCY_CRITICAL, "trained layer",
            "crisis: a gun named, nothing else");

    static const char  *crises[] = {
        "i cant do this anymore, everyone would be better off if i wasnt "
            "here",
        "I have been thinking about ending my life",
        "if you cut it off i'm going to end it. i mean it",
        "i've been cutting again tonight",
        "IF IT ISN'T FIXED I'M COMING DOWN THERE WITH A BAT",
        "husband chest pain. left arm numb. ambulance coming",
        "strong smell of gas in my kitchen, what do i do",
        NULL
    };
    const char  **s;

    for (s = crises; *s; s++) {
        ann(*s);
        ok(a.urgency == BEHAVE_URGENCY_CRITICAL
           && (a.cues & BEHAVE_CUE_CRISIS),
           "crisis: critical, cue: %s", *s);
        /* the register is the trained head's call: "crisis" for most
         * crises, but an all-caps threat may read as informal */
        todo_ok(a.social_register == BEHAVE_REGISTER_CRISIS,
                "trained layer", "crisis: crisis register");
    }

    ann("Someone hacked my account and is buying gift cards, 4 purchases in"
        " the last 10 minutes and counting");
    is_int(a.urgency, BEHAVE_URGENCY_CRITICAL, "fraud in progress: critical");
    ok(a.cues & BEHAVE_CUE_CRISIS, "fraud in progress: crisis cue");

    /* as above, the trained head's call: informal and crisis tie here
     * (1.78 each) since the cue concepts' retraining */
    ann("Someone is using my card RIGHT NOW!! FREEZE IT");
    ok(a.urgency == BEHAVE_URGENCY_CRITICAL,
       "fraud with panic: critical, so the crisis register may be chosen");
    todo_ok(a.social_register == BEHAVE_REGISTER_CRISIS, "trained layer",
            "fraud with panic: crisis register");

    ann("My account was hacked last year, is my data safe now?");
    ok(a.urgency != BEHAVE_URGENCY_CRITICAL, "past fraud: not critical");

    ann("I am due in court at 2pm today and need my statements within the "
        "next three hours");
    is_int(a.urgency, BEHAVE_URGENCY_CRITICAL, "legal deadline in hours");
    ok(a.cues & BEHAVE_CUE_SPECIALIST, "legal: specialist cue");
}


static void
test_courtesy(void)
{
    todo_ok(ann("Hi, thanks, can you tell me my balance?")->valence
            == BEHAVE_VALENCE_NEUTRAL, "trained layer",
            "thanks in a request: neutral");
    is_int(ann("thanks so much, brilliant service")->valence,
           BEHAVE_VALENCE_POSITIVE, "thanks alone: positive");
    ok(a.cues & BEHAVE_CUE_THANKS, "thanks cue");
}


static void
test_sarcasm(void)
{
    ann("Oh fantastic, my refund is still processing after five weeks");
    is_int(a.valence, BEHAVE_VALENCE_NEGATIVE, "sarcasm: negative");
    ann("wow amazing, servers down AGAIN \xf0\x9f\x99\x83");
    todo_ok(a.valence == BEHAVE_VALENCE_NEGATIVE, "trained layer",
            "sarcasm with emoji");
}


static void
test_mixed(void)
{
    is_int(ann("great phone, terrible battery")->valence,
           BEHAVE_VALENCE_MIXED, "great and terrible: mixed");
    is_int(ann("Love the app, but this update broke everything")->valence,
           BEHAVE_VALENCE_MIXED, "love but broke: mixed");
    ok(fabs(a.scores.valence) <= 0.6, "mixed score between the poles");
}


static void
test_urgency(void)
{
    is_int(ann("URGENT: we are locked out and can't work, please fix "
               "asap")->urgency, BEHAVE_URGENCY_HIGH, "urgent: high");
    is_int(ann("No rush at all, just flagging a typo on the site")->urgency,
           BEHAVE_URGENCY_PASSIVE, "no rush: passive");
    is_int(ann("How do I change my address?")->urgency, BEHAVE_URGENCY_LOW,
           "plain question: low");
    is_int(ann("forget it")->urgency, BEHAVE_URGENCY_PASSIVE,
           "giving up: passive");
}


static void
test_load(void)
{
    is_int(ann("How do I reset my password?")->cognitive_load,
           BEHAVE_LOAD_LOW, "one short ask: low");
    is_int(ann("I'm lost. Which one is the PIN?? What do I type? This is "
               "too much")->cognitive_load, BEHAVE_LOAD_OVERLOAD,
           "lost and many questions: overload");
    ok(a.cues & BEHAVE_CUE_CONFUSION, "confusion cue");
    todo_ok(ann("Can I add my partner? Is asthma covered? Which add-on "
                "covers braces? Is the price monthly?")->cognitive_load
            >= BEHAVE_LOAD_HIGH, "trained layer", "many questions: high");
}


static void
test_engagement(void)
{
    is_int(ann("whatever")->engagement, BEHAVE_ENGAGEMENT_DISENGAGED,
           "whatever: disengaged");
    ok(a.cues & BEHAVE_CUE_GIVING_UP, "giving up cue");
    is_int(ann("just wondering, do you ship to canada?")->engagement,
           BEHAVE_ENGAGEMENT_BROWSING, "just wondering: browsing");
    is_int(ann("My order 4471 has not arrived, can you check it?")
           ->engagement, BEHAVE_ENGAGEMENT_FOCUSED, "specific ask: focused");
}


static void
test_register(void)
{
    is_int(ann("Dear Sir or Madam,\n\nI am writing to request a copy of my "
               "statement for March.\n\nYours faithfully,\nA. Smith")
           ->social_register, BEHAVE_REGISTER_FORMAL, "letter: formal");
    ok(a.cultural & BEHAVE_CULT_HONORIFIC, "Sir: honorific");
    is_int(ann("lol u guys gonna fix this or nah")->social_register,
           BEHAVE_REGISTER_INFORMAL, "slang: informal");
    is_int(ann("Could you tell me when my order will arrive?")
           ->social_register, BEHAVE_REGISTER_SEMI_FORMAL,
           "plain polite: semi-formal");
}


static void
test_culture(void)
{
    const char  *tags[8];
    char         buf[16];
    size_t       n;

    ok(ann("the colour is wrong and my postcode changed")->cultural
       & BEHAVE_CULT_EN_GB, "colour, postcode: en-gb");
    ok(ann("the color is wrong and my zip code changed")->cultural
       & BEHAVE_CULT_EN_US, "color, zip code: en-us");
    ok(ann("I was wondering if it might be possible to move my date")
       ->cultural & BEHAVE_CULT_INDIRECT, "hedged ask: indirect_request");

    ann("Hola, compré unos auriculares y todavía no han llegado. "
        "¿Me pueden decir dónde está el pedido?");
    ok(a.cultural & BEHAVE_CULT_NON_ENGLISH, "Spanish: non_english");
    is_str(a.language, "es", "language es");
    n = behave_cultural_tags(&a, tags, 8, buf, sizeof(buf));
    is_int(n, 1, "one tag");
    is_str(tags[0], "non_english:es", "tag text");

    ann("Bonjour, je voudrais savoir comment résilier mon abonnement.");
    is_str(a.language, "fr", "French");
    ann("Guten Tag, wie kann ich meine Rechnungsadresse ändern?");
    is_str(a.language, "de", "German");

    ann("Hi, my order llegó incompleto, faltan two items del pedido. Can you"
        " send them o me hacen el refund?");
    ok(a.cultural & BEHAVE_CULT_CODE_SWITCHING, "Spanglish: code_switching");
    ok(!(a.cultural & BEHAVE_CULT_NON_ENGLISH), "and not non_english");

    ok(!(ann("Please send me the invoice for March")->cultural
         & (BEHAVE_CULT_NON_ENGLISH | BEHAVE_CULT_CODE_SWITCHING)),
       "plain English: no language tag");

    n = behave_cultural_tags(ann("Dear Sir, the colour is off"), tags, 1,
                             buf, sizeof(buf));
    is_int(n, 1, "tags respect max");
}


static void
test_cues(void)
{
    ok(ann("I've processed the refund, so it's all sorted now")->cues
       & BEHAVE_CUE_RESOLUTION_CLAIM, "processed the refund: resolution");
    ok(ann("The fault is now fixed, I'll close this ticket")->cues
       & BEHAVE_CUE_RESOLUTION_CLAIM, "fault is now fixed: resolution");
    ok(ann("this should now work")->cues & BEHAVE_CUE_RESOLUTION_CLAIM,
       "should now work: resolution");
    ok(ann("It's still not working")->cues & BEHAVE_CUE_NOT_RESOLVED,
       "still not working");
    ok(ann("that didn't work")->cues & BEHAVE_CUE_NOT_RESOLVED,
       "didn't work");
    ok(ann("nothing has come in and I'm still charged")->cues
       & BEHAVE_CUE_NOT_RESOLVED, "nothing has come in");
    ok(ann("same problem again")->cues & BEHAVE_CUE_NOT_RESOLVED,
       "same problem again");
    ok(!(ann("it has not been resolved")->cues
         & BEHAVE_CUE_RESOLUTION_CLAIM), "negated claim is no claim");
    ok(a.cues & BEHAVE_CUE_NOT_RESOLVED, "negated claim: not resolved");
    ok(ann("this is the third time I ask")->cues
       & BEHAVE_CUE_REPEAT_CONTACT, "third time: repeat contact");
    ok(ann("I already told you my number")->cues
       & BEHAVE_CUE_REPEAT_CONTACT, "already told you: repeat contact");
    ok(ann("my husband passed away last month")->cues
       & BEHAVE_CUE_SPECIALIST, "bereavement: specialist");
    ok(ann("I want a subject access request under GDPR")->cues
       & BEHAVE_CUE_SPECIALIST, "data protection: specialist");
    ok(ann("never mind")->cues & BEHAVE_CUE_GIVING_UP, "never mind");
}


static void
test_ranges(void)
{
    int          i, j;
    char         buf[512];
    unsigned     seed;
    const char  *s;

    static const char  *texts[] = {
        "I love it", "I hate it", "great phone, terrible battery",
        "how do I reset it?", "URGENT!!! HELP", "whatever", "", "k",
        NULL
    };

    for (i = 0; texts[i]; i++) {
        s = texts[i];
        ann(s);
        ok(a.scores.valence >= -1 && a.scores.valence <= 1
           && a.scores.urgency >= 0 && a.scores.urgency <= 1
           && a.scores.cognitive_load >= 0 && a.scores.cognitive_load <= 1
           && a.scores.engagement >= 0 && a.scores.engagement <= 1
           && a.scores.formality >= 0 && a.scores.formality <= 1
           && a.confidence >= 0 && a.confidence <= 1,
           "scores in range: '%s'", s);
        ok((a.valence != BEHAVE_VALENCE_POSITIVE || a.scores.valence > 0)
           && (a.valence != BEHAVE_VALENCE_NEGATIVE || a.scores.valence < 0),
           "label consistent with score: '%s'", s);
    }

    ok(ann("I love it")->signals_fired > 0, "signals fired counted");
    ok(ann("I love it, really, so much!!!")->confidence
       > ann("the table")->confidence, "more evidence, more confidence");

    seed = 7;
    for (i = 0; i < 3000; i++) {
        for (j = 0; j < (int) sizeof(buf); j++) {
            seed = seed * 1103515245u + 12345u;
            buf[j] = (char) (seed >> 16);
        }
        behave_annotate(buf, seed % sizeof(buf), &a);
    }
    ok(1, "random bytes do not crash the annotator");
}


static void
test_long_text(void)
{
    size_t  n, i;
    char   *big;
    static const char  piece[] = "this is terrible but I love it! ";

    n = 1024 * 1024;
    big = malloc(n);
    if (big == NULL) {
        ok(0, "malloc");
        return;
    }

    for (i = 0; i < n; i++) {
        big[i] = piece[i % (sizeof(piece) - 1)];
    }

    behave_annotate(big, n, &a);
    ok(a.scores.valence >= -1 && a.scores.valence <= 1, "1 MiB text: ok");
    free(big);
}


static void
test_lexicon_index(void)
{
    size_t                     i, bad;
    const behave_lex_entry_t  *e;

    bad = 0;
    for (i = 0; i < behave_lex_nentries; i++) {
        e = behave_lex_find(behave_lex_entries[i].term,
                            behave_lex_entries[i].len);
        if (e != &behave_lex_entries[i]) {
            bad++;
        }
    }
    is_int(bad, 0, "the hash table finds every one of %zu entries",
           behave_lex_nentries);
    ok(behave_lex_nentries > 3000, "lexicon has thousands of entries");

    ok(behave_lex_find("zzqxv", 5) == NULL, "unknown word: NULL");
    ok(behave_lex_find("", 0) == NULL, "empty key: NULL");
    ok(behave_lex_find_word("celebrated", 10)
       == behave_lex_find("celebrate", 9),
       "stem -ed");
    ok(behave_lex_find_word("nicest", 6) == behave_lex_find("nice", 4),
       "stem -est with e");
    ok(behave_lex_find_word("happiness", 9) != NULL, "stem -ness");
}


static void
test_overlap_and_numbers(void)
{
    ann("I want to die");
    is_int(a.urgency, BEHAVE_URGENCY_CRITICAL,
           "crisis phrase inside a longer match wins");
    ann("he said if I don't pay he'll hurt my family");
    ok(a.scores.valence < 0, "a crisis is not negated");
    is_int(a.urgency, BEHAVE_URGENCY_CRITICAL, "threat to family");
    ann("I called 911, my wife is not breathing");
    ok(a.cues & BEHAVE_CUE_CRISIS, "phrase with a number: called 911");
    ok(!(ann("I'm going to end my contract early")->cues & BEHAVE_CUE_CRISIS),
       "ending a contract is no crisis");
}


static void
test_still_and_thanks(void)
{
    ok(ann("Still nothing.")->cues & BEHAVE_CUE_NOT_RESOLVED,
       "sentence opened by still: not resolved");
    ok(!(ann("I still love the app")->cues & BEHAVE_CUE_NOT_RESOLVED),
       "still inside a happy sentence: no cue");
    is_int(ann("Thanks for the quick fix! Could you also check my export?")
           ->valence, BEHAVE_VALENCE_POSITIVE,
           "thanks for something done is felt, even with a question");
}


static void
test_names(void)
{
    is_str(behave_valence_name(BEHAVE_VALENCE_MIXED), "mixed", "valence");
    is_str(behave_urgency_name(BEHAVE_URGENCY_CRITICAL), "critical",
           "urgency");
    is_str(behave_load_name(BEHAVE_LOAD_OVERLOAD), "overload", "load");
    is_str(behave_engagement_name(BEHAVE_ENGAGEMENT_IMMERSED), "immersed",
           "engagement");
    is_str(behave_register_name(BEHAVE_REGISTER_SEMI_FORMAL), "semi-formal",
           "register");
}


int
main(void)
{
    test_empty();
    test_lexicon();
    test_negation();
    test_intensifiers();
    test_contrast();
    test_caps();
    test_punctuation();
    test_elongation();
    test_phrases();
    test_emoji();
    test_idioms_not_crisis();
    test_crisis();
    test_courtesy();
    test_sarcasm();
    test_mixed();
    test_urgency();
    test_load();
    test_engagement();
    test_register();
    test_culture();
    test_cues();
    test_ranges();
    test_long_text();
    test_lexicon_index();
    test_overlap_and_numbers();
    test_still_and_thanks();
    test_names();

    return tap_done();
}
