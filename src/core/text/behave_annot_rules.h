/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The annotator's rules: the state gathered while the text streams past,
 * and the step that turns it into scores, labels and cues.  Split from
 * behave_annotate.c so that the rules can be read (and tested) apart from
 * the token plumbing.
 */

#ifndef BEHAVE_ANNOT_RULES_H
#define BEHAVE_ANNOT_RULES_H

#include "text/behave_annotation.h"
#include "text/behave_lexicon.h"
#include "text/behave_tokenize.h"


#define BEHAVE_CTX  3           /* units a negator or intensifier reaches */


typedef struct {
    unsigned               neg;
    unsigned               caps;
    float                  boost;
} behave_ctx_t;


typedef struct {
    /* valence, weighted (contrast) and raw (for mixed) */
    double                 pos;
    double                 neg;
    double                 pos_raw;
    double                 neg_raw;
    double                 caps_bonus;      /* undone if all is CAPS */
    double                 s_pos;           /* current sentence */
    double                 s_neg;
    double                 s_weight;
    unsigned               s_contrast;
    double                 pre_pos;         /* before a contrast word */
    double                 pre_neg;
    unsigned               contrast_mixed;  /* opposite feelings around */
    double                 courtesy;        /* "thanks", "please" */

    /* lexicon weights of the other dimensions */
    double                 urg_up;
    double                 urg_down;
    double                 load;
    double                 eng_up;
    double                 eng_down;
    double                 eng_browse;
    double                 form;

    behave_ctx_t           ctx[BEHAVE_CTX];
    unsigned               nctx;

    uint32_t               flags;           /* BEHAVE_LEX_* seen */
    unsigned               crisis;          /* 1 << behave_crisis_e */
    unsigned               hits;
    unsigned               rules;

    unsigned               words;
    unsigned               letters_words;   /* words with letters */
    unsigned               caps_words;
    unsigned               lower_i;         /* "i" written lowercase */
    unsigned               contractions;
    unsigned               sentences;
    unsigned               sent_words;      /* words in this sentence */
    unsigned               max_sent_words;
    unsigned               short_sents;     /* fragments of <= 4 words */
    unsigned               lower_starts;    /* sentences in lowercase */
    unsigned               upper_starts;
    unsigned               at_start;        /* next word opens a sentence */
    unsigned               q_start;         /* sentence opened by "how" */
    unsigned               questions;       /* '?' runs + q sentences */
    unsigned               qmarks;
    unsigned               exclaims;
    unsigned               multi_punct;     /* "??", "!!" */
    unsigned               emoji;
    unsigned               specifics;
    unsigned               currency_gb;
    unsigned               currency_us;
    unsigned               enumerations;
    unsigned               last_num;        /* previous token a number */
    unsigned               caps_emph;       /* known words in CAPS */
    double                 s_pre_pos;       /* raw, before contrast */
    double                 s_pre_neg;
    double                 s_raw_pos;       /* raw, this sentence */
    double                 s_raw_neg;
    unsigned               panic;
    unsigned               sarcasm;
    unsigned               gb;
    unsigned               us;
    unsigned               en;
    unsigned               foreign_letters;  /* unknown words, accents */
    unsigned               lang[BEHAVE_LANG_N];
} behave_annot_state_t;


void behave_rules_init(behave_annot_state_t *st);
void behave_rules_word(behave_annot_state_t *st, const behave_token_t *t,
    unsigned first);
void behave_rules_unit(behave_annot_state_t *st,
    const behave_lex_entry_t *e, unsigned nwords, unsigned tflags);
void behave_rules_symbol(behave_annot_state_t *st, const behave_token_t *t,
    const behave_lex_entry_t *e);
void behave_rules_punct(behave_annot_state_t *st, const behave_token_t *t);
void behave_rules_other(behave_annot_state_t *st, const behave_token_t *t);
void behave_rules_finish(behave_annot_state_t *st, behave_annotation_t *out);


#endif /* BEHAVE_ANNOT_RULES_H */
