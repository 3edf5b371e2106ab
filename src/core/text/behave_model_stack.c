/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The critical stack (scripts/train): boosted trees over the critical
 * head's logit and which of the stack's features the message holds.
 *
 * scripts/gen-model writes the trees as linked nodes; walking them costs
 * a quarter of an annotation whose head's logit passes the gate (13k
 * instructions of a 17-word message: 300 trees of three tests each).
 * Every tree it writes is two tests deep, so at start each is laid out
 * flat: the slots of its three tests and its four leaves.  A message
 * answers every test once, a byte a slot: a feature's bit (a bit is 0
 * or 1, so "x <= value" is known for both at start), or whether the
 * logit passes a cut (the cuts sorted, so the passed ones are a prefix
 * found by bisection).  The leaves are summed in the trees' order, as
 * the walk summed them, so the score is the same float.  A table with a
 * deeper tree, or more than the flat table holds, is walked node by
 * node.
 */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "text/behave_model.h"
#include "text/behave_model_int.h"


/* the state holds a bit for every input of the stack the table can have */
_Static_assert(sizeof(((behave_model_state_t *) 0)->stack) * 8
               >= BEHAVE_STACK_BITS, "behave_model_state_t.stack too small");


#define BEHAVE_STACK_FLAT_MAX  1024     /* trees laid out flat */
#define BEHAVE_STACK_CUTS_MAX  (3 * BEHAVE_STACK_FLAT_MAX)
/* a message's answers: 0 and 1, the logit's cuts, the features' bits */
#define BEHAVE_STACK_SLOTS     (2 + BEHAVE_STACK_CUTS_MAX + BEHAVE_STACK_BITS)
#define BEHAVE_STACK_NO        0        /* the slot that is always 0 */
#define BEHAVE_STACK_YES       1        /* and always 1 */


/*
 * A tree, flat: the slots of its three tests (root, its left, its right)
 * and its four leaves (left-left ... right-right).  A test's answer is a
 * byte of the message's slots: 0 left, 1 right.  A leaf in a test's
 * place reads slot BEHAVE_STACK_NO and goes left, to two equal leaves.
 */
typedef struct {
    uint16_t               test[3];
    float                  leaf[4];
} behave_stack_tree_t;


static void behave_stack_flatten(void);
static int behave_stack_flat_test(unsigned n, uint16_t *test, float *leaf);
static int behave_stack_cmp(const void *a, const void *b);


static pthread_once_t       behave_stack_once = PTHREAD_ONCE_INIT;
static unsigned             behave_stack_flat;    /* 1: the table is used */
static behave_stack_tree_t  behave_stack_table[BEHAVE_STACK_FLAT_MAX];
/* the logit's tests' values, ascending: slot 2 + k answers "logit >
 * behave_stack_cut[k]" */
static float                behave_stack_cut[BEHAVE_STACK_CUTS_MAX];
static unsigned             behave_stack_cuts;
static unsigned             behave_stack_slots;   /* slots in use */


void
behave_model_stack_init(void)
{
    (void) pthread_once(&behave_stack_once, behave_stack_flatten);
}


/*
 * Every tree in the table; the logit's cuts first, sorted, so that the
 * ones a logit passes are a prefix (a NaN value is always passed: the
 * walk's "x <= NaN" is false)
 */
