/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * An annotation: the five behavioural dimensions of one message, the
 * cues and the meaning vector, and the names of the labels.  What the
 * annotator (behave_annotate.c), its rules and its model share.
 */

#ifndef BEHAVE_ANNOTATION_H
#define BEHAVE_ANNOTATION_H

#include <stddef.h>
#include <stdint.h>


#define BEHAVE_FRAMEWORK  "behave-annotator/2.2.0"


typedef enum {
    BEHAVE_VALENCE_POSITIVE = 0,
    BEHAVE_VALENCE_NEUTRAL,
    BEHAVE_VALENCE_NEGATIVE,
    BEHAVE_VALENCE_MIXED
} behave_valence_e;

typedef enum {
    BEHAVE_LOAD_LOW = 0,
    BEHAVE_LOAD_MODERATE,
    BEHAVE_LOAD_HIGH,
    BEHAVE_LOAD_OVERLOAD
} behave_load_e;

typedef enum {
    BEHAVE_URGENCY_PASSIVE = 0,
    BEHAVE_URGENCY_LOW,
    BEHAVE_URGENCY_MEDIUM,
    BEHAVE_URGENCY_HIGH,
    BEHAVE_URGENCY_CRITICAL
} behave_urgency_e;

typedef enum {
    BEHAVE_ENGAGEMENT_DISENGAGED = 0,
    BEHAVE_ENGAGEMENT_BROWSING,
    BEHAVE_ENGAGEMENT_FOCUSED,
    BEHAVE_ENGAGEMENT_IMMERSED
} behave_engagement_e;

typedef enum {
    BEHAVE_REGISTER_FORMAL = 0,
    BEHAVE_REGISTER_SEMI_FORMAL,
    BEHAVE_REGISTER_INFORMAL,
    BEHAVE_REGISTER_CRISIS
} behave_register_e;


/* cultural_context tags, a bit each */
#define BEHAVE_CULT_EN_GB           0x01
#define BEHAVE_CULT_EN_US           0x02
#define BEHAVE_CULT_HONORIFIC       0x04
#define BEHAVE_CULT_INDIRECT        0x08
#define BEHAVE_CULT_NON_ENGLISH     0x10   /* language[] holds the code */
#define BEHAVE_CULT_CODE_SWITCHING  0x20


/*
 * Cues: facts about the message that the conversation logic needs and
 * that one message can tell (a claim that the issue is fixed, a statement
 * that it is not, a question...).
 */
#define BEHAVE_CUE_QUESTION          0x0001  /* asks something */
#define BEHAVE_CUE_RESOLUTION_CLAIM  0x0002  /* "all sorted", "refunded" */
#define BEHAVE_CUE_NOT_RESOLVED      0x0004  /* "still broken", "didn't work" */
#define BEHAVE_CUE_CONFUSION         0x0008  /* "I don't get", "which one" */
#define BEHAVE_CUE_CRISIS            0x0010  /* self-harm, threat, emergency */
#define BEHAVE_CUE_GIVING_UP         0x0020  /* "forget it", "whatever" */
#define BEHAVE_CUE_THANKS            0x0040
#define BEHAVE_CUE_SPECIALIST        0x0080  /* legal, fraud, medical... */
#define BEHAVE_CUE_REPEAT_CONTACT    0x0100  /* "third time I ask" */
#define BEHAVE_CUE_CONTRAST          0x0200  /* "but", "pero", "aber" */
#define BEHAVE_CUE_ASKS              0x0400  /* a question, any language */
#define BEHAVE_CUE_NEGATION          0x0800  /* "nothing", "rien", "nada" */
/* settled-state words only in rules or plans: "refunds are usually
 * processed within 5 days", "it can be reset in the app" */
#define BEHAVE_CUE_CLAIM_HELD        0x1000
/* a clause says the problem persists ("still", "again", "not there"),
 * whatever the message's valence: right after a claim, "thanks! hmm,
 * it's still asking for the code" denies it */
#define BEHAVE_CUE_PERSISTS          0x2000


/*
 * The meaning signature: what a message asks, for repetition.  It is
 * BEHAVE_MEANING_AXES coordinates of 4 bits each (-7 .. 7), two to a
 * byte, low nibble first: BEHAVE_MEANING_DIM bytes stored per turn.
 * Twice the axes of one int8 each in the same bytes: the signature is
 * compared only by its cosine, which 4 bits keep (pair F1 on the inner
 * split of the development intents, best threshold: 0.888 in 4 bits,
 * 0.892 in floats), and more axes separate more intents (32 int8 axes:
 * 0.873).  A signature stored by a build before this one (32 int8) reads
 * as other axes: stored meanings, like any retrained ones, only compare
 * with meanings of the same build.
 */
#define BEHAVE_MEANING_DIM   32
#define BEHAVE_MEANING_AXES  (2 * BEHAVE_MEANING_DIM)
#define BEHAVE_MEANING_MAX   7


typedef struct {
    double                 valence;         /* -1 .. 1 */
    double                 urgency;         /*  0 .. 1 */
    double                 cognitive_load;  /*  0 .. 1 */
    double                 engagement;      /*  0 .. 1 */
    double                 formality;       /*  0 .. 1 */
    /* 0 .. 1: the calibrated probability that the message is critical
     * (behave_risk.h) */
    double                 risk;
} behave_scores_t;


typedef struct {
    behave_valence_e       valence;
    behave_load_e          cognitive_load;
    behave_urgency_e       urgency;
    behave_engagement_e    engagement;
    behave_register_e      social_register;

    unsigned               cultural;        /* BEHAVE_CULT_* */
    char                   language[4];     /* ISO 639-1 when NON_ENGLISH */

    behave_scores_t        scores;
    double                 confidence;      /* 0 .. 1 */
    unsigned               signals_fired;   /* rules and lexicon hits */
    unsigned               cues;            /* BEHAVE_CUE_* */

    /* -1 .. 1: scores.valence (the rules' graded score, which an external
     * lexicon changes) averaged with the trained valence head; a turn's
     * severity reads it (trends follow the rules' score) */
    double                 valence_blend;

    /* the trained layer's own critical call, the risk head's dense
     * inputs (behave_risk.h; scripts/train-risk reads them through
     * behave_annotate_cli -j) */
    float                  risk_inputs[4];

    /* packed 4-bit axes, the largest at +-7; all 0 when no model is
     * compiled in */
    int8_t                 meaning[BEHAVE_MEANING_DIM];
} behave_annotation_t;


/* a feature handed to a training sink: an id and a readable name */
typedef void (*behave_feature_sink_pt)(void *data, uint32_t feature,
    const char *name);

const char *behave_valence_name(behave_valence_e v);
const char *behave_load_name(behave_load_e v);
const char *behave_urgency_name(behave_urgency_e v);
const char *behave_engagement_name(behave_engagement_e v);
const char *behave_register_name(behave_register_e v);


#endif /* BEHAVE_ANNOTATION_H */
