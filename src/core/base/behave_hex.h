/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Fixed-width lowercase hex fields, as the stored records write them.
 */

#ifndef BEHAVE_HEX_H
#define BEHAVE_HEX_H

#include <stddef.h>
#include <stdint.h>


/* n (at most 8) lowercase hex digits into *out; -1 on any other byte */
int behave_hex_field(const char *s, size_t n, uint32_t *out);


#endif /* BEHAVE_HEX_H */
