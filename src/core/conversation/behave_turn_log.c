/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The turn log: see behave_turn_log.h for the format.
 */

#include <stdio.h>
#include <string.h>

#include "conversation/behave_turn_log.h"


static size_t behave_turn_log_skip(const behave_turn_log_t *log, size_t at,
    size_t k);


void
behave_turn_log_open(behave_turn_log_t *log, const char *value, size_t len)
{
    size_t       i;
    uint64_t     d;
    const char  *p, *end, *sep;

    log->value = value;
    log->len = len;
    log->dropped = 0;
    log->records = 0;
    log->body = 0;

    if (len == 0) {
        return;
    }

    end = value + len;

    /* "d<digits>" up to the first separator, else no header */
    if (value[0] == 'd') {
        sep = memchr(value, BEHAVE_TURN_LOG_SEP, len);
        d = 0;

        for (i = 1; sep != NULL && value + i < sep && i <= 19; i++) {
            if (value[i] < '0' || value[i] > '9') {
                break;
            }
            d = d * 10 + (uint64_t) (value[i] - '0');
        }

        if (sep != NULL && i > 1 && value + i == sep) {
            log->dropped = d;
            log->body = (size_t) (sep + 1 - value);
        }
    }

    for (p = value + log->body;
         p < end && (sep = memchr(p, BEHAVE_TURN_LOG_SEP, end - p)) != NULL;
         p = sep + 1)
    {
        log->records++;
    }
}


/* the offset just after k more records from offset at */
static size_t
behave_turn_log_skip(const behave_turn_log_t *log, size_t at, size_t k)
{
    const char  *sep;

    while (k-- > 0) {
        sep = memchr(log->value + at, BEHAVE_TURN_LOG_SEP, log->len - at);
        if (sep == NULL) {
            return log->len;
        }
        at = (size_t) (sep + 1 - log->value);
    }

    return at;
}


size_t
behave_turn_log_tail(const behave_turn_log_t *log, size_t max,
    behave_turn_t *out, uint64_t *first)
{
    size_t       n, skip, at;
    const char  *p, *sep;

    skip = log->records > max ? log->records - max : 0;
    *first = log->dropped + skip;

    at = behave_turn_log_skip(log, log->body, skip);
    n = 0;

    for (p = log->value + at;
         n < max
         && (sep = memchr(p, BEHAVE_TURN_LOG_SEP,
                          log->len - (size_t) (p - log->value)))
            != NULL;
         p = sep + 1)
    {
        if (behave_turn_decode(p, (size_t) (sep - p), &out[n]) == 0) {
            n++;
        }
    }

    return n;
}


size_t
behave_turn_log_record(char *buf, size_t len, size_t size)
{
    /* cannot happen with valid UTF-8; it would split the record */
    if (len == 0 || len + 1 > size
        || memchr(buf, BEHAVE_TURN_LOG_SEP, len) != NULL)
    {
        return 0;
    }

    buf[len] = BEHAVE_TURN_LOG_SEP;

    return len + 1;
}


int
behave_turn_log_trim_args(const behave_turn_log_t *log, size_t max,
    size_t *guard_len, size_t *cut, char *header, size_t *header_len)
{
    int     n;
    size_t  k;

    /* the records after this turn's append: records + 1 */
    if (max == 0 || log->records + 1 <= max + max / 2) {
        return 0;
    }

    k = log->records + 1 - max;

    *guard_len = log->len < BEHAVE_TURN_LOG_GUARD ? log->len
                                                  : BEHAVE_TURN_LOG_GUARD;
    *cut = behave_turn_log_skip(log, log->body, k);

    n = snprintf(header, BEHAVE_TURN_LOG_HEADER_MAX, "d%llu%c",
                 (unsigned long long) (log->dropped + k),
                 BEHAVE_TURN_LOG_SEP);

    if (n < 0 || n >= BEHAVE_TURN_LOG_HEADER_MAX) {
        return 0;
    }

    *header_len = (size_t) n;

    return 1;
}
