/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The model catalog of "behave_models FILE;" (conf/models.json is the
 * example).  Loaded once at config time and read-only afterwards; a load
 * error names the model index and the field so that "nginx -t" says what
 * to fix.  Ownership: the catalog owns every string; one
 * behave_gw_catalog_free() releases it all.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "gateway/behave_gateway.h"
#include "gateway/behave_gw_internal.h"
#include "base/behave_json_parse.h"


static int behave_gw_model_load(const cJSON *item, size_t i,
    behave_gw_model_t *m, char *errbuf, size_t errlen);
static int behave_gw_model_string(const cJSON *item, size_t i,
    const char *name, char **out, char *errbuf, size_t errlen);
static int behave_gw_model_number(const cJSON *item, size_t i,
    const char *name, double min, double max, double *out, char *errbuf,
    size_t errlen);
static int behave_gw_model_tier(const cJSON *item, size_t i,
    behave_gw_model_t *m, char *errbuf, size_t errlen);
static int behave_gw_model_caps(const cJSON *item, size_t i,
    behave_gw_model_t *m, char *errbuf, size_t errlen);
static int behave_gw_name_valid(const char *s);
static void behave_gw_model_free(behave_gw_model_t *m);


/* quality tiers by name; the index is the tier */
static const char *const  behave_gw_tiers[6] = {
    NULL, "basic", "standard", "advanced", "premium", "frontier"
};


int
behave_gw_catalog_load(const char *json, size_t len,
    behave_gw_catalog_t **out, char *errbuf, size_t errlen)
{
    size_t                i, j, n;
    cJSON                *root;
    const char           *why;
    const cJSON          *list, *item;
    behave_gw_catalog_t  *cat;

    *out = NULL;

    /* the request bodies' rules: no \u0000 to shorten a model id */
    if (!behave_json_check(json, len, &i, &why)) {
        snprintf(errbuf, errlen, "the model catalog is not valid JSON: %s "
                 "at byte %zu", why, i);
        return -1;
    }

    root = cJSON_ParseWithLength(json, len);

    if (root == NULL) {
        snprintf(errbuf, errlen, "the model catalog is not valid JSON");
        return -1;
    }

    list = cJSON_IsArray(root)
           ? root : cJSON_GetObjectItemCaseSensitive(root, "models");
    n = (size_t) cJSON_GetArraySize(list);

    if (!cJSON_IsArray(list) || n == 0 || n > BEHAVE_GW_MODELS_MAX) {
        snprintf(errbuf, errlen, "the model catalog must be an array of "
                 "1..%d models, or an object with such a \"models\" array",
                 BEHAVE_GW_MODELS_MAX);
        cJSON_Delete(root);
        return -1;
    }

    cat = calloc(1, sizeof(*cat));
    if (cat == NULL || (cat->models = calloc(n, sizeof(*cat->models)))
                       == NULL)
    {
        free(cat);
        cJSON_Delete(root);
        snprintf(errbuf, errlen, "out of memory");
        return -1;
    }

    i = 0;

    cJSON_ArrayForEach(item, list) {
        cat->nmodels = i + 1;

        if (behave_gw_model_load(item, i, &cat->models[i], errbuf, errlen)
            != 0)
        {
            goto failed;
        }

        for (j = 0; j < i; j++) {
            if (strcmp(cat->models[j].id, cat->models[i].id) == 0) {
                snprintf(errbuf, errlen, "models[%zu].id \"%s\" repeats "
                         "models[%zu].id", i, cat->models[i].id, j);
                goto failed;
            }
        }

        i++;
    }

    cJSON_Delete(root);
    *out = cat;
    return 0;

failed:

    cJSON_Delete(root);
    behave_gw_catalog_free(cat);
    return -1;
}


void
behave_gw_catalog_free(behave_gw_catalog_t *cat)
{
    size_t  i;

    if (cat == NULL) {
        return;
    }

    for (i = 0; i < cat->nmodels; i++) {
        behave_gw_model_free(&cat->models[i]);
    }

    free(cat->models);
    free(cat);
}


size_t
behave_gw_catalog_count(const behave_gw_catalog_t *cat)
{
    return cat ? cat->nmodels : 0;
}


const char *
behave_gw_tier_name(int tier)
{
    return (tier >= 1 && tier <= 5) ? behave_gw_tiers[tier] : "unknown";
}


int
behave_gw_model_has(const behave_gw_model_t *m, const char *capability)
{
    size_t  i;

    for (i = 0; i < m->ncapabilities; i++) {
        if (strcmp(m->capabilities[i], capability) == 0) {
            return 1;
        }
    }

    return 0;
}


