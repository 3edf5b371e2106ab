/*
 * POST /api/v1/adaptive-ui: each rule fires on its condition and not
 * without it; scores, labels, levels and raw events are all accepted;
 * the content order moves with the patterns; invalid input.
 */

#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "gwtest.h"


static cJSON *
adapt(const char *body, behave_err_e want, const char *name)
{
    return gwtest_run(behave_gw_adaptive, body, want, BEHAVE_OK, name);
}


static int
in_list(const cJSON *r, const char *list, const char *key, const char *want)
{
    const cJSON  *e, *v;

    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(r, list)) {
        v = key ? cJSON_GetObjectItemCaseSensitive(e, key) : e;

        if (cJSON_IsString(v) && strcmp(v->valuestring, want) == 0) {
            return 1;
        }
    }

    return 0;
}


static int
fired(const cJSON *r, const char *rule)
{
    return in_list(r, "rules_fired", NULL, rule);
}


static int
position(const cJSON *r, const char *block)
{
    int           i;
    const cJSON  *e;

    i = 0;

    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(r,
                                                           "content_priority"))
    {
        if (strcmp(e->valuestring, block) == 0) {
            return i;
        }

        i++;
    }

    return -1;
}


static void
rules(void)
{
    cJSON  *r;

    r = adapt("{\"behavioral_data\":{\"hesitation_score\":0.1,"
              "\"cognitive_friction\":0.05,\"cognitive_load\":0.2},"
              "\"user_profile\":{\"expertise\":\"intermediate\"}}",
              BEHAVE_OK, "calm");
    is_int(cJSON_GetArraySize(cJSON_GetObjectItem(r, "ui_changes")), 0,
           "calm: no change");
    ok(in_list(r, "interaction_patterns", "pattern", "confident_flow"),
       "calm: confident flow detected");
    ok(!fired(r, "hesitation_help"), "calm: no hesitation help");
    is_int(cJSON_GetObjectItem(r, "timestamp")->valuedouble
           == 1718000000000.0, 1, "timestamp is now_ms");
    cJSON_Delete(r);

    r = adapt("{\"current_state\":{\"screen\":\"checkout\",\"step\":2,"
              "\"total_steps\":4},\"behavioral_data\":{"
              "\"hesitation_score\":0.72},\"user_profile\":{\"expertise\":"
              "\"novice\"}}", BEHAVE_OK, "hesitant novice");
    ok(fired(r, "hesitation_help"), "hesitation help fires");
    ok(fired(r, "hesitation_progress"), "progress fires with steps");
    ok(fired(r, "novice_guidance"), "novice guidance fires");
    ok(in_list(r, "interaction_patterns", "pattern", "hesitation"),
       "hesitation pattern");
    ok(in_list(r, "ui_changes", "component", "contextual_help"),
       "contextual_help component");
    ok(in_list(r, "layout_suggestions", "layout", "single_column"),
       "single_column layout");
    ok(position(r, "help") < position(r, "navigation"),
       "help moves up the content order");
    is_str(cJSON_GetObjectItem(r, "screen")->valuestring, "checkout",
           "screen echoed");
    cJSON_Delete(r);

    r = adapt("{\"behavioral_data\":{\"hesitation_score\":0.72},"
              "\"user_profile\":{\"expertise\":\"expert\"}}", BEHAVE_OK,
              "hesitant expert");
    ok(!fired(r, "hesitation_help"), "no beginner help for an expert");
    ok(!fired(r, "hesitation_progress"), "no progress without steps");
    ok(!fired(r, "expert_shortcuts"), "no shortcuts while hesitating");
    cJSON_Delete(r);

    r = adapt("{\"behavioral_data\":{\"hesitation_score\":0.05,"
              "\"cognitive_friction\":0.0},\"user_profile\":{\"expertise\":"
              "\"expert\"},\"current_state\":{\"components\":[\"help\","
              "\"shortcuts\",\"main_content\"]}}", BEHAVE_OK, "fluent expert");
    ok(fired(r, "expert_shortcuts"), "expert shortcuts fire");
    ok(in_list(r, "layout_suggestions", "layout", "dense"), "dense layout");
    ok(position(r, "shortcuts") < position(r, "help"),
       "shortcuts before help for an expert");
    is_int(cJSON_GetArraySize(cJSON_GetObjectItem(r, "content_priority")), 3,
           "the caller's components are ordered");
    cJSON_Delete(r);

    r = adapt("{\"behavioral_data\":{\"emotional_state\":{\"label\":"
              "\"angry\",\"valence\":-0.7,\"arousal\":0.85},"
              "\"cognitive_load\":{\"level\":\"overload\",\"score\":0.82}}}",
              BEHAVE_OK, "angry and overloaded");
    ok(fired(r, "frustration_support"), "frustration support fires");
    ok(fired(r, "overload_simplify"), "overload simplify fires");
    ok(in_list(r, "layout_suggestions", "layout", "progressive_disclosure"),
       "progressive disclosure");
    ok(position(r, "support") >= 0 && position(r, "support")
       < position(r, "promotions"), "support added, ahead of promotions");
    is_int(position(r, "promotions"),
           cJSON_GetArraySize(cJSON_GetObjectItem(r, "content_priority")) - 1,
           "promotions last");
    cJSON_Delete(r);

    r = adapt("{\"behavioral_data\":{\"emotional_state\":\"content\","
              "\"cognitive_load\":\"low\"}}", BEHAVE_OK, "content label");
    ok(!fired(r, "frustration_support"), "no support for a content user");
    ok(!fired(r, "overload_simplify"), "no simplification at low load");
    cJSON_Delete(r);

    r = adapt("{\"behavioral_data\":{},\"user_profile\":{"
              "\"accessibility_needs\":[\"screen_reader\",\"motor\","
              "\"low_vision\"],\"locale\":\"ar-EG\"}}", BEHAVE_OK, "a11y");
    ok(fired(r, "a11y_screen_reader"), "screen reader rule");
    ok(fired(r, "a11y_motor"), "motor rule");
    ok(fired(r, "a11y_low_vision"), "low vision rule");
    ok(!fired(r, "a11y_color_blind"), "no colour-blind rule unasked");
    ok(fired(r, "rtl_locale"), "Arabic locale mirrors the layout");
    ok(in_list(r, "layout_suggestions", "layout", "large_targets"),
       "large targets layout");
    cJSON_Delete(r);

    r = adapt("{\"behavioral_data\":{},\"user_profile\":{\"locale\":"
              "\"en-GB\"}}", BEHAVE_OK, "ltr");
    ok(!fired(r, "rtl_locale"), "English is not mirrored");
    cJSON_Delete(r);
}


