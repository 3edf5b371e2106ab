/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * One stored turn of a conversation, and its compact form for Redis.
 *
 * A turn keeps what the conversation logic needs later and nothing more:
 * who spoke, the text exactly as it was analysed (the full or the redacted
 * form, per storage_mode: spec 2.4 rule 1), a few annotation numbers and
 * the time.  Re-annotating history on every request would cost more than
 * the 5 ms budget allows, so the numbers travel with the text.
 *
 * Encoded form, version 2 (one record of the turn log per turn, see
 * behave_turn_log.h):
 *
 *     b2 TAB speaker TAB ts_ms TAB severity TAB urgency TAB load TAB
 *     valence TAB valence_score TAB cues TAB meaning TAB text
 *
 * (customer turns; an agent turn, never compared for repetition, is
 * written in the shorter version 1 form)
 *
 * Version 1 ("b1", written before the trained layer) is the same without
 * the meaning field; it is still read, and such a turn's meaning is found
 * again from its text when repetition needs it.
 *
 *   speaker        "c" customer or "a" agent
 *   ts_ms          unsigned decimal (at most 19 digits), milliseconds
 *                  since the epoch
 *   severity       0..4, see behave_conversation.h
 *   urgency        0..4, behave_urgency_e
 *   load           0..3, behave_load_e
 *   valence        0..3, behave_valence_e
 *   valence_score  decimal -1.000 .. 1.000, three decimals (up to six
 *                  read)
 *   cues           lowercase hex, BEHAVE_CUE_* bits
 *   meaning        BEHAVE_MEANING_DIM int8 as 2 lowercase hex digits each
 *   text           the raw bytes, to the end of the element
 *
 * The text is last and unescaped: its length is what is left, so tabs,
 * newlines and any UTF-8 round-trip unchanged (Redis strings are binary
 * safe).  Decoding is strict: a wrong version, a field out of range, a
 * missing tab or text that is not valid UTF-8 (or holds a NUL) is rejected,
 * and the caller skips the element.  History may be corrupt or written by
 * another version; it must never crash us or steer a finding.
 */

#ifndef BEHAVE_TURN_H
#define BEHAVE_TURN_H

#include <stddef.h>
#include <stdint.h>

#include "text/behave_annotate.h"


#define BEHAVE_TURN_VERSION     "b2"

/* bytes of the encoded form other than the text, with room to spare */
#define BEHAVE_TURN_HEADER_MAX  (80 + 2 * BEHAVE_MEANING_DIM + 1)


typedef enum {
    BEHAVE_SPEAKER_CUSTOMER = 0,
    BEHAVE_SPEAKER_AGENT
} behave_speaker_e;


typedef struct {
    behave_speaker_e       speaker;
    const char            *text;          /* not owned, not NUL-terminated */
    size_t                 text_len;
    double                 valence_score; /* -1 .. 1 */
    behave_valence_e       valence;
    behave_urgency_e       urgency;
    behave_load_e          load;
    unsigned               cues;          /* BEHAVE_CUE_* */
    int                    severity;      /* 0 .. 4 */
    uint64_t               ts_ms;

    /* the annotation's meaning signature; a decoded record has none (the
     * record format keeps the text, and repetition annotates it again) */
    unsigned               has_meaning;
    int8_t                 meaning[BEHAVE_MEANING_DIM];
} behave_turn_t;



/* upper bound of the encoded length, without a NUL */
size_t behave_turn_encoded_max(const behave_turn_t *t);

/*
 * Writes the encoded turn into buf and a NUL after it when there is room;
 * returns the length without the NUL, or 0 when len is too small.
 */
size_t behave_turn_encode(const behave_turn_t *t, char *buf, size_t len);

/*
 * Parses len bytes; out->text points into s.  Returns 0, or -1 for
 * anything that is not a valid version 1 turn (out is then unspecified).
 */
int behave_turn_decode(const char *s, size_t len, behave_turn_t *out);


#endif /* BEHAVE_TURN_H */
