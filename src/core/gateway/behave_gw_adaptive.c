/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * POST /api/v1/adaptive-ui: the behaviour (scores from behavioral-signals
 * and analyze-behavior, or raw events analysed here the same way) and the
 * user's profile go through two tables: patterns detected, then rules
 * that turn patterns and needs into UI changes, layouts and a content
 * order.  docs/API.md (Surface A) lists both tables; keep them in step.
 */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gateway/behave_gateway.h"
#include "gateway/behave_gw_internal.h"


#define BEHAVE_GW_COMPONENTS_MAX  64
#define BEHAVE_GW_BLOCKS_MAX      (BEHAVE_GW_COMPONENTS_MAX + 2)

/* detected patterns, a bit each */
#define BEHAVE_GW_P_HESITATION    0x01
#define BEHAVE_GW_P_RAGE          0x02
#define BEHAVE_GW_P_SKIMMING      0x04
#define BEHAVE_GW_P_FRUSTRATION   0x08
#define BEHAVE_GW_P_OVERLOAD      0x10
#define BEHAVE_GW_P_DISTRACTION   0x20
#define BEHAVE_GW_P_FLOW          0x40
#define BEHAVE_GW_P_N             7

/* accessibility needs, a bit each, in behave_gw_needs[] order */
#define BEHAVE_GW_A_SCREEN_READER   0x01
#define BEHAVE_GW_A_LOW_VISION      0x02
#define BEHAVE_GW_A_COLOR_BLIND     0x04
#define BEHAVE_GW_A_MOTOR           0x08
#define BEHAVE_GW_A_REDUCED_MOTION  0x10
#define BEHAVE_GW_A_COGNITIVE       0x20
#define BEHAVE_GW_A_DYSLEXIA        0x40
#define BEHAVE_GW_A_HEARING         0x80
#define BEHAVE_GW_A_N               8


typedef enum {
    BEHAVE_GW_NOVICE = 0,
    BEHAVE_GW_INTERMEDIATE,
    BEHAVE_GW_EXPERT
} behave_gw_expertise_e;


/* a score and whether the request (or its events) gave it */
typedef struct {
    double          v;
    int             set;
} behave_gw_opt_t;


typedef struct {
    behave_gw_opt_t        hesitation;
    behave_gw_opt_t        friction;
    behave_gw_opt_t        load;
    behave_gw_opt_t        valence;
    behave_gw_opt_t        arousal;
    behave_gw_opt_t        focus_ratio;
    behave_gw_opt_t        rage;
    int                    has_events;
    behave_gw_behavior_t   m;          /* of the events, when given */

    behave_gw_expertise_e  expertise;
    unsigned               needs;      /* BEHAVE_GW_A_* */
    const char            *locale;
    int                    rtl;

    const char            *screen;
    int64_t                step;
    int64_t                total_steps;
    const cJSON           *components;

    unsigned               patterns;   /* BEHAVE_GW_P_* */
    double                 pscore[BEHAVE_GW_P_N];
    char                   evidence[BEHAVE_GW_P_N][96];
} behave_gw_ui_t;


/*
 * A rule fires on its pattern (the reason: its label and the pattern's
 * evidence), on its accessibility need, or when its function says so.
 */
typedef struct {
    const char   *id;
    const char   *component;   /* NULL: decided by the rule (rage) */
    const char   *change;
    const char   *layout;      /* NULL: none */
    unsigned      pattern;     /* BEHAVE_GW_P_*, or 0 */
    const char   *label;       /* of the pattern's evidence, or NULL */
    unsigned      need;        /* BEHAVE_GW_A_*, or 0 */
    int         (*fires)(const behave_gw_ui_t *u, char *reason,
                         size_t size);
} behave_gw_ui_rule_t;


typedef struct {
    const char   *name;
    double        score;
    size_t        order;
} behave_gw_block_t;


static behave_err_e behave_gw_ui_state(const cJSON *req, behave_gw_ui_t *u,
    behave_error_t *err);
static behave_err_e behave_gw_ui_behavior(const cJSON *req,
    behave_gw_ui_t *u, behave_error_t *err);
static behave_err_e behave_gw_ui_emotion(const cJSON *bd, behave_gw_ui_t *u,
    behave_error_t *err);
static behave_err_e behave_gw_ui_load(const cJSON *bd, behave_gw_ui_t *u,
    behave_error_t *err);
static behave_err_e behave_gw_ui_events(const cJSON *bd, behave_gw_ui_t *u,
    behave_error_t *err);
static behave_err_e behave_gw_ui_profile(const cJSON *req, behave_gw_ui_t *u,
    behave_error_t *err);
