/*
 * POST /api/v1/behavioral-signals: shapes, value sets, the directions the
 * fusion must move in (angry face + raised voice is negative and
 * aroused; happy face + calm voice is positive), and invalid input.
 */

#include <string.h>
#include <cjson/cJSON.h>

#include "gwtest.h"


static cJSON *
run(const char *body, behave_err_e want, const char *name)
{
    return gwtest_run(behave_gw_signals, body, want, BEHAVE_OK, name);
}


static double
num(const cJSON *o, const char *path)
{
    char         buf[128], *p, *save;
    const cJSON *it;

    snprintf(buf, sizeof(buf), "%s", path);
    it = o;

    for (p = strtok_r(buf, ".", &save); p; p = strtok_r(NULL, ".", &save)) {
        it = cJSON_GetObjectItemCaseSensitive(it, p);
    }

    return cJSON_IsNumber(it) ? it->valuedouble : -99.0;
}


static const char *
str(const cJSON *o, const char *a, const char *b)
{
    const cJSON  *it;

    it = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b != NULL) {
        it = cJSON_GetObjectItemCaseSensitive(it, b);
    }

    return cJSON_IsString(it) ? it->valuestring : NULL;
}


static int
in_set(const char *s, const char *const *set)
{
    for ( /* void */ ; s != NULL && *set != NULL; set++) {
        if (strcmp(s, *set) == 0) {
            return 1;
        }
    }

    return 0;
}


static void
shape(const cJSON *r, const char *name)
{
    static const char *const labels[] = { "neutral", "calm", "content",
        "excited", "frustrated", "angry", "anxious", "sad", NULL };
    static const char *const loads[] = { "low", "moderate", "high",
        "overload", NULL };
    static const char *const intents[] = { "complaint", "cancel",
        "purchase", "support", "inquiry", "feedback", NULL };
    double        sum, v;
    const cJSON  *d, *it;

    ok(in_set(str(r, "emotional_state", "label"), labels),
       "%s: label in the set", name);
    v = num(r, "emotional_state.valence");
    ok(v >= -1 && v <= 1, "%s: valence in [-1, 1]", name);
    v = num(r, "emotional_state.arousal");
    ok(v >= 0 && v <= 1, "%s: arousal in [0, 1]", name);

    d = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(r, "emotional_state"),
            "distribution");
    sum = 0.0;
    cJSON_ArrayForEach(it, d) {
        sum += it->valuedouble;
    }
    is_int(cJSON_GetArraySize(d), 8, "%s: distribution has 8 labels", name);
    is_near(sum, 1.0, 1e-9, "%s: distribution sums to 1", name);

    ok(in_set(str(r, "cognitive_load", "level"), loads),
       "%s: load level in the set", name);
    v = num(r, "cognitive_load.score");
    ok(v >= 0 && v <= 1, "%s: load score in [0, 1]", name);
    ok(in_set(str(r, "intent_prediction", "intent"), intents),
       "%s: intent in the set", name);
    v = num(r, "intent_prediction.confidence");
    ok(v >= 0 && v <= 1, "%s: intent confidence in [0, 1]", name);
    v = num(r, "confidence");
    ok(v > 0 && v <= 1, "%s: confidence in (0, 1]", name);
    is_str(str(r, "model_id", NULL), "behave-fusion/1.0.0",
           "%s: model_id", name);
    ok(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(r, "modalities_used")),
       "%s: modalities_used", name);
}


