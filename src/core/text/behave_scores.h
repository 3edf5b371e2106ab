/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The scores as answered.
 */

#ifndef BEHAVE_SCORES_H
#define BEHAVE_SCORES_H

#include "text/behave_annotation.h"


/*
 * The scores as answered: each moved into its label's band (docs/API.md,
 * "scores"), so that no number contradicts its label; risk as it is (the
 * label of urgency is read from it).
 */
void behave_scores_agreed(const behave_annotation_t *a, behave_scores_t *out);


#endif /* BEHAVE_SCORES_H */
