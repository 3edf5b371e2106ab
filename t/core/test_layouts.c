/*
 * The stored forms that C and the Redis scripts both read, against their
 * one description (*.layout, scripts/gen-redis-scripts): a conversation's
 * state as behave_conv_state_encode() writes it has each header field
 * where behave_conv_state.layout says, and the sizes the Lua uses are the
 * core's; the hot state's head is the size behave_gw_hot.layout gives.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "text/behave_annotation.h"
#include "conversation/behave_conv_state.h"
#include "behave_conv_state_layout.h"
#include "gateway/behave_gw_session.h"
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
    size_t                i, len;
    behave_conv_state_t   st;

    /* each field of the header (every one 4 bytes in the struct) */
#define field(f, F, v)                                                        \
    { #F, BEHAVE_CONV_LAYOUT_AT_ ## F, BEHAVE_CONV_LAYOUT_W_ ## F,            \
      offsetof(behave_conv_state_t, f), v }

    static const struct {
        const char  *name;
        size_t       at;
        size_t       w;
        size_t       off;
        uint32_t     v;
    } fields[] = {
        field(turns, TURNS, 0x12345678),
        field(customers, CUSTOMERS, 0x0a0b0c0d),
        field(peak, PEAK, 3),
        field(fr, FR, 1),
        field(claim_turn, CLAIM_TURN, 0x00c0ffee),
        field(claim_what, CLAIM_WHAT, 0x2a),
        field(peak_prev, PEAK_PREV, 2),
        field(fr_prev, FR_PREV, 0),
        field(claim_prev_turn, CLAIM_PREV_TURN, 0xdeadbeef),
        field(claim_prev_what, CLAIM_PREV_WHAT, 0x17),
        field(dropped, DROPPED, 0x00abcdef),
        field(nrec, NREC, 0),
        field(nmean, NMEAN, 0),
    };

#undef field

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

    for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        memcpy((char *) &st + fields[i].off, &fields[i].v, sizeof(uint32_t));
    }

    len = behave_conv_state_encode(&st, buf);
    is_int(len, BEHAVE_CONV_LAYOUT_SIZE, "conversation state: header only");

    ok(memcmp(buf + BEHAVE_CONV_LAYOUT_AT_VERSION, BEHAVE_CONV_LAYOUT_VERSION,
              BEHAVE_CONV_LAYOUT_W_VERSION) == 0,
       "conversation state: version where the layout says");

    for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        field_is(buf, fields[i].at, fields[i].w, fields[i].v, fields[i].name);
    }

    is_int(BEHAVE_GW_HOT_HEAD, BEHAVE_GW_HOT_LAYOUT_SIZE,
           "hot state: head size");
    is_int(BEHAVE_GW_HOT_LAYOUT_SIZE, 29, "hot state: 29 bytes, as stored");

    return tap_done();
}
