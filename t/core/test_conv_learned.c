/*
 * The learned turn classifiers (behave_conv_learned.h): the tables of
 * learned/turns.tsv are compiled in, a turn's features are the same on
 * every call and grow with its length only, each classifier tells the
 * plain cases of its classes apart in more than one language, and the
 * hook in the record follows its contract: the phrases decide, the
 * model adds what they miss at p >= add and drops a denial at p < veto.
 */

#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"
#include "conversation/behave_conv_claims.h"
#include "conversation/behave_conv_learned.h"
#include "conversation/behave_conv_learned_data.h"


typedef struct {
    const char  *text;
    int          cls;
} case_t;


static behave_conv_norm_t  norm;


static void
count_feature(void *ctx, uint32_t hash)
{
    uint32_t  *sum;

    sum = ctx;
    sum[0]++;
    sum[1] ^= hash;
}


static int
argmax(const double *p)
{
    int  k, best;

    best = 0;

    for (k = 1; k < BEHAVE_CONV_LEARNED_CLASSES; k++) {
        if (p[k] > p[best]) {
            best = k;
        }
    }

    return best;
}


static void
check_features(void)
{
    char         text[2048];
    size_t       n1, n2, n4;
    uint32_t     a[2], b[2];
    const char  *s = "the refund has gone through, sorry for the wait. ";

    behave_conv_normalize(s, strlen(s), &norm);
    memset(a, 0, sizeof(a));
    memset(b, 0, sizeof(b));
    n1 = behave_conv_features(&norm, count_feature, a);
    behave_conv_features(&norm, count_feature, b);

    ok(n1 > 0 && n1 == a[0], "features: %zu, each given to the callback",
       n1);
    ok(a[0] == b[0] && a[1] == b[1], "the same features on every call");

    snprintf(text, sizeof(text), "%s%s", s, s);
    behave_conv_normalize(text, strlen(text), &norm);
    n2 = behave_conv_features(&norm, count_feature, a);

    snprintf(text, sizeof(text), "%s%s%s%s", s, s, s, s);
    behave_conv_normalize(text, strlen(text), &norm);
    n4 = behave_conv_features(&norm, count_feature, a);

    /* words, pairs and 4-grams: linear in the length, nothing more */
    ok(n2 <= 2 * n1 + 2 && n4 <= 4 * n1 + 4,
       "features grow with the text only (%zu, %zu, %zu)", n1, n2, n4);

    behave_conv_normalize("", 0, &norm);
    ok(behave_conv_features(&norm, count_feature, a) == 0,
       "an empty turn has no feature");
}


static void
check_cases(const char *who, const case_t *c, size_t n,
    void (*classify)(const behave_conv_norm_t *, double *),
    const char *const *names)
{
    size_t  i;
    double  p[BEHAVE_CONV_LEARNED_CLASSES], sum;

    for (i = 0; i < n; i++) {
        behave_conv_normalize(c[i].text, strlen(c[i].text), &norm);
        classify(&norm, p);
        sum = p[0] + p[1] + p[2] + p[3];

        ok(argmax(p) == c[i].cls && sum > 0.999 && sum < 1.001,
           "%s: %s (%.3f): \"%s\"", who, names[c[i].cls], p[c[i].cls],
           c[i].text);
    }
}


static void
check_classifiers(void)
{
    static const char *const  agent_names[] = { "claim", "promise",
                                                "question", "other" };
    static const char *const  reply_names[] = { "denial", "confirmation",
                                                "new ask", "other" };
    static const case_t  agent[] = {
        { "I've refunded the charge, it's all sorted now.",
          BEHAVE_AGENT_CLAIM },
        { "Can you tell me your order number?", BEHAVE_AGENT_QUESTION },
        { "Could you send us the name on the booking, please?",
          BEHAVE_AGENT_QUESTION },
        { "Have you tried restarting the router?", BEHAVE_AGENT_QUESTION },
    };
    static const case_t  reply[] = {
        { "It's still not working, nothing has changed.",
          BEHAVE_REPLY_DENIAL },
        { "Sigue sin funcionar, nada ha cambiado.", BEHAVE_REPLY_DENIAL },
        { "Just tried again, same error every single time.",
          BEHAVE_REPLY_DENIAL },
        { "Thanks, that worked perfectly!", BEHAVE_REPLY_CONFIRMATION },
        { "Great, thanks! Another thing: how do I change my address?",
          BEHAVE_REPLY_NEW_ASK },
    };

    ok(behave_conv_learned_ready(), "the classifiers' tables are compiled in"
       " (agent %u bits, reply %u bits)",
       behave_conv_learned_agent_model.bits,
       behave_conv_learned_reply_model.bits);

    check_cases("agent", agent, sizeof(agent) / sizeof(agent[0]),
                behave_conv_learned_agent, agent_names);
    check_cases("reply", reply, sizeof(reply) / sizeof(reply[0]),
                behave_conv_learned_reply, reply_names);
}


