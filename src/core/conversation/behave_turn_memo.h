/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * What a chat's turns left, remembered by their text.  A chat request
 * carries its whole history, so the same turns come back with every
 * request of the chat: a worker keeps what it derived of each turn (its
 * record, behave_conv_state.h, or the part of it that was needed, and its
 * urgency) and annotates only the turns it has not seen.  What is
 * derived from a turn depends on its role and text alone: found or
 * derived again, the bits are the same.
 *
 * Four-way: a (role, text) has a set of four slots, picked by a
 * SipHash-2-4 of the text under a key of the memo's own (random); a new
 * turn takes the slot of the set used least recently (a direct-mapped
 * memo lost a turn of a 50-turn chat to another of the same chat at one
 * request in three, a two-way one in a run of 200 requests now and then,
 * then at every request: three of the window's turns in one set).  A
 * slot holds a turn when the 64-bit hash, the role and the
 * length agree: SipHash is a pseudorandom function of its key, so two
 * texts are taken for one 2^-64 of the time by chance (at a million
 * lookups a second, once in 300,000 years), and no one who lacks the key
 * can make them collide.  Memory: slots * sizeof(behave_turn_memo_slot_t)
 * (about 200 bytes), allocated once; no lock: one per thread.
 */

#ifndef BEHAVE_TURN_MEMO_H
#define BEHAVE_TURN_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "text/behave_annotate.h"
#include "conversation/behave_conv_state.h"
#include "base/behave_siphash.h"


#define BEHAVE_TURN_MEMO_SLOTS  4096
#define BEHAVE_TURN_MEMO_WAYS   4        /* slots a set */


typedef struct {
    uint64_t               h;
    uint32_t               len;
    unsigned               agent;
    unsigned               used;
} behave_turn_memo_key_t;


typedef struct {
    behave_turn_memo_key_t  key;
    uint64_t                used_at;    /* the memo's clock */
    behave_urgency_e        urgency;
    unsigned                derived;    /* how much of rec: the caller's */
    behave_conv_rec_t       rec;        /* rec.turn is not the turn's */
} behave_turn_memo_slot_t;


typedef struct {
    unsigned char           key[BEHAVE_SIPHASH_KEY_SIZE];
    size_t                  mask;       /* of a set's first slot */
    uint64_t                clock;
    uint64_t                hits;
    uint64_t                misses;
    behave_turn_memo_slot_t  slot[];
} behave_turn_memo_t;


/*
 * slots is rounded down to a power of two (at least a set).  NULL when
 * out of memory or when no random key could be had.
 */
behave_turn_memo_t *behave_turn_memo_create(size_t slots);

void behave_turn_memo_free(behave_turn_memo_t *memo);

/*
 * The slot of (agent, text) when it holds that turn, else NULL with *key
 * set for behave_turn_memo_put().
 */
const behave_turn_memo_slot_t *behave_turn_memo_get(behave_turn_memo_t *memo,
    int agent, const char *text, size_t len, behave_turn_memo_key_t *key);

/*
 * Keeps what was derived of the turn of key (derived: how much of rec, as
 * the caller counts it, for a turn of which only a part was needed); in
 * the slot that holds the turn already (more of it derived now), else in
 * the slot of the set used least recently.
 */
void behave_turn_memo_put(behave_turn_memo_t *memo,
    const behave_turn_memo_key_t *key, behave_urgency_e urgency,
    unsigned derived, const behave_conv_rec_t *rec);


#endif /* BEHAVE_TURN_MEMO_H */
