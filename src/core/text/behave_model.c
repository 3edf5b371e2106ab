/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The trained layer of the annotator (see behave_model.h).
 *
 * A feature is a 32-bit FNV-1a hash of a kind letter and its text ("u"
 * and a folded word, "p" and a stem...).  Serving looks each one up in the
 * compiled weight table and adds its row; training (a sink is set) lists
 * it instead.  Features the training never saw have no row and cost one
 * probe.  Nothing is allocated; all state is in behave_model_state_t.
 */

#include <math.h>
#include <pthread.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif
#include <stdio.h>
#include <string.h>
#include "text/behave_model.h"
#include "text/behave_model_data.h"
#include "behave_model_concepts.h"
#include "text/behave_model_int.h"


static size_t behave_fold(const char *s, size_t len, char *out);
static behave_cset_t behave_concepts_of(const char *w, size_t len, uint32_t u,
    unsigned *flags);
static behave_cset_t behave_elided(const char *w, size_t len);
static behave_cset_t behave_who_calls(const behave_model_state_t *m,
    const char *w, size_t len);
static behave_cset_t behave_self_kill(behave_model_state_t *m,
    behave_cset_t cs);
static behave_cset_t behave_false_friend(behave_model_state_t *m, const char *w,
    size_t len, behave_cset_t cs);
static void behave_feature_label(behave_model_state_t *m, char kind,
    const char *value, unsigned i);
static void behave_labels_init(void);
static void behave_label_set(unsigned i, char kind, const char *value);
static void behave_model_rules(behave_model_state_t *m,
    const behave_annotation_t *a);
static void behave_model_label(behave_model_state_t *m,
    behave_annotation_t *a);
static behave_cset_t behave_end_of_life(behave_model_state_t *m,
    behave_cset_t cs);
static void behave_model_claims(behave_model_state_t *m, behave_cset_t c,
    unsigned question);
static void behave_model_marks_clear(behave_model_state_t *m);
static void behave_meaning_flush(behave_model_state_t *m);
static void behave_model_claim_cues(const behave_model_state_t *m,
    behave_annotation_t *a);


/* the rules' conclusions as features (behave_model_rules): where each
 * list starts in behave_labels[] */
#define BEHAVE_LBL_V       0            /* 4 valence labels */
#define BEHAVE_LBL_U       4            /* 5 urgency */
#define BEHAVE_LBL_L       9            /* 4 load */
#define BEHAVE_LBL_E       13           /* 4 engagement */
#define BEHAVE_LBL_R       17           /* 4 register */
#define BEHAVE_LBL_BUCKET  21           /* 5 scores of 8 buckets */
#define BEHAVE_LBL_C       61           /* 16 cues */
#define BEHAVE_LBL_T       77           /* 8 cultural tags */
#define BEHAVE_LBL_Q       85           /* 6 question counts */
#define BEHAVE_LBL_W       91           /* 10 lengths */
#define BEHAVE_LBL_B       101          /* the bias */
#define BEHAVE_LBL_N       102

#define behave_label_index(first, v, n)                                     \
    ((unsigned) (v) < (n) ? (first) + (unsigned) (v) : BEHAVE_LBL_N)


typedef struct {
    uint32_t               f;           /* the feature's id */
    uint32_t               row;         /* its row + 1, 0 if none */
} behave_label_t;


static pthread_once_t  behave_labels_once = PTHREAD_ONCE_INIT;
static behave_label_t  behave_labels[BEHAVE_LBL_N];


static inline uint32_t
behave_fnv(uint32_t h, const char *s, size_t len)
{
    size_t  i;

    for (i = 0; i < len; i++) {
        h ^= (unsigned char) s[i];
        h *= BEHAVE_FNV_PRIME;
    }

    return h;
}


static inline uint32_t
behave_fnv_kind(char kind, const char *s, size_t len)
{
    uint32_t  h;

    h = (BEHAVE_FNV_INIT ^ (unsigned char) kind) * BEHAVE_FNV_PRIME;
    h = behave_fnv(h, s, len);

    return h ? h : 1;
}


/*
 * The lowest concept of *c, taken out of it: a set's concepts one by one
 * in increasing order at a few instructions each (a bit at a time over
 * 128 bits was a tenth of the weights' share of an annotation).
 */
static inline unsigned
behave_cset_pop(behave_cset_t *c)
{
    unsigned  i;
    uint64_t  lo;

    lo = (uint64_t) *c;
    i = lo ? (unsigned) __builtin_ctzll(lo)
           : 64 + (unsigned) __builtin_ctzll((uint64_t) (*c >> 64));
    *c &= *c - 1;

    return i;
}


/* behave_fnv_kind() of a C string, read once (no strlen() first) */
static inline uint32_t
behave_fnv_kind_str(char kind, const char *s)
{
    uint32_t  h;

    h = (BEHAVE_FNV_INIT ^ (unsigned char) kind) * BEHAVE_FNV_PRIME;

    while (*s) {
        h ^= (unsigned char) *s++;
        h *= BEHAVE_FNV_PRIME;
    }

    return h ? h : 1;
}


/* two features into one (word pairs, concept pairs) */
static inline uint32_t
behave_mix(uint32_t a, uint32_t b)
{
    uint32_t  x;

    x = a * 0x9e3779b1u + b;
    x ^= x >> 15;
    x *= 0x85ebca6bu;
    x ^= x >> 13;

    return x ? x : 1;
}


/*
 * Lowercase UTF-8 in, accents removed out: "é" reads "e", "ß" "ss", "œ"
 * "oe", so that "médicaments", "medicaments" and the concept list's
 * ASCII spelling meet.  Other letters (Greek, Cyrillic...) pass as they
 * are.
 */
