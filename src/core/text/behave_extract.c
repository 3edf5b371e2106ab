/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <stdlib.h>
#include <string.h>

#include "behave_extract.h"


#define BEHAVE_EXTRACT_PARTS_MAX  64


typedef struct {
    const char  *part[BEHAVE_EXTRACT_PARTS_MAX];
    size_t       len[BEHAVE_EXTRACT_PARTS_MAX];
    size_t       n;
} behave_extract_parts_t;


static const cJSON *behave_extract_last_user(const cJSON *list,
    const char *const *types);
static int behave_extract_content(const cJSON *content,
    const char *const *types, behave_extract_parts_t *parts);
static int behave_extract_type_in(const cJSON *part,
    const char *const *types);
static behave_extract_e behave_extract_join(behave_extract_parts_t *parts,
    char **text, size_t *len);
static const cJSON *behave_json_pointer_step(const cJSON *node,
    const char *token, size_t len);
static int behave_json_pointer_key_is(const char *key, const char *token,
    size_t len);


/* chat parts are "text"; responses parts are "input_text" (or "text") */
static const char *const  behave_extract_chat_types[] = { "text", NULL };
static const char *const  behave_extract_input_types[] = {
    "input_text", "text", NULL
};


behave_extract_e
behave_extract_text(const cJSON *root, const char *pointer, char **text,
    size_t *len)
{
    const cJSON             *item;
    behave_extract_parts_t   parts;

    parts.n = 0;

    if (pointer != NULL) {
        item = behave_json_pointer_get(root, pointer);

        if (!behave_extract_content(item, behave_extract_input_types,
                                    &parts))
        {
            return BEHAVE_EXTRACT_NONE;
        }

        return behave_extract_join(&parts, text, len);
    }

    if (!cJSON_IsObject(root)) {
        return BEHAVE_EXTRACT_NONE;
    }

    item = cJSON_GetObjectItemCaseSensitive(root, "messages");
    item = behave_extract_last_user(item, behave_extract_chat_types);

    if (item != NULL) {
        behave_extract_content(item, behave_extract_chat_types, &parts);
        return behave_extract_join(&parts, text, len);
    }

    item = cJSON_GetObjectItemCaseSensitive(root, "input");

    if (cJSON_IsString(item)) {
        behave_extract_content(item, NULL, &parts);
        return behave_extract_join(&parts, text, len);
    }

    item = behave_extract_last_user(item, behave_extract_input_types);

    if (item != NULL) {
        behave_extract_content(item, behave_extract_input_types, &parts);
        return behave_extract_join(&parts, text, len);
    }

    item = cJSON_GetObjectItemCaseSensitive(root, "message");

    if (!cJSON_IsString(item)) {
        item = cJSON_GetObjectItemCaseSensitive(root, "text");
    }

    if (behave_extract_content(item, NULL, &parts)) {
        return behave_extract_join(&parts, text, len);
    }

    return BEHAVE_EXTRACT_NONE;
}


/*
 * The content of the last entry of list with role "user" that holds text.
 * An entry without text (only an image, only a tool result) is skipped:
 * the words the model answers are still those of the user's last text.
 */

static const cJSON *
behave_extract_last_user(const cJSON *list, const char *const *types)
{
    const cJSON             *entry, *role, *content, *found;
    behave_extract_parts_t   parts;

    if (!cJSON_IsArray(list)) {
        return NULL;
    }

    found = NULL;

    cJSON_ArrayForEach(entry, list) {
        role = cJSON_GetObjectItemCaseSensitive(entry, "role");

        if (!cJSON_IsString(role) || strcmp(role->valuestring, "user") != 0) {
            continue;
        }

        content = cJSON_GetObjectItemCaseSensitive(entry, "content");
        parts.n = 0;

        if (behave_extract_content(content, types, &parts)) {
            found = content;
        }
    }

    return found;
}


/*
 * Collects the text of content: a string, or an array of parts whose
 * "type" is one of types and whose "text" is a string.  Returns 1 when
 * there is any.  Parts beyond BEHAVE_EXTRACT_PARTS_MAX are ignored: the
 * annotator reads a message, not a document.
 */

