/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The tokenizer on any bytes (it promises to accept them all), then the
 * annotator on the text when it is valid UTF-8, as the glue calls it.
 * Tokens move forward, stay inside the text and fit their buffers.
 */

#include "fuzz.h"
#include "text/behave_tokenize.h"
#include "text/behave_annotate.h"
#include "base/behave_utf8.h"


int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t                n, last;
    behave_token_t        tok;
    behave_tokenizer_t    tz;
    behave_annotation_t   ann;

    behave_tok_init(&tz, (const char *) data, size);
    last = 0;

    for (n = 0; behave_tok_next(&tz, &tok) != BEHAVE_TOK_END; n++) {
        FUZZ_CHECK(n <= size);
        FUZZ_CHECK(tok.off >= last && tok.off < size);
        FUZZ_CHECK(tok.len < BEHAVE_TOK_MAX);
        FUZZ_CHECK(tok.alt_len < BEHAVE_TOK_MAX);
        FUZZ_CHECK(tok.type != BEHAVE_TOK_WORD
                   || (tok.len > 0 && memchr(tok.text, '\0', tok.len)
                                      == NULL));
        last = tok.off;
    }

    if (behave_utf8_valid(data, size)) {
        behave_annotate((const char *) data, size, &ann);
        FUZZ_CHECK(ann.confidence >= 0.0 && ann.confidence <= 1.0);
        FUZZ_CHECK(ann.valence_blend >= -1.0 && ann.valence_blend <= 1.0);
        FUZZ_CHECK(behave_valence_name(ann.valence) != NULL);
    }

    return 0;
}
