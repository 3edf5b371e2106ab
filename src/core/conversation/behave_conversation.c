/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Conversation findings and the recommendation; the rules are described
 * in behave_conversation.h.
 *
 * The phrase tables below cover what the annotator's cues may not (yet):
 * the conversation logic must hold on its own, so it counts the
 * annotator's cue as one more piece of evidence, never as the only one.
 * They are kept here, next to the rules that weigh them, rather than in
 * src/core/text/lexicon/, because each entry carries the words used in the
 * reasons ("claimed the refund was processed").
 */

/* memmem() is a GNU extension */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "behave_conversation.h"
#include "behave_model.h"
#include "behave_similarity.h"


/*
 * Repetition thresholds on the behave_similarity() score, tuned on the
 * labelled data: without any re-ask marker the texts must be close; with
 * a contrast ("but where...") they may share the topic only; when the
 * customer says the question is still open ("yes or no", "I've read that
 * page") a shared key word or two is enough.  Unrelated questions score
 * below 0.12 in the data, same-topic different asks 0.25 to 0.40.
 */
#define BEHAVE_CONV_REP_HIGH    0.55
#define BEHAVE_CONV_REP_LOW     0.25
#define BEHAVE_CONV_REP_FLOOR   0.15

#define BEHAVE_CONV_ESC_WINDOW  4       /* customer turns looked at */
#define BEHAVE_CONV_ID_MIN      4       /* chars of an order number */

/*
 * Repetition by meaning: the cosine of two turns' meaning signatures
 * (behave_model.h, trained on same-intent queries) from which a turn asks
 * the same again in other words, chosen on the development intents of
 * CLINC150 and Banking77 (scripts/eval-corpus measures held-out ones);
 * compared with the newest customer turns only, each annotated again.
 */
#define BEHAVE_CONV_MEANING_REPEAT  0.50
#define BEHAVE_CONV_MEANING_WINDOW  4


typedef struct {
    const char            *phrase;      /* lowercase, ASCII apostrophe */
    const char            *what;        /* for reasons, NULL: the phrase */
} behave_conv_phrase_t;


/*
 * A normalised turn, and which byte pairs occur in it: a phrase whose first
 * two bytes are not there cannot match, and most phrases of a table are
 * ruled out so without a memmem() over the text.
 */
#define BEHAVE_CONV_PAIR_BITS  1024

typedef struct {
    char                   text[BEHAVE_CONV_SCAN_MAX + 1];
    size_t                 len;
    uint64_t               pairs[BEHAVE_CONV_PAIR_BITS / 64];
    int                    pairs_ready;
} behave_conv_norm_t;


#define behave_conv_pair(a, b)                                                \
    (((unsigned) (unsigned char) (a) << 5 ^ (unsigned char) (b))              \
     & (BEHAVE_CONV_PAIR_BITS - 1))


#define behave_conv_tab(t)  t, sizeof(t) / sizeof(t[0])


/* agent turns: the issue is presented as settled */
static const behave_conv_phrase_t  behave_conv_claims[] = {
    { "processed the refund", "the refund was processed" },
    { "processed your refund", "the refund was processed" },
    { "refund has been processed", "the refund was processed" },
    { "issued a refund", "the refund was processed" },
    { "issued the refund", "the refund was processed" },
    { "refunded", "the refund was processed" },
    { "credited", "the account was credited" },
    { "reprocessed and approved", "the claim was approved" },
    { "approved", "it was approved" },
    { "unblocked", "it was unblocked" },
    { "unlocked", "it was unlocked" },
    { "corrected", "it was corrected" },
    { "cancelled", "it was cancelled" },
    { "canceled", "it was cancelled" },
    { "fixed", "the issue was fixed" },
    { "resolved", "the issue was resolved" },
    { "sorted", "the issue was sorted" },
    { "all set", "the issue was settled" },
    { "taken care of", "the issue was taken care of" },
    { "no further action is needed", "the issue was settled" },
    { "close this ticket", "the ticket was closed" },
    { "closed the ticket", "the ticket was closed" },
    { "closed your ticket", "the ticket was closed" },
    { "closing this ticket", "the ticket was closed" },
    { "ticket is closed", "the ticket was closed" },
    { "should work now", "it works now" },
    { "should be working now", "it works now" },
    { "back online", "it works now" },
    { "working now", "it works now" },
    { "working again", "it works now" },
    { "working normally", "it works now" },
    { "up and running", "it works now" },
    { "back to normal", "it works now" },
    { "good to go", "the issue was settled" },
    { "ready for collection", "it is ready" },
    { "ready to collect", "it is ready" },
    { "on its way", "it is on its way" },
    { "from now on", "it works from now on" },
    { "done", "it was done" },
};


/* customer turns: the issue is not settled */
static const behave_conv_phrase_t  behave_conv_not_resolved[] = {
    { "still not", NULL },
    { "still isn't", NULL },
    { "still doesn't", NULL },
    { "still don't", NULL },
    { "still hasn't", NULL },
    { "still haven't", NULL },
    { "still can't", NULL },
    { "still no", NULL },
    { "still nothing", NULL },
    { "still empty", NULL },
    { "still broken", NULL },
    { "still down", NULL },
    { "still there", NULL },
    { "still says", NULL },
    { "still shows", NULL },
    { "still showing", NULL },
    { "still charged", NULL },
    { "still the same", NULL },
    { "still 0", NULL },
    { "still zero", NULL },
    { "still based", NULL },
    { "still failing", NULL },
    { "still declined", NULL },
    { "still denied", NULL },
    { "still blocked", NULL },
    { "still locked", NULL },
    { "still missing", NULL },
    { "still pending", NULL },
    { "still waiting", NULL },
    { "not working", NULL },
    { "isn't working", NULL },
    { "doesn't work", NULL },
    { "didn't work", NULL },
    { "hasn't worked", NULL },
    { "not fixed", NULL },
    { "isn't fixed", NULL },
    { "not sorted", NULL },
    { "isn't sorted", NULL },
    { "not resolved", NULL },
    { "isn't resolved", NULL },
    { "nothing has come in", NULL },
    { "nothing has come", NULL },
    { "nothing came", NULL },
    { "hasn't come", NULL },
    { "hasn't arrived", NULL },
    { "never arrived", NULL },
    { "haven't received", NULL },
    { "has not been", NULL },
    { "hasn't been", NULL },
    { "same problem", NULL },
    { "same issue", NULL },
    { "same error", NULL },
    { "exactly the same", NULL },
    { "nothing changed", NULL },
    { "nothing has changed", NULL },
    { "no refund", NULL },
    { "no change", NULL },
};


