/*
 * The model's serving layouts give the sums and scores of the tables as
 * written: the critical stack's flat trees the same float as the walk of
 * its linked nodes, whatever the logit (its cuts exactly, either side of
 * them, NaN) and the features' bits; the risk network's and the meaning
 * signature's int16 runs the same integers as int32 sums, over more rows
 * of the most negative weight than an int16 holds.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "text/behave_model.h"
#include "text/behave_model_int.h"
#include "text/behave_risk.h"
#include "text/behave_risk_data.h"


#define ROWS  1000      /* rows of one weight: beyond an int16 run */


static uint32_t  rnd = 12345;


static uint32_t
next_rnd(void)
{
    rnd ^= rnd << 13;
    rnd ^= rnd >> 17;
    rnd ^= rnd << 5;

    return rnd;
}


static float
logit_case(unsigned i)
{
    unsigned                    n;
    const behave_stack_node_t  *node;

    switch (i % 5) {

    case 0:
        return ((float) (next_rnd() % 12000) - 6000.0f) / 1000.0f;

    case 1:
        return NAN;

    default:
        /* a cut of the logit, or just beside it */
        for (n = next_rnd() % behave_stack_node_n; n < behave_stack_node_n;
             n++)
        {
            node = &behave_stack_nodes[n];
            if (node->input == 0) {
                return i % 5 == 2 ? node->value
                       : nextafterf(node->value, i % 5 == 3 ? -INFINITY
                                                            : INFINITY);
            }
        }

        return 0.0f;
    }
}


static void
test_stack(void)
{
    float                 got, want;
    unsigned              i, k, bits, bad;
    behave_model_state_t  m;

    if (behave_stack_trees == 0) {
        skip("no critical stack compiled in");
        return;
    }

    /* the shipped trees are two tests deep: a flat layout that fails
     * would fall back to the walk, slower and silent */
    ok(behave_model_stack_flat(), "the stack's trees are laid out flat");

    bad = 0;

    for (i = 0; i < 200000; i++) {
        memset(&m, 0, sizeof(m));
        m.logit[BEHAVE_MODEL_CRIT] = logit_case(i);

        bits = next_rnd() % 24;
        for (k = 0; k < bits; k++) {
            m.stack[(next_rnd() >> 6) % 4] |= (uint64_t) 1
                                               << (next_rnd() % 64);
        }

        got = behave_model_stack(&m);
        want = m.logit[BEHAVE_MODEL_CRIT] <= behave_stack_gate
               ? -1.0f : behave_model_stack_walked(&m);

        bad += memcmp(&got, &want, sizeof(float)) != 0;
    }

    is_int(bad, 0, "200,000 stacks: the flat trees' score is the walk's");
}


static void
test_risk_run(void)
{
    unsigned             i, j, row, worst, bad;
    int32_t              want[BEHAVE_RISK_HIDDEN];
    uint32_t             f;
    const int8_t        *w;
    behave_risk_state_t  r;

    if (behave_risk_net_bits == 0) {
        skip("no risk network compiled in");
        return;
    }

    /* the row holding the most negative weight, ROWS times */
    worst = 0;
    for (row = 0; row <= behave_risk_net_mask; row++) {
        for (j = 0; j < BEHAVE_RISK_HIDDEN; j++) {
            if (behave_risk_net_w[row * BEHAVE_RISK_HIDDEN + j]
                < behave_risk_net_w[worst])
            {
                worst = row * BEHAVE_RISK_HIDDEN + j;
            }
        }
    }

    row = worst / BEHAVE_RISK_HIDDEN;
    w = behave_risk_net_w + row * BEHAVE_RISK_HIDDEN;
    ok(w[worst % BEHAVE_RISK_HIDDEN] < 0, "a negative network weight: %d",
       w[worst % BEHAVE_RISK_HIDDEN]);

    memset(&r, 0, sizeof(r));
    for (i = 0; i < ROWS; i++) {
        behave_risk_feature(&r, row);
    }

    bad = 0;
    for (j = 0; j < BEHAVE_RISK_HIDDEN; j++) {
        bad += r.hidden[j] + r.run[j] != ROWS * (int32_t) w[j];
    }

    is_int(bad, 0, "%d rows of the most negative weight: exact sums", ROWS);

    /* and rows at random */
    memset(&r, 0, sizeof(r));
    memset(want, 0, sizeof(want));

    for (i = 0; i < 20000; i++) {
        f = next_rnd();
        behave_risk_feature(&r, f);
        w = behave_risk_net_w
            + (size_t) (f & behave_risk_net_mask) * BEHAVE_RISK_HIDDEN;

        for (j = 0; j < BEHAVE_RISK_HIDDEN; j++) {
            want[j] += w[j];
        }
    }

    bad = 0;
    for (j = 0; j < BEHAVE_RISK_HIDDEN; j++) {
        bad += r.hidden[j] + r.run[j] != want[j];
    }

    is_int(bad, 0, "20,000 rows at random: exact sums");
    is_int(r.n, 20000, "every row counted");
}


static void
test_meaning_run(void)
{
    unsigned              i, k, s, best, bad;
    int                   low;
    const int8_t         *v;
    behave_model_state_t  m;

    if (behave_meaning_n == 0) {
        skip("no meaning rows compiled in");
        return;
    }

    /* the feature whose meaning row holds the most negative weight */
    best = 0;
    low = 0;
    for (s = 0; s <= behave_meaning_mask; s++) {
        if (behave_meaning_slots[s].key == 0) {
            continue;
        }

        v = behave_meaning_rows[behave_meaning_slots[s].row - 1];
        for (k = 0; k < BEHAVE_MEANING_AXES; k++) {
            if (v[k] < low) {
                low = v[k];
                best = s;
            }
        }
    }

    ok(low < 0, "a negative meaning weight: %d", low);

    v = behave_meaning_rows[behave_meaning_slots[best].row - 1];
    behave_model_init(&m);

    for (i = 0; i < ROWS; i++) {
        behave_feature(&m, behave_meaning_slots[best].key, 1, "%s", "");
    }

    bad = 0;
    for (k = 0; k < BEHAVE_MEANING_AXES; k++) {
        bad += m.meaning[k] + m.meaning_run[k] != ROWS * (int32_t) v[k];
    }

    is_int(bad, 0, "%d meaning rows of the most negative weight: exact",
           ROWS);
}


int
main(void)
{
    behave_model_tables_init();

    test_stack();
    test_risk_run();
    test_meaning_run();

    return tap_done();
}
