/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The worst case of every operation at its documented maximum size, in
 * process: what one request can cost a worker's event loop in the core
 * (from the raw body to the response text), before any network or Redis
 * time.  scripts/bench prints it; README quotes it.
 *
 *     behave_worst [runs]        (default 5; prints max and median ms)
 *
 * Times are the process's CPU time: on a loaded machine wall time would
 * measure the neighbours; a worker alone on a core spends about this.
 *
 * Each body is built to the limit docs/API.md gives for its surface and
 * of the shape that costs the most (the most tokens, events, turns).
 *
 * Each operation runs as the glue runs it, in pieces: a piece is marked
 * as done on the event loop or, under "behave_thread_pool", in a thread,
 * and some pieces end an event-loop step (a Redis round trip, a slice).
 * Two figures follow per operation: the longest event-loop step without
 * a thread pool (every piece on the loop), and with one: the longest
 * step left on the loop, and apart the time of each piece in a thread
 * (what the request waits, not what the other requests wait).  The
 * glue's own work between pieces (nginx, hiredis) is not in it, but
 * the copy of the body into one string is (read back from nginx's
 * temporary file: a body over client_body_buffer_size is in one; in a
 * thread too under a pool).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "text/behave_annotate.h"
#include "webhooks/behave_callsum.h"
#include "conversation/behave_chat.h"
#include "text/behave_extract.h"
#include "gateway/behave_gateway.h"
#include "base/behave_json.h"
#include "base/behave_json_parse.h"
#include "analyze/behave_request.h"
#include "analyze/behave_response.h"
#include "reviews/behave_review.h"
#include "text/behave_routing.h"
#include "webhooks/behave_provider.h"
#include "webhooks/behave_signature.h"
#include "webhooks/behave_webhook_parse.h"


#define WORST_BODY_MAX      (1024 * 1024)       /* behave_max_body_size */
#define WORST_HOOK_MAX      (4 * 1024 * 1024)   /* the webhooks' 4m */
#define WORST_MESSAGE_MAX   32768               /* behave_max_message_size */
#define WORST_PRIOR         1000                /* stored events a session */


typedef struct {
    const char   *name;
    const char   *size;
    char         *body;
    size_t        len;
    void        (*run)(const char *body, size_t len, void *data);
    void         *data;
} worst_case_t;


static double worst_now(void);
static int worst_cmp(const void *a, const void *b);
static void worst_measure(worst_case_t *c, int runs);
static void worst_text(behave_jw_t *w, size_t bytes, size_t seed);
static char *worst_done(behave_jw_t *w, size_t *len);
static void worst_case(worst_case_t *c, behave_jw_t *w, const char *name,
    const char *size, void (*run)(const char *body, size_t len, void *data),
    void *data);
static void worst_put(behave_jw_t *w, const char *s);

static void run_check(const char *body, size_t len, void *data);
static void run_analyze(const char *body, size_t len, void *data);
static void run_signals(const char *body, size_t len, void *data);
static void run_behavior(const char *body, size_t len, void *data);
static void run_adaptive(const char *body, size_t len, void *data);
static void run_orchestrate(const char *body, size_t len, void *data);
static void run_webhook(const char *body, size_t len, void *data);
static void run_prefilter(const char *body, size_t len, void *data);
static void worst_verify(const char *body, size_t len);
static char *worst_body(const char *body, size_t len);
static cJSON *worst_tree(const char *body, size_t len, const char *what,
    char **copy);
static void worst_tree_done(cJSON *req, char *copy);
static void worst_fail(const char *what, const char *message)
    __attribute__((noreturn));


/*
 * The pieces of one run: worst_piece(name, where) ends the piece begun
 * at the previous mark; worst_yield() ends an event-loop step whatever
 * the mode (the request waits for Redis, or posts its next slice).
 */
#define WORST_LOOP    0
#define WORST_THREAD  1
#define WORST_PIECES  16

typedef struct {
    const char  *name;
    int          where;
    double       max_ms;        /* the longest of this piece */
    size_t       count;         /* pieces of this name in a run */
} worst_piece_t;