static void
directions(void)
{
    cJSON  *angry, *happy, *r;
    double  loud, quiet;

    angry = run("{\"signals\":{\"voice\":{\"pitch_hz\":260,"
                "\"baseline_pitch_hz\":180,\"pitch_variability\":0.35,"
                "\"energy_db\":82,\"speech_rate_wpm\":195,"
                "\"pause_ratio\":0.05},\"visual\":{\"angry\":0.8,"
                "\"disgusted\":0.1,\"neutral\":0.1,\"gaze_on_screen\":0.9}}}",
                BEHAVE_OK, "angry face + raised voice");
    shape(angry, "angry");
    ok(num(angry, "emotional_state.valence") < -0.3,
       "angry: negative valence (%g)", num(angry, "emotional_state.valence"));
    ok(num(angry, "emotional_state.arousal") > 0.7,
       "angry: high arousal (%g)", num(angry, "emotional_state.arousal"));
    is_str(str(angry, "emotional_state", "label"), "angry", "angry: label");
    is_int(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(angry,
           "modalities_used")), 2, "angry: two modalities used");
    is_int(num(angry, "timestamp") == 1718000000000.0, 1,
           "angry: timestamp is now_ms when the request has none");

    happy = run("{\"timestamp\":1718000001234,\"signals\":{\"voice\":{"
                "\"pitch_variability\":0.2,\"energy_db\":56,"
                "\"speech_rate_wpm\":140,\"pause_ratio\":0.2},"
                "\"visual\":{\"expressions\":{\"happy\":0.85,"
                "\"neutral\":0.15}}}}", BEHAVE_OK, "happy face + calm voice");
    shape(happy, "happy");
    ok(num(happy, "emotional_state.valence") > 0.3,
       "happy: positive valence (%g)", num(happy, "emotional_state.valence"));
    ok(num(happy, "emotional_state.arousal")
       < num(angry, "emotional_state.arousal"), "happy: calmer than angry");
    ok(in_set(str(happy, "emotional_state", "label"),
              (const char *const[]) { "content", "calm", "excited", NULL }),
       "happy: a positive label (%s)", str(happy, "emotional_state", "label"));
    is_int(num(happy, "timestamp") == 1718000001234.0, 1,
           "happy: the request's timestamp is echoed");
    cJSON_Delete(angry);
    cJSON_Delete(happy);

    /* louder voice alone: more aroused */
    r = run("{\"signals\":{\"voice\":{\"energy_db\":85,"
            "\"speech_rate_wpm\":190}}}", BEHAVE_OK, "loud voice");
    loud = num(r, "emotional_state.arousal");
    cJSON_Delete(r);
    r = run("{\"signals\":{\"voice\":{\"energy_db\":50,"
            "\"speech_rate_wpm\":110}}}", BEHAVE_OK, "quiet voice");
    quiet = num(r, "emotional_state.arousal");
    ok(num(r, "cognitive_load.score") > 0, "quiet: slow speech has a load");
    cJSON_Delete(r);
    ok(loud > quiet, "voice: louder and faster is more aroused (%g > %g)",
       loud, quiet);

    /* a more complete voice is trusted more */
    r = run("{\"signals\":{\"voice\":{\"energy_db\":60}}}", BEHAVE_OK,
            "one voice feature");
    loud = num(r, "modalities.voice.confidence");
    cJSON_Delete(r);
    r = run("{\"signals\":{\"voice\":{\"energy_db\":60,\"pitch_hz\":150,"
            "\"pitch_variability\":0.1,\"speech_rate_wpm\":150,"
            "\"pause_ratio\":0.2}}}", BEHAVE_OK, "five voice features");
    quiet = num(r, "modalities.voice.confidence");
    cJSON_Delete(r);
    ok(quiet > loud, "voice: confidence grows with completeness");
}


