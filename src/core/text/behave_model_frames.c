/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The trained layer's crisis frames (see the table's comment).
 */

#include <string.h>
#include "text/behave_model_int.h"


/*
 * Crisis frames, written to the definitions of labels.md (who is at risk,
 * what is happening, by what means or by when), over the concepts of one
 * clause.  A frame holds when the clause has every concept of "all", at
 * least one of "any" (when set) and none of "none"; a clause that tells a
 * story, asks "what if", asks about a policy or jokes ("dying of hunger",
 * "lol") holds none.  A frame that holds makes the message critical
 * whatever the weights say, and is a feature the weights were trained
 * with.
 */
const behave_frame_t  behave_frames[] = {

    { "suicide", BEHAVE_C_SUICIDE, 0, BEHAVE_C_NEG, 0 },

    { "want_to_die", BEHAVE_C_SELF | BEHAVE_C_DIE,
      BEHAVE_C_WANT | BEHAVE_C_END | BEHAVE_C_MEANS | BEHAVE_C_BETTER,
      BEHAVE_C_NEG, BEHAVE_FRAME_SPLIT },

    { "not_live", BEHAVE_C_SELF | BEHAVE_C_LIVE | BEHAVE_C_NEG,
      BEHAVE_C_WANT | BEHAVE_C_ANYMORE | BEHAVE_C_CANT, 0, BEHAVE_FRAME_SPLIT },

    /* not "now" alone: "I need my pills delivered now" is an errand */
    { "means", BEHAVE_C_SELF | BEHAVE_C_MEANS,
      BEHAVE_C_END | BEHAVE_C_DIE | BEHAVE_C_ANYMORE
      | BEHAVE_C_FAREWELL | BEHAVE_C_HARM, BEHAVE_C_NEG, BEHAVE_FRAME_SPLIT },

    { "self_harm", BEHAVE_C_SELF | BEHAVE_C_HARM,
      BEHAVE_C_MEANS | BEHAVE_C_ANYMORE | BEHAVE_C_CANT, 0, BEHAVE_FRAME_SPLIT },

    /* "end my life", "acabar con mi vida", "meinem Leben ein Ende setzen";
     * not "my battery life is ending" */
    { "end_life", BEHAVE_C_SELF | BEHAVE_C_ENDLIFE, 0,
      BEHAVE_C_NEG | BEHAVE_C_HYPERBOLE, BEHAVE_FRAME_SPLIT },

    { "burden", BEHAVE_C_SELF | BEHAVE_C_BURDEN,
      BEHAVE_C_BETTER | BEHAVE_C_END | BEHAVE_C_ANYMORE, 0, 0 },

    { "medical", BEHAVE_C_SYMPTOM,
      BEHAVE_C_RESCUE | BEHAVE_C_NOW | BEHAVE_C_BREATH | BEHAVE_C_NEG, 0, BEHAVE_FRAME_SPLIT },

    /* "cant breathe. peanuts. help" */
    { "breathing", BEHAVE_C_BREATH,
      BEHAVE_C_CHILD | BEHAVE_C_ELDER | BEHAVE_C_PARTNER | BEHAVE_C_RESCUE
      | BEHAVE_C_SWALLOW | BEHAVE_C_HELP | BEHAVE_C_NOW, 0, BEHAVE_FRAME_SPLIT },

    /* "my son won't wake up", "mi marido no despierta"; not "I don't want
     * to wake the baby" */
    { "not_waking", BEHAVE_C_WAKE | BEHAVE_C_NEG,
      BEHAVE_C_CHILD | BEHAVE_C_ELDER | BEHAVE_C_PARTNER | BEHAVE_C_RESCUE
      | BEHAVE_C_BREATH | BEHAVE_C_SYMPTOM, BEHAVE_C_WANT,
      BEHAVE_FRAME_SPLIT },

    { "child", BEHAVE_C_CHILD,
      BEHAVE_C_SWALLOW | BEHAVE_C_MISSING | BEHAVE_C_SYMPTOM, 0, BEHAVE_FRAME_SPLIT },

    { "lifeline", BEHAVE_C_LIFELINE, BEHAVE_C_POWER | BEHAVE_C_FAIL, 0, 0 },

    /* not "kill": "my husband will kill me when he sees the bill" */
    { "abuse", BEHAVE_C_PARTNER,
      BEHAVE_C_HITS | BEHAVE_C_THREAT | BEHAVE_C_WEAPON, BEHAVE_C_NEG, BEHAVE_FRAME_SPLIT },

    { "stalking", BEHAVE_C_FOLLOW,
      BEHAVE_C_FEAR | BEHAVE_C_THREAT | BEHAVE_C_KILL | BEHAVE_C_WEAPON
      | BEHAVE_C_HITS, BEHAVE_C_NEG, 0 },

    { "weapon", BEHAVE_C_WEAPON,
      BEHAVE_C_PLACE | BEHAVE_C_COMING | BEHAVE_C_KILL | BEHAVE_C_THREAT,
      BEHAVE_C_ACCOUNT, BEHAVE_FRAME_IF },

    { "threat", BEHAVE_C_KILL, BEHAVE_C_PLACE | BEHAVE_C_COMING,
      BEHAVE_C_NEG, BEHAVE_FRAME_IF },

    { "takeover", BEHAVE_C_ACCOUNT | BEHAVE_C_CHANGED,
      BEHAVE_C_SOMEONE | BEHAVE_C_FRAUD, 0, BEHAVE_FRAME_SPLIT },

    { "money_leaving", BEHAVE_C_MONEYOUT | BEHAVE_C_NOW,
      BEHAVE_C_FRAUD | BEHAVE_C_SOMEONE, 0, BEHAVE_FRAME_SPLIT },

    { "caller", BEHAVE_C_CALLER | BEHAVE_C_GIFTCARD,
      BEHAVE_C_MONEY | BEHAVE_C_MONEYOUT, 0, 0 },

    { "vehicle", BEHAVE_C_VEHICLE,
      BEHAVE_C_FIRE | BEHAVE_C_FAIL | BEHAVE_C_SYMPTOM, 0, 0 },

    { "fire", BEHAVE_C_FIRE,
      BEHAVE_C_CHILD | BEHAVE_C_ELDER | BEHAVE_C_SYMPTOM | BEHAVE_C_RESCUE
      | BEHAVE_C_BREATH, BEHAVE_C_NEG, 0 },

    { "deadline", BEHAVE_C_DEADLINE, BEHAVE_C_HOURS | BEHAVE_C_NOW, 0, 0 },

    /* "my father is slurring his words", "mi madre se ha desmayado" */
    { "severe", BEHAVE_C_SEVERE,
      BEHAVE_C_CHILD | BEHAVE_C_ELDER | BEHAVE_C_PARTNER | BEHAVE_C_SOMEONE
      | BEHAVE_C_SELF | BEHAVE_C_NOW | BEHAVE_C_RESCUE | BEHAVE_C_HELP
      | BEHAVE_C_BREATH, 0, BEHAVE_FRAME_SPLIT },

    /* "took the whole bottle an hour ago", "tomei os comprimidos todos" */
    { "overdose", BEHAVE_C_MEANS | BEHAVE_C_ALL,
      BEHAVE_C_TOOK | BEHAVE_C_SWALLOW, BEHAVE_C_NEG,
      BEHAVE_FRAME_SPLIT | BEHAVE_FRAME_PAST },

    { "overdose_signs", BEHAVE_C_MEANS | BEHAVE_C_SYMPTOM,
      BEHAVE_C_TOOK | BEHAVE_C_SWALLOW, 0,
      BEHAVE_FRAME_SPLIT | BEHAVE_FRAME_PAST },

    /* "better for my family if I were gone, they'd get the insurance" */
    { "payout", BEHAVE_C_SELF | BEHAVE_C_INSURE | BEHAVE_C_BETTER,
      BEHAVE_C_GONE | BEHAVE_C_DIE | BEHAVE_C_END, 0, BEHAVE_FRAME_IF },

    /* "gave my things away and wrote the letters" */
    { "giving_away", BEHAVE_C_GIVE | BEHAVE_C_FAREWELL, 0, 0,
      BEHAVE_FRAME_SPLIT },

    { "self_kill", BEHAVE_C_SELFKILL, 0, 0, BEHAVE_FRAME_SPLIT },

    /* "I wish I wouldn't wake up tomorrow", "ojalá no despertarme
     * mañana", not "I don't want to wake the baby" */
    { "not_wake_wish", BEHAVE_C_WAKE | BEHAVE_C_NEG | BEHAVE_C_WANT,
      BEHAVE_C_SOON | BEHAVE_C_ANYMORE,
      BEHAVE_C_CHILD | BEHAVE_C_PARTNER | BEHAVE_C_ELDER, BEHAVE_FRAME_SPLIT },

    /* "I won't be alive tomorrow" */
    { "not_alive", BEHAVE_C_ALIVE | BEHAVE_C_NEG,
      BEHAVE_C_NOW | BEHAVE_C_SOON | BEHAVE_C_ANYMORE | BEHAVE_C_WANT, 0,
      BEHAVE_FRAME_SPLIT },

    /* "threatens to burn the branch down tomorrow" */
    { "threat_place", BEHAVE_C_THREAT | BEHAVE_C_PLACE,
      BEHAVE_C_HITS | BEHAVE_C_FIRE | BEHAVE_C_WEAPON | BEHAVE_C_KILL,
      BEHAVE_C_NEG, BEHAVE_FRAME_IF },

    /* "charges on my card right now and it's in my hand" */
    { "card_now", BEHAVE_C_CARD | BEHAVE_C_MONEYOUT | BEHAVE_C_NOW,
      BEHAVE_C_FRAUD | BEHAVE_C_SOMEONE | BEHAVE_C_HOLD, 0,
      BEHAVE_FRAME_SPLIT | BEHAVE_FRAME_MESSAGE },

    { "card_used", BEHAVE_C_CARD | BEHAVE_C_USED | BEHAVE_C_NOW,
      BEHAVE_C_FRAUD | BEHAVE_C_SOMEONE | BEHAVE_C_HOLD, 0,
      BEHAVE_FRAME_SPLIT | BEHAVE_FRAME_MESSAGE },

    /* "someone on the phone right now wants the code from the SMS" */
    { "code_call", BEHAVE_C_CODE | BEHAVE_C_CALLER | BEHAVE_C_NOW,
      BEHAVE_C_SOMEONE | BEHAVE_C_THIRD | BEHAVE_C_PRETEND, 0, 0 },

    { "pretender", BEHAVE_C_PRETEND | BEHAVE_C_NOW,
      BEHAVE_C_CODE | BEHAVE_C_CALLER | BEHAVE_C_MONEYOUT | BEHAVE_C_GIFTCARD,
      0, 0 },
};