static int behave_gw_opt_number(const cJSON *obj, const char *path,
    const char *name, double min, double max, behave_gw_opt_t *o,
    behave_error_t *err);
static void behave_gw_ui_patterns(behave_gw_ui_t *u);
static void behave_gw_ui_pattern(behave_gw_ui_t *u, int i, double score,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static cJSON *behave_gw_ui_json(const behave_gw_ui_t *u, int64_t ts);
static cJSON *behave_gw_ui_priority(const behave_gw_ui_t *u);
static int behave_gw_block_cmp(const void *a, const void *b);

static int behave_gw_ui_fires(const behave_gw_ui_rule_t *r,
    const behave_gw_ui_t *u, char *reason, size_t size);
static int behave_gw_ui_hesitation_help(const behave_gw_ui_t *u,
    char *reason, size_t size);
static int behave_gw_ui_progress(const behave_gw_ui_t *u, char *reason,
    size_t size);
static int behave_gw_ui_expert(const behave_gw_ui_t *u, char *reason,
    size_t size);
static int behave_gw_ui_novice(const behave_gw_ui_t *u, char *reason,
    size_t size);
static int behave_gw_ui_need(const behave_gw_ui_t *u, unsigned need,
    char *reason, size_t size);
static int behave_gw_ui_cognitive(const behave_gw_ui_t *u, char *reason,
    size_t size);
static int behave_gw_ui_rtl(const behave_gw_ui_t *u, char *reason,
    size_t size);


static const char *const  behave_gw_pattern_names[BEHAVE_GW_P_N] = {
    "hesitation", "rage_clicks", "skimming", "frustration",
    "cognitive_overload", "distraction", "confident_flow"
};

static const char *const  behave_gw_needs[BEHAVE_GW_A_N] = {
    "screen_reader", "low_vision", "color_blind", "motor", "reduced_motion",
    "cognitive", "dyslexia", "hearing"
};

static const char *const  behave_gw_expertise[3] = {
    "novice", "intermediate", "expert"
};

/* languages written right to left (ISO 639-1) */
static const char *const  behave_gw_rtl[] = {
    "ar", "he", "fa", "ur", "yi", "ps", "sd", "ug", "dv", "ku"
};


/* what fires a rule: a pattern, an accessibility need, or a function */
#define BEHAVE_GW_ON_PATTERN(p, label)  (p), (label), 0, NULL
#define BEHAVE_GW_ON_NEED(need)         0, NULL, (need), NULL
#define BEHAVE_GW_ON_CALL(fires)        0, NULL, 0, (fires)

static const behave_gw_ui_rule_t  behave_gw_ui_rules[] = {
    { "hesitation_help", "contextual_help",
      "show a short tip and an example next to the active field", NULL,
      BEHAVE_GW_ON_CALL(behave_gw_ui_hesitation_help) },
    { "hesitation_progress", "progress_indicator",
      "show the current step, the steps left and what happens next", NULL,
      BEHAVE_GW_ON_CALL(behave_gw_ui_progress) },
    { "rage_feedback", NULL,
      "show a busy state at once and ignore repeated clicks until the "
      "action resolves", NULL,
      BEHAVE_GW_ON_PATTERN(BEHAVE_GW_P_RAGE, "rage clicks") },
    { "frustration_support", "support_entry",
      "surface live chat or a call-back option; hide promotions", NULL,
      BEHAVE_GW_ON_PATTERN(BEHAVE_GW_P_FRUSTRATION, "frustration") },
    { "overload_simplify", "form",
      "hide optional fields behind \"more options\" and split long forms "
      "into steps", "progressive_disclosure",
      BEHAVE_GW_ON_PATTERN(BEHAVE_GW_P_OVERLOAD, NULL) },
    { "skimming_summary", "content",
      "lead with a summary and the key facts; collapse long sections",
      "summary_first", BEHAVE_GW_ON_PATTERN(BEHAVE_GW_P_SKIMMING, "skimming") },
    { "distraction_resume", "session",
      "save progress automatically and show where the user left off", NULL,
      BEHAVE_GW_ON_PATTERN(BEHAVE_GW_P_DISTRACTION, "distraction") },
    { "expert_shortcuts", "shortcuts",
      "enable keyboard shortcuts and collapse beginner tips", "dense",
      BEHAVE_GW_ON_CALL(behave_gw_ui_expert) },
    { "novice_guidance", "guided_mode",
      "offer a step-by-step guided mode with plain-language labels",
      "single_column", BEHAVE_GW_ON_CALL(behave_gw_ui_novice) },
    { "a11y_screen_reader", "live_regions",
      "announce dynamic changes with aria-live; no content only on hover", NULL,
      BEHAVE_GW_ON_NEED(BEHAVE_GW_A_SCREEN_READER) },
    { "a11y_low_vision", "typography",
      "base font of 18 px or more and a contrast ratio of at least 7:1",
      "large_text", BEHAVE_GW_ON_NEED(BEHAVE_GW_A_LOW_VISION) },
    { "a11y_color_blind", "status_indicators",
      "pair every colour signal with an icon and a text label", NULL,
      BEHAVE_GW_ON_NEED(BEHAVE_GW_A_COLOR_BLIND) },
    { "a11y_motor", "targets",
      "targets of at least 44x44 px with spacing; no timed interactions",
      "large_targets", BEHAVE_GW_ON_NEED(BEHAVE_GW_A_MOTOR) },
    { "a11y_reduced_motion", "animations",
      "turn off non-essential motion and auto-playing media", NULL,
      BEHAVE_GW_ON_NEED(BEHAVE_GW_A_REDUCED_MOTION) },
    { "a11y_cognitive", "copy",
      "plain language, short sentences, one task per screen", "single_column",
      BEHAVE_GW_ON_CALL(behave_gw_ui_cognitive) },
    { "a11y_hearing", "media", "captions and transcripts for all audio", NULL,
      BEHAVE_GW_ON_NEED(BEHAVE_GW_A_HEARING) },
    { "rtl_locale", "layout", "mirror the layout for a right-to-left script",
      "rtl_mirrored", BEHAVE_GW_ON_CALL(behave_gw_ui_rtl) }
};


/* content blocks a priority is known for; others start at 0.5 */
static const behave_gw_block_t  behave_gw_blocks[] = {
    { "primary_action",    0.9, 0 },
    { "main_content",      0.8, 0 },
    { "summary",           0.6, 0 },
    { "navigation",        0.5, 0 },
    { "help",              0.4, 0 },
    { "support",           0.3, 0 },
    { "shortcuts",         0.3, 0 },
    { "secondary_content", 0.3, 0 },
    { "promotions",        0.2, 0 }
};

/* the blocks ordered when current_state has no "components" */
static const char *const  behave_gw_default_blocks[] = {
    "primary_action", "main_content", "navigation", "help",
    "secondary_content", "promotions"
};


behave_err_e
behave_gw_adaptive(const cJSON *req, int64_t now_ms, cJSON **resp,
    behave_error_t *err)
{
    cJSON           *answer;
    int64_t          ts;
    behave_gw_ui_t  *u;

    *resp = NULL;

    /* the behaviour metrics make it too big for a worker's stack frame */
    u = calloc(1, sizeof(*u));
    if (u == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    if (behave_gw_timestamp(req, now_ms, &ts, err) != BEHAVE_OK
        || behave_gw_ui_state(req, u, err) != BEHAVE_OK
        || behave_gw_ui_behavior(req, u, err) != BEHAVE_OK
        || behave_gw_ui_profile(req, u, err) != BEHAVE_OK)
    {
        free(u);
        return err->err;
    }

    behave_gw_ui_patterns(u);

    answer = behave_gw_ui_json(u, ts);
    free(u);

    return behave_gw_answer(answer, resp, err);
}


static behave_err_e
behave_gw_ui_state(const cJSON *req, behave_gw_ui_t *u, behave_error_t *err)
{
    int           i;
    const cJSON  *st, *c;

    st = NULL;

    if (behave_gw_object(req, "", "current_state", &st, err) < 0) {
        return err->err;
    }

    if (st == NULL) {
        return BEHAVE_OK;
    }

    if (behave_gw_string(st, "current_state", "screen", 128, &u->screen,
                         err) < 0
        || behave_gw_integer(st, "current_state", "step", 1, 1000, &u->step,
                             err) < 0
        || behave_gw_integer(st, "current_state", "total_steps", 1, 1000,
                             &u->total_steps, err) < 0
        || behave_gw_array(st, "current_state", "components",
                           &u->components, err) < 0)
    {
        return err->err;
    }

    i = 0;

    cJSON_ArrayForEach(c, u->components) {
        if (!cJSON_IsString(c) || c->valuestring[0] == '\0'
            || strlen(c->valuestring) > BEHAVE_GW_NAME_MAX
            || ++i > BEHAVE_GW_COMPONENTS_MAX)
        {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                    "field \"current_state.components\" must "
                                    "be an array of at most %d strings of "
                                    "1..%d bytes", BEHAVE_GW_COMPONENTS_MAX,
                                    BEHAVE_GW_NAME_MAX);
        }
    }

    return BEHAVE_OK;
}


/*
 * Scores given in the request win over those computed from its events:
 * the caller may have seen more than it sends.
 */
static behave_err_e
behave_gw_ui_behavior(const cJSON *req, behave_gw_ui_t *u,
    behave_error_t *err)
{
    int           rc;
    const cJSON  *bd, *att;
    const char   *p;

    p = "behavioral_data";
    rc = behave_gw_object(req, "", p, &bd, err);
    if (rc < 0) {
        return err->err;
    }

    if (rc == 0) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "field \"behavioral_data\" is required");
    }

    att = NULL;

    if (behave_gw_ui_events(bd, u, err) != BEHAVE_OK
        || behave_gw_opt_number(bd, p, "hesitation_score", 0, 1,
                                &u->hesitation, err) < 0
        || behave_gw_opt_number(bd, p, "cognitive_friction", 0, 1,
                                &u->friction, err) < 0
        || behave_gw_opt_number(bd, p, "valence", -1, 1, &u->valence, err)
           < 0
        || behave_gw_opt_number(bd, p, "arousal", 0, 1, &u->arousal, err) < 0
        || behave_gw_opt_number(bd, p, "rage_clicks", 0, 1e6, &u->rage, err)
           < 0
        || behave_gw_opt_number(bd, p, "focus_ratio", 0, 1, &u->focus_ratio,
                                err) < 0
        || behave_gw_object(bd, p, "attention_span", &att, err) < 0
        || (att && behave_gw_opt_number(att, "behavioral_data.attention_span",
                                        "focus_ratio", 0, 1, &u->focus_ratio,
                                        err) < 0)
        || behave_gw_ui_emotion(bd, u, err) != BEHAVE_OK
        || behave_gw_ui_load(bd, u, err) != BEHAVE_OK)
    {
        return err->err;
    }

    return BEHAVE_OK;
}


