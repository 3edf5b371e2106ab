/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A compact JSON printer for cJSON trees.  cJSON prints every double with
 * sprintf("%1.15g") and checks it back with sscanf, a few microseconds a
 * response; the service's numbers are short (rounded to 1e-3 or whole),
 * so they are written directly and only the rare long one takes snprintf.
 */

#ifndef BEHAVE_JSON_H
#define BEHAVE_JSON_H

#include <stddef.h>
#include <cjson/cJSON.h>


/*
 * A writer for responses of a fixed shape, built without a cJSON tree:
 * behave_jw_init(), then the put functions (each a no-op once an
 * allocation failed), then behave_jw_finish() for the malloc()ed,
 * NUL-terminated text, or NULL when out of memory.
 */
typedef struct {
    char                  *buf;
    size_t                 len;
    size_t                 cap;
    int                    failed;
    int                    first;        /* no member written yet */
} behave_jw_t;


int behave_jw_init(behave_jw_t *w, size_t cap);
void behave_jw_open(behave_jw_t *w, const char *key);     /* { or "k":{ */
void behave_jw_close(behave_jw_t *w);                     /* } */
void behave_jw_open_array(behave_jw_t *w, const char *key);
void behave_jw_close_array(behave_jw_t *w);
void behave_jw_string(behave_jw_t *w, const char *key, const char *v);
void behave_jw_number(behave_jw_t *w, const char *key, double v);
void behave_jw_bool(behave_jw_t *w, const char *key, int v);
void behave_jw_item(behave_jw_t *w, const char *key, const cJSON *item);
char *behave_jw_finish(behave_jw_t *w, size_t *len);


/* the tree as compact JSON, malloc()ed and NUL-terminated; NULL on OOM */
char *behave_json_print(const cJSON *item, size_t *len);

/* writes v into buf (at least 32 bytes) as JSON; returns the length */
size_t behave_json_number(char *buf, double v);


#endif /* BEHAVE_JSON_H */