static worst_piece_t  worst_pieces[WORST_PIECES];
static int            worst_npieces;
static double         worst_mark_ms;
static double         worst_total_ms;       /* the run's pieces */
static double         worst_inline_ms, worst_inline_max;   /* no pool */
static double         worst_loop_ms, worst_loop_max;       /* a pool */
static const char    *worst_inline_what, *worst_loop_what;   /* the */
static double         worst_inline_big, worst_loop_big;     /* largest */
static const char    *worst_inline_longest, *worst_loop_longest;
static size_t         worst_run_count[WORST_PIECES];

static void worst_start(void);
static void worst_piece(const char *name, int where);
static void worst_yield(void);
static double worst_now(void);
static int worst_cmp(const void *a, const void *b);


static const char  *const worst_sentences[] = {
    "I was charged twice for the same order and nobody answers my emails. ",
    "This is the third time I am calling about it, it is still not fixed! ",
    "Could you please check the status of my refund, it has been weeks. ",
    "Thanks, that helps a lot, I appreciate you taking the time today. ",
    "I am not sure which plan fits, the pricing page is confusing to me. ",
    "Cancel my account right now, this is unacceptable and ridiculous. ",
    "The app crashes whenever I open the settings screen on my phone. ",
    "Great, it works now, have a nice evening and thank you again. "
};

static const char  *const worst_events[] = {
    "keystroke", "backspace", "pause", "click", "hover", "scroll", "focus",
    "blur", "submit", "error"
};


