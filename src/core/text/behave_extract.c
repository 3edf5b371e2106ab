/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <stdlib.h>
#include <string.h>

#include "text/behave_extract.h"
#include "base/behave_utf8.h"


#define BEHAVE_EXTRACT_PARTS_MAX  64


typedef struct {
    const char  *part[BEHAVE_EXTRACT_PARTS_MAX];
    size_t       len[BEHAVE_EXTRACT_PARTS_MAX];
    size_t       n;
} behave_extract_parts_t;


/* a list of turns: a member of the body and the parts read, by role */
typedef struct {
    const char           *member;
    const char *const    *types[2];          /* by behave_chat_role_e */
} behave_extract_list_t;


/* each entry of a list that is a turn, with its role and content */
#define behave_extract_each(entry, list, fmt, role, content)                  \
    for (entry = behave_extract_next((list)->child, fmt, &role, &content);    \
         entry != NULL;                                                       \
         entry = behave_extract_next(entry->next, fmt, &role, &content))


/* where the user's latest message is in a list */
typedef struct {
    const cJSON          *latest;            /* its entry */
    size_t                index;             /* among the turns */
} behave_extract_found_t;


static behave_extract_e behave_extract_list(const cJSON *root,
    const behave_extract_list_t *list, size_t max, behave_chat_t *chat);
static int behave_extract_find(const cJSON *list,
    const behave_extract_list_t *fmt, behave_extract_found_t *found);
static const cJSON *behave_extract_next(const cJSON *entry,
    const behave_extract_list_t *fmt, int *role, const cJSON **content);
static int behave_extract_role(const cJSON *entry);
static int behave_extract_has_text(const cJSON *content,
    const char *const *types);
static behave_extract_e behave_extract_turn(const cJSON *content,
    const char *const *types, behave_chat_turn_t *t);
static void behave_extract_history(behave_chat_t *chat);
static behave_extract_e behave_extract_single(const cJSON *item,
    const char *format, behave_chat_t *chat);
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


/*
 * chat parts are "text" (OpenAI's and Anthropic's); responses parts are
 * "input_text" (or "text"), and an assistant's "output_text"
 */
static const char *const  behave_extract_chat_types[] = { "text", NULL };
static const char *const  behave_extract_input_types[] = {
    "input_text", "text", NULL
};
static const char *const  behave_extract_output_types[] = {
    "output_text", "input_text", "text", NULL
};

static const behave_extract_list_t  behave_extract_lists[] = {
    { "messages", { behave_extract_chat_types, behave_extract_chat_types } },
    { "input", { behave_extract_input_types, behave_extract_output_types } }
};


behave_extract_e
behave_extract_text(const cJSON *root, const char *pointer, char **text,
    size_t *len)
{
    const cJSON             *item;
    behave_chat_t            chat;
    behave_extract_e         rc;
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

    /* the latest message alone: the chat of one turn, copied */
    rc = behave_extract_chat(root, 1, &chat);

    if (rc != BEHAVE_EXTRACT_OK) {
        return rc;
    }

    parts.part[0] = chat.turn[0].text;
    parts.len[0] = chat.turn[0].len;
    parts.n = 1;

    rc = behave_extract_join(&parts, text, len);
    behave_chat_free(&chat);

    return rc;
}


behave_extract_e
behave_extract_chat(const cJSON *root, size_t max, behave_chat_t *chat)
{
    size_t             i;
    const cJSON       *item;
    behave_extract_e   rc;

    chat->format = NULL;
    chat->turn = NULL;
    chat->n = 0;
    chat->left_out = 0;

    if (!cJSON_IsObject(root) || max == 0) {
        return BEHAVE_EXTRACT_NONE;
    }

    for (i = 0; i < sizeof(behave_extract_lists)
                    / sizeof(behave_extract_lists[0]); i++)
    {
        rc = behave_extract_list(root, &behave_extract_lists[i], max, chat);

        if (rc != BEHAVE_EXTRACT_NONE) {
            return rc;
        }
    }

    item = cJSON_GetObjectItemCaseSensitive(root, "input");

    if (cJSON_IsString(item)) {
        return behave_extract_single(item, "input", chat);
    }

    item = cJSON_GetObjectItemCaseSensitive(root, "message");

    if (cJSON_IsString(item)) {
        return behave_extract_single(item, "message", chat);
    }

    item = cJSON_GetObjectItemCaseSensitive(root, "text");

    if (cJSON_IsString(item)) {
        return behave_extract_single(item, "text", chat);
    }

    return BEHAVE_EXTRACT_NONE;
}


