/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/behave_json_arena.h"
#include "base/behave_json_parse.h"


/* a block's tag: what frees it (any two values no malloc() header has) */
#define BEHAVE_JSON_TAG_HEAP       0x68656170626c6b31ULL
#define BEHAVE_JSON_TAG_ARENA      0x6172656e61626c6bULL

/* the tag's room before a block, which keeps malloc()'s 16-byte alignment */
#define BEHAVE_JSON_HDR            16

/* a tree takes about ten times its text; a bigger one spills to the heap */
#define BEHAVE_JSON_ARENA_PER_BYTE 16
#define BEHAVE_JSON_ARENA_MIN      1024
#define BEHAVE_JSON_ARENA_MAX      (64 * 1024)


struct behave_json_arena_s {
    unsigned char  *data;
    size_t          size;
    size_t          used;
    size_t          spilled;
    cJSON          *tree;
};


typedef cJSON *(*behave_json_parse_pt)(const char *body, size_t len,
    behave_error_t *err);


static cJSON *behave_json_arena_parse(const char *body, size_t len,
    behave_json_arena_t **arena, behave_error_t *err,
    behave_json_parse_pt parse);
static void *behave_json_alloc(size_t size);
static void behave_json_dealloc(void *p);
static behave_json_arena_t *behave_json_arena_new(size_t body_len);


static int  behave_json_installed;

/* the arena of the parse running on this thread, NULL outside a parse */
static __thread behave_json_arena_t  *behave_json_current;


void
behave_json_hooks_install(void)
{
    cJSON_Hooks  hooks;

    if (behave_json_installed) {
        return;
    }

    hooks.malloc_fn = behave_json_alloc;
    hooks.free_fn = behave_json_dealloc;
    cJSON_InitHooks(&hooks);

    behave_json_installed = 1;
}


int
behave_json_hooks_installed(void)
{
    return behave_json_installed;
}


cJSON *
behave_json_parse_object_arena(const char *body, size_t len,
    behave_json_arena_t **arena, behave_error_t *err)
{
    return behave_json_arena_parse(body, len, arena, err,
                                   behave_json_parse_object);
}


cJSON *
behave_json_parse_strict_arena(const char *body, size_t len,
    behave_json_arena_t **arena, behave_error_t *err)
{
    return behave_json_arena_parse(body, len, arena, err,
                                   behave_json_parse_strict);
}


static cJSON *
behave_json_arena_parse(const char *body, size_t len,
    behave_json_arena_t **arena, behave_error_t *err,
    behave_json_parse_pt parse)
{
    cJSON                *root;
    behave_json_arena_t  *a;

    *arena = NULL;

    a = behave_json_installed ? behave_json_arena_new(len) : NULL;
    if (a == NULL) {
        return parse(body, len, err);
    }

    behave_json_current = a;
    root = parse(body, len, err);
    behave_json_current = NULL;

    if (root == NULL) {
        free(a);
        return NULL;
    }

    a->tree = root;
    *arena = a;

    return root;
}


void
behave_json_arena_release(void *arena)
{
    behave_json_arena_t  *a = arena;

    if (a == NULL) {
        return;
    }

    /* walks the tree: its arena blocks are skipped, heap ones freed */
    cJSON_Delete(a->tree);
    free(a);
}


size_t
behave_json_arena_used(const behave_json_arena_t *arena)
{
    return arena ? arena->used : 0;
}


size_t
behave_json_arena_spilled(const behave_json_arena_t *arena)
{
    return arena ? arena->spilled : 0;
}


static behave_json_arena_t *
behave_json_arena_new(size_t body_len)
{
    size_t                size;
    uintptr_t             data;
    behave_json_arena_t  *a;

    size = BEHAVE_JSON_ARENA_MAX;
    if (body_len < (BEHAVE_JSON_ARENA_MAX - BEHAVE_JSON_ARENA_MIN)
                   / BEHAVE_JSON_ARENA_PER_BYTE)
    {
        size = BEHAVE_JSON_ARENA_MIN + body_len * BEHAVE_JSON_ARENA_PER_BYTE;
    }

    a = malloc(sizeof(behave_json_arena_t) + 15 + size);
    if (a == NULL) {
        return NULL;
    }

    data = ((uintptr_t) (a + 1) + 15) & ~(uintptr_t) 15;

    a->data = (unsigned char *) data;
    a->size = size;
    a->used = 0;
    a->spilled = 0;
    a->tree = NULL;

    return a;
}


static void *
behave_json_alloc(size_t size)
{
    size_t                need;
    uint64_t              tag;
    unsigned char        *h;
    behave_json_arena_t  *a;

    if (size > SIZE_MAX - 2 * BEHAVE_JSON_HDR) {
        return NULL;
    }

    need = BEHAVE_JSON_HDR + ((size + 15) & ~(size_t) 15);
    a = behave_json_current;

    if (a != NULL && a->size - a->used >= need) {
        h = a->data + a->used;
        a->used += need;
        tag = BEHAVE_JSON_TAG_ARENA;

    } else {
        if (a != NULL) {
            a->spilled++;
        }

        h = malloc(BEHAVE_JSON_HDR + size);
        if (h == NULL) {
            return NULL;
        }

        tag = BEHAVE_JSON_TAG_HEAP;
    }

    memcpy(h, &tag, sizeof(tag));

    return h + BEHAVE_JSON_HDR;
}


static void
behave_json_dealloc(void *p)
{
    uint64_t        tag;
    unsigned char  *h;

    if (p == NULL) {
        return;
    }

    h = (unsigned char *) p - BEHAVE_JSON_HDR;
    memcpy(&tag, h, sizeof(tag));

    if (tag == BEHAVE_JSON_TAG_ARENA) {
        return;
    }

    if (tag == BEHAVE_JSON_TAG_HEAP) {
        free(h);
        return;
    }

    /* a block cJSON had before the hooks were installed */
    free(p);
}
