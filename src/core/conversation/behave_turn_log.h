/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A conversation's stored turns as one Redis string, the "turn log".
 *
 *     [ "d" dropped 0xff ] ( turn 0xff )*
 *
 * Each turn is a behave_turn_encode() record followed by the byte 0xff,
 * which valid UTF-8 never holds, so a record ends at the first 0xff
 * whatever its text.  The optional header counts turns trimmed off the
 * front, so dropped + records is every turn the conversation ever had.
 *
 * Why a string: a turn appends its record with one APPEND, and an older
 * conversation's whole text comes back as one bulk reply on the rare
 * occasion it is read (upgrading a conversation written before the state
 * of behave_conv_state.h existed).  The hot path never reads it back.
 * Appends only ever add at the end; the conversation script cuts the
 * front past max + max / 2 records, as behave_turn_log_trim_args() does.
 */

#ifndef BEHAVE_TURN_LOG_H
#define BEHAVE_TURN_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "conversation/behave_turn.h"


#define BEHAVE_TURN_LOG_SEP        '\xff'

/* front bytes a trim compares, and room for a "d<count>" header */
#define BEHAVE_TURN_LOG_GUARD      64
#define BEHAVE_TURN_LOG_HEADER_MAX 24


typedef struct {
    const char            *value;
    size_t                 len;
    uint64_t               dropped;   /* turns trimmed off earlier */
    size_t                 records;   /* complete records held */
    size_t                 body;      /* offset of the first record */
} behave_turn_log_t;


/*
 * Reads a stored value (len 0: no history).  A bad header counts as no
 * header; a last record without its 0xff (never written so) is ignored.
 */
void behave_turn_log_open(behave_turn_log_t *log, const char *value,
    size_t len);

/*
 * Decodes the newest min(max, records) records into out[], oldest first,
 * skipping any that do not decode; returns how many were decoded.  *first
 * gets the conversation-wide number of the oldest record looked at.
 * out[].text points into the value.
 */
size_t behave_turn_log_tail(const behave_turn_log_t *log, size_t max,
    behave_turn_t *out, uint64_t *first);

/*
 * Appends the record separator to an encoded turn in buf (len bytes
 * used, size available); returns the new length, or 0 without room.
 */
size_t behave_turn_log_record(char *buf, size_t len, size_t size);

/*
 * The cut the conversation script (ngx_http_behave_conversation.c) makes
 * in Lua, here in C for the tests of a trimmed log.
 * Whether the log should be trimmed now that one more turn was appended:
 * more than max + max / 2 records.  When so, fills the arguments of the
 * trim script: *guard_len front bytes to compare (they start at
 * log->value), *cut the bytes to remove, and the new header in header[]
 * (BEHAVE_TURN_LOG_HEADER_MAX bytes) of *header_len bytes, so that the
 * newest max turns stay.
 */
int behave_turn_log_trim_args(const behave_turn_log_t *log, size_t max,
    size_t *guard_len, size_t *cut, char *header, size_t *header_len);


#endif /* BEHAVE_TURN_LOG_H */
