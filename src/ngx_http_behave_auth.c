/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * API keys: the keys file is read once per configuration load (so
 * "nginx -s reload" picks up changes), and each request's bearer token is
 * hashed and looked up.  Neither the token nor its hash is ever logged.
 */


#include "ngx_http_behave_auth.h"
#include "ngx_http_behave_util.h"


#define NGX_HTTP_BEHAVE_KEYS_MAX_FILE  (4 * 1024 * 1024)


static char *ngx_http_behave_keys_parse(ngx_conf_t *cf, ngx_str_t *file,
    ngx_str_t *text, ngx_array_t *keys);


char *
ngx_http_behave_keys_load(ngx_conf_t *cf, ngx_str_t *file,
    ngx_array_t **keys, time_t *mtime)
{
    char             *rv;
    ngx_str_t         text;
    ngx_file_info_t   fi;

    rv = ngx_http_behave_conf_read(cf, "behave_keys", file,
                                   NGX_HTTP_BEHAVE_KEYS_MAX_FILE, &text);
    if (rv != NGX_CONF_OK) {
        return rv;
    }

    /* for behave_health: how old the keys in use are */
    *mtime = (ngx_file_info(file->data, &fi) == NGX_FILE_ERROR)
             ? ngx_time() : ngx_file_mtime(&fi);

    *keys = ngx_array_create(cf->pool, 8, sizeof(behave_key_t));
    if (*keys == NULL) {
        return NGX_CONF_ERROR;
    }

    return ngx_http_behave_keys_parse(cf, file, &text, *keys);
}


static char *
ngx_http_behave_keys_parse(ngx_conf_t *cf, ngx_str_t *file, ngx_str_t *text,
    ngx_array_t *keys)
{
    int            rc;
    u_char        *p, *eol, *last;
    ngx_uint_t     line, i;
    const char    *err;
    behave_key_t   key, *k;

    p = text->data;
    last = p + text->len;

    for (line = 1; p < last; line++, p = eol + 1) {

        eol = ngx_strlchr(p, last, '\n');
        if (eol == NULL) {
            eol = last;
        }

        err = NULL;
        rc = behave_key_parse_line((char *) p, eol - p, &key, &err);

        if (rc == 0) {
            continue;
        }

        if (rc < 0) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "behave_keys: %V:%ui: %s", file, line, err);
            return NGX_CONF_ERROR;
        }

        k = keys->elts;
        for (i = 0; i < keys->nelts; i++) {
            if (ngx_memcmp(k[i].hash, key.hash, 32) == 0) {
                ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                                   "behave_keys: %V:%ui: the same key is "
                                   "listed twice", file, line);
                return NGX_CONF_ERROR;
            }
        }

        k = ngx_array_push(keys);
        if (k == NULL) {
            return NGX_CONF_ERROR;
        }

        *k = key;
    }

    if (keys->nelts == 0) {
        ngx_conf_log_error(NGX_LOG_WARN, cf, 0,
                           "behave_keys: \"%V\" holds no key: every request "
                           "will be refused", file);
    }

    return NGX_CONF_OK;
}


/* NGX_OK with *key set, or NGX_DECLINED with the error to answer in err */

ngx_int_t
ngx_http_behave_authenticate(ngx_http_request_t *r, ngx_array_t *keys,
    unsigned scope, const behave_key_t **key, behave_error_t *err)
{
    int                i;
    size_t             len;
    const char        *token;
    ngx_table_elt_t   *h;
    behave_key_t      *k;

    h = r->headers_in.authorization;

    if (h == NULL) {
        behave_error_set(err, BEHAVE_ERR_UNAUTHORIZED,
                         "missing Authorization: Bearer <key>");
        return NGX_DECLINED;
    }

    token = behave_bearer_token((char *) h->value.data, h->value.len, &len);

    if (token == NULL) {
        behave_error_set(err, BEHAVE_ERR_UNAUTHORIZED,
                         "the Authorization header must be "
                         "\"Bearer <key>\"");
        return NGX_DECLINED;
    }

    k = keys->elts;
    i = behave_key_find(k, keys->nelts, token, len);

    if (i < 0) {
        behave_error_set(err, BEHAVE_ERR_UNAUTHORIZED,
                         "the API key is not valid");
        return NGX_DECLINED;
    }

    if (!(k[i].scopes & scope)) {
        ngx_log_error(NGX_LOG_INFO, r->connection->log, 0,
                      "behave: key of tenant \"%s\" lacks scope \"%s\"",
                      k[i].tenant, behave_scope_name(scope));

        behave_error_set(err, BEHAVE_ERR_FORBIDDEN,
                         "the API key lacks the \"%s\" scope",
                         behave_scope_name(scope));
        return NGX_DECLINED;
    }

    *key = &k[i];

    return NGX_OK;
}
