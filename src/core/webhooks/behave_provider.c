/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The table of voice platforms (behave_provider.h), and what reads it:
 * a delivery's signature, its body, its call's retry key.
 */

#include <stdio.h>
#include <string.h>

#include "base/behave_json_parse.h"
#include "webhooks/behave_provider.h"


/* one file each in providers/ */
extern const behave_provider_t  behave_provider_elevenlabs;
extern const behave_provider_t  behave_provider_retell;
extern const behave_provider_t  behave_provider_vapi;
extern const behave_provider_t  behave_provider_standard;


/* the first is the default of a registration that names none */
const behave_provider_t  *const behave_providers[] = {
    &behave_provider_elevenlabs,
    &behave_provider_retell,
    &behave_provider_vapi,
    &behave_provider_standard,
    NULL
};


const behave_provider_t *
behave_provider_find(const char *name, size_t len)
{
    const behave_provider_t  *const *p;

    for (p = behave_providers; *p != NULL; p++) {
        if (strlen((*p)->name) == len && memcmp((*p)->name, name, len) == 0) {
            return *p;
        }
    }

    return NULL;
}


const behave_provider_t *
behave_provider_default(void)
{
    return behave_providers[0];
}


/* built once, read-only after (the first call is at configuration) */
const char *
behave_provider_list(void)
{
    size_t                    n;
    const behave_provider_t  *const *p;

    static char               list[256];

    if (list[0] != '\0') {
        return list;
    }

    n = 0;

    for (p = behave_providers; *p != NULL; p++) {
        n += snprintf(list + n, sizeof(list) - n, "%s%s",
                      p == behave_providers ? "" : ", ", (*p)->name);

        if (n >= sizeof(list)) {
            break;
        }
    }

    return list;
}


size_t
behave_provider_headers(const behave_provider_t *provider, const void *opts,
    const char **names)
{
    if (provider->headers != NULL) {
        return provider->headers(opts, names);
    }

    names[0] = provider->scheme->header;

    return 1;
}


behave_sig_err_e
behave_sig_verify(const behave_provider_t *provider,
    const behave_sig_headers_t *headers, const char *body, size_t len,
    const char *secret, size_t secret_len, unsigned flags, const void *opts,
    int64_t now_ms, behave_sig_info_t *info)
{
    behave_sig_err_e   rc;
    behave_sig_info_t  scratch;

    if (info == NULL) {
        info = &scratch;
    }

    memset(info, 0, sizeof(*info));

    if (secret == NULL || secret_len == 0) {
        return BEHAVE_SIG_BAD_SECRET;
    }

    if (headers == NULL) {
        return BEHAVE_SIG_MISSING_HEADER;
    }

    if (provider == NULL) {
        return BEHAVE_SIG_BAD_PROVIDER;
    }

    if (body == NULL) {
        body = "";
        len = 0;
    }

    rc = (provider->verify != NULL)
         ? provider->verify(headers, body, len, secret, secret_len, flags,
                            opts, now_ms, info)
         : behave_sig_pairs_verify(provider->scheme, headers, body, len,
                                   secret, secret_len, now_ms, info);

    if (rc != BEHAVE_SIG_OK) {
        memset(info, 0, sizeof(*info));
    }

    return rc;
}


behave_err_e
behave_call_parse(behave_call_t *call, const behave_provider_t *provider,
    const char *body, size_t len, behave_error_t *err)
{
    cJSON         *root;
    behave_err_e   rc;

    memset(call, 0, sizeof(*call));

    root = behave_json_parse_object(body, len, err);
    if (root == NULL) {
        return err->err;
    }

    rc = behave_call_parse_json(call, provider, root, err);

    if (rc != BEHAVE_OK) {
        cJSON_Delete(root);
        return rc;
    }

    call->root = root;

    return BEHAVE_OK;
}


behave_err_e
behave_call_parse_json(behave_call_t *call, const behave_provider_t *provider,
    const cJSON *root, behave_error_t *err)
{
    behave_err_e       rc;
    behave_call_src_t  src;

    rc = behave_call_begin(call, provider, root, &src, err);
    if (rc != BEHAVE_OK) {
        return rc;
    }

    if (provider == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL,
                                "unknown webhook provider");
    }

    rc = provider->locate != NULL
         ? provider->locate(call, root, &src, err)
         : behave_call_typed_data(call, root, &src, provider->typed, err);
    if (rc != BEHAVE_OK) {
        return rc;
    }

    return behave_call_finish(call, &src, err);
}


int
behave_call_dedup_key(const behave_call_t *call, char *out, size_t cap)
{
    int  n;

    if (call->call_id == NULL || call->call_id_len > 0x7fffffff
        || call->provider == NULL)
    {
        return -1;
    }

    n = snprintf(out, cap, "%s:%.*s", call->provider->name,
                 (int) call->call_id_len, call->call_id);

    return (n < 0 || (size_t) n >= cap) ? -1 : 0;
}
