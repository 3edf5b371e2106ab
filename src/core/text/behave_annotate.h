/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The annotator: one message in, five behavioural dimensions out.
 * Plain C, no nginx header: the same code runs in nginx workers, in the
 * unit tests, in scripts/eval and in the microbenchmark.
 */

#ifndef BEHAVE_ANNOTATE_H
#define BEHAVE_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>

#include "text/behave_annotation.h"


/*
 * Annotates len bytes of valid UTF-8 text (the caller validates it, see
 * behave_utf8.h).  Never fails: empty text is neutral and low everything.
 * Thread-safe; allocates nothing on the heap.
 */
void behave_annotate(const char *text, size_t len, behave_annotation_t *out);

/*
 * behave_annotate() less what flags name (BEHAVE_ANNOT_NO_*): every
 * other field is behave_annotate()'s, byte for byte.  For the turns of a
 * chat's history whose signature nothing reads (behave_chat.c): the
 * signature's sums were about a fifteenth of an annotation.
 */
#define BEHAVE_ANNOT_NO_MEANING  0x1     /* out->meaning left all zero */
/*
 * Only the claim cues (BEHAVE_CUE_RESOLUTION_CLAIM, BEHAVE_CUE_CLAIM_HELD)
 * are behave_annotate()'s, every other field is not to be read: the
 * rules and the concepts run, the trained weights are not summed.  What
 * an assistant's turn of a chat needs (its claim), at half the cost.
 */
#define BEHAVE_ANNOT_CLAIMS_ONLY 0x2

void behave_annotate_part(const char *text, size_t len, unsigned flags,
    behave_annotation_t *out);

/*
 * The same, for training: the model's features are handed to sink (an id
 * and a readable name) instead of being weighed, and the labels are the
 * rules' alone.
 */
void behave_annotate_features(const char *text, size_t len,
    behave_annotation_t *out, behave_feature_sink_pt sink, void *data);


/*
 * Writes the cultural_context tags of a into tags[] (at most max) as
 * pointers to static or a->language-backed strings; returns the count.
 * "non_english:xx" is written into buf (at least 16 bytes).
 */
size_t behave_cultural_tags(const behave_annotation_t *a, const char **tags,
    size_t max, char *buf, size_t buflen);


#endif /* BEHAVE_ANNOTATE_H */
