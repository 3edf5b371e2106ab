/*
 * The conversation findings and the action, per finding and language,
 * from the phrase files themselves (the .tsv files of
 * src/core/conversation/phrases/, each phrase with its languages): every
 * phrase of a table, in a short conversation built around it, must
 * carry its finding, and the action must follow labels.md's order
 * (behave_conv_action.h): handoff for a crisis, a false resolution or an
 * escalation whatever else the turn says; simplify on high load; clarify
 * when the ask is unclear or the answer was not understood (asked again
 * after an answer); route for a team; resolve otherwise.
 *
 * The annotation numbers are set by hand (neutral, calm, low load), so
 * that only the phrase decides; one line a finding and language, naming
 * the phrases that fail.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "testdata.h"
#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"


#define C  BEHAVE_SPEAKER_CUSTOMER
#define A  BEHAVE_SPEAKER_AGENT

#define PHRASES_MAX  512
#define TEXT_MAX     512
#define SHOWN        4


typedef struct {
    char        *phrase;
    char        *what;
    unsigned     langs;         /* bit k: lang_names[k] */
} phrase_t;

typedef struct {
    const char  *name;
    phrase_t     p[PHRASES_MAX];
    size_t       n;
} table_t;


static const char  *lang_names[] = { "en", "es", "pt", "fr", "de" };

#define NLANGS  (sizeof(lang_names) / sizeof(lang_names[0]))


static behave_turn_t         tv[8];
static char                  texts[8][TEXT_MAX];
static behave_conv_result_t  r;


/* one phrase file: phrase, languages, what; comments and directives out */
static int
load(table_t *t, const char *name)
{
    char    rel[256], path[PATH_MAX + 256], *buf, *line, *next, *col[3];
    size_t  len, k, n;

    t->name = name;
    t->n = 0;

    snprintf(rel, sizeof(rel), "src/core/conversation/phrases/%s.tsv", name);
    if (testdata_repo_path(path, sizeof(path), rel) != 0) {
        return -1;
    }

    buf = behave_read_file(path, &len);
    if (buf == NULL) {
        return -1;
    }

    for (line = buf; line != NULL && *line != '\0'; line = next) {
        next = strchr(line, '\n');
        if (next != NULL) {
            *next++ = '\0';
        }

        if (line[0] == '#' || line[0] == '%' || line[0] == '\0') {
            continue;
        }

        n = 0;
        col[0] = line;
        col[1] = col[2] = NULL;

        for (k = 0; line[k] != '\0' && n < 2; k++) {
            if (line[k] == '\t') {
                line[k] = '\0';
                col[++n] = line + k + 1;
            }
        }

        if (col[1] == NULL || t->n == PHRASES_MAX) {
            continue;
        }

        /* a quoted entry keeps its spaces */
        if (col[0][0] == '"') {
            col[0]++;
            col[0][strlen(col[0]) - 1] = '\0';
        }

        t->p[t->n].phrase = col[0];
        t->p[t->n].what = col[2];
        t->p[t->n].langs = 0;

        for (k = 0; k < NLANGS; k++) {
            if (strstr(col[1], lang_names[k]) != NULL) {
                t->p[t->n].langs |= 1u << k;
            }
        }

        t->n++;
    }

    return 0;       /* buf stays: the phrases point into it */
}


/* a turn of hand-set numbers: neutral, calm, low load */
static void
turn(int i, behave_speaker_e who, const char *fmt, const char *a,
    const char *b)
{
    behave_turn_t  *t;

    snprintf(texts[i], TEXT_MAX, fmt, a, b);

    t = &tv[i];
    memset(t, 0, sizeof(*t));
    t->speaker = who;
    t->text = texts[i];
    t->text_len = strlen(texts[i]);
    t->valence = BEHAVE_VALENCE_NEUTRAL;
    t->urgency = BEHAVE_URGENCY_LOW;
    t->load = BEHAVE_LOAD_LOW;
    t->ts_ms = (uint64_t) i;
}


static void
assess(int current)
{
    behave_conversation_assess(tv, (size_t) current, &tv[current], &r);
}