static int
behave_extract_content(const cJSON *content, const char *const *types,
    behave_extract_parts_t *parts)
{
    const cJSON  *part, *t;

    if (cJSON_IsString(content)) {
        parts->part[0] = content->valuestring;
        parts->len[0] = strlen(content->valuestring);
        parts->n = 1;
        return 1;
    }

    if (!cJSON_IsArray(content) || types == NULL) {
        return 0;
    }

    cJSON_ArrayForEach(part, content) {
        if (parts->n == BEHAVE_EXTRACT_PARTS_MAX) {
            break;
        }

        if (!behave_extract_type_in(part, types)) {
            continue;
        }

        t = cJSON_GetObjectItemCaseSensitive(part, "text");

        if (!cJSON_IsString(t)) {
            continue;
        }

        parts->part[parts->n] = t->valuestring;
        parts->len[parts->n] = strlen(t->valuestring);
        parts->n++;
    }

    return parts->n > 0;
}


static int
behave_extract_type_in(const cJSON *part, const char *const *types)
{
    const cJSON  *type;

    type = cJSON_GetObjectItemCaseSensitive(part, "type");

    if (!cJSON_IsString(type)) {
        return 0;
    }

    for ( /* void */ ; *types != NULL; types++) {
        if (strcmp(type->valuestring, *types) == 0) {
            return 1;
        }
    }

    return 0;
}


static behave_extract_e
behave_extract_join(behave_extract_parts_t *parts, char **text, size_t *len)
{
    char    *p;
    size_t   i, total;

    if (parts->n == 0) {
        return BEHAVE_EXTRACT_NONE;
    }

    total = parts->n - 1;

    for (i = 0; i < parts->n; i++) {
        total += parts->len[i];
    }

    p = malloc(total + 1);
    if (p == NULL) {
        return BEHAVE_EXTRACT_NOMEM;
    }

    *text = p;
    *len = total;

    for (i = 0; i < parts->n; i++) {
        if (i > 0) {
            *p++ = '\n';
        }

        memcpy(p, parts->part[i], parts->len[i]);
        p += parts->len[i];
    }

    *p = '\0';

    return BEHAVE_EXTRACT_OK;
}


int
behave_json_pointer_valid(const char *p, size_t len)
{
    size_t  i;

    if (len == 0) {
        return 1;
    }

    if (p[0] != '/') {
        return 0;
    }

    for (i = 1; i < len; i++) {
        if (p[i] == '\0') {
            return 0;
        }

        if (p[i] == '~' && (i + 1 == len || (p[i + 1] != '0'
                                             && p[i + 1] != '1')))
        {
            return 0;
        }
    }

    return 1;
}


const cJSON *
behave_json_pointer_get(const cJSON *root, const char *pointer)
{
    size_t       len;
    const char  *token, *end;

    if (*pointer == '\0') {
        return root;
    }

    token = pointer + 1;

    for ( ;; ) {
        end = strchr(token, '/');
        len = end ? (size_t) (end - token) : strlen(token);

        root = behave_json_pointer_step(root, token, len);

        if (root == NULL || end == NULL) {
            return root;
        }

        token = end + 1;
    }
}


static const cJSON *
behave_json_pointer_step(const cJSON *node, const char *token, size_t len)
{
    size_t        i, index;
    const cJSON  *child;

    if (cJSON_IsObject(node)) {
        cJSON_ArrayForEach(child, node) {
            if (behave_json_pointer_key_is(child->string, token, len)) {
                return child;
            }
        }

        return NULL;
    }

    if (!cJSON_IsArray(node) || len == 0 || len > 9
        || (len > 1 && token[0] == '0'))
    {
        return NULL;
    }

    index = 0;

    for (i = 0; i < len; i++) {
        if (token[i] < '0' || token[i] > '9') {
            return NULL;
        }

        index = index * 10 + (size_t) (token[i] - '0');
    }

    cJSON_ArrayForEach(child, node) {
        if (index-- == 0) {
            return child;
        }
    }

    return NULL;
}


/* key == the unescaped token ("~1" is '/', "~0" is '~') */

static int
behave_json_pointer_key_is(const char *key, const char *token, size_t len)
{
    char    c;
    size_t  i;

    if (key == NULL) {
        return 0;
    }

    for (i = 0; i < len; i++) {
        c = token[i];

        if (c == '~' && i + 1 < len) {
            i++;
            c = (token[i] == '1') ? '/' : '~';
        }

        if (*key++ != c) {
            return 0;
        }
    }

    return *key == '\0';
}
