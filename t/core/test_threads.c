/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The core called from several threads at once, as behave_thread_pool
 * makes the nginx glue call it (analyze-behavior, behavioral-signals,
 * adaptive-ui, /v1/analyze's parse and annotation, a webhook call's
 * parse): every thread's answers are those of one thread alone (no shared mutable state: the sort context of the
 * session's index is per thread, the intent cues' table is made by
 * behave_gw_init()).  Built with ASan too; a race on shared state would
 * mix two threads' windows and change an answer.
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "gateway/behave_gateway.h"
#include "base/behave_json.h"
#include "base/behave_json_parse.h"
#include "analyze/behave_request.h"
#include "analyze/behave_response.h"
#include "webhooks/behave_provider.h"
#include "webhooks/behave_webhook_parse.h"


#define THREADS     4
#define ROUNDS      20
#define EVENTS      3000
#define OPS         5


/* one thread's bodies and the answers one thread alone gives them */
typedef struct {
    char        *body[OPS];
    size_t       len[OPS];
    char        *want[OPS];
    int          wrong;
} threads_case_t;


static char *answer(int which, const char *body, size_t len);
static char *answer_text(int which, const char *body, size_t len);
static void build(threads_case_t *c, int seed);


static const char  *const kinds[] = {
    "keystroke", "backspace", "pause", "click", "hover", "scroll", "focus",
    "blur", "submit", "error"
};


/* one answer of the three operations, printed; NULL on a failure */
static char *
answer(int which, const char *body, size_t len)
{
    char                 *batch, *state, *out;
    size_t                blen, slen;
    cJSON                *req, *resp;
    behave_error_t        err;
    behave_gw_rewrite_t   rw;

    if (which >= 3) {
        return answer_text(which, body, len);
    }

    req = behave_json_parse_object(body, len, &err);
    if (req == NULL) {
        return NULL;
    }

    resp = NULL;
    out = NULL;

    switch (which) {

    case 0:
        /* the batch sorts the events (the index's comparison) */
        if (behave_gw_behavior_batch(req, &batch, &blen, &err) != BEHAVE_OK) {
            break;
        }

        state = behave_gw_behavior_new_state(7, &slen);

        if (state != NULL
            && behave_gw_behavior_session(req, 1700000000000, state, slen,
                                          batch, blen, 7, &resp, &rw, &err)
               == BEHAVE_OK)
        {
            free(rw.blob);
            free(rw.hot);
        }

        free(state);
        free(batch);
        break;

    case 1:
        (void) behave_gw_signals(req, 1700000000000, &resp, &err);
        break;

    default:
        (void) behave_gw_adaptive(req, 1700000000000, &resp, &err);
        break;
    }

    if (resp != NULL) {
        out = behave_json_print(resp, NULL);
        cJSON_Delete(resp);
    }

    cJSON_Delete(req);

    return out;
}


/* /v1/analyze's work in a thread, and a webhook call's parse */
static char *
answer_text(int which, const char *body, size_t len)
{
    char                  *out;
    size_t                 i, olen;
    behave_call_t          call;
    behave_error_t         err;
    behave_routing_t       routing;
    behave_annotation_t    ann;
    behave_analyze_req_t   req;
    behave_analyze_resp_t  resp;

    if (which == 3) {
        if (behave_analyze_req_parse(body, len, 32768, &req, &err)
            != BEHAVE_OK)
        {
            return NULL;
        }

        behave_annotate(req.message, req.message_len, &ann);
        behave_route(&ann, &routing);

        behave_analyze_resp_init(&resp, "ses_0", "local", &req, &ann,
                                 &routing);

        out = behave_analyze_response_json(&resp, &olen);
        behave_analyze_req_free(&req);

        return out;
    }

    if (behave_call_parse(&call, behave_provider_find("standard", 8), body,
                          len, &err)
        != BEHAVE_OK)
    {
        return NULL;
    }

    /* what the parse found: the turns' speakers and lengths */
    out = malloc(call.nturns * 24 + 64);
    if (out != NULL) {
        olen = (size_t) sprintf(out, "%zu:", call.nturns);
        for (i = 0; i < call.nturns; i++) {
            olen += (size_t) sprintf(out + olen, "%d/%zu,",
                                     call.turns[i].speaker,
                                     call.turns[i].len);
        }
    }

    behave_call_free(&call);

    return out;
}


static void *
worker(void *data)
{
    int              i, k;
    char            *got;
    threads_case_t  *c = data;

    for (i = 0; i < ROUNDS; i++) {
        for (k = 0; k < OPS; k++) {
            got = answer((i + k) % OPS, c->body[(i + k) % OPS],
                         c->len[(i + k) % OPS]);

            if (got == NULL || strcmp(got, c->want[(i + k) % OPS]) != 0) {
                __atomic_add_fetch(&c->wrong, 1, __ATOMIC_RELAXED);
            }

            free(got);
        }
    }

    return NULL;
}


/*
 * Bodies that differ from one thread to the next: a thread that sorted
 * with another's window would answer differently.  Events out of order
 * and repeated now and then, so that the sorts do work.
 */
