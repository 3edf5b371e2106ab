/*
 * Copyright (C) ngx_http_behave_module authors
 */

#ifndef BEHAVE_UTF8_H
#define BEHAVE_UTF8_H

#include <stddef.h>


/*
 * Returns 1 when p[0..len) is well-formed UTF-8 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), else 0.
 */
int behave_utf8_valid(const unsigned char *p, size_t len);

/* the same, and no NUL byte either: text that C strings may hold */
int behave_utf8_valid_text(const unsigned char *p, size_t len);

/*
 * Returns 1 when s[0..len) is 1 to max bytes, each an ASCII letter, a
 * digit or one of the bytes of punct (identifiers, header names), else 0.
 */
int behave_ascii_name_valid(const char *s, size_t len, size_t max,
    const char *punct);


#endif /* BEHAVE_UTF8_H */