/* customer turns: the claimed fix is confirmed (weight 2) */
static const behave_conv_phrase_t  behave_conv_confirm_strong[] = {
    { "worked", NULL },
    { "works now", NULL },
    { "working now", NULL },
    { "it works", NULL },
    { "i'm in", NULL },
    { "all good", NULL },
    { "that did it", NULL },
    { "got the email", NULL },
    { "fixed now", NULL },
};


/* customer turns: politeness that leans towards "it landed" (weight 1) */
static const behave_conv_phrase_t  behave_conv_confirm_weak[] = {
    { "thanks", NULL },
    { "thank you", NULL },
    { "great", NULL },
    { "perfect", NULL },
    { "brilliant", NULL },
    { "cheers", NULL },
    { "got it", NULL },
    { "done", NULL },
};


/* the customer says outright that the question is still open */
static const behave_conv_phrase_t  behave_conv_reask_strong[] = {
    { "or not", NULL },
    { "yes or no", NULL },
    { "a yes or a no", NULL },
    { "i've read", NULL },
    { "didn't answer", NULL },
    { "doesn't answer", NULL },
    { "doesn't mention", NULL },
    { "haven't answered", NULL },
    { "same page", NULL },
    { "already asked", NULL },
    { "i asked", NULL },
    { "my question", NULL },
    { "still don't know", NULL },
    { "i just need to know", NULL },
};


/* the customer contrasts with the answer given */
static const behave_conv_phrase_t  behave_conv_reask[] = {
    { "ok, but", NULL },
    { "right, but", NULL },
    { "but where", NULL },
    { "but how", NULL },
    { "but when", NULL },
    { "but what", NULL },
    { "but is", NULL },
    { "but can", NULL },
    { "actually", NULL },
    { "again", NULL },
    { "i just want", NULL },
    { "i just need", NULL },
};


/* the answer was not understood */
static const behave_conv_phrase_t  behave_conv_confusion[] = {
    { "don't understand", NULL },
    { "do not understand", NULL },
    { "don't get it", NULL },
    { "don't know what", NULL },
    { "what do you mean", NULL },
    { "makes no sense", NULL },
    { "confused", NULL },
    { "confusing", NULL },
    { "which one", NULL },
    { "don't see", NULL },
};


/* the answer was too much */
static const behave_conv_phrase_t  behave_conv_overload[] = {
    { "i'm lost", NULL },
    { "im lost", NULL },
    { "too many steps", NULL },
    { "too many questions", NULL },
    { "too many options", NULL },
    { "too much information", NULL },
    { "this is too much", NULL },
    { "it's too much", NULL },
    { "that's too much", NULL },
    { "too complicated", NULL },
    { "overwhelm", NULL },
    { "overwhelmed", NULL },
    { "can't follow", NULL },
    { "cannot follow", NULL },
    { "jargon", NULL },
};


/* the ask itself is vague; two or more make it unclear */
static const behave_conv_phrase_t  behave_conv_vague[] = {
    { "hard to say", NULL },
    { "sort of", NULL },
    { "kind of", NULL },
    { "you know", NULL },
    { "the thing with", NULL },
    { "or something", NULL },
    { "not sure", NULL },
    { "i guess", NULL },
    { "somehow", NULL },
    { "whatever it is", NULL },
};


/* needs a specialist team */
static const behave_conv_phrase_t  behave_conv_specialist[] = {
    { "formal complaint", "the complaints team" },
    { "make a complaint", "the complaints team" },
    { "complaint", "the complaints team" },
    { "appeal", "the appeals team" },
    { "by mistake", "payment recovery" },
    { "wrong account", "payment recovery" },
    { "fraud", "the fraud team" },
    { "scam", "the fraud team" },
    { "dispute", "the disputes team" },
    { "chargeback", "the disputes team" },
    { "legal action", "the legal team" },
    { "solicitor", "the legal team" },
    { "lawyer", "the legal team" },
    { "ombudsman", "the complaints team" },
    { "bereavement", "the bereavement team" },
    { "passed away", "the bereavement team" },
    { "data breach", "the data protection team" },
    { "gdpr", "the data protection team" },
};


/* the customer says this is not the first contact */
static const behave_conv_phrase_t  behave_conv_repeat_contact[] = {
    { "third time", NULL },
    { "second time", NULL },
    { "three times", NULL },
    { "several times", NULL },
    { "many times", NULL },
    { "third day", NULL },
    { "already told", NULL },
    { "already asked", NULL },
    { "already called", NULL },
    { "already contacted", NULL },
    { "keep asking", NULL },
    { "called before", NULL },
    { "contacted you before", NULL },
};


