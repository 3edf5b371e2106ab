/*
 * A minimal TAP producer for the core's unit tests (prove reads it).
 * Header-only so each test file is one translation unit.
 */

#ifndef BEHAVE_TAP_H
#define BEHAVE_TAP_H

#include <stdio.h>
#include <string.h>
#include <math.h>


static int  tap_run;
static int  tap_failed;


#define ok(cond, ...)                                                       \
    tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define is_int(got, want, ...)                                              \
    tap_is_int((long long) (got), (long long) (want), __FILE__, __LINE__,  \
               __VA_ARGS__)

#define is_str(got, want, ...)                                              \
    tap_is_str((got), (want), __FILE__, __LINE__, __VA_ARGS__)

/* a known miss: reported "# TODO why" when it fails, not fatal (t/000) */
#define todo_ok(cond, why, name)                                            \
    tap_todo(!!(cond), why, name)

/* a test not run (data absent): "ok N # skip why", which prove counts */
#define skip(why)                                                           \
    tap_skip(why)

#define is_near(got, want, eps, ...)                                        \
    tap_is_near((got), (want), (eps), __FILE__, __LINE__, __VA_ARGS__)


static int __attribute__((unused))
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));


static int __attribute__((unused))
tap_todo(int pass, const char *why, const char *name)
{
    tap_run++;
    printf("%sok %d - %s%s%s\n", pass ? "" : "not ", tap_run, name,
           pass ? "" : " # TODO ", pass ? "" : why);

    return pass;
}

static void __attribute__((unused))
tap_skip(const char *why)
{
    tap_run++;
    printf("ok %d # skip %s\n", tap_run, why);
}

#include <stdarg.h>

static int __attribute__((unused))
tap_vok(int pass, const char *file, int line, const char *fmt, va_list ap)
{
    tap_run++;
    if (!pass) {
        tap_failed++;
    }

    printf("%sok %d - ", pass ? "" : "not ", tap_run);
    vprintf(fmt, ap);
    printf("\n");

    if (!pass) {
        printf("#   Failed test at %s line %d\n", file, line);
    }

    return pass;
}


static int __attribute__((unused))
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
    int      rc;
    va_list  ap;

    va_start(ap, fmt);
    rc = tap_vok(pass, file, line, fmt, ap);
    va_end(ap);
    return rc;
}


static int __attribute__((unused))
tap_is_int(long long got, long long want, const char *file, int line,
    const char *fmt, ...)
{
    int      rc;
    va_list  ap;

    va_start(ap, fmt);
    rc = tap_vok(got == want, file, line, fmt, ap);
    va_end(ap);

    if (!rc) {
        printf("#          got: %lld\n#     expected: %lld\n", got, want);
    }

    return rc;
}


static int __attribute__((unused))
tap_is_str(const char *got, const char *want, const char *file, int line,
    const char *fmt, ...)
{
    int      rc, pass;
    va_list  ap;

    pass = (got == NULL && want == NULL)
           || (got != NULL && want != NULL && strcmp(got, want) == 0);

    va_start(ap, fmt);
    rc = tap_vok(pass, file, line, fmt, ap);
    va_end(ap);

    if (!rc) {
        printf("#          got: '%s'\n#     expected: '%s'\n",
               got ? got : "(null)", want ? want : "(null)");
    }

    return rc;
}


static int __attribute__((unused))
tap_is_near(double got, double want, double eps, const char *file, int line,
    const char *fmt, ...)
{
    int      rc;
    va_list  ap;

    va_start(ap, fmt);
    rc = tap_vok(fabs(got - want) <= eps, file, line, fmt, ap);
    va_end(ap);

    if (!rc) {
        printf("#          got: %g\n#     expected: %g (+/- %g)\n",
               got, want, eps);
    }

    return rc;
}


static int __attribute__((unused))
tap_done(void)
{
    printf("1..%d\n", tap_run);
    return tap_failed ? 1 : 0;
}


#endif /* BEHAVE_TAP_H */