/* raw events, analysed as analyze-behavior does */
static behave_err_e
behave_gw_ui_events(const cJSON *bd, behave_gw_ui_t *u, behave_error_t *err)
{
    int           rc;
    const cJSON  *events;

    rc = behave_gw_array(bd, "behavioral_data", "interaction_history",
                         &events, err);
    if (rc <= 0) {
        return rc < 0 ? err->err : BEHAVE_OK;
    }

    if (behave_gw_behavior_from_events(events,
                                       "behavioral_data.interaction_history",
                                       NULL, &u->m, err)
        != BEHAVE_OK)
    {
        return err->err;
    }

    u->has_events = 1;
    u->hesitation = (behave_gw_opt_t) { u->m.hesitation, 1 };
    u->friction = (behave_gw_opt_t) { u->m.friction, 1 };
    u->focus_ratio = (behave_gw_opt_t) { u->m.focus_ratio, 1 };
    u->rage = (behave_gw_opt_t) { (double) u->m.rage_bursts, 1 };

    return BEHAVE_OK;
}


/* emotional_state: a label, or behavioral-signals' object */
static behave_err_e
behave_gw_ui_emotion(const cJSON *bd, behave_gw_ui_t *u, behave_error_t *err)
{
    double        v, a;
    const char   *p, *label;
    const cJSON  *es;

    p = "behavioral_data.emotional_state";
    es = cJSON_GetObjectItemCaseSensitive(bd, "emotional_state");
    label = NULL;

    if (es == NULL || cJSON_IsNull(es)) {
        return BEHAVE_OK;
    }

    if (cJSON_IsString(es)) {
        label = es->valuestring;

    } else if (cJSON_IsObject(es)) {
        if (behave_gw_string(es, p, "label", 32, &label, err) < 0
            || behave_gw_opt_number(es, p, "valence", -1, 1, &u->valence,
                                    err) < 0
            || behave_gw_opt_number(es, p, "arousal", 0, 1, &u->arousal, err)
               < 0)
        {
            return err->err;
        }

    } else {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"%s\" must be a label or an object", p);
    }

    if (label == NULL) {
        return BEHAVE_OK;
    }

    if (behave_gw_label_point(label, &v, &a) != 0) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"%s\" must be one of neutral, calm, "
                                "content, excited, frustrated, angry, "
                                "anxious, sad", p);
    }

    /* the label's point only where no number was given */
    if (!u->valence.set) {
        u->valence = (behave_gw_opt_t) { v, 1 };
    }

    if (!u->arousal.set) {
        u->arousal = (behave_gw_opt_t) { a, 1 };
    }

    return BEHAVE_OK;
}


