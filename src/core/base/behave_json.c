/*
 * Copyright (C) ngx_http_behave_module authors
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/behave_json.h"


typedef behave_jw_t  behave_jbuf_t;


static void behave_json_item(behave_jbuf_t *b, const cJSON *item);
static void behave_json_string(behave_jbuf_t *b, const char *s);
static int behave_jbuf_grow(behave_jbuf_t *b, size_t n);
static inline int behave_jbuf_reserve(behave_jbuf_t *b, size_t n);
static inline void behave_jbuf_put(behave_jbuf_t *b, const char *s,
    size_t n);


char *
behave_json_print(const cJSON *item, size_t *len)
{
    behave_jbuf_t  b;

    if (!behave_jw_init(&b, 1024)) {
        return NULL;
    }

    behave_json_item(&b, item);

    return behave_jw_finish(&b, len);
}


int
behave_jw_init(behave_jw_t *w, size_t cap)
{
    w->cap = cap;
    w->len = 0;
    w->failed = 0;
    w->first = 1;
    w->buf = malloc(cap);

    return w->buf != NULL;
}


char *
behave_jw_finish(behave_jw_t *w, size_t *len)
{
    if (w->failed || !behave_jbuf_reserve(w, 1)) {
        free(w->buf);
        return NULL;
    }

    w->buf[w->len] = '\0';

    if (len != NULL) {
        *len = w->len;
    }

    return w->buf;
}


/* a comma unless first, and "key": when a key is given */

static void
behave_jw_key(behave_jw_t *w, const char *key)
{
    if (!w->first) {
        behave_jbuf_put(w, ",", 1);
    }

    w->first = 0;

    if (key != NULL) {
        behave_json_string(w, key);
        behave_jbuf_put(w, ":", 1);
    }
}


/* an object or an array ("{" or "["), whose first member takes no comma */

static void
behave_jw_begin(behave_jw_t *w, const char *key, const char *bracket)
{
    behave_jw_key(w, key);
    behave_jbuf_put(w, bracket, 1);
    w->first = 1;
}


/* its end: what follows is the next member of the enclosing one */

static void
behave_jw_end(behave_jw_t *w, const char *bracket)
{
    behave_jbuf_put(w, bracket, 1);
    w->first = 0;
}


void
behave_jw_open(behave_jw_t *w, const char *key)
{
    behave_jw_begin(w, key, "{");
}


void
behave_jw_open_array(behave_jw_t *w, const char *key)
{
    behave_jw_begin(w, key, "[");
}


void
behave_jw_close(behave_jw_t *w)
{
    behave_jw_end(w, "}");
}


void
behave_jw_close_array(behave_jw_t *w)
{
    behave_jw_end(w, "]");
}


void
behave_jw_string(behave_jw_t *w, const char *key, const char *v)
{
    behave_jw_key(w, key);
    behave_json_string(w, v);
}


void
behave_jw_number(behave_jw_t *w, const char *key, double v)
{
    char  num[32];

    behave_jw_key(w, key);
    behave_jbuf_put(w, num, behave_json_number(num, v));
}


void
behave_jw_bool(behave_jw_t *w, const char *key, int v)
{
    behave_jw_key(w, key);
    behave_jbuf_put(w, v ? "true" : "false", v ? 4 : 5);
}


void
behave_jw_item(behave_jw_t *w, const char *key, const cJSON *item)
{
    behave_jw_key(w, key);
    behave_json_item(w, item);
}


/* the common case stays inline: the buffer starts large enough */
static inline int
behave_jbuf_reserve(behave_jbuf_t *b, size_t n)
{
    if (b->len + n <= b->cap) {
        return 1;
    }

    return behave_jbuf_grow(b, n);
}


static int
behave_jbuf_grow(behave_jbuf_t *b, size_t n)
{
    char    *p;
    size_t   cap;

    if (b->failed) {
        return 0;
    }

    cap = b->cap * 2;
    while (cap < b->len + n) {
        cap *= 2;
    }

    p = realloc(b->buf, cap);
    if (p == NULL) {
        b->failed = 1;
        return 0;
    }

    b->buf = p;
    b->cap = cap;

    return 1;
}


static inline void
behave_jbuf_put(behave_jbuf_t *b, const char *s, size_t n)
{
    if (behave_jbuf_reserve(b, n)) {
        memcpy(b->buf + b->len, s, n);
        b->len += n;
    }
}


/*
 * Whole numbers up to 2^53 and numbers with at most six decimals are
 * written digit by digit; anything else as "%.17g" (exact round trip).
 * JSON has no NaN or infinity: they are written as null.
 */

