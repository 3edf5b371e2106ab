/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * POST /api/v1/behavioral-signals: voice prosody, facial expression
 * probabilities and text are each placed on the valence-arousal plane,
 * then fused with each modality's confidence as its weight.  The
 * constants and tables here are the ones docs/API.md (Surface A) documents; keep
 * them in step.
 *
 * The file also holds the request field readers that every gateway
 * operation shares (behave_gw_internal.h).
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gateway/behave_gateway.h"
#include "gateway/behave_gw_internal.h"
#include "text/behave_annotate.h"
#include "base/behave_round.h"
#include "text/behave_tokenize.h"


#define BEHAVE_GW_MOD_VOICE     0
#define BEHAVE_GW_MOD_VISUAL    1
#define BEHAVE_GW_MOD_SEMANTIC  2
#define BEHAVE_GW_MOD_N         3

#define BEHAVE_GW_EXPR_N        7
#define BEHAVE_GW_LABEL_N       8
#define BEHAVE_GW_INTENT_N      6

/* softness of the label distribution, in squared circumplex distance */
#define BEHAVE_GW_LABEL_TAU     0.03


/* what one modality contributes to the fusion */
typedef struct {
    unsigned           used:1;
    unsigned           has_emotion:1;
    unsigned           has_load:1;
    double             valence;        /* -1 .. 1 */
    double             arousal;        /*  0 .. 1 */
    double             confidence;     /*  0 .. 1, the fusion weight */
    double             load;           /*  0 .. 1 */
    double             load_weight;
} behave_gw_modality_t;


typedef struct {
    behave_gw_modality_t  mod[BEHAVE_GW_MOD_N];
    behave_annotation_t   annotation;  /* of semantic.text */
    const char           *text;
    size_t                text_len;

    double                valence;
    double                arousal;
    double                spread;
    double                confidence;
    double                dist[BEHAVE_GW_LABEL_N];
    int                   label;

    double                load;
    int                   load_measured;

    double                intent[BEHAVE_GW_INTENT_N];
    int                   intent_best;
    double                intent_confidence;
} behave_gw_fusion_t;


/* a point of the circumplex: valence -1..1, arousal 0..1 */
typedef struct {
    const char        *name;
    double             valence;
    double             arousal;
} behave_gw_point_t;


typedef enum {
    BEHAVE_GW_COMPLAINT = 0,
    BEHAVE_GW_CANCEL,
    BEHAVE_GW_PURCHASE,
    BEHAVE_GW_SUPPORT,
    BEHAVE_GW_INQUIRY,
    BEHAVE_GW_FEEDBACK
} behave_gw_intent_e;


/* an intent cue: 1 to 3 words; a trailing '*' matches any ending */
typedef struct {
    const char        *cue;
    behave_gw_intent_e intent;
    double             weight;
} behave_gw_cue_t;


static const cJSON *behave_gw_present(const cJSON *obj, const char *name);
static int behave_gw_invalid(behave_error_t *err, const char *path,
    const char *name, const char *what);

static behave_err_e behave_gw_voice(const cJSON *voice,
    behave_gw_modality_t *m, behave_error_t *err);
static behave_err_e behave_gw_visual(const cJSON *visual,
    behave_gw_modality_t *m, behave_error_t *err);
static behave_err_e behave_gw_semantic(const cJSON *semantic,
    behave_gw_fusion_t *f, behave_error_t *err);
static int behave_gw_fuse(behave_gw_fusion_t *f);
static void behave_gw_labels(behave_gw_fusion_t *f);
static void behave_gw_load(behave_gw_fusion_t *f);
static void behave_gw_intent(behave_gw_fusion_t *f);
static void behave_gw_intent_text(const char *text, size_t len,
    double *score);
static void behave_gw_cue_shapes(void);
static int behave_gw_cue_match(const behave_gw_cue_t *c, char phrase[3][200],
    size_t nwords);
static cJSON *behave_gw_signals_json(behave_gw_fusion_t *f, int64_t ts);
static cJSON *behave_gw_distribution_json(const double *p, size_t n,
    const char *const *names);


static const char *const  behave_gw_mod_names[BEHAVE_GW_MOD_N] = {
    "voice", "visual", "semantic"
};


/*
 * Where each facial expression sits on the circumplex (after Russell's
 * model of affect): the visual valence and arousal are the means of
 * these points weighted by the expression probabilities.
 */
static const behave_gw_point_t  behave_gw_expressions[BEHAVE_GW_EXPR_N] = {
    { "happy",      0.80, 0.60 },
    { "sad",       -0.70, 0.20 },
    { "angry",     -0.75, 0.85 },
    { "fearful",   -0.55, 0.75 },
    { "surprised",  0.20, 0.85 },
    { "disgusted", -0.65, 0.50 },
    { "neutral",    0.00, 0.30 }
};


/* the label set: the prototype of each label on the same plane */
static const behave_gw_point_t  behave_gw_labels_def[BEHAVE_GW_LABEL_N] = {
    { "neutral",     0.00, 0.35 },
    { "calm",        0.35, 0.15 },
    { "content",     0.60, 0.40 },
    { "excited",     0.70, 0.85 },
    { "frustrated", -0.50, 0.55 },
    { "angry",      -0.70, 0.85 },
    { "anxious",    -0.35, 0.70 },
    { "sad",        -0.65, 0.20 }
};


static const char *const  behave_gw_intent_names[BEHAVE_GW_INTENT_N] = {
    "complaint", "cancel", "purchase", "support", "inquiry", "feedback"
};