/* cognitive_load: a score, a level, or behavioral-signals' object */
static behave_err_e
behave_gw_ui_load(const cJSON *bd, behave_gw_ui_t *u, behave_error_t *err)
{
    static const double  level_score[4] = { 0.15, 0.4, 0.6, 0.85 };
    static const char   *levels[4] = { "low", "moderate", "high",
                                       "overload" };
    int           i;
    const char   *level;
    const cJSON  *cl;

    cl = cJSON_GetObjectItemCaseSensitive(bd, "cognitive_load");
    level = NULL;

    if (cl == NULL || cJSON_IsNull(cl)) {
        return BEHAVE_OK;
    }

    if (cJSON_IsNumber(cl)) {
        return behave_gw_opt_number(bd, "behavioral_data", "cognitive_load",
                                    0, 1, &u->load, err) < 0
               ? err->err : BEHAVE_OK;
    }

    if (cJSON_IsString(cl)) {
        level = cl->valuestring;

    } else if (cJSON_IsObject(cl)) {
        if (behave_gw_opt_number(cl, "behavioral_data.cognitive_load",
                                 "score", 0, 1, &u->load, err) < 0
            || behave_gw_string(cl, "behavioral_data.cognitive_load",
                                "level", 16, &level, err) < 0)
        {
            return err->err;
        }
    }

    if (u->load.set) {
        return BEHAVE_OK;
    }

    for (i = 0; level != NULL && i < 4; i++) {
        if (strcmp(level, levels[i]) == 0) {
            /* the middle of the level's band */
            u->load = (behave_gw_opt_t) { level_score[i], 1 };
            return BEHAVE_OK;
        }
    }

    return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                            "field \"behavioral_data.cognitive_load\" must be "
                            "a number in [0, 1], one of low, moderate, high, "
                            "overload, or an object with \"score\" or "
                            "\"level\"");
}