static size_t
behave_fold(const char *s, size_t len, char *out)
{
    size_t          i, n;
    unsigned char   c, d;

    /* U+00C0..U+00FF as 0xC3 0x80..0xBF; lowercase only: upper folded */
    static const char  latin1[64] =
        "aaaaaaaceeeeiiii"  "dnooooo*ouuuuyts"
        "aaaaaaaceeeeiiii"  "dnooooo/ouuuuyty";

    n = 0;

    for (i = 0; i < len && n < BEHAVE_FOLD_MAX - 2; i++) {
        c = (unsigned char) s[i];

        if (c < 0x80 || i + 1 >= len) {
            out[n++] = (char) c;
            continue;
        }

        d = (unsigned char) s[i + 1];

        if (c == 0xc3 && d >= 0x80 && d <= 0xbf) {
            if (d == 0x9f) {                    /* ß */
                out[n++] = 's';
                out[n++] = 's';

            } else if (d == 0xa6 || d == 0x86) { /* æ */
                out[n++] = 'a';
                out[n++] = 'e';

            } else {
                out[n++] = latin1[d - 0x80];
            }

            i++;
            continue;
        }

        if (c == 0xc5 && (d == 0x93 || d == 0x92)) { /* œ */
            out[n++] = 'o';
            out[n++] = 'e';
            i++;
            continue;
        }

        out[n++] = (char) c;
    }

    out[n] = '\0';

    return n;
}


static inline behave_cset_t
behave_slot_concepts(const behave_concept_slot_t *s)
{
    return (behave_cset_t) s->mask_hi << 64 | s->mask_lo;
}


static const behave_concept_slot_t *
behave_concept_probe(uint32_t h, const char *w, size_t len, unsigned prefix)
{
    uint32_t                      i;
    const behave_concept_slot_t  *s;

    for (i = h & behave_concept_mask; ; i = (i + 1) & behave_concept_mask) {
        s = &behave_concept_slots[i];

        if (s->len == 0) {
            return NULL;
        }

        if (s->hash == h && s->len == len && s->prefix == prefix
            && memcmp(s->term, w, len) == 0)
        {
            return s;
        }
    }
}


/*
 * The word's exact entry, else its longest prefix entry; *flags gets the
 * exact entry's BEHAVE_WORD_* flags.  An exact entry is keyed by the
 * word's own feature id u ("u" and the word), which the caller has
 * already computed.
 */
static behave_cset_t
behave_concepts_of(const char *w, size_t len, uint32_t u, unsigned *flags)
{
    size_t                        k;
    uint32_t                      hp[32];
    const behave_concept_slot_t  *s;

    s = behave_concept_probe(u, w, len, 0);
    *flags = s != NULL ? s->flags : 0;

    /* a word listed for its flags alone may still match a prefix */
    if (s != NULL && (s->mask_lo | s->mask_hi) != 0) {
        return behave_slot_concepts(s);
    }

    if (len < 5) {
        return 0;
    }

    /* most words start like no prefix entry: one bit says so */
    k = behave_fnv(BEHAVE_FNV_INIT, w, 4) & 4095;
    if (!(behave_concept_prefix4[k >> 5] & (1u << (k & 31)))) {
        return 0;
    }

    hp[0] = (BEHAVE_FNV_INIT ^ '*') * BEHAVE_FNV_PRIME;
    for (k = 1; k < 32 && k <= len; k++) {
        hp[k] = (hp[k - 1] ^ (unsigned char) w[k - 1]) * BEHAVE_FNV_PRIME;
    }

    for (k = len < 31 ? len : 31; k >= 4; k--) {
        if (!(behave_concept_prefix_lens & (1u << k))) {
            continue;
        }

        s = behave_concept_probe(hp[k], w, k, 1);
        if (s != NULL) {
            return behave_slot_concepts(s);
        }
    }

    return 0;
}


/*
 * French elision: "l'agence", "j'ai", "qu'il" are the article or pronoun
 * and the word, each with its own concepts ("j'" is the writer)
 */
static behave_cset_t
behave_elided(const char *w, size_t len)
{
    size_t         k;
    unsigned       flags;
    behave_cset_t  rest;

    if (len > 3 && w[1] == '\'' && strchr("cdjlmnst", w[0]) != NULL) {
        k = 2;

    } else if (len > 4 && w[0] == 'q' && w[1] == 'u' && w[2] == '\'') {
        k = 3;

    } else {
        return 0;
    }

    rest = behave_concepts_of(w + k, len - k,
                              behave_fnv_kind('u', w + k, len - k), &flags);

    /* "je meurs d'envie de savoir": "of longing" is the idiom, not a wish */
    if (w[0] == 'd') {
        rest &= ~BEHAVE_C_WANT;
    }

    return rest | behave_concepts_of(w, k, behave_fnv_kind('u', w, k), &flags);
}


typedef struct {
    const char  *s;
    size_t       len;
} behave_word_t;

#define behave_word(w)  { w, sizeof(w) - 1 }


/*
 * "el que llama", "quem liga", "celui qui appelle": the one who calls is
 * the caller, as "caller" or "Anrufer" are ("I blocked the card but the
 * one calling says he needs the code now": the scam goes on).  The verb
 * alone is not ("se llama Ana" is a name, "ligar" also means to switch
 * on), so only after a relative pronoun.
 */
static behave_cset_t
behave_who_calls(const behave_model_state_t *m, const char *w, size_t len)
{
    size_t  i;

    /* at every word: lengths known, the first letter before memcmp() */
    static const behave_word_t  verbs[] = {
        behave_word("llama"), behave_word("llaman"), behave_word("llamaba"),
        behave_word("liga"), behave_word("ligam"), behave_word("ligou"),
        behave_word("appelle"), behave_word("appellent")
    };
    static const behave_word_t  who[] = {
        behave_word("que"), behave_word("quien"), behave_word("quem"),
        behave_word("qui")
    };

    if (len < 4 || (w[0] != 'l' && w[0] != 'a') || m->prev == 0) {
        return 0;
    }

    for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
        if (verbs[i].len == len && memcmp(verbs[i].s, w, len) == 0) {
            break;
        }
    }

    if (i == sizeof(verbs) / sizeof(verbs[0])) {
        return 0;
    }

    for (i = 0; i < sizeof(who) / sizeof(who[0]); i++) {
        if (m->prev == behave_fnv_kind('u', who[i].s, who[i].len)) {
            return BEHAVE_C_CALLER;
        }
    }

    return 0;
}


