/*
 * Secrets at rest, master key parsing, slugs, ids and the base64 codec.
 * The known-answer records were sealed by Python's cryptography AESGCM,
 * so the record format is checked against an independent implementation.
 */

#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "base/behave_secretbox.h"


static const char  key_hex[] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

static const char  secret[] = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/* AESGCM(key).encrypt(a0a1..ab, secret, b"wh_0123"), as "v1:" base64 */
static const char  kat_aad[] =
    "v1:oKGio6SlpqeoqaqrkXAPSCaUT9kpNL6hPz2LhwHeDWf44hIopEdq1iXiGjOeFwue/FV0"
    "TAJr7Y0+iLWJ3zbgpv01";

/* the same nonce over "sk" without aad */
static const char  kat_short[] = "v1:oKGio6SlpqeoqaqrlXPysoU21NkJx4BESv8x9I+9";


static int
opens(const unsigned char *key, const char *rec, const char *aad,
    char *out, size_t cap)
{
    size_t  n;

    return behave_secretbox_open(key, rec, strlen(rec), aad,
                                 aad ? strlen(aad) : 0, out, cap, &n);
}


static void
test_master_key(unsigned char *key)
{
    char           buf[160];
    unsigned char  k2[BEHAVE_MASTER_KEY_LEN];

    is_int(behave_master_key_parse(key_hex, strlen(key_hex), key), 0,
           "master key: 64 hex digits");
    ok(key[0] == 0x00 && key[1] == 0x01 && key[31] == 0x1f,
       "master key: bytes decoded");

    snprintf(buf, sizeof(buf), "%s\n", key_hex);
    is_int(behave_master_key_parse(buf, strlen(buf), k2), 0,
           "master key: trailing newline allowed");
    ok(memcmp(key, k2, sizeof(k2)) == 0, "master key: same key");

    snprintf(buf, sizeof(buf), "  %s\r\n", key_hex);
    is_int(behave_master_key_parse(buf, strlen(buf), k2), 0,
           "master key: CRLF and leading spaces allowed");

    snprintf(buf, sizeof(buf), "%s", key_hex);
    buf[10] = 'A';
    buf[11] = 'F';
    is_int(behave_master_key_parse(buf, strlen(buf), k2), 0,
           "master key: uppercase hex");
    is_int(k2[5], 0xaf, "master key: uppercase byte");

    is_int(behave_master_key_parse(key_hex, 63, k2), -1,
           "master key: 63 digits refused");
    snprintf(buf, sizeof(buf), "%s0", key_hex);
    is_int(behave_master_key_parse(buf, strlen(buf), k2), -1,
           "master key: 65 digits refused");
    snprintf(buf, sizeof(buf), "%s", key_hex);
    buf[7] = 'g';
    is_int(behave_master_key_parse(buf, strlen(buf), k2), -1,
           "master key: non-hex refused");
    snprintf(buf, sizeof(buf), "%.32s %.32s", key_hex, key_hex + 32);
    is_int(behave_master_key_parse(buf, strlen(buf), k2), -1,
           "master key: inner space refused");
    memset(buf, '0', 64);
    is_int(behave_master_key_parse(buf, 64, k2), -1,
           "master key: all zero refused");
    is_int(behave_master_key_parse("", 0, k2), -1,
           "master key: empty refused");
}


