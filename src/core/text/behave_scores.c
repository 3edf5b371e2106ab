/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The scores as answered: each in its label's band (docs/API.md,
 * "scores"), a critical message's urgency read from its risk.
 */


#include "text/behave_scores.h"
#include "text/behave_risk.h"


/*
 * The bands of docs/API.md: a label's score lies in [lo, hi), the top
 * band's in [lo, 1].  Answered in thousandths, so a score is kept a
 * thousandth below hi: 0.4496 would print as 0.450, the next band.
 */
typedef struct {
    double  lo;
    double  hi;
} behave_band_t;

static const behave_band_t  behave_valence_bands[] = {
    { 0.15, 1.0 }, { -0.15, 0.15 }, { -1.0, -0.15 }, { -0.5, 0.5 }
};

static const behave_band_t  behave_urgency_bands[] = {
    { 0.0, 0.18 }, { 0.18, 0.45 }, { 0.45, 0.63 }, { 0.63, 0.8 },
    { 0.8, 1.0 }
};

static const behave_band_t  behave_load_bands[] = {
    { 0.0, 0.3 }, { 0.3, 0.55 }, { 0.55, 0.8 }, { 0.8, 1.0 }
};

static const behave_band_t  behave_engagement_bands[] = {
    { 0.0, 0.25 }, { 0.25, 0.5 }, { 0.5, 0.75 }, { 0.75, 1.0 }
};

static const behave_band_t  behave_register_bands[] = {
    { 0.65, 1.0 }, { 0.35, 0.65 }, { 0.0, 0.35 }, { 0.0, 1.0 }
};


static double
behave_in_band(double v, const behave_band_t *b)
{
    double  hi;

    hi = b->hi >= 1.0 ? 1.0 : b->hi - 0.001;

    if (!(v >= b->lo)) {                /* NaN too */
        return b->lo;
    }

    return v > hi ? hi : v;
}


void
behave_scores_agreed(const behave_annotation_t *a, behave_scores_t *out)
{
    double  t;

    *out = a->scores;

    out->valence = behave_in_band(a->scores.valence,
                                  &behave_valence_bands[a->valence]);
    out->urgency = behave_in_band(a->scores.urgency,
                                  &behave_urgency_bands[a->urgency]);

    /* a critical message's urgency is how far its risk passed the
     * default threshold: 0.8 at the threshold, 1 at certainty */
    if (a->urgency == BEHAVE_URGENCY_CRITICAL && behave_risk_present()) {
        t = behave_risk_default_threshold();
        out->urgency = behave_in_band(0.8 + 0.2 * (a->scores.risk - t)
                                            / (1.0 - t + 1e-9),
                                      &behave_urgency_bands[a->urgency]);
    }
    out->cognitive_load = behave_in_band(a->scores.cognitive_load,
                                         &behave_load_bands[a->cognitive_load]);
    out->engagement = behave_in_band(a->scores.engagement,
                                     &behave_engagement_bands[a->engagement]);
    out->formality = behave_in_band(a->scores.formality,
                                    &behave_register_bands[a->social_register]);
}