int
main(int argc, char **argv)
{
    int                   runs;
    char                  errbuf[256];
    size_t                i;
    behave_jw_t           w;
    behave_gw_catalog_t  *cat;
    worst_case_t          cases[10];
    int                   n;

    runs = argc > 1 ? atoi(argv[1]) : 5;
    runs = runs > 0 ? runs : 5;
    n = 0;

    /* strict JSON check: a 1 MiB array of one-digit numbers, most tokens */
    behave_jw_init(&w, WORST_BODY_MAX);
    behave_jw_literal(&w, "[0");
    while (w.len + 3 < WORST_BODY_MAX) {
        behave_jw_literal(&w, ",0");
    }
    behave_jw_literal(&w, "]");
    worst_case(&cases[n++], &w, "strict JSON check", "1 MiB of 0,0,...",
               run_check, NULL);

    /* analyze: 32 KiB message, metadata filling the 1 MiB body */
    behave_jw_init(&w, WORST_BODY_MAX);
    behave_jw_literal(&w, "{\"message\":\"");
    worst_text(&w, WORST_MESSAGE_MAX - 64, 0);
    behave_jw_literal(&w, "\",\"metadata\":{\"k\":[");
    for (i = 0; w.len + 64 < WORST_BODY_MAX; i++) {
        worst_put(&w, i ? ",{\"a\":1,\"b\":\"x\"}" : "{\"a\":1}");
    }
    behave_jw_literal(&w, "]}}");
    worst_case(&cases[n++], &w, "analyze", "32 KiB message, 1 MiB body",
               run_analyze, NULL);

    /* behavioral-signals: every modality, 32 KiB of text */
    behave_jw_init(&w, 64 * 1024);
    behave_jw_literal(&w, "{\"signals\":{\"voice\":{\"pitch_hz\":260,"
                      "\"pitch_variability\":0.4,\"energy_db\":82,"
                      "\"speech_rate_wpm\":210,\"pause_ratio\":0.1},"
                      "\"visual\":{\"angry\":0.8,\"neutral\":0.1,"
                      "\"happy\":0.1,\"gaze_on_screen\":0.5},"
                      "\"semantic\":{\"text\":\"");
    worst_text(&w, BEHAVE_GW_TEXT_MAX - 64, 1);
    behave_jw_literal(&w, "\"}}}");
    worst_case(&cases[n++], &w, "gateway behavioral-signals",
               "32 KiB text, 3 modalities", run_signals, NULL);

    /* analyze-behavior: 10,000 events with targets, a session as long */
    behave_jw_init(&w, WORST_BODY_MAX);
    behave_jw_literal(&w, "{\"session_id\":\"worst-case\",\"user_data\":{},"
                      "\"interaction_history\":[");
    for (i = 0; i < BEHAVE_GW_EVENTS_MAX; i++) {
        char  ev[160];
        int   k;

        k = snprintf(ev, sizeof(ev), "%s{\"type\":\"%s\",\"t\":%zu,"
                     "\"target\":\"button-%zu\",\"duration\":%zu,"
                     "\"delta\":%d}", i ? "," : "",
                     worst_events[(i * 7) % 10], 1700000000000 + i * 150,
                     i % 37, i % 900, (int) (i % 3) - 1);
        behave_jw_append(&w, ev, (size_t) k);
    }
    behave_jw_literal(&w, "]}");
    worst_case(&cases[n++], &w, "gateway analyze-behavior",
               "10,000 events, after as many", run_behavior, NULL);

    /* adaptive-ui: its events as analyze-behavior's, 64 components */
    behave_jw_init(&w, WORST_BODY_MAX);
    behave_jw_literal(&w, "{\"current_state\":{\"screen\":\"checkout\","
                      "\"components\":[");
    for (i = 0; i < 64; i++) {
        char  c[32];

        behave_jw_append(&w, c, (size_t) snprintf(c, sizeof(c),
                         "%s\"block_%zu\"", i ? "," : "", i));
    }
    behave_jw_literal(&w, "]},\"behavioral_data\":{\"interaction_history\":[");
    for (i = 0; i < BEHAVE_GW_EVENTS_MAX; i++) {
        char  ev[128];

        behave_jw_append(&w, ev, (size_t) snprintf(ev, sizeof(ev),
                         "%s{\"type\":\"%s\",\"t\":%zu,\"target\":\"b%zu\"}",
                         i ? "," : "", worst_events[(i * 3) % 10],
                         1700000000000 + i * 90, i % 5));
    }
    behave_jw_literal(&w, "]},\"user_profile\":{\"expertise\":\"novice\","
                      "\"accessibility_needs\":[\"screen_reader\","
                      "\"motor\"],\"locale\":\"ar-EG\"}}");
    worst_case(&cases[n++], &w, "gateway adaptive-ui",
               "10,000 events, 64 components", run_adaptive, NULL);

    /* orchestrate-models: 1,024 models, 1,000 context messages, ~1 MiB */
    behave_jw_init(&w, 256 * 1024);
    behave_jw_literal(&w, "{\"models\":[");
    for (i = 0; i < 1024; i++) {
        char  m[320];

        behave_jw_append(&w, m, (size_t) snprintf(m, sizeof(m),
            "%s{\"id\":\"model-%zu\",\"provider\":\"p%zu\","
            "\"p50_latency_ms\":%zu,\"cost_per_1k_input\":0.%03zu,"
            "\"cost_per_1k_output\":0.%03zu,\"context_window\":%zu,"
            "\"quality_tier\":%zu,\"capabilities\":[\"chat\",\"json\","
            "\"tools\",\"vision\"]}", i ? "," : "", i, i % 17, 100 + i,
            i % 1000 + 1, (i * 7) % 1000 + 1, 8192 + i * 64, 1 + i % 5));
    }
    behave_jw_literal(&w, "]}");
    {
        char    *catj;
        size_t   catlen;

        catj = worst_done(&w, &catlen);
        if (behave_gw_catalog_load(catj, catlen, &cat, errbuf,
                                   sizeof(errbuf)) != 0)
        {
            fprintf(stderr, "catalog: %s\n", errbuf);
            return 1;
        }
        free(catj);
    }

    behave_jw_init(&w, WORST_BODY_MAX);
    behave_jw_literal(&w, "{\"query\":\"");
    worst_text(&w, WORST_BODY_MAX / 2, 2);
    behave_jw_literal(&w, "\",\"context\":[");
    for (i = 0; i < 1000; i++) {
        worst_put(&w, i ? ",{\"role\":\"user\",\"content\":\""
                        : "{\"role\":\"user\",\"content\":\"");
        worst_text(&w, (WORST_BODY_MAX / 2 - 64 * 1024) / 1000, i);
        behave_jw_literal(&w, "\"}");
    }
    behave_jw_literal(&w, "],\"required_capabilities\":[\"chat\"]}");
    worst_case(&cases[n++], &w, "gateway orchestrate-models",
               "1 MiB: query + 1,000 messages; 1,024 models",
               run_orchestrate, cat);

    /* a webhook call: 5,000 turns in the 4 MiB the docs advise */
    behave_jw_init(&w, WORST_HOOK_MAX);
    behave_jw_literal(&w, "{\"type\":\"call.transcript\",\"data\":{"
                      "\"call_id\":\"worst-call\",\"verdict\":\"success\","
                      "\"transcript\":[");
    for (i = 0; i < BEHAVE_CALL_MAX_TURNS; i++) {
        worst_put(&w, i ? ",{\"speaker\":" : "{\"speaker\":");
        if (i % 2) {
            behave_jw_literal(&w, "\"customer\",\"text\":\"");
        } else {
            behave_jw_literal(&w, "\"agent\",\"text\":\"");
        }
        worst_text(&w, (WORST_HOOK_MAX - 64 * 1024) / BEHAVE_CALL_MAX_TURNS
                       - 48, i);
        behave_jw_literal(&w, "\"}");
    }
    behave_jw_literal(&w, "]}}");
    worst_case(&cases[n++], &w, "webhook call (standard)",
               "5,000 turns, 4 MiB", run_webhook, NULL);

    /*
     * the pre-filter: a chat filling 1 MiB, turns of 4 KiB and more (each
     * earlier one read for 4 KiB, 16 KiB of them in all: the bound), the
     * latest message at behave_max_message_size
     */
    behave_jw_init(&w, WORST_BODY_MAX + 64 * 1024);
    behave_jw_literal(&w, "{\"model\":\"m\",\"messages\":[");
    for (i = 0; w.len + WORST_MESSAGE_MAX + 8192 < WORST_BODY_MAX; i++) {
        worst_put(&w, i % 2 ? ",{\"role\":\"assistant\",\"content\":\""
                            : (i ? ",{\"role\":\"user\",\"content\":\""
                                 : "{\"role\":\"user\",\"content\":\""));
        worst_text(&w, BEHAVE_CHAT_TURN_MAX + 100, i);
        behave_jw_literal(&w, "\"}");
    }
    worst_put(&w, i % 2 ? ",{\"role\":\"assistant\",\"content\":\"ok\"}"
                        : "");
    behave_jw_literal(&w, ",{\"role\":\"user\",\"content\":\"");
    worst_text(&w, WORST_MESSAGE_MAX - 64, 3);
    behave_jw_literal(&w, "\"}]}");
    worst_case(&cases[n++], &w, "prefilter chat, 50 turns",
               "1 MiB: 4 KiB turns, a 32 KiB latest", run_prefilter, NULL);

    printf("worst case per request, in process, %d runs each "
           "(max / median ms of the whole; then the longest event-loop step\n"
           "without and with behave_thread_pool, and the longest of each "
           "piece, where it runs under a pool)\n", runs);

    for (i = 0; i < (size_t) n; i++) {
        if (cases[i].body == NULL) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }

        worst_measure(&cases[i], runs);
        free(cases[i].body);
    }

    behave_gw_catalog_free(cat);

    return 0;
}