size_t
behave_json_number(char *buf, double v)
{
    char      tmp[24];
    size_t    n, i, k;
    int64_t   whole, frac;
    double    scaled;
    int       neg;

    if (isnan(v) || isinf(v)) {
        memcpy(buf, "null", 4);
        return 4;
    }

    neg = v < 0;
    scaled = fabs(v) * 1e6;

    if (scaled >= 9007199254740992.0 || scaled != floor(scaled)) {
        if (fabs(v) < 9007199254740992.0 && v == floor(v)) {
            return (size_t) snprintf(buf, 32, "%.0f", v);
        }

        return (size_t) snprintf(buf, 32, "%.17g", v);
    }

    whole = (int64_t) scaled / 1000000;
    frac = (int64_t) scaled % 1000000;
    n = 0;

    if (neg && (whole || frac)) {
        buf[n++] = '-';
    }

    k = 0;
    do {
        tmp[k++] = (char) ('0' + whole % 10);
        whole /= 10;
    } while (whole);

    while (k) {
        buf[n++] = tmp[--k];
    }

    if (frac) {
        buf[n++] = '.';

        for (i = 0; i < 6; i++) {
            tmp[i] = (char) ('0' + frac % 10);
            frac /= 10;
        }

        /* tmp holds the six decimals backwards: skip trailing zeros */
        for (k = 0; k < 6 && tmp[k] == '0'; k++) {
            /* void */
        }

        for (i = 6; i > k; i--) {
            buf[n++] = tmp[i - 1];
        }
    }

    return n;
}


void
behave_jw_append_slow(behave_jw_t *w, const char *s, size_t n)
{
    behave_jbuf_put(w, s, n);
}


void
behave_jw_value_string(behave_jw_t *w, const char *v)
{
    behave_json_string(w, v);
}


void
behave_jw_value_label(behave_jw_t *w, const char *v)
{
    size_t  n;

    n = strlen(v);

    if (behave_jbuf_reserve(w, n + 2)) {
        w->buf[w->len] = '"';
        memcpy(w->buf + w->len + 1, v, n);
        w->buf[w->len + n + 1] = '"';
        w->len += n + 2;
    }
}


void
behave_jw_value_number(behave_jw_t *w, double v)
{
    char  num[32];

    behave_jbuf_put(w, num, behave_json_number(num, v));
}


/*
 * Integer arithmetic on thousandths: the value of behave_round3(v), in
 * at most three decimals, without the general case's work.
 */
void
behave_jw_value_fixed3(behave_jw_t *w, double v)
{
    char      buf[32], *p;
    double    x, d;
    int64_t   m;
    uint64_t  u;
    unsigned  frac;

    if (!(v > -9.0e12 && v < 9.0e12)) {
        behave_jw_value_number(w, v);
        return;
    }

    /* round(), half away from zero, without a call: x - m is exact */
    x = v * 1000.0;
    m = (int64_t) x;
    d = x - (double) m;
    m += (d >= 0.5) - (d <= -0.5);
    u = m < 0 ? (uint64_t) -m : (uint64_t) m;
    frac = (unsigned) (u % 1000);
    u /= 1000;

    p = buf + sizeof(buf);

    if (frac) {
        if (frac % 10 == 0) {
            frac /= 10;
            if (frac % 10 == 0) {
                frac /= 10;
                *--p = (char) ('0' + frac);
            } else {
                *--p = (char) ('0' + frac % 10);
                *--p = (char) ('0' + frac / 10);
            }
        } else {
            *--p = (char) ('0' + frac % 10);
            *--p = (char) ('0' + frac / 10 % 10);
            *--p = (char) ('0' + frac / 100);
        }

        *--p = '.';
    }

    do {
        *--p = (char) ('0' + u % 10);
        u /= 10;
    } while (u);

    if (m < 0) {
        *--p = '-';
    }

    behave_jbuf_put(w, p, (size_t) (buf + sizeof(buf) - p));
}


/*
 * printf's "%.Nf" costs ~2k instructions (a reason of analyze-behavior's
 * rule has one to three); integers do it for a few hundred.  printf
 * rounds the double's exact value, ties to even: fma() finds which side
 * of n + 0.5 that exact value is on (one rounding, so its sign is
 * exact), where v * scale rounded first could land on the wrong one.
 */
