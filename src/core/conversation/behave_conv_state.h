/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * What a conversation's next turn needs from its past, in a fixed size
 * whatever the length of the conversation: the state.
 *
 * Each turn leaves a compact record of what later turns use (derived
 * from its text and annotation once, by behave_conversation_record()),
 * and the state keeps running aggregates over every turn plus the
 * records of the newest customer turns.  A turn is assessed from the
 * state before it and its own record (behave_conversation_assess_state()),
 * then pushed into the state.  Assessing from full history is the same
 * push folded over every earlier turn, so both answer alike by
 * construction.
 *
 * The push is simple on purpose: Redis runs it too, in Lua, on the stored
 * form below (ngx_http_behave_conversation.c), and the two must agree.
 *
 * Stored form, version "s2" (at most BEHAVE_CONV_STATE_MAX bytes):
 *
 *     header  52 ASCII bytes, fixed-width lowercase hex:
 *               "s2" turns(8) customers(8)
 *               peak(1) fr(1) claim_turn(8) claim_what(2)
 *               peak_prev(1) fr_prev(1) claim_prev_turn(8)
 *               claim_prev_what(2) dropped(8) nrec(1) nmean(1)
 *             (a customer turn copies the 12 bytes of the first group
 *             to the second as they are)
 *     meanings  BEHAVE_CONV_MEANINGS slots of BEHAVE_MEANING_DIM bytes
 *               (int8); customer turn c (0-based) is in slot
 *               c % BEHAVE_CONV_MEANINGS, unused slots are zero
 *     records   nrec slots of 4-byte little-endian turn number +
 *               BEHAVE_CONV_REC_SIZE bytes; customer turn c is in slot
 *               c % BEHAVE_CONV_RING
 *     tail      what the glue keeps with the state (the review's filing
 *               mark, behave_review.h), empty or not: the push carries
 *               it over as it is, behave_conv_state_size() tells where
 *               it starts
 *
 *   Slots, not a list shifted at each turn, so that Redis writes a turn
 *   in place (SETRANGE) and its script never builds the state anew: long
 *   strings are what Lua is slow at (callgrind: "s1", which did, cost
 *   Redis a third more for a turn with history than for a first turn).
 *   With no record yet the state is the header alone.
 *
 *   turns       turns so far (the next turn's number)
 *   customers   customer turns so far
 *   peak        max severity of every customer turn
 *   fr          some customer turn denied a claim right before it (a
 *               false resolution earlier in the conversation)
 *   claim       the latest agent turn since the last customer turn that
 *               presented the issue as settled (turn ffffffff: none) and
 *               how (behave_conv_claim(), behave_conv_claims.h)
 *   *_prev      the same as they were before the newest customer turn:
 *               an agent turn echoes the assessment of that turn, which
 *               is recomputed from them (hence one record more than the
 *               window of BEHAVE_CONV_REP_WINDOW)
 *   dropped     turns trimmed off the front of the text log
 *
 * Record (customer turns; an agent turn only sets the claim), little-
 * endian: severity, urgency, load, flags(2), valence in thousandths(2,
 * signed), cues(4), quote, specialist, overload, confusion, vague,
 * vague count, ids count, ids(2 x 4: FNV-1a of order-like tokens),
 * distinct trigrams(2), trigram sketch(64).  The phrase fields are
 * 1 + the index of the first phrase found in a table of phrases/
 * (behave_conv_phrases.h), 0 for none: those tables are append only.
 */

#ifndef BEHAVE_CONV_STATE_H
#define BEHAVE_CONV_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "text/behave_annotate.h"
#include "text/behave_similarity.h"


#define BEHAVE_CONV_STATE_VERSION  "s2"
#define BEHAVE_CONV_RING           13   /* BEHAVE_CONV_REP_WINDOW + 1 */
#define BEHAVE_CONV_MEANINGS       5    /* the meaning window + 1 */
#define BEHAVE_CONV_IDS            2
#define BEHAVE_CONV_REC_SIZE       92
#define BEHAVE_CONV_HEADER_SIZE    52
#define BEHAVE_CONV_NONE           0xffffffffu
#define BEHAVE_CONV_CLAIM_CUE      0xff  /* the annotator's claim cue */

#define BEHAVE_CONV_STATE_MAX                                                 \
    (BEHAVE_CONV_HEADER_SIZE + BEHAVE_CONV_MEANINGS * BEHAVE_MEANING_DIM      \
     + BEHAVE_CONV_RING * (4 + BEHAVE_CONV_REC_SIZE))


/* record flags: what the text says, for when the turn is the current one */
#define BEHAVE_CONV_F_DENIES      0x0001  /* says the issue is not settled */
#define BEHAVE_CONV_F_STRONG      0x0002  /* says the question is open */
#define BEHAVE_CONV_F_REASK       0x0004  /* contrast, confusion, overload */
#define BEHAVE_CONV_F_QUESTION    0x0008  /* "?" or "tell me" */
#define BEHAVE_CONV_F_ACK         0x0010  /* thanks, that worked */
#define BEHAVE_CONV_F_REPEAT      0x0020  /* "third time", "already asked" */
#define BEHAVE_CONV_F_UNCLEAR     0x0040  /* short, "the thing", no detail */
#define BEHAVE_CONV_F_ANGER       0x0080  /* "unacceptable", "I'm reporting" */
#define BEHAVE_CONV_F_OVERLOAD    0x0100  /* lost, and a cascade of asks */
#define BEHAVE_CONV_F_OPEN        0x0200  /* "ok, but", "sí, pero", "ja aber" */
/* what a question asks about (phrases/focus_*.tsv) */
#define BEHAVE_CONV_F_COST        0x0400  /* "fee", "precio", "Gebühr" */
#define BEHAVE_CONV_F_LIMIT       0x0800  /* "maximum", "límite", "plafond" */
#define BEHAVE_CONV_F_DURATION    0x1000  /* "how long", "prazo", "délai" */
#define BEHAVE_CONV_F_FOCUS                                                   \
    (BEHAVE_CONV_F_COST | BEHAVE_CONV_F_LIMIT | BEHAVE_CONV_F_DURATION)
/* the top three bits: what the ask is about (phrases/intent_*.tsv, in
 * the order of BEHAVE_CONV_T_INTENT_FIRST..LAST), 0 for none of them */
#define BEHAVE_CONV_F_INTENT_SHIFT  13
#define BEHAVE_CONV_F_INTENT      0xe000


typedef struct {
    uint32_t               turn;
    int                    customer;
    int                    severity;
    unsigned               urgency;
    unsigned               load;
    unsigned               flags;
    int                    valence;      /* thousandths, -1000 .. 1000 */
    uint32_t               cues;
    unsigned               quote;
    unsigned               specialist;
    /* the current turn only, never stored: 1 + priority.tsv's phrase;
     * a question about the wait for the fix (interim.tsv) */
    unsigned               priority;
    unsigned               interim;
    unsigned               overload;
    unsigned               confusion;
    unsigned               vague;
    unsigned               vague_n;
    unsigned               claim;        /* agent turns: BEHAVE_CONV_CLAIM */
    unsigned               nids;
    uint32_t               ids[BEHAVE_CONV_IDS];
    behave_sim_sketch_t    sketch;
    int8_t                 meaning[BEHAVE_MEANING_DIM];
} behave_conv_rec_t;


typedef struct {
    uint32_t               turns;
    uint32_t               customers;
    int                    peak;
    int                    peak_prev;
    int                    fr;
    int                    fr_prev;
    uint32_t               claim_turn;
    unsigned               claim_what;
    uint32_t               claim_prev_turn;
    unsigned               claim_prev_what;
    uint32_t               dropped;
    unsigned               nrec;
    unsigned               nmean;
    behave_conv_rec_t      rec[BEHAVE_CONV_RING];   /* newest first */
} behave_conv_state_t;


void behave_conv_state_init(behave_conv_state_t *st);

/* the push Redis runs too: rec->turn is set to st->turns */
void behave_conv_state_push(behave_conv_state_t *st, behave_conv_rec_t *rec);

/* the record as sent to Redis (BEHAVE_CONV_REC_SIZE bytes) */
void behave_conv_rec_encode(const behave_conv_rec_t *rec,
    unsigned char *buf);

/* stored form; returns the length (<= BEHAVE_CONV_STATE_MAX) */
size_t behave_conv_state_encode(const behave_conv_state_t *st, char *buf);

/* 0, or -1 for anything that is not a valid stored state */
int behave_conv_state_decode(const char *s, size_t len,
    behave_conv_state_t *st);

/*
 * The length of the state stored at s, from its header (the tail starts
 * there), or 0 when the header is not one or len is shorter
 */
size_t behave_conv_state_size(const char *s, size_t len);


#endif /* BEHAVE_CONV_STATE_H */