static void
worst_measure(worst_case_t *c, int runs)
{
    int      i;
    double  *ms;

    ms = malloc(runs * sizeof(double));
    if (ms == NULL) {
        return;
    }

    worst_npieces = 0;
    worst_inline_max = 0;
    worst_loop_max = 0;
    worst_inline_longest = NULL;
    worst_loop_longest = NULL;

    for (i = 0; i < runs; i++) {
        memset(worst_run_count, 0, sizeof(worst_run_count));
        worst_start();
        c->run(c->body, c->len, c->data);
        worst_yield();
        ms[i] = worst_total_ms;
    }

    qsort(ms, runs, sizeof(double), worst_cmp);

    printf("  %-28s %-44s %7.2f / %6.2f ms  (%zu KiB)\n", c->name, c->size,
           ms[runs - 1], ms[runs / 2], c->len / 1024);

    printf("  %-28s   %-42s %7.2f ms  (mostly: %s)\n", "",
           "longest event-loop step, no thread pool", worst_inline_max,
           worst_inline_longest);
    printf("  %-28s   %-42s %7.2f ms  (mostly: %s)\n", "",
           "longest event-loop step, behave_thread_pool", worst_loop_max,
           worst_loop_longest ? worst_loop_longest : "nothing");

    for (i = 0; i < worst_npieces; i++) {
        printf("  %-28s     %-6s %-33s %7.2f ms", "",
               worst_pieces[i].where == WORST_THREAD ? "thread" : "loop",
               worst_pieces[i].name, worst_pieces[i].max_ms);
        if (worst_pieces[i].count > 1) {
            printf("  (each of %zu)", worst_pieces[i].count);
        }
        printf("\n");
    }

    fflush(stdout);
    free(ms);
}


