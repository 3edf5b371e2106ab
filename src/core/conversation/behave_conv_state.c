/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A conversation's state: the push and the stored form; see
 * behave_conv_state.h.
 */

#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "base/behave_hex.h"
#include "conversation/behave_conv_state.h"
#include "behave_conv_state_layout.h"    /* generated: the places */


static void behave_conv_put32(unsigned char *p, uint32_t v);
static uint32_t behave_conv_get32(const unsigned char *p);
static void behave_conv_rec_decode(const unsigned char *p,
    behave_conv_rec_t *rec);


/* the customer turn i places before the newest of `customers` */
#define behave_conv_older(customers, i)  ((customers) - 1 - (i))


void
behave_conv_state_init(behave_conv_state_t *st)
{
    memset(st, 0, sizeof(*st));
    st->claim_turn = BEHAVE_CONV_NONE;
    st->claim_prev_turn = BEHAVE_CONV_NONE;
}


/* keep in step with the Lua of ngx_http_behave_conversation.c */
void
behave_conv_state_push(behave_conv_state_t *st, behave_conv_rec_t *rec)
{
    rec->turn = st->turns;

    if (!rec->customer) {
        if (rec->claim) {
            st->claim_turn = st->turns;
            st->claim_what = rec->claim;
        }

        st->turns++;
        return;
    }

    st->peak_prev = st->peak;
    st->fr_prev = st->fr;
    st->claim_prev_turn = st->claim_turn;
    st->claim_prev_what = st->claim_what;

    if (rec->severity > st->peak) {
        st->peak = rec->severity;
    }

    if (st->claim_turn != BEHAVE_CONV_NONE
        && (rec->flags & BEHAVE_CONV_F_DENIES))
    {
        st->fr = 1;
    }

    st->claim_turn = BEHAVE_CONV_NONE;
    st->claim_what = 0;
    st->customers++;

    memmove(&st->rec[1], &st->rec[0],
            (BEHAVE_CONV_RING - 1) * sizeof(behave_conv_rec_t));
    st->rec[0] = *rec;

    /* the current turn's alone, never stored: a state folded here reads
     * as one decoded from storage */
    st->rec[0].priority = 0;
    st->rec[0].interim = 0;

    st->nrec += st->nrec < BEHAVE_CONV_RING;
    st->nmean += st->nmean < BEHAVE_CONV_MEANINGS;

    st->turns++;
}


static void
behave_conv_put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char) v;
    p[1] = (unsigned char) (v >> 8);
    p[2] = (unsigned char) (v >> 16);
    p[3] = (unsigned char) (v >> 24);
}


static uint32_t
behave_conv_get32(const unsigned char *p)
{
    return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16
           | (uint32_t) p[3] << 24;
}


void
behave_conv_rec_encode(const behave_conv_rec_t *rec, unsigned char *p)
{
    unsigned  i, k;
    uint16_t  v;

    p[0] = (unsigned char) rec->severity;
    p[1] = (unsigned char) rec->urgency;
    p[2] = (unsigned char) rec->load;
    p[3] = (unsigned char) rec->flags;
    p[4] = (unsigned char) (rec->flags >> 8);
    v = (uint16_t) (int16_t) rec->valence;
    p[5] = (unsigned char) v;
    p[6] = (unsigned char) (v >> 8);
    behave_conv_put32(p + 7, rec->cues);
    p[11] = (unsigned char) rec->quote;
    p[12] = (unsigned char) rec->specialist;
    p[13] = (unsigned char) rec->overload;
    p[14] = (unsigned char) rec->confusion;
    p[15] = (unsigned char) rec->vague;
    p[16] = (unsigned char) rec->vague_n;
    p[17] = (unsigned char) (rec->nids > 255 ? 255 : rec->nids);
    behave_conv_put32(p + 18, rec->ids[0]);
    behave_conv_put32(p + 22, rec->ids[1]);
    p[26] = (unsigned char) rec->sketch.n;
    p[27] = (unsigned char) (rec->sketch.n >> 8);

    for (i = 0; i < BEHAVE_SIM_SKETCH_WORDS; i++) {
        for (k = 0; k < 8; k++) {
            p[28 + 8 * i + k] = (unsigned char) (rec->sketch.bits[i] >> 8 * k);
        }
    }
}


static void
behave_conv_rec_decode(const unsigned char *p, behave_conv_rec_t *rec)
{
    unsigned  i;
    uint64_t  w;

    rec->customer = 1;
    rec->severity = p[0] > 4 ? 4 : p[0];
    rec->urgency = p[1];
    rec->load = p[2];
    rec->flags = p[3] | (unsigned) p[4] << 8;
    rec->valence = (int16_t) (uint16_t) (p[5] | p[6] << 8);
    rec->cues = behave_conv_get32(p + 7);
    rec->quote = p[11];
    rec->specialist = p[12];
    rec->overload = p[13];
    rec->confusion = p[14];
    rec->vague = p[15];
    rec->vague_n = p[16];
    rec->nids = p[17];
    rec->ids[0] = behave_conv_get32(p + 18);
    rec->ids[1] = behave_conv_get32(p + 22);
    rec->sketch.n = p[26] | (unsigned) p[27] << 8;
    rec->claim = 0;

    /* little-endian words: one load each, not eight shifts (decoding
     * the ring was a third of what history adds to a turn) */
    for (i = 0; i < BEHAVE_SIM_SKETCH_WORDS; i++) {
        memcpy(&w, p + 28 + 8 * i, sizeof(w));
        rec->sketch.bits[i] = le64toh(w);
    }
}


