/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * What the trained layer's files share (behave_model.c: features,
 * concepts, labels; behave_model_idiom.c: idioms, laughter, all-clears;
 * behave_model_frames.c: the crisis frames): the constants, the hashes
 * and the functions one file calls in another.  Not for outside the
 * trained layer.
 */

#ifndef BEHAVE_MODEL_INT_H
#define BEHAVE_MODEL_INT_H

#include <stddef.h>
#include <stdint.h>
#include "text/behave_model_state.h"
#include "text/behave_model_data.h"
#include "behave_model_concepts.h"


#define BEHAVE_FNV_INIT   0x811c9dc5u
#define BEHAVE_FNV_PRIME  0x01000193u
#define BEHAVE_STEM       5             /* letters of a stem feature */
#define BEHAVE_FOLD_MAX   (BEHAVE_TOK_MAX * 2)
/*
 * With an idiom in the text ("je meurs de faim") and no crisis frame, the
 * critical head must be this sure: labels.md counts idioms as no crisis,
 * and the head, trained on words, cannot tell the idiom from the crisis.
 */
#define BEHAVE_IDIOM_MARGIN     2.0f
/* behave_model_state_t.idiom: what the clause holds (behave_idiom_word) */
#define BEHAVE_IDIOM_NEAR       1       /* a thing or cause near death */
#define BEHAVE_IDIOM_LAUGH      2       /* "lol", "kkk", "😂" */
#define BEHAVE_IDIOM_TOY        4       /* "a toy gun" */
#define BEHAVE_IDIOM_JOKE       8       /* "just kidding", "je rigole" */
#define BEHAVE_IDIOM_ALMOST     16      /* "I almost had a heart attack" */
#define BEHAVE_IDIOM_ROLE       32      /* "my boss will kill me if..." */
/* how near: "this router is killing me", "kill myself with this router" */
#define BEHAVE_THING_BEFORE     4
#define BEHAVE_THING_AFTER      3
/*
 * Signs of an emergency that no idiom clears (behave_idiom): a method, a
 * weapon, an ambulance, a farewell, a swallowed thing, fire, a collapse,
 * a child or an older person, a threat.  Laughter clears fewer: not blows,
 * the word "suicide", a time, a place or a partner either.  "Just
 * kidding" clears a joke at anyone's expense, not a method or a weapon.
 */
#define BEHAVE_C_JOKE_GUARD                                                 \
    (BEHAVE_C_MEANS | BEHAVE_C_WEAPON | BEHAVE_C_RESCUE | BEHAVE_C_FAREWELL  \
     | BEHAVE_C_SWALLOW | BEHAVE_C_FIRE | BEHAVE_C_SEVERE)
#define BEHAVE_C_EMERGENCY                                                  \
    (BEHAVE_C_JOKE_GUARD | BEHAVE_C_CHILD | BEHAVE_C_ELDER | BEHAVE_C_THREAT)
#define BEHAVE_C_ALMOST_GUARD                                               \
    (BEHAVE_C_MEANS | BEHAVE_C_WEAPON | BEHAVE_C_RESCUE | BEHAVE_C_FAREWELL  \
     | BEHAVE_C_SWALLOW | BEHAVE_C_FIRE | BEHAVE_C_CHILD | BEHAVE_C_ELDER    \
     | BEHAVE_C_BREATH)
#define BEHAVE_C_LAUGH_GUARD                                                \
    (BEHAVE_C_EMERGENCY | BEHAVE_C_HITS | BEHAVE_C_SUICIDE | BEHAVE_C_TIME   \
     | BEHAVE_C_PLACE | BEHAVE_C_PARTNER)
#define BEHAVE_C_SELFDIR  (BEHAVE_C_SELFKILL | BEHAVE_C_ENDLIFE)
/*
 * "my boss will kill me if the report is late" is an idiom of blame, not
 * a threat, unless the clause names blows, a weapon, fear, a partner, a
 * child or an older person, someone coming or a place to come to
 */