/*
 * Text cues of each intent, matched on lowercased words.  The
 * annotator's own cues (question, not resolved, thanks...) are added in
 * behave_gw_intent(); these are the words it has no cue for.
 */
static const behave_gw_cue_t  behave_gw_cues[] = {
    { "cancel*",               BEHAVE_GW_CANCEL,    1.5 },
    { "unsubscrib*",           BEHAVE_GW_CANCEL,    1.5 },
    { "terminat*",             BEHAVE_GW_CANCEL,    1.0 },
    { "close my account",      BEHAVE_GW_CANCEL,    1.5 },
    { "delete my account",     BEHAVE_GW_CANCEL,    1.5 },
    { "end my subscription",   BEHAVE_GW_CANCEL,    1.5 },
    { "opt out",               BEHAVE_GW_CANCEL,    1.0 },
    { "switch to",             BEHAVE_GW_CANCEL,    0.6 },
    { "quit",                  BEHAVE_GW_CANCEL,    0.8 },

    { "complain*",             BEHAVE_GW_COMPLAINT, 1.5 },
    { "unacceptabl*",          BEHAVE_GW_COMPLAINT, 1.2 },
    { "ridiculous",            BEHAVE_GW_COMPLAINT, 1.0 },
    { "terrible",              BEHAVE_GW_COMPLAINT, 0.8 },
    { "awful",                 BEHAVE_GW_COMPLAINT, 0.8 },
    { "worst",                 BEHAVE_GW_COMPLAINT, 0.8 },
    { "disappoint*",           BEHAVE_GW_COMPLAINT, 0.8 },
    { "refund*",               BEHAVE_GW_COMPLAINT, 0.8 },
    { "overcharg*",            BEHAVE_GW_COMPLAINT, 1.2 },
    { "charged twice",         BEHAVE_GW_COMPLAINT, 1.2 },
    { "rude",                  BEHAVE_GW_COMPLAINT, 1.0 },
    { "waste of",              BEHAVE_GW_COMPLAINT, 1.0 },
    { "scam*",                 BEHAVE_GW_COMPLAINT, 1.0 },
    { "still not",             BEHAVE_GW_COMPLAINT, 1.0 },

    { "buy*",                  BEHAVE_GW_PURCHASE,  1.5 },
    { "purchas*",              BEHAVE_GW_PURCHASE,  1.5 },
    { "pric*",                 BEHAVE_GW_PURCHASE,  1.0 },
    { "quote",                 BEHAVE_GW_PURCHASE,  0.8 },
    { "upgrad*",               BEHAVE_GW_PURCHASE,  1.2 },
    { "subscribe",             BEHAVE_GW_PURCHASE,  1.0 },
    { "checkout",              BEHAVE_GW_PURCHASE,  1.2 },
    { "sign up",               BEHAVE_GW_PURCHASE,  1.0 },
    { "discount*",             BEHAVE_GW_PURCHASE,  0.8 },
    { "how much",              BEHAVE_GW_PURCHASE,  1.2 },
    { "trial",                 BEHAVE_GW_PURCHASE,  0.6 },
    { "demo",                  BEHAVE_GW_PURCHASE,  0.6 },
    { "order",                 BEHAVE_GW_PURCHASE,  0.5 },
    { "plan",                  BEHAVE_GW_PURCHASE,  0.4 },

    { "help",                  BEHAVE_GW_SUPPORT,   0.8 },
    { "fix*",                  BEHAVE_GW_SUPPORT,   0.8 },
    { "error*",                BEHAVE_GW_SUPPORT,   0.8 },
    { "issue*",                BEHAVE_GW_SUPPORT,   0.6 },
    { "problem*",              BEHAVE_GW_SUPPORT,   0.8 },
    { "not working",           BEHAVE_GW_SUPPORT,   1.2 },
    { "doesn't work",          BEHAVE_GW_SUPPORT,   1.2 },
    { "does not work",         BEHAVE_GW_SUPPORT,   1.2 },
    { "broken",                BEHAVE_GW_SUPPORT,   0.8 },
    { "crash*",                BEHAVE_GW_SUPPORT,   1.0 },
    { "bug*",                  BEHAVE_GW_SUPPORT,   0.8 },
    { "login",                 BEHAVE_GW_SUPPORT,   0.8 },
    { "log in",                BEHAVE_GW_SUPPORT,   0.8 },
    { "password*",             BEHAVE_GW_SUPPORT,   0.8 },
    { "reset*",                BEHAVE_GW_SUPPORT,   0.6 },
    { "unable",                BEHAVE_GW_SUPPORT,   0.6 },
    { "stuck",                 BEHAVE_GW_SUPPORT,   0.8 },
    { "install*",              BEHAVE_GW_SUPPORT,   0.6 },
    { "configur*",             BEHAVE_GW_SUPPORT,   0.6 },
    { "how do i",              BEHAVE_GW_SUPPORT,   0.8 },

    { "question*",             BEHAVE_GW_INQUIRY,   0.6 },
    { "wonder*",               BEHAVE_GW_INQUIRY,   0.8 },
    { "info*",                 BEHAVE_GW_INQUIRY,   0.6 },
    { "do you",                BEHAVE_GW_INQUIRY,   0.6 },
    { "is there",              BEHAVE_GW_INQUIRY,   0.6 },
    { "can you tell",          BEHAVE_GW_INQUIRY,   0.8 },
    { "what is",               BEHAVE_GW_INQUIRY,   0.5 },
    { "when",                  BEHAVE_GW_INQUIRY,   0.3 },
    { "where",                 BEHAVE_GW_INQUIRY,   0.3 },
    { "hours",                 BEHAVE_GW_INQUIRY,   0.5 },
    { "availab*",              BEHAVE_GW_INQUIRY,   0.5 },
    { "policy",                BEHAVE_GW_INQUIRY,   0.5 },

    { "feedback",              BEHAVE_GW_FEEDBACK,  1.5 },
    { "suggest*",              BEHAVE_GW_FEEDBACK,  1.2 },
    { "would be nice",         BEHAVE_GW_FEEDBACK,  1.2 },
    { "would be great",        BEHAVE_GW_FEEDBACK,  1.2 },
    { "feature request",       BEHAVE_GW_FEEDBACK,  1.5 },
    { "improv*",               BEHAVE_GW_FEEDBACK,  0.8 },
    { "love",                  BEHAVE_GW_FEEDBACK,  0.6 },
    { "review*",               BEHAVE_GW_FEEDBACK,  0.8 },
    { "recommend*",            BEHAVE_GW_FEEDBACK,  0.6 },
    { "keep up",               BEHAVE_GW_FEEDBACK,  0.8 },
    { "just wanted to say",    BEHAVE_GW_FEEDBACK,  1.0 }
};


