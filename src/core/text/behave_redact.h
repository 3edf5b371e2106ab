/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Redaction of personal data before a turn is stored (storage_mode
 * "redacted", spec 2.4 rule 1: what is stored is what was analysed, so the
 * caller analyses the redacted text too).
 *
 * Replaced, in this order at each word start:
 *
 *   [EMAIL]        local@domain.tld
 *   [IBAN]         two letters, two check digits, 11-30 letters or digits,
 *                  optionally in groups of four; ISO 13616 mod-97 checked
 *   [NATIONAL_ID]  UK National Insurance number (AB123456C, "AB 12 34 56
 *                  C"), US SSN (123-45-6789, not 000/666/9xx, 00, 0000)
 *   [CARD]         13-19 digits, optionally split by single spaces or
 *                  dashes, Luhn checked (a Luhn-invalid 16-digit number is
 *                  left alone: it is more likely an order number)
 *   [IP]           IPv4 (four parts 0-255, not part of a longer dotted
 *                  run: "4.2.1" and "1.2.3.4.5" are versions) and IPv6
 *                  (eight groups, or fewer with one "::")
 *   [PHONE]        "+" and 8-15 digits; a leading 0 or "(" and 10-11
 *                  digits; or the North American 3-3-4 form (with an
 *                  optional leading 1).  Dates and short references
 *                  ("2024-01-15", "40-2218-773") do not qualify.
 *
 * A match must start and end at a word boundary (an ASCII letter, digit or
 * "_" next to it prevents it; a multibyte UTF-8 character does not);
 * matches consume ASCII only, so a multibyte character is never split,
 * and all other bytes are copied as they are.  No heap allocation.
 *
 * Output size: a placeholder can be longer than what it replaces
 * ("AB123456C" -> "[NATIONAL_ID]", 9 -> 13 bytes), never by more than half
 * of it, so BEHAVE_REDACT_BOUND(len) bytes always suffice (one is for the
 * NUL that is written after the text).  With a smaller outcap the call
 * returns -1 when the text does not fit, having written at most outcap
 * bytes.
 */

#ifndef BEHAVE_REDACT_H
#define BEHAVE_REDACT_H

#include <stddef.h>


#define BEHAVE_REDACT_EMAIL        0x01
#define BEHAVE_REDACT_PHONE        0x02
#define BEHAVE_REDACT_CARD         0x04
#define BEHAVE_REDACT_IBAN         0x08
#define BEHAVE_REDACT_NATIONAL_ID  0x10
#define BEHAVE_REDACT_IP           0x20

#define BEHAVE_REDACT_BOUND(len)   ((len) + (len) / 2 + 16)


/*
 * Copies in[0..len) to out with personal data replaced; *outlen gets the
 * length (without the NUL), *found the BEHAVE_REDACT_* kinds replaced
 * (either pointer may be NULL).  Returns 0, or -1 if outcap is too small.
 */
int behave_redact(const char *in, size_t len, char *out, size_t outcap,
    size_t *outlen, unsigned *found);


#endif /* BEHAVE_REDACT_H */