/* the first phrase of t in language k, or NULL */
static const char *
first(const table_t *t, size_t k)
{
    size_t  i;

    for (i = 0; i < t->n; i++) {
        if (t->p[i].langs & (1u << k)) {
            return t->p[i].phrase;
        }
    }

    return NULL;
}


/*
 * A case: builds a conversation around phrase p (and its partner q, a
 * phrase of another table in the same language) and says whether it
 * holds
 */
typedef int (*case_f)(const char *p, const char *q, const char *what);


/*
 * Every phrase of t in each language through check, with partner: the
 * first phrase of that language in partner (NULL: none needed); one line
 * a language, the failures shown
 */
static void
each_lang(const char *finding, const table_t *t, const table_t *partner,
    case_f check)
{
    size_t       i, k, n, bad, shown;
    const char  *q;

    for (k = 0; k < NLANGS; k++) {
        q = partner != NULL ? first(partner, k) : NULL;
        n = 0;
        bad = 0;
        shown = 0;

        if (partner != NULL && q == NULL) {
            continue;
        }

        for (i = 0; i < t->n; i++) {
            if (!(t->p[i].langs & (1u << k))) {
                continue;
            }

            n++;

            if (check(t->p[i].phrase, q, t->p[i].what)) {
                continue;
            }

            bad++;

            if (shown++ < SHOWN) {
                printf("#   %s, %s: \"%s\"%s%s%s: %s (%s)\n", finding,
                       lang_names[k], t->p[i].phrase,
                       q != NULL ? " with \"" : "", q != NULL ? q : "",
                       q != NULL ? "\"" : "", behave_action_name(r.action),
                       r.reason);
            }
        }

        if (n == 0) {
            continue;
        }

        ok(bad == 0, "%s, %s: %zu of %zu phrases of %s.tsv", finding,
           lang_names[k], n - bad, n, t->name);
    }
}


/* --- false resolution: a claim, then a denial --- */

/* the agent's claim, then the customer's reply */
static void
claim_then(const char *claim, const char *reply)
{
    turn(0, C, "%s%s", "Hi, about my order.", "");
    turn(1, A, "%s.%s", claim, "");
    turn(2, C, "%s.%s", reply, "");
    assess(2);
}

/* the claim p, then denial q */
static int
claim_denied(const char *p, const char *q, const char *what)
{
    claim_then(p, q);

    return r.false_resolution && r.action == BEHAVE_ACTION_HANDOFF
           && r.review_status == BEHAVE_REVIEW_NEEDS_REVIEW;
}

/* the claim q, then denial p */
static int
denied(const char *p, const char *q, const char *what)
{
    return claim_denied(q, p, what);
}

/* the claim q, then confirmation p: no false resolution */
static int
confirmed(const char *p, const char *q, const char *what)
{
    claim_then(q, p);

    return !r.false_resolution && r.action != BEHAVE_ACTION_HANDOFF;
}


/* --- repetition: asked again after an answer, or before one --- */

/* ask q, an answer, then p: the answer did not land */
static int
reasked(const char *p, const char *q, const char *what)
{
    turn(0, C, "%s ...?%s", q, "");
    turn(1, A, "%s%s", "Hm.", "");
    turn(2, C, "%s?%s", p, "");
    assess(2);

    return r.repetition && r.repeated_turn == 0
           && r.action == BEHAVE_ACTION_CLARIFY;
}

/* ask q, then p in the next message: nothing was answered yet */
static int
reasked_unanswered(const char *p, const char *q, const char *what)
{
    turn(0, C, "%s ...?%s", q, "");
    turn(1, C, "%s?%s", p, "");
    assess(1);

    return r.repetition && r.action == BEHAVE_ACTION_RESOLVE;
}


/* --- clarify, simplify, route: one phrase after an answer --- */

/* a question, an answer, then the customer's turn of fmt with p and q */
static void
answered(const char *fmt, const char *p, const char *q)
{
    turn(0, C, "%s%s", "How do I change the address on my account?", "");
    turn(1, A, "%s%s", "Hm.", "");
    turn(2, C, fmt, p, q);
}

static int
after_answer(const char *p, behave_action_e want)
{
    answered("%s.%s", p, "");
    assess(2);

    return r.action == want;
}

