/*
 * Copyright (C) ngx_http_behave_module authors
 */

/*
 * Every request hashes its key: OpenSSL 3's one-shot SHA256() looks the
 * algorithm up by name under a lock and allocates a context each time,
 * several times the cost of the hash of a 40-byte key.  The low-level
 * functions do the hash alone; they are deprecated, not removed, in 3.x.
 */
#define OPENSSL_SUPPRESS_DEPRECATED  1

#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>

#include "base/behave_keys.h"
#include "base/behave_utf8.h"


#define BEHAVE_KEY_FIELDS  4


typedef struct {
    const char  *p;
    size_t       len;
} behave_field_t;


static size_t behave_key_split(const char *line, size_t len,
    behave_field_t *f, size_t max);
static int behave_key_parse_hash(const behave_field_t *f,
    unsigned char *hash);
static int behave_key_parse_scopes(const behave_field_t *f,
    unsigned *scopes);
static int behave_key_parse_quota(const behave_field_t *f, uint64_t *quota);


int
behave_key_parse_line(const char *line, size_t len, behave_key_t *key,
    const char **err)
{
    size_t          n;
    behave_field_t  f[BEHAVE_KEY_FIELDS + 1];

    memset(key, 0, sizeof(*key));

    n = behave_key_split(line, len, f, BEHAVE_KEY_FIELDS + 1);

    if (n == 0) {
        return 0;
    }

    if (n != BEHAVE_KEY_FIELDS) {
        *err = "expected \"<sha256-hex> <tenant> <scopes> <quota>\"";
        return -1;
    }

    if (!behave_key_parse_hash(&f[0], key->hash)) {
        *err = "the first field must be 64 hex characters (sha256 of the key)";
        return -1;
    }

    if (!behave_tenant_valid(f[1].p, f[1].len)) {
        *err = "the tenant must be 1-64 characters from A-Z a-z 0-9 _ . -";
        return -1;
    }

    memcpy(key->tenant, f[1].p, f[1].len);

    if (!behave_key_parse_scopes(&f[2], &key->scopes)) {
        *err = "scopes must be a comma-separated list of analyze, gateway, "
               "portal";
        return -1;
    }

    if (!behave_key_parse_quota(&f[3], &key->quota)) {
        *err = "quota must be a whole number (0 for unlimited)";
        return -1;
    }

    return 1;
}


/* splits on blanks up to a '#'; returns the number of fields (<= max) */

static size_t
behave_key_split(const char *line, size_t len, behave_field_t *f, size_t max)
{
    size_t  i, n;

    n = 0;
    i = 0;

    while (i < len && line[i] != '#') {

        if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'
            || line[i] == '\n')
        {
            i++;
            continue;
        }

        if (n == max) {
            return n;
        }

        f[n].p = line + i;

        while (i < len && line[i] != ' ' && line[i] != '\t'
               && line[i] != '\r' && line[i] != '\n' && line[i] != '#')
        {
            i++;
        }

        f[n].len = (size_t) (line + i - f[n].p);
        n++;
    }

    return n;
}


static int
behave_key_parse_hash(const behave_field_t *f, unsigned char *hash)
{
    size_t  i;
    int     hi, lo;

    if (f->len != 64) {
        return 0;
    }

    for (i = 0; i < 32; i++) {
        hi = OPENSSL_hexchar2int((unsigned char) f->p[2 * i]);
        lo = OPENSSL_hexchar2int((unsigned char) f->p[2 * i + 1]);

        if (hi < 0 || lo < 0) {
            return 0;
        }

        hash[i] = (unsigned char) (hi << 4 | lo);
    }

    return 1;
}


int
behave_tenant_valid(const char *t, size_t len)
{
    return behave_ascii_name_valid(t, len, BEHAVE_TENANT_MAX, "_.-");
}


static int
behave_key_parse_scopes(const behave_field_t *f, unsigned *scopes)
{
    size_t       i, start, n;
    unsigned     s;
    const char  *p;

    *scopes = 0;
    start = 0;

    for (i = 0; i <= f->len; i++) {

        if (i < f->len && f->p[i] != ',') {
            continue;
        }

        p = f->p + start;
        n = i - start;
        s = 0;

        if (n == 7 && memcmp(p, "analyze", 7) == 0) {
            s = BEHAVE_SCOPE_ANALYZE;
        } else if (n == 7 && memcmp(p, "gateway", 7) == 0) {
            s = BEHAVE_SCOPE_GATEWAY;
        } else if (n == 6 && memcmp(p, "portal", 6) == 0) {
            s = BEHAVE_SCOPE_PORTAL;
        }

        if (s == 0) {
            return 0;
        }

        *scopes |= s;
        start = i + 1;
    }

    return 1;
}


static int
behave_key_parse_quota(const behave_field_t *f, uint64_t *quota)
{
    size_t    i;
    uint64_t  q;

    if (f->len == 0 || f->len > 15) {
        return 0;
    }

    q = 0;

    for (i = 0; i < f->len; i++) {
        if (f->p[i] < '0' || f->p[i] > '9') {
            return 0;
        }

        q = q * 10 + (uint64_t) (f->p[i] - '0');
    }

    *quota = q;

    return 1;
}


void
behave_key_hash(const char *key, size_t len, unsigned char out[32])
{
    SHA256_CTX  c;

    SHA256_Init(&c);
    SHA256_Update(&c, key, len);
    SHA256_Final(out, &c);
    OPENSSL_cleanse(&c, sizeof(c));
}


int
behave_key_find(const behave_key_t *keys, size_t n, const char *key,
    size_t len)
{
    int            found;
    size_t         i;
    unsigned char  hash[32];

    behave_key_hash(key, len, hash);
    found = -1;

    /* no early exit: the time taken does not tell which entry matched */
    for (i = 0; i < n; i++) {
        if (CRYPTO_memcmp(keys[i].hash, hash, 32) == 0) {
            found = (int) i;
        }
    }

    return found;
}


const char *
behave_bearer_token(const char *value, size_t len, size_t *token_len)
{
    size_t  i;

    if (len < 7 || strncasecmp(value, "Bearer ", 7) != 0) {
        return NULL;
    }

    i = 7;
    while (i < len && value[i] == ' ') {
        i++;
    }

    while (len > i && (value[len - 1] == ' ' || value[len - 1] == '\t')) {
        len--;
    }

    if (i == len) {
        return NULL;
    }

    *token_len = len - i;

    return value + i;
}


const char *
behave_scope_name(unsigned scope)
{
    switch (scope) {
    case BEHAVE_SCOPE_ANALYZE:
        return "analyze";
    case BEHAVE_SCOPE_GATEWAY:
        return "gateway";
    default:
        return "portal";
    }
}
