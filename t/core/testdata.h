/*
 * Loading ../shared/data files in the core's unit tests: $BEHAVE_DATA, else
 * <repo>/../shared/data found from this file's path.  NULL when absent, so
 * the tests can say they skipped.
 */

#ifndef BEHAVE_TESTDATA_H
#define BEHAVE_TESTDATA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static char * __attribute__((unused))
testdata_load(const char *sub, const char *name, size_t *len)
{
    FILE        *f;
    char         path[1024], *buf;
    long         n;
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

    f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }

    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);

    buf = malloc((size_t) n + 1);
    if (buf == NULL) {
        fclose(f);
        return NULL;
    }

    *len = fread(buf, 1, (size_t) n, f);
    buf[*len] = '\0';
    fclose(f);

    return buf;
}


#endif /* BEHAVE_TESTDATA_H */