static const char  *behave_conv_guidance[] = {
    /* 0 crisis */
    "Put the person's safety first: respond with care and urgency, give "
    "emergency guidance if anyone is at risk, and connect a human now. Do "
    "not close the conversation or send scripted text.",
    /* 1 false resolution */
    "Do not say again that the issue is resolved. Acknowledge that it is "
    "still not working, apologise for the wrong confirmation, and hand over "
    "to a person who can check the fix before confirming anything.",
    /* 2 escalating */
    "Acknowledge the frustration and what the customer has already tried, "
    "without scripted apologies or links already sent. Hand over to a person "
    "with authority to act and say when they will be in touch.",
    /* 3 route */
    "Tell the customer which team will handle this and what happens next; "
    "do not decide it yourself or promise an outcome.",
    /* 4 simplify */
    "Answer in one or two short sentences in plain words, no jargon; give "
    "one step at a time and check it worked before the next.",
    /* 5 clarify after repetition */
    "The previous answer did not land: answer the exact question directly "
    "(yes or no first if that is what was asked), without pointing to the "
    "same page or policy text again.",
    /* 6 clarify unclear */
    "Ask one specific question to pin down the problem, offering concrete "
    "options the customer can pick from.",
    /* 7 resolve */
    "Answer the question directly and completely; do not present the issue "
    "as resolved until the customer confirms it.",
    /* 8 degraded */
    "Conversation context is unavailable: treat this message as possibly "
    "part of an ongoing problem, do not claim anything is resolved, and hand "
    "over to a person who can read the history.",
};


typedef enum {
    BEHAVE_GUIDE_CRISIS = 0,
    BEHAVE_GUIDE_FALSE_RESOLUTION,
    BEHAVE_GUIDE_ESCALATING,
    BEHAVE_GUIDE_ROUTE,
    BEHAVE_GUIDE_SIMPLIFY,
    BEHAVE_GUIDE_REPETITION,
    BEHAVE_GUIDE_UNCLEAR,
    BEHAVE_GUIDE_RESOLVE,
    BEHAVE_GUIDE_DEGRADED
} behave_conv_guide_e;


static void behave_conv_normalize(const char *in, size_t len,
    behave_conv_norm_t *out);
static void behave_conv_pairs(behave_conv_norm_t *t);
static int behave_conv_is_word(unsigned char c);
static int behave_conv_negated(const char *s, size_t at);
static unsigned behave_conv_match(const behave_conv_norm_t *t,
    const behave_conv_phrase_t *tab, size_t ntab, int negatable,
    const behave_conv_phrase_t **first);
static int behave_conv_intensity(const char *text, size_t len);
static int behave_conv_ids_differ(const behave_conv_norm_t *a,
    const behave_conv_norm_t *b);
static int behave_conv_has_digit(const behave_conv_norm_t *t);
static int behave_conv_has_question(const behave_conv_norm_t *t);
static void behave_conv_false_resolution(const behave_turn_t *history,
    size_t n, const behave_conv_norm_t *cur, unsigned cues,
    behave_conv_result_t *out);
static int behave_conv_claim(const behave_turn_t *t, behave_conv_norm_t *tmp,
    const char **what);
static int behave_conv_denies(const behave_conv_norm_t *cur, unsigned cues,
    const char **quote);
static void behave_conv_repetition(const behave_turn_t *history, size_t n,
    const behave_turn_t *current, const behave_conv_norm_t *cur,
    behave_conv_result_t *out, unsigned *similar);
static long behave_conv_fall(double from, double to);
static void behave_conv_escalation(const behave_turn_t *history, size_t n,
    const behave_turn_t *current, unsigned reasks, behave_conv_result_t *out,
    int *from, int *turns);
static int behave_conv_past_false_resolution(const behave_turn_t *history,
    size_t n);
static void behave_conv_assess_customer(const behave_turn_t *history,
    size_t n, const behave_turn_t *current, behave_conv_result_t *out);
static void behave_conv_recommend(const behave_turn_t *current,
    const behave_conv_norm_t *cur, behave_conv_result_t *out, int esc_from,
    int esc_turns);
static void behave_conv_review(behave_conv_result_t *out);
static void behave_conv_init(behave_conv_result_t *out, size_t n,
    size_t first);


/*
 * Lowercases ASCII, maps U+2018/U+2019 to "'" and runs of whitespace to
 * one space; stops before a multibyte character that would not fit.
 */

static void
behave_conv_normalize(const char *in, size_t len, behave_conv_norm_t *out)
{
    size_t          i, n, k;
    unsigned char   c;

    n = 0;
    i = 0;

    while (i < len && n < BEHAVE_CONV_SCAN_MAX) {
        c = (unsigned char) in[i];

        if (c == 0xe2 && i + 2 < len && (unsigned char) in[i + 1] == 0x80
            && ((unsigned char) in[i + 2] == 0x98
                || (unsigned char) in[i + 2] == 0x99))
        {
            out->text[n++] = '\'';
            i += 3;
            continue;
        }

        if (c >= 0x80) {
            /* copy the whole character or stop */
            k = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                : (c & 0xf8) == 0xf0 ? 4 : 1;

            if (n + k > BEHAVE_CONV_SCAN_MAX || i + k > len) {
                break;
            }

            memcpy(out->text + n, in + i, k);
            n += k;
            i += k;
            continue;
        }

        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (n > 0 && out->text[n - 1] != ' ') {
                out->text[n++] = ' ';
            }
            i++;
            continue;
        }

        if (c >= 'A' && c <= 'Z') {
            c = (unsigned char) (c + ('a' - 'A'));
        }

        out->text[n++] = (char) c;
        i++;
    }

    out->text[n] = '\0';
    out->len = n;

    out->pairs_ready = 0;
}


/* most normalised turns are only compared, never matched: pairs on demand */
static void
behave_conv_pairs(behave_conv_norm_t *t)
{
    size_t  i, k;

    memset(t->pairs, 0, sizeof(t->pairs));

    for (i = 0; i + 1 < t->len; i++) {
        k = behave_conv_pair(t->text[i], t->text[i + 1]);
        t->pairs[k / 64] |= (uint64_t) 1 << (k % 64);
    }

    t->pairs_ready = 1;
}


static int
behave_conv_is_word(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c >= 0x80;
}