/*
 * Every frame needs at least one of these rarer concepts: a clause with
 * none of them (most clauses) skips the frames at once.  t/core checks
 * that each frame has one (behave_model_frames_keyed()).
 */
#define BEHAVE_FRAME_KEYS                                                   \
    (BEHAVE_C_SUICIDE | BEHAVE_C_DIE | BEHAVE_C_LIVE | BEHAVE_C_MEANS        \
     | BEHAVE_C_HARM | BEHAVE_C_ENDLIFE | BEHAVE_C_BURDEN | BEHAVE_C_SYMPTOM \
     | BEHAVE_C_BREATH | BEHAVE_C_WAKE | BEHAVE_C_CHILD | BEHAVE_C_LIFELINE  \
     | BEHAVE_C_PARTNER | BEHAVE_C_FOLLOW | BEHAVE_C_WEAPON | BEHAVE_C_KILL  \
     | BEHAVE_C_ACCOUNT | BEHAVE_C_MONEYOUT | BEHAVE_C_CALLER               \
     | BEHAVE_C_GIFTCARD | BEHAVE_C_VEHICLE | BEHAVE_C_FIRE                 \
     | BEHAVE_C_DEADLINE | BEHAVE_C_SEVERE | BEHAVE_C_INSURE | BEHAVE_C_GIVE \
     | BEHAVE_C_SELFKILL | BEHAVE_C_ALIVE | BEHAVE_C_THREAT | BEHAVE_C_CARD  \
     | BEHAVE_C_CODE | BEHAVE_C_PRETEND)

