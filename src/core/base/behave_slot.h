/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Redis Cluster's hash slot of a key: CRC16 (XMODEM) of the key, or of
 * its hash tag (what lies between the first '{' and the next '}', when
 * that is not empty), modulo 16384.
 */

#ifndef BEHAVE_SLOT_H
#define BEHAVE_SLOT_H

#include <stddef.h>


#define BEHAVE_SLOTS  16384


unsigned behave_key_slot(const char *key, size_t len);


#endif /* BEHAVE_SLOT_H */