/* "not fixed", "hasn't been resolved", "never worked": a denial */
static int
behave_conv_negated(const char *s, size_t at)
{
    size_t       from, k;
    static const char  *neg[] = { "not ", "n't ", "never ", "no " };

    from = at > 16 ? at - 16 : 0;

    for (k = 0; k < sizeof(neg) / sizeof(neg[0]); k++) {
        const char  *p;

        p = memmem(s + from, at - from, neg[k], strlen(neg[k]));
        if (p != NULL) {
            return 1;
        }
    }

    return 0;
}


/*
 * Counts the entries of tab that occur in t as whole words; with
 * negatable, an occurrence right after a denial does not count.
 */

static unsigned
behave_conv_match(const behave_conv_norm_t *t, const behave_conv_phrase_t *tab,
    size_t ntab, int negatable, const behave_conv_phrase_t **first)
{
    size_t       i, plen, at, k;
    unsigned     count;
    const char  *p, *s;

    count = 0;

    if (!t->pairs_ready) {
        /* a cache filled on first use; every norm lives in writable memory */
        behave_conv_pairs((behave_conv_norm_t *) t);
    }

    for (i = 0; i < ntab; i++) {
        if (tab[i].phrase[0] != '\0' && tab[i].phrase[1] != '\0') {
            k = behave_conv_pair(tab[i].phrase[0], tab[i].phrase[1]);

            if (!(t->pairs[k / 64] >> (k % 64) & 1)) {
                continue;
            }
        }

        plen = strlen(tab[i].phrase);
        s = t->text;

        while ((p = memmem(s, t->len - (size_t) (s - t->text), tab[i].phrase,
                           plen))
               != NULL)
        {
            at = (size_t) (p - t->text);
            s = p + 1;

            if (behave_conv_is_word((unsigned char) tab[i].phrase[0])
                && at > 0
                && behave_conv_is_word((unsigned char) t->text[at - 1]))
            {
                continue;
            }

            if (behave_conv_is_word((unsigned char) tab[i].phrase[plen - 1])
                && at + plen < t->len
                && behave_conv_is_word((unsigned char) t->text[at + plen]))
            {
                continue;
            }

            if (negatable && behave_conv_negated(t->text, at)) {
                continue;
            }

            if (count == 0 && first != NULL) {
                *first = &tab[i];
            }

            count++;
            break;
        }
    }

    return count;
}


/*
 * Raised voice, from the original text: a run of "!!", "??", "?!" and
 * shouting (an all-capitals word of five letters or more: shorter ones are
 * mostly acronyms, "SAML", "CSV").  Returns 0, 1 or 2 points.
 */

static int
behave_conv_intensity(const char *text, size_t len)
{
    size_t  i, run;
    int     punct, caps;

    punct = 0;
    caps = 0;

    for (i = 0; i + 1 < len; i++) {
        if ((text[i] == '!' || text[i] == '?')
            && (text[i + 1] == '!' || text[i + 1] == '?'))
        {
            punct = 1;
            break;
        }
    }

    i = 0;

    while (i < len) {
        if (!(text[i] >= 'A' && text[i] <= 'Z')) {
            i++;
            continue;
        }

        if (i > 0 && ((text[i - 1] >= 'a' && text[i - 1] <= 'z')
                      || (text[i - 1] >= '0' && text[i - 1] <= '9')))
        {
            i++;
            continue;
        }

        run = 0;
        while (i < len && text[i] >= 'A' && text[i] <= 'Z') {
            run++;
            i++;
        }

        if (i < len && ((text[i] >= 'a' && text[i] <= 'z')
                        || (text[i] >= '0' && text[i] <= '9')))
        {
            continue;               /* "IdP", "LS6" */
        }

        if (run >= 5) {
            caps = 1;
            break;
        }
    }

    return punct + caps;
}


int
behave_conversation_severity(const behave_annotation_t *a, const char *text,
    size_t len)
{
    int                  s, points;
    behave_conv_norm_t   norm;

    s = 0;

    if (a->valence == BEHAVE_VALENCE_NEGATIVE
        || a->valence == BEHAVE_VALENCE_MIXED)
    {
        s = 1;
    }

    if (a->valence_blend <= -0.75) {
        s = 3;

    } else if (a->valence_blend <= -0.5) {
        s = 2;
    }

    switch (a->urgency) {
    case BEHAVE_URGENCY_MEDIUM:
        s = s > 2 ? s : 2;
        break;
    case BEHAVE_URGENCY_HIGH:
        s = s > 3 ? s : 3;
        break;
    case BEHAVE_URGENCY_CRITICAL:
        s = 4;
        break;
    default:
        break;
    }

    if ((a->cues & BEHAVE_CUE_CRISIS)
        || a->social_register == BEHAVE_REGISTER_CRISIS)
    {
        s = 4;
    }

    if (s == 0 && (a->cues & BEHAVE_CUE_NOT_RESOLVED)) {
        s = 1;
    }

    if (s == 0 && text != NULL) {
        behave_conv_normalize(text, len, &norm);
        if (behave_conv_match(&norm, behave_conv_tab(behave_conv_not_resolved),
                              0, NULL))
        {
            s = 1;
        }
    }

    points = text != NULL ? behave_conv_intensity(text, len) : 0;

    if (points == 2 && s < 3) {
        s = 3;

    } else if (points == 1 && s < 2) {
        s = 2;
    }

    return s;
}


