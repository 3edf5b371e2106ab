/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The names of an annotation's labels, as the API and the model's
 * features spell them.
 */


#include "text/behave_annotation.h"


/*
 * fn(v): names[v] when v is in range, else the default label (a value
 * read back from storage may be anything)
 */
#define behave_label_names(fn, type, dflt, ...)                             \
    const char *                                                            \
    fn(type v)                                                              \
    {                                                                       \
        static const char  *const names[] = { __VA_ARGS__ };                \
                                                                            \
        return (unsigned) v < sizeof(names) / sizeof(names[0])              \
               ? names[v] : (dflt);                                         \
    }


behave_label_names(behave_valence_name, behave_valence_e, "neutral",
                   "positive", "neutral", "negative", "mixed")

behave_label_names(behave_load_name, behave_load_e, "low",
                   "low", "moderate", "high", "overload")

behave_label_names(behave_urgency_name, behave_urgency_e, "low",
                   "passive", "low", "medium", "high", "critical")

behave_label_names(behave_engagement_name, behave_engagement_e, "focused",
                   "disengaged", "browsing", "focused", "immersed")

behave_label_names(behave_register_name, behave_register_e, "semi-formal",
                   "formal", "semi-formal", "informal", "crisis")
