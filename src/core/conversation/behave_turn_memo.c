/*
 * Copyright (C) ngx_http_behave_module authors
 */


#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "conversation/behave_turn_memo.h"


behave_turn_memo_t *
behave_turn_memo_create(size_t slots)
{
    size_t               n;
    behave_turn_memo_t  *memo;

    for (n = BEHAVE_TURN_MEMO_WAYS; n * 2 <= slots; n *= 2) {
        /* void */
    }

    memo = calloc(1, sizeof(behave_turn_memo_t)
                     + n * sizeof(behave_turn_memo_slot_t));
    if (memo == NULL) {
        return NULL;
    }

    if (RAND_bytes(memo->key, sizeof(memo->key)) != 1) {
        free(memo);
        return NULL;
    }

    memo->mask = (n - 1) & ~(size_t) (BEHAVE_TURN_MEMO_WAYS - 1);

    return memo;
}


void
behave_turn_memo_free(behave_turn_memo_t *memo)
{
    free(memo);
}


const behave_turn_memo_slot_t *
behave_turn_memo_get(behave_turn_memo_t *memo, int agent, const char *text,
    size_t len, behave_turn_memo_key_t *key)
{
    size_t                    i;
    behave_turn_memo_slot_t  *s;

    /* a turn said by either side is two, in two sets */
    key->h = behave_siphash(memo->key, text, len)
             ^ (agent ? 0x9e3779b97f4a7c15ULL : 0);
    key->len = (uint32_t) len;
    key->agent = !!agent;
    key->used = 1;

    s = &memo->slot[key->h & memo->mask];

    for (i = 0; i < BEHAVE_TURN_MEMO_WAYS; i++) {
        if (s[i].key.used && s[i].key.h == key->h
            && s[i].key.len == key->len && s[i].key.agent == key->agent
            && len <= UINT32_MAX)
        {
            s[i].used_at = ++memo->clock;
            memo->hits++;
            return &s[i];
        }
    }

    memo->misses++;

    return NULL;
}


void
behave_turn_memo_put(behave_turn_memo_t *memo,
    const behave_turn_memo_key_t *key, behave_urgency_e urgency,
    unsigned derived, const behave_conv_rec_t *rec)
{
    size_t                    i;
    behave_turn_memo_slot_t  *s, *set;

    set = &memo->slot[key->h & memo->mask];
    s = NULL;

    /* the turn's own slot: one slot a turn, whatever was derived */
    for (i = 0; i < BEHAVE_TURN_MEMO_WAYS; i++) {
        if (set[i].key.used && set[i].key.h == key->h
            && set[i].key.len == key->len && set[i].key.agent == key->agent)
        {
            s = &set[i];
            break;
        }
    }

    /* else the set's slot used least recently (a free one has never been) */
    if (s == NULL) {
        s = set;

        for (i = 1; i < BEHAVE_TURN_MEMO_WAYS; i++) {
            if (set[i].used_at < s->used_at) {
                s = &set[i];
            }
        }
    }

    s->key = *key;
    s->used_at = ++memo->clock;
    s->urgency = urgency;
    s->derived = derived;
    s->rec = *rec;
}