static void
test_seal_open(const unsigned char *key)
{
    char           rec[256], rec2[256], out[256], bad[256];
    size_t         n, n2, len, i, k;
    unsigned char  other[BEHAVE_MASTER_KEY_LEN];

    /* a nonce, a ciphertext, a tag character; 0: the last one */
    static const size_t  at[] = { 5, 24, 60, 0 };

    len = strlen(secret);

    is_int(behave_secretbox_seal(key, secret, len, NULL, 0, rec, sizeof(rec),
                                 &n), 0, "seal");
    ok(strncmp(rec, "v1:", 3) == 0, "record starts with v1:");
    is_int(n, strlen(rec), "record length reported");
    is_int(n + 1, behave_secretbox_sealed_size(len), "sealed_size exact");
    ok(strstr(rec, "whsec") == NULL && strstr(rec, "MfKQ") == NULL,
       "record does not show the secret");

    for (i = 0; i < n; i++) {
        if (rec[i] < 0x21 || rec[i] > 0x7e) {
            break;
        }
    }
    is_int(i, n, "record is printable ASCII");

    is_int(opens(key, rec, NULL, out, sizeof(out)), 0, "open");
    is_str(out, secret, "open gives the secret back");

    behave_secretbox_seal(key, secret, len, NULL, 0, rec2, sizeof(rec2), &n2);
    ok(strcmp(rec, rec2) != 0, "two seals differ (fresh nonce)");

    memcpy(other, key, sizeof(other));
    other[31] ^= 0x01;
    snprintf(out, sizeof(out), "%s", "not wiped");
    is_int(opens(other, rec, NULL, out, sizeof(out)), -1, "wrong key fails");
    is_str(out, "", "wrong key leaves out empty");

    /* edit one character in the nonce, the ciphertext, the tag, the tail */
    for (i = 0; i < 4; i++) {
        snprintf(bad, sizeof(bad), "%s", rec);
        k = at[i] ? at[i] : n - 2;
        bad[k] = bad[k] == 'A' ? 'B' : 'A';
        is_int(opens(key, bad, NULL, out, sizeof(out)), -1,
               "tampered record fails (char %zu)", k);
    }

    snprintf(bad, sizeof(bad), "v2%s", rec + 2);
    is_int(opens(key, bad, NULL, out, sizeof(out)), -1,
           "unknown version fails");
    is_int(behave_secretbox_open(key, rec, n - 4, NULL, 0, out, sizeof(out),
                                 &n2), -1, "truncated record fails");
    is_int(opens(key, "v1:", NULL, out, sizeof(out)), -1, "empty record fails");
    is_int(opens(key, "v1:!!!!", NULL, out, sizeof(out)), -1,
           "non-base64 record fails");
    is_int(opens(key, secret, NULL, out, sizeof(out)), -1,
           "a plaintext secret is not a record");
    is_int(opens(key, rec, NULL, out, len), -1, "open: out too small");

    /* aad binds a record to its endpoint */
    is_int(behave_secretbox_seal(key, secret, len, "wh_1", 4, rec2,
                                 sizeof(rec2), NULL), 0, "seal with aad");
    is_int(opens(key, rec2, "wh_1", out, sizeof(out)), 0, "open with aad");
    is_str(out, secret, "open with aad gives the secret");
    is_int(opens(key, rec2, "wh_2", out, sizeof(out)), -1, "other aad fails");
    is_int(opens(key, rec2, NULL, out, sizeof(out)), -1, "missing aad fails");
    is_int(opens(key, rec, "wh_1", out, sizeof(out)), -1, "added aad fails");

    is_int(behave_secretbox_seal(key, "", 0, NULL, 0, rec2, sizeof(rec2),
                                 NULL), -1, "empty secret refused");
    is_int(behave_secretbox_seal(key, secret, len, NULL, 0, rec2,
                                 behave_secretbox_sealed_size(len) - 1, NULL),
           -1, "seal: out too small");
}


static void
test_limits(const unsigned char *key)
{
    static char  big[BEHAVE_SECRETBOX_PLAIN_MAX + 1];
    static char  rec[2 * BEHAVE_SECRETBOX_PLAIN_MAX];
    static char  out[2 * BEHAVE_SECRETBOX_PLAIN_MAX];
    size_t       n;

    memset(big, 'x', sizeof(big));

    is_int(behave_secretbox_seal(key, big, BEHAVE_SECRETBOX_PLAIN_MAX, NULL,
                                 0, rec, sizeof(rec), &n), 0,
           "seal of the largest secret");
    is_int(behave_secretbox_open(key, rec, n, NULL, 0, out, sizeof(out), &n),
           0, "open of the largest secret");
    is_int(n, BEHAVE_SECRETBOX_PLAIN_MAX, "largest secret length");
    is_int(behave_secretbox_seal(key, big, sizeof(big), NULL, 0, rec,
                                 sizeof(rec), &n), -1,
           "seal of a too large secret refused");
}


static void
test_known_answer(const unsigned char *key)
{
    char    out[128];
    size_t  n;

    is_int(opens(key, kat_aad, "wh_0123", out, sizeof(out)), 0,
           "known answer with aad opens");
    is_str(out, secret, "known answer with aad: plaintext");
    is_int(behave_secretbox_open(key, kat_short, strlen(kat_short), NULL, 0,
                                 out, sizeof(out), &n), 0,
           "known answer without aad opens");
    ok(n == 2 && memcmp(out, "sk", 3) == 0, "known answer: plaintext sk");
    is_int(opens(key, kat_aad, "wh_0124", out, sizeof(out)), -1,
           "known answer with another aad fails");
}


