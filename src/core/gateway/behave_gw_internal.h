/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Shared by the behave_gw_*.c files only: request field readers that
 * word their errors the same way, and the behaviour metrics that both
 * analyze-behavior and adaptive-ui compute from raw events.
 */

#ifndef BEHAVE_GW_INTERNAL_H
#define BEHAVE_GW_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "base/behave_error.h"


/*
 * Field readers.  obj is an object, name a member, path the dotted prefix
 * for messages ("" at the top level, "signals.voice").  Each returns 1
 * when the member is set, 0 when it is absent or null, -1 with err set
 * (400 invalid_field) when it has the wrong type or is out of range.
 */
int behave_gw_number(const cJSON *obj, const char *path, const char *name,
    double min, double max, double *out, behave_error_t *err);
int behave_gw_integer(const cJSON *obj, const char *path, const char *name,
    int64_t min, int64_t max, int64_t *out, behave_error_t *err);
int behave_gw_string(const cJSON *obj, const char *path, const char *name,
    size_t maxlen, const char **out, behave_error_t *err);
int behave_gw_object(const cJSON *obj, const char *path, const char *name,
    const cJSON **out, behave_error_t *err);
int behave_gw_array(const cJSON *obj, const char *path, const char *name,
    const cJSON **out, behave_error_t *err);

/* the request's integer "timestamp" (Unix ms), else now_ms */
behave_err_e behave_gw_timestamp(const cJSON *req, int64_t now_ms,
    int64_t *ts, behave_error_t *err);

double behave_gw_clamp(double v, double lo, double hi);
double behave_gw_round6(double v);

/* surface B's scale: low < 0.3 <= moderate < 0.5 <= high < 0.7 <= overload */
const char *behave_gw_load_level(double score);

/* the valence-arousal prototype of an emotional_state label; -1 if none */
int behave_gw_label_point(const char *label, double *valence,
    double *arousal);

/* cJSON helpers that keep the callers short; NULL/0 on no memory */
int behave_gw_add_str(cJSON *obj, const char *name, const char *s);
int behave_gw_add_num(cJSON *obj, const char *name, double v);
int behave_gw_add_rounded(cJSON *obj, const char *name, double v);

/*
 * Every answer ends with its model_id and timestamp: returns root, or
 * NULL, root freed, when ok is 0 or memory runs out.
 */
cJSON *behave_gw_stamp(cJSON *root, int ok, const char *model, int64_t ts);

/*
 * An entry point's last step: *resp = answer, or the out-of-memory error
 * when the answer could not be built (answer NULL).
 */
behave_err_e behave_gw_answer(cJSON *answer, cJSON **resp,
    behave_error_t *err);


#define BEHAVE_GW_MODELS_MAX   1024
#define BEHAVE_GW_CAPS_MAX     32
#define BEHAVE_GW_NAME_MAX     64


/* one catalog entry; every string is owned by the catalog */
typedef struct {
    char         *id;
    char         *provider;
    double        p50_latency_ms;
    double        cost_per_1k_input;     /* USD */
    double        cost_per_1k_output;    /* USD */
    double        context_window;        /* tokens, input + output */
    int           quality_tier;          /* 1 (basic) .. 5 (frontier) */
    char        **capabilities;
    size_t        ncapabilities;
} behave_gw_model_t;


struct behave_gw_catalog_s {
    behave_gw_model_t  *models;
    size_t              nmodels;
};


const char *behave_gw_tier_name(int tier);
int behave_gw_model_has(const behave_gw_model_t *m, const char *capability);


typedef enum {
    BEHAVE_GW_EV_KEYSTROKE = 0,
    BEHAVE_GW_EV_BACKSPACE,
    BEHAVE_GW_EV_PAUSE,
    BEHAVE_GW_EV_CLICK,
    BEHAVE_GW_EV_HOVER,
    BEHAVE_GW_EV_SCROLL,
    BEHAVE_GW_EV_FOCUS,
    BEHAVE_GW_EV_BLUR,
    BEHAVE_GW_EV_SUBMIT,
    BEHAVE_GW_EV_ERROR,
    BEHAVE_GW_EV_N
} behave_gw_event_e;


typedef struct {
    size_t        events;             /* after merge and de-duplication */
    size_t        prior_events;       /* usable stored events */
    size_t        new_events;         /* events of this request */
    size_t        late_events;        /* of this request, not analysed */
    double        observed_s;         /* first to last event */

    /* hesitation */
    unsigned      long_pauses;        /* pauses and gaps >= 2 s */
    unsigned      pauses_before_commit;
    double        pause_s;            /* seconds, each capped at 30 */
    double        pause_before_commit_s;
    double        hover_unclicked_s;  /* hover dwell with no click after */
    unsigned      keystrokes;
    unsigned      backspaces;
    double        backspace_ratio;
    double        hesitation;         /* 0 .. 1 */

    /* attention */
    double        sustained_focus_s;  /* longest focused stretch */
    double        mean_focus_s;
    double        focused_s;
    double        focus_ratio;        /* focused_s / observed_s */
    unsigned      blurs;
    unsigned      idle_gaps;          /* >= 30 s without an event */

    /* friction */
    unsigned      errors;
    unsigned      clicks;
    unsigned      rage_bursts;        /* >= 3 clicks, one target, 1 s */
    const char   *rage_target;        /* the first burst's, may be NULL */
    char          rage_buf[256 + 1];  /* where rage_target points */
    unsigned      scrolls;
    unsigned      scroll_reversals;
    double        scroll_gap_ms;      /* mean gap between scrolls */
    double        friction;           /* 0 .. 1 */
} behave_gw_behavior_t;


/*
 * Parses events (strictly, errors name path[i].field), merges the stored
 * prior events (leniently, may be NULL) and fills m: every event is
 * analysed (none is late).  rage_target points into m.
 */
behave_err_e behave_gw_behavior_from_events(const cJSON *events,
    const char *path, const cJSON *prior, behave_gw_behavior_t *m,
    behave_error_t *err);


#endif /* BEHAVE_GW_INTERNAL_H */
