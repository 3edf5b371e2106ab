/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <math.h>
#include <string.h>

#include "behave_json.h"
#include "behave_response.h"
#include "behave_json.h"


#define BEHAVE_MAX_TAGS  8


double
behave_round3(double v)
{
    return round(v * 1000.0) / 1000.0;
}


cJSON *
behave_annotation_json(const behave_annotation_t *a)
{
    char         buf[32];
    size_t       n, i;
    cJSON       *obj, *arr;
    const char  *tags[BEHAVE_MAX_TAGS];

    obj = cJSON_CreateObject();
    if (obj == NULL) {
        return NULL;
    }

    cJSON_AddStringToObject(obj, "emotional_valence",
                            behave_valence_name(a->valence));
    cJSON_AddStringToObject(obj, "cognitive_load",
                            behave_load_name(a->cognitive_load));
    cJSON_AddStringToObject(obj, "urgency_level",
                            behave_urgency_name(a->urgency));
    cJSON_AddStringToObject(obj, "engagement_state",
                            behave_engagement_name(a->engagement));
    cJSON_AddStringToObject(obj, "social_register",
                            behave_register_name(a->social_register));

    arr = cJSON_AddArrayToObject(obj, "cultural_context");
    if (arr == NULL) {
        cJSON_Delete(obj);
        return NULL;
    }

    n = behave_cultural_tags(a, tags, BEHAVE_MAX_TAGS, buf, sizeof(buf));

    for (i = 0; i < n; i++) {
        cJSON_AddItemToArray(arr, cJSON_CreateString(tags[i]));
    }

    return obj;
}


cJSON *
behave_scores_json(const behave_scores_t *s)
{
    cJSON  *obj;

    obj = cJSON_CreateObject();
    if (obj == NULL) {
        return NULL;
    }

    cJSON_AddNumberToObject(obj, "valence", behave_round3(s->valence));
    cJSON_AddNumberToObject(obj, "urgency", behave_round3(s->urgency));
    cJSON_AddNumberToObject(obj, "cognitive_load",
                            behave_round3(s->cognitive_load));
    cJSON_AddNumberToObject(obj, "engagement", behave_round3(s->engagement));
    cJSON_AddNumberToObject(obj, "formality", behave_round3(s->formality));

    return obj;
}


/*
 * Written directly, without a cJSON tree: this is the hot path of every
 * annotation, and the tree's thirty allocations cost more than the
 * annotation itself.
 */

char *
behave_analyze_response_json(behave_analyze_resp_t *resp, size_t *len)
{
    char                        *out, buf[32];
    size_t                       n, i;
    behave_jw_t                  w;
    const char                  *tags[BEHAVE_MAX_TAGS];
    const behave_annotation_t   *a;

    out = NULL;
    a = resp->annotation;

    if (!behave_jw_init(&w, 1024)) {
        goto done;
    }

    behave_jw_open(&w, NULL);
    behave_jw_string(&w, "status", "ok");
    behave_jw_string(&w, "session_id", resp->session_id);
    behave_jw_string(&w, "framework", BEHAVE_FRAMEWORK);
    behave_jw_number(&w, "latency_ms", behave_round3(resp->latency_ms));

    behave_jw_open(&w, "annotation");
    behave_jw_string(&w, "emotional_valence", behave_valence_name(a->valence));
    behave_jw_string(&w, "cognitive_load", behave_load_name(a->cognitive_load));
    behave_jw_string(&w, "urgency_level", behave_urgency_name(a->urgency));
    behave_jw_string(&w, "engagement_state",
                     behave_engagement_name(a->engagement));
    behave_jw_string(&w, "social_register",
                     behave_register_name(a->social_register));
    behave_jw_open_array(&w, "cultural_context");

    n = behave_cultural_tags(a, tags, BEHAVE_MAX_TAGS, buf, sizeof(buf));
    for (i = 0; i < n; i++) {
        behave_jw_string(&w, NULL, tags[i]);
    }

    behave_jw_close_array(&w);
    behave_jw_close(&w);

    behave_jw_open(&w, "scores");
    behave_jw_number(&w, "valence", behave_round3(a->scores.valence));
    behave_jw_number(&w, "urgency", behave_round3(a->scores.urgency));
    behave_jw_number(&w, "cognitive_load",
                     behave_round3(a->scores.cognitive_load));
    behave_jw_number(&w, "engagement", behave_round3(a->scores.engagement));
    behave_jw_number(&w, "formality", behave_round3(a->scores.formality));
    behave_jw_close(&w);

    behave_jw_number(&w, "signal_confidence", behave_round3(a->confidence));
    behave_jw_number(&w, "signals_fired", a->signals_fired);

    behave_jw_open(&w, "routing");
    behave_jw_string(&w, "response_posture",
                     resp->routing->response_posture);
    behave_jw_string(&w, "recommended_tone",
                     resp->routing->recommended_tone);
    behave_jw_string(&w, "suggested_action",
                     resp->routing->suggested_action);
    behave_jw_close(&w);

    /* an unlimited key reports -1: nothing to count down */
    behave_jw_open(&w, "_meta");
    behave_jw_number(&w, "tenant_remaining", (double) resp->tenant_remaining);
    behave_jw_bool(&w, "overage", resp->overage);
    behave_jw_number(&w, "gateway_latency_ms",
                     behave_round3(resp->gateway_latency_ms));

    if (resp->meter != NULL) {
        behave_jw_string(&w, "meter", resp->meter);
    }

    behave_jw_close(&w);

    if (resp->metadata != NULL) {
        behave_jw_item(&w, "metadata", resp->metadata);
    }

    if (resp->conversation != NULL) {
        behave_jw_item(&w, "conversation", resp->conversation);
    }

    behave_jw_close(&w);

    out = behave_jw_finish(&w, len);

done:

    cJSON_Delete(resp->metadata);
    cJSON_Delete(resp->conversation);
    resp->metadata = NULL;
    resp->conversation = NULL;

    return out;
}
