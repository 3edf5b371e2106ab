/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Redaction of personal data; see behave_redact.h for what is matched.
 *
 * Each matcher looks at one position and returns the length of its match
 * or 0; the driver tries them in order at every word start and copies
 * everything else through.  Matchers read ASCII only and stop at the
 * first byte they do not expect, so the scan stays linear in practice
 * (an IBAN tries at most a few group counts).
 */

#include <string.h>

#include "text/behave_redact.h"


typedef size_t (*behave_redact_match_pt)(const unsigned char *p, size_t len);


typedef struct {
    behave_redact_match_pt   match;
    const char              *placeholder;
    unsigned                 kind;
} behave_redact_rule_t;


static int behave_redact_is_word(unsigned char c);
static int behave_redact_is_digit(unsigned char c);
static int behave_redact_is_alpha(unsigned char c);
static int behave_redact_is_hex(unsigned char c);
static int behave_redact_end_ok(const unsigned char *p, size_t len, size_t n);
static size_t behave_redact_email(const unsigned char *p, size_t len);
static size_t behave_redact_iban(const unsigned char *p, size_t len);
static int behave_redact_iban_valid(const unsigned char *p, size_t n);
static size_t behave_redact_ni(const unsigned char *p, size_t len);
static size_t behave_redact_ssn(const unsigned char *p, size_t len);
static size_t behave_redact_card(const unsigned char *p, size_t len);
static size_t behave_redact_ipv4(const unsigned char *p, size_t len);
static size_t behave_redact_ipv6(const unsigned char *p, size_t len);
static size_t behave_redact_phone(const unsigned char *p, size_t len);


static const behave_redact_rule_t  behave_redact_rules[] = {
    { behave_redact_email, "[EMAIL]", BEHAVE_REDACT_EMAIL },
    { behave_redact_iban, "[IBAN]", BEHAVE_REDACT_IBAN },
    { behave_redact_ni, "[NATIONAL_ID]", BEHAVE_REDACT_NATIONAL_ID },
    { behave_redact_ssn, "[NATIONAL_ID]", BEHAVE_REDACT_NATIONAL_ID },
    { behave_redact_card, "[CARD]", BEHAVE_REDACT_CARD },
    { behave_redact_ipv4, "[IP]", BEHAVE_REDACT_IP },
    { behave_redact_ipv6, "[IP]", BEHAVE_REDACT_IP },
    { behave_redact_phone, "[PHONE]", BEHAVE_REDACT_PHONE },
};


static int
behave_redact_is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}


static int
behave_redact_is_alpha(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}


static int
behave_redact_is_hex(unsigned char c)
{
    return behave_redact_is_digit(c) || (c >= 'a' && c <= 'f')
           || (c >= 'A' && c <= 'F');
}


/*
 * ASCII letters, digits and "_".  A multibyte character next to a match
 * counts as a boundary: we never consume it, so it cannot be split, and
 * "é" glued to an address must not save the address from redaction.
 */
static int
behave_redact_is_word(unsigned char c)
{
    return behave_redact_is_alpha(c) || behave_redact_is_digit(c) || c == '_';
}


/* the match p[0..n) ends at a word boundary */
static int
behave_redact_end_ok(const unsigned char *p, size_t len, size_t n)
{
    return n > 0 && (n == len || !behave_redact_is_word(p[n]));
}


static size_t
behave_redact_email(const unsigned char *p, size_t len)
{
    size_t  i, at, last_dot, labels, lab;

    i = 0;

    /* a local part is at most 64 bytes (RFC 5321) */
    while (i < len && i <= 64
           && (behave_redact_is_alpha(p[i]) || behave_redact_is_digit(p[i])
               || (p[i] != '\0' && strchr("._%+-", p[i]) != NULL)))
    {
        i++;
    }

    if (i == 0 || i > 64 || i >= len || p[i] != '@') {
        return 0;
    }

    at = i++;
    labels = 0;
    last_dot = 0;

    /* label ("." label)+, the last label two letters or more */
    for ( ;; ) {
        lab = i;
        while (i < len && (behave_redact_is_alpha(p[i])
                           || behave_redact_is_digit(p[i]) || p[i] == '-'))
        {
            i++;
        }

        if (i == lab) {
            if (labels == 0) {
                return 0;
            }
            i = last_dot;           /* a trailing "." is not ours */
            break;
        }

        labels++;

        if (i + 1 < len && p[i] == '.' && behave_redact_is_word(p[i + 1])) {
            last_dot = i;
            i++;
            continue;
        }

        break;
    }

    if (labels < 2) {
        return 0;
    }

    /* the top-level label: letters only, two or more */
    for (lab = i; lab > at && p[lab - 1] != '.'; lab--) {
        if (!behave_redact_is_alpha(p[lab - 1])) {
            return 0;
        }
    }

    if (i - lab < 2) {
        return 0;
    }

    return behave_redact_end_ok(p, len, i) ? i : 0;
}