/*
 * Each cue's word count and length, counted once: the match below runs
 * for every cue at every word of a text (95 x 6,000 for 32 KiB), where
 * counting them each time was most of the operation's cost.
 */
static struct {
    unsigned char   words;
    unsigned short  len;
} behave_gw_cue_shape[sizeof(behave_gw_cues) / sizeof(behave_gw_cues[0])];

static int  behave_gw_cue_shaped;


/* request field readers (behave_gw_internal.h) */

/* a member present and not null, or NULL */

static const cJSON *
behave_gw_present(const cJSON *obj, const char *name)
{
    const cJSON  *item;

    item = cJSON_GetObjectItemCaseSensitive(obj, name);

    return (item == NULL || cJSON_IsNull(item)) ? NULL : item;
}


/* field "path.name" <what>: BEHAVE_ERR_INVALID_FIELD; returns -1 */

static int
behave_gw_invalid(behave_error_t *err, const char *path, const char *name,
    const char *what)
{
    behave_error_set(err, BEHAVE_ERR_INVALID_FIELD, "field \"%s%s%s\" %s",
                     path, path[0] ? "." : "", name, what);
    return -1;
}


int
behave_gw_number(const cJSON *obj, const char *path, const char *name,
    double min, double max, double *out, behave_error_t *err)
{
    char          what[96];
    const cJSON  *item;

    item = behave_gw_present(obj, name);
    if (item == NULL) {
        return 0;
    }

    if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble)
        || item->valuedouble < min || item->valuedouble > max)
    {
        snprintf(what, sizeof(what), "must be a number in [%g, %g]",
                 min, max);
        return behave_gw_invalid(err, path, name, what);
    }

    *out = item->valuedouble;
    return 1;
}


int
behave_gw_integer(const cJSON *obj, const char *path, const char *name,
    int64_t min, int64_t max, int64_t *out, behave_error_t *err)
{
    char          what[96];
    double        v;
    const cJSON  *item;

    item = behave_gw_present(obj, name);
    if (item == NULL) {
        return 0;
    }

    v = cJSON_IsNumber(item) ? item->valuedouble : NAN;

    if (!isfinite(v) || v != floor(v) || v < (double) min
        || v > (double) max)
    {
        snprintf(what, sizeof(what), "must be an integer in [%lld, %lld]",
                 (long long) min, (long long) max);
        return behave_gw_invalid(err, path, name, what);
    }

    *out = (int64_t) v;
    return 1;
}


int
behave_gw_string(const cJSON *obj, const char *path, const char *name,
    size_t maxlen, const char **out, behave_error_t *err)
{
    char          what[64];
    const cJSON  *item;

    item = behave_gw_present(obj, name);
    if (item == NULL) {
        return 0;
    }

    if (!cJSON_IsString(item) || strlen(item->valuestring) > maxlen) {
        snprintf(what, sizeof(what), "must be a string of at most %zu bytes",
                 maxlen);
        return behave_gw_invalid(err, path, name, what);
    }

    *out = item->valuestring;
    return 1;
}


/* a field that must be an object or an array: 1 found, 0 absent, -1 bad */

static int
behave_gw_container(const cJSON *obj, const char *path, const char *name,
    int array, const cJSON **out, behave_error_t *err)
{
    const cJSON  *item;

    item = behave_gw_present(obj, name);
    if (item == NULL) {
        return 0;
    }

    if (array ? !cJSON_IsArray(item) : !cJSON_IsObject(item)) {
        return behave_gw_invalid(err, path, name,
                                 array ? "must be an array"
                                       : "must be an object");
    }

    *out = item;
    return 1;
}


int
behave_gw_object(const cJSON *obj, const char *path, const char *name,
    const cJSON **out, behave_error_t *err)
{
    return behave_gw_container(obj, path, name, 0, out, err);
}


int
behave_gw_array(const cJSON *obj, const char *path, const char *name,
    const cJSON **out, behave_error_t *err)
{
    return behave_gw_container(obj, path, name, 1, out, err);
}


behave_err_e
behave_gw_timestamp(const cJSON *req, int64_t now_ms, int64_t *ts,
    behave_error_t *err)
{
    int  rc;

    /* 2^53: the largest integer a JSON number carries exactly */
    rc = behave_gw_integer(req, "", "timestamp", 0, 9007199254740992LL,
                           ts, err);
    if (rc < 0) {
        return err->err;
    }

    if (rc == 0) {
        *ts = now_ms;
    }

    return BEHAVE_OK;
}


