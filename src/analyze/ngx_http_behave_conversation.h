/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The conversation step of /v1/analyze: the turn appended to the
 * conversation's log in Redis and pushed into its state, the turn
 * assessed from the state before it.  It knows nothing of the answer: it
 * fills in result and calls done.
 */

#ifndef NGX_HTTP_BEHAVE_CONVERSATION_H
#define NGX_HTTP_BEHAVE_CONVERSATION_H

#include "ngx_http_behave_common.h"

#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"
#include "conversation/behave_conv_state.h"
#include "conversation/behave_turn.h"


typedef struct ngx_http_behave_conv_s  ngx_http_behave_conv_t;

typedef void (*ngx_http_behave_conv_pt)(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv);


struct ngx_http_behave_conv_s {
    /* set by the caller */
    const char                 *tenant;
    const char                 *conversation_id;
    behave_speaker_e            speaker;
    const char                 *text;
    size_t                      text_len;
    const behave_annotation_t  *ann;
    ngx_http_behave_conv_pt     done;          /* after a Redis reply */

    /* the step's own */
    ngx_str_t                   key;            /* its Redis key: the log */
    ngx_str_t                   state_key;
    const char                 *mark;           /* the state's tail */
    size_t                      mark_len;
    behave_turn_t               turn;           /* this turn, built once */
    ngx_str_t                   log_record;     /* its record in the log */
    behave_conv_rec_t           rec;            /* its compact record */
    u_char                      rec_enc[BEHAVE_CONV_REC_SIZE];
    char                       *seed;           /* upgrading an old log */
    size_t                      seed_len;
    unsigned                    seeded:1;

    /* NULL: the first turn, no block; else assessed or degraded */
    behave_conv_result_t       *result;
};


/*
 * NGX_DONE: conv->done will run with the Redis reply; NGX_OK: answered
 * at once (Redis not there, conv->result degraded); NGX_ERROR.
 */
ngx_int_t ngx_http_behave_conversation_start(ngx_http_request_t *r,
    ngx_http_behave_conv_t *conv);


#endif /* NGX_HTTP_BEHAVE_CONVERSATION_H */
