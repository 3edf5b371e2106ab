/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The pure core's share of a conversation turn, as the module does it:
 * annotate the text, derive its turn and record, encode the record, and
 * (once there is history) decode the state and assess against it.  Meant
 * to be counted with callgrind, which is steady on a shared machine where
 * a clock is not:
 *
 *     valgrind --tool=callgrind --toggle-collect=cost_turn \
 *         behave_conv_cost [-f | -h HISTORY] FILE.jsonl...
 *
 * Every turn of every conversation of the files is measured once; with
 * -f, each as a conversation's first turn (no state to assess); with
 * -h HISTORY, each conversation is preceded by HISTORY turns cycled from
 * the files (the state's ring is the same size whatever the history, but
 * its records are those of a long chat).  Prints the turns measured: the
 * instructions a turn are the collected total over that.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "text/behave_annotate.h"
#include "conversation/behave_conv_state.h"
#include "conversation/behave_conversation.h"
#include "tools/behave_jsonl.h"
#include "conversation/behave_turn.h"


#define COST_MAX_TURNS  20000


static behave_jsonl_turn_t   turns[COST_MAX_TURNS];
static behave_jsonl_turns_t  corpus = { turns, 0, COST_MAX_TURNS };
static char         state_buf[BEHAVE_CONV_STATE_MAX];
static size_t       state_len;


static void cost_turn(const behave_jsonl_turn_t *ct,
    behave_conv_result_t *res);


/* one turn, as the module's analyze handler and its Redis reply do it */
static __attribute__((noinline)) void
cost_turn(const behave_jsonl_turn_t *ct, behave_conv_result_t *res)
{
    size_t                len;
    unsigned char         enc[BEHAVE_CONV_REC_SIZE];
    behave_turn_t         t;
    behave_conv_rec_t     rec;
    behave_conv_state_t   st;
    behave_annotation_t   a;

    len = strlen(ct->text);

    behave_annotate(ct->text, len, &a);
    behave_turn_from_annotation(&t, ct->agent ? BEHAVE_SPEAKER_AGENT
                                              : BEHAVE_SPEAKER_CUSTOMER,
                                ct->text, len, &a, 0);
    behave_conversation_record(&t, &rec);
    behave_conv_rec_encode(&rec, enc);

    if (state_len > 0 && behave_conv_state_decode(state_buf, state_len, &st)
                         == 0)
    {
        behave_conversation_assess_state(&st, &rec, res);
    }
}


/* what Redis's script does between turns, outside the count */
static void
cost_push(behave_conv_state_t *st, const behave_jsonl_turn_t *ct)
{
    behave_turn_t        t;
    behave_conv_rec_t    rec;
    behave_annotation_t  a;

    behave_annotate(ct->text, strlen(ct->text), &a);
    behave_turn_from_annotation(&t, ct->agent ? BEHAVE_SPEAKER_AGENT
                                              : BEHAVE_SPEAKER_CUSTOMER,
                                ct->text, strlen(ct->text), &a, 0);
    behave_conversation_record(&t, &rec);
    behave_conv_state_push(st, &rec);
    state_len = behave_conv_state_encode(st, state_buf);
}


int
main(int argc, char **argv)
{
    int                   i, history, lone;
    size_t                k, h, measured;
    unsigned              sink;
    behave_conv_state_t   st;
    behave_conv_result_t  res;

    history = 0;
    lone = 0;
    i = 1;

    if (argc > 1 && strcmp(argv[1], "-f") == 0) {
        lone = 1;
        i = 2;

    } else if (argc > 2 && strcmp(argv[1], "-h") == 0) {
        history = atoi(argv[2]);
        i = 3;
    }

    if (i >= argc) {
        fprintf(stderr,
                "usage: behave_conv_cost [-f | -h HISTORY] FILE.jsonl...\n");
        return 2;
    }

    for (/* void */; i < argc; i++) {
        behave_jsonl_turns(argv[i], &corpus);
    }

    if (corpus.n == 0) {
        fprintf(stderr, "behave_conv_cost: no turns\n");
        return 1;
    }

    measured = 0;
    sink = 0;
    h = 0;

    for (k = 0; k < corpus.n; k++) {
        if (turns[k].first || lone) {
            behave_conv_state_init(&st);
            state_len = 0;

            for (i = 0; i < history; i++) {
                cost_push(&st, &turns[h++ % corpus.n]);
            }
        }

        memset(&res, 0, sizeof(res));
        cost_turn(&turns[k], &res);
        sink += (unsigned) res.action;
        measured++;

        cost_push(&st, &turns[k]);
    }

    printf("turns: %zu (%s %d)\n", measured, lone ? "first" : "history",
           history);

    return sink == 0xffffffffu;
}