static int
not_understood(const char *p, const char *q, const char *what)
{
    return after_answer(p, BEHAVE_ACTION_CLARIFY);
}

static int
overloaded(const char *p, const char *q, const char *what)
{
    return after_answer(p, BEHAVE_ACTION_SIMPLIFY);
}

/* a first message: the team is named in the reason */
static int
routed(const char *p, const char *q, const char *what)
{
    turn(0, C, "%s.%s", p, "");
    assess(0);

    return r.action == BEHAVE_ACTION_ROUTE && what != NULL
           && strstr(r.reason, what) != NULL;
}

/* high urgency with the reason it cannot wait: the priority queue */
static int
prioritised(const char *p, const char *q, const char *what)
{
    turn(0, C, "%s%s", "The payment page keeps failing, ", p);
    tv[0].urgency = BEHAVE_URGENCY_HIGH;
    assess(0);

    return r.action == BEHAVE_ACTION_ROUTE
           && strstr(r.reason, "priority queue") != NULL;
}

/* a short first message that says what is wrong in no words of its own */
static int
unclear_first(const char *p, const char *q, const char *what)
{
    turn(0, C, "%s.%s", p, "");
    assess(0);

    return r.action == BEHAVE_ACTION_CLARIFY;
}

static int
repeat_contact(const char *p, const char *q, const char *what)
{
    turn(0, C, "%s.%s", p, "");
    assess(0);

    return r.repeat_contact_risk;
}


/* --- escalation: anger after unhappy turns --- */

static int
angry(const char *p, const char *q, const char *what)
{
    turn(0, C, "%s%s", "Hi, about my order.", "");
    tv[0].severity = 1;
    turn(1, A, "%s%s", "Hm.", "");
    turn(2, C, "%s%s", "Any news?", "");
    tv[2].severity = 1;
    turn(3, A, "%s%s", "Hm.", "");
    turn(4, C, "%s.%s", p, "");
    tv[4].severity = 1;
    assess(4);

    return r.escalating && r.action == BEHAVE_ACTION_HANDOFF;
}


/* --- the order: two findings at once, the first in order wins --- */

/*
 * a question, then p and q in one customer turn, in a crisis or not:
 * the action
 */
static behave_action_e
two_findings(const char *p, const char *q, int crisis)
{
    answered("%s. %s.", p, q);
    if (crisis) {
        tv[2].urgency = BEHAVE_URGENCY_CRITICAL;
        tv[2].severity = 4;
    }
    assess(2);

    return r.action;
}

/* overloaded (p) and naming a team (q): simplify before route */
static int
simplify_before_route(const char *p, const char *q, const char *what)
{
    return two_findings(p, q, 0) == BEHAVE_ACTION_SIMPLIFY;
}

/* not understood (p) and naming a team (q): clarify before route */
static int
clarify_before_route(const char *p, const char *q, const char *what)
{
    return two_findings(p, q, 0) == BEHAVE_ACTION_CLARIFY;
}

/* asked again (p) after an answer, naming a team (q) */
static int
reask_before_route(const char *p, const char *q, const char *what)
{
    turn(0, C, "%s ...?%s", "How do I change the address on my account", "");
    turn(1, A, "%s%s", "Hm.", "");
    turn(2, C, "%s? %s.", p, q);
    assess(2);

    return r.action == BEHAVE_ACTION_CLARIFY;
}

/* overloaded (p), but in a crisis: handoff whatever else */
static int
crisis_before_all(const char *p, const char *q, const char *what)
{
    return two_findings(p, q, 1) == BEHAVE_ACTION_HANDOFF;
}

/* a claim denied (p), overloaded too (q): handoff */
static int
false_resolution_before_simplify(const char *p, const char *q,
    const char *what)
{
    turn(0, C, "%s%s", "Hi, about my order.", "");
    turn(1, A, "%s%s", "It was processed.", "");
    turn(2, C, "%s. %s.", p, q);
    assess(2);

    return r.false_resolution && r.action == BEHAVE_ACTION_HANDOFF;
}