double
behave_gw_clamp(double v, double lo, double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}


double
behave_gw_round6(double v)
{
    return round(v * 1e6) / 1e6;
}


const char *
behave_gw_load_level(double score)
{
    if (score >= 0.7) {
        return behave_load_name(BEHAVE_LOAD_OVERLOAD);
    }

    if (score >= 0.5) {
        return behave_load_name(BEHAVE_LOAD_HIGH);
    }

    if (score >= 0.3) {
        return behave_load_name(BEHAVE_LOAD_MODERATE);
    }

    return behave_load_name(BEHAVE_LOAD_LOW);
}


int
behave_gw_add_str(cJSON *obj, const char *name, const char *s)
{
    return cJSON_AddStringToObject(obj, name, s) != NULL;
}


int
behave_gw_add_num(cJSON *obj, const char *name, double v)
{
    return cJSON_AddNumberToObject(obj, name, v) != NULL;
}


int
behave_gw_add_rounded(cJSON *obj, const char *name, double v)
{
    return cJSON_AddNumberToObject(obj, name, behave_round3(v)) != NULL;
}


cJSON *
behave_gw_stamp(cJSON *root, int ok, const char *model, int64_t ts)
{
    ok = ok && behave_gw_add_str(root, "model_id", model)
         && behave_gw_add_num(root, "timestamp", (double) ts);

    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }

    return root;
}


behave_err_e
behave_gw_answer(cJSON *answer, cJSON **resp, behave_error_t *err)
{
    *resp = answer;

    if (answer == NULL) {
        return behave_error_set(err, BEHAVE_ERR_INTERNAL, "out of memory");
    }

    return BEHAVE_OK;
}


int
behave_gw_label_point(const char *label, double *valence, double *arousal)
{
    int  i;

    for (i = 0; i < BEHAVE_GW_LABEL_N; i++) {
        if (strcmp(label, behave_gw_labels_def[i].name) == 0) {
            *valence = behave_gw_labels_def[i].valence;
            *arousal = behave_gw_labels_def[i].arousal;
            return 0;
        }
    }

    return -1;
}


/* the operation */

behave_err_e
behave_gw_signals(const cJSON *req, int64_t now_ms, cJSON **resp,
    behave_error_t *err)
{
    int                  rc;
    int64_t              ts;
    const cJSON         *signals, *voice, *visual, *semantic;
    behave_gw_fusion_t   f;

    *resp = NULL;
    memset(&f, 0, sizeof(f));
    voice = visual = semantic = NULL;

    if (behave_gw_timestamp(req, now_ms, &ts, err) != BEHAVE_OK) {
        return err->err;
    }

    rc = behave_gw_object(req, "", "signals", &signals, err);
    if (rc < 0) {
        return err->err;
    }

    if (rc == 0) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "field \"signals\" is required");
    }

    if (behave_gw_object(signals, "signals", "voice", &voice, err) < 0
        || behave_gw_object(signals, "signals", "visual", &visual, err) < 0
        || behave_gw_object(signals, "signals", "semantic", &semantic, err)
           < 0)
    {
        return err->err;
    }

    if (voice == NULL && visual == NULL && semantic == NULL) {
        return behave_error_set(err, BEHAVE_ERR_MISSING_FIELD,
                                "field \"signals\" needs at least one of "
                                "\"voice\", \"visual\", \"semantic\"");
    }

    if ((voice && behave_gw_voice(voice, &f.mod[BEHAVE_GW_MOD_VOICE], err))
        || (visual
            && behave_gw_visual(visual, &f.mod[BEHAVE_GW_MOD_VISUAL], err))
        || (semantic && behave_gw_semantic(semantic, &f, err)))
    {
        return err->err;
    }

    if (behave_gw_fuse(&f) != 0) {
        return behave_error_set(err, BEHAVE_ERR_UNPROCESSABLE,
                                "the signals carry no emotional evidence: "
                                "visual needs expression probabilities, "
                                "voice a quality above 0");
    }

    behave_gw_labels(&f);
    behave_gw_load(&f);
    behave_gw_intent(&f);

    return behave_gw_answer(behave_gw_signals_json(&f, ts), resp, err);
}


/*
 * Voice: each prosodic feature becomes a deviation d in [-1, 1] from an
 * ordinary conversational reference; arousal is the weighted mean of the
 * deviations, valence the sum of the few signs that prosody does carry
 * (strained loudness, monotony, slowness and long silences are negative,
 * a lively pitch is positive).
 */