static void
worst_start(void)
{
    worst_inline_ms = 0;
    worst_loop_ms = 0;
    worst_total_ms = 0;
    worst_inline_what = NULL;
    worst_loop_what = NULL;
    worst_mark_ms = worst_now();
}


/* the piece since the last mark is done: where it runs under a pool */
static void
worst_piece(const char *name, int where)
{
    int             i;
    double          now, ms;
    worst_piece_t  *p;

    now = worst_now();
    ms = now - worst_mark_ms;
    worst_total_ms += ms;

    for (i = 0; i < worst_npieces; i++) {
        if (strcmp(worst_pieces[i].name, name) == 0) {
            break;
        }
    }

    p = &worst_pieces[i];

    if (i == worst_npieces && i < WORST_PIECES) {
        worst_npieces++;
        p->name = name;
        p->where = where;
        p->max_ms = 0;
        p->count = 0;
    }

    if (ms > p->max_ms) {
        p->max_ms = ms;
    }

    if (++worst_run_count[i] > p->count) {
        p->count = worst_run_count[i];
    }

    /* without a pool every piece is on the loop */
    worst_inline_ms += ms;

    if (worst_inline_what == NULL || ms > worst_inline_big) {
        worst_inline_what = name;
        worst_inline_big = ms;
    }

    if (where == WORST_THREAD) {
        /* the loop's step ends where the thread's work begins */
        if (worst_loop_ms > worst_loop_max) {
            worst_loop_max = worst_loop_ms;
            worst_loop_longest = worst_loop_what;
        }

        worst_loop_ms = 0;
        worst_loop_what = NULL;

    } else {
        worst_loop_ms += ms;

        if (worst_loop_what == NULL || ms > worst_loop_big) {
            worst_loop_what = name;
            worst_loop_big = ms;
        }
    }

    /* the mark excludes this bookkeeping */
    worst_mark_ms = worst_now();
}


/* the request waits (Redis, the next slice): the event-loop step ends */
static void
worst_yield(void)
{
    if (worst_inline_ms > worst_inline_max) {
        worst_inline_max = worst_inline_ms;
        worst_inline_longest = worst_inline_what;
    }

    if (worst_loop_ms > worst_loop_max) {
        worst_loop_max = worst_loop_ms;
        worst_loop_longest = worst_loop_what;
    }

    worst_inline_ms = 0;
    worst_loop_ms = 0;
    worst_inline_what = NULL;
    worst_loop_what = NULL;
    worst_mark_ms = worst_now();
}


/*
 * The body as the glue gets it (ngx_http_behave_body_fill()): read back
 * from nginx's temporary file into one string.
 */
static char *
worst_body(const char *body, size_t len)
{
    char   *copy;
    FILE   *f;

    static FILE  *tmp;

    if (tmp == NULL) {
        tmp = tmpfile();
    }

    copy = malloc(len + 1);

    if (tmp == NULL || copy == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }

    /* nginx wrote the file as the body came: not part of the step */
    f = tmp;
    rewind(f);
    if (fwrite(body, 1, len, f) != len || fflush(f) != 0) {
        fprintf(stderr, "tmpfile: write failed\n");
        exit(1);
    }

    worst_mark_ms = worst_now();

    if (pread(fileno(f), copy, len, 0) != (ssize_t) len) {
        fprintf(stderr, "tmpfile: short read\n");
        exit(1);
    }

    copy[len] = '\0';

    return copy;
}


/* the body read and parsed as the gateway's glue does, step by step */
static cJSON *
worst_tree(const char *body, size_t len, const char *what, char **copy)
{
    cJSON           *req;
    behave_error_t   err;

    *copy = worst_body(body, len);
    worst_piece("read the body", WORST_THREAD);

    req = behave_json_parse_object(*copy, len, &err);
    if (req == NULL) {
        worst_fail(what, err.message);
    }

    worst_piece("strict check + parse", WORST_THREAD);

    return req;
}


