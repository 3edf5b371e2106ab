/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The names of an annotation's labels, as the API and the model's
 * features spell them.
 */


#include "behave_annotation.h"


const char *
behave_valence_name(behave_valence_e v)
{
    static const char  *const names[] = { "positive", "neutral", "negative",
                                    "mixed" };

    return (unsigned) v < 4 ? names[v] : "neutral";
}


const char *
behave_load_name(behave_load_e v)
{
    static const char  *const names[] = { "low", "moderate", "high",
                                          "overload" };

    return (unsigned) v < 4 ? names[v] : "low";
}


const char *
behave_urgency_name(behave_urgency_e v)
{
    static const char  *const names[] = { "passive", "low", "medium", "high",
                                    "critical" };

    return (unsigned) v < 5 ? names[v] : "low";
}


const char *
behave_engagement_name(behave_engagement_e v)
{
    static const char  *const names[] = { "disengaged", "browsing", "focused",
                                    "immersed" };

    return (unsigned) v < 4 ? names[v] : "focused";
}


const char *
behave_register_name(behave_register_e v)
{
    static const char  *const names[] = { "formal", "semi-formal", "informal",
                                    "crisis" };

    return (unsigned) v < 4 ? names[v] : "semi-formal";
}
