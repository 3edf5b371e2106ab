/*
 * Loading ../shared/data files in the core's unit tests: $BEHAVE_DATA, else
 * <repo>/../shared/data found from this file's path.  NULL when absent, so
 * the tests can say they skipped.
 */

#ifndef BEHAVE_TESTDATA_H
#define BEHAVE_TESTDATA_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/behave_read_file.h"


static __attribute__((unused)) char *
testdata_load(const char *sub, const char *name, size_t *len)
{
    char         path[1024];
    const char  *dir, *p, *file;

    file = __FILE__;
    dir = getenv("BEHAVE_DATA");

    if (dir != NULL) {
        snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);

    } else {
        /* <repo>/t/core/testdata.h -> <repo>/../shared/data */
        p = strstr(file, "t/core/");
        if (p == NULL || p == file) {
            snprintf(path, sizeof(path), "../shared/data/%s/%s", sub, name);

        } else {
            snprintf(path, sizeof(path), "%.*s../shared/data/%s/%s",
                     (int) (p - file), file, sub, name);
        }
    }

    return behave_read_file(path, len);
}


/*
 * <repo>/rel into path, <repo> found from the executable's own path
 * (build/core[-asan]/test_x lives two levels below it); -1 when unknown.
 */
static __attribute__((unused)) int
testdata_repo_path(char *path, size_t len, const char *rel)
{
    char     exe[PATH_MAX], *p;
    ssize_t  n;
    int      up;

    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0) {
        return -1;
    }
    exe[n] = '\0';

    /* build/core[-asan]/test_x -> <repo> */
    for (up = 0; up < 3; up++) {
        p = strrchr(exe, '/');
        if (p == NULL) {
            return -1;
        }
        *p = '\0';
    }

    snprintf(path, len, "%s/%s", exe, rel);
    return 0;
}


#endif /* BEHAVE_TESTDATA_H */