size_t
behave_json_fixed(char *buf, double v, unsigned decimals)
{
    int       i;
    char      tmp[32], *p;
    double    scale, r;
    uint64_t  n, u;

    static const double  scales[] = { 1.0, 10.0, 100.0, 1000.0 };

    /* the length written, not snprintf's untruncated one: callers copy
     * that many bytes out of their 32 */
    if (decimals > 3 || signbit(v) || !(v < 1.0e12)) {
        i = snprintf(buf, 32, "%.*f", (int) decimals, v);
        return i < 0 ? 0 : (size_t) (i > 31 ? 31 : i);
    }

    scale = scales[decimals];
    n = (uint64_t) (v * scale);

    /* n = floor(v * scale), exactly */
    while (fma(v, scale, -(double) (n + 1)) >= 0.0) {
        n++;
    }

    while (n > 0 && fma(v, scale, -(double) n) < 0.0) {
        n--;
    }

    r = fma(v, scale, -((double) n + 0.5));
    n += r > 0.0 || (r == 0.0 && (n & 1));

    p = tmp + sizeof(tmp);

    for (i = 0; i < (int) decimals; i++) {
        *--p = (char) ('0' + n % 10);
        n /= 10;
    }

    if (decimals) {
        *--p = '.';
    }

    u = n;

    do {
        *--p = (char) ('0' + u % 10);
        u /= 10;
    } while (u);

    memcpy(buf, p, (size_t) (tmp + sizeof(tmp) - p));

    return (size_t) (tmp + sizeof(tmp) - p);
}


static void
behave_jw_key_label(behave_jw_t *w, const char *key)
{
    if (!w->first) {
        behave_jbuf_put(w, ",", 1);
    }

    w->first = 0;
    behave_jw_value_label(w, key);
    behave_jbuf_put(w, ":", 1);
}


void
behave_jw_fixed3(behave_jw_t *w, const char *key, double v)
{
    behave_jw_key_label(w, key);
    behave_jw_value_fixed3(w, v);
}


void
behave_jw_uint(behave_jw_t *w, const char *key, uint64_t v)
{
    char  buf[24], *p;

    p = buf + sizeof(buf);

    do {
        *--p = (char) ('0' + v % 10);
        v /= 10;
    } while (v);

    behave_jw_key_label(w, key);
    behave_jbuf_put(w, p, (size_t) (buf + sizeof(buf) - p));
}


/*
 * Room for the worst case is made once (every byte as \u00XX), so that the
 * loops write straight into the buffer; most strings here are labels and
 * keys with nothing to escape, copied eight bytes at a time.
 */
static void
behave_json_string(behave_jbuf_t *b, const char *s)
{
    char                *o;
    size_t               n;
    uint64_t             x;
    unsigned char        c;
    const unsigned char *p, *end;

    static const char  hex[] = "0123456789abcdef";

    n = strlen(s);

    if (!behave_jbuf_reserve(b, n * 6 + 2)) {
        return;
    }

    o = b->buf + b->len;
    *o++ = '"';
    p = (const unsigned char *) s;
    end = p + n;

    while (p < end) {
        if (end - p >= 8) {
            memcpy(&x, p, 8);
            if (behave_json_plain8(x)) {
                memcpy(o, &x, 8);
                o += 8;
                p += 8;
                continue;
            }
        }

        c = *p++;

        if (c >= 0x20 && c != '"' && c != '\\') {
            *o++ = (char) c;
            continue;
        }

        *o++ = '\\';

        switch (c) {
        case '"':  *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\n': *o++ = 'n'; break;
        case '\r': *o++ = 'r'; break;
        case '\t': *o++ = 't'; break;
        default:
            *o++ = 'u';
            *o++ = '0';
            *o++ = '0';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 0xf];
        }
    }

    *o++ = '"';
    b->len = (size_t) (o - b->buf);
}


static void
behave_json_item(behave_jbuf_t *b, const cJSON *item)
{
    char          num[32];
    const cJSON  *c;

    switch (item->type & 0xff) {

    case cJSON_NULL:
        behave_jbuf_put(b, "null", 4);
        break;

    case cJSON_False:
        behave_jbuf_put(b, "false", 5);
        break;

    case cJSON_True:
        behave_jbuf_put(b, "true", 4);
        break;

    case cJSON_Number:
        behave_jbuf_put(b, num, behave_json_number(num, item->valuedouble));
        break;

    case cJSON_Raw:
        if (item->valuestring != NULL) {
            behave_jbuf_put(b, item->valuestring, strlen(item->valuestring));
        }
        break;

    case cJSON_String:
        behave_json_string(b, item->valuestring ? item->valuestring : "");
        break;

    case cJSON_Array:
        behave_jbuf_put(b, "[", 1);
        for (c = item->child; c; c = c->next) {
            behave_json_item(b, c);
            if (c->next) {
                behave_jbuf_put(b, ",", 1);
            }
        }
        behave_jbuf_put(b, "]", 1);
        break;

    case cJSON_Object:
        behave_jbuf_put(b, "{", 1);
        for (c = item->child; c; c = c->next) {
            behave_json_string(b, c->string ? c->string : "");
            behave_jbuf_put(b, ":", 1);
            behave_json_item(b, c);
            if (c->next) {
                behave_jbuf_put(b, ",", 1);
            }
        }
        behave_jbuf_put(b, "}", 1);
        break;

    default:
        b->failed = 1;
    }
}


