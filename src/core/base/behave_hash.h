/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Hashing for keys and ids.
 */

#ifndef BEHAVE_HASH_H
#define BEHAVE_HASH_H

#include <stddef.h>


/* buffer for behave_sha256_hex(): 64 hex digits and a NUL */
#define BEHAVE_SHA256_HEX_SIZE     65


/* lowercase hex SHA-256 of data[0..len) into out; returns 0, or -1 */
int behave_sha256_hex(const char *data, size_t len,
    char out[BEHAVE_SHA256_HEX_SIZE]);


#endif /* BEHAVE_HASH_H */