/* the row index + 1 of feature f in a table of slots, 0 if absent */
static inline uint32_t
behave_slot_find(const behave_model_slot_t *slots, uint32_t mask,
    uint32_t f)
{
    uint32_t  i;

    for (i = f & mask; slots[i].key != 0; i = (i + 1) & mask) {
        if (slots[i].key == f) {
            return slots[i].row;
        }
    }

    return 0;
}


static inline const int16_t *
behave_model_row(uint32_t f)
{
    uint32_t  r;

    r = behave_slot_find(behave_model_slots, behave_model_mask, f);

    return r ? behave_model_rows[r - 1] : NULL;
}


/* the stack's inputs: one bit each in a few 64-bit words */
static inline void
behave_stack_bit_set(uint64_t *set, unsigned b)
{
    set[b >> 6] |= (uint64_t) 1 << (b & 63);
}


static inline const int8_t *
behave_meaning_row(uint32_t f)
{
    uint32_t  r;

    r = behave_slot_find(behave_meaning_slots, behave_meaning_mask, f);

    return r ? behave_meaning_rows[r - 1] : NULL;
}


static void
behave_meaning_flush(behave_model_state_t *m)
{
    unsigned  k;

    for (k = 0; k < BEHAVE_MEANING_AXES; k++) {
        m->meaning[k] += m->meaning_run[k];
        m->meaning_run[k] = 0;
    }

    m->meaning_run_n = 0;
}


static inline void
behave_feature_row(behave_model_state_t *m, const int16_t *row)
{
    unsigned  k;

    if (row == NULL) {
        return;
    }

    for (k = 0; k < BEHAVE_MODEL_ROW; k++) {
        m->out[k] += row[k];
    }

    /* the padding's last int16: this feature is an input of the
     * critical stack (its sum in out[] is never read) */
    k = (uint16_t) row[BEHAVE_MODEL_ROW - 1];
    if (k != 0) {
        behave_stack_bit_set(m->stack, k - 1);
    }
}


/*
 * One feature: summed (serving) or listed with a readable name (training).
 * meaning: the feature also counts towards the meaning signature.
 */
void
behave_feature(behave_model_state_t *m, uint32_t f, int meaning,
    const char *fmt, const char *arg)
{
    unsigned        k;
    char            name[128];
    const int8_t   *v;

    if (m->claims_only) {
        return;
    }

    m->features++;

    if (m->sink != NULL) {
        snprintf(name, sizeof(name), fmt, arg);
        m->sink(m->sink_data, f, name);
        return;
    }

    behave_risk_feature(&m->risk, f);
    behave_feature_row(m, behave_model_row(f));

    if (meaning && !m->no_meaning) {
        v = behave_meaning_row(f);
        if (v != NULL) {
            for (k = 0; k < BEHAVE_MEANING_AXES; k++) {
                m->meaning_run[k] += v[k];
            }

            if (++m->meaning_run_n == BEHAVE_MEANING_RUN) {
                behave_meaning_flush(m);
            }
        }
    }
}


/*
 * Words that mean another thing in another language of the five: German
 * "die" is an article ("ich möchte die Rechnung"), German "will" wants;
 * Portuguese "até" is "until" and "sim" is "yes".  Once the message has
 * shown its language by one of that language's commonest words, such a
 * word takes that language's sense.  English "die" also needs an English
 * word before it ("to die", "I'll die", "just die"), as German puts the
 * article after verbs and prepositions that English does not have.
 */
static behave_cset_t
behave_false_friend(behave_model_state_t *m, const char *w, size_t len,
    behave_cset_t cs)
{
    switch (len) {

    case 3:
        if (memcmp(w, "die", 3) == 0
            && (m->lang_de || !(m->prev_flags & BEHAVE_WORD_TODIE)))
        {
            return cs & ~BEHAVE_C_DIE;
        }

        if (m->lang_pt && memcmp(w, "ate", 3) == 0) {
            return cs & ~BEHAVE_C_SWALLOW;
        }

        if (m->lang_pt && memcmp(w, "sim", 3) == 0) {
            return cs & ~BEHAVE_C_ACCOUNT;
        }

        break;

    case 4:
        if (m->lang_de && memcmp(w, "will", 4) == 0) {
            return cs | BEHAVE_C_WANT;
        }

        break;
    }

    return cs;
}


/*
 * "end my life", "acabar con mi vida", "meinem Leben ein Ende": an END
 * word and a LIVE word at most three words apart; "the end of my
 * subscription is near, my life is easier" is not one
 */
static behave_cset_t
behave_end_of_life(behave_model_state_t *m, behave_cset_t cs)
{
    behave_cset_t  near;

    near = 0;

    if ((cs & BEHAVE_C_LIVE) && m->end_at && m->words - m->end_at <= 3) {
        near = BEHAVE_C_ENDLIFE;
    }

    if ((cs & BEHAVE_C_END) && m->live_at && m->words - m->live_at <= 3) {
        near = BEHAVE_C_ENDLIFE;
    }

    m->end_at = (cs & BEHAVE_C_END) ? m->words : m->end_at;
    m->live_at = (cs & BEHAVE_C_LIVE) ? m->words : m->live_at;

    return near;
}


/*
 * SELFKILL: the writer kills, hangs or throws themself: an ACT word with
 * "me" or "mich" at most three words before it and no one else as the
 * subject next to them ("hoy me mato", "vou me matar", "je vais me
 * tuer", "ich werde mich umbringen", not "ele vai me matar", "me va a
 * matar"), or with "myself" at most two words after it; not right after
 * a negation ("I'm not going to kill myself")
 */