/* "order #1234" and "#1240": both name a number, and not the same one */
static int
behave_conv_ids_differ(const behave_conv_norm_t *a, const behave_conv_norm_t *b)
{
    size_t      i, j, ai, bj, alen, blen;
    int         a_ids, b_ids, digit;

    a_ids = 0;
    b_ids = 0;

    for (i = 0; i < a->len; i = ai) {
        ai = i;
        digit = 0;
        while (ai < a->len && behave_conv_is_word((unsigned char) a->text[ai]))
        {
            digit |= (a->text[ai] >= '0' && a->text[ai] <= '9');
            ai++;
        }

        if (ai == i) {
            ai++;
            continue;
        }

        /* "23 kg", "5 times" are amounts; an order or a plan is longer */
        if (!digit || ai - i < BEHAVE_CONV_ID_MIN) {
            continue;
        }

        a_ids++;
        alen = ai - i;

        for (j = 0; j < b->len; j = bj) {
            bj = j;
            while (bj < b->len
                   && behave_conv_is_word((unsigned char) b->text[bj]))
            {
                bj++;
            }

            if (bj == j) {
                bj++;
                continue;
            }

            blen = bj - j;

            if (blen == alen && memcmp(a->text + i, b->text + j, alen) == 0) {
                return 0;           /* a number in common */
            }
        }
    }

    if (a_ids == 0) {
        return 0;
    }

    for (j = 0; j < b->len && !b_ids; j = bj) {
        bj = j;
        digit = 0;
        while (bj < b->len && behave_conv_is_word((unsigned char) b->text[bj]))
        {
            digit |= (b->text[bj] >= '0' && b->text[bj] <= '9');
            bj++;
        }

        b_ids = digit && bj - j >= BEHAVE_CONV_ID_MIN;
        bj += (bj == j);
    }

    return b_ids;
}


static int
behave_conv_has_digit(const behave_conv_norm_t *t)
{
    size_t  i;

    for (i = 0; i < t->len; i++) {
        if (t->text[i] >= '0' && t->text[i] <= '9') {
            return 1;
        }
    }

    return 0;
}


static int
behave_conv_has_question(const behave_conv_norm_t *t)
{
    static const behave_conv_phrase_t  asks[] = {
        { "i just need to know", NULL },
        { "i need to know", NULL },
        { "i just want to", NULL },
        { "tell me", NULL },
    };

    return memchr(t->text, '?', t->len) != NULL
           || behave_conv_match(t, behave_conv_tab(asks), 0, NULL) > 0;
}


/* 1 if agent turn t presents the issue as settled; *what says how */
static int
behave_conv_claim(const behave_turn_t *t, behave_conv_norm_t *tmp,
    const char **what)
{
    const behave_conv_phrase_t  *first;

    behave_conv_normalize(t->text, t->text_len, tmp);

    first = NULL;
    if (behave_conv_match(tmp, behave_conv_tab(behave_conv_claims), 1,
                          &first))
    {
        *what = first->what;
        return 1;
    }

    if (t->cues & BEHAVE_CUE_RESOLUTION_CLAIM) {
        *what = "the issue was resolved";
        return 1;
    }

    return 0;
}


/* 1 if customer text cur says the issue is not settled; *quote says how */
static int
behave_conv_denies(const behave_conv_norm_t *cur, unsigned cues,
    const char **quote)
{
    unsigned                     neg, conf;
    const behave_conv_phrase_t  *first;

    first = NULL;
    neg = behave_conv_match(cur, behave_conv_tab(behave_conv_not_resolved), 0,
                            &first);
    conf = 2 * behave_conv_match(cur,
                                 behave_conv_tab(behave_conv_confirm_strong),
                                 1, NULL)
           + behave_conv_match(cur, behave_conv_tab(behave_conv_confirm_weak),
                               1, NULL);

    if (cues & BEHAVE_CUE_NOT_RESOLVED) {
        neg++;
    }

    /*
     * Right after a claim, a negation that nothing confirms answers it:
     * "no payment has been received", "nothing on file", "rien".
     */
    if (neg == 0 && conf == 0 && (cues & BEHAVE_CUE_NEGATION)) {
        neg++;
    }

    *quote = first != NULL ? first->phrase : "it is not resolved";

    /* a denial outweighs politeness, not a confirmation that it worked */
    return neg > 0 && 2 * neg > conf;
}


static void
behave_conv_false_resolution(const behave_turn_t *history, size_t n,
    const behave_conv_norm_t *cur, unsigned cues, behave_conv_result_t *out)
{
    size_t               i;
    const char          *what, *quote;
    behave_conv_norm_t   tmp;

    /* the agent turns since the previous customer turn, latest first */
    for (i = n; i > 0; i--) {
        if (history[i - 1].speaker != BEHAVE_SPEAKER_AGENT) {
            return;
        }

        if (behave_conv_claim(&history[i - 1], &tmp, &what)) {
            break;
        }
    }

    if (i == 0 || !behave_conv_denies(cur, cues, &quote)) {
        return;
    }

    out->false_resolution = 1;
    out->claim_turn = (int) (out->first_turn + i - 1);

    snprintf(out->false_resolution_reason,
             sizeof(out->false_resolution_reason),
             "agent turn %d claimed %s; customer turn %d says it is not "
             "(\"%s\")",
             out->claim_turn, what, (int) (out->first_turn + n), quote);
}


/* was any earlier customer turn a denial right after a claim? */
static int
behave_conv_past_false_resolution(const behave_turn_t *history, size_t n)
{
    size_t                 k;
    behave_conv_norm_t     norm;
    behave_conv_result_t   r;

    for (k = 1; k < n; k++) {
        if (history[k].speaker != BEHAVE_SPEAKER_CUSTOMER
            || history[k - 1].speaker != BEHAVE_SPEAKER_AGENT)
        {
            continue;
        }

        behave_conv_normalize(history[k].text, history[k].text_len, &norm);

        r.false_resolution = 0;
        r.first_turn = 0;
        behave_conv_false_resolution(history, k, &norm, history[k].cues, &r);

        if (r.false_resolution) {
            return 1;
        }
    }

    return 0;
}


/* a turn's meaning signature: its own, or its text annotated again */
static const int8_t *
behave_turn_meaning(const behave_turn_t *t, behave_annotation_t *tmp)
{
    if (t->has_meaning) {
        return t->meaning;
    }

    behave_annotate(t->text, t->text_len, tmp);

    return tmp->meaning;
}


