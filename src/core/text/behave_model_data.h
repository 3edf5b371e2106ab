/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The model's compiled data (scripts/gen-model): concept and weight
 * tables.  Only behave_model.c reads them.
 */

#ifndef BEHAVE_MODEL_DATA_H
#define BEHAVE_MODEL_DATA_H

#include <stdint.h>


/*
 * A set of concept ids (concepts.tsv): up to 128, one bit each, so that a
 * clause's concepts are tested against a frame in one AND.
 */
#ifndef __SIZEOF_INT128__
#error "the model needs unsigned __int128 (GCC or Clang, 64-bit target)"
#endif
__extension__ typedef unsigned __int128  behave_cset_t;


/* a word's flags (concepts.tsv "@de"...): see behave_model.c */
#define BEHAVE_WORD_DE      1   /* one of German's commonest words */
#define BEHAVE_WORD_PT      2   /* one of Portuguese's */
#define BEHAVE_WORD_FRIEND  4   /* means another thing in another language */
#define BEHAVE_WORD_TODIE   8   /* English before "die": "to", "I'll"... */
#define BEHAVE_WORD_GENERIC 16  /* "once", "usually": a rule, not a claim */
#define BEHAVE_WORD_NOTYET  32  /* "to", "can", "will" before "refunded" */
#define BEHAVE_WORD_MODAL   64  /* "will", "sera", "takes" after "refund" */
#define BEHAVE_WORD_DONE    128 /* "has been", "hemos", "foi" before it */
#define BEHAVE_WORD_THING   256 /* "router", "wifi": what hyperbole is about */
#define BEHAVE_WORD_CAUSE   512 /* "boredom", "ganas": after "dying of" */
#define BEHAVE_WORD_TOY     1024 /* "toy", "faux": the weapon is none */
#define BEHAVE_WORD_DRIVE   2048 /* "driving" (me crazy) */
#define BEHAVE_WORD_JOKE    4096 /* "kidding", "je rigole", "Scherz" */
#define BEHAVE_WORD_ALMOST  8192 /* "almost", "casi", "beinahe" */
#define BEHAVE_WORD_WELL    16384 /* "recovered", "ileso", "unverletzt" */
#define BEHAVE_WORD_HURT    32768 /* "injured", "feriu": after "nobody" */
#define BEHAVE_WORD_ROLE    65536 /* "boss", "jefa", "prof", "Lehrer" */
#define BEHAVE_WORD_ALREADY 131072 /* "already", "ya", "déjà", "schon" */
#define BEHAVE_WORD_STOPPED 262144 /* "blocked", "frozen", "gesperrt" */


typedef struct {
    uint32_t               hash;        /* of 'u' (exact) or '*' + term */
    uint8_t                len;
    uint8_t                prefix;      /* matches words that start so */
    uint32_t               flags;       /* BEHAVE_WORD_* */
    char                   term[32];
    uint64_t               mask_lo;     /* concept ids 0..63 */
    uint64_t               mask_hi;     /* concept ids 64..127 */
} behave_concept_slot_t;


typedef struct {
    uint32_t               key;         /* feature id, 0 if free */
    uint32_t               row;         /* index + 1 in the rows */
} behave_model_slot_t;


/*
 * A node of the critical stack's trees (scripts/train): a leaf (input -1)
 * adds its value to the score; a split goes left when its input is at
 * most its value.  Input 0 is the critical head's logit, k the presence
 * of the feature whose row's last int16 is k.
 */
typedef struct {
    int16_t                input;
    uint16_t               left;
    uint16_t               right;
    float                  value;
} behave_stack_node_t;

#define BEHAVE_STACK_BITS  256


extern const unsigned behave_concept_n;
extern const char *const behave_concept_names[];
extern const uint32_t behave_concept_prefix_lens;
extern const uint32_t behave_concept_prefix4[128];   /* 4096-bit filter */
extern const uint32_t behave_concept_mask;
extern const behave_concept_slot_t behave_concept_slots[];

extern const unsigned behave_model_n;
extern const uint32_t behave_model_mask;
extern const behave_model_slot_t behave_model_slots[];
extern const int16_t behave_model_rows[][24];   /* 22 used */
extern const float behave_model_scale;

extern const float behave_stack_init;
extern const float behave_stack_gate;
extern const unsigned behave_stack_trees;
extern const unsigned behave_stack_node_n;
extern const uint16_t behave_stack_roots[];
extern const behave_stack_node_t behave_stack_nodes[];

extern const unsigned behave_meaning_n;
extern const uint32_t behave_meaning_mask;
extern const behave_model_slot_t behave_meaning_slots[];
extern const int8_t behave_meaning_rows[][64];  /* BEHAVE_MEANING_AXES */


#endif /* BEHAVE_MODEL_DATA_H */
