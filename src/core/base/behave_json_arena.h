/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A request body's cJSON tree in one block instead of one malloc() per
 * node, key and string.  cJSON 1.7.15 allocates through process-wide
 * hooks only, and on the gateway's hot path glibc's malloc() and free()
 * of a small tree (some fifty blocks) cost more than parsing it.
 *
 * Every block cJSON asks for, once the hooks are installed, carries a
 * 16-byte tag: "arena" blocks come from the block of the parse that is
 * running on this thread and are never freed one by one; "heap" blocks
 * are malloc()ed as before.  So a tree may mix both (the glue adds heap
 * nodes to a parsed tree) and cJSON_Delete() stays right for every tree.
 */

#ifndef BEHAVE_JSON_ARENA_H
#define BEHAVE_JSON_ARENA_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "base/behave_error.h"


typedef struct behave_json_arena_s  behave_json_arena_t;


/*
 * Installs the tagging hooks.  Once per process, before the first cJSON
 * allocation (a block allocated before would be freed as untagged, which
 * is safe outside AddressSanitizer builds only); later calls do nothing.
 * Not thread-safe: call it while the process has one thread.
 */
void behave_json_hooks_install(void);

/* 1 once behave_json_hooks_install() ran */
int behave_json_hooks_installed(void);

/*
 * behave_json_parse_object() with the tree's blocks in an arena sized
 * for a body of len bytes (what does not fit goes to the heap).  On
 * success with *arena set, the arena owns the tree: release both with
 * behave_json_arena_release(), from any thread, never with
 * cJSON_Delete().  With *arena NULL (hooks not installed, or no memory
 * for an arena) the tree is an ordinary one, for cJSON_Delete().
 */
cJSON *behave_json_parse_object_arena(const char *body, size_t len,
    behave_json_arena_t **arena, behave_error_t *err);

/*
 * The same with behave_json_parse_strict(): any JSON value, the UTF-8 of
 * its strings not checked (the LLM pre-filter reads the texts it needs
 * and checks those)
 */
cJSON *behave_json_parse_strict_arena(const char *body, size_t len,
    behave_json_arena_t **arena, behave_error_t *err);

/* deletes the arena's tree (with any heap node added to it), then the
 * arena; a void * so that it fits a cleanup handler */
void behave_json_arena_release(void *arena);

/* bytes the arena handed out, and blocks that went to the heap instead */
size_t behave_json_arena_used(const behave_json_arena_t *arena);
size_t behave_json_arena_spilled(const behave_json_arena_t *arena);


#endif /* BEHAVE_JSON_ARENA_H */