/* ISO 13616: move the first four to the end, letters as 10..35, mod 97 */
static int
behave_redact_iban_valid(const unsigned char *p, size_t n)
{
    size_t         k, chars;
    unsigned       r;
    unsigned char  c, buf[34];

    chars = 0;

    for (k = 0; k < n; k++) {
        if (p[k] == ' ') {
            continue;
        }

        if (chars == sizeof(buf)) {
            return 0;
        }

        buf[chars++] = p[k];
    }

    if (chars < 15) {
        return 0;
    }

    r = 0;

    for (k = 0; k < chars; k++) {
        c = buf[(k + 4) % chars];

        if (behave_redact_is_digit(c)) {
            r = (r * 10 + (unsigned) (c - '0')) % 97;

        } else {
            r = (r * 100 + (unsigned) ((c | 0x20) - 'a' + 10)) % 97;
        }
    }

    return r == 1;
}


static size_t
behave_redact_iban(const unsigned char *p, size_t len)
{
    size_t  i, ends[16], ne, chars;

    if (len < 15 || !behave_redact_is_alpha(p[0])
        || !behave_redact_is_alpha(p[1]) || !behave_redact_is_digit(p[2])
        || !behave_redact_is_digit(p[3]))
    {
        return 0;
    }

    /*
     * Candidate ends: the end of every group; a space may separate groups.
     * The longest candidate that passes mod-97 wins, so a capitalised word
     * after the number does not spoil it.
     */
    ne = 0;
    chars = 0;
    i = 0;

    while (i < len && ne < 16 && chars <= 34) {
        while (i < len && (behave_redact_is_alpha(p[i])
                           || behave_redact_is_digit(p[i])))
        {
            i++;
            chars++;
        }

        if (chars > 34) {
            break;
        }

        ends[ne++] = i;

        if (i + 1 < len && p[i] == ' '
            && (behave_redact_is_alpha(p[i + 1])
                || behave_redact_is_digit(p[i + 1])))
        {
            i++;
            continue;
        }

        break;
    }

    while (ne > 0) {
        i = ends[--ne];

        if (behave_redact_end_ok(p, len, i) && behave_redact_iban_valid(p, i)) {
            return i;
        }
    }

    return 0;
}


/* UK National Insurance number: AB123456C, or AB 12 34 56 C */
static size_t
behave_redact_ni(const unsigned char *p, size_t len)
{
    size_t         i, digits;
    unsigned char  a, b, c;

    if (len < 9) {
        return 0;
    }

    a = p[0];
    b = p[1];

    if (!(a >= 'A' && a <= 'Z') || !(b >= 'A' && b <= 'Z')
        || strchr("DFIQUV", a) != NULL || strchr("DFIOQUV", b) != NULL)
    {
        return 0;
    }

    i = 2;
    digits = 0;

    while (i < len && digits < 6) {
        if (p[i] == ' ' && (digits % 2) == 0 && i + 1 < len
            && behave_redact_is_digit(p[i + 1]))
        {
            i++;
            continue;
        }

        if (!behave_redact_is_digit(p[i])) {
            return 0;
        }

        digits++;
        i++;
    }

    if (digits != 6) {
        return 0;
    }

    if (i + 1 < len && p[i] == ' ') {
        i++;
    }

    if (i >= len) {
        return 0;
    }

    c = p[i];
    if (c < 'A' || c > 'D') {
        return 0;
    }

    i++;

    return behave_redact_end_ok(p, len, i) ? i : 0;
}


