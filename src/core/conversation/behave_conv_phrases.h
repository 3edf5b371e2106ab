/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The conversation's phrases, as data: each file of phrases/ (format in
 * phrases/README.md) is one table, compiled in at build time by
 * scripts/gen-phrases into behave_conv_phrases_data.c, in the order the
 * file lists it.  The rules that weigh them stay in C; the words they
 * look for are edited and reviewed as data, each with its language.
 *
 * Two kinds:
 *
 *   table  BEHAVE_CONV_T_*: matched anywhere in a turn as whole words,
 *          through the first-words index (behave_conv_index.h), by
 *          behave_conv_match() (behave_conv_scan.h)
 *   list   BEHAVE_CONV_L_* ("%list" in its file): compared by one rule
 *          at a place of its own (where a clause opens, the end of the
 *          turn, right after a phrase), some byte for byte with the
 *          spaces written in the file
 *
 * A record keeps 1 + the index of the first phrase a turn holds of some
 * tables (claims, not_resolved, specialist, overload, confusion, vague:
 * behave_conv_state.h), and stored states keep records: those tables
 * only grow at their end.  Each name below has its file and each file
 * its name, or the build fails.
 */

#ifndef BEHAVE_CONV_PHRASES_H
#define BEHAVE_CONV_PHRASES_H

#include "conversation/behave_conv_index.h"


/* the tables, indexed in this order */
typedef enum {
    BEHAVE_CONV_T_CLAIMS,
    BEHAVE_CONV_T_NOT_RESOLVED,
    BEHAVE_CONV_T_CLOSING,
    BEHAVE_CONV_T_NEGATORS,
    BEHAVE_CONV_T_NO,
    BEHAVE_CONV_T_CONFIRM_STRONG,
    BEHAVE_CONV_T_AFFECT_NEG,
    BEHAVE_CONV_T_CONFIRM_WEAK,
    BEHAVE_CONV_T_REASK_STRONG,
    BEHAVE_CONV_T_FOCUS_COST,
    BEHAVE_CONV_T_FOCUS_LIMIT,
    BEHAVE_CONV_T_FOCUS_DURATION,
    BEHAVE_CONV_T_INTENT_CANCEL,
    BEHAVE_CONV_T_INTENT_REFUND,
    BEHAVE_CONV_T_INTENT_DELIVERY,
    BEHAVE_CONV_T_INTENT_ACCESS,
    BEHAVE_CONV_T_INTENT_DISCOUNT,
    BEHAVE_CONV_T_INTENT_CHARGE,
    BEHAVE_CONV_T_REASK,
    BEHAVE_CONV_T_YES_BUT,
    BEHAVE_CONV_T_CONFUSION,
    BEHAVE_CONV_T_OVERLOAD,
    BEHAVE_CONV_T_VAGUE,
    BEHAVE_CONV_T_VAGUE_REF,
    BEHAVE_CONV_T_ANGER,
    BEHAVE_CONV_T_SPECIALIST,
    BEHAVE_CONV_T_REPEAT_CONTACT,
    BEHAVE_CONV_T_ASKS,
    BEHAVE_CONV_T_CLAIMS_MORE,
    BEHAVE_CONV_T_PRIORITY,
    BEHAVE_CONV_T_ANNOUNCE,
    BEHAVE_CONV_T_INTERIM,
    BEHAVE_CONV_T_N
} behave_conv_tab_e;

/*
 * The intents (intent_*.tsv): the tables FIRST..LAST, numbered from 1 in
 * this order (behave_conv_intent()); a record keeps the number, so a new
 * intent goes at the range's end (at most 7)
 */
#define BEHAVE_CONV_T_INTENT_FIRST  BEHAVE_CONV_T_INTENT_CANCEL
#define BEHAVE_CONV_T_INTENT_LAST   BEHAVE_CONV_T_INTENT_CHARGE


typedef enum {
    BEHAVE_CONV_L_ACK_OPEN,
    BEHAVE_CONV_L_ADDITIVE,
    BEHAVE_CONV_L_ASK_VERB,
    BEHAVE_CONV_L_BUT,
    BEHAVE_CONV_L_CONCLUSIVE,
    BEHAVE_CONV_L_COST_SUFFIX,
    BEHAVE_CONV_L_FAILS,
    BEHAVE_CONV_L_FAILS_SUBJECT,
    BEHAVE_CONV_L_INTERROGATIVE,
    BEHAVE_CONV_L_NEGATION_AFTER,
    BEHAVE_CONV_L_NEGATION_BEFORE,
    BEHAVE_CONV_L_ONLY_PROBLEM,
    BEHAVE_CONV_L_PERFECT,
    BEHAVE_CONV_L_PLAN,
    BEHAVE_CONV_L_STEP_DONE,
    BEHAVE_CONV_L_TAG_QUESTION,
    BEHAVE_CONV_L_N
} behave_conv_list_e;


extern const behave_conv_table_t  behave_conv_tables[BEHAVE_CONV_T_N];
extern const behave_conv_table_t  behave_conv_lists[BEHAVE_CONV_L_N];


#endif /* BEHAVE_CONV_PHRASES_H */
