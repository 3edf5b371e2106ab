/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The fold of behave_conversation_assess_records(), turn by turn, with
 * only what it reads of each turn derived (callgrind: a cold 50-turn chat
 * cost 4.38M instructions when every turn was annotated and recorded in
 * full, about a third of it the assistant's turns):
 *
 *   - an assistant turn leaves only its claim in the state (the push), and
 *     the claim is read only when the user turn after it denies one (a
 *     false resolution earlier in the chat, fr, when there was none yet)
 *     or is the latest message: the run of assistant turns before such a
 *     user turn is read newest first, up to its first claim (the push
 *     keeps the run's newest claim); the others are never annotated;
 *   - a user turn older than the state's ring (the newest
 *     BEHAVE_CONV_RING user turns before the latest) leaves only its
 *     severity (the peak) and, after assistant turns while fr is not set,
 *     whether it denies (behave_conversation_record_part()); its urgency
 *     is read for the peak urgency;
 *   - the turns of the ring, and the latest, are recorded in full.
 *
 * What is pushed is what the whole records would push, field for field
 * where the state keeps it; the findings are the same bits
 * (t/core/test_chat.c holds them to behave_conversation_assess(), short
 * chats and long).
 */

#include <string.h>

#include "conversation/behave_chat.h"
#include "conversation/behave_conv_scan.h"
#include "conversation/behave_turn.h"


/* how much of a turn's record is derived: a memo slot's "derived" */
#define BEHAVE_CHAT_D_PEAK    1     /* user: the numbers of the turn */
#define BEHAVE_CHAT_D_DENIES  2     /* user: and whether it denies */
#define BEHAVE_CHAT_D_FULL    3     /* the whole record (an assistant's:
                                       its claim) */


typedef struct {
    const behave_chat_t        *chat;
    const behave_annotation_t  *latest;
    behave_turn_memo_t         *memo;
    behave_chat_findings_t     *out;
} behave_chat_ctx_t;


static void behave_chat_claims(behave_chat_ctx_t *cx, behave_conv_state_t *st,
    size_t from, size_t to, int read);
static void behave_chat_turn(behave_chat_ctx_t *cx, size_t i,
    unsigned need, behave_conv_rec_t *rec, behave_urgency_e *urgency);
static void behave_chat_agent_turn(behave_turn_t *t,
    const behave_chat_turn_t *ct, const behave_annotation_t *a);


int
behave_chat_assess(const behave_chat_t *chat,
    const behave_annotation_t *latest, behave_turn_memo_t *memo,
    behave_chat_findings_t *out)
{
    size_t               i, n, ring, run, users;
    unsigned             need;
    behave_urgency_e     urgency;
    behave_chat_ctx_t    cx;
    behave_conv_rec_t    rec;
    behave_conv_state_t  st;

    n = chat->n;

    if (n < 2 || chat->turn[n - 1].role != BEHAVE_CHAT_USER) {
        return -1;
    }

    cx.chat = chat;
    cx.latest = latest;
    cx.memo = memo;
    cx.out = out;

    out->turns = n;
    out->annotated = 0;
    out->peak_urgency = latest->urgency;

    /* the first user turn of the ring: those from it on are read whole */
    ring = 0;
    users = 0;

    for (i = n - 1; i-- > 0; /* void */) {
        if (chat->turn[i].role == BEHAVE_CHAT_USER
            && ++users == BEHAVE_CONV_RING)
        {
            ring = i;
            break;
        }
    }

    behave_conv_state_init(&st);
    run = n;                        /* the assistant turns not pushed yet */

    for (i = 0; i < n; i++) {
        if (chat->turn[i].role != BEHAVE_CHAT_USER) {
            if (run == n) {
                run = i;
            }
            continue;
        }

        if (i == n - 1 || i >= ring) {
            need = BEHAVE_CHAT_D_FULL;

        } else if (run != n && !st.fr) {
            need = BEHAVE_CHAT_D_DENIES;

        } else {
            need = BEHAVE_CHAT_D_PEAK;
        }

        behave_chat_turn(&cx, i, need, &rec, &urgency);

        if (urgency > out->peak_urgency) {
            out->peak_urgency = urgency;
        }

        if (run != n) {
            behave_chat_claims(&cx, &st, run, i,
                               i == n - 1
                               || (!st.fr
                                   && (rec.flags & BEHAVE_CONV_F_DENIES)));
            run = n;
        }

        if (i < n - 1) {
            behave_conv_state_push(&st, &rec);
        }
    }

    behave_conversation_assess_state(&st, &rec, &out->conv);

    return 0;
}


