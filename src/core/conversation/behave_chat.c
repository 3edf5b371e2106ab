/*
 * Copyright (C) ngx_http_behave_module authors
 */


#include <stdlib.h>

#include "behave_chat.h"
#include "behave_turn.h"


static void behave_chat_turn(const behave_chat_turn_t *ct,
    const behave_annotation_t *a, behave_turn_memo_t *memo,
    behave_conv_rec_t *rec, behave_urgency_e *urgency, size_t *annotated);


int
behave_chat_assess(const behave_chat_t *chat,
    const behave_annotation_t *latest, behave_turn_memo_t *memo,
    behave_chat_findings_t *out)
{
    size_t              i, n;
    behave_urgency_e    urgency;
    behave_conv_rec_t  *recs;

    n = chat->n;

    if (n < 2) {
        return -1;
    }

    recs = malloc(n * sizeof(behave_conv_rec_t));
    if (recs == NULL) {
        return -1;
    }

    out->turns = n;
    out->annotated = 0;
    out->peak_urgency = latest->urgency;

    for (i = 0; i < n; i++) {
        behave_chat_turn(&chat->turn[i], i == n - 1 ? latest : NULL, memo,
                         &recs[i], &urgency, &out->annotated);

        if (chat->turn[i].role == BEHAVE_CHAT_USER
            && urgency > out->peak_urgency)
        {
            out->peak_urgency = urgency;
        }
    }

    behave_conversation_assess_records(recs, n - 1, &recs[n - 1], &out->conv);
    free(recs);

    return 0;
}


/*
 * A turn's record and urgency: remembered, or derived as /v1/analyze's
 * conversation step derives them (behave_turn_from_annotation(), then
 * behave_conversation_record()), from a (the caller's) or from an
 * annotation made here.
 */

static void
behave_chat_turn(const behave_chat_turn_t *ct, const behave_annotation_t *a,
    behave_turn_memo_t *memo, behave_conv_rec_t *rec,
    behave_urgency_e *urgency, size_t *annotated)
{
    behave_turn_t                   t;
    behave_annotation_t             ann;
    behave_turn_memo_key_t          key;
    const behave_turn_memo_slot_t  *s;

    if (memo != NULL) {
        s = behave_turn_memo_get(memo, ct->role == BEHAVE_CHAT_ASSISTANT,
                                 ct->text, ct->len, &key);

        if (s != NULL) {
            *rec = s->rec;
            *urgency = s->urgency;
            return;
        }
    }

    if (a == NULL) {
        behave_annotate(ct->text, ct->len, &ann);
        a = &ann;
        (*annotated)++;
    }

    behave_turn_from_annotation(&t, ct->role == BEHAVE_CHAT_USER
                                    ? BEHAVE_SPEAKER_CUSTOMER
                                    : BEHAVE_SPEAKER_AGENT,
                                ct->text, ct->len, a, 0);
    behave_conversation_record(&t, rec);
    *urgency = a->urgency;

    if (memo != NULL) {
        behave_turn_memo_put(memo, &key, *urgency, rec);
    }
}