static behave_cset_t
behave_self_kill(behave_model_state_t *m, behave_cset_t cs)
{
    unsigned  self;

    self = 0;

    if ((cs & BEHAVE_C_ACT) && m->reflb_at && m->words - m->reflb_at <= 3
        && (m->third_at == 0 || m->third_at + 2 < m->reflb_at))
    {
        self = 1;
    }

    if ((cs & BEHAVE_C_REFLA) && m->act_at && m->words - m->act_at <= 2) {
        self = 1;
    }

    m->act_at = (cs & BEHAVE_C_ACT) ? m->words : m->act_at;
    m->reflb_at = (cs & BEHAVE_C_REFLB) ? m->words : m->reflb_at;
    m->third_at = (cs & BEHAVE_C_THIRD) ? m->words : m->third_at;

    return (self && m->since_neg > 3) ? BEHAVE_C_SELFKILL : 0;
}




void
behave_model_init(behave_model_state_t *m)
{
    memset(m, 0, sizeof(behave_model_state_t));
}


void
behave_model_word(behave_model_state_t *m, const behave_token_t *t)
{
    size_t       n;
    uint32_t     u;
    behave_cset_t  cs;
    unsigned       flags;
    const char  *s;
    char         w[BEHAVE_FOLD_MAX];

    s = t->alt_len ? t->alt : t->text;
    n = behave_fold(s, t->alt_len ? t->alt_len : t->len, w);

    if (n == 0) {
        return;
    }

    m->words++;
    if (m->words == 1) {
        m->since_neg = 100;
        m->since_notyet = 100;
        m->since_done = 100;
    }

    u = behave_fnv_kind('u', w, n);
    behave_feature(m, u, 1, "u:%s", w);

    if (!m->claims_only) {
        behave_risk_word(&m->risk, w, n);
    }

    if (n > BEHAVE_STEM + 1) {
        behave_feature(m, behave_fnv_kind('p', w, BEHAVE_STEM), 1,
                       "p:%.5s", w);
    }

    if (m->prev) {
        behave_feature(m, behave_mix(m->prev, u), 0, "b:%s", w);
    }

    cs = behave_concepts_of(w, n, u, &flags) | behave_elided(w, n)
         | behave_who_calls(m, w, n);

    m->prev = u;

    m->lang_de += (flags & BEHAVE_WORD_DE) != 0;
    m->lang_pt += (flags & BEHAVE_WORD_PT) != 0;

    if (flags & BEHAVE_WORD_FRIEND) {
        cs = behave_false_friend(m, w, n, cs);
    }

    m->prev_flags = flags;
    m->cues |= cs & BEHAVE_CUE_CONCEPTS;
    cs &= ~BEHAVE_CUE_CONCEPTS;
    m->clause |= cs | behave_end_of_life(m, cs) | behave_self_kill(m, cs);
    /* laughter as written: "kkkk" is "kk" in text, "k" in alt */
    behave_idiom_word(m, t->text, t->len, cs, flags);

    if (flags & (BEHAVE_WORD_WELL | BEHAVE_WORD_HURT | BEHAVE_WORD_ALREADY
                 | BEHAVE_WORD_STOPPED))
    {
        behave_well(m, w, n, flags);
    }

    /*
     * "not fixed", "no ha sido resuelto": a negation just before; "to be
     * refunded", "can be reset", "wird erstattet": ahead, not settled
     */
    /*
     * "reset" is a past, a present, an imperative and a noun: a claim only
     * as a deed, after "I", "we" or an auxiliary ("I've reset it", "I've
     * gone ahead and reset it"), not in "Reset your router" or "hold the
     * reset button"
     */
    if ((cs & BEHAVE_C_CLAIM) && n == 5 && memcmp(w, "reset", 5) == 0
        && m->since_done > 4 && !m->prev_we)
    {
        cs &= ~BEHAVE_C_CLAIM;
    }

    m->prev_we = (n == 1 && w[0] == 'i') || (n == 2 && memcmp(w, "we", 2) == 0);

    if (cs & BEHAVE_C_CLAIM) {
        if (m->since_neg <= 3) {
            m->claim_negated = 1;
        } else if (m->since_notyet > 1) {
            m->claim_said++;
            m->claim_at = m->words;
            m->claim_firm |= m->since_done <= 2;
        } else {
            m->claim_ahead = 1;
        }
    }

    /*
     * "o estorno pode levar 7 dias", "le remboursement sera effectué",
     * "el reembolso tarda": a settled-state noun right before "will",
     * "can", "sera", "takes" names what is ahead ("credited to your
     * account" is not: "to" is no modal)
     */
    if ((flags & BEHAVE_WORD_MODAL) && m->claim_said
        && m->claim_at + 1 == m->words)
    {
        m->claim_said--;
        m->claim_ahead = 1;
    }

    m->since_neg = (cs & BEHAVE_C_NEG) ? 0 : m->since_neg + 1;
    m->since_notyet = (flags & BEHAVE_WORD_NOTYET) ? 0 : m->since_notyet + 1;
    m->since_done = (flags & BEHAVE_WORD_DONE) ? 0 : m->since_done + 1;

    /*
     * "refunds are usually processed within 5 days" states a rule; "your
     * refund has been processed and should appear within 5 days" reports
     * a deed first, and the time it names is the bank's
     */
    if ((flags & BEHAVE_WORD_GENERIC) && !m->claim_firm) {
        m->claim_generic = 1;
    }

    /*
     * "where is it", "¿dónde está?", "wo ist es", "ok but when does it
     * come" without a '?': a question word opening a clause or after "but"
     */
    if ((m->clause_words++ == 0 || m->after_contrast)
        && (cs & BEHAVE_C_QWORD))
    {
        m->asks++;
    }

    m->after_contrast = (cs & BEHAVE_C_CONTRAST) != 0;
}