static void
semantic(void)
{
    cJSON  *r;

    r = run("{\"signals\":{\"semantic\":{\"text\":\"I want to cancel my "
            "subscription today.\"}}}", BEHAVE_OK, "cancel text");
    shape(r, "cancel text");
    is_str(str(r, "intent_prediction", "intent"), "cancel", "cancel intent");
    is_str(str(r, "intent_prediction", "basis"), "text", "intent from text");
    cJSON_Delete(r);

    r = run("{\"signals\":{\"semantic\":{\"text\":\"How much does the "
            "premium plan cost? I'd like to buy it for my team.\"}}}",
            BEHAVE_OK, "purchase text");
    is_str(str(r, "intent_prediction", "intent"), "purchase",
           "purchase intent");
    cJSON_Delete(r);

    r = run("{\"signals\":{\"semantic\":{\"text\":\"This is unacceptable, "
            "the worst service ever. I was charged twice and nobody "
            "answers.\"}}}", BEHAVE_OK, "complaint text");
    is_str(str(r, "intent_prediction", "intent"), "complaint",
           "complaint intent");
    ok(num(r, "emotional_state.valence") < 0, "complaint: negative");
    cJSON_Delete(r);

    r = run("{\"signals\":{\"semantic\":{\"text\":\"My login is not working "
            "and I can't reset my password.\"}}}", BEHAVE_OK, "support text");
    is_str(str(r, "intent_prediction", "intent"), "support",
           "support intent");
    cJSON_Delete(r);

    r = run("{\"signals\":{\"visual\":{\"happy\":0.9,\"neutral\":0.1}}}",
            BEHAVE_OK, "no text");
    is_str(str(r, "intent_prediction", "basis"), "state",
           "intent from state without text");
    is_str(str(r, "cognitive_load", "basis"), "inferred",
           "load inferred without a load signal");
    ok(num(r, "intent_prediction.confidence") <= 0.6,
       "state-only intent confidence is capped");
    cJSON_Delete(r);

    /* all three */
    r = run("{\"signals\":{\"voice\":{\"energy_db\":75},\"visual\":{"
            "\"sad\":0.7,\"neutral\":0.3},\"semantic\":{\"text\":\"It still "
            "doesn't work, I'm so tired of this.\"}}}", BEHAVE_OK, "three");
    shape(r, "three");
    is_int(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r,
           "modalities_used")), 3, "three modalities used");
    is_str(str(r, "cognitive_load", "basis"), "measured", "load measured");
    cJSON_Delete(r);
}


static void
invalid(void)
{
    size_t  i;
    cJSON  *r;

    static const struct {
        const char    *body;
        behave_err_e   want;
        const char    *name;
    }  cases[] = {
        { "{}", BEHAVE_ERR_MISSING_FIELD, "no signals" },
        { "{\"signals\":[]}", BEHAVE_ERR_INVALID_FIELD, "signals array" },
        { "{\"signals\":{}}", BEHAVE_ERR_MISSING_FIELD, "empty signals" },
        { "{\"signals\":{\"voice\":\"loud\"}}", BEHAVE_ERR_INVALID_FIELD,
          "voice a string" },
        { "{\"signals\":{\"voice\":{\"energy_db\":\"80\"}}}",
          BEHAVE_ERR_INVALID_FIELD, "energy a string" },
        { "{\"signals\":{\"voice\":{\"pause_ratio\":1.5}}}",
          BEHAVE_ERR_INVALID_FIELD, "pause ratio out of range" },
        { "{\"signals\":{\"voice\":{\"volume\":3}}}",
          BEHAVE_ERR_INVALID_FIELD, "voice without a known feature" },
        { "{\"signals\":{\"visual\":{\"angry\":-0.1}}}",
          BEHAVE_ERR_INVALID_FIELD, "negative probability" },
        { "{\"signals\":{\"semantic\":{\"text\":42}}}",
          BEHAVE_ERR_INVALID_FIELD, "text a number" },
        { "{\"signals\":{\"semantic\":{\"text\":\"  \"}}}",
          BEHAVE_ERR_INVALID_FIELD, "blank text" },
        { "{\"signals\":{\"semantic\":{\"text\":\"hi\"}},"
          "\"timestamp\":\"now\"}", BEHAVE_ERR_INVALID_FIELD,
          "timestamp a string" },
        { "{\"signals\":{\"semantic\":{\"text\":\"hi\"}},"
          "\"timestamp\":1.5}", BEHAVE_ERR_INVALID_FIELD,
          "timestamp not an integer" },
        { "{\"signals\":{\"visual\":{\"gaze_on_screen\":0.4}}}",
          BEHAVE_ERR_UNPROCESSABLE, "gaze alone carries no emotion" },
    };

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        r = run(cases[i].body, cases[i].want, cases[i].name);
        cJSON_Delete(r);
    }
}


int
main(void)
{
    directions();
    semantic();
    invalid();

    return tap_done();
}
