/*
 * Redaction: each kind replaced, look-alikes left alone, UTF-8 kept whole,
 * output bounds respected.
 */

#include <string.h>

#include "tap.h"
#include "text/behave_redact.h"


static char      out[1024];
static unsigned  found;


static const char *
redact(const char *in)
{
    size_t  n;

    found = 0;
    if (behave_redact(in, strlen(in), out, sizeof(out), &n, &found) != 0) {
        return "(error)";
    }

    return out;
}


/*
 * Each kind replaced where it stands, and its look-alikes left alone: found
 * holds the kind replaced, 0 when nothing was.
 */
static void
test_kinds(void)
{
    size_t  i;

    static const struct {
        const char  *in;
        const char  *want;
        unsigned     kind;
        const char  *name;
    }  cases[] = {
        /* email */
        { "mail mo.farah@brightline.io now", "mail [EMAIL] now",
          BEHAVE_REDACT_EMAIL, "email" },
        { "write to a.b+c@mail.example.co.uk.", "write to [EMAIL].",
          BEHAVE_REDACT_EMAIL, "email with a trailing full stop" },
        { "(jo_smith@ex-ample.com)", "([EMAIL])", BEHAVE_REDACT_EMAIL,
          "email in brackets" },
        { "user@localhost and @handle", "user@localhost and @handle", 0,
          "no dotted domain: not an email" },
        { "a@b.c", "a@b.c", 0, "one-letter top-level domain" },

        /* phone */
        { "call +44 20 7946 0958 today", "call [PHONE] today",
          BEHAVE_REDACT_PHONE, "international phone" },
        { "ring (555) 123-4567", "ring [PHONE]", BEHAVE_REDACT_PHONE,
          "US with brackets" },
        { "ring 555-123-4567.", "ring [PHONE].", BEHAVE_REDACT_PHONE,
          "US dashed" },
        { "mobile 07700 900123", "mobile [PHONE]", BEHAVE_REDACT_PHONE,
          "UK mobile" },
        { "on 2024-01-15", "on 2024-01-15", 0, "a date is not a phone" },
        { "order 40-2218-773", "order 40-2218-773", 0,
          "an order number is not a phone" },
        { "code 12345", "code 12345", 0, "short number kept" },

        /* card */
        { "card 4111 1111 1111 1111 ok", "card [CARD] ok", BEHAVE_REDACT_CARD,
          "spaced card" },
        { "4111-1111-1111-1111", "[CARD]", BEHAVE_REDACT_CARD, "dashed card" },
        { "5500005555555559", "[CARD]", BEHAVE_REDACT_CARD, "plain card" },
        { "ref 4111 1111 1111 1112", "ref 4111 1111 1111 1112", 0,
          "Luhn-invalid 16 digits are not a card" },
        { "41111111111111111111111", "41111111111111111111111", 0,
          "23 digits are not a card" },

        /* iban */
        { "IBAN GB82 WEST 1234 5698 7654 32 please", "IBAN [IBAN] please",
          BEHAVE_REDACT_IBAN, "grouped IBAN" },
        { "DE89370400440532013000.", "[IBAN].", BEHAVE_REDACT_IBAN,
          "compact IBAN" },
        { "GB82 WEST 1234 5698 7654 32 THANKS", "[IBAN] THANKS",
          BEHAVE_REDACT_IBAN, "capitalised word after the IBAN kept" },
        { "GB83 WEST 1234 5698 7654 32", "GB83 WEST 1234 5698 7654 32", 0,
          "bad check digits: not an IBAN" },

        /* national id */
        { "NI AB123456C thanks", "NI [NATIONAL_ID] thanks",
          BEHAVE_REDACT_NATIONAL_ID, "UK NI number" },
        { "NI AB 12 34 56 C", "NI [NATIONAL_ID]", BEHAVE_REDACT_NATIONAL_ID,
          "spaced NI number" },
        { "DA123456C", "DA123456C", 0, "invalid NI prefix kept" },
        { "ssn 123-45-6789", "ssn [NATIONAL_ID]", BEHAVE_REDACT_NATIONAL_ID,
          "US SSN" },
        { "ssn 000-12-3456", "ssn 000-12-3456", 0,
          "never-issued SSN range kept" },

        /* ip */
        { "from 192.168.1.20, again", "from [IP], again", BEHAVE_REDACT_IP,
          "IPv4" },
        { "version 4.2.1", "version 4.2.1", 0, "version is not an IP" },
        { "v1.2.3.4", "v1.2.3.4", 0, "v-prefixed version kept" },
        { "1.2.3.4.5", "1.2.3.4.5", 0, "five parts is not an IP" },
        { "256.1.1.1", "256.1.1.1", 0, "out of range part" },
        { "host 2001:db8::8a2e:370:7334 down", "host [IP] down",
          BEHAVE_REDACT_IP, "compressed IPv6" },
        { "fe80:0:0:0:202:b3ff:fe1e:8329", "[IP]", BEHAVE_REDACT_IP,
          "full IPv6" },
        { "at 12:30:45", "at 12:30:45", 0, "a time is not an IPv6" },
    };

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        is_str(redact(cases[i].in), cases[i].want, "%s", cases[i].name);
        is_int(found, cases[i].kind, "%s: kind found", cases[i].name);
    }
}


static void
test_utf8_and_bounds(void)
{
    const char  *in;
    size_t       n;
    int          rc;
    char         small[16];

    is_str(redact("café ünï mo@x.io — ok"), "café ünï [EMAIL] — ok",
           "UTF-8 around a match kept whole");
    is_str(redact("émo@x.io"), "é[EMAIL]", "multibyte letter is a boundary");
    is_str(redact(""), "", "empty text");

    is_str(redact("mail a@b.io, card 4111111111111111, ip 10.0.0.1"),
           "mail [EMAIL], card [CARD], ip [IP]", "several kinds");
    ok(found == (BEHAVE_REDACT_EMAIL | BEHAVE_REDACT_CARD | BEHAVE_REDACT_IP),
       "found has every kind");

    /* a placeholder longer than its match */
    in = "AB123456C";
    rc = behave_redact(in, strlen(in), small, 14, &n, NULL);
    ok(rc == 0 && n == 13, "grows to 13 bytes within 14");
    rc = behave_redact(in, strlen(in), small, 13, &n, NULL);
    is_int(rc, -1, "no room for the NUL: -1");
    ok(BEHAVE_REDACT_BOUND(strlen(in)) >= 14, "bound covers the growth");

    in = "plain text that is long";
    rc = behave_redact(in, strlen(in), small, sizeof(small), &n, NULL);
    is_int(rc, -1, "too long for the buffer: -1");
}


int
main(void)
{
    test_kinds();
    test_utf8_and_bounds();

    return tap_done();
}