static void
behave_stack_flatten(void)
{
    unsigned                    t, n, r, k;
    behave_stack_tree_t        *tree;
    const behave_stack_node_t  *node;

    if (behave_stack_trees > BEHAVE_STACK_FLAT_MAX
        || behave_stack_node_n > BEHAVE_STACK_CUTS_MAX)
    {
        return;
    }

    for (n = 0; n < behave_stack_node_n; n++) {
        node = &behave_stack_nodes[n];
        if (node->input == 0 && node->value == node->value) {
            behave_stack_cut[behave_stack_cuts++] = node->value;
        }
    }

    qsort(behave_stack_cut, behave_stack_cuts, sizeof(float),
          behave_stack_cmp);

    behave_stack_slots = 2 + behave_stack_cuts + BEHAVE_STACK_BITS;

    for (t = 0; t < behave_stack_trees; t++) {
        tree = &behave_stack_table[t];
        r = behave_stack_roots[t];
        if (r >= behave_stack_node_n) {
            return;
        }

        node = &behave_stack_nodes[r];

        if (node->input < 0) {
            /* a lone leaf: every test goes left to it */
            memset(tree->test, 0, sizeof(tree->test));
            for (k = 0; k < 4; k++) {
                tree->leaf[k] = node->value;
            }

            continue;
        }

        if (behave_stack_flat_test(r, &tree->test[0], NULL) != 0
            || behave_stack_flat_test(node->left, &tree->test[1],
                                      &tree->leaf[0]) != 0
            || behave_stack_flat_test(node->right, &tree->test[2],
                                      &tree->leaf[2]) != 0)
        {
            return;
        }
    }

    behave_stack_flat = 1;
}


static int
behave_stack_cmp(const void *a, const void *b)
{
    float  x, y;

    x = *(const float *) a;
    y = *(const float *) b;

    return (x > y) - (x < y);
}


/*
 * Node n as a test's slot; with leaf, its two children as leaves (-1 if
 * one of them is a test: the tree is deeper than the table)
 */
static int
behave_stack_flat_test(unsigned n, uint16_t *test, float *leaf)
{
    float                       v;
    unsigned                    k, b0, b1;
    const behave_stack_node_t  *node, *l, *r;

    *test = BEHAVE_STACK_NO;

    if (n >= behave_stack_node_n) {
        return -1;
    }

    node = &behave_stack_nodes[n];

    if (node->input < 0) {
        if (leaf == NULL) {
            return -1;
        }

        leaf[0] = node->value;
        leaf[1] = node->value;
        return 0;
    }

    v = node->value;

    if (node->input > BEHAVE_STACK_BITS) {
        return -1;

    } else if (node->input == 0 && v != v) {
        *test = BEHAVE_STACK_YES;

    } else if (node->input == 0) {
        /* the first of equal cuts: the same answer */
        for (k = 0; behave_stack_cut[k] < v; k++) { /* void */ }
        *test = (uint16_t) (2 + k);

    } else {
        /* the walk's "x <= value" for a bit x of 0 and of 1 */
        b0 = !((float) 0 <= v);
        b1 = !((float) 1 <= v);
        *test = b0 == b1 ? (b0 ? BEHAVE_STACK_YES : BEHAVE_STACK_NO)
                         : (uint16_t) (2 + behave_stack_cuts
                                       + node->input - 1);
        if (b0) {
            /* right at 0 and left at 1: no tree gen-model writes */
            if (!b1) {
                return -1;
            }
        }
    }

    if (leaf == NULL) {
        return 0;
    }

    if (node->left >= behave_stack_node_n
        || node->right >= behave_stack_node_n)
    {
        return -1;
    }

    l = &behave_stack_nodes[node->left];
    r = &behave_stack_nodes[node->right];

    if (l->input >= 0 || r->input >= 0) {
        return -1;
    }

    leaf[0] = l->value;
    leaf[1] = r->value;

    return 0;
}


int
behave_model_stack_flat(void)
{
    behave_model_stack_init();

    return behave_stack_flat;
}


/*
 * The stack's score, above 0 critical, as the head's logit alone was
 * without a stack
 */