static behave_err_e
behave_gw_voice(const cJSON *voice, behave_gw_modality_t *m,
    behave_error_t *err)
{
    int          has_pitch, has_base, has_var, has_energy, has_rate;
    int          has_pause, has_quality;
    double       pitch, base, var, energy, rate, pause, quality, d, w;
    double       wsum, asum, v, lsum, ln;
    const char  *path;

    path = "signals.voice";
    pitch = base = var = energy = rate = pause = 0.0;
    quality = 1.0;

    if ((has_pitch = behave_gw_number(voice, path, "pitch_hz", 40, 600,
                                      &pitch, err)) < 0
        || (has_base = behave_gw_number(voice, path, "baseline_pitch_hz",
                                        40, 600, &base, err)) < 0
        || (has_var = behave_gw_number(voice, path, "pitch_variability", 0,
                                       1, &var, err)) < 0
        || (has_energy = behave_gw_number(voice, path, "energy_db", 0, 130,
                                          &energy, err)) < 0
        || (has_rate = behave_gw_number(voice, path, "speech_rate_wpm", 0,
                                        400, &rate, err)) < 0
        || (has_pause = behave_gw_number(voice, path, "pause_ratio", 0, 1,
                                         &pause, err)) < 0
        || (has_quality = behave_gw_number(voice, path, "quality", 0, 1,
                                           &quality, err)) < 0)
    {
        return err->err;
    }

    if (!has_pitch && !has_var && !has_energy && !has_rate && !has_pause) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"signals.voice\" needs at least one "
                                "of pitch_hz, pitch_variability, energy_db, "
                                "speech_rate_wpm, pause_ratio");
    }

    wsum = asum = v = lsum = ln = 0.0;

    if (has_energy) {
        d = behave_gw_clamp((energy - 60.0) / 20.0, -1, 1);
        wsum += 0.35;
        asum += 0.35 * d;
        v += -0.6 * fmax(0.0, d - 0.25) - 0.2 * fmax(0.0, -d);
    }

    if (has_rate) {
        d = behave_gw_clamp((rate - 150.0) / 70.0, -1, 1);
        wsum += 0.25;
        asum += 0.25 * d;
        v += -0.25 * fmax(0.0, -d);
        lsum += behave_gw_clamp((130.0 - rate) / 60.0, 0, 1);
        ln++;
    }

    if (has_var) {
        /* a lively pitch is pleasant at talking level, not when shouted */
        d = behave_gw_clamp((var - 0.15) / 0.2, -1, 1);
        wsum += 0.2;
        asum += 0.2 * d;
        v += 0.3 * d
             * (1.0 - (has_energy
                       ? behave_gw_clamp((energy - 60.0) / 20.0, 0, 1)
                       : 0.0));
    }

    if (has_pitch) {
        /* without the speaker's baseline the level says less */
        d = behave_gw_clamp(log2(pitch / (has_base ? base : 165.0))
                            / log2(1.5), -1, 1);
        w = has_base ? 0.1 : 0.05;
        wsum += w;
        asum += w * d;
    }

    if (has_pause) {
        d = behave_gw_clamp((0.2 - pause) / 0.3, -1, 1);
        wsum += 0.1;
        asum += 0.1 * d;
        v += -0.3 * fmax(0.0, -d);
        lsum += behave_gw_clamp((pause - 0.2) / 0.3, 0, 1);
        ln++;
    }

    m->used = 1;
    m->has_emotion = 1;
    m->arousal = behave_gw_clamp(0.5 + 0.5 * asum / wsum, 0, 1);
    m->valence = behave_gw_clamp(v, -1, 1);

    /* completeness: the feature weights present, out of 1.0 */
    m->confidence = (0.2 + 0.5 * fmin(1.0, wsum)) * quality;

    if (ln > 0) {
        m->has_load = 1;
        m->load = lsum / ln;
        m->load_weight = m->confidence;
    }

    return BEHAVE_OK;
}


/*
 * Visual: the expression probabilities (in "expressions" or inline) are
 * normalised and averaged over the circumplex points.  Confidence is the
 * mass the detector committed times how peaked it is, lowered when the
 * face is off screen or the detector itself is unsure.
 */
static behave_err_e
behave_gw_visual(const cJSON *visual, behave_gw_modality_t *m,
    behave_error_t *err)
{
    int           rc, have, gaze_set;
    double        p[BEHAVE_GW_EXPR_N], mass, peak, blink, gaze, face;
    size_t        i;
    const cJSON  *expr;
    const char   *path;

    expr = visual;
    path = "signals.visual";

    rc = behave_gw_object(visual, path, "expressions", &expr, err);
    if (rc < 0) {
        return err->err;
    }

    if (rc > 0) {
        path = "signals.visual.expressions";
    }

    mass = peak = 0.0;
    have = 0;

    for (i = 0; i < BEHAVE_GW_EXPR_N; i++) {
        p[i] = 0.0;
        rc = behave_gw_number(expr, path, behave_gw_expressions[i].name, 0, 1,
                              &p[i], err);
        if (rc < 0) {
            return err->err;
        }

        have |= rc;
        mass += p[i];
    }

    blink = gaze = -1.0;
    face = 1.0;

    if (behave_gw_number(visual, "signals.visual", "blink_rate", 0, 120,
                         &blink, err) < 0
        || (gaze_set = behave_gw_number(visual, "signals.visual",
                                        "gaze_on_screen", 0, 1, &gaze, err))
           < 0
        || behave_gw_number(visual, "signals.visual", "face_confidence", 0,
                            1, &face, err) < 0)
    {
        return err->err;
    }

    if (!have && blink < 0.0 && !gaze_set) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"signals.visual\" needs expression "
                                "probabilities (happy, sad, angry, fearful, "
                                "surprised, disgusted, neutral), "
                                "gaze_on_screen or blink_rate");
    }

    m->used = 1;

    if (gaze_set) {
        /* gaze aversion goes with effortful thinking */
        m->has_load = 1;
        m->load = behave_gw_clamp((0.85 - gaze) / 0.6, 0, 1);
        m->load_weight = 0.5 * face;
    }

    if (mass <= 0.0) {
        return BEHAVE_OK;
    }

    for (i = 0; i < BEHAVE_GW_EXPR_N; i++) {
        p[i] /= mass;
        m->valence += p[i] * behave_gw_expressions[i].valence;
        m->arousal += p[i] * behave_gw_expressions[i].arousal;
        peak = fmax(peak, p[i]);
    }

    if (blink >= 0.0) {
        /* 17 blinks a minute at rest; more with stress and arousal */
        m->arousal += 0.1 * behave_gw_clamp((blink - 17.0) / 20.0, -1, 1);
    }

    m->has_emotion = 1;
    m->valence = behave_gw_clamp(m->valence, -1, 1);
    m->arousal = behave_gw_clamp(m->arousal, 0, 1);
    m->confidence = fmin(1.0, mass) * (0.3 + 0.6 * peak) * face;

    if (gaze_set) {
        m->confidence *= 0.5 + 0.5 * gaze;
    }

    return BEHAVE_OK;
}