/* when the request ends: the body, then its pool's cleanup frees the tree */
static void
worst_tree_done(cJSON *req, char *copy)
{
    free(copy);
    worst_yield();

    cJSON_Delete(req);
    worst_piece("free the tree", WORST_THREAD);
}


static void
worst_fail(const char *what, const char *message)
{
    fprintf(stderr, "%s: %s\n", what, message);
    exit(1);
}


/* bytes of sentences, cycling from seed: no character to escape */
static void
worst_text(behave_jw_t *w, size_t bytes, size_t seed)
{
    size_t       n, k;
    const char  *s;

    for (k = seed; bytes > 0; k++) {
        s = worst_sentences[k % (sizeof(worst_sentences)
                                 / sizeof(worst_sentences[0]))];
        n = strlen(s);
        n = n < bytes ? n : bytes;
        behave_jw_append(w, s, n);
        bytes -= n;
    }
}


/* behave_jw_literal() takes sizeof: not for a choice of two strings */
static void
worst_put(behave_jw_t *w, const char *s)
{
    behave_jw_append(w, s, strlen(s));
}


static char *
worst_done(behave_jw_t *w, size_t *len)
{
    return behave_jw_finish(w, len);
}


/* a case whose body w has just written (NULL when out of memory) */
static void
worst_case(worst_case_t *c, behave_jw_t *w, const char *name,
    const char *size, void (*run)(const char *body, size_t len, void *data),
    void *data)
{
    c->name = name;
    c->size = size;
    c->run = run;
    c->data = data;
    c->body = worst_done(w, &c->len);
}


static void
run_check(const char *body, size_t len, void *data)
{
    size_t       at;
    const char  *why;

    if (!behave_json_check(body, len, &at, &why)) {
        fprintf(stderr, "check: %s at %zu\n", why, at);
        exit(1);
    }

    worst_piece("strict check", WORST_THREAD);
}


static void
run_analyze(const char *body, size_t len, void *data)
{
    char                  *out, *copy;
    size_t                 olen;
    behave_error_t         err;
    behave_routing_t       routing;
    behave_annotation_t    ann;
    behave_analyze_req_t   req;
    behave_analyze_resp_t  resp;

    copy = worst_body(body, len);
    worst_piece("read the body", WORST_THREAD);

    if (behave_analyze_req_parse(copy, len, WORST_MESSAGE_MAX, &req, &err)
        != BEHAVE_OK)
    {
        worst_fail("analyze", err.message);
    }

    behave_annotate(req.message, req.message_len, &ann);
    behave_route(&ann, &routing);
    worst_piece("check, walk, annotate", WORST_THREAD);

    behave_analyze_resp_init(&resp, "ses_0123456789abcdef0123456789abcdef",
                             "shared", &req, &ann, &routing);

    out = behave_analyze_response_json(&resp, &olen);
    worst_piece("the answer (metadata echoed)", WORST_LOOP);

    free(out);
    behave_analyze_req_free(&req);
    free(copy);
    worst_yield();
    worst_piece("free", WORST_LOOP);
}


/*
 * the pre-filter, every piece on the loop (it has no thread pool): the
 * body, the strict parse, the chat's turns, the latest message annotated
 * and the history's findings, no turn remembered
 */
static void
run_prefilter(const char *body, size_t len, void *data)
{
    char                    *copy;
    cJSON                   *root;
    behave_chat_t            chat;
    behave_error_t           err;
    behave_annotation_t      ann;
    behave_chat_findings_t   f;

    copy = worst_body(body, len);
    worst_piece("read the body", WORST_LOOP);

    root = behave_json_parse_strict(copy, len, &err);
    if (root == NULL) {
        worst_fail("prefilter", err.message);
    }

    if (behave_extract_chat(root, 50, &chat) != BEHAVE_EXTRACT_OK) {
        fprintf(stderr, "prefilter: no chat\n");
        exit(1);
    }

    worst_piece("parse, the chat's turns", WORST_LOOP);

    behave_annotate(chat.turn[chat.n - 1].text, chat.turn[chat.n - 1].len,
                    &ann);
    worst_piece("annotate the latest", WORST_LOOP);

    if (behave_chat_assess(&chat, &ann, NULL, &f) != 0) {
        fprintf(stderr, "prefilter: no history\n");
        exit(1);
    }

    worst_piece("the history's findings", WORST_LOOP);

    behave_chat_free(&chat);
    cJSON_Delete(root);
    free(copy);
    worst_piece("free", WORST_LOOP);
    worst_yield();
}


