/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The external lexicon loader ("behave_lexicon FILE;", VADER or AFINN
 * text).  A file that loads is installed and used by the annotator, on a
 * few fixed messages and on the file's own text, then uninstalled.
 */

#include "fuzz.h"
#include "text/behave_lexicon_ext.h"
#include "text/behave_annotate.h"
#include "base/behave_utf8.h"


static const char  *fuzz_lex_texts[] = {
    "I love this, it is great :)",
    "this is terrible and I hate it :( never again",
    "not bad at all, world class support <3",
    "sooo disappointed \xf0\x9f\x98\xa0 the refund still has not arrived",
};


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int                    rc;
    char                   err[128];
    size_t                 i;
    behave_annotation_t    ann;
    behave_lex_overlay_t  *ov;

    memset(err, 'x', sizeof(err));
    ov = (behave_lex_overlay_t *) 1;

    rc = behave_lex_overlay_parse((const char *) data, size, &ov, err,
                                  sizeof(err));

    if (rc != 0) {
        FUZZ_CHECK(rc == -1 && ov == NULL);
        FUZZ_CHECK(memchr(err, '\0', sizeof(err)) != NULL);
        return 0;
    }

    FUZZ_CHECK(ov != NULL);
    (void) behave_lex_overlay_count(ov);
    (void) behave_lex_overlay_skipped(ov);

    behave_lex_overlay_install(ov);

    for (i = 0; i < sizeof(fuzz_lex_texts) / sizeof(fuzz_lex_texts[0]); i++) {
        behave_annotate(fuzz_lex_texts[i], strlen(fuzz_lex_texts[i]), &ann);
        FUZZ_CHECK(ann.valence_blend >= -1.0 && ann.valence_blend <= 1.0);
    }

    if (behave_utf8_valid(data, size) && size <= 4096) {
        behave_annotate((const char *) data, size, &ann);
        FUZZ_CHECK(ann.valence_blend >= -1.0 && ann.valence_blend <= 1.0);
    }

    behave_lex_overlay_install(NULL);
    behave_lex_overlay_free(ov);

    return 0;
}