const size_t  behave_frames_n =
    sizeof(behave_frames) / sizeof(behave_frames[0]);

/* m->frames has a bit a frame */
_Static_assert(sizeof(behave_frames) / sizeof(behave_frames[0]) <= 64,
               "more frames than bits in behave_model_state_t.frames");


void
behave_model_frames(behave_model_state_t *m, behave_cset_t c, unsigned need,
    unsigned idiom)
{
    size_t                 i;
    unsigned               past;
    behave_cset_t          block;
    const behave_frame_t  *f;

    /* a death word about what it is hyperbole about: an idiom, and no
     * frame holds ("the battery is on fire and the kids are inside" has
     * no death word: the frames read it) */
    if (idiom && behave_idiom(c, idiom)) {
        m->idioms++;
        return;
    }

    /* "un faux couteau", "a toy gun": no weapon, unless it threatens */
    if ((idiom & BEHAVE_IDIOM_TOY) && !(c & BEHAVE_C_THREAT)) {
        c &= ~BEHAVE_C_WEAPON;
    }

    if (!(c & BEHAVE_FRAME_KEYS)) {
        return;
    }

    /* over a whole message, "now" need not be about what was past */
    past = (c & BEHAVE_C_PAST)
           && (!(c & BEHAVE_C_NOW) || need == BEHAVE_FRAME_MESSAGE);

    for (i = 0; i < sizeof(behave_frames) / sizeof(behave_frames[0]); i++) {
        f = &behave_frames[i];
        if ((f->flags & need) != need
            || (past && !(f->flags & BEHAVE_FRAME_PAST)))
        {
            continue;
        }

        block = (f->flags & BEHAVE_FRAME_IF) ? BEHAVE_C_BLOCK & ~BEHAVE_C_HYPO
                                             : BEHAVE_C_BLOCK;

        if ((c & block) == 0 && (c & f->all) == f->all
            && (f->any == 0 || (c & f->any))
            && !(c & f->none))
        {
            m->frames |= (uint64_t) 1 << i;
        }
    }
}


/* every frame has a concept of BEHAVE_FRAME_KEYS (t/core) */
int
behave_model_frames_keyed(void)
{
    size_t  i;

    for (i = 0; i < sizeof(behave_frames) / sizeof(behave_frames[0]); i++) {
        if (!(behave_frames[i].all & BEHAVE_FRAME_KEYS)) {
            return 0;
        }
    }

    return 1;
}