/* US SSN ddd-dd-dddd; the never-issued ranges are not matched */
static size_t
behave_redact_ssn(const unsigned char *p, size_t len)
{
    size_t  k;

    static const char  shape[] = "ddd-dd-dddd";

    if (len < 11) {
        return 0;
    }

    for (k = 0; k < 11; k++) {
        if (shape[k] == 'd' ? !behave_redact_is_digit(p[k]) : p[k] != '-') {
            return 0;
        }
    }

    if (memcmp(p, "000", 3) == 0 || memcmp(p, "666", 3) == 0 || p[0] == '9'
        || memcmp(p + 4, "00", 2) == 0 || memcmp(p + 7, "0000", 4) == 0)
    {
        return 0;
    }

    return behave_redact_end_ok(p, len, 11) && (len == 11 || p[11] != '-')
           ? 11 : 0;
}


static size_t
behave_redact_card(const unsigned char *p, size_t len)
{
    size_t    i, end, digits, k;
    unsigned  sum, d;
    int       dbl;

    unsigned char  dg[19];

    i = 0;
    digits = 0;
    end = 0;

    while (i < len) {
        if (behave_redact_is_digit(p[i])) {
            if (digits == 19) {
                return 0;           /* too long for a card */
            }
            dg[digits++] = (unsigned char) (p[i] - '0');
            i++;
            end = i;
            continue;
        }

        if ((p[i] == ' ' || p[i] == '-') && i + 1 < len
            && behave_redact_is_digit(p[i + 1]) && digits > 0)
        {
            i++;
            continue;
        }

        break;
    }

    if (digits < 13 || !behave_redact_end_ok(p, len, end)) {
        return 0;
    }

    /* Luhn: double every second digit from the right */
    sum = 0;
    dbl = 0;

    for (k = digits; k > 0; k--) {
        d = dg[k - 1];
        if (dbl) {
            d *= 2;
            if (d > 9) {
                d -= 9;
            }
        }
        sum += d;
        dbl = !dbl;
    }

    return sum % 10 == 0 ? end : 0;
}


static size_t
behave_redact_ipv4(const unsigned char *p, size_t len)
{
    size_t    i, part, nd;
    unsigned  v;

    i = 0;

    for (part = 0; part < 4; part++) {
        if (part > 0) {
            if (i >= len || p[i] != '.') {
                return 0;
            }
            i++;
        }

        v = 0;
        nd = 0;

        while (i < len && behave_redact_is_digit(p[i]) && nd < 4) {
            v = v * 10 + (unsigned) (p[i] - '0');
            nd++;
            i++;
        }

        if (nd == 0 || nd > 3 || v > 255) {
            return 0;
        }
    }

    /* "1.2.3.4.5" is a version or an OID, not an address */
    if (i + 1 < len && p[i] == '.' && behave_redact_is_digit(p[i + 1])) {
        return 0;
    }

    return behave_redact_end_ok(p, len, i) ? i : 0;
}


static size_t
behave_redact_ipv6(const unsigned char *p, size_t len)
{
    size_t  i, groups, nh, end;
    int     dcolon;

    i = 0;
    groups = 0;
    dcolon = 0;
    end = 0;

    if (len >= 2 && p[0] == ':' && p[1] == ':') {
        dcolon = 1;
        i = 2;
        end = 2;
    }

    while (i < len) {
        nh = 0;
        while (i + nh < len && behave_redact_is_hex(p[i + nh]) && nh < 5) {
            nh++;
        }

        if (nh == 0 || nh > 4) {
            break;
        }

        i += nh;
        groups++;
        end = i;

        if (i + 1 < len && p[i] == ':' && p[i + 1] == ':') {
            if (dcolon) {
                return 0;
            }
            dcolon = 1;
            i += 2;
            end = i;
            continue;
        }

        if (i + 1 < len && p[i] == ':' && behave_redact_is_hex(p[i + 1])) {
            i++;
            continue;
        }

        break;
    }

    if (groups > 8 || (!dcolon && groups != 8) || (dcolon && groups > 7)
        || groups == 0)
    {
        return 0;
    }

    if (end < len && (p[end] == ':' || behave_redact_is_word(p[end]))) {
        return 0;
    }

    return end;
}


