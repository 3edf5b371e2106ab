/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * API keys.  A keys file holds one key a line, never the key itself:
 *
 *     <sha256 hex of the key> <tenant> <scopes> <quota>
 *
 * scopes: comma-separated from analyze,gateway,portal; quota: annotations
 * per UTC day, 0 for unlimited.  '#' starts a comment; blank lines are
 * skipped.
 */

#ifndef BEHAVE_KEYS_H
#define BEHAVE_KEYS_H

#include <stddef.h>
#include <stdint.h>


#define BEHAVE_SCOPE_ANALYZE   0x01
#define BEHAVE_SCOPE_GATEWAY   0x02
#define BEHAVE_SCOPE_PORTAL    0x04

#define BEHAVE_TENANT_MAX      64


typedef struct {
    unsigned char   hash[32];
    char            tenant[BEHAVE_TENANT_MAX + 1];
    unsigned        scopes;
    uint64_t        quota;          /* 0: unlimited */
} behave_key_t;


/*
 * Returns 1 and fills key for a key line, 0 for a blank or comment line,
 * -1 with *err set to a short reason for a malformed line.
 */
int behave_key_parse_line(const char *line, size_t len, behave_key_t *key,
    const char **err);

void behave_key_hash(const char *key, size_t len, unsigned char out[32]);

/* constant time: the index in keys[] of the key, or -1 */
int behave_key_find(const behave_key_t *keys, size_t n, const char *key,
    size_t len);

/* "Bearer <token>": returns the token or NULL */
const char *behave_bearer_token(const char *value, size_t len,
    size_t *token_len);

int behave_tenant_valid(const char *t, size_t len);

const char *behave_scope_name(unsigned scope);


#endif /* BEHAVE_KEYS_H */