void
behave_chat_free(behave_chat_t *chat)
{
    size_t  i;

    for (i = 0; i < chat->n; i++) {
        free(chat->turn[i].own);
    }

    free(chat->turn);
    chat->turn = NULL;
    chat->n = 0;
}


/*
 * The turns of one list, in two walks: the first finds the user's latest
 * message (the last user entry that holds text: one with only an image
 * or a tool result is not the words the model answers), the second takes
 * it and the max - 1 turns before it.
 */

static behave_extract_e
behave_extract_list(const cJSON *root, const behave_extract_list_t *list,
    size_t max, behave_chat_t *chat)
{
    int                      role;
    size_t                   first, index, n;
    const cJSON             *entries, *entry, *content;
    behave_extract_e         rc;
    behave_chat_turn_t      *t;
    behave_extract_found_t   found;

    entries = cJSON_GetObjectItemCaseSensitive(root, list->member);

    if (!behave_extract_find(entries, list, &found)) {
        return BEHAVE_EXTRACT_NONE;
    }

    first = found.index + 1 > max ? found.index + 1 - max : 0;
    n = found.index + 1 - first;

    chat->turn = calloc(n, sizeof(behave_chat_turn_t));
    if (chat->turn == NULL) {
        return BEHAVE_EXTRACT_NOMEM;
    }

    chat->format = list->member;
    chat->left_out = first;
    index = 0;

    behave_extract_each(entry, entries, list, role, content) {
        if (index++ < first) {
            continue;
        }

        t = &chat->turn[chat->n];
        t->role = (behave_chat_role_e) role;

        rc = behave_extract_turn(content, list->types[role], t);
        chat->n++;

        if (rc != BEHAVE_EXTRACT_OK) {
            behave_chat_free(chat);
            return rc;
        }

        if (entry == found.latest) {
            break;
        }
    }

    behave_extract_history(chat);

    return BEHAVE_EXTRACT_OK;
}


static int
behave_extract_find(const cJSON *list, const behave_extract_list_t *fmt,
    behave_extract_found_t *found)
{
    int           role;
    size_t        index;
    const cJSON  *entry, *content;

    if (!cJSON_IsArray(list)) {
        return 0;
    }

    found->latest = NULL;
    index = 0;

    behave_extract_each(entry, list, fmt, role, content) {
        if (role == BEHAVE_CHAT_USER) {
            found->latest = entry;
            found->index = index;
        }

        index++;
    }

    return found->latest != NULL;
}


/*
 * The first entry from this one on that is a turn, with its role and
 * content; NULL when none is: entries of other roles, or with no text of
 * the parts read, are passed over
 */
static const cJSON *
behave_extract_next(const cJSON *entry, const behave_extract_list_t *fmt,
    int *role, const cJSON **content)
{
    for ( /* void */ ; entry != NULL; entry = entry->next) {
        *role = behave_extract_role(entry);

        if (*role < 0) {
            continue;
        }

        *content = cJSON_GetObjectItemCaseSensitive(entry, "content");

        if (behave_extract_has_text(*content, fmt->types[*role])) {
            return entry;
        }
    }

    return NULL;
}


/* a turn's role, or -1: system, developer, tool, an item of no role */

