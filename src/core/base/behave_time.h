/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Times as the answers print them.
 */

#ifndef BEHAVE_TIME_H
#define BEHAVE_TIME_H

#include <stddef.h>
#include <stdint.h>


/* "2026-01-01T00:00:45.123Z" (UTC) of unix milliseconds into buf (at
 * least 25 bytes); < 0 is 0 */
void behave_iso8601_ms(int64_t ms, char *buf, size_t cap);


#endif /* BEHAVE_TIME_H */