static void
build(threads_case_t *c, int seed)
{
    int           i, k;
    char          ev[160];
    size_t        n;
    behave_jw_t   w;

    behave_jw_init(&w, 256 * 1024);
    behave_jw_literal(&w, "{\"session_id\":\"threads\","
                      "\"interaction_history\":[");
    for (i = 0; i < EVENTS; i++) {
        k = (i * 7919 + seed * 31) % EVENTS;
        n = (size_t) snprintf(ev, sizeof(ev), "%s{\"type\":\"%s\",\"t\":%d,"
                              "\"target\":\"b%d\",\"duration\":%d}",
                              i ? "," : "", kinds[(k + seed) % 10],
                              1000 + (k % (1500 - seed * 100)) * 40,
                              k % (13 + seed), k % 700);
        behave_jw_append(&w, ev, n);
    }
    behave_jw_literal(&w, "]}");
    c->body[0] = behave_jw_finish(&w, &c->len[0]);

    behave_jw_init(&w, 1024);
    n = (size_t) snprintf(ev, sizeof(ev), "{\"signals\":{\"voice\":"
                          "{\"pitch_hz\":%d,\"energy_db\":%d},", 200 + seed * 20,
                          60 + seed * 5);
    behave_jw_append(&w, ev, n);
    behave_jw_literal(&w, "\"semantic\":{\"text\":\"This is the third time "
                      "I am calling, I want a refund now or I cancel. Could "
                      "you please check my order? Thanks, that helps.\"}}}");
    c->body[1] = behave_jw_finish(&w, &c->len[1]);

    behave_jw_init(&w, 256 * 1024);
    behave_jw_literal(&w, "{\"current_state\":{\"screen\":\"checkout\"},"
                      "\"behavioral_data\":{\"interaction_history\":[");
    for (i = 0; i < EVENTS; i++) {
        k = (i * 104729 + seed * 17) % EVENTS;
        n = (size_t) snprintf(ev, sizeof(ev), "%s{\"type\":\"%s\",\"t\":%d}",
                              i ? "," : "", kinds[(k * (seed + 1)) % 10],
                              1000 + k * (90 + seed * 200));
        behave_jw_append(&w, ev, n);
    }
    behave_jw_literal(&w, "]},\"user_profile\":{\"expertise\":\"novice\"}}");
    c->body[2] = behave_jw_finish(&w, &c->len[2]);

    behave_jw_init(&w, 4096);
    behave_jw_literal(&w, "{\"message\":\"");
    for (i = 0; i <= seed; i++) {
        behave_jw_literal(&w, "I was charged twice and nobody answers! "
                          "Thanks, that helps a lot. ");
    }
    behave_jw_literal(&w, "Call me at +1 555 0100 now.\",\"metadata\":"
                      "{\"k\":[1,2,3]}}");
    c->body[3] = behave_jw_finish(&w, &c->len[3]);

    behave_jw_init(&w, 256 * 1024);
    behave_jw_literal(&w, "{\"type\":\"call.transcript\",\"data\":{"
                      "\"call_id\":\"t\",\"transcript\":[");
    for (i = 0; i < 400 + seed * 50; i++) {
        n = (size_t) snprintf(ev, sizeof(ev), "%s{\"speaker\":\"%s\","
                              "\"text\":\"turn %d of %d, words %.*s\"}",
                              i ? "," : "", (i + seed) % 3 ? "agent"
                                                           : "customer",
                              i, seed, (i * 7 + seed) % 40,
                              "aaaa bbbb cccc dddd eeee ffff gggg hhhh ");
        behave_jw_append(&w, ev, n);
    }
    behave_jw_literal(&w, "]}}");
    c->body[4] = behave_jw_finish(&w, &c->len[4]);
}


int
main(void)
{
    int              i, k, wrong, differ;
    pthread_t        th[THREADS];
    threads_case_t   c[THREADS];

    memset(c, 0, sizeof(c));

    /* as the nginx glue does at module init, before any thread */
    behave_gw_init();

    for (i = 0; i < THREADS; i++) {
        build(&c[i], i);

        for (k = 0; k < OPS; k++) {
            c[i].want[k] = c[i].body[k] ? answer(k, c[i].body[k],
                                                 c[i].len[k])
                                        : NULL;
            ok(c[i].want[k] != NULL, "thread %d's operation %d answers "
               "alone", i, k);
        }
    }

    differ = 0;
    for (k = 0; k < OPS; k++) {
        differ += c[0].want[k] && c[1].want[k]
                  && strcmp(c[0].want[k], c[1].want[k]) != 0;
    }
    is_int(differ, OPS, "the threads' answers differ from one to the next");

    for (i = 0; i < THREADS; i++) {
        ok(pthread_create(&th[i], NULL, worker, &c[i]) == 0, "thread %d", i);
    }

    wrong = 0;
    for (i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        wrong += c[i].wrong;
    }

    is_int(wrong, 0, "%d threads x %d rounds x %d operations at once: every "
           "answer that of the thread alone", THREADS, ROUNDS, OPS);

    for (i = 0; i < THREADS; i++) {
        for (k = 0; k < OPS; k++) {
            free(c[i].want[k]);
            free(c[i].body[k]);
        }
    }

    return tap_done();
}
