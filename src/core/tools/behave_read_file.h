/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Reading a whole file, for the core's tools and unit tests (never on a
 * request path: the module reads nothing at run time).
 */

#ifndef BEHAVE_READ_FILE_H
#define BEHAVE_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>


/*
 * The file at path, NUL-terminated (it may hold NULs of its own: *len is
 * its length), for the caller to free; NULL with errno set when it
 * cannot be opened or read.
 */
static __attribute__((unused)) char *
behave_read_file(const char *path, size_t *len)
{
    FILE  *f;
    char  *buf;
    long   n;

    f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }

    buf = NULL;

    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0
        && fseek(f, 0, SEEK_SET) == 0
        && (buf = malloc((size_t) n + 1)) != NULL
        && fread(buf, 1, (size_t) n, f) == (size_t) n)
    {
        buf[n] = '\0';
        *len = (size_t) n;
        fclose(f);
        return buf;
    }

    free(buf);
    fclose(f);
    return NULL;
}


#endif /* BEHAVE_READ_FILE_H */
