/*
 * The stored forms that C and the Redis scripts both read, against their
 * one description (*.layout, scripts/gen-redis-scripts): a conversation's
 * state as behave_conv_state_encode() writes it has each header field
 * where behave_conv_state.layout says, and the sizes the Lua uses are the
 * core's; the hot state's head is the size behave_gw_hot.layout gives.
 */

#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "behave_annotation.h"
#include "behave_conv_state.h"
#include "behave_conv_state_layout.h"
#include "behave_gw_session.h"
#include "behave_gw_hot_layout.h"


/* the field at (at, w) of s, as hex, is v */
static void
field_is(const char *s, size_t at, size_t w, unsigned long v,
    const char *name)
{
    char  want[32], got[32];

    snprintf(want, sizeof(want), "%0*lx", (int) w, v);
    memcpy(got, s + at, w);
    got[w] = '\0';

    is_str(got, want, "conversation state: %s where the layout says", name);
}


int
main(void)
{
    char                  buf[BEHAVE_CONV_STATE_MAX];
    size_t                len;
    behave_conv_state_t   st;

    is_int(BEHAVE_CONV_LAYOUT_SIZE, BEHAVE_CONV_HEADER_SIZE,
           "conversation state: header size");
    is_str(BEHAVE_CONV_LAYOUT_VERSION, BEHAVE_CONV_STATE_VERSION,
           "conversation state: version");
    is_int(BEHAVE_CONV_LAYOUT_MEANING, BEHAVE_MEANING_DIM,
           "conversation state: meaning size");
    is_int(BEHAVE_CONV_LAYOUT_MEANINGS, BEHAVE_CONV_MEANINGS,
           "conversation state: meaning slots");
    is_int(BEHAVE_CONV_LAYOUT_REC, BEHAVE_CONV_REC_SIZE,
           "conversation state: record size");
    is_int(BEHAVE_CONV_LAYOUT_RING, BEHAVE_CONV_RING,
           "conversation state: record slots");

    /* every field a value of its own, so that none is read for another */
    behave_conv_state_init(&st);
    st.turns = 0x12345678;
    st.customers = 0x0a0b0c0d;
    st.peak = 3;
    st.fr = 1;
    st.claim_turn = 0x00c0ffee;
    st.claim_what = 0x2a;
    st.peak_prev = 2;
    st.fr_prev = 0;
    st.claim_prev_turn = 0xdeadbeef;
    st.claim_prev_what = 0x17;
    st.dropped = 0x00abcdef;
    st.nrec = 0;
    st.nmean = 0;

    len = behave_conv_state_encode(&st, buf);
    is_int(len, BEHAVE_CONV_LAYOUT_SIZE, "conversation state: header only");

    ok(memcmp(buf + BEHAVE_CONV_LAYOUT_AT_VERSION, BEHAVE_CONV_LAYOUT_VERSION,
              BEHAVE_CONV_LAYOUT_W_VERSION) == 0,
       "conversation state: version where the layout says");

#define field(f, v)                                                           \
    field_is(buf, BEHAVE_CONV_LAYOUT_AT_ ## f, BEHAVE_CONV_LAYOUT_W_ ## f,    \
             (unsigned long) (v), #f)

    field(TURNS, st.turns);
    field(CUSTOMERS, st.customers);
    field(PEAK, st.peak);
    field(FR, st.fr);
    field(CLAIM_TURN, st.claim_turn);
    field(CLAIM_WHAT, st.claim_what);
    field(PEAK_PREV, st.peak_prev);
    field(FR_PREV, st.fr_prev);
    field(CLAIM_PREV_TURN, st.claim_prev_turn);
    field(CLAIM_PREV_WHAT, st.claim_prev_what);
    field(DROPPED, st.dropped);
    field(NREC, st.nrec);
    field(NMEAN, st.nmean);

#undef field

    is_int(BEHAVE_GW_HOT_HEAD, BEHAVE_GW_HOT_LAYOUT_SIZE,
           "hot state: head size");
    is_int(BEHAVE_GW_HOT_LAYOUT_SIZE, 29, "hot state: 29 bytes, as stored");

    return tap_done();
}
