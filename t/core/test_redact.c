/*
 * Redaction: each kind replaced, look-alikes left alone, UTF-8 kept whole,
 * output bounds respected.
 */

#include <string.h>

#include "tap.h"
#include "behave_redact.h"


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


static void
test_email(void)
{
    is_str(redact("mail mo.farah@brightline.io now"), "mail [EMAIL] now",
           "email");
    ok(found == BEHAVE_REDACT_EMAIL, "email kind");
    is_str(redact("write to a.b+c@mail.example.co.uk."), "write to [EMAIL].",
           "email with a trailing full stop");
    is_str(redact("(jo_smith@ex-ample.com)"), "([EMAIL])",
           "email in brackets");
    is_str(redact("user@localhost and @handle"), "user@localhost and @handle",
           "no dotted domain: not an email");
    is_str(redact("a@b.c"), "a@b.c", "one-letter top-level domain");
}


static void
test_phone(void)
{
    is_str(redact("call +44 20 7946 0958 today"), "call [PHONE] today",
           "international phone");
    ok(found == BEHAVE_REDACT_PHONE, "phone kind");
    is_str(redact("ring (555) 123-4567"), "ring [PHONE]", "US with brackets");
    is_str(redact("ring 555-123-4567."), "ring [PHONE].", "US dashed");
    is_str(redact("mobile 07700 900123"), "mobile [PHONE]", "UK mobile");
    is_str(redact("on 2024-01-15"), "on 2024-01-15", "a date is not a phone");
    is_str(redact("order 40-2218-773"), "order 40-2218-773",
           "an order number is not a phone");
    is_str(redact("code 12345"), "code 12345", "short number kept");
}


static void
test_card(void)
{
    is_str(redact("card 4111 1111 1111 1111 ok"), "card [CARD] ok",
           "spaced card");
    ok(found == BEHAVE_REDACT_CARD, "card kind");
    is_str(redact("4111-1111-1111-1111"), "[CARD]", "dashed card");
    is_str(redact("5500005555555559"), "[CARD]", "plain card");
    is_str(redact("ref 4111 1111 1111 1112"), "ref 4111 1111 1111 1112",
           "Luhn-invalid 16 digits are not a card");
    ok(found == 0, "nothing found in a Luhn-invalid number");
    is_str(redact("41111111111111111111111"), "41111111111111111111111",
           "23 digits are not a card");
}


static void
test_iban(void)
{
    is_str(redact("IBAN GB82 WEST 1234 5698 7654 32 please"),
           "IBAN [IBAN] please", "grouped IBAN");
    ok(found == BEHAVE_REDACT_IBAN, "iban kind");
    is_str(redact("DE89370400440532013000."), "[IBAN].", "compact IBAN");
    is_str(redact("GB82 WEST 1234 5698 7654 32 THANKS"),
           "[IBAN] THANKS", "capitalised word after the IBAN kept");
    is_str(redact("GB83 WEST 1234 5698 7654 32"),
           "GB83 WEST 1234 5698 7654 32", "bad check digits: not an IBAN");
}


static void
test_national_id(void)
{
    is_str(redact("NI AB123456C thanks"), "NI [NATIONAL_ID] thanks",
           "UK NI number");
    ok(found == BEHAVE_REDACT_NATIONAL_ID, "national id kind");
    is_str(redact("NI AB 12 34 56 C"), "NI [NATIONAL_ID]", "spaced NI number");
    is_str(redact("DA123456C"), "DA123456C", "invalid NI prefix kept");
    is_str(redact("ssn 123-45-6789"), "ssn [NATIONAL_ID]", "US SSN");
    is_str(redact("ssn 000-12-3456"), "ssn 000-12-3456",
           "never-issued SSN range kept");
}


static void
test_ip(void)
{
    is_str(redact("from 192.168.1.20, again"), "from [IP], again", "IPv4");
    ok(found == BEHAVE_REDACT_IP, "ip kind");
    is_str(redact("version 4.2.1"), "version 4.2.1", "version is not an IP");
    is_str(redact("v1.2.3.4"), "v1.2.3.4", "v-prefixed version kept");
    is_str(redact("1.2.3.4.5"), "1.2.3.4.5", "five parts is not an IP");
    is_str(redact("256.1.1.1"), "256.1.1.1", "out of range part");
    is_str(redact("host 2001:db8::8a2e:370:7334 down"), "host [IP] down",
           "compressed IPv6");
    is_str(redact("fe80:0:0:0:202:b3ff:fe1e:8329"), "[IP]", "full IPv6");
    is_str(redact("at 12:30:45"), "at 12:30:45", "a time is not an IPv6");
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
    (void) tap_is_near;

    test_email();
    test_phone();
    test_card();
    test_iban();
    test_national_id();
    test_ip();
    test_utf8_and_bounds();

    return tap_done();
}