/* parse, compute, print: what the gateway's glue does with the core */
static void
run_gw(const char *body, size_t len, void *data,
    behave_err_e (*op)(const cJSON *req, const void *data, cJSON **resp,
                       behave_error_t *err))
{
    char            *out, *copy;
    cJSON           *req, *resp;
    behave_err_e     rc;
    behave_error_t   err;

    req = worst_tree(body, len, "gateway", &copy);

    /* the limits: one Redis round trip */
    worst_yield();

    rc = op(req, data, &resp, &err);
    if (rc != BEHAVE_OK && rc != BEHAVE_ERR_UNPROCESSABLE) {
        worst_fail("gateway", err.message);
    }

    out = resp ? behave_json_print(resp, NULL) : NULL;
    cJSON_Delete(resp);
    worst_piece("operation + answer", WORST_THREAD);

    free(out);
    worst_tree_done(req, copy);
}


static behave_err_e
op_signals(const cJSON *req, const void *data, cJSON **resp,
    behave_error_t *err)
{
    return behave_gw_signals(req, 1700000000000, resp, err);
}


static behave_err_e
op_adaptive(const cJSON *req, const void *data, cJSON **resp,
    behave_error_t *err)
{
    return behave_gw_adaptive(req, 1700000000000, resp, err);
}


static behave_err_e
op_orchestrate(const cJSON *req, const void *data, cJSON **resp,
    behave_error_t *err)
{
    return behave_gw_orchestrate(req, data, 1700000000000, resp, err);
}


static void
run_signals(const char *body, size_t len, void *data)
{
    run_gw(body, len, data, op_signals);
}


static void
run_adaptive(const char *body, size_t len, void *data)
{
    run_gw(body, len, data, op_adaptive);
}


static void
run_orchestrate(const char *body, size_t len, void *data)
{
    run_gw(body, len, data, op_orchestrate);
}


/*
 * As the glue runs it, with Redis: validate and encode this call's batch,
 * the script appends it and returns the state before (here: a session
 * whose previous call was as large, not yet folded), then the analysis
 * over the state and the batch.
 */
static void
run_behavior(const char *body, size_t len, void *data)
{
    char                 *batch, *fresh, *state, *out, *copy;
    cJSON                *req;
    size_t                blen, flen, olen;
    behave_error_t        err;
    behave_gw_rewrite_t   rw;

    req = worst_tree(body, len, "analyze-behavior", &copy);
    worst_yield();                              /* the limits */

    if (behave_gw_behavior_batch(req, &batch, &blen, &err) != BEHAVE_OK) {
        worst_fail("analyze-behavior", err.message);
    }

    worst_piece("validate + encode the batch", WORST_THREAD);

    fresh = behave_gw_behavior_new_state(1700000000000, &flen);
    state = malloc(flen + blen);
    if (fresh == NULL || state == NULL) {
        fprintf(stderr, "analyze-behavior: out of memory\n");
        exit(1);
    }

    memcpy(state, fresh, flen);
    memcpy(state + flen, batch, blen);
    worst_piece("the script's arguments", WORST_LOOP);
    worst_yield();                              /* the script */

    if (behave_gw_behavior_session_text(req, 1700000000000, state,
                                        flen + blen, batch, blen,
                                        1700000000000, "session", &out,
                                        &olen, &rw, &err)
        != BEHAVE_OK)
    {
        worst_fail("analyze-behavior", err.message);
    }

    worst_piece("analysis + answer", WORST_THREAD);

    free(rw.blob);
    free(rw.hot);
    free(out);
    free(state);
    free(fresh);
    free(batch);
    worst_tree_done(req, copy);
}


/*
 * As the receiver runs it: the verification and the parse, then the
 * turns in slices of BEHAVE_CALLSUM_STEP_BYTES, one per event-loop
 * iteration, a flagged call's stored turns the same way, the findings and
 * the answer; the parsed call is freed when the request ends.
 */
