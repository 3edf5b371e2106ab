/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Vapi's options of one endpoint (its HMAC plan), for its provider file
 * and its tests: what behave_provider_vapi's options_load leaves in the
 * opaque behave_provider_opts_t.
 */

#ifndef BEHAVE_PROVIDER_VAPI_H
#define BEHAVE_PROVIDER_VAPI_H

#include <cjson/cJSON.h>

#include "base/behave_error.h"
#include "webhooks/behave_signature.h"


#define BEHAVE_SIG_PREFIX_MAX            16

typedef struct {
    char                       header[BEHAVE_SIG_NAME_MAX + 1];
    char                       timestamp_header[BEHAVE_SIG_NAME_MAX + 1];
    char                       prefix[BEHAVE_SIG_PREFIX_MAX + 1];
    unsigned                   base64:1;         /* else hex */
    unsigned                   body_only:1;      /* else "<t>.<body>" */
} behave_sig_vapi_t;


/* x-signature, x-timestamp, no prefix, hex, "<t>.<body>" */
void behave_sig_vapi_default(behave_sig_vapi_t *vapi);

/*
 * The stored form of the options, one line of printable ASCII:
 * "v1 <header> <timestamp header> hex|base64 timestamp.body|body p:<prefix>".
 * format returns 0, or -1 when cap is too small; parse returns 0, or -1
 * for text not in that form (vapi then holds the defaults).
 */
int behave_sig_vapi_format(const behave_sig_vapi_t *vapi, char *out,
    size_t cap);
int behave_sig_vapi_parse(const char *text, size_t len,
    behave_sig_vapi_t *vapi);

/*
 * The options from the "signature" object of a registration (NULL or
 * null: the defaults): header, timestamp_header, prefix, encoding (hex,
 * base64), signed (timestamp.body, body).  Unknown members are refused,
 * so a typo does not silently leave a default in place.
 */
behave_err_e behave_endpoint_vapi_parse(const cJSON *o,
    behave_sig_vapi_t *vapi, behave_error_t *err);


#endif /* BEHAVE_PROVIDER_VAPI_H */