static behave_err_e
behave_gw_ui_profile(const cJSON *req, behave_gw_ui_t *u,
    behave_error_t *err)
{
    int           i;
    size_t        k;
    const char   *p, *level;
    const cJSON  *prof, *needs, *n;

    p = "user_profile";
    prof = needs = NULL;
    level = NULL;
    u->expertise = BEHAVE_GW_INTERMEDIATE;

    if (behave_gw_object(req, "", p, &prof, err) < 0) {
        return err->err;
    }

    if (prof == NULL) {
        return BEHAVE_OK;
    }

    if (behave_gw_string(prof, p, "expertise", 16, &level, err) < 0
        || behave_gw_string(prof, p, "locale", 35, &u->locale, err) < 0
        || behave_gw_array(prof, p, "accessibility_needs", &needs, err) < 0)
    {
        return err->err;
    }

    for (i = 0; level != NULL && i < 3; i++) {
        if (strcmp(level, behave_gw_expertise[i]) == 0) {
            u->expertise = (behave_gw_expertise_e) i;
            level = NULL;
        }
    }

    if (level != NULL) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"user_profile.expertise\" must be one "
                                "of novice, intermediate, expert");
    }

    cJSON_ArrayForEach(n, needs) {
        for (i = 0; cJSON_IsString(n) && i < BEHAVE_GW_A_N; i++) {
            if (strcmp(n->valuestring, behave_gw_needs[i]) == 0) {
                break;
            }
        }

        if (!cJSON_IsString(n) || i == BEHAVE_GW_A_N) {
            return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                    "field \"user_profile.accessibility_needs"
                                    "\" items must be screen_reader, "
                                    "low_vision, color_blind, motor, "
                                    "reduced_motion, cognitive, dyslexia or "
                                    "hearing");
        }

        u->needs |= 1u << i;
    }

    /* the language subtag of a BCP 47 tag: "ar-EG" -> "ar" */
    for (k = 0; u->locale != NULL
                && k < sizeof(behave_gw_rtl) / sizeof(behave_gw_rtl[0]); k++)
    {
        if (strncasecmp(u->locale, behave_gw_rtl[k], 2) == 0
            && (u->locale[2] == '\0' || u->locale[2] == '-'
                || u->locale[2] == '_'))
        {
            u->rtl = 1;
        }
    }

    return BEHAVE_OK;
}


static int
behave_gw_opt_number(const cJSON *obj, const char *path, const char *name,
    double min, double max, behave_gw_opt_t *o, behave_error_t *err)
{
    int     rc;
    double  v;

    rc = behave_gw_number(obj, path, name, min, max, &v, err);

    if (rc == 1) {
        o->v = v;
        o->set = 1;
    }

    return rc;
}


/*
 * The pattern table: each pattern's condition on the effective scores,
 * its strength (0..1) and the evidence shown to the caller.
 */
