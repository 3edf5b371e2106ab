/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A chat request's conversation findings: the pre-filter's reading of the
 * history a chat request carries (behave_extract_chat()), with the core of
 * /v1/analyze's conversation block and no Redis.  user turns are the
 * customer's, assistant turns the agent's; each earlier turn's record is
 * pushed, in order, into a state from an empty one
 * (behave_conversation_assess_records(), the fold of
 * behave_conversation_fold()), and the user's latest message is assessed
 * from that state: what /v1/analyze answers for that turn when the same
 * turns were sent to it one by one as one conversation_id.  Of each
 * earlier turn only what the fold reads is derived (behave_chat.c): most
 * assistant turns are never annotated.
 */

#ifndef BEHAVE_CHAT_H
#define BEHAVE_CHAT_H

#include <stddef.h>

#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"
#include "text/behave_extract.h"
#include "conversation/behave_turn_memo.h"


typedef struct {
    size_t                 turns;        /* read: the latest included */
    size_t                 annotated;    /* annotated now, not remembered */
    behave_urgency_e       peak_urgency; /* of the user turns read */
    behave_conv_result_t   conv;         /* the latest message's */
} behave_chat_findings_t;


/*
 * The findings of chat->turn[n - 1], the user's latest message, whose
 * annotation the caller made (latest), from the turns before it.  memo
 * (NULL: none) gives what earlier requests of the chat derived and keeps
 * what this one derives.  0, or -1 when there is no turn before the
 * latest (no history: /v1/analyze has no block for a first turn) or no
 * memory.
 */
int behave_chat_assess(const behave_chat_t *chat,
    const behave_annotation_t *latest, behave_turn_memo_t *memo,
    behave_chat_findings_t *out);


#endif /* BEHAVE_CHAT_H */
