/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * A compact JSON printer for cJSON trees.  cJSON prints every double with
 * sprintf("%1.15g") and checks it back with sscanf, a few microseconds a
 * response; the service's numbers are short (rounded to 1e-3 or whole),
 * so they are written directly and only the rare long one takes snprintf.
 */

#ifndef BEHAVE_JSON_H
#define BEHAVE_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cjson/cJSON.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif


/*
 * A writer for responses of a fixed shape, built without a cJSON tree:
 * behave_jw_init(), then the put functions (each a no-op once an
 * allocation failed), then behave_jw_finish() for the malloc()ed,
 * NUL-terminated text, or NULL when out of memory.
 */
typedef struct {
    char                  *buf;
    size_t                 len;
    size_t                 cap;
    int                    failed;
    int                    first;        /* no member written yet */
} behave_jw_t;


int behave_jw_init(behave_jw_t *w, size_t cap);
void behave_jw_open(behave_jw_t *w, const char *key);     /* { or "k":{ */
void behave_jw_close(behave_jw_t *w);                     /* } */
void behave_jw_open_array(behave_jw_t *w, const char *key);
void behave_jw_close_array(behave_jw_t *w);
void behave_jw_string(behave_jw_t *w, const char *key, const char *v);
void behave_jw_number(behave_jw_t *w, const char *key, double v);
void behave_jw_bool(behave_jw_t *w, const char *key, int v);
void behave_jw_item(behave_jw_t *w, const char *key, const cJSON *item);
char *behave_jw_finish(behave_jw_t *w, size_t *len);

/*
 * The pieces a fixed-shape writer (the analyze answer, written per
 * request) strings together itself: literal JSON text with its keys
 * already quoted, string values escaped, numbers.  They leave the member
 * bookkeeping of behave_jw_open() & co. alone: after them, call
 * behave_jw_member_done() before using the keyed functions again.
 */
void behave_jw_append_slow(behave_jw_t *w, const char *s, size_t n);

static inline void
behave_jw_append(behave_jw_t *w, const char *s, size_t n)
{
    if (w->len + n <= w->cap) {
        memcpy(w->buf + w->len, s, n);
        w->len += n;
        return;
    }

    behave_jw_append_slow(w, s, n);
}

#define behave_jw_literal(w, s)  behave_jw_append(w, s, sizeof(s) - 1)
#define behave_jw_member_done(w)  (w)->first = 0

void behave_jw_value_string(behave_jw_t *w, const char *v);
/* a string of our own tables: printable ASCII, no '"' or '\\' to escape */
void behave_jw_value_label(behave_jw_t *w, const char *v);
void behave_jw_value_number(behave_jw_t *w, double v);
/* v rounded to three decimals, as behave_round3() */
void behave_jw_value_fixed3(behave_jw_t *w, double v);
/*
 * Members whose key is a label of our own (nothing to escape, as
 * behave_jw_value_label()): "key":behave_round3(v), the value as
 * behave_jw_value_fixed3() writes it; "key":v, an unsigned integer as
 * behave_jw_number() writes it.
 */
void behave_jw_fixed3(behave_jw_t *w, const char *key, double v);
void behave_jw_uint(behave_jw_t *w, const char *key, uint64_t v);


/* the tree as compact JSON, malloc()ed and NUL-terminated; NULL on OOM */
char *behave_json_print(const cJSON *item, size_t *len);

/* writes v into buf (at least 32 bytes) as JSON; returns the length */
size_t behave_json_number(char *buf, double v);

/*
 * writes v into buf (at least 32 bytes) as snprintf("%.*f", decimals, v)
 * does, byte for byte, for decimals 0..3; returns the length (no NUL)
 */
size_t behave_json_fixed(char *buf, double v, unsigned decimals);

/*
 * The raw bytes of the value of the first top-level member called name
 * in the JSON object text[0..len), as they were sent: what an echo must
 * copy rather than print again (a re-print turns 1e400 into null and 1.50
 * into 1.5).  Member names are compared after decoding their escapes.
 * The text must already be known to be valid JSON (parsed once): this
 * only walks it.  Returns 0 with *value and *value_len set, or -1 when
 * there is no such member.
 */
int behave_json_member_raw(const char *text, size_t len, const char *name,
    const char **value, size_t *value_len);

/* a value's raw bytes in a JSON text; p NULL when absent */
typedef struct {
    const char    *p;
    size_t         len;
} behave_json_span_t;

/*
 * The same for n names at once, in one walk of the top-level members and
 * without a tree (a body the module only checks or copies costs no
 * allocation): out[i] is the raw value of the first member named
 * names[i], or { NULL, 0 }.  A leading byte order mark is stepped over.
 * The text must already be known to be valid JSON (behave_json_check()).
 * Returns 0, or -1 when the text is not an object.
 */
int behave_json_members_raw(const char *text, size_t len,
    const char *const *names, size_t n, behave_json_span_t *out);


/*
 * Nonzero when none of the eight bytes needs a look in a string (a
 * control byte, '"' or '\\'): the bit tricks test all eight at once.
 * The printer copies such words unescaped, the strict scanner skips them.
 */
static inline int
behave_json_plain8(uint64_t x)
{
    uint64_t  q, bs, t;

    const uint64_t  ones = 0x0101010101010101ull;

    q = x ^ (ones * '"');
    bs = x ^ (ones * '\\');
    t = ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((bs - ones) & ~bs);

    return (t & (ones * 0x80)) == 0;
}


/*
 * Past the bytes of a string from p on that need no look (above): the
 * first one that does, or where fewer than eight are left before end.
 * Sixteen at a time where SSE2 is (every x86-64): a chat body is mostly
 * its texts, and eight at a time was half of its parse.
 */
static inline const unsigned char *
behave_json_plain_run(const unsigned char *p, const unsigned char *end)
{
    uint64_t  x;

#if defined(__SSE2__)
    int      m;
    __m128i  v, t;

    while (end - p >= 16) {
        v = _mm_loadu_si128((const __m128i *) p);

        /* '"', '\\', or a control byte (its top three bits clear) */
        t = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char) 0xe0)),
                               _mm_setzero_si128()));

        m = _mm_movemask_epi8(t);
        if (m != 0) {
            return p + __builtin_ctz((unsigned) m);
        }

        p += 16;
    }
#endif

    while (end - p >= 8) {
        memcpy(&x, p, 8);
        if (!behave_json_plain8(x)) {
            break;
        }
        p += 8;
    }

    return p;
}


#endif /* BEHAVE_JSON_H */