static void
behave_gw_ui_patterns(behave_gw_ui_t *u)
{
    double  neg;

    if (u->hesitation.set && u->hesitation.v >= 0.5) {
        behave_gw_ui_pattern(u, 0, u->hesitation.v,
                             "hesitation_score %.2f >= 0.5", u->hesitation.v);
    }

    if (u->rage.set && u->rage.v >= 1) {
        behave_gw_ui_pattern(u, 1, 1.0 - exp(-u->rage.v),
                             "%.0f rage-click burst(s)", u->rage.v);
    }

    if (u->has_events && u->m.scrolls >= 6 && u->m.scroll_gap_ms <= 800
        && u->m.keystrokes == 0)
    {
        behave_gw_ui_pattern(u, 2, fmin(1.0, u->m.scrolls / 12.0),
                             "%u scrolls %.0f ms apart, no typing",
                             u->m.scrolls, u->m.scroll_gap_ms);
    }

    neg = (u->valence.set && u->arousal.set && u->valence.v <= -0.3
           && u->arousal.v >= 0.55)
          ? -u->valence.v * u->arousal.v : 0.0;

    if (neg > 0.0 || (u->friction.set && u->friction.v >= 0.6)) {
        behave_gw_ui_pattern(u, 3, fmax(neg, u->friction.set
                                             ? u->friction.v : 0.0),
                             "valence %.2f, arousal %.2f, friction %.2f",
                             u->valence.v, u->arousal.v, u->friction.v);
    }

    if (u->load.set && u->load.v >= 0.6) {
        behave_gw_ui_pattern(u, 4, u->load.v, "cognitive load %.2f >= 0.6",
                             u->load.v);
    }

    if (u->focus_ratio.set && u->focus_ratio.v < 0.6) {
        behave_gw_ui_pattern(u, 5, 1.0 - u->focus_ratio.v,
                             "focus ratio %.2f < 0.6", u->focus_ratio.v);
    }

    if (u->hesitation.set && u->hesitation.v < 0.2
        && (!u->friction.set || u->friction.v < 0.2)
        && (!u->load.set || u->load.v < 0.4)
        && !(u->patterns & (BEHAVE_GW_P_RAGE | BEHAVE_GW_P_FRUSTRATION)))
    {
        behave_gw_ui_pattern(u, 6, 1.0 - fmax(u->hesitation.v,
                                              u->friction.v),
                             "hesitation %.2f and friction %.2f < 0.2",
                             u->hesitation.v, u->friction.v);
    }
}


static void
behave_gw_ui_pattern(behave_gw_ui_t *u, int i, double score,
    const char *fmt, ...)
{
    va_list  ap;

    u->patterns |= 1u << i;
    u->pscore[i] = behave_gw_clamp(score, 0, 1);

    va_start(ap, fmt);
    vsnprintf(u->evidence[i], sizeof(u->evidence[i]), fmt, ap);
    va_end(ap);
}


/* whether rule r fires for u, its reason written either way */

static int
behave_gw_ui_fires(const behave_gw_ui_rule_t *r, const behave_gw_ui_t *u,
    char *reason, size_t size)
{
    int  i;

    if (r->fires != NULL) {
        return r->fires(u, reason, size);
    }

    if (r->need != 0) {
        return behave_gw_ui_need(u, r->need, reason, size);
    }

    /* a pattern's bit is its evidence's index */
    for (i = 0; i < BEHAVE_GW_P_N && !(r->pattern & (1u << i)); i++) {
        /* void */
    }

    if (r->label != NULL) {
        snprintf(reason, size, "%s (%s)", r->label, u->evidence[i]);

    } else {
        snprintf(reason, size, "%s", u->evidence[i]);
    }

    return (u->patterns & r->pattern) != 0;
}


/* the rule table's conditions */

static int
behave_gw_ui_hesitation_help(const behave_gw_ui_t *u, char *reason,
    size_t size)
{
    snprintf(reason, size, "hesitation detected (%s) and the user is not "
             "an expert", u->evidence[0]);
    return (u->patterns & BEHAVE_GW_P_HESITATION)
           && u->expertise != BEHAVE_GW_EXPERT;
}


static int
behave_gw_ui_progress(const behave_gw_ui_t *u, char *reason, size_t size)
{
    snprintf(reason, size, "hesitation at step %lld of %lld",
             (long long) u->step, (long long) u->total_steps);
    return (u->patterns & BEHAVE_GW_P_HESITATION) && u->total_steps > 1;
}


static int
behave_gw_ui_expert(const behave_gw_ui_t *u, char *reason, size_t size)
{
    snprintf(reason, size, "expert user without hesitation or frustration");
    return u->expertise == BEHAVE_GW_EXPERT
           && !(u->patterns & (BEHAVE_GW_P_HESITATION
                               | BEHAVE_GW_P_FRUSTRATION
                               | BEHAVE_GW_P_OVERLOAD));
}


