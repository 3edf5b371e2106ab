/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The trained layer of the annotator.  While the rules read a message, the
 * model hashes what it sees into features: folded words, five-letter
 * stems, word pairs, multilingual concepts (src/core/text/model/concepts.tsv)
 * and the pairs of concepts that share a clause ("frames": SELF with DIE,
 * CHILD with SWALLOW, ACCOUNT with CHANGED and NOW).  At the end the rules'
 * own labels, scores and cues join them, and linear weights trained
 * offline by scripts/train (src/core/text/model/weights.tsv, compiled in by
 * scripts/gen-model) give each dimension's label and the critical call.
 *
 * The same code lists the features for training (a sink), so training and
 * serving cannot disagree on what a feature is.
 */

#ifndef BEHAVE_MODEL_H
#define BEHAVE_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "behave_annotation.h"
#include "behave_tokenize.h"
#include "behave_model_data.h"
#include "behave_risk.h"


/* outputs, in this order: valence 4, urgency 5, load 4, engagement 4,
 * register 4, then one logit for "critical" */
#define BEHAVE_MODEL_VAL    0
#define BEHAVE_MODEL_URG    4
#define BEHAVE_MODEL_LOAD   9
#define BEHAVE_MODEL_ENG    13
#define BEHAVE_MODEL_REG    17
#define BEHAVE_MODEL_CRIT   21
#define BEHAVE_MODEL_OUT    22
#define BEHAVE_MODEL_ROW    24      /* a stored row, padded: it vectorises */



typedef struct {
    /* integer sums of the integer weights: scaled once at the end */
    int32_t                out[BEHAVE_MODEL_ROW];
    int32_t                meaning[BEHAVE_MEANING_AXES];
    float                  logit[BEHAVE_MODEL_OUT];
    behave_cset_t          clause;          /* concepts of this clause */
    behave_cset_t          seen;            /* concepts of the message */
    behave_cset_t          cues;            /* BEHAVE_CUE_CONCEPTS seen */
    uint32_t               prev;            /* previous word, 0 at a start */
    unsigned               words;
    unsigned               claims;          /* clauses claiming */
    uint64_t               frames;          /* crisis frames held */
    uint64_t               stack[4];        /* the stack's inputs seen */
    unsigned               idioms;          /* "dying of hunger" */
    unsigned               asks;            /* clauses asking */
    unsigned               clauses;
    unsigned               end_at;          /* word number of "end" */
    unsigned               live_at;         /* of "life" */
    unsigned               act_at;          /* of "kill", "hang" */
    unsigned               reflb_at;        /* of "me", "mich" */
    unsigned               third_at;        /* of "he", "il", "va" */
    unsigned               death_at;        /* of "kill", "die" (clause) */
    unsigned               thing_at;        /* of "router", "wifi" */
    unsigned               drive_at;        /* of "driving" */
    unsigned               symptom_at;      /* of "bleeding", "reagiert" */
    unsigned               joke_at;         /* of "kidding" */
    unsigned               almost_at;       /* of "almost", "beinahe" */
    unsigned               prev_self;       /* the last word: "je", "I" */
    unsigned               vehicles;        /* VEHICLE words, clause */
    unsigned               idiom;           /* BEHAVE_IDIOM_*, clause */
    unsigned               idiom_seen;      /* of the message */
    unsigned               well;            /* "nobody was hurt" */
    unsigned               stopped;         /* "already blocked it" */
    unsigned               already_at;      /* of "already", "schon" */
    unsigned               role_at;         /* of "boss", "prof" */
    unsigned               role_kill_at;    /* "my boss will kill" */
    unsigned               clause_words;
    unsigned               since_neg;       /* words since a negation */
    unsigned               after_contrast;  /* the last word: "but" */
    unsigned               claim_said;      /* this clause: "fixed" */
    unsigned               claim_at;        /* its word number */
    unsigned               claim_firm;      /* "has been refunded" */
    unsigned               since_done;      /* words since "has", "foi" */
    unsigned               prev_we;         /* the last word: "I", "we" */
    unsigned               claim_negated;   /* this clause: "not fixed" */
    unsigned               claim_generic;   /* this clause: "once", "usually" */
    unsigned               claim_ahead;     /* this clause: "to be fixed" */
    unsigned               claims_held;     /* clauses of rules, plans */
    unsigned               since_notyet;    /* words since "to", "will" */
    unsigned               denials;         /* clauses denying */
    unsigned               lang_de;         /* German words seen */
    unsigned               lang_pt;         /* Portuguese words seen */
    unsigned               prev_flags;      /* the previous word's */
    unsigned               features;
    behave_risk_state_t    risk;            /* the risk head's sums */
    behave_feature_sink_pt sink;            /* training: list, don't sum */
    void                  *sink_data;
} behave_model_state_t;


void behave_model_init(behave_model_state_t *m);
void behave_model_word(behave_model_state_t *m, const behave_token_t *t);
void behave_model_symbol(behave_model_state_t *m, const behave_token_t *t);
void behave_model_clause_end(behave_model_state_t *m, unsigned question);

/*
 * Adds the rules' labels, scores and cues in a as features, then sets a's
 * five labels from the summed weights.  Does nothing to the labels when
 * no model is compiled in (an empty weights file).
 */
void behave_model_finish(behave_model_state_t *m, behave_annotation_t *a);

/* axis i (0 .. BEHAVE_MEANING_AXES - 1) of a packed signature: -8 .. 7 */
int behave_meaning_axis(const int8_t *s, unsigned i);

/* the cosine of two packed meaning signatures, 0 when either is empty */
double behave_meaning_cosine(const int8_t *a, const int8_t *b);

/* 1 when the critical stack's compiled tables are well formed (t/core) */
int behave_model_stack_sound(void);

/* whether weights are compiled in */
int behave_model_present(void);
/* every crisis frame needs a concept of BEHAVE_FRAME_KEYS (a test) */
int behave_model_frames_keyed(void);


#endif /* BEHAVE_MODEL_H */
