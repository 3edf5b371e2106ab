/*
 * Copyright (C) ngx_http_behave_module authors
 */


#include <stdint.h>
#include <string.h>

#include "base/behave_slot.h"


static uint16_t
behave_crc16(const char *p, size_t len)
{
    size_t    i;
    int       b;
    uint16_t  crc;

    crc = 0;

    for (i = 0; i < len; i++) {
        crc ^= (uint16_t) ((unsigned char) p[i] << 8);

        for (b = 0; b < 8; b++) {
            crc = (crc & 0x8000) ? (uint16_t) ((crc << 1) ^ 0x1021)
                                 : (uint16_t) (crc << 1);
        }
    }

    return crc;
}


unsigned
behave_key_slot(const char *key, size_t len)
{
    const char  *open, *close;

    open = memchr(key, '{', len);

    if (open != NULL) {
        close = memchr(open + 1, '}', len - (open + 1 - key));

        if (close != NULL && close > open + 1) {
            key = open + 1;
            len = close - key;
        }
    }

    return behave_crc16(key, len) & (BEHAVE_SLOTS - 1);
}