void
behave_model_symbol(behave_model_state_t *m, const behave_token_t *t)
{
    char      kind;
    unsigned  flags;

    switch (t->type) {

    case BEHAVE_TOK_EMOJI:
    case BEHAVE_TOK_EMOTICON:
        behave_feature(m, behave_fnv_kind('e', t->text, t->len), 0,
                       "e:%s", t->text);
        m->prev = 0;

        /* 😂 🤣 😅 😆 😹, "xD", ":D": laughter (behave_idiom_word) */
        if (t->cp == 0x1f602 || t->cp == 0x1f923 || t->cp == 0x1f605
            || t->cp == 0x1f606 || t->cp == 0x1f639
            || (t->len == 2 && (t->text[0] == 'x' || t->text[0] == 'X')
                && (t->text[1] == 'D' || t->text[1] == 'd'))
            || (t->len == 2 && t->text[0] == ':' && t->text[1] == 'D'))
        {
            m->idiom |= BEHAVE_IDIOM_LAUGH;
        }
        return;

    case BEHAVE_TOK_NUMBER:
        /* emergency numbers are concepts; other numbers by their size */
        m->clause |= behave_concepts_of(t->text, t->len,
                                        behave_fnv_kind('u', t->text, t->len),
                                        &flags);
        kind = t->len < 3 ? '1' : (t->len < 5 ? '3' : '5');
        behave_feature(m, behave_fnv_kind('n', &kind, 1), 0, "n:%s",
                       kind == '1' ? "short" : (kind == '3' ? "mid" : "long"));
        m->prev = 0;
        return;

    case BEHAVE_TOK_PUNCT:
        if (t->cp == '.' || t->cp == '!' || t->cp == '?' || t->cp == ';') {
            behave_model_clause_end(m, t->cp == '?');

        } else if (t->cp == ',') {
            /* "Já pode acessar, desbloqueamos o acesso", "No problem,
             * I've refunded it": "can" and "no" do not reach over a
             * comma to the next phrase's settled state */
            m->since_notyet = 100;
            m->since_neg = 100;
            m->claim_at = 0;
            behave_model_marks_clear(m);
        }
        return;

    case BEHAVE_TOK_NEWLINE:
        behave_model_clause_end(m, 0);
        return;

    default:
        return;
    }
}


/*
 * The claim and denial cues of the conversation logic, in every language
 * of the concept list, clause by clause: a statement (not a question, no
 * "if", not a rule: "refunds are usually processed within 5 days") that
 * names a settled state, not just after a negation, is a claim; "still",
 * "again", "the same", or a negated "works", "arrived" or settled state
 * is a denial.
 */
static void
behave_model_claims(behave_model_state_t *m, behave_cset_t c,
    unsigned question)
{
    if (m->claim_said && !(c & BEHAVE_C_HYPO) && !question
        && !m->claim_generic)
    {
        m->claims++;

    } else if (m->claim_ahead || (m->claim_said && m->claim_generic)) {
        m->claims_held++;
    }

    if ((c & BEHAVE_C_STILL) || m->claim_negated
        || ((c & BEHAVE_C_NEG) && (c & (BEHAVE_C_WORK | BEHAVE_C_CHANGED))))
    {
        m->denials++;
    }

    m->claim_said = 0;
    m->claim_firm = 0;
    m->claim_negated = 0;
    m->claim_generic = 0;
    m->claim_ahead = 0;
}




/*
 * Where the last death, thing, symptom, "almost" and role words stood: a
 * comma or a clause end forgets them, so that none reaches the next
 * phrase.
 */
static void
behave_model_marks_clear(behave_model_state_t *m)
{
    m->death_at = 0;
    m->thing_at = 0;
    m->symptom_at = 0;
    m->almost_at = 0;
    m->role_at = 0;
    m->role_kill_at = 0;
}


/*
 * The frames: every pair of concepts that met in the clause.  A clause is
 * what lies between sentence marks, so a transcript without punctuation
 * is one clause and pairs more freely: the weights were trained so.
 */
void
behave_model_clause_end(behave_model_state_t *m, unsigned question)
{
    unsigned       i, j, idiom;
    behave_cset_t  c, rest;
    char           name[48];

    c = m->clause;
    idiom = m->idiom;
    m->prev = 0;
    m->after_contrast = 0;
    m->idiom_seen |= idiom;
    m->idiom = 0;
    behave_model_marks_clear(m);
    m->joke_at = 0;
    m->drive_at = 0;
    m->vehicles = 0;

    if (c == 0) {
        return;
    }

    behave_model_claims(m, c, question);
    behave_model_frames(m, c, 0, idiom);
    m->asks += question;
    m->clauses++;
    m->clause_words = 0;

    m->seen |= c;
    m->clause = 0;

    if (m->claims_only) {
        return;
    }

    /* every pair i < j of the clause's concepts, in that order */
    while (c) {
        i = behave_cset_pop(&c);

        for (rest = c; rest; /* void */) {
            j = behave_cset_pop(&rest);

            if (m->sink != NULL) {
                snprintf(name, sizeof(name), "%s+%s",
                         behave_concept_names[i], behave_concept_names[j]);
            }

            behave_feature(m, behave_mix(0x70000000u | i, j), 0, "f:%s",
                           m->sink != NULL ? name : "");
        }
    }
}


/*
 * The rules' conclusions as features: a kind letter and a name from a
 * short list (the labels, eight buckets, a letter a cue...), so their
 * ids and rows are looked up once per process (behave_model_tables_init)
 * and read by index; a message's language is hashed as it comes.
 */
static void
behave_labels_init(void)
{
    unsigned     i;
    char         buf[2];
    const char  *bucket = "vxlgf";

    for (i = 0; i < 4; i++) {
        behave_label_set(BEHAVE_LBL_V + i, 'V', behave_valence_name(i));
        behave_label_set(BEHAVE_LBL_L + i, 'L', behave_load_name(i));
        behave_label_set(BEHAVE_LBL_E + i, 'E', behave_engagement_name(i));
        behave_label_set(BEHAVE_LBL_R + i, 'R', behave_register_name(i));
    }

    for (i = 0; i < 5; i++) {
        behave_label_set(BEHAVE_LBL_U + i, 'U', behave_urgency_name(i));
    }

    for (i = 0; i < 5 * 8; i++) {
        buf[0] = (char) ('0' + i % 8);
        buf[1] = '\0';
        behave_label_set(BEHAVE_LBL_BUCKET + i, bucket[i / 8], buf);
    }

    for (i = 0; i < 16; i++) {
        buf[0] = (char) ('a' + i);
        buf[1] = '\0';
        behave_label_set(BEHAVE_LBL_C + i, 'C', buf);

        if (i < 8) {
            behave_label_set(BEHAVE_LBL_T + i, 'T', buf);
        }

        if (i < 6) {
            behave_label_set(BEHAVE_LBL_Q + i, 'Q', buf);
        }

        if (i < 10) {
            behave_label_set(BEHAVE_LBL_W + i, 'W', buf);
        }
    }

    behave_label_set(BEHAVE_LBL_B, 'B', "bias");
}


