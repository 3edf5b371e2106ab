/*
 * A request body's tree in an arena (behave_json_arena.c): the same tree
 * as the plain parse, heap nodes added to it later freed, a tree bigger
 * than its arena spilled to the heap, errors unchanged, and trees parsed
 * or built outside an arena untouched.  Run under AddressSanitizer by
 * scripts/build, which would see a block freed twice or never.
 */

#include <stdlib.h>
#include <string.h>

#include "base/behave_json_arena.h"
#include "base/behave_json_parse.h"
#include "tap.h"


static const char  body[] =
    "{\"session_id\":\"s-1\",\"interaction_history\":["
    "{\"type\":\"keystroke\",\"t\":1},"
    "{\"type\":\"pause\",\"t\":2,\"duration\":2500},"
    "{\"type\":\"click\",\"t\":3,\"target\":\"buy\"}],"
    "\"user_data\":{\"name\":\"caf\\u00e9\"}}";


static void
test_same_tree(void)
{
    cJSON                *plain, *tree;
    behave_error_t        err;
    behave_json_arena_t  *arena;

    plain = behave_json_parse_object(body, sizeof(body) - 1, &err);
    tree = behave_json_parse_object_arena(body, sizeof(body) - 1, &arena,
                                          &err);

    ok(plain != NULL && tree != NULL && arena != NULL,
       "a body parses in an arena");
    ok(cJSON_Compare(plain, tree, 1), "into the plain parse's tree");
    ok(behave_json_arena_used(arena) > 0
       && behave_json_arena_spilled(arena) == 0,
       "every block in the arena (%zu bytes)",
       behave_json_arena_used(arena));

    /* the glue adds defaults to a parsed tree: heap nodes in it */
    ok(cJSON_AddStringToObject(tree, "added", "on the heap") != NULL
       && cJSON_AddObjectToObject(tree, "range") != NULL,
       "heap nodes join the tree");
    cJSON_DeleteItemFromObject(tree, "user_data");
    ok(!cJSON_HasObjectItem(tree, "user_data"),
       "an arena node deleted from the tree");

    behave_json_arena_release(arena);
    cJSON_Delete(plain);
}


static void
test_spill(void)
{
    size_t                i, n;
    char                 *big;
    cJSON                *tree;
    behave_error_t        err;
    behave_json_arena_t  *arena;

    /* [1,1,...]: two bytes of text make a node, more than an arena holds */
    n = 40000;
    big = malloc(n * 2 + 16);
    ok(big != NULL, "memory for a big body");
    if (big == NULL) {
        return;
    }

    memcpy(big, "{\"a\":[", 6);
    for (i = 0; i < n; i++) {
        memcpy(big + 6 + i * 2, "1,", 2);
    }
    memcpy(big + 6 + n * 2 - 1, "]}", 3);

    tree = behave_json_parse_object_arena(big, strlen(big), &arena, &err);
    ok(tree != NULL && arena != NULL, "a big body parses");
    ok(behave_json_arena_spilled(arena) > 0, "spilling %zu blocks",
       behave_json_arena_spilled(arena));
    is_int(cJSON_GetArraySize(cJSON_GetObjectItem(tree, "a")), n,
           "and the whole array is there");

    behave_json_arena_release(arena);
    free(big);
}


static void
test_errors(void)
{
    cJSON                *tree;
    behave_error_t        err;
    behave_json_arena_t  *arena;

    tree = behave_json_parse_object_arena("[1,2]", 5, &arena, &err);
    ok(tree == NULL && arena == NULL && err.err == BEHAVE_ERR_INVALID_JSON,
       "not an object: the plain parse's error, no arena left");
    is_str(err.message, "request body must be a JSON object",
           "... and message");

    tree = behave_json_parse_object_arena("{\"a\":[1,", 8, &arena, &err);
    ok(tree == NULL && arena == NULL && err.err == BEHAVE_ERR_INVALID_JSON,
       "truncated JSON refused");

    tree = behave_json_parse_object_arena("{\"a\":\"\xff\"}", 9, &arena,
                                          &err);
    ok(tree == NULL && err.err == BEHAVE_ERR_INVALID_UTF8,
       "bad UTF-8 refused");
}


int
main(void)
{
    cJSON                *before, *tree;
    behave_error_t        err;
    behave_json_arena_t  *arena;

    tree = behave_json_parse_object_arena(body, sizeof(body) - 1, &arena,
                                          &err);
    ok(tree != NULL && arena == NULL,
       "without the hooks: the plain parse, no arena");
    cJSON_Delete(tree);

    behave_json_hooks_install();
    behave_json_hooks_install();
    ok(behave_json_hooks_installed(), "hooks installed (twice is once)");

    before = cJSON_CreateObject();
    ok(cJSON_AddNumberToObject(before, "n", 1) != NULL,
       "a tree built outside any parse");

    test_same_tree();
    test_spill();
    test_errors();

    /* a tree of no arena, after the arenas came and went */
    ok(cJSON_GetObjectItem(before, "n")->valuedouble == 1,
       "is unchanged");
    cJSON_Delete(before);

    return tap_done();
}
