/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Rounding of the figures every surface prints.
 */

#ifndef BEHAVE_ROUND_H
#define BEHAVE_ROUND_H


/* rounds to 1e-3 so that doubles print short ("0.25", not 0.2500000001) */
double behave_round3(double v);


#endif /* BEHAVE_ROUND_H */