static void
test_order_by_numbers(void)
{
    turn(0, C, "%s%s", "How do I change the address on my account?", "");
    turn(1, A, "%s%s", "Hm.", "");

    turn(2, C, "%s%s", "I need this sorted today.", "");
    tv[2].urgency = BEHAVE_URGENCY_HIGH;
    assess(2);
    is_int(r.action, BEHAVE_ACTION_ROUTE, "high urgency and today: route");

    /* the annotator's high urgency on a calm report of a fault: the
     * customer gives no reason it cannot wait, the ask is answered */
    turn(2, C, "%s%s", "My promo code isn't applying at checkout.", "");
    tv[2].urgency = BEHAVE_URGENCY_HIGH;
    assess(2);
    is_int(r.action, BEHAVE_ACTION_RESOLVE,
           "high urgency, nothing at stake said: resolve");

    turn(2, C, "%s%s", "I need this sorted today.", "");
    tv[2].urgency = BEHAVE_URGENCY_HIGH;

    tv[2].load = BEHAVE_LOAD_HIGH;
    assess(2);
    is_int(r.action, BEHAVE_ACTION_SIMPLIFY,
           "high urgency and high load: simplify before route");

    tv[2].urgency = BEHAVE_URGENCY_CRITICAL;
    assess(2);
    is_int(r.action, BEHAVE_ACTION_HANDOFF,
           "critical urgency and high load: handoff");

    /* a greeting asked nothing: naming a team after it is no re-ask */
    turn(0, C, "%s%s", "Hello.", "");
    turn(1, A, "%s%s", "Hi.", "");
    turn(2, C, "%s%s", "I'd like to make a formal complaint. Who handles "
         "that?", "");
    assess(2);
    ok(!r.repetition, "a greeting is not asked again");
    is_int(r.action, BEHAVE_ACTION_ROUTE, "a complaint after hello: route");
}


int
main(void)
{
    size_t    i;
    table_t  *t;
    static table_t  tabs[14];
    static const char  *names[] = {
        "claims", "claims_more", "not_resolved", "confirm_strong",
        "reask_strong", "yes_but", "confusion", "overload", "specialist",
        "anger", "vague_ref", "interrogative", "repeat_contact",
        "priority",
    };

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (load(&tabs[i], names[i]) != 0) {
            printf("Bail out! %s.tsv not found\n", names[i]);
            return 1;
        }
    }

#define TAB(k)  (&tabs[k])

    t = TAB(0);
    each_lang("claim then denial: false resolution, handoff", t, TAB(2),
              claim_denied);
    each_lang("claim then denial: false resolution, handoff", TAB(1),
              TAB(2), claim_denied);
    each_lang("denial after a claim: false resolution, handoff", TAB(2),
              TAB(0), denied);
    each_lang("confirmed after a claim: no false resolution", TAB(3),
              TAB(0), confirmed);

    each_lang("asked again after an answer: repetition, clarify", TAB(4),
              TAB(11), reasked);
    each_lang("asked again after an answer: repetition, clarify", TAB(5),
              TAB(11), reasked);
    each_lang("asked again before any answer: repetition, resolve",
              TAB(4), TAB(11), reasked_unanswered);

    each_lang("not understood: clarify", TAB(6), NULL, not_understood);
    each_lang("unclear first message: clarify", TAB(10), NULL,
              unclear_first);
    each_lang("overloaded: simplify", TAB(7), NULL, overloaded);
    each_lang("a team named: route", TAB(8), NULL, routed);
    each_lang("anger after unhappy turns: escalating, handoff", TAB(9),
              NULL, angry);
    each_lang("repeat contact: risk", TAB(12), NULL, repeat_contact);
    each_lang("high urgency and a reason it cannot wait: route", TAB(13),
              NULL, prioritised);

    each_lang("overloaded and a team: simplify before route", TAB(7),
              TAB(8), simplify_before_route);
    each_lang("not understood and a team: clarify before route", TAB(6),
              TAB(8), clarify_before_route);
    each_lang("asked again and a team: clarify before route", TAB(4),
              TAB(8), reask_before_route);
    each_lang("overloaded in a crisis: handoff", TAB(7), TAB(8),
              crisis_before_all);
    each_lang("a denial and overloaded: handoff", TAB(2), TAB(7),
              false_resolution_before_simplify);

    test_order_by_numbers();

    return tap_done();
}
