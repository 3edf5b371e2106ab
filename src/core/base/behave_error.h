/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Every error a client can see, with its HTTP status and stable code.
 * docs/API.md lists the same table; keep them in step.
 */

#ifndef BEHAVE_ERROR_H
#define BEHAVE_ERROR_H

#include <stddef.h>


typedef enum {
    BEHAVE_OK = 0,
    BEHAVE_ERR_INVALID_JSON,
    BEHAVE_ERR_INVALID_UTF8,
    BEHAVE_ERR_MISSING_FIELD,
    BEHAVE_ERR_EMPTY_MESSAGE,
    BEHAVE_ERR_INVALID_FIELD,
    BEHAVE_ERR_UNAUTHORIZED,
    BEHAVE_ERR_FORBIDDEN,
    BEHAVE_ERR_NOT_FOUND,
    BEHAVE_ERR_METHOD,
    BEHAVE_ERR_CONFLICT,
    BEHAVE_ERR_TOO_LARGE,
    BEHAVE_ERR_MEDIA_TYPE,
    BEHAVE_ERR_UNPROCESSABLE,
    BEHAVE_ERR_RATE_LIMITED,
    BEHAVE_ERR_INTERNAL,
    BEHAVE_ERR_UNAVAILABLE,
    /* nginx's own refusals, answered by "behave_error_page" */
    BEHAVE_ERR_BAD_REQUEST,
    BEHAVE_ERR_TIMEOUT,
    BEHAVE_ERR_URI_TOO_LONG,
    BEHAVE_ERR_NOT_IMPLEMENTED,
    BEHAVE_ERR_LAST
} behave_err_e;


typedef struct {
    behave_err_e   err;
    char           message[160];    /* human readable, no secrets */
} behave_error_t;


int behave_error_status(behave_err_e err);
const char *behave_error_code(behave_err_e err);

/* sets e and returns e->err; message is printf-like */
behave_err_e behave_error_set(behave_error_t *e, behave_err_e err,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * The error of an HTTP status nginx itself answers (an error_page): its
 * kind, the status the client sees (*sent: 494..497 go out as 400, as
 * nginx sends them) and a message.  A status without a kind of its own
 * keeps its number, with bad_request (4xx) or internal_error (5xx).
 */
behave_err_e behave_error_for_status(int status, int *sent,
    behave_error_t *e);

/*
 * {"error":{"code":"...","message":"..."}}, malloc()ed, NUL-terminated;
 * NULL on allocation failure.
 */
char *behave_error_json(const behave_error_t *e, size_t *len);


#endif /* BEHAVE_ERROR_H */