static void
behave_label_set(unsigned i, char kind, const char *value)
{
    behave_labels[i].f = behave_fnv_kind_str(kind, value);
    behave_labels[i].row = behave_slot_find(behave_model_slots,
                                            behave_model_mask,
                                            behave_labels[i].f);
}


void
behave_model_tables_init(void)
{
    (void) pthread_once(&behave_labels_once, behave_labels_init);
    behave_model_stack_init();
}


/* label i of the list (BEHAVE_LBL_N: none, as a message's language) */
static void
behave_feature_label(behave_model_state_t *m, char kind, const char *value,
    unsigned i)
{
    char                    name[40];
    const behave_label_t   *l;

    if (m->sink != NULL) {
        snprintf(name, sizeof(name), "%c=%s", kind, value);
        behave_feature(m, behave_fnv_kind_str(kind, value), 0, "r:%s",
                       name);
        return;
    }

    if (i >= BEHAVE_LBL_N) {
        behave_feature(m, behave_fnv_kind_str(kind, value), 0, "r:%s", "");
        return;
    }

    /* behave_feature() of a feature without meaning, its row known */
    if (m->claims_only) {
        return;
    }

    l = &behave_labels[i];
    m->features++;
    behave_risk_feature(&m->risk, l->f);
    behave_feature_row(m, l->row ? behave_model_rows[l->row - 1] : NULL);
}


static unsigned
behave_bucket(double v, double lo, double hi)
{
    int  k;

    k = (int) floor((v - lo) / (hi - lo) * 8);

    return k < 0 ? 0 : (k > 7 ? 7 : k);
}


static unsigned
behave_log2_bucket(unsigned n)
{
    unsigned  k;

    for (k = 0; n; k++) {
        n >>= 1;
    }

    return k;
}


/* what the rules concluded, as features the weights can lean on */
static void
behave_model_rules(behave_model_state_t *m, const behave_annotation_t *a)
{
    unsigned  i, k;
    char      buf[24];

    static const char  *const names[] = { "0", "1", "2", "3", "4", "5",
                                          "6", "7" };

    (void) pthread_once(&behave_labels_once, behave_labels_init);

    behave_feature_label(m, 'V', behave_valence_name(a->valence),
                         behave_label_index(BEHAVE_LBL_V, a->valence, 4));
    behave_feature_label(m, 'U', behave_urgency_name(a->urgency),
                         behave_label_index(BEHAVE_LBL_U, a->urgency, 5));
    behave_feature_label(m, 'L', behave_load_name(a->cognitive_load),
                         behave_label_index(BEHAVE_LBL_L, a->cognitive_load,
                                            4));
    behave_feature_label(m, 'E', behave_engagement_name(a->engagement),
                         behave_label_index(BEHAVE_LBL_E, a->engagement, 4));
    behave_feature_label(m, 'R', behave_register_name(a->social_register),
                         behave_label_index(BEHAVE_LBL_R,
                                            a->social_register, 4));

    k = behave_bucket(a->scores.valence, -1, 1);
    behave_feature_label(m, 'v', names[k], BEHAVE_LBL_BUCKET + k);
    k = behave_bucket(a->scores.urgency, 0, 1);
    behave_feature_label(m, 'x', names[k], BEHAVE_LBL_BUCKET + 8 + k);
    k = behave_bucket(a->scores.cognitive_load, 0, 1);
    behave_feature_label(m, 'l', names[k], BEHAVE_LBL_BUCKET + 16 + k);
    k = behave_bucket(a->scores.engagement, 0, 1);
    behave_feature_label(m, 'g', names[k], BEHAVE_LBL_BUCKET + 24 + k);
    k = behave_bucket(a->scores.formality, 0, 1);
    behave_feature_label(m, 'f', names[k], BEHAVE_LBL_BUCKET + 32 + k);

    for (i = 0; i < 16; i++) {
        if (a->cues & (1u << i)) {
            buf[0] = 'a' + i;
            buf[1] = '\0';
            behave_feature_label(m, 'C', buf, BEHAVE_LBL_C + i);
        }
    }

    for (i = 0; i < 8; i++) {
        if (a->cultural & (1u << i)) {
            buf[0] = 'a' + i;
            buf[1] = '\0';
            behave_feature_label(m, 'T', buf, BEHAVE_LBL_T + i);
        }
    }

    if (a->cultural & BEHAVE_CULT_NON_ENGLISH) {
        behave_feature_label(m, 'G', a->language, BEHAVE_LBL_N);
    }

    k = behave_log2_bucket(m->asks);
    k = k > 5 ? 5 : k;
    buf[0] = 'a' + k;
    buf[1] = '\0';
    behave_feature_label(m, 'Q', buf, BEHAVE_LBL_Q + k);

    k = behave_log2_bucket(m->words);
    k = k > 9 ? 9 : k;
    buf[0] = 'a' + k;
    buf[1] = '\0';
    behave_feature_label(m, 'W', buf, BEHAVE_LBL_W + k);

    behave_feature_label(m, 'B', "bias", BEHAVE_LBL_B);
}


static unsigned
behave_argmax(const float *v, unsigned n)
{
    unsigned  i, best;

    best = 0;

    for (i = 1; i < n; i++) {
        if (v[i] > v[best]) {
            best = i;
        }
    }

    return best;
}


/*
 * The valence score (-1..1) the rules computed, averaged with the valence
 * head's P(positive) - P(negative): it agrees with the label more often
 * and follows human ratings closer (tweets r 0.861 -> 0.874); a
 * conversation turn's severity reads it.
 */
