/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Surface A, the gateway: the pure computations of the four POST
 * operations (spec 2.7, 4.1; docs/API.md (Surface A) documents every field).
 *
 * Every operation has the same shape:
 *
 *     behave_err_e behave_gw_<op>(const cJSON *req, <inputs>,
 *         int64_t now_ms, cJSON **resp, behave_error_t *err);
 *
 * req is the parsed request body, already known to be a JSON object
 * (behave_json_parse_object()); it is only read.  On BEHAVE_OK *resp is a
 * new response object that the caller prints and frees with cJSON_Delete().
 * On an error err names the field and the expected type or range and
 * *resp is NULL, except for behave_gw_orchestrate()'s 422 (see there).
 * now_ms (Unix milliseconds) is the response's "timestamp" unless the
 * request carries an integer "timestamp" of its own, which is echoed.
 * No function keeps state between calls; all are thread-safe.
 */

#ifndef BEHAVE_GATEWAY_H
#define BEHAVE_GATEWAY_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "base/behave_error.h"


#define BEHAVE_GW_FUSION_MODEL     "behave-fusion/1.0.0"
#define BEHAVE_GW_ROUTER_MODEL     "behave-router/1.0.0"
#define BEHAVE_GW_BEHAVIOR_MODEL   "behave-behavior/1.0.0"
#define BEHAVE_GW_ADAPTIVE_MODEL   "behave-adaptive/1.0.0"

#define BEHAVE_GW_EVENTS_MAX       10000   /* per request, and per merge */
#define BEHAVE_GW_TEXT_MAX         32768   /* bytes of semantic.text */


/*
 * The gateway's tables computed once, before any thread may run the
 * gateway (the nginx glue calls it at module init; the first
 * behave_gw_signals() does it otherwise, for tools and tests).  After it
 * the gateway keeps no mutable state shared between calls: calls may run
 * in several threads at once.
 */
void behave_gw_init(void);

/* POST /api/v1/behavioral-signals */
behave_err_e behave_gw_signals(const cJSON *req, int64_t now_ms,
    cJSON **resp, behave_error_t *err);


/*
 * The model catalog of "behave_models FILE;", loaded once at config
 * time.  Opaque and read-only after the load, so workers share it.
 */
typedef struct behave_gw_catalog_s  behave_gw_catalog_t;

/*
 * Parses json[0..len): {"models": [...]} or a bare array.  Returns 0 and
 * a catalog to free with behave_gw_catalog_free(), or -1 with a message
 * naming the model index and field in errbuf (NUL-terminated).
 */
int behave_gw_catalog_load(const char *json, size_t len,
    behave_gw_catalog_t **out, char *errbuf, size_t errlen);
void behave_gw_catalog_free(behave_gw_catalog_t *cat);
size_t behave_gw_catalog_count(const behave_gw_catalog_t *cat);

/*
 * POST /api/v1/orchestrate-models.  cat NULL or empty: 503 unavailable.
 * When no model meets the constraints the result is
 * BEHAVE_ERR_UNPROCESSABLE and *resp is the whole 422 body, the usual
 * {"error": {"code", "message"}} plus "closest_candidates" and
 * "constraints" inside "error"; the caller sends it instead of
 * behave_error_json() and frees it.
 */
behave_err_e behave_gw_orchestrate(const cJSON *req,
    const behave_gw_catalog_t *cat, int64_t now_ms, cJSON **resp,
    behave_error_t *err);


/*
 * POST /api/v1/analyze-behavior.  prior_events is the session's stored
 * history (an array of events, or NULL): it is merged with the request's
 * interaction_history before the analysis.  Stored events that do not
 * parse are skipped, never an error: the request is not to blame.
 */
behave_err_e behave_gw_behavior(const cJSON *req, const cJSON *prior_events,
    int64_t now_ms, cJSON **resp, behave_error_t *err);