static void
events(void)
{
    int     i;
    char    body[4096];
    size_t  len;
    cJSON  *r;

    /* raw events: a rage burst on "pay" */
    r = adapt("{\"behavioral_data\":{\"interaction_history\":["
              "{\"type\":\"click\",\"t\":0,\"target\":\"pay\"},"
              "{\"type\":\"click\",\"t\":200,\"target\":\"pay\"},"
              "{\"type\":\"click\",\"t\":400,\"target\":\"pay\"}]}}",
              BEHAVE_OK, "rage events");
    ok(in_list(r, "interaction_patterns", "pattern", "rage_clicks"),
       "rage clicks detected from events");
    ok(in_list(r, "ui_changes", "component", "pay"),
       "the change names the clicked component");
    cJSON_Delete(r);

    /* fast scrolling without typing: skimming */
    len = snprintf(body, sizeof(body),
                   "{\"behavioral_data\":{\"interaction_history\":[");

    for (i = 0; i < 10; i++) {
        len += snprintf(body + len, sizeof(body) - len,
                        "%s{\"type\":\"scroll\",\"t\":%d,\"delta\":400}",
                        i ? "," : "", i * 300);
    }

    snprintf(body + len, sizeof(body) - len, "]}}");
    r = adapt(body, BEHAVE_OK, "skimming events");
    ok(in_list(r, "interaction_patterns", "pattern", "skimming"),
       "skimming detected");
    ok(fired(r, "skimming_summary"), "summary rule fires");
    is_int(position(r, "summary"), 0, "summary first");
    cJSON_Delete(r);

    /* an explicit score wins over the events' */
    r = adapt("{\"behavioral_data\":{\"hesitation_score\":0.9,"
              "\"interaction_history\":[{\"type\":\"click\",\"t\":0}]}}",
              BEHAVE_OK, "explicit over events");
    ok(fired(r, "hesitation_help"), "explicit hesitation used");
    cJSON_Delete(r);
}


static void
invalid(void)
{
    adapt("{}", BEHAVE_ERR_MISSING_FIELD, "no behavioral_data");
    adapt("{\"behavioral_data\":[]}", BEHAVE_ERR_INVALID_FIELD,
          "behavioral_data an array");
    adapt("{\"behavioral_data\":{\"hesitation_score\":2}}",
          BEHAVE_ERR_INVALID_FIELD, "hesitation out of range");
    adapt("{\"behavioral_data\":{\"cognitive_load\":\"huge\"}}",
          BEHAVE_ERR_INVALID_FIELD, "unknown load level");
    adapt("{\"behavioral_data\":{\"emotional_state\":\"meh\"}}",
          BEHAVE_ERR_INVALID_FIELD, "unknown emotion label");
    adapt("{\"behavioral_data\":{\"interaction_history\":[{\"type\":1}]}}",
          BEHAVE_ERR_INVALID_FIELD, "bad event");
    adapt("{\"behavioral_data\":{},\"user_profile\":{\"expertise\":\"guru\"}}",
          BEHAVE_ERR_INVALID_FIELD, "unknown expertise");
    adapt("{\"behavioral_data\":{},\"user_profile\":{"
          "\"accessibility_needs\":[\"x\"]}}", BEHAVE_ERR_INVALID_FIELD,
          "unknown need");
    adapt("{\"behavioral_data\":{},\"current_state\":{\"step\":0}}",
          BEHAVE_ERR_INVALID_FIELD, "step 0");
    adapt("{\"behavioral_data\":{},\"current_state\":{\"components\":[1]}}",
          BEHAVE_ERR_INVALID_FIELD, "component a number");
}


int
main(void)
{
    rules();
    events();
    invalid();

    return tap_done();
}