static double
behave_model_valence_score(behave_model_state_t *m, double rules)
{
    unsigned  i;
    float     p[4], top, sum;

    top = m->logit[BEHAVE_MODEL_VAL];
    for (i = 1; i < 4; i++) {
        if (m->logit[BEHAVE_MODEL_VAL + i] > top) {
            top = m->logit[BEHAVE_MODEL_VAL + i];
        }
    }

    sum = 0;
    for (i = 0; i < 4; i++) {
        p[i] = expf(m->logit[BEHAVE_MODEL_VAL + i] - top);
        sum += p[i];
    }

    return BEHAVE_MODEL_VAL_BLEND * rules
           + (1 - BEHAVE_MODEL_VAL_BLEND)
             * (p[BEHAVE_VALENCE_POSITIVE] - p[BEHAVE_VALENCE_NEGATIVE]) / sum;
}


/*
 * lrintf() without its call: SSE's conversion is what glibc's lrintf()
 * runs on x86-64, in the same rounding mode (64 calls a message, a
 * tenth of the signature's packing when called)
 */
static inline long
behave_round(float x)
{
#if defined(__SSE__)
    return _mm_cvtss_si32(_mm_set_ss(x));
#else
    return lrintf(x);
#endif
}


/*
 * The summed meaning, scaled so that its largest axis is +-7 (the cosine
 * does not see the scale), rounded to 4 bits and packed two to a byte.
 */
static void
behave_meaning_pack(const int32_t *sum, int8_t *out)
{
    unsigned  i;
    int32_t   top, v;
    long      q[2];
    float     scale;

    top = 0;
    for (i = 0; i < BEHAVE_MEANING_AXES; i++) {
        v = sum[i] < 0 ? -sum[i] : sum[i];
        top = v > top ? v : top;
    }

    if (top == 0) {
        memset(out, 0, BEHAVE_MEANING_DIM);
        return;
    }

    scale = (float) BEHAVE_MEANING_MAX / (float) top;

    for (i = 0; i < BEHAVE_MEANING_DIM; i++) {
        q[0] = behave_round((float) sum[2 * i] * scale);
        q[1] = behave_round((float) sum[2 * i + 1] * scale);
        out[i] = (int8_t) (uint8_t) ((q[0] & 0x0f) | ((q[1] & 0x0f) << 4));
    }
}


int
behave_meaning_axis(const int8_t *s, unsigned i)
{
    unsigned  b;

    b = (uint8_t) s[i >> 1];
    b = (i & 1) ? b >> 4 : b & 0x0f;

    return (int) b - (int) ((b & 0x08) << 1);
}


/* someone came through unharmed, or a loss is already stopped, and no
 * guard word (a method, a weapon, money still going) undoes it */
static unsigned
behave_model_clear(const behave_model_state_t *m)
{
    return (m->well && !(m->seen & BEHAVE_C_WELL_GUARD))
           || (m->stopped && !(m->seen & BEHAVE_C_STOP_GUARD));
}


static void
behave_model_label(behave_model_state_t *m, behave_annotation_t *a)
{
    float     stack, head;
    unsigned  clear, call;

    a->valence = behave_argmax(m->logit + BEHAVE_MODEL_VAL, 4);
    a->valence_blend = behave_model_valence_score(m, a->scores.valence);
    a->cognitive_load = behave_argmax(m->logit + BEHAVE_MODEL_LOAD, 4);
    a->engagement = behave_argmax(m->logit + BEHAVE_MODEL_ENG, 4);

    /*
     * critical is the risk head's call when it is compiled in: the
     * frames, idioms and all-clears are among its features, not
     * overrides after it, so that one calibrated score decides.  Without
     * it, the critical head and its stack, or a crisis frame; with an
     * idiom or an all-clear, the head itself must be sure as well as the
     * stack, and an all-clear turns the frames off.  Below critical the
     * urgency head chooses among the other four levels.
     */
    clear = behave_model_clear(m);
    stack = behave_model_stack(m);
    head = m->logit[BEHAVE_MODEL_CRIT];
    call = (m->frames && !clear)
           || (stack > 0
               && ((!m->idioms && !clear) || head > BEHAVE_IDIOM_MARGIN));

    a->risk_inputs[0] = (float) call;
    a->risk_inputs[1] = fminf(fmaxf(head / 8.0f, -1.0f), 1.0f);
    a->risk_inputs[2] = fminf(fmaxf(stack / 4.0f, -1.0f), 1.0f);
    a->risk_inputs[3] = (float) (m->frames && !clear);
    a->scores.risk = behave_risk_score(&m->risk, a->risk_inputs);

    if (behave_risk_present()
        ? a->scores.risk >= behave_risk_default_threshold() : call)
    {
        a->urgency = BEHAVE_URGENCY_CRITICAL;
        a->cues |= BEHAVE_CUE_CRISIS;

    } else {
        a->urgency = behave_argmax(m->logit + BEHAVE_MODEL_URG, 4);
        a->cues &= ~BEHAVE_CUE_CRISIS;
    }

    /*
     * The crisis register is distress in an emergency (labels.md): below
     * critical urgency it is not chosen (867 of the 868 crisis-register
     * development messages are critical; out of fold, register exact
     * accuracy 0.801 -> 0.803, within one 0.848 -> 0.851)
     */
    a->social_register = behave_argmax(m->logit + BEHAVE_MODEL_REG,
                                       a->urgency == BEHAVE_URGENCY_CRITICAL
                                       ? 4 : 3);

    behave_meaning_flush(m);
    behave_meaning_pack(m->meaning, a->meaning);
}


/* these only add to the rules' own (English phrase) cues */
static void
behave_model_claim_cues(const behave_model_state_t *m,
    behave_annotation_t *a)
{
    if (m->claims) {
        a->cues |= BEHAVE_CUE_RESOLUTION_CLAIM;

    } else if (m->claims_held) {
        /* the rules' English phrases do not see "usually" or "to be" */
        a->cues &= ~BEHAVE_CUE_RESOLUTION_CLAIM;
        a->cues |= BEHAVE_CUE_CLAIM_HELD;
    }
}


