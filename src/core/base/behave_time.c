/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Times: see behave_time.h.
 */

#include <stdio.h>
#include <time.h>

#include "base/behave_time.h"


void
behave_iso8601_ms(int64_t ms, char *buf, size_t cap)
{
    time_t     sec;
    struct tm  tm;

    if (ms < 0) {
        ms = 0;
    }

    sec = (time_t) (ms / 1000);
    gmtime_r(&sec, &tm);

    snprintf(buf, cap, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
             tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec, (int) (ms % 1000));
}