/*
 * Pushes assistant turns from..to-1; with read, their claims, newest
 * first up to the first (the push keeps the newest), else none: the user
 * turn after them ends a claim unread (it neither denies it nor is the
 * latest), as the push would.
 */
static void
behave_chat_claims(behave_chat_ctx_t *cx, behave_conv_state_t *st,
    size_t from, size_t to, int read)
{
    size_t              i, at;
    unsigned            claim;
    behave_urgency_e    urgency;
    behave_conv_rec_t   rec;

    claim = 0;
    at = to;

    for (i = to; read && i-- > from; /* void */) {
        behave_chat_turn(cx, i, BEHAVE_CHAT_D_FULL, &rec, &urgency);

        if (rec.claim) {
            claim = rec.claim;
            at = i;
            break;
        }
    }

    for (i = from; i < to; i++) {
        memset(&rec, 0, sizeof(rec));
        rec.claim = i == at ? claim : 0;
        behave_conv_state_push(st, &rec);
    }
}


/*
 * An assistant's turn as its record reads it: the claim
 * (behave_conv_claim()) of its words and its claim cues; the rest of the
 * record is never kept (behave_chat_claims() pushes the claim alone), so
 * neither its numbers nor its severity are derived
 */
static void
behave_chat_agent_turn(behave_turn_t *t, const behave_chat_turn_t *ct,
    const behave_annotation_t *a)
{
    memset(t, 0, sizeof(behave_turn_t));

    t->speaker = BEHAVE_SPEAKER_AGENT;
    t->text = ct->text;
    t->text_len = ct->len;
    t->cues = a->cues & (BEHAVE_CUE_RESOLUTION_CLAIM | BEHAVE_CUE_CLAIM_HELD);
    t->has_meaning = 1;
}


/*
 * Turn i's record (need: how much of it) and urgency: remembered, or
 * derived as /v1/analyze's conversation step derives them
 * (behave_turn_from_annotation(), then behave_conversation_record()),
 * from the caller's annotation of the latest message or from one made
 * here.
 */
static void
behave_chat_turn(behave_chat_ctx_t *cx, size_t i, unsigned need,
    behave_conv_rec_t *rec, behave_urgency_e *urgency)
{
    int                             agent;
    behave_turn_t                   t;
    behave_conv_norm_t              norm, *n;
    behave_annotation_t             ann;
    behave_turn_memo_key_t          key;
    const behave_annotation_t      *a;
    const behave_chat_turn_t       *ct;
    const behave_turn_memo_slot_t  *s;

    ct = &cx->chat->turn[i];
    agent = ct->role == BEHAVE_CHAT_ASSISTANT;

    if (cx->memo != NULL) {
        s = behave_turn_memo_get(cx->memo, agent, ct->text, ct->len, &key);

        if (s != NULL && s->derived >= need) {
            *rec = s->rec;
            *urgency = s->urgency;
            return;
        }
    }

    if (i == cx->chat->n - 1) {
        a = cx->latest;

    } else {
        /* an assistant's record is its claim, whose cues are all it reads
         * of the annotation; only a user turn recorded in full keeps its
         * signature (the repetition reads it) */
        behave_annotate_part(ct->text, ct->len,
                             agent ? BEHAVE_ANNOT_CLAIMS_ONLY
                             : need != BEHAVE_CHAT_D_FULL
                             ? BEHAVE_ANNOT_NO_MEANING : 0, &ann);
        a = &ann;
        cx->out->annotated++;
    }

    /* the text read once for the severity's phrases and the record's */
    n = NULL;

    if (need >= BEHAVE_CHAT_D_DENIES) {
        behave_conv_normalize(ct->text, ct->len, &norm);
        n = &norm;
    }

    if (agent) {
        behave_chat_agent_turn(&t, ct, a);

    } else {
        behave_turn_from_annotation_norm(&t, BEHAVE_SPEAKER_CUSTOMER,
                                         ct->text, ct->len, a, 0, n);
    }

    if (need == BEHAVE_CHAT_D_FULL) {
        behave_conversation_record_norm(&t, n, rec);

    } else {
        behave_conversation_record_part(&t, n, rec);
    }

    *urgency = a->urgency;

    if (cx->memo != NULL) {
        behave_turn_memo_put(cx->memo, &key, *urgency, need, rec);
    }
}