static void
test_random(void)
{
    char  a[BEHAVE_SLUG_SIZE], b[BEHAVE_SLUG_SIZE], id[64], id2[64];

    is_int(behave_random_slug(a, sizeof(a)), 0, "slug");
    is_int(strlen(a), 24, "slug is 24 characters (144 bits)");
    is_int(strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                     "0123456789-_"), 24, "slug is URL-safe");
    behave_random_slug(b, sizeof(b));
    ok(strcmp(a, b) != 0, "two slugs differ");
    is_int(behave_random_slug(a, BEHAVE_SLUG_SIZE - 1), -1,
           "slug: buffer too small");

    is_int(behave_random_id("wh", id, sizeof(id)), 0, "random id");
    is_int(strlen(id), 35, "id is wh_ and 32 hex digits");
    ok(strncmp(id, "wh_", 3) == 0, "id prefix");
    is_int(strspn(id + 3, "0123456789abcdef"), 32, "id is lowercase hex");
    behave_random_id("wh", id2, sizeof(id2));
    ok(strcmp(id, id2) != 0, "two ids differ");
    is_int(behave_random_id("wh", id, 35), -1, "id: buffer too small");
    is_int(behave_random_id("wh", id, 36), 0, "id: exact buffer");
}


static void
test_base64(void)
{
    char           out[64];
    size_t         i, n;
    unsigned char  bin[64];

    static const char  *plain[] = { "", "f", "fo", "foo", "foob", "fooba",
                                    "foobar" };
    static const char  *std[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==",
                                  "Zm9vYmE=", "Zm9vYmFy" };
    static const char  *url[] = { "", "Zg", "Zm8", "Zm9v", "Zm9vYg", "Zm9vYmE",
                                  "Zm9vYmFy" };
    static const unsigned char  hi[] = { 0xfb, 0xff, 0xbf };

    static const struct {
        const char  *in;
        size_t       room;
        int          url;
        const char  *name;
    }  refused[] = {
        { "Zh==", sizeof(bin), 0, "non-canonical tail refused" },
        { "Zg=", sizeof(bin), 0, "short padding refused" },
        { "Z===", sizeof(bin), 0, "one data character refused" },
        { "Zm 9v", sizeof(bin), 0, "space refused" },
        { "-_-_", sizeof(bin), 0, "url alphabet refused in std" },
        { "Zg==", sizeof(bin), 1, "padding refused in url" },
        { "Zm9vYmFy", 5, 0, "output too small" },
    };

    for (i = 0; i < 7; i++) {
        n = behave_base64_encode((const unsigned char *) plain[i],
                                 strlen(plain[i]), out, 0);
        is_str(out, std[i], "base64 \"%s\"", plain[i]);
        is_int(n, BEHAVE_BASE64_LEN(strlen(plain[i])), "base64 length %zu", i);

        behave_base64_encode((const unsigned char *) plain[i],
                             strlen(plain[i]), out, 1);
        is_str(out, url[i], "base64url \"%s\"", plain[i]);

        ok(behave_base64_decode(std[i], strlen(std[i]), bin, sizeof(bin), &n,
                                0) == 0
           && n == strlen(plain[i]) && memcmp(bin, plain[i], n) == 0,
           "decode \"%s\"", std[i]);
        ok(behave_base64_decode(url[i], strlen(url[i]), bin, sizeof(bin), &n,
                                1) == 0
           && n == strlen(plain[i]) && memcmp(bin, plain[i], n) == 0,
           "decode url \"%s\"", url[i]);
    }

    behave_base64_encode(hi, 3, out, 0);
    is_str(out, "+/+/", "base64 uses + and /");
    behave_base64_encode(hi, 3, out, 1);
    is_str(out, "-_-_", "base64url uses - and _");

    ok(behave_base64_decode("Zg", 2, bin, sizeof(bin), &n, 0) == 0 && n == 1,
       "decode: padding optional");
    for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        is_int(behave_base64_decode(refused[i].in, strlen(refused[i].in),
                                    bin, refused[i].room, &n, refused[i].url),
               -1, "decode: %s", refused[i].name);
    }
}


int
main(void)
{
    unsigned char  key[BEHAVE_MASTER_KEY_LEN];


    test_master_key(key);
    test_seal_open(key);
    test_limits(key);
    test_known_answer(key);
    test_random();
    test_base64();

    return tap_done();
}