#define BEHAVE_C_ROLE_GUARD                                                 \
    (BEHAVE_C_EMERGENCY | BEHAVE_C_HITS | BEHAVE_C_FEAR | BEHAVE_C_PARTNER   \
     | BEHAVE_C_COMING | BEHAVE_C_PLACE | BEHAVE_C_FOLLOW | BEHAVE_C_SELFDIR)
/*
 * What an all-clear does not clear (behave_well): the writer's own
 * suicide or self-harm, a method, a weapon, a threat, someone following
 * or coming ("nobody was hurt, but he's coming back tonight").
 */
#define BEHAVE_C_WELL_GUARD                                                 \
    (BEHAVE_C_SELFDIR | BEHAVE_C_SUICIDE | BEHAVE_C_MEANS | BEHAVE_C_WEAPON  \
     | BEHAVE_C_THREAT | BEHAVE_C_FOLLOW | BEHAVE_C_COMING)
/*
 * And what "I've already blocked the card" does not clear: money still
 * going, a caller on the line or a code asked for ("but the one calling
 * says he needs the code right now": the scam goes on), a password
 * changed, a partner
 */
#define BEHAVE_C_STOP_GUARD                                                 \
    (BEHAVE_C_WELL_GUARD | BEHAVE_C_STILL | BEHAVE_C_CALLER | BEHAVE_C_CODE \
     | BEHAVE_C_CHANGED | BEHAVE_C_PARTNER)
#define BEHAVE_C_TIME     (BEHAVE_C_NOW | BEHAVE_C_SOON | BEHAVE_C_HOURS)
#define BEHAVE_MODEL_VAL_BLEND  0.65     /* rules' share of valence score */
/*
 * The concepts from =CUES on (concepts.tsv) are cues of the graded
 * dimensions only: kept apart from the clause so that no frame, claim or
 * clause count sees them, and summed once for the whole message.
 */
#define BEHAVE_CUE_CONCEPTS     (~(BEHAVE_C_CUES - 1))


#define BEHAVE_SHORT_WORDS  16

/* a frame holds after "if ..., I'll ..." too */
#define BEHAVE_FRAME_IF     1
/* and over a short message's fragments: "Ex outside. Knife. Please." */
#define BEHAVE_FRAME_SPLIT  2
/* and told in the past: an overdose taken an hour ago is happening now */
#define BEHAVE_FRAME_PAST   4
/*
 * and over a whole message of any length, for frames whose concepts say
 * it together wherever they stand: "charges on my card right now. The
 * card is in my hand."
 */
#define BEHAVE_FRAME_MESSAGE  8

#define BEHAVE_C_BLOCK  (BEHAVE_C_STORY | BEHAVE_C_HYPO | BEHAVE_C_POLICY)

typedef struct {
    const char            *name;
    behave_cset_t          all;
    behave_cset_t          any;
    behave_cset_t          none;
    unsigned               flags;        /* BEHAVE_FRAME_* */
} behave_frame_t;


extern const behave_frame_t  behave_frames[];
extern const size_t          behave_frames_n;


void behave_feature(behave_model_state_t *m, uint32_t f, int meaning,
    const char *fmt, const char *arg);

unsigned behave_laugh(const char *w, size_t len);
void behave_idiom_word(behave_model_state_t *m, const char *w, size_t len,
    behave_cset_t cs, unsigned flags);
void behave_idiom_role(behave_model_state_t *m, behave_cset_t cs,
    unsigned flags);
unsigned behave_idiom(behave_cset_t c, unsigned idiom);
void behave_well(behave_model_state_t *m, const char *w, size_t len,
    unsigned flags);
void behave_model_frames(behave_model_state_t *m, behave_cset_t c,
    unsigned need, unsigned idiom);


/* the critical stack's score (behave_model_stack.c); the same walked
 * node by node, past the gate (t/core); 1 if the trees are laid out flat */
float behave_model_stack(const behave_model_state_t *m);
float behave_model_stack_walked(const behave_model_state_t *m);
int behave_model_stack_flat(void);
/* the stack's part of behave_model_tables_init() */
void behave_model_stack_init(void);


#endif /* BEHAVE_MODEL_INT_H */