/* where customer turn c's meaning and record are stored */
#define behave_conv_mean_at(c)                                                \
    (BEHAVE_CONV_HEADER_SIZE                                                 \
     + ((c) % BEHAVE_CONV_MEANINGS) * BEHAVE_MEANING_DIM)
#define behave_conv_rec_at(c)                                                 \
    (BEHAVE_CONV_HEADER_SIZE + BEHAVE_CONV_MEANINGS * BEHAVE_MEANING_DIM      \
     + ((c) % BEHAVE_CONV_RING) * (4 + BEHAVE_CONV_REC_SIZE))


/* the length a state of nrec records has: the tail starts there */
static size_t
behave_conv_state_len(uint32_t nrec)
{
    if (nrec == 0) {
        return BEHAVE_CONV_HEADER_SIZE;
    }

    return BEHAVE_CONV_HEADER_SIZE + BEHAVE_CONV_MEANINGS * BEHAVE_MEANING_DIM
           + nrec * (4 + BEHAVE_CONV_REC_SIZE);
}


/*
 * The newest record (rec[0]) is customer turn customers - 1: rec[i] is
 * turn customers - 1 - i, whose slot is that modulo the ring.
 */
size_t
behave_conv_state_encode(const behave_conv_state_t *st, char *buf)
{
    unsigned        i, c;
    size_t          len;
    unsigned char  *q;

    len = behave_conv_state_len(st->nrec);

    sprintf(buf, BEHAVE_CONV_LAYOUT_FORMAT,
            BEHAVE_CONV_STATE_VERSION, (unsigned) st->turns,
            (unsigned) st->customers, st->peak, st->fr,
            (unsigned) st->claim_turn, st->claim_what & 0xff,
            st->peak_prev, st->fr_prev, (unsigned) st->claim_prev_turn,
            st->claim_prev_what & 0xff, (unsigned) st->dropped,
            st->nrec, st->nmean);

    memset(buf + BEHAVE_CONV_HEADER_SIZE, 0, len - BEHAVE_CONV_HEADER_SIZE);

    for (i = 0; i < st->nmean; i++) {
        c = behave_conv_older(st->customers, i);
        memcpy(buf + behave_conv_mean_at(c), st->rec[i].meaning,
               BEHAVE_MEANING_DIM);
    }

    for (i = 0; i < st->nrec; i++) {
        q = (unsigned char *) buf
            + behave_conv_rec_at(behave_conv_older(st->customers, i));
        behave_conv_put32(q, st->rec[i].turn);
        behave_conv_rec_encode(&st->rec[i], q + 4);
    }

    return len;
}


size_t
behave_conv_state_size(const char *s, size_t len)
{
    size_t    n;
    uint32_t  nrec;

    if (s == NULL || len < BEHAVE_CONV_HEADER_SIZE
        || memcmp(s, BEHAVE_CONV_STATE_VERSION, 2) != 0
        || behave_hex_field(s + BEHAVE_CONV_LAYOUT_AT_NREC,
                            BEHAVE_CONV_LAYOUT_W_NREC, &nrec) != 0)
    {
        return 0;
    }

    n = behave_conv_state_len(nrec);

    return n <= len ? n : 0;
}


int
behave_conv_state_decode(const char *s, size_t len, behave_conv_state_t *st)
{
    size_t          i;
    uint32_t        v[BEHAVE_CONV_LAYOUT_HEX_FIELDS];
    const unsigned char  *q;

    /* turns, customers, peak, fr, claim, peak_prev, fr_prev, claim_prev,
     * dropped, nrec, nmean */
    static const unsigned char  at[] = BEHAVE_CONV_LAYOUT_HEX_AT;
    static const unsigned char  width[] = BEHAVE_CONV_LAYOUT_HEX_W;

    if (s == NULL || len < BEHAVE_CONV_HEADER_SIZE
        || memcmp(s, BEHAVE_CONV_STATE_VERSION, 2) != 0)
    {
        return -1;
    }

    for (i = 0; i < BEHAVE_CONV_LAYOUT_HEX_FIELDS; i++) {
        if (behave_hex_field(s + at[i], width[i], &v[i]) != 0) {
            return -1;
        }
    }

    /* the slots of the newest nrec customer turns are those written */
    if (v[2] > 4 || v[3] > 1 || v[6] > 4 || v[7] > 1
        || v[11] > BEHAVE_CONV_RING || v[12] > BEHAVE_CONV_MEANINGS
        || v[12] > v[11] || v[11] > v[1]
        || v[11] != (v[1] < BEHAVE_CONV_RING ? v[1] : BEHAVE_CONV_RING)
        || len != behave_conv_state_len(v[11]))
    {
        return -1;
    }

    behave_conv_state_init(st);

    st->turns = v[0];
    st->customers = v[1];
    st->peak = (int) v[2];
    st->fr = (int) v[3];
    st->claim_turn = v[4];
    st->claim_what = v[5];
    st->peak_prev = (int) v[6];
    st->fr_prev = (int) v[7];
    st->claim_prev_turn = v[8];
    st->claim_prev_what = v[9];
    st->dropped = v[10];
    st->nrec = v[11];
    st->nmean = v[12];

    for (i = 0; i < st->nmean; i++) {
        memcpy(st->rec[i].meaning,
               s + behave_conv_mean_at(behave_conv_older(st->customers, i)),
               BEHAVE_MEANING_DIM);
    }

    for (i = 0; i < st->nrec; i++) {
        q = (const unsigned char *) s
            + behave_conv_rec_at(behave_conv_older(st->customers, i));
        st->rec[i].turn = behave_conv_get32(q);
        behave_conv_rec_decode(q + 4, &st->rec[i]);
    }

    return 0;
}