/* the hook on a record the phrases filled: the contract, turn by turn */
static void
check_adjust(void)
{
    size_t                    i, bad;
    double                    p[BEHAVE_CONV_LEARNED_CLASSES];
    unsigned                  before, want;
    behave_conv_rec_t         rec;
    behave_annotation_t       a;
    const behave_conv_learned_model_t  *am, *rm;
    static const char *const  agent[] = {
        "I've regenerated the barcode, so it'll scan now.",
        "Your account is unlocked now. Anything else?",
        "We'll look into it and get back to you.",
        "Which device are you using?",
        "Done! The new address is on file and the parcel is on its way.",
    };
    static const char *const  reply[] = {
        "still won't scan at the till",
        "Thanks, that's done it.",
        "ok, and can I also add my partner to the account?",
        "no entiendo nada, ¿qué tengo que hacer?",
        "Nope, same as before, the charge is still there.",
    };

    am = &behave_conv_learned_agent_model;
    rm = &behave_conv_learned_reply_model;
    bad = 0;

    for (i = 0; i < sizeof(agent) / sizeof(agent[0]); i++) {
        behave_annotate(agent[i], strlen(agent[i]), &a);
        behave_conv_normalize(agent[i], strlen(agent[i]), &norm);
        memset(&rec, 0, sizeof(rec));
        rec.claim = before = behave_conv_claim(&norm, a.cues);
        behave_conv_learned_agent(&norm, p);
        behave_conv_learned_adjust(&norm, &rec);

        want = before == 0 ? (am->add < 1.0 && p[0] >= am->add
                              ? BEHAVE_CONV_CLAIM_CUE : 0)
               : p[0] < am->veto ? 0 : before;
        bad += rec.claim != want;
    }

    is_int(bad, 0, "agent turns: a claim is the phrases' unless the model "
           "adds one at p >= %.2f or drops one at p < %.2f", am->add,
           am->veto);

    bad = 0;

    for (i = 0; i < sizeof(reply) / sizeof(reply[0]); i++) {
        behave_conv_normalize(reply[i], strlen(reply[i]), &norm);
        memset(&rec, 0, sizeof(rec));
        rec.customer = 1;
        rec.flags = i % 2 ? BEHAVE_CONV_F_DENIES : 0;
        before = rec.flags;
        rec.confusion = i == 3;
        behave_conv_learned_reply(&norm, p);
        behave_conv_learned_adjust(&norm, &rec);

        want = before ? (p[0] < rm->veto ? 0 : before)
               : (rm->add < 1.0 && p[0] >= rm->add && !rec.confusion
                  ? BEHAVE_CONV_F_DENIES : 0);
        bad += (rec.flags & BEHAVE_CONV_F_DENIES) != want;
    }

    is_int(bad, 0, "customer turns: a denial is the phrases' unless the "
           "model adds one at p >= %.2f (not when the answer was lost) or "
           "drops one at p < %.2f", rm->add, rm->veto);
}


/* a claim only the model sees, denied: a false resolution, end to end */
static void
check_fold(void)
{
    double                p[BEHAVE_CONV_LEARNED_CLASSES];
    behave_turn_t         tv[3];
    behave_annotation_t   a[3];
    behave_conv_result_t  r;
    static const char    *text[] = {
        "my loyalty card won't scan at the till",
        "I've regenerated the barcode, so it'll scan now.",
        "nope, still won't scan, same error at the till",
    };
    size_t                i;

    for (i = 0; i < 3; i++) {
        behave_annotate(text[i], strlen(text[i]), &a[i]);
        behave_turn_from_annotation(&tv[i], i == 1 ? BEHAVE_SPEAKER_AGENT
                                                   : BEHAVE_SPEAKER_CUSTOMER,
                                    text[i], strlen(text[i]), &a[i],
                                    i * 1000);
    }

    behave_conv_normalize(text[1], strlen(text[1]), &norm);
    behave_conv_learned_agent(&norm, p);

    behave_conversation_assess(tv, 2, &tv[2], &r);

    ok(r.false_resolution == (behave_conv_claim(&norm, a[1].cues) != 0
                              || (behave_conv_learned_agent_model.add < 1.0
                                  && p[0]
                                     >= behave_conv_learned_agent_model.add)),
       "the fold's false resolution follows the claim it was given "
       "(p(claim) %.3f, found %d)", p[0], r.false_resolution);
}


int
main(void)
{
    check_features();
    check_classifiers();
    check_adjust();
    check_fold();

    return tap_done();
}
