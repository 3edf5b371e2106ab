/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Rounding: see behave_round.h.
 */

#include <math.h>

#include "base/behave_round.h"


double
behave_round3(double v)
{
    return round(v * 1000.0) / 1000.0;
}