float
behave_model_stack(const behave_model_state_t *m)
{
    float                       s, logit;
    uint8_t                     slot[BEHAVE_STACK_SLOTS];
    uint64_t                    w;
    unsigned                    t, lo, hi, mid, i, b0, b1;
    const behave_stack_tree_t  *tree;

    logit = m->logit[BEHAVE_MODEL_CRIT];

    if (behave_stack_trees == 0) {
        return logit;
    }

    /* far below the head's threshold the trees were not trained to
     * rescue anything (scripts/train, STACK_GATE_MISS) */
    if (logit <= behave_stack_gate) {
        return -1.0f;
    }

    behave_model_stack_init();

    if (!behave_stack_flat) {
        return behave_model_stack_walked(m);
    }

    /* the cuts the logit passes: "!(logit <= cut)", a prefix */
    lo = 0;
    hi = behave_stack_cuts;

    if (logit != logit) {
        lo = hi;
    }

    while (lo < hi) {
        mid = (lo + hi) / 2;
        if (behave_stack_cut[mid] < logit) {
            lo = mid + 1;

        } else {
            hi = mid;
        }
    }

    memset(slot, 0, behave_stack_slots);
    slot[BEHAVE_STACK_YES] = 1;
    memset(slot + 2, 1, lo);

    /* the features' bits: a few of them set */
    for (i = 0; i < BEHAVE_STACK_BITS / 64; i++) {
        for (w = m->stack[i]; w; w &= w - 1) {
            slot[2 + behave_stack_cuts + 64 * i
                 + (unsigned) __builtin_ctzll(w)] = 1;
        }
    }

    s = behave_stack_init;

    for (t = 0; t < behave_stack_trees; t++) {
        tree = &behave_stack_table[t];
        b0 = slot[tree->test[0]];
        b1 = slot[tree->test[1 + b0]];
        s += tree->leaf[2 * b0 + b1];
    }

    return s;
}


/* the linked nodes as scripts/gen-model wrote them, any depth */
float
behave_model_stack_walked(const behave_model_state_t *m)
{
    float                       s, x;
    unsigned                    t, n, b;
    const behave_stack_node_t  *node;

    s = behave_stack_init;

    for (t = 0; t < behave_stack_trees; t++) {
        n = behave_stack_roots[t];

        for ( ;; ) {
            node = &behave_stack_nodes[n];

            if (node->input < 0) {
                s += node->value;
                break;
            }

            if (node->input == 0) {
                x = m->logit[BEHAVE_MODEL_CRIT];

            } else {
                b = node->input - 1;
                x = (float) ((m->stack[b >> 6] >> (b & 63)) & 1);
            }

            n = x <= node->value ? node->left : node->right;
        }
    }

    return s;
}


/*
 * The stack's tables as scripts/gen-model wrote them: every root is a
 * node, every split's children come after it (so every walk ends at a
 * leaf), and every input it reads is a feature's row, so that it can be
 * present.
 */
int
behave_model_stack_sound(void)
{
    unsigned                    t, n, k;
    uint64_t                    have[BEHAVE_STACK_BITS / 64];
    const behave_stack_node_t  *node;

    memset(have, 0, sizeof(have));

    for (n = 0; n < behave_model_n; n++) {
        k = (uint16_t) behave_model_rows[n][BEHAVE_MODEL_ROW - 1];
        if (k != 0 && k <= BEHAVE_STACK_BITS) {
            have[(k - 1) >> 6] |= (uint64_t) 1 << ((k - 1) & 63);
        }
    }

    for (t = 0; t < behave_stack_trees; t++) {
        if (behave_stack_roots[t] >= behave_stack_node_n) {
            return 0;
        }
    }

    for (n = 0; n < behave_stack_node_n; n++) {
        node = &behave_stack_nodes[n];

        if (node->input < 0) {
            continue;
        }

        if (node->left <= n || node->right <= n
            || node->left >= behave_stack_node_n
            || node->right >= behave_stack_node_n)
        {
            return 0;
        }

        k = node->input - 1;
        if (node->input > 0
            && (k >= BEHAVE_STACK_BITS
                || !((have[k >> 6] >> (k & 63)) & 1)))
        {
            return 0;
        }
    }

    return 1;
}