/*
 * Semantic: the core annotator.  Arousal is what the text makes urgent
 * or intense; confidence is the annotator's, lowered for short texts,
 * which say little.
 */
static behave_err_e
behave_gw_semantic(const cJSON *semantic, behave_gw_fusion_t *f,
    behave_error_t *err)
{
    int                    rc;
    size_t                 words;
    const char            *text;
    behave_token_t         tok;
    behave_tokenizer_t     tz;
    behave_gw_modality_t  *m;
    behave_annotation_t   *a;

    rc = behave_gw_string(semantic, "signals.semantic", "text",
                          BEHAVE_GW_TEXT_MAX, &text, err);
    if (rc < 0) {
        return err->err;
    }

    if (rc == 0 || strspn(text, " \t\r\n") == strlen(text)) {
        return behave_error_set(err, BEHAVE_ERR_INVALID_FIELD,
                                "field \"signals.semantic.text\" must be a "
                                "non-empty string");
    }

    f->text = text;
    f->text_len = strlen(text);
    a = &f->annotation;
    behave_annotate(text, f->text_len, a);

    words = 0;
    behave_tok_init(&tz, text, f->text_len);

    while (behave_tok_next(&tz, &tok) != BEHAVE_TOK_END) {
        words += (tok.type == BEHAVE_TOK_WORD);
    }

    m = &f->mod[BEHAVE_GW_MOD_SEMANTIC];
    m->used = 1;
    m->has_emotion = 1;
    m->valence = behave_gw_clamp(a->scores.valence, -1, 1);
    m->arousal = behave_gw_clamp(0.15 + 0.5 * a->scores.urgency
                                 + 0.45 * fabs(a->scores.valence), 0, 1);
    m->confidence = behave_gw_clamp(a->confidence, 0, 1)
                    * fmin(1.0, 0.3 + 0.07 * (double) words);
    m->has_load = 1;
    m->load = behave_gw_clamp(a->scores.cognitive_load, 0, 1);
    m->load_weight = m->confidence;

    return BEHAVE_OK;
}


/*
 * Confidence-weighted means; the fused confidence is the chance that at
 * least one modality is right, lowered when they disagree on valence.
 * -1 when no modality carries any evidence.
 */
static int
behave_gw_fuse(behave_gw_fusion_t *f)
{
    int                    i;
    double                 w, miss;
    behave_gw_modality_t  *m;

    w = 0.0;
    miss = 1.0;

    for (i = 0; i < BEHAVE_GW_MOD_N; i++) {
        m = &f->mod[i];

        if (!m->has_emotion || m->confidence <= 0.0) {
            continue;
        }

        w += m->confidence;
        f->valence += m->confidence * m->valence;
        f->arousal += m->confidence * m->arousal;
        miss *= 1.0 - fmin(m->confidence, 1.0);
    }

    if (w <= 0.0) {
        return -1;
    }

    f->valence /= w;
    f->arousal /= w;

    for (i = 0; i < BEHAVE_GW_MOD_N; i++) {
        m = &f->mod[i];

        if (m->has_emotion && m->confidence > 0.0) {
            f->spread += m->confidence * (m->valence - f->valence)
                         * (m->valence - f->valence);
        }
    }

    f->spread = sqrt(f->spread / w);
    f->confidence = (1.0 - miss) * (1.0 - 0.5 * fmin(1.0, f->spread));

    return 0;
}


/*
 * The distribution over the labels: a softmax of the negative squared
 * distance to each prototype, valence scaled to the arousal's unit range.
 */
static void
behave_gw_labels(behave_gw_fusion_t *f)
{
    int     i;
    double  dv, da, sum;

    sum = 0.0;

    for (i = 0; i < BEHAVE_GW_LABEL_N; i++) {
        dv = (f->valence - behave_gw_labels_def[i].valence) / 2.0;
        da = f->arousal - behave_gw_labels_def[i].arousal;
        f->dist[i] = exp(-(dv * dv + da * da) / BEHAVE_GW_LABEL_TAU);
        sum += f->dist[i];
    }

    f->label = 0;

    for (i = 0; i < BEHAVE_GW_LABEL_N; i++) {
        f->dist[i] /= sum;

        if (f->dist[i] > f->dist[f->label]) {
            f->label = i;
        }
    }
}


/*
 * Load from the modalities that measure it (pauses and slow speech, gaze
 * aversion, the annotator); with none, inferred from the state: tense,
 * negative states go with a higher load.
 */
static void
behave_gw_load(behave_gw_fusion_t *f)
{
    int                    i;
    double                 w, sum;
    behave_gw_modality_t  *m;

    w = sum = 0.0;

    for (i = 0; i < BEHAVE_GW_MOD_N; i++) {
        m = &f->mod[i];

        if (m->has_load && m->load_weight > 0.0) {
            w += m->load_weight;
            sum += m->load_weight * m->load;
        }
    }

    if (w > 0.0) {
        f->load = sum / w;
        f->load_measured = 1;
        return;
    }

    f->load = behave_gw_clamp(0.15 + 0.3 * f->arousal
                              + 0.3 * fmax(0.0, -f->valence), 0, 1);
}


