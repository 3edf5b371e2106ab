/*
 * Copyright (C) ngx_http_behave_module authors
 */


#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "behave_turn_memo.h"


behave_turn_memo_t *
behave_turn_memo_create(size_t slots)
{
    size_t               n;
    behave_turn_memo_t  *memo;

    for (n = 1; n * 2 <= slots; n *= 2) {
        /* void */
    }

    memo = calloc(1, sizeof(behave_turn_memo_t)
                     + n * sizeof(behave_turn_memo_slot_t));
    if (memo == NULL) {
        return NULL;
    }

    if (RAND_bytes(&memo->key[0][0], sizeof(memo->key)) != 1) {
        free(memo);
        return NULL;
    }

    memo->mask = n - 1;

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
    const behave_turn_memo_slot_t  *s;

    /* the role is in the hashes: a turn said by either side is two */
    key->h[0] = behave_siphash(memo->key[0], text, len) ^ (uint64_t) !!agent;
    key->h[1] = behave_siphash(memo->key[1], text, len);
    key->len = (uint32_t) len;
    key->agent = !!agent;
    key->used = 1;

    s = &memo->slot[key->h[0] & memo->mask];

    if (s->key.used && s->key.h[0] == key->h[0] && s->key.h[1] == key->h[1]
        && s->key.len == key->len && s->key.agent == key->agent
        && len <= UINT32_MAX)
    {
        memo->hits++;
        return s;
    }

    memo->misses++;

    return NULL;
}


void
behave_turn_memo_put(behave_turn_memo_t *memo,
    const behave_turn_memo_key_t *key, behave_urgency_e urgency,
    const behave_conv_rec_t *rec)
{
    behave_turn_memo_slot_t  *s;

    s = &memo->slot[key->h[0] & memo->mask];

    s->key = *key;
    s->urgency = urgency;
    s->rec = *rec;
}