static void
behave_conv_repetition(const behave_turn_t *history, size_t n,
    const behave_turn_t *current, const behave_conv_norm_t *cur,
    behave_conv_result_t *out, unsigned *similar)
{
    int                   strong, reask, ack, best_turn, ids;
    size_t                i, window;
    double                best, need, cosine, score;
    const int8_t         *cm;
    behave_sim_set_t      cs, hs;
    behave_annotation_t   ca, ha;
    behave_similarity_t   sim;
    behave_conv_norm_t    tmp;

    *similar = 0;
    best = 0.0;
    best_turn = -1;

    strong = behave_conv_match(cur, behave_conv_tab(behave_conv_reask_strong),
                               0, NULL) > 0;

    reask = strong
            || behave_conv_match(cur, behave_conv_tab(behave_conv_reask), 0,
                                 NULL)
            || behave_conv_match(cur, behave_conv_tab(behave_conv_confusion),
                                 0, NULL)
            || behave_conv_match(cur, behave_conv_tab(behave_conv_overload),
                                 0, NULL)
            || (current->cues
                & (BEHAVE_CUE_CONFUSION | BEHAVE_CUE_CONTRAST));

    need = strong ? BEHAVE_CONV_REP_FLOOR
                  : reask ? BEHAVE_CONV_REP_LOW : BEHAVE_CONV_REP_HIGH;

    behave_sim_prepare(current->text, current->text_len, &cs);
    cm = behave_turn_meaning(current, &ca);

    /* without a number of its own the turn cannot name another order */
    ids = behave_conv_has_digit(cur);

    /*
     * The most recent customer turns only, newest first: a re-ask answers
     * what went before it, and the cost stays flat however long the
     * conversation grows.
     */
    window = 0;

    for (i = n; i-- > 0 && window < BEHAVE_CONV_REP_WINDOW; /* void */) {
        if (history[i].speaker != BEHAVE_SPEAKER_CUSTOMER) {
            continue;
        }

        window++;

        behave_sim_prepare(history[i].text, history[i].text_len, &hs);
        behave_sim_compare(&cs, &hs, &sim);

        cosine = 0;
        if (window <= BEHAVE_CONV_MEANING_WINDOW) {
            cosine = behave_meaning_cosine(cm,
                                           behave_turn_meaning(&history[i],
                                                               &ha));
        }

        score = sim.score > cosine ? sim.score : cosine;

        /* reported as measured, whether or not it counts */
        if (score > out->repetition_similarity) {
            out->repetition_similarity = score;
        }

        if (sim.score < need && cosine < BEHAVE_CONV_MEANING_REPEAT) {
            continue;
        }

        if (ids) {
            behave_conv_normalize(history[i].text, history[i].text_len,
                                  &tmp);

            if (behave_conv_ids_differ(cur, &tmp)) {
                continue;           /* same shape, another order or plan */
            }
        }

        (*similar)++;

        /* on a tie the earlier turn is named, as it was asked first */
        if (score >= best) {
            best = score;
            best_turn = (int) i;
        }
    }

    if (best_turn < 0
        || !(behave_conv_has_question(cur)
             || (current->cues & BEHAVE_CUE_ASKS)))
    {
        return;
    }

    ack = behave_conv_match(cur, behave_conv_tab(behave_conv_confirm_strong),
                            1, NULL)
          + behave_conv_match(cur, behave_conv_tab(behave_conv_confirm_weak),
                              1, NULL);

    /* "Thanks. And how much is...": the answer landed, this is new */
    if (ack && !reask) {
        return;
    }

    out->repetition = 1;
    out->repeated_turn = (int) out->first_turn + best_turn;
    out->repetition_similarity = best;
}


/*
 * Severity of the last BEHAVE_CONV_ESC_WINDOW customer turns; see the
 * header for the rule.  *from and *turns describe the rise for the reason.
 */

/*
 * How far valence fell, in thousandths: stored turns keep three decimals,
 * and in doubles 0.5 - 0.4 is 0.09999999999999998, short of a 0.1 step.
 */

static long
behave_conv_fall(double from, double to)
{
    return lround((from - to) * 1000.0);
}


static void
behave_conv_escalation(const behave_turn_t *history, size_t n,
    const behave_turn_t *current, unsigned reasks, behave_conv_result_t *out,
    int *from, int *turns)
{
    int     sev[BEHAVE_CONV_ESC_WINDOW], m, total, cur, base, high, k;
    double  val[BEHAVE_CONV_ESC_WINDOW];
    size_t  i;

    cur = current->severity;
    m = 0;
    total = 1;
    out->peak_severity = cur;

    for (i = n; i > 0; i--) {
        if (history[i - 1].speaker != BEHAVE_SPEAKER_CUSTOMER) {
            continue;
        }

        total++;

        if (history[i - 1].severity > out->peak_severity) {
            out->peak_severity = history[i - 1].severity;
        }

        if (m < BEHAVE_CONV_ESC_WINDOW - 1) {
            val[m] = history[i - 1].valence_score;
            sev[m++] = history[i - 1].severity;
        }
    }

    *from = 0;
    *turns = m + 1;

    if (total < 3 || cur < 3 || m == 0) {
        return;
    }

    base = sev[0];
    high = sev[0];

    for (k = 1; k < m; k++) {
        base = sev[k] < base ? sev[k] : base;
        high = sev[k] > high ? sev[k] : high;
    }

    *from = base;

    /*
     * Two levels above the calmest, and not out of a clear sky: an earlier
     * turn was already negative, or the customer keeps asking the same
     * thing (a third ask is friction even when worded calmly).
     */
    out->escalating = cur >= base + 2 && (high >= 1 || reasks >= 2);

    /*
     * Or a new peak of a distress that was already there: at least as
     * high as every turn of the window, above its calmest, from 3 up.
     */
    if (!out->escalating && cur >= 3 && cur >= high && cur > base
        && high >= 2)
    {
        out->escalating = 1;
    }

    /*
     * Or a steady slide: valence fell at each of the last three customer
     * turns, by 0.35 or more in all, ending at severity 3+.
     */
    if (!out->escalating && m >= 2
        && behave_conv_fall(val[1], val[0]) >= 100
        && behave_conv_fall(val[0], current->valence_score) >= 100
        && behave_conv_fall(val[1], current->valence_score) >= 350)
    {
        out->escalating = 1;
        *from = sev[1] < sev[0] ? sev[1] : sev[0];
    }
}