void
behave_model_finish(behave_model_state_t *m, behave_annotation_t *a)
{
    unsigned       i, labelled;
    behave_cset_t  c;

    behave_model_clause_end(m, 0);

    /* the claims are the concepts', read by now; no weight decides them */
    if (m->claims_only) {
        behave_model_claim_cues(m, a);
        return;
    }

    /*
     * "Ex outside. Knife. Please.", "cant breathe. peanuts. help": a short
     * message says one thing in fragments, so its clauses are read as one
     */
    if (m->clauses > 1 && m->words <= BEHAVE_SHORT_WORDS) {
        behave_model_frames(m, m->seen, BEHAVE_FRAME_SPLIT, m->idiom_seen);
    }

    if (m->clauses > 1) {
        behave_model_frames(m, m->seen, BEHAVE_FRAME_MESSAGE,
                            m->idiom_seen);
    }

    for (c = m->seen; c; /* void */) {
        i = behave_cset_pop(&c);
        behave_feature(m, behave_mix(0x60000000u, i), 1, "c:%s",
                       behave_concept_names[i]);
    }

    /* the cues of the graded dimensions ("today", "Dear", "lol") say how
     * a thing is asked, not what: no part of the meaning signature (and
     * named "k:", which scripts/train leaves out of it) */
    for (c = m->cues; c; /* void */) {
        i = behave_cset_pop(&c);
        behave_feature(m, behave_mix(0x60000000u, i), 0, "k:%s",
                       behave_concept_names[i]);
    }

    for (i = 0; m->frames >> i; i++) {
        if (m->frames & ((uint64_t) 1 << i)) {
            behave_feature(m, behave_mix(0x50000000u, i), 0, "F:%s",
                           behave_frames[i].name);
        }
    }

    /* the risk head's own inputs: an all-clear, an idiom, the length */
    if (behave_model_clear(m)) {
        behave_feature(m, behave_mix(0x70000000u, 1), 0, "R:%s", "clear");
    }

    if (m->idioms) {
        behave_feature(m, behave_mix(0x70000000u, 2), 0, "R:%s", "idiom");
    }

    behave_risk_length(&m->risk, m->words);

    behave_model_rules(m, a);

    /* nothing read (empty text, only symbols): the rules' labels stand */
    labelled = m->sink == NULL && behave_model_n != 0 && m->words != 0;

    /* without a label from the weights (no model, nothing read): the
     * features alone; with one, the label's score replaces it, unread
     * (the score and its network: some 1,000 instructions) */
    memset(a->risk_inputs, 0, sizeof(a->risk_inputs));

    if (!labelled) {
        a->scores.risk = behave_risk_score(&m->risk, a->risk_inputs);
    }

    memset(a->meaning, 0, sizeof(a->meaning));
    a->valence_blend = a->scores.valence;

    behave_model_claim_cues(m, a);

    if (m->seen & BEHAVE_C_CONTRAST) {
        a->cues |= BEHAVE_CUE_CONTRAST;
    }

    if (m->asks) {
        a->cues |= BEHAVE_CUE_ASKS;
    }

    if (labelled) {
        for (i = 0; i < BEHAVE_MODEL_OUT; i++) {
            m->logit[i] = m->out[i] * behave_model_scale;
        }

        behave_model_label(m, a);

    } else if (behave_risk_present()) {
        /* the rules' labels stand, but critical is still the risk's */
        if (a->scores.risk >= behave_risk_default_threshold()) {
            a->urgency = BEHAVE_URGENCY_CRITICAL;

        } else if (a->urgency == BEHAVE_URGENCY_CRITICAL) {
            a->urgency = BEHAVE_URGENCY_HIGH;
        }
    }

    /*
     * On the final valence, not the rules' alone: "I still love the app"
     * denies nothing, but a letter that says no payment was received and
     * that "I should be grateful" for a reference does, and so does a
     * thanks turned round ("thanks, but it's the same", "unfortunately")
     */
    if (m->denials) {
        a->cues |= BEHAVE_CUE_PERSISTS;
    }

    if (m->denials
        && (a->valence != BEHAVE_VALENCE_POSITIVE
            || (m->seen & (BEHAVE_C_CONTRAST | BEHAVE_C_ALAS))))
    {
        a->cues |= BEHAVE_CUE_NOT_RESOLVED;
    }

    /* weaker: after a claim, "no record at all" may deny it */
    if ((m->seen & BEHAVE_C_NEG) && a->valence != BEHAVE_VALENCE_POSITIVE) {
        a->cues |= BEHAVE_CUE_NEGATION;
    }
}




int
behave_model_present(void)
{
    return behave_model_n != 0;
}


/*
 * Byte by byte, both nibbles at once ((n ^ 8) - 8 is behave_meaning_axis()'s
 * signed nibble): a repeated turn compares with up to eight stored
 * meanings, and the axis at a time loop was a quarter of its cost.
 * Integer sums, so the figure is the same.
 */
double
behave_meaning_cosine(const int8_t *a, const int8_t *b)
{
    int       x0, x1, y0, y1;
    long      ab, aa, bb;
    unsigned  i;

    ab = aa = bb = 0;

    for (i = 0; i < BEHAVE_MEANING_DIM; i++) {
        x0 = (((uint8_t) a[i] & 0x0f) ^ 8) - 8;
        x1 = (((uint8_t) a[i] >> 4) ^ 8) - 8;
        y0 = (((uint8_t) b[i] & 0x0f) ^ 8) - 8;
        y1 = (((uint8_t) b[i] >> 4) ^ 8) - 8;
        ab += x0 * y0 + x1 * y1;
        aa += x0 * x0 + x1 * x1;
        bb += y0 * y0 + y1 * y1;
    }

    if (aa == 0 || bb == 0) {
        return 0;
    }

    return (double) ab / sqrt((double) aa * (double) bb);
}