static int
behave_gw_model_load(const cJSON *item, size_t i, behave_gw_model_t *m,
    char *errbuf, size_t errlen)
{
    if (!cJSON_IsObject(item)) {
        snprintf(errbuf, errlen, "models[%zu] must be an object", i);
        return -1;
    }

    if (behave_gw_model_string(item, i, "id", &m->id, errbuf, errlen)
        || behave_gw_model_string(item, i, "provider", &m->provider, errbuf,
                                  errlen)
        || behave_gw_model_number(item, i, "p50_latency_ms", 0.001, 3.6e6,
                                  &m->p50_latency_ms, errbuf, errlen)
        || behave_gw_model_number(item, i, "cost_per_1k_input", 0, 1000,
                                  &m->cost_per_1k_input, errbuf, errlen)
        || behave_gw_model_number(item, i, "cost_per_1k_output", 0, 1000,
                                  &m->cost_per_1k_output, errbuf, errlen)
        || behave_gw_model_number(item, i, "context_window", 1, 1e9,
                                  &m->context_window, errbuf, errlen)
        || behave_gw_model_tier(item, i, m, errbuf, errlen)
        || behave_gw_model_caps(item, i, m, errbuf, errlen))
    {
        return -1;
    }

    if (m->context_window != floor(m->context_window)) {
        snprintf(errbuf, errlen, "models[%zu].context_window must be an "
                 "integer (tokens)", i);
        return -1;
    }

    return 0;
}


static int
behave_gw_model_string(const cJSON *item, size_t i, const char *name,
    char **out, char *errbuf, size_t errlen)
{
    const cJSON  *v;

    v = cJSON_GetObjectItemCaseSensitive(item, name);

    if (!cJSON_IsString(v) || !behave_gw_name_valid(v->valuestring)) {
        snprintf(errbuf, errlen, "models[%zu].%s must be a string of 1..%d "
                 "characters [A-Za-z0-9_.:/@+-]", i, name,
                 BEHAVE_GW_NAME_MAX);
        return -1;
    }

    *out = strdup(v->valuestring);

    if (*out == NULL) {
        snprintf(errbuf, errlen, "out of memory");
        return -1;
    }

    return 0;
}


static int
behave_gw_model_number(const cJSON *item, size_t i, const char *name,
    double min, double max, double *out, char *errbuf, size_t errlen)
{
    const cJSON  *v;

    v = cJSON_GetObjectItemCaseSensitive(item, name);

    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)
        || v->valuedouble < min || v->valuedouble > max)
    {
        snprintf(errbuf, errlen, "models[%zu].%s must be a number in "
                 "[%g, %g]", i, name, min, max);
        return -1;
    }

    *out = v->valuedouble;
    return 0;
}


/* 1..5, or the tier's name */
static int
behave_gw_model_tier(const cJSON *item, size_t i, behave_gw_model_t *m,
    char *errbuf, size_t errlen)
{
    int           t;
    const cJSON  *v;

    v = cJSON_GetObjectItemCaseSensitive(item, "quality_tier");

    if (cJSON_IsNumber(v) && v->valuedouble >= 1 && v->valuedouble <= 5
        && v->valuedouble == floor(v->valuedouble))
    {
        m->quality_tier = (int) v->valuedouble;
        return 0;
    }

    for (t = 1; cJSON_IsString(v) && t <= 5; t++) {
        if (strcmp(v->valuestring, behave_gw_tiers[t]) == 0) {
            m->quality_tier = t;
            return 0;
        }
    }

    snprintf(errbuf, errlen, "models[%zu].quality_tier must be an integer "
             "1..5 or basic, standard, advanced, premium, frontier", i);
    return -1;
}


static int
behave_gw_model_caps(const cJSON *item, size_t i, behave_gw_model_t *m,
    char *errbuf, size_t errlen)
{
    size_t        n, k;
    const cJSON  *v, *c;

    v = cJSON_GetObjectItemCaseSensitive(item, "capabilities");

    if (v == NULL) {
        return 0;
    }

    n = (size_t) cJSON_GetArraySize(v);

    if (!cJSON_IsArray(v) || n > BEHAVE_GW_CAPS_MAX) {
        snprintf(errbuf, errlen, "models[%zu].capabilities must be an array "
                 "of at most %d strings", i, BEHAVE_GW_CAPS_MAX);
        return -1;
    }

    m->capabilities = calloc(n ? n : 1, sizeof(char *));
    if (m->capabilities == NULL) {
        snprintf(errbuf, errlen, "out of memory");
        return -1;
    }

    k = 0;

    cJSON_ArrayForEach(c, v) {
        if (!cJSON_IsString(c) || !behave_gw_name_valid(c->valuestring)) {
            snprintf(errbuf, errlen, "models[%zu].capabilities[%zu] must be "
                     "a string of 1..%d characters [A-Za-z0-9_.:/@+-]", i, k,
                     BEHAVE_GW_NAME_MAX);
            return -1;
        }

        m->capabilities[k] = strdup(c->valuestring);
        if (m->capabilities[k] == NULL) {
            snprintf(errbuf, errlen, "out of memory");
            return -1;
        }

        m->ncapabilities = ++k;
    }

    return 0;
}


/* ids end up in JSON and logs: keep them short and plain */
static int
behave_gw_name_valid(const char *s)
{
    size_t  n;

    n = strlen(s);

    return n >= 1 && n <= BEHAVE_GW_NAME_MAX
           && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789_.:/@+-") == n;
}


static void
behave_gw_model_free(behave_gw_model_t *m)
{
    size_t  i;

    for (i = 0; i < m->ncapabilities; i++) {
        free(m->capabilities[i]);
    }

    free(m->capabilities);
    free(m->id);
    free(m->provider);
}
