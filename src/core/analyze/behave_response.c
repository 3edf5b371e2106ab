/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <math.h>
#include <string.h>

#include "base/behave_json.h"
#include "analyze/behave_response.h"
#include "text/behave_scores.h"


#define BEHAVE_MAX_TAGS  8


/* the annotation object of spec 2.1: the one writer of it */

static void
behave_annotation_write(behave_jw_t *w, const behave_annotation_t *a)
{
    char         buf[32];
    size_t       n, i;
    const char  *tags[BEHAVE_MAX_TAGS];

    behave_jw_literal(w, "{\"emotional_valence\":");
    behave_jw_value_label(w, behave_valence_name(a->valence));
    behave_jw_literal(w, ",\"cognitive_load\":");
    behave_jw_value_label(w, behave_load_name(a->cognitive_load));
    behave_jw_literal(w, ",\"urgency_level\":");
    behave_jw_value_label(w, behave_urgency_name(a->urgency));
    behave_jw_literal(w, ",\"engagement_state\":");
    behave_jw_value_label(w, behave_engagement_name(a->engagement));
    behave_jw_literal(w, ",\"social_register\":");
    behave_jw_value_label(w, behave_register_name(a->social_register));
    behave_jw_literal(w, ",\"cultural_context\":[");

    n = behave_cultural_tags(a, tags, BEHAVE_MAX_TAGS, buf, sizeof(buf));
    for (i = 0; i < n; i++) {
        if (i) {
            behave_jw_literal(w, ",");
        }
        behave_jw_value_string(w, tags[i]);
    }

    behave_jw_literal(w, "]}");
}


char *
behave_annotation_json(const behave_annotation_t *a, size_t *len)
{
    behave_jw_t  w;

    if (!behave_jw_init(&w, 256)) {
        return NULL;
    }

    behave_annotation_write(&w, a);

    return behave_jw_finish(&w, len);
}


void
behave_analyze_resp_init(behave_analyze_resp_t *resp, const char *session_id,
    const char *meter, const behave_analyze_req_t *req,
    const behave_annotation_t *ann, const behave_routing_t *routing)
{
    memset(resp, 0, sizeof(*resp));

    resp->session_id = session_id;
    resp->tenant_remaining = -1;
    resp->meter = meter;
    resp->annotation = ann;
    resp->routing = routing;

    /* the raw bytes of the body's metadata, echoed as sent */
    resp->metadata = req->metadata;
    resp->metadata_len = req->metadata_len;
}


/*
 * Written directly, without a cJSON tree: this is the hot path of every
 * annotation, and the tree's thirty allocations cost more than the
 * annotation itself.
 */

char *
behave_analyze_response_json(behave_analyze_resp_t *resp, size_t *len)
{
    char                        *out;
    behave_jw_t                  w;
    behave_scores_t              sc;
    const behave_annotation_t   *a;

    out = NULL;
    a = resp->annotation;

    /* metadata echoed (up to a 1 MiB body): one buffer, no regrowth */
    if (!behave_jw_init(&w, 4096 + (resp->metadata ? resp->metadata_len
                                                    : 0)))
    {
        return NULL;
    }

    /* written per request: keys as literals, numbers in thousandths */
    behave_jw_literal(&w, "{\"status\":\"ok\",\"session_id\":");
    behave_jw_value_label(&w, resp->session_id);
    behave_jw_literal(&w, ",\"framework\":\"" BEHAVE_FRAMEWORK
                          "\",\"latency_ms\":");
    behave_jw_value_fixed3(&w, resp->latency_ms);

    behave_jw_literal(&w, ",\"annotation\":");
    behave_annotation_write(&w, a);

    /* the numbers in their labels' bands; risk decides critical */
    behave_scores_agreed(a, &sc);

    behave_jw_member_done(&w);
    behave_jw_open(&w, "scores");
    behave_jw_fixed3(&w, "valence", sc.valence);
    behave_jw_fixed3(&w, "urgency", sc.urgency);
    behave_jw_fixed3(&w, "cognitive_load", sc.cognitive_load);
    behave_jw_fixed3(&w, "engagement", sc.engagement);
    behave_jw_fixed3(&w, "formality", sc.formality);
    behave_jw_fixed3(&w, "risk", sc.risk);
    behave_jw_close(&w);

    behave_jw_literal(&w, ",\"signal_confidence\":");
    behave_jw_value_fixed3(&w, a->confidence);
    behave_jw_literal(&w, ",\"signals_fired\":");
    behave_jw_value_fixed3(&w, a->signals_fired);

    behave_jw_literal(&w, ",\"routing\":{\"response_posture\":");
    behave_jw_value_label(&w, resp->routing->response_posture);
    behave_jw_literal(&w, ",\"recommended_tone\":");
    behave_jw_value_label(&w, resp->routing->recommended_tone);
    behave_jw_literal(&w, ",\"suggested_action\":");
    behave_jw_value_label(&w, resp->routing->suggested_action);

    /* an unlimited key reports -1: nothing to count down */
    behave_jw_literal(&w, "},\"_meta\":{\"tenant_remaining\":");
    behave_jw_value_number(&w, (double) resp->tenant_remaining);

    if (resp->overage) {
        behave_jw_literal(&w, ",\"overage\":true");
    } else {
        behave_jw_literal(&w, ",\"overage\":false");
    }

    behave_jw_literal(&w, ",\"gateway_latency_ms\":");
    behave_jw_value_fixed3(&w, resp->gateway_latency_ms);

    if (resp->meter != NULL) {
        behave_jw_literal(&w, ",\"meter\":");
        behave_jw_value_label(&w, resp->meter);
    }

    behave_jw_literal(&w, "}");
    behave_jw_member_done(&w);

    /* the request's bytes, as sent (behave_json_member_raw) */
    if (resp->metadata != NULL) {
        behave_jw_literal(&w, ",\"metadata\":");
        behave_jw_append(&w, resp->metadata, resp->metadata_len);
    }

    if (resp->conversation != NULL) {
        behave_conversation_write(&w, resp->conversation,
                                  resp->conversation_id, resp->redacted);
    }

    behave_jw_close(&w);

    out = behave_jw_finish(&w, len);

    return out;
}