/*
 * Intent scores: text cues plus the annotator's cues when there is
 * text, plus the fused state (half weight with text, full without).
 * Confidence is the winner's share times its strength, and the state
 * alone is never trusted beyond 0.6 of that.
 */
static void
behave_gw_intent(behave_gw_fusion_t *f)
{
    int                        i;
    double                     v, a, k, sum, best;
    double                    *s;
    const behave_annotation_t *an;

    s = f->intent;
    v = f->valence;
    a = f->arousal;

    if (f->text != NULL) {
        an = &f->annotation;
        behave_gw_intent_text(f->text, f->text_len, s);

        s[BEHAVE_GW_COMPLAINT] += 1.2 * fmax(0.0, -an->scores.valence)
            + 0.6 * !!(an->cues & BEHAVE_CUE_NOT_RESOLVED)
            + 0.6 * !!(an->cues & BEHAVE_CUE_REPEAT_CONTACT)
            + 0.4 * !!(an->cues & BEHAVE_CUE_GIVING_UP);
        s[BEHAVE_GW_SUPPORT] += 0.5 * !!(an->cues & BEHAVE_CUE_CONFUSION)
            + 0.3 * !!(an->cues & BEHAVE_CUE_SPECIALIST);
        s[BEHAVE_GW_INQUIRY] += 0.6 * !!(an->cues & BEHAVE_CUE_QUESTION);
        s[BEHAVE_GW_FEEDBACK] += 0.6 * !!(an->cues & BEHAVE_CUE_THANKS)
            + 0.4 * fmax(0.0, an->scores.valence);
    }

    k = f->text != NULL ? 0.5 : 1.0;

    s[BEHAVE_GW_COMPLAINT] += k * fmax(0.0, -v) * a;
    s[BEHAVE_GW_SUPPORT] += k * (fmax(0.0, -v) * (1.0 - a)
                                 + 0.5 * fmax(0.0, f->load - 0.3));
    s[BEHAVE_GW_PURCHASE] += k * fmax(0.0, v) * a;
    s[BEHAVE_GW_FEEDBACK] += k * fmax(0.0, v) * (1.0 - a);
    s[BEHAVE_GW_INQUIRY] += k * 0.3 * (1.0 - fabs(v));

    sum = 0.0;
    f->intent_best = BEHAVE_GW_INQUIRY;

    for (i = 0; i < BEHAVE_GW_INTENT_N; i++) {
        sum += s[i];

        if (s[i] > s[f->intent_best]) {
            f->intent_best = i;
        }
    }

    best = s[f->intent_best];

    if (sum <= 0.0) {
        f->intent_confidence = 0.0;
        return;
    }

    for (i = 0; i < BEHAVE_GW_INTENT_N; i++) {
        s[i] /= sum;
    }

    f->intent_confidence = s[f->intent_best] * (1.0 - exp(-best / 0.8))
                           * (f->text != NULL ? 1.0 : 0.6);
}


/*
 * Adds each cue's weight once per occurrence, at most 3 per intent.  The
 * phrases of one, two and three words ending at each word are built once
 * (no formatting in the loop): the cue table is compared against them.
 */
static void
behave_gw_intent_text(const char *text, size_t len, double *score)
{
    char                words[3][64], phrase[3][200];
    size_t              i, n, k, wl[3];
    behave_token_t      tok;
    behave_tokenizer_t  tz;

    if (!behave_gw_cue_shaped) {
        behave_gw_cue_shapes();
    }

    n = 0;
    behave_tok_init(&tz, text, len);

    while (behave_tok_next(&tz, &tok) != BEHAVE_TOK_END) {
        if (tok.type != BEHAVE_TOK_WORD) {
            /* a sentence break ends a phrase */
            n = (tok.type == BEHAVE_TOK_PUNCT && tok.cp != '\'') ? 0 : n;
            continue;
        }

        /* words[0] is the newest word */
        memmove(words[1], words[0], sizeof(words[0]) * 2);
        memmove(&wl[1], &wl[0], sizeof(wl[0]) * 2);
        wl[0] = strnlen(tok.text, sizeof(tok.text));
        wl[0] = wl[0] < sizeof(words[0]) ? wl[0] : sizeof(words[0]) - 1;
        memcpy(words[0], tok.text, wl[0]);
        words[0][wl[0]] = '\0';
        n = n < 3 ? n + 1 : 3;

        /* phrase[k] = the k + 1 newest words, oldest first */
        memcpy(phrase[0], words[0], wl[0] + 1);

        for (k = 1; k < n; k++) {
            memcpy(phrase[k], words[k], wl[k]);
            phrase[k][wl[k]] = ' ';
            memcpy(phrase[k] + wl[k] + 1, phrase[k - 1],
                   strlen(phrase[k - 1]) + 1);
        }

        for (i = 0; i < sizeof(behave_gw_cues) / sizeof(behave_gw_cues[0]);
             i++)
        {
            if (behave_gw_cue_match(&behave_gw_cues[i], phrase, n)) {
                score[behave_gw_cues[i].intent] += behave_gw_cues[i].weight;
            }
        }
    }

    for (i = 0; i < BEHAVE_GW_INTENT_N; i++) {
        score[i] = fmin(score[i], 3.0);
    }
}


void
behave_gw_init(void)
{
    if (!behave_gw_cue_shaped) {
        behave_gw_cue_shapes();
    }
}