/*
 * analyze-behavior over a session's stored state (behave_gw_session.h,
 * docs/DESIGN.md).  The glue appends the request's batch to the state
 * and reads the state as it was before, in one script:
 *
 *   behave_gw_behavior_batch(): req validated (the errors of
 *     behave_gw_behavior()) and its events encoded as the batch to
 *     append (malloc()ed);
 *   behave_gw_behavior_new_state(): the state to start a session with;
 *   behave_gw_behavior_seed(): the state an older build's stored list of
 *     JSON events becomes;
 *   behave_gw_behavior_session(): the answer, from the state read (NULL:
 *     none, the call alone) and the batch.  The state read is the full
 *     state, or the hot state (it starts with "G": the checkpoint and
 *     the events after it, what an in-order call needs; the glue's
 *     script returns it when the call's events pass its gate).
 *     After a full state: when rw->blob is set, the glue replaces the
 *     stored state's first rw->consumed bytes with it if the state still
 *     starts with the BEHAVE_GW_STATE_PREFIX bytes it read (a
 *     compare-and-set; losing it costs nothing but speed), and then, if
 *     rw->hot is set and nothing was appended since, stores rw->hot as
 *     the hot state.  After a hot state: when rw->hot is set, the glue
 *     replaces the hot state with it if it is still rw->hot_consumed
 *     bytes long and starts with the BEHAVE_GW_HOT_PREFIX bytes it read.
 *     rw->reset: the state read was damaged and is replaced (a damaged
 *     hot state is dropped: rw->drop_hot).
 */
typedef struct {
    char    *blob;              /* free() it */
    size_t   len;
    size_t   consumed;
    char    *hot;               /* free() it */
    size_t   hot_len;
    size_t   hot_consumed;
    int      reset;
    int      drop_hot;
} behave_gw_rewrite_t;

behave_err_e behave_gw_behavior_batch(const cJSON *req, char **batch,
    size_t *len, behave_error_t *err);
char *behave_gw_behavior_new_state(uint64_t epoch, size_t *len);
/* the batch's latest t, 8 bytes little-endian as stored; -1: no event */
int behave_gw_batch_last_t(const char *batch, size_t len, char *t);
char *behave_gw_behavior_seed(const cJSON *prior, uint64_t epoch,
    size_t *len);
behave_err_e behave_gw_behavior_session(const cJSON *req, int64_t now_ms,
    const char *state, size_t state_len, const char *batch, size_t batch_len,
    uint64_t epoch, cJSON **resp, behave_gw_rewrite_t *rw,
    behave_error_t *err);
/*
 * The same answer as JSON text (malloc()ed, *len bytes), ending with a
 * "history" member: history, or "request_only" when rw->reset.  What the
 * glue sends: no tree is built for it.
 */
behave_err_e behave_gw_behavior_session_text(const cJSON *req,
    int64_t now_ms, const char *state, size_t state_len, const char *batch,
    size_t batch_len, uint64_t epoch, const char *history, char **text,
    size_t *len, behave_gw_rewrite_t *rw, behave_error_t *err);

/*
 * What the glue stores of a request, decided before anything is stored:
 * req is validated as behave_gw_behavior() validates it (the same error
 * for the same request), and on BEHAVE_OK *out is a new array of the
 * request's events sorted by time, exact duplicates dropped, the last
 * max_events, each reduced to type, t and when given target, duration,
 * delta (the stored form).  Free it with cJSON_Delete().
 */
behave_err_e behave_gw_behavior_store(const cJSON *req, size_t max_events,
    cJSON **out, behave_error_t *err);

/*
 * The history to store after a successful behave_gw_behavior() of the
 * same req and prior_events: both merged, sorted by time, exact
 * duplicates dropped, the last max_events kept (at most
 * BEHAVE_GW_EVENTS_MAX), each event reduced to the fields the analysis
 * reads.  A new array, NULL when out of memory.
 */
cJSON *behave_gw_behavior_history(const cJSON *req,
    const cJSON *prior_events, size_t max_events);


/* POST /api/v1/adaptive-ui */
behave_err_e behave_gw_adaptive(const cJSON *req, int64_t now_ms,
    cJSON **resp, behave_error_t *err);


#endif /* BEHAVE_GATEWAY_H */
