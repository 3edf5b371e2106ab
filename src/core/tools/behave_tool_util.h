/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * What the core's benches and tools share: a clock in nanoseconds and the
 * order of doubles for qsort() (never on a request path).
 */

#ifndef BEHAVE_TOOL_UTIL_H
#define BEHAVE_TOOL_UTIL_H

#include <time.h>


/* CLOCK_MONOTONIC for wall time, CLOCK_THREAD_CPUTIME_ID for CPU time */
static __attribute__((unused)) double
behave_clock_ns(clockid_t clock)
{
    struct timespec  ts;

    clock_gettime(clock, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}


static __attribute__((unused)) int
behave_cmp_double(const void *a, const void *b)
{
    double  x, y;

    x = *(const double *) a;
    y = *(const double *) b;

    return (x > y) - (x < y);
}


#endif /* BEHAVE_TOOL_UTIL_H */