static int
behave_gw_ui_novice(const behave_gw_ui_t *u, char *reason, size_t size)
{
    snprintf(reason, size, "novice user not yet in a confident flow");
    return u->expertise == BEHAVE_GW_NOVICE
           && !(u->patterns & BEHAVE_GW_P_FLOW);
}


static int
behave_gw_ui_need(const behave_gw_ui_t *u, unsigned need, char *reason,
    size_t size)
{
    int  i;

    for (i = 0; i < BEHAVE_GW_A_N && !(need & (1u << i)); i++) {
        /* void */
    }

    snprintf(reason, size, "accessibility need: %s",
             i < BEHAVE_GW_A_N ? behave_gw_needs[i] : "?");

    return (u->needs & need) != 0;
}


static int
behave_gw_ui_cognitive(const behave_gw_ui_t *u, char *reason, size_t size)
{
    if (behave_gw_ui_need(u, BEHAVE_GW_A_DYSLEXIA, reason, size)) {
        return 1;
    }

    return behave_gw_ui_need(u, BEHAVE_GW_A_COGNITIVE, reason, size);
}


static int
behave_gw_ui_rtl(const behave_gw_ui_t *u, char *reason, size_t size)
{
    snprintf(reason, size, "locale %s is written right to left",
             u->locale ? u->locale : "");
    return u->rtl;
}


static cJSON *
behave_gw_ui_json(const behave_gw_ui_t *u, int64_t ts)
{
    int                         ok, dup;
    char                        reason[160];
    size_t                      i, j, nrules, nlayouts;
    const char                 *seen[sizeof(behave_gw_ui_rules)
                                     / sizeof(behave_gw_ui_rules[0])];
    cJSON                      *root, *changes, *layouts, *pats, *fired, *o;
    const char                 *component;
    const behave_gw_ui_rule_t  *r;

    nrules = sizeof(behave_gw_ui_rules) / sizeof(behave_gw_ui_rules[0]);
    nlayouts = 0;

    root = cJSON_CreateObject();
    changes = root ? cJSON_AddArrayToObject(root, "ui_changes") : NULL;
    layouts = changes ? cJSON_AddArrayToObject(root, "layout_suggestions")
                      : NULL;
    ok = layouts != NULL
         && cJSON_AddItemToObject(root, "content_priority",
                                  behave_gw_ui_priority(u));
    pats = ok ? cJSON_AddArrayToObject(root, "interaction_patterns") : NULL;
    fired = pats ? cJSON_AddArrayToObject(root, "rules_fired") : NULL;
    ok = fired != NULL;

    for (i = 0; ok && i < nrules; i++) {
        r = &behave_gw_ui_rules[i];

        if (!behave_gw_ui_fires(r, u, reason, sizeof(reason))) {
            continue;
        }

        component = r->component;

        if (component == NULL) {
            component = u->m.rage_target ? u->m.rage_target
                                         : "primary_action";
        }

        o = cJSON_CreateObject();
        ok = cJSON_AddItemToArray(changes, o)
             && behave_gw_add_str(o, "component", component)
             && behave_gw_add_str(o, "change", r->change)
             && behave_gw_add_str(o, "reason", reason)
             && behave_gw_add_str(o, "rule", r->id)
             && cJSON_AddItemToArray(fired, cJSON_CreateString(r->id));

        if (!ok || r->layout == NULL) {
            continue;
        }

        /* one entry per layout, with the first rule's reason */
        for (j = 0, dup = 0; j < nlayouts; j++) {
            dup |= strcmp(seen[j], r->layout) == 0;
        }

        if (dup) {
            continue;
        }

        seen[nlayouts++] = r->layout;
        o = cJSON_CreateObject();
        ok = cJSON_AddItemToArray(layouts, o)
             && behave_gw_add_str(o, "layout", r->layout)
             && behave_gw_add_str(o, "reason", reason);
    }

    for (i = 0; ok && i < BEHAVE_GW_P_N; i++) {
        if (!(u->patterns & (1u << i))) {
            continue;
        }

        o = cJSON_CreateObject();
        ok = cJSON_AddItemToArray(pats, o)
             && behave_gw_add_str(o, "pattern", behave_gw_pattern_names[i])
             && behave_gw_add_rounded(o, "score", u->pscore[i])
             && behave_gw_add_str(o, "evidence", u->evidence[i]);
    }

    o = ok ? cJSON_AddObjectToObject(root, "inputs") : NULL;
    ok = o != NULL;

#define behave_gw_input(name, opt)                                          \
    if (ok && (opt).set) {                                                  \
        ok = behave_gw_add_rounded(o, name, (opt).v);                       \
    }

    behave_gw_input("hesitation_score", u->hesitation);
    behave_gw_input("cognitive_friction", u->friction);
    behave_gw_input("cognitive_load", u->load);
    behave_gw_input("valence", u->valence);
    behave_gw_input("arousal", u->arousal);
    behave_gw_input("focus_ratio", u->focus_ratio);
    behave_gw_input("rage_clicks", u->rage);

#undef behave_gw_input

    ok = ok && behave_gw_add_num(o, "events_analyzed", (double) u->m.events)
         && behave_gw_add_str(o, "expertise",
                              behave_gw_expertise[u->expertise]);

    if (ok && u->screen != NULL) {
        ok = behave_gw_add_str(root, "screen", u->screen);
    }

    return behave_gw_stamp(root, ok, BEHAVE_GW_ADAPTIVE_MODEL, ts);
}