static void
behave_gw_cue_shapes(void)
{
    size_t       i, k;
    const char  *sp;

    for (i = 0; i < sizeof(behave_gw_cues) / sizeof(behave_gw_cues[0]); i++) {
        k = 1;

        for (sp = behave_gw_cues[i].cue; (sp = strchr(sp, ' ')) != NULL;
             sp++)
        {
            k++;
        }

        behave_gw_cue_shape[i].words = (unsigned char) k;
        behave_gw_cue_shape[i].len =
            (unsigned short) strlen(behave_gw_cues[i].cue);
    }

    behave_gw_cue_shaped = 1;
}


/* does the cue end at the newest word? */
static int
behave_gw_cue_match(const behave_gw_cue_t *c, char phrase[3][200],
    size_t nwords)
{
    size_t       k, clen;
    const char  *p;

    k = behave_gw_cue_shape[c - behave_gw_cues].words;
    clen = behave_gw_cue_shape[c - behave_gw_cues].len;

    if (k > nwords) {
        return 0;
    }

    p = phrase[k - 1];

    if (p[0] != c->cue[0]) {
        return 0;
    }

    if (c->cue[clen - 1] == '*') {
        return strncmp(p, c->cue, clen - 1) == 0;
    }

    return strcmp(p, c->cue) == 0;
}


static cJSON *
behave_gw_signals_json(behave_gw_fusion_t *f, int64_t ts)
{
    int                    i, ok;
    cJSON                 *root, *o, *arr, *mods;
    behave_gw_modality_t  *m;

    root = cJSON_CreateObject();
    if (root == NULL) {
        return NULL;
    }

    o = cJSON_AddObjectToObject(root, "emotional_state");
    ok = o != NULL
         && behave_gw_add_str(o, "label",
                              behave_gw_labels_def[f->label].name)
         && behave_gw_add_rounded(o, "valence", f->valence)
         && behave_gw_add_rounded(o, "arousal", f->arousal);

    if (ok) {
        const char  *names[BEHAVE_GW_LABEL_N];

        for (i = 0; i < BEHAVE_GW_LABEL_N; i++) {
            names[i] = behave_gw_labels_def[i].name;
        }

        ok = cJSON_AddItemToObject(o, "distribution",
                 behave_gw_distribution_json(f->dist, BEHAVE_GW_LABEL_N,
                                             names));
    }

    o = ok ? cJSON_AddObjectToObject(root, "cognitive_load") : NULL;
    ok = o != NULL
         && behave_gw_add_str(o, "level", behave_gw_load_level(f->load))
         && behave_gw_add_rounded(o, "score", f->load)
         && behave_gw_add_str(o, "basis",
                              f->load_measured ? "measured" : "inferred");

    o = ok ? cJSON_AddObjectToObject(root, "intent_prediction") : NULL;
    ok = o != NULL
         && behave_gw_add_str(o, "intent",
                              behave_gw_intent_names[f->intent_best])
         && behave_gw_add_rounded(o, "confidence", f->intent_confidence)
         && behave_gw_add_str(o, "basis", f->text ? "text" : "state")
         && cJSON_AddItemToObject(o, "distribution",
                behave_gw_distribution_json(f->intent, BEHAVE_GW_INTENT_N,
                                            behave_gw_intent_names));

    ok = ok && behave_gw_add_rounded(root, "confidence", f->confidence)
         && behave_gw_add_str(root, "model_id", BEHAVE_GW_FUSION_MODEL)
         && behave_gw_add_num(root, "timestamp", (double) ts);

    arr = ok ? cJSON_AddArrayToObject(root, "modalities_used") : NULL;
    mods = arr ? cJSON_AddObjectToObject(root, "modalities") : NULL;
    ok = mods != NULL;

    for (i = 0; ok && i < BEHAVE_GW_MOD_N; i++) {
        m = &f->mod[i];

        if (!m->used) {
            continue;
        }

        ok = cJSON_AddItemToArray(arr,
                 cJSON_CreateString(behave_gw_mod_names[i]));

        o = ok ? cJSON_AddObjectToObject(mods, behave_gw_mod_names[i]) : NULL;
        ok = o != NULL;

        if (ok && m->has_emotion) {
            ok = behave_gw_add_rounded(o, "valence", m->valence)
                 && behave_gw_add_rounded(o, "arousal", m->arousal);
        }

        ok = ok && behave_gw_add_rounded(o, "confidence", m->confidence);

        if (ok && m->has_load) {
            ok = behave_gw_add_rounded(o, "cognitive_load", m->load);
        }
    }

    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }

    return root;
}


/*
 * {name: p} rounded to 1e-3, the rounding error given to the largest
 * share so that the printed values still sum to 1.
 */
static cJSON *
behave_gw_distribution_json(const double *p, size_t n,
    const char *const *names)
{
    size_t   i, top;
    double   r[BEHAVE_GW_LABEL_N], sum;
    cJSON   *o;

    o = cJSON_CreateObject();
    if (o == NULL || n > BEHAVE_GW_LABEL_N) {
        cJSON_Delete(o);
        return NULL;
    }

    sum = 0.0;
    top = 0;

    for (i = 0; i < n; i++) {
        r[i] = behave_round3(p[i]);
        sum += r[i];
        top = p[i] > p[top] ? i : top;
    }

    if (sum > 0.0) {
        r[top] = behave_round3(r[top] + 1.0 - sum);
    }

    for (i = 0; i < n; i++) {
        if (!behave_gw_add_num(o, names[i], r[i])) {
            cJSON_Delete(o);
            return NULL;
        }
    }

    return o;
}
