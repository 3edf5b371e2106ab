/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The trained layer's state while it reads a message (behave_model.h),
 * apart so that the layer's own files share it without including the
 * whole interface.
 */

#ifndef BEHAVE_MODEL_STATE_H
#define BEHAVE_MODEL_STATE_H

#include <stddef.h>
#include <stdint.h>
#include "text/behave_annotation.h"
#include "text/behave_model_data.h"
#include "text/behave_risk.h"

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
#define BEHAVE_MEANING_RUN  256



typedef struct {
    /* integer sums of the integer weights: scaled once at the end */
    int32_t                out[BEHAVE_MODEL_ROW];
    int32_t                meaning[BEHAVE_MEANING_AXES];
    /* the latest meaning rows' sums, added to meaning[] every
     * BEHAVE_MEANING_RUN rows: int8 into int16 lanes is half the vector
     * steps of int32 ones, and exact (256 * -128 is -32768) */
    int16_t                meaning_run[BEHAVE_MEANING_AXES];
    unsigned               meaning_run_n;
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
    unsigned               no_meaning;      /* its sums not needed */
    unsigned               claims_only;     /* no weights summed */
    behave_feature_sink_pt sink;            /* training: list, don't sum */
    void                  *sink_data;
} behave_model_state_t;


#endif /* BEHAVE_MODEL_STATE_H */