static size_t
behave_redact_phone(const unsigned char *p, size_t len)
{
    size_t  i, end, digits, g, ng, groups[16];
    int     plus, paren, closed;

    i = 0;
    plus = 0;
    paren = 0;
    closed = 0;

    if (len > 0 && p[0] == '+') {
        plus = 1;
        i = 1;

    } else if (len > 0 && p[0] == '(') {
        paren = 1;
        i = 1;
    }

    if (i >= len || !behave_redact_is_digit(p[i])) {
        return 0;
    }

    digits = 0;
    ng = 0;
    g = 0;
    end = 0;

    while (i < len) {
        if (behave_redact_is_digit(p[i])) {
            digits++;
            g++;
            i++;
            end = i;

            if (digits > 15) {
                return 0;
            }
            continue;
        }

        if (g > 0 && ng < 16) {
            groups[ng++] = g;
        }
        g = 0;

        if (p[i] == ')' && paren && !closed) {
            closed = 1;
            i++;
            if (i < len && p[i] == ' ') {
                i++;
            }
            continue;
        }

        if ((p[i] == ' ' || p[i] == '-' || p[i] == '.') && i + 1 < len
            && (behave_redact_is_digit(p[i + 1])
                || (p[i + 1] == '(' && !paren)))
        {
            if (p[i + 1] == '(') {
                paren = 1;
                i++;
            }
            i++;
            continue;
        }

        break;
    }

    if (g > 0 && ng < 16) {
        groups[ng++] = g;
    }

    if (!behave_redact_end_ok(p, len, end) || (paren && !closed)) {
        return 0;
    }

    if (plus) {
        return digits >= 8 ? end : 0;
    }

    if (paren || p[0] == '0') {
        return digits >= 10 && digits <= 11 ? end : 0;
    }

    /* North American: 3-3-4, or 1-3-3-4 */
    if (digits == 10 && ng == 3 && groups[0] == 3 && groups[1] == 3
        && groups[2] == 4)
    {
        return end;
    }

    if (digits == 11 && ng == 4 && p[0] == '1' && groups[0] == 1
        && groups[1] == 3 && groups[2] == 3 && groups[3] == 4)
    {
        return end;
    }

    return 0;
}


int
behave_redact(const char *in, size_t len, char *out, size_t outcap,
    size_t *outlen, unsigned *found)
{
    size_t                       i, o, n, k, pl;
    unsigned                     kinds;
    const unsigned char         *p;
    const behave_redact_rule_t  *r;

    p = (const unsigned char *) in;
    i = 0;
    o = 0;
    kinds = 0;

    while (i < len) {
        n = 0;
        r = NULL;

        /* a match starts at a word start (or at "+", "(", ":") */
        if (i == 0 || !behave_redact_is_word(p[i - 1])) {
            for (k = 0; k < sizeof(behave_redact_rules)
                            / sizeof(behave_redact_rules[0]); k++)
            {
                r = &behave_redact_rules[k];
                n = r->match(p + i, len - i);
                if (n > 0) {
                    break;
                }
            }

            /* a number inside a longer dotted or dashed run: "1.10.0.0.1" */
            if (n > 0 && r->kind != BEHAVE_REDACT_EMAIL && i > 0
                && (p[i - 1] == '.' || p[i - 1] == '-' || p[i - 1] == '@'))
            {
                n = 0;
            }
        }

        if (n == 0) {
            if (o + 1 >= outcap) {
                return -1;
            }
            out[o++] = in[i++];
            continue;
        }

        pl = strlen(r->placeholder);
        if (o + pl >= outcap) {
            return -1;
        }

        memcpy(out + o, r->placeholder, pl);
        o += pl;
        i += n;
        kinds |= r->kind;
    }

    if (o >= outcap) {
        return -1;
    }

    out[o] = '\0';

    if (outlen != NULL) {
        *outlen = o;
    }

    if (found != NULL) {
        *found = kinds;
    }

    return 0;
}
