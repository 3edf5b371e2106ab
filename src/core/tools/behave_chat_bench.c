/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The core's share of a pre-filtered chat request with history, as the
 * module does it: the strict JSON parse of the body (its tree in an
 * arena, behave_json_arena.h), the chat's turns
 * (behave_extract_chat()), the latest message annotated and the
 * findings of the turns before it (behave_chat_assess()).
 *
 *     behave_chat_bench [-t TURNS] [-n CHATS] [-c CASE] FILE.jsonl...
 *
 * Chats of TURNS turns (50 by default) are made of the conversations'
 * turns in the files, taken in order and cycled (customer turns as
 * "user", agent turns as "assistant", OpenAI chat.completions bodies
 * with a system prompt).  Three cases, CPU time of this thread per
 * request, median and p99 over CHATS requests each (200):
 *
 *   cold     a chat the worker has not seen (a memo of its own for each
 *            request): every user turn annotated, and the assistant turns
 *            whose claims the findings read
 *   steady   the chat one request later: two turns more (the agent's
 *            answer and the user's next message), the memo holding what
 *            the requests before it derived, as in a worker that served
 *            them
 *   single   one user message, no history (the pre-filter's path for
 *            it: parse, the latest message, annotate)
 *
 * With -c cold|steady|single, that case alone, and no warm-up request:
 * for callgrind, whose instruction counts are steady on a shared
 * machine where a clock is not (scripts/bench):
 *
 *     valgrind --tool=callgrind --toggle-collect=bench_request \
 *         behave_chat_bench -c cold -n 20 FILE.jsonl...
 *
 * counts the instructions of the 20 cold requests measured, nothing
 * else (the steady case's requests that fill the memo are not counted).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "text/behave_annotate.h"
#include "conversation/behave_chat.h"
#include "conversation/behave_conv_scan.h"
#include "text/behave_extract.h"
#include "text/behave_model.h"
#include "text/behave_similarity.h"
#include "base/behave_json.h"
#include "base/behave_json_arena.h"
#include "tools/behave_jsonl.h"
#include "conversation/behave_turn_memo.h"
#include "tools/behave_tool_util.h"


#define BENCH_TURNS_MAX  20000


static behave_jsonl_turn_t   turns[BENCH_TURNS_MAX];
static behave_jsonl_turns_t  corpus = { turns, 0, BENCH_TURNS_MAX };


static char *bench_body(size_t first, size_t n, size_t *len);
static double bench_run(const char *body, size_t len,
    behave_turn_memo_t *memo, size_t *annotated);
static double bench_request(const char *body, size_t len,
    behave_turn_memo_t *memo, size_t *annotated);
static void bench_report(const char *name, double *ns, size_t n,
    const char *what);
static void bench_cold(size_t nt, size_t chats, double *ns);
static void bench_steady(size_t nt, size_t chats, double *ns);
static void bench_single(size_t chats, double *ns);


/* n turns from turns[first] on (cycled), ending on a user turn */

static char *
bench_body(size_t first, size_t n, size_t *len)
{
    int           agent;
    char         *s;
    size_t        i;
    behave_jw_t   w;

    if (!behave_jw_init(&w, 4096)) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    behave_jw_literal(&w, "{\"model\":\"gpt-4o-mini\",\"messages\":["
                          "{\"role\":\"system\",\"content\":"
                          "\"You are a support agent.\"}");

    for (i = 0; i < n; i++) {
        /* alternate roles whatever the source: a chat's shape */
        agent = (n - 1 - i) % 2 == 1;

        if (agent) {
            behave_jw_literal(&w, ",{\"role\":\"assistant\",\"content\":");

        } else {
            behave_jw_literal(&w, ",{\"role\":\"user\",\"content\":");
        }

        behave_jw_value_string(&w, turns[(first + i) % corpus.n].text);
        behave_jw_literal(&w, "}");
    }

    behave_jw_literal(&w, "]}");

    s = behave_jw_finish(&w, len);
    if (s == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }

    return s;
}


/* a measured request: the name callgrind's --toggle-collect is given */
__attribute__((noinline)) static double
bench_request(const char *body, size_t len, behave_turn_memo_t *memo,
    size_t *annotated)
{
    return bench_run(body, len, memo, annotated);
}


__attribute__((noinline)) static double
bench_run(const char *body, size_t len, behave_turn_memo_t *memo,
    size_t *annotated)
{
    double                   t0;
    cJSON                   *root;
    behave_chat_t            chat;
    behave_error_t           err;
    behave_annotation_t      a;
    behave_json_arena_t     *arena;
    behave_chat_findings_t   f;

    t0 = behave_clock_ns(CLOCK_THREAD_CPUTIME_ID);

    root = behave_json_parse_strict_arena(body, len, &arena, &err);

    if (root == NULL
        || behave_extract_chat(root, BEHAVE_CHAT_TURNS_MAX, &chat)
           != BEHAVE_EXTRACT_OK)
    {
        fprintf(stderr, "a body did not read: %.80s\n", body);
        exit(1);
    }

    behave_annotate(chat.turn[chat.n - 1].text, chat.turn[chat.n - 1].len,
                    &a);

    f.annotated = 0;

    if (chat.n > 1) {
        (void) behave_chat_assess(&chat, &a, memo, &f);
    }

    behave_chat_free(&chat);

    if (arena != NULL) {
        behave_json_arena_release(arena);

    } else {
        cJSON_Delete(root);
    }

    *annotated += f.annotated + 1;

    return behave_clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
}




static void
bench_report(const char *name, double *ns, size_t n, const char *what)
{
    qsort(ns, n, sizeof(double), behave_cmp_double);

    printf("  %-8s median %7.1f us, p99 %7.1f us  (%s)\n", name,
           ns[n / 2] / 1000, ns[n * 99 / 100] / 1000, what);
}


/* cold: each chat a new one, every turn annotated */

static void
bench_cold(size_t nt, size_t chats, double *ns)
{
    char                *body, what[128];
    size_t               len, k, annotated, bytes;
    behave_turn_memo_t  *memo;

    annotated = 0;
    bytes = 0;

    for (k = 0; k < chats; k++) {
        body = bench_body(k * nt, nt, &len);
        memo = behave_turn_memo_create(BEHAVE_TURN_MEMO_SLOTS);
        ns[k] = bench_request(body, len, memo, &annotated);
        behave_turn_memo_free(memo);
        bytes += len;
        free(body);
    }

    snprintf(what, sizeof(what), "%zu turns, %.1f annotated, %zu-byte body",
             nt, (double) annotated / chats, bytes / chats);
    bench_report("cold", ns, chats, what);
}


/*
 * steady: one chat, two turns more at each request, one memo; the
 * requests before the first measured one fill it
 */

static void
bench_steady(size_t nt, size_t chats, double *ns)
{
    char                *body, what[128];
    size_t               len, k, annotated, filled;
    behave_turn_memo_t  *memo;

    memo = behave_turn_memo_create(BEHAVE_TURN_MEMO_SLOTS);
    filled = 0;

    for (k = 0; k < nt / 2; k++) {
        body = bench_body(2 * k, nt, &len);
        (void) bench_run(body, len, memo, &filled);
        free(body);
    }

    annotated = 0;

    for (k = 0; k < chats; k++) {
        body = bench_body(2 * (k + nt / 2), nt, &len);
        ns[k] = bench_request(body, len, memo, &annotated);
        free(body);
    }

    behave_turn_memo_free(memo);

    snprintf(what, sizeof(what), "%zu turns, %.1f annotated", nt,
             (double) annotated / chats);
    bench_report("steady", ns, chats, what);
}


/* single: one user message */

static void
bench_single(size_t chats, double *ns)
{
    char    *body;
    size_t   len, k, annotated;

    annotated = 0;

    for (k = 0; k < chats; k++) {
        body = bench_body(2 * k, 1, &len);
        ns[k] = bench_request(body, len, NULL, &annotated);
        free(body);
    }

    bench_report("single", ns, chats, "one user message, no history");
}


int
main(int argc, char **argv)
{
    int          i;
    char        *body;
    double      *ns;
    size_t       len, chats, nt, annotated;
    const char  *only;

    nt = 50;
    chats = 200;
    only = NULL;

    for (i = 1; i < argc && argv[i][0] == '-'; i += 2) {
        if (i + 1 < argc && strcmp(argv[i], "-t") == 0) {
            nt = (size_t) atoi(argv[i + 1]);

        } else if (i + 1 < argc && strcmp(argv[i], "-n") == 0) {
            chats = (size_t) atoi(argv[i + 1]);

        } else if (i + 1 < argc && strcmp(argv[i], "-c") == 0) {
            only = argv[i + 1];

        } else {
            break;
        }
    }

    if (i == argc || nt < 2 || chats < 2
        || (only != NULL && strcmp(only, "cold") != 0
            && strcmp(only, "steady") != 0 && strcmp(only, "single") != 0))
    {
        fprintf(stderr, "usage: behave_chat_bench [-t TURNS] [-n CHATS] "
                        "[-c cold|steady|single] FILE.jsonl...\n");
        return 1;
    }

    for ( /* void */ ; i < argc; i++) {
        behave_jsonl_turns(argv[i], &corpus);
    }

    /* as the module does at start: a request's tree in one block, the
     * phrase index, the similarity table and the stack's trees built */
    behave_json_hooks_install();
    behave_conv_scan_init();
    behave_sim_init();
    behave_model_tables_init();

    if (corpus.n < nt) {
        fprintf(stderr, "fewer turns than a chat\n");
        return 1;
    }

    ns = malloc(chats * sizeof(double));

    /* warm caches and branch predictors once (not under callgrind) */
    if (only == NULL) {
        body = bench_body(0, nt, &len);
        annotated = 0;
        (void) bench_run(body, len, NULL, &annotated);
        free(body);
    }

    printf("a pre-filtered chat request, core CPU time (parse, turns, "
           "annotate, findings), %zu chats from %zu turns\n", chats,
           corpus.n);

    if (only == NULL || strcmp(only, "cold") == 0) {
        bench_cold(nt, chats, ns);
    }

    if (only == NULL || strcmp(only, "steady") == 0) {
        bench_steady(nt, chats, ns);
    }

    if (only == NULL || strcmp(only, "single") == 0) {
        bench_single(chats, ns);
    }

    free(ns);

    return 0;
}
