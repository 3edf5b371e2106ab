/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Hex: fixed-width lowercase fields, as the stored records write them,
 * and digits of either case, as keys, signatures and escapes come.
 */

#ifndef BEHAVE_HEX_H
#define BEHAVE_HEX_H

#include <stddef.h>
#include <stdint.h>


/* n (at most 8) lowercase hex digits into *out; -1 on any other byte */
int behave_hex_field(const char *s, size_t n, uint32_t *out);

/* a hex digit of either case: its value, -1 for any other byte */
static inline int
behave_hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }

    c |= 0x20;

    return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

/* len hex digits (either case) into len / 2 bytes; -1 if not that */
int behave_hex_bytes(const char *p, size_t len, unsigned char *out);


#endif /* BEHAVE_HEX_H */