static int
behave_extract_role(const cJSON *entry)
{
    const cJSON  *role;

    role = cJSON_GetObjectItemCaseSensitive(entry, "role");

    if (!cJSON_IsString(role)) {
        return -1;
    }

    if (strcmp(role->valuestring, "user") == 0) {
        return BEHAVE_CHAT_USER;
    }

    if (strcmp(role->valuestring, "assistant") == 0) {
        return BEHAVE_CHAT_ASSISTANT;
    }

    return -1;
}


/* behave_extract_content() != 0, without measuring the text */

static int
behave_extract_has_text(const cJSON *content, const char *const *types)
{
    const cJSON  *part;

    if (cJSON_IsString(content)) {
        return 1;
    }

    if (!cJSON_IsArray(content)) {
        return 0;
    }

    cJSON_ArrayForEach(part, content) {
        if (behave_extract_type_in(part, types)
            && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(part, "text")))
        {
            return 1;
        }
    }

    return 0;
}


/* one part is pointed to where it is; several are joined */

static behave_extract_e
behave_extract_turn(const cJSON *content, const char *const *types,
    behave_chat_turn_t *t)
{
    behave_extract_parts_t  parts;

    parts.n = 0;
    (void) behave_extract_content(content, types, &parts);

    if (parts.n == 1) {
        t->text = parts.part[0];
        t->len = parts.len[0];
        return BEHAVE_EXTRACT_OK;
    }

    if (behave_extract_join(&parts, &t->own, &t->len) != BEHAVE_EXTRACT_OK) {
        return BEHAVE_EXTRACT_NOMEM;
    }

    t->text = t->own;

    return BEHAVE_EXTRACT_OK;
}


/*
 * The earlier turns, newest first: each cut to BEHAVE_CHAT_TURN_MAX bytes
 * (back to the start of a character), left out when blank or not UTF-8
 * (/v1/analyze refuses such a turn), and none older than the one that
 * would take them past BEHAVE_CHAT_HISTORY_MAX bytes.  The turns kept
 * move to the front, in order.
 */

static void
behave_extract_history(behave_chat_t *chat)
{
    size_t               i, k, used, keep;
    behave_chat_turn_t  *t;

    used = 0;
    keep = chat->n;                  /* the kept ones: turn[keep..n-1] */

    k = chat->n - 1;
    chat->turn[--keep] = chat->turn[k];

    while (k-- > 0) {
        t = &chat->turn[k];

        if (t->len > BEHAVE_CHAT_TURN_MAX) {
            t->len = BEHAVE_CHAT_TURN_MAX;

            while (t->len > 0
                   && ((unsigned char) t->text[t->len] & 0xc0) == 0x80)
            {
                t->len--;
            }
        }

        if (strspn(t->text, " \t\r\n") >= t->len
            || !behave_utf8_valid((const unsigned char *) t->text, t->len))
        {
            free(t->own);
            chat->left_out++;
            continue;
        }

        if (used + t->len > BEHAVE_CHAT_HISTORY_MAX) {
            for (i = 0; i <= k; i++) {
                free(chat->turn[i].own);
            }

            chat->left_out += k + 1;
            break;
        }

        used += t->len;
        chat->turn[--keep] = *t;
    }

    if (keep > 0) {
        memmove(chat->turn, &chat->turn[keep],
                (chat->n - keep) * sizeof(behave_chat_turn_t));
        chat->n -= keep;
    }
}


/* the formats of one message: a string, the one turn */

static behave_extract_e
behave_extract_single(const cJSON *item, const char *format,
    behave_chat_t *chat)
{
    chat->turn = calloc(1, sizeof(behave_chat_turn_t));
    if (chat->turn == NULL) {
        return BEHAVE_EXTRACT_NOMEM;
    }

    chat->format = format;
    chat->turn[0].role = BEHAVE_CHAT_USER;
    chat->turn[0].text = item->valuestring;
    chat->turn[0].len = strlen(item->valuestring);
    chat->n = 1;

    return BEHAVE_EXTRACT_OK;
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