#define behave_json_is_ws(c)  ((c) == ' ' || (c) == '\t' || (c) == '\n'    \
                               || (c) == '\r')


static const char *
behave_json_skip_ws(const char *p, const char *end)
{
    while (p < end && behave_json_is_ws(*p)) {
        p++;
    }

    return p;
}


/* p at a string's '"': returns what follows its closing '"', or NULL */
static const char *
behave_json_skip_string(const char *p, const char *end)
{
    for (p++; p < end; p++) {
        if (*p == '\\') {
            p++;

        } else if (*p == '"') {
            return p + 1;
        }
    }

    return NULL;
}


/* p at any value: returns what follows it, or NULL */
static const char *
behave_json_skip_value(const char *p, const char *end)
{
    size_t  depth;

    if (p >= end) {
        return NULL;
    }

    if (*p == '"') {
        return behave_json_skip_string(p, end);
    }

    if (*p != '{' && *p != '[') {
        while (p < end && *p != ',' && *p != '}' && *p != ']'
               && !behave_json_is_ws(*p))
        {
            p++;
        }

        return p;
    }

    /* brackets balance in valid JSON once strings are stepped over */
    depth = 0;

    while (p < end) {
        if (*p == '"') {
            p = behave_json_skip_string(p, end);
            if (p == NULL) {
                return NULL;
            }

            continue;
        }

        if (*p == '{' || *p == '[') {
            depth++;

        } else if ((*p == '}' || *p == ']') && --depth == 0) {
            return p + 1;
        }

        p++;
    }

    return NULL;
}


static int
behave_json_hex4(const char *p, unsigned *cp)
{
    int  i;

    *cp = 0;

    for (i = 0; i < 4; i++) {
        *cp <<= 4;

        if (p[i] >= '0' && p[i] <= '9') {
            *cp |= (unsigned) (p[i] - '0');

        } else if ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'f') {
            *cp |= (unsigned) ((p[i] | 0x20) - 'a' + 10);

        } else {
            return -1;
        }
    }

    return 0;
}


/*
 * Is the key string [p, q) (quotes included) equal to name once its
 * escapes are decoded?  name is ASCII, so a key with any non-ASCII
 * character, raw or escaped, is not it.
 */
static int
behave_json_key_is(const char *p, const char *q, const char *name)
{
    char         c;
    unsigned     cp;
    const char  *n, *e;

    static const char  esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";

    for (p++, q--, n = name; p < q; n++) {
        c = *p++;

        if (c == '\\') {
            c = *p++;

            if (c == 'u') {
                if (q - p < 4 || behave_json_hex4(p, &cp) != 0
                    || cp == 0 || cp >= 0x80)
                {
                    return 0;
                }

                c = (char) cp;
                p += 4;

            } else {
                e = strchr(esc, c);

                if (e == NULL || c == '\0' || (e - esc) % 2) {
                    return 0;
                }

                c = e[1];
            }
        }

        if (*n == '\0' || *n != c) {
            return 0;
        }
    }

    return *n == '\0';
}


int
behave_json_member_raw(const char *text, size_t len, const char *name,
    const char **value, size_t *value_len)
{
    behave_json_span_t  span;

    if (behave_json_members_raw(text, len, &name, 1, &span) != 0
        || span.p == NULL)
    {
        return -1;
    }

    *value = span.p;
    *value_len = span.len;

    return 0;
}


int
behave_json_members_raw(const char *text, size_t len,
    const char *const *names, size_t n, behave_json_span_t *out)
{
    size_t       i;
    const char  *p, *end, *key, *kend, *v;

    p = text;
    end = text + len;

    memset(out, 0, n * sizeof(behave_json_span_t));

    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
        p += 3;
    }

    p = behave_json_skip_ws(p, end);
    if (p == end || *p != '{') {
        return -1;
    }

    p = behave_json_skip_ws(p + 1, end);
    if (p < end && *p == '}') {
        return 0;
    }

    for ( ;; ) {
        if (p == end || *p != '"') {
            return -1;
        }

        key = p;
        kend = behave_json_skip_string(p, end);
        if (kend == NULL) {
            return -1;
        }

        p = behave_json_skip_ws(kend, end);
        if (p == end || *p != ':') {
            return -1;
        }

        v = behave_json_skip_ws(p + 1, end);

        p = behave_json_skip_value(v, end);
        if (p == NULL) {
            return -1;
        }

        for (i = 0; i < n; i++) {
            if (out[i].p == NULL && behave_json_key_is(key, kend, names[i])) {
                out[i].p = v;
                out[i].len = (size_t) (p - v);
                break;
            }
        }

        p = behave_json_skip_ws(p, end);
        if (p == end || *p == '}') {
            return 0;
        }

        if (*p != ',') {
            return -1;
        }

        p = behave_json_skip_ws(p + 1, end);
    }
}