static void
behave_conv_recommend(const behave_turn_t *current,
    const behave_conv_norm_t *cur, behave_conv_result_t *out, int esc_from,
    int esc_turns)
{
    char                        *r;
    size_t                       rl;
    unsigned                     over, conf, vague;
    const behave_conv_phrase_t  *first;

    r = out->reason;
    rl = sizeof(out->reason);

    if (current->severity >= 4 || current->urgency == BEHAVE_URGENCY_CRITICAL
        || (current->cues & BEHAVE_CUE_CRISIS))
    {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "customer turn %d signals a crisis or critical "
                 "urgency", (int) out->prior_turns);
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_CRISIS];
        return;
    }

    if (out->false_resolution) {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "false resolution: %.280s",
                 out->false_resolution_reason);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_FALSE_RESOLUTION];
        return;
    }

    if (out->escalating) {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "the customer is escalating: severity rose from %d "
                 "to %d over the last %d customer turns", esc_from,
                 current->severity, esc_turns);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_ESCALATING];
        return;
    }

    first = NULL;
    if (behave_conv_match(cur, behave_conv_tab(behave_conv_specialist), 1,
                          &first)
        || (current->cues & BEHAVE_CUE_SPECIALIST))
    {
        out->action = BEHAVE_ACTION_ROUTE;
        snprintf(r, rl, "needs a specialist team (%s)",
                 first != NULL ? first->what : "specialist topic");
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_ROUTE];
        return;
    }

    if (current->urgency == BEHAVE_URGENCY_HIGH) {
        out->action = BEHAVE_ACTION_ROUTE;
        snprintf(r, rl, "high urgency: priority queue");
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_ROUTE];
        return;
    }

    first = NULL;
    over = behave_conv_match(cur, behave_conv_tab(behave_conv_overload), 0,
                             &first);

    if (current->load >= BEHAVE_LOAD_HIGH || over) {
        out->action = BEHAVE_ACTION_SIMPLIFY;
        if (first != NULL) {
            snprintf(r, rl, "the customer is overloaded (\"%s\")%s",
                     first->phrase,
                     out->repetition ? " and re-asked the question" : "");
        } else {
            snprintf(r, rl, "cognitive load is %s",
                     behave_load_name(current->load));
        }
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_SIMPLIFY];
        return;
    }

    if (out->repetition) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "customer turn %d asks again what turn %d asked "
                 "(similarity %.2f): the previous answer did not land",
                 (int) out->prior_turns, out->repeated_turn,
                 out->repetition_similarity);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_REPETITION];
        return;
    }

    first = NULL;
    conf = behave_conv_match(cur, behave_conv_tab(behave_conv_confusion), 0,
                             &first);

    if (conf || (current->cues & BEHAVE_CUE_CONFUSION)) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the answer was not understood (\"%s\")",
                 first != NULL ? first->phrase : "confusion");
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    first = NULL;
    vague = behave_conv_match(cur, behave_conv_tab(behave_conv_vague), 0,
                              &first);

    if (vague >= 2) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the ask is unclear (\"%s\")", first->phrase);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    out->action = BEHAVE_ACTION_RESOLVE;
    snprintf(r, rl, "a clear ask that can be answered");
    out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_RESOLVE];
}


static void
behave_conv_review(behave_conv_result_t *out)
{
    if (out->action == BEHAVE_ACTION_HANDOFF && !out->false_resolution
        && !out->degraded)
    {
        out->review_status = BEHAVE_REVIEW_ESCALATED;

    } else if (out->false_resolution || out->repeat_contact_risk
               || out->degraded)
    {
        out->review_status = BEHAVE_REVIEW_NEEDS_REVIEW;

    } else if (out->repetition || out->action != BEHAVE_ACTION_RESOLVE
               || out->peak_severity >= 2)
    {
        out->review_status = BEHAVE_REVIEW_MONITOR;

    } else {
        out->review_status = BEHAVE_REVIEW_OK;
    }
}


static void
behave_conv_assess_customer(const behave_turn_t *history, size_t n,
    const behave_turn_t *current, behave_conv_result_t *out)
{
    int                   esc_from, esc_turns;
    unsigned              similar;
    behave_conv_norm_t    cur;

    behave_conv_normalize(current->text, current->text_len, &cur);

    behave_conv_false_resolution(history, n, &cur, current->cues, out);
    behave_conv_repetition(history, n, current, &cur, out, &similar);
    behave_conv_escalation(history, n, current,
                           out->repetition ? similar : 0, out, &esc_from,
                           &esc_turns);

    out->repeat_contact_risk =
        out->false_resolution
        || (out->repetition && similar >= 2)
        || (current->cues & BEHAVE_CUE_REPEAT_CONTACT)
        || behave_conv_match(&cur,
                             behave_conv_tab(behave_conv_repeat_contact), 0,
                             NULL) > 0
        || behave_conv_past_false_resolution(history, n);

    behave_conv_recommend(current, &cur, out, esc_from, esc_turns);
    behave_conv_review(out);
}


static void
behave_conv_init(behave_conv_result_t *out, size_t n, size_t first)
{
    memset(out, 0, sizeof(*out));
    out->prior_turns = first + n;
    out->first_turn = first;
    out->action = BEHAVE_ACTION_RESOLVE;
    out->review_status = BEHAVE_REVIEW_OK;
    out->claim_turn = -1;
    out->repeated_turn = -1;
    out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_RESOLVE];
}