static void
run_webhook(const char *body, size_t len, void *data)
{
    char                   *out, *copy;
    size_t                  olen;
    behave_call_t           call;
    behave_error_t          err;
    behave_callsum_t        sum;
    int                     rc;
    behave_turn_t          *kept;
    behave_review_log_t     log;
    behave_callsum_job_t   *job;
    behave_callsum_meta_t   m;

    worst_yield();                              /* the slug, the endpoint */
    copy = worst_body(body, len);
    worst_piece("read the body", WORST_THREAD);

    worst_verify(copy, len);
    worst_piece("verify (HMAC)", WORST_THREAD);

    if (behave_call_parse(&call, behave_provider_find("standard", 8), copy,
                          len, &err)
        != BEHAVE_OK)
    {
        worst_fail("webhook", err.message);
    }

    worst_piece("parse", WORST_THREAD);

    job = behave_callsum_begin(&call);
    if (job == NULL) {
        fprintf(stderr, "webhook: out of memory\n");
        exit(1);
    }

    worst_piece("a slice of turns", WORST_LOOP);
    worst_yield();

    while (behave_callsum_step(job, BEHAVE_CALLSUM_STEP_BYTES) == 0) {
        worst_piece("a slice of turns", WORST_LOOP);
        worst_yield();
    }

    behave_callsum_finish(job, &sum, &kept);

    memset(&m, 0, sizeof(m));
    m.status = "processed";
    m.provider = "standard";
    m.call_id = call.call_id;

    worst_piece("a slice of turns", WORST_LOOP);
    worst_yield();

    /*
     * A call the review queue takes stores its turns, redacted when
     * behave_redact is on (the worst), in steps of the same size.
     */
    if (behave_review_log_begin(&log, 1, 1700000000000) != 0) {
        fprintf(stderr, "webhook: out of memory\n");
        exit(1);
    }

    while ((rc = behave_review_log_step(&log, kept, call.nturns,
                                        BEHAVE_CALLSUM_STEP_BYTES)) == 0)
    {
        worst_piece("a slice of the stored turns", WORST_LOOP);
        worst_yield();
    }

    if (rc < 0) {
        fprintf(stderr, "webhook: out of memory\n");
        exit(1);
    }

    worst_piece("a slice of the stored turns", WORST_LOOP);
    free(kept);

    /* the last step commits: the answer, the log handed to Redis */
    out = behave_callsum_json(&sum, &m, &olen);
    free(out);
    behave_review_log_free(&log);
    worst_piece("findings + answer", WORST_LOOP);
    worst_yield();                              /* the commit script */

    behave_call_free(&call);
    free(copy);
    worst_piece("free the parsed call", WORST_THREAD);
}


/*
 * The receiver verifies the signature over the raw body before it parses:
 * a Standard Webhooks signature of the right form and the wrong MAC costs
 * the whole HMAC, as a genuine one does.
 */
static void
worst_verify(const char *body, size_t len)
{
    char                  ts[32];
    int64_t               now;
    behave_sig_err_e      rc;
    behave_sig_headers_t  h;

    static const char  id[] = "msg_worst";
    static const char  sig[] =
        "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    static const char  secret[] = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    now = (int64_t) time(NULL);
    snprintf(ts, sizeof(ts), "%lld", (long long) now);

    memset(&h, 0, sizeof(h));
    (void) behave_sig_header_set(&h, "webhook-id",
                                 (behave_sig_str_t) { id, sizeof(id) - 1 });
    (void) behave_sig_header_set(&h, "webhook-timestamp",
                                 (behave_sig_str_t) { ts, strlen(ts) });
    (void) behave_sig_header_set(&h, "webhook-signature",
                                 (behave_sig_str_t) { sig, sizeof(sig) - 1 });

    rc = behave_sig_verify(behave_provider_find("standard", 8), &h, body,
                           len, secret,
                           sizeof(secret) - 1, 0, NULL, now * 1000, NULL);

    if (rc != BEHAVE_SIG_BAD_SIGNATURE) {
        fprintf(stderr, "webhook: verify: %s\n", behave_sig_err_name(rc));
        exit(1);
    }
}


static double
worst_now(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}


static int
worst_cmp(const void *a, const void *b)
{
    double  x = *(const double *) a, y = *(const double *) b;

    return (x > y) - (x < y);
}