/*
 * The content order: each block's base priority, moved by the patterns
 * and the profile, sorted high to low (ties keep the input order).
 * Frustration adds "support" and skimming "summary" when absent.
 */
static cJSON *
behave_gw_ui_priority(const behave_gw_ui_t *u)
{
    size_t              i, j, n;
    cJSON              *arr;
    const cJSON        *c;
    behave_gw_block_t   b[BEHAVE_GW_BLOCKS_MAX];

    n = 0;

    if (u->components != NULL) {
        cJSON_ArrayForEach(c, u->components) {
            b[n++].name = c->valuestring;
        }

    } else {
        for (i = 0; i < sizeof(behave_gw_default_blocks) / sizeof(char *);
             i++)
        {
            b[n++].name = behave_gw_default_blocks[i];
        }
    }

#define behave_gw_ensure(blk)                                               \
    for (i = 0; i < n && strcmp(b[i].name, blk) != 0; i++) { /* void */ }  \
    if (i == n) {                                                           \
        b[n++].name = blk;                                                  \
    }

    if (u->patterns & BEHAVE_GW_P_FRUSTRATION) {
        behave_gw_ensure("support");
    }

    if (u->patterns & BEHAVE_GW_P_SKIMMING) {
        behave_gw_ensure("summary");
    }

#undef behave_gw_ensure

    for (i = 0; i < n; i++) {
        b[i].order = i;
        b[i].score = 0.5;

        for (j = 0; j < sizeof(behave_gw_blocks) / sizeof(behave_gw_blocks[0]);
             j++)
        {
            if (strcmp(b[i].name, behave_gw_blocks[j].name) == 0) {
                b[i].score = behave_gw_blocks[j].score;
            }
        }

#define behave_gw_move(cond, blk, by)                                       \
        if ((cond) && strcmp(b[i].name, blk) == 0) {                        \
            b[i].score += by;                                               \
        }

        behave_gw_move(u->patterns & BEHAVE_GW_P_HESITATION, "help", 0.5);
        behave_gw_move(u->expertise == BEHAVE_GW_NOVICE, "help", 0.3);
        behave_gw_move(u->expertise == BEHAVE_GW_EXPERT, "help", -0.3);
        behave_gw_move(u->expertise == BEHAVE_GW_EXPERT, "shortcuts", 0.4);
        behave_gw_move(u->patterns & BEHAVE_GW_P_FRUSTRATION, "support", 0.7);
        behave_gw_move(u->patterns & BEHAVE_GW_P_FRUSTRATION, "promotions",
                       -0.5);
        behave_gw_move(u->patterns & BEHAVE_GW_P_SKIMMING, "summary", 0.6);
        behave_gw_move(u->patterns & BEHAVE_GW_P_OVERLOAD,
                       "secondary_content", -0.3);
        behave_gw_move(u->patterns & BEHAVE_GW_P_OVERLOAD, "promotions",
                       -0.3);

#undef behave_gw_move
    }

    qsort(b, n, sizeof(b[0]), behave_gw_block_cmp);

    arr = cJSON_CreateArray();

    for (i = 0; arr != NULL && i < n; i++) {
        if (!cJSON_AddItemToArray(arr, cJSON_CreateString(b[i].name))) {
            cJSON_Delete(arr);
            return NULL;
        }
    }

    return arr;
}


static int
behave_gw_block_cmp(const void *a, const void *b)
{
    const behave_gw_block_t  *x = a, *y = b;

    if (x->score != y->score) {
        return x->score > y->score ? -1 : 1;
    }

    return x->order < y->order ? -1 : (x->order > y->order);
}
