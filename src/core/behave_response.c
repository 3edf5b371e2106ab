/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <math.h>
#include <string.h>

#include "behave_response.h"


#define BEHAVE_MAX_TAGS  8


static int behave_response_add_meta(cJSON *root,
    const behave_analyze_resp_t *resp);
static int behave_response_add_routing(cJSON *root,
    const behave_routing_t *r);


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


char *
behave_analyze_response_json(behave_analyze_resp_t *resp, size_t *len)
{
    char   *out;
    cJSON  *root;

    out = NULL;
    root = cJSON_CreateObject();

    if (root == NULL) {
        goto done;
    }

    cJSON_AddStringToObject(root, "status", "ok");
    cJSON_AddStringToObject(root, "session_id", resp->session_id);
    cJSON_AddStringToObject(root, "framework", BEHAVE_FRAMEWORK);
    cJSON_AddNumberToObject(root, "latency_ms",
                            behave_round3(resp->latency_ms));
    cJSON_AddItemToObject(root, "annotation",
                          behave_annotation_json(resp->annotation));
    cJSON_AddItemToObject(root, "scores",
                          behave_scores_json(&resp->annotation->scores));
    cJSON_AddNumberToObject(root, "signal_confidence",
                            behave_round3(resp->annotation->confidence));
    cJSON_AddNumberToObject(root, "signals_fired",
                            resp->annotation->signals_fired);

    if (!behave_response_add_routing(root, resp->routing)
        || !behave_response_add_meta(root, resp))
    {
        goto done;
    }

    if (resp->metadata != NULL) {
        cJSON_AddItemToObject(root, "metadata", resp->metadata);
        resp->metadata = NULL;
    }

    if (resp->conversation != NULL) {
        cJSON_AddItemToObject(root, "conversation", resp->conversation);
        resp->conversation = NULL;
    }

    out = cJSON_PrintUnformatted(root);

    if (out != NULL && len != NULL) {
        *len = strlen(out);
    }

done:

    cJSON_Delete(root);
    cJSON_Delete(resp->metadata);
    cJSON_Delete(resp->conversation);
    resp->metadata = NULL;
    resp->conversation = NULL;

    return out;
}


static int
behave_response_add_routing(cJSON *root, const behave_routing_t *r)
{
    cJSON  *obj;

    obj = cJSON_AddObjectToObject(root, "routing");
    if (obj == NULL) {
        return 0;
    }

    cJSON_AddStringToObject(obj, "response_posture", r->response_posture);
    cJSON_AddStringToObject(obj, "recommended_tone", r->recommended_tone);
    cJSON_AddStringToObject(obj, "suggested_action", r->suggested_action);

    return 1;
}


static int
behave_response_add_meta(cJSON *root, const behave_analyze_resp_t *resp)
{
    cJSON  *obj;

    obj = cJSON_AddObjectToObject(root, "_meta");
    if (obj == NULL) {
        return 0;
    }

    /* an unlimited key reports -1: nothing to count down */
    cJSON_AddNumberToObject(obj, "tenant_remaining",
                            (double) resp->tenant_remaining);
    cJSON_AddBoolToObject(obj, "overage", resp->overage);
    cJSON_AddNumberToObject(obj, "gateway_latency_ms",
                            behave_round3(resp->gateway_latency_ms));

    if (resp->meter != NULL) {
        cJSON_AddStringToObject(obj, "meter", resp->meter);
    }

    return 1;
}
