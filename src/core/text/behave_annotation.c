/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The names of an annotation's labels, as the API and the model's
 * features spell them.
 */


#include "behave_annotation.h"


/* names[v] when v is in range, else the default label */
#define behave_label(names, v, dflt)                                        \
    ((unsigned) (v) < sizeof(names) / sizeof(names[0]) ? names[v] : (dflt))


static const char  *const behave_valence_names[] = {
    "positive", "neutral", "negative", "mixed"
};

static const char  *const behave_load_names[] = {
    "low", "moderate", "high", "overload"
};

static const char  *const behave_urgency_names[] = {
    "passive", "low", "medium", "high", "critical"
};

static const char  *const behave_engagement_names[] = {
    "disengaged", "browsing", "focused", "immersed"
};

static const char  *const behave_register_names[] = {
    "formal", "semi-formal", "informal", "crisis"
};


const char *
behave_valence_name(behave_valence_e v)
{
    return behave_label(behave_valence_names, v, "neutral");
}


const char *
behave_load_name(behave_load_e v)
{
    return behave_label(behave_load_names, v, "low");
}


const char *
behave_urgency_name(behave_urgency_e v)
{
    return behave_label(behave_urgency_names, v, "low");
}


const char *
behave_engagement_name(behave_engagement_e v)
{
    return behave_label(behave_engagement_names, v, "focused");
}


const char *
behave_register_name(behave_register_e v)
{
    return behave_label(behave_register_names, v, "semi-formal");
}