void
behave_conversation_assess(const behave_turn_t *history, size_t n,
    const behave_turn_t *current, behave_conv_result_t *out)
{
    behave_conversation_assess_at(history, n, 0, current, out);
}


void
behave_conversation_assess_at(const behave_turn_t *history, size_t n,
    size_t first, const behave_turn_t *current, behave_conv_result_t *out)
{
    size_t  k;

    behave_conv_init(out, n, first);

    if (current->speaker == BEHAVE_SPEAKER_CUSTOMER) {
        behave_conv_assess_customer(history, n, current, out);
        return;
    }

    /* an agent turn: echo the state at the latest customer turn */
    for (k = n; k > 0; k--) {
        if (history[k - 1].speaker == BEHAVE_SPEAKER_CUSTOMER) {
            break;
        }
    }

    if (k == 0) {
        snprintf(out->reason, sizeof(out->reason),
                 "no customer turn yet");
        return;
    }

    out->prior_turns = first + k - 1;
    behave_conv_assess_customer(history, k - 1, &history[k - 1], out);

    out->prior_turns = first + n;
    out->false_resolution = 0;
    out->false_resolution_reason[0] = '\0';
    out->claim_turn = -1;
    out->repetition = 0;
    out->repeated_turn = -1;
}


void
behave_conversation_degraded(const char *reason, behave_conv_result_t *out)
{
    behave_conv_init(out, 0, 0);

    out->degraded = 1;
    snprintf(out->degraded_reason, sizeof(out->degraded_reason), "%s",
             reason != NULL && reason[0] ? reason : "context unavailable");

    out->action = BEHAVE_ACTION_HANDOFF;
    snprintf(out->reason, sizeof(out->reason),
             "conversation context unavailable (%.240s)",
             out->degraded_reason);
    out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_DEGRADED];
    out->review_status = BEHAVE_REVIEW_NEEDS_REVIEW;
}


const char *
behave_action_name(behave_action_e a)
{
    static const char  *names[] = { "clarify", "simplify", "resolve",
                                    "route", "handoff" };

    return (unsigned) a < sizeof(names) / sizeof(names[0]) ? names[a]
                                                           : "handoff";
}


const char *
behave_review_name(behave_review_e r)
{
    static const char  *names[] = { "ok", "monitor", "needs_review",
                                    "escalated" };

    return (unsigned) r < sizeof(names) / sizeof(names[0]) ? names[r]
                                                           : "needs_review";
}


static void
behave_conv_write_bool(behave_jw_t *w, int v)
{
    if (v) {
        behave_jw_literal(w, "true");
    } else {
        behave_jw_literal(w, "false");
    }
}


/* the block of spec 2.4, keys written as literals (hot path) */
void
behave_conversation_write(behave_jw_t *w, const behave_conv_result_t *r,
    const char *conversation_id, int redacted)
{
    behave_jw_open(w, "conversation");

    behave_jw_literal(w, "\"conversation_id\":");
    behave_jw_value_string(w, conversation_id != NULL ? conversation_id : "");

    if (redacted) {
        behave_jw_literal(w, ",\"storage_mode\":\"redacted\"");
    } else {
        behave_jw_literal(w, ",\"storage_mode\":\"full\"");
    }

    behave_jw_literal(w, ",\"prior_turns\":");
    behave_jw_value_number(w, (double) r->prior_turns);

    behave_jw_literal(w, ",\"failure_flags\":{\"false_resolution\":");
    behave_conv_write_bool(w, r->false_resolution);
    behave_jw_literal(w, ",\"false_resolution_reason\":");
    behave_jw_value_string(w, r->false_resolution_reason);
    behave_jw_literal(w, ",\"repeat_contact_risk\":");
    behave_conv_write_bool(w, r->repeat_contact_risk);

    behave_jw_literal(w, "},\"derived\":{\"repetition\":");
    behave_conv_write_bool(w, r->repetition);
    behave_jw_literal(w, ",\"repetition_similarity\":");
    behave_jw_value_fixed3(w, r->repetition_similarity);
    behave_jw_literal(w, ",\"escalating\":");
    behave_conv_write_bool(w, r->escalating);
    behave_jw_literal(w, ",\"peak_severity\":");
    behave_jw_value_number(w, (double) r->peak_severity);

    behave_jw_literal(w, "},\"recommendation\":{\"action\":");
    behave_jw_value_string(w, behave_action_name(r->action));
    behave_jw_literal(w, ",\"reason\":");
    behave_jw_value_string(w, r->reason);
    behave_jw_literal(w, ",\"safe_response_guidance\":");
    behave_jw_value_string(w, r->safe_response_guidance != NULL
                              ? r->safe_response_guidance : "");

    behave_jw_literal(w, "},\"review_status\":");
    behave_jw_value_string(w, behave_review_name(r->review_status));
    behave_jw_literal(w, ",\"degraded\":");
    behave_conv_write_bool(w, r->degraded);

    if (r->degraded) {
        behave_jw_literal(w, ",\"degraded_reason\":");
        behave_jw_value_string(w, r->degraded_reason);
    }

    behave_jw_member_done(w);
    behave_jw_close(w);
}


/* a turn of this conversation, as the log stores it and assess reads it */

void
behave_turn_from_annotation(behave_turn_t *t, behave_speaker_e speaker,
    const char *text, size_t len, const behave_annotation_t *a,
    uint64_t ts_ms)
{
    t->speaker = speaker;
    t->text = text;
    t->text_len = len;
    t->valence_score = a->scores.valence;
    t->valence = a->valence;
    t->urgency = a->urgency;
    t->load = a->cognitive_load;
    t->cues = a->cues;
    t->severity = behave_conversation_severity(a, text, len);
    t->ts_ms = ts_ms;
    t->has_meaning = 1;
    memcpy(t->meaning, a->meaning, sizeof(t->meaning));
}
