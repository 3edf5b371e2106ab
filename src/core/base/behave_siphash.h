/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed 64-bit hash of
 * bytes, for tables whose keys come from clients: without the key, no one
 * can choose inputs that collide.
 */

#ifndef BEHAVE_SIPHASH_H
#define BEHAVE_SIPHASH_H

#include <stddef.h>
#include <stdint.h>


#define BEHAVE_SIPHASH_KEY_SIZE  16


uint64_t behave_siphash(const unsigned char key[BEHAVE_SIPHASH_KEY_SIZE],
    const void *data, size_t len);


#endif /* BEHAVE_SIPHASH_H */
