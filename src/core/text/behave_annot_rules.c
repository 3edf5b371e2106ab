/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The annotator's rules (see behave_annot_rules.h and labels.md).  The
 * constants below are the tuning: each says what evidence moves which
 * score by how much; scripts/eval measures them.
 */

#include <math.h>
#ifdef BEHAVE_DEBUG
#include <stdio.h>
#endif
#include <string.h>
#include "text/behave_annot_rules.h"


/* valence (scale of the lexicon: -4..4 per unit) */
#define BEHAVE_NEGATE          -0.74    /* "not good" is less than "bad" */
#define BEHAVE_CAPS_EMPH        0.73    /* "GREAT" */
#define BEHAVE_ELONG_EMPH       0.30    /* "gooood" */
#define BEHAVE_CONTRAST_BEFORE  0.5     /* "nice, but ..." */
#define BEHAVE_CONTRAST_AFTER   1.5
#define BEHAVE_EXCLAIM          0.29    /* per "!", up to 4 */
#define BEHAVE_QUESTION         0.18    /* per "?" when 2 or more */
#define BEHAVE_SQUASH          15.0    /* x / sqrt(x^2 + a) */

/* label cut points on the scores; see also scripts/eval */
#define BEHAVE_VAL_POS          0.30
#define BEHAVE_VAL_NEG         -0.25
#define BEHAVE_MIXED_MIN        1.8     /* raw sum needed on each side */

/* the floors of the levels above the lowest, in the enums' order */
static const double  behave_urgency_floors[] = { 0.18, 0.45, 0.63, 0.8 };
static const double  behave_load_floors[] = { 0.3, 0.5, 0.7 };
static const double  behave_engagement_floors[] = { 0.25, 0.45, 0.75 };

#define behave_level(v, floors)                                               \
    behave_level_of(v, floors, sizeof(floors) / sizeof(floors[0]))


static void behave_sentence_end(behave_annot_state_t *st);
static void behave_clause_end(behave_annot_state_t *st);
static void behave_add_valence(behave_annot_state_t *st, double v);
static double behave_unit_valence(behave_annot_state_t *st,
    const behave_lex_entry_t *e, unsigned tflags, unsigned *negated);
static void behave_push_ctx(behave_annot_state_t *st,
    const behave_lex_entry_t *e, unsigned tflags);
static double behave_clamp(double v, double lo, double hi);
static unsigned behave_level_of(double v, const double *floors, unsigned n);
static void behave_finish_valence(behave_annot_state_t *st,
    behave_annotation_t *out);
static void behave_finish_urgency(behave_annot_state_t *st,
    behave_annotation_t *out, unsigned critical);
static void behave_finish_load(behave_annot_state_t *st,
    behave_annotation_t *out);
static void behave_finish_engagement(behave_annot_state_t *st,
    behave_annotation_t *out);
static void behave_finish_register(behave_annot_state_t *st,
    behave_annotation_t *out, unsigned crisis_register);
static void behave_finish_culture(behave_annot_state_t *st,
    behave_annotation_t *out);
static unsigned behave_finish_crisis(behave_annot_state_t *st,
    behave_annotation_t *out, unsigned *crisis_register);
static void behave_finish_cues(behave_annot_state_t *st,
    behave_annotation_t *out);


#define behave_has(st, f)     (((st)->flags & (f)) != 0)
#define behave_crisis(st, k)  (((st)->crisis & (1u << (k))) != 0)


static double
behave_clamp(double v, double lo, double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}


/* how many of the ascending floors the score reaches: its level */
static unsigned
behave_level_of(double v, const double *floors, unsigned n)
{
    unsigned  i;

    for (i = 0; i < n && v >= floors[i]; i++) {
        /* void */
    }

    return i;
}


void
behave_rules_init(behave_annot_state_t *st)
{
    memset(st, 0, sizeof(*st));
    st->s_weight = 1.0;
    st->at_start = 1;
}


static void
behave_clause_end(behave_annot_state_t *st)
{
    st->nctx = 0;
}


static void
behave_sentence_end(behave_annot_state_t *st)
{
    behave_clause_end(st);

    if (st->q_start) {
        /* "how do i reset it" is a question without its mark */
        st->questions++;
        st->q_start = 0;
    }

    st->pos += st->s_pos;
    st->neg += st->s_neg;

    /* "love the app, but the update broke it": both feelings are real */
    if (st->s_contrast
        && ((st->s_pre_pos >= 1.0 && st->s_raw_neg - st->s_pre_neg >= 1.0)
            || (st->s_pre_neg >= 1.0
                && st->s_raw_pos - st->s_pre_pos >= 1.0)))
    {
        st->contrast_mixed++;
        st->rules++;
    }

    if (st->sent_words > 0) {
        st->sentences++;
        if (st->sent_words > st->max_sent_words) {
            st->max_sent_words = st->sent_words;
        }
        if (st->sent_words <= 4) {
            st->short_sents++;
        }
    }

    st->s_pos = 0;
    st->s_neg = 0;
    st->s_raw_pos = 0;
    st->s_raw_neg = 0;
    st->s_pre_pos = 0;
    st->s_pre_neg = 0;
    st->s_weight = 1.0;
    st->s_contrast = 0;
    st->sent_words = 0;
    st->at_start = 1;
}


void
behave_rules_word(behave_annot_state_t *st, const behave_token_t *t,
    unsigned first)
{
    unsigned  digits;

    st->words++;
    st->sent_words++;

    digits = t->flags & BEHAVE_TOK_DIGITS;

    if (digits) {
        st->specifics++;
    } else {
        st->letters_words++;
    }

    if (t->flags & BEHAVE_TOK_CAPS) {
        st->caps_words++;
    }

    if (t->flags & BEHAVE_TOK_APOS) {
        st->contractions++;
    }

    if (t->len == 1 && t->text[0] == 'i' && !(t->flags & BEHAVE_TOK_CAPS)
        && !(t->flags & BEHAVE_TOK_INITCAP))
    {
        st->lower_i++;
    }

    if (st->at_start && first && !digits) {
        if (t->flags & (BEHAVE_TOK_INITCAP | BEHAVE_TOK_CAPS)) {
            st->upper_starts++;
        } else {
            st->lower_starts++;
        }
    }

    st->last_num = 0;
}


/*
 * The valence of one unit in its context: emphasis by CAPS and
 * elongation, then the intensifiers and diminishers before it (nearest
 * counts most), then negation by a negator up to BEHAVE_CTX units before
 * it within the clause.
 */
static double
behave_unit_valence(behave_annot_state_t *st, const behave_lex_entry_t *e,
    unsigned tflags, unsigned *negated)
{
    unsigned  i;
    double    v, sign, b, mag;

    v = e->valence;
    sign = v > 0 ? 1.0 : -1.0;
    mag = fabs(v);

    if (tflags & BEHAVE_TOK_CAPS) {
        mag += BEHAVE_CAPS_EMPH;
        st->caps_bonus += sign * BEHAVE_CAPS_EMPH;
        st->rules++;
    }

    if (tflags & BEHAVE_TOK_ELONG) {
        mag += BEHAVE_ELONG_EMPH;
        st->rules++;
    }

    for (i = 0; i < st->nctx; i++) {
        /* ctx[nctx - 1] is the nearest unit */
        b = st->ctx[st->nctx - 1 - i].boost;
        if (b != 0) {
            b *= 1.0 - 0.05 * i;
            if (st->ctx[st->nctx - 1 - i].caps) {
                b *= 1.5;
            }
            mag += b * (mag < 1.5 ? 1.0 : mag / 1.5);
            st->rules++;
        }
    }

    if (mag < 0.1) {
        mag = 0.1;
    }

    v = sign * mag;

    /* a crisis is not turned around: "if I don't pay he'll hurt me" */
    *negated = 0;
    for (i = 0; i < st->nctx && e->crisis == BEHAVE_CRISIS_NONE; i++) {
        if (st->ctx[i].neg) {
            *negated = 1;
        }
    }

    if (*negated) {
        v *= BEHAVE_NEGATE;
        st->rules++;
    }

    return v;
}


static void
behave_add_valence(behave_annot_state_t *st, double v)
{
    if (v > 0) {
        st->s_pos += v * st->s_weight;
        st->s_raw_pos += v;
        st->pos_raw += v;
    } else {
        st->s_neg += v * st->s_weight;
        st->s_raw_neg -= v;
        st->neg_raw -= v;
    }
}


static void
behave_push_ctx(behave_annot_state_t *st, const behave_lex_entry_t *e,
    unsigned tflags)
{
    behave_ctx_t  *c;

    if (st->nctx == BEHAVE_CTX) {
        memmove(&st->ctx[0], &st->ctx[1],
                sizeof(behave_ctx_t) * (BEHAVE_CTX - 1));
        st->nctx--;
    }

    c = &st->ctx[st->nctx++];
    c->neg = e != NULL && (e->flags & BEHAVE_LEX_NEG);
    c->boost = e != NULL ? e->boost : 0;
    c->caps = (tflags & BEHAVE_TOK_CAPS) != 0;
}


void
behave_rules_unit(behave_annot_state_t *st, const behave_lex_entry_t *e,
    unsigned nwords, unsigned tflags)
{
    unsigned  negated, at_start, i;
    uint32_t  f;
    double    v;

    at_start = st->at_start;
    st->at_start = 0;

#ifdef BEHAVE_DEBUG
    if (e != NULL && (e->valence != 0 || e->urgency != 0 || e->load != 0
                      || e->engagement != 0 || e->formality != 0))
    {
        fprintf(stderr, "  [%s] v%+.1f u%+.2f l%+.2f e%+.2f f%+.2f\n",
                e->term, e->valence, e->urgency, e->load, e->engagement,
                e->formality);
    }
#endif

    if (e == NULL) {
        if (tflags & BEHAVE_TOK_NONASCII) {
            st->foreign_letters++;
        }
        behave_push_ctx(st, NULL, tflags);
        return;
    }

    f = e->flags & ~(BEHAVE_LEX_MORE | BEHAVE_LEX_PREFIX);

    if (e->lang) {
        st->lang[e->lang] += nwords;
    } else if (f & BEHAVE_LEX_EN) {
        st->en += nwords;
    } else if (!(tflags & BEHAVE_TOK_NONASCII)) {
        /* every other entry is English too, but counts once */
        st->en++;
    }

    if (f & ~(BEHAVE_LEX_EN) || e->valence != 0 || e->urgency != 0
        || e->load != 0 || e->engagement != 0 || e->formality != 0
        || e->boost != 0 || e->crisis)
    {
        st->hits++;
    }

    if ((tflags & BEHAVE_TOK_CAPS) && e->len >= 3) {
        st->caps_emph++;
    }

    if (at_start && (f & BEHAVE_LEX_Q)) {
        st->q_start = 1;
    }

    negated = 0;

    if (e->valence != 0) {
        v = behave_unit_valence(st, e, tflags, &negated);

        /* courtesy is kept apart: in a request it is not a feeling */
        if (v > 0 && !(f & BEHAVE_LEX_FELT)
            && (f & (BEHAVE_LEX_THANKS | BEHAVE_LEX_SALUTE
                     | BEHAVE_LEX_REQUEST)))
        {
            st->courtesy += v * st->s_weight;
        } else {
            behave_add_valence(st, v);
        }

    } else {
        for (i = 0; i < st->nctx; i++) {
            if (st->ctx[i].neg) {
                negated = 1;
            }
        }
    }

    /* "Still nothing.", "Still 0 crystals": a sentence opened by "still" */
    if (at_start && nwords == 1 && (f & BEHAVE_LEX_STILL) && e->len == 5) {
        f |= BEHAVE_LEX_NOTRESOLVED;
        st->rules++;
    }

    /* "not urgent", "not resolved": a negated cue turns around */
    if (negated) {
        if (f & BEHAVE_LEX_RESOLVED) {
            f = (f & ~BEHAVE_LEX_RESOLVED) | BEHAVE_LEX_NOTRESOLVED;
        }
        f &= ~(BEHAVE_LEX_THANKS | BEHAVE_LEX_PANIC);
    }

    st->flags |= f;

    if (e->urgency > 0 && !negated) {
        st->urg_up += e->urgency;
    } else if (e->urgency < 0) {
        st->urg_down -= e->urgency;
    }

    st->load += e->load;
    st->form += e->formality;

    /* browsing markers say the same thing twice: the strongest counts */
    if (f & BEHAVE_LEX_BROWSE) {
        st->eng_browse = fmax(st->eng_browse, -e->engagement);
    } else if (e->engagement > 0) {
        st->eng_up += e->engagement;
    } else {
        st->eng_down -= e->engagement;
    }

    if (e->crisis && !(f & BEHAVE_LEX_IDIOM)) {
        st->crisis |= 1u << e->crisis;
        st->rules++;
    }

    if (f & BEHAVE_LEX_PANIC) {
        st->panic++;
    }

    if (f & BEHAVE_LEX_SARCASM) {
        st->sarcasm++;
    }

    /* a variant marker: strong ones count 3, weak ones (shared) 1 */
    if (f & BEHAVE_LEX_GB) {
        st->gb += (f & BEHAVE_LEX_WEAK) ? 1 : 3;
    }

    if (f & BEHAVE_LEX_US) {
        st->us += (f & BEHAVE_LEX_WEAK) ? 1 : 3;
    }

    if (f & BEHAVE_LEX_SPECIFIC) {
        st->specifics++;
    }

    if (f & BEHAVE_LEX_CONTRAST) {
        /* what came before the contrast counts half, what follows more */
        st->s_pre_pos = st->s_raw_pos;
        st->s_pre_neg = st->s_raw_neg;
        st->s_pos *= BEHAVE_CONTRAST_BEFORE;
        st->s_neg *= BEHAVE_CONTRAST_BEFORE;
        st->s_weight = BEHAVE_CONTRAST_AFTER;
        st->s_contrast = 1;
        st->rules++;
        behave_clause_end(st);
        return;
    }

    behave_push_ctx(st, e, tflags);
}


void
behave_rules_symbol(behave_annot_state_t *st, const behave_token_t *t,
    const behave_lex_entry_t *e)
{
    double  v;

    st->emoji++;

    if (e == NULL) {
        return;
    }

    st->hits++;
    st->flags |= e->flags & ~(BEHAVE_LEX_MORE | BEHAVE_LEX_PREFIX);

    if (e->flags & BEHAVE_LEX_SARCASM) {
        st->sarcasm++;
    }

    st->form += e->formality;

    if (e->urgency > 0) {
        st->urg_up += e->urgency;
    }

    if (e->valence != 0) {
        v = e->valence;
        if (t->repeat > 1) {
            /* ":)))" */
            v += (v > 0 ? 0.3 : -0.3);
            st->rules++;
        }
        behave_add_valence(st, v);
    }
}


void
behave_rules_punct(behave_annot_state_t *st, const behave_token_t *t)
{
    if (t->type == BEHAVE_TOK_NEWLINE) {
        behave_sentence_end(st);
        return;
    }

    switch (t->cp) {

    case '?':
        st->qmarks += t->repeat;
        st->questions++;
        st->q_start = 0;
        if (t->repeat > 1) {
            st->multi_punct++;
        }
        behave_sentence_end(st);
        break;

    case '!':
        st->exclaims += t->repeat;
        if (t->repeat > 1) {
            st->multi_punct++;
        }
        if (st->q_start) {
            st->q_start = 0;
        }
        behave_sentence_end(st);
        break;

    case '.':
        behave_sentence_end(st);
        break;

    case ')':
        if (st->last_num) {
            st->enumerations++;
        }
        behave_clause_end(st);
        break;

    case ',':
    case ';':
    case ':':
    case 0x2014:
    case 0x2013:
    case '(':
        behave_clause_end(st);
        break;

    default:
        break;
    }

    st->last_num = 0;
}


void
behave_rules_other(behave_annot_state_t *st, const behave_token_t *t)
{
    if (t->type == BEHAVE_TOK_NUMBER) {
        st->specifics++;
        st->words++;
        st->sent_words++;
        st->last_num = 1;
        return;
    }

    st->last_num = 0;

    if (t->cp == 0xa3) {
        st->currency_gb++;
        st->specifics++;
    } else if (t->cp == '$') {
        st->currency_us++;
        st->specifics++;
    } else if (t->cp == '#' || t->cp == 0x20ac) {
        st->specifics++;
    }
}


static void
behave_finish_valence(behave_annot_state_t *st, behave_annotation_t *out)
{
    double    s, amp, comp;
    unsigned  mixed, complaint;

    /*
     * "Thanks, can you check my bill?" is a neutral request: courtesy in
     * a message that asks for something counts for little.  Without an
     * ask ("thanks so much, brilliant service") it is the feeling itself.
     */
    if (st->questions || st->q_start || behave_has(st, BEHAVE_LEX_REQUEST)) {
        st->pos += 0.25 * st->courtesy;
        st->pos_raw += 0.25 * st->courtesy;
        st->rules++;
    } else {
        st->pos += st->courtesy;
        st->pos_raw += st->courtesy;
    }

    s = st->pos + st->neg;

    /* a text all in CAPS is shouting throughout: no word stands out */
    if (st->letters_words >= 3
        && st->caps_words * 10 >= st->letters_words * 8)
    {
        s -= st->caps_bonus;
    }

    complaint = st->neg_raw >= 0.8
                || behave_has(st, BEHAVE_LEX_NOTRESOLVED | BEHAVE_LEX_STILL
                                  | BEHAVE_LEX_REPEAT);

    /* "oh great, down AGAIN": the praise is sarcastic */
    if (st->sarcasm && complaint && st->pos > 0) {
        s = st->neg - 0.8 * st->pos;
        st->neg_raw += st->pos_raw;
        st->pos_raw = 0;
        st->rules++;
    }

    if (s != 0) {
        amp = (st->exclaims > 4 ? 4 : st->exclaims) * BEHAVE_EXCLAIM;
        if (st->qmarks > 1) {
            amp += (st->qmarks > 4 ? 4 : st->qmarks) * BEHAVE_QUESTION;
        }
        s += s > 0 ? amp : -amp;
        if (amp > 0) {
            st->rules++;
        }
    }

#ifdef BEHAVE_DEBUG
    fprintf(stderr, "pos %.2f neg %.2f raw %.2f/%.2f court %.2f s %.2f "
            "sarc %u cmix %u\n", st->pos, st->neg, st->pos_raw, st->neg_raw,
            st->courtesy, s, st->sarcasm, st->contrast_mixed);
#endif

    comp = s / sqrt(s * s + BEHAVE_SQUASH);
    comp = behave_clamp(comp, -1.0, 1.0);

    mixed = !(st->sarcasm && complaint)
            && (st->contrast_mixed
                || (st->pos_raw >= BEHAVE_MIXED_MIN
                    && st->neg_raw >= BEHAVE_MIXED_MIN
                    && fmin(st->pos_raw, st->neg_raw)
                       >= 0.5 * fmax(st->pos_raw, st->neg_raw)));

    out->scores.valence = comp;

    if (mixed) {
        out->valence = BEHAVE_VALENCE_MIXED;
        /* mixed sits between the poles */
        out->scores.valence = behave_clamp(comp, -0.6, 0.6);

    } else if (comp >= BEHAVE_VAL_POS) {
        out->valence = BEHAVE_VALENCE_POSITIVE;

    } else if (comp <= BEHAVE_VAL_NEG) {
        out->valence = BEHAVE_VALENCE_NEGATIVE;

    } else {
        out->valence = BEHAVE_VALENCE_NEUTRAL;
    }
}


/*
 * Critical needs a kind of harm: self-harm, violence, medical or other
 * emergency at once; fraud or theft only while it goes on (or money is
 * leaving); a legal matter only with a deadline in hours.  Idioms never
 * reach here: their entries carry no crisis kind.
 */
static unsigned
behave_finish_crisis(behave_annot_state_t *st, behave_annotation_t *out,
    unsigned *crisis_register)
{
    unsigned  critical, harm;

    harm = behave_crisis(st, BEHAVE_CRISIS_SELFHARM)
           || behave_crisis(st, BEHAVE_CRISIS_VIOLENCE)
           || behave_crisis(st, BEHAVE_CRISIS_MEDICAL)
           || behave_crisis(st, BEHAVE_CRISIS_EMERGENCY);

    critical = harm;

    if (behave_crisis(st, BEHAVE_CRISIS_FRAUD)
        && (behave_crisis(st, BEHAVE_CRISIS_FRAUDNOW)
            || behave_crisis(st, BEHAVE_CRISIS_MONEY)))
    {
        critical = 1;
    }

    if (behave_crisis(st, BEHAVE_CRISIS_MONEY)
        && behave_crisis(st, BEHAVE_CRISIS_FRAUDNOW))
    {
        critical = 1;
    }

    if (behave_crisis(st, BEHAVE_CRISIS_LEGAL)
        && behave_crisis(st, BEHAVE_CRISIS_DEADLINE))
    {
        critical = 1;
    }

    *crisis_register = harm
                       || (critical && (st->panic || st->caps_emph >= 2
                                        || st->multi_punct));

    /* distress without a critical risk still overrides the register */
    if (!critical && st->panic >= 2 && st->neg_raw >= 1.5) {
        *crisis_register = 1;
    }

    if (critical && (harm || behave_crisis(st, BEHAVE_CRISIS_FRAUD)
                     || behave_crisis(st, BEHAVE_CRISIS_MONEY)))
    {
        out->cues |= BEHAVE_CUE_CRISIS;
    }

    return critical;
}


static void
behave_finish_urgency(behave_annot_state_t *st, behave_annotation_t *out,
    unsigned critical)
{
    double  u, comp;

    comp = out->scores.valence;

    u = 0.3;
    u += fmin(st->urg_up, 0.5);
    u -= fmin(st->urg_down, 0.4);

    if (comp < -0.2 || out->valence == BEHAVE_VALENCE_MIXED) {
        u += 0.05 + 0.08 * fmin(1.0, st->neg_raw / 4.0);
    }

    /* an ongoing problem wants handling soon */
    if (behave_has(st, BEHAVE_LEX_NOTRESOLVED | BEHAVE_LEX_REPEAT)) {
        u += 0.08;
    }

    if (st->caps_emph >= 1) {
        u += 0.05 * (st->caps_emph > 2 ? 2 : st->caps_emph);
    }

    if (st->multi_punct || st->exclaims >= 2) {
        u += 0.04;
    }

    /* praise or thanks with no ask: feedback, no time pressure */
    if ((out->valence == BEHAVE_VALENCE_POSITIVE
         || (out->valence == BEHAVE_VALENCE_MIXED
             && st->pos_raw >= st->neg_raw))
        && st->questions == 0 && !st->q_start
        && !behave_has(st, BEHAVE_LEX_REQUEST) && st->urg_up < 0.15)
    {
        u -= 0.25;
        st->rules++;
    }

    if (behave_has(st, BEHAVE_LEX_GIVEUP)) {
        u = fmin(u, 0.12);
        st->rules++;
    }

    u = behave_clamp(u, 0.0, 0.79);

    if (critical) {
        u = 0.95;
    }

    out->scores.urgency = u;

    out->urgency = behave_level(u, behave_urgency_floors);
}


static void
behave_finish_load(behave_annot_state_t *st, behave_annotation_t *out)
{
    double  l;

    l = 0.06 + fmin(0.3, st->words / 140.0);
    l += fmin(0.1, 0.025 * st->specifics);

    if (st->sentences >= 4) {
        l += 0.05;
    }

    if (st->questions >= 2) {
        l += fmin(0.35, 0.1 * (st->questions - 1));
    }

    l += st->load;

    if (st->max_sent_words > 45) {
        l += 0.12;
    }

    if (st->enumerations >= 2) {
        l += 0.12;
    }

    if (st->short_sents >= 4 && st->sentences >= 5
        && st->words < st->sentences * 6)
    {
        /* fragmented: "Help. New phone. Nothing works." */
        l += 0.1;
        st->rules++;
    }

    if (!behave_has(st, BEHAVE_LEX_OVERLOAD)) {
        l = fmin(l, 0.69);

    } else if (st->questions >= 2 || st->short_sents >= 3
               || st->neg_raw >= 3.0)
    {
        /* says so, and shows it: a cascade of questions or fragments */
        l = fmax(l, 0.72);
        st->rules++;
    }

    l = behave_clamp(l, 0.0, 1.0);
    out->scores.cognitive_load = l;

    out->cognitive_load = behave_level(l, behave_load_floors);
}


static void
behave_finish_engagement(behave_annot_state_t *st, behave_annotation_t *out)
{
    double  g;

    g = 0.55 + st->eng_up - fmin(st->eng_down, 0.6) - st->eng_browse;

    if (st->words <= 4 && st->specifics == 0) {
        g -= 0.12;
    }

    /* short praise, or a general question with no stake of one's own */
    if (out->valence == BEHAVE_VALENCE_POSITIVE && st->words < 40
        && !behave_has(st, BEHAVE_LEX_REQUEST) && st->specifics == 0)
    {
        g -= 0.15;
    }

    if (st->words >= 75) {
        g += 0.12 + fmin(0.15, (st->words - 75) / 200.0);
        g += fmin(0.1, st->specifics * 0.02);
    }

    g = behave_clamp(g, 0.0, 1.0);
    out->scores.engagement = g;

    out->engagement = behave_level(g, behave_engagement_floors);
}


static void
behave_finish_register(behave_annot_state_t *st, behave_annotation_t *out,
    unsigned crisis_register)
{
    double  f;

    f = 0.5 + behave_clamp(st->form, -0.5, 0.5);

    f -= 0.06 * (st->emoji > 3 ? 3 : st->emoji);

    if (st->lower_starts > st->upper_starts) {
        f -= 0.12;
    }

    if (st->lower_i) {
        f -= 0.08;
    }

    if (st->multi_punct) {
        f -= 0.05;
    }

    if (st->contractions == 0 && st->words >= 15) {
        f += 0.05;
    } else if (st->contractions >= 2) {
        f -= 0.04;
    }

    f = behave_clamp(f, 0.0, 1.0);
    out->scores.formality = f;

    if (crisis_register) {
        out->social_register = BEHAVE_REGISTER_CRISIS;
    } else if (f >= 0.78) {
        out->social_register = BEHAVE_REGISTER_FORMAL;
    } else if (f < 0.33) {
        out->social_register = BEHAVE_REGISTER_INFORMAL;
    } else {
        out->social_register = BEHAVE_REGISTER_SEMI_FORMAL;
    }
}


static void
behave_finish_culture(behave_annot_state_t *st, behave_annotation_t *out)
{
    unsigned     i, best, f, e, gb, us;
    const char  *code;

    /* one strong marker ("colour", "zip code") or three weak ones */
    gb = st->gb + (st->currency_gb ? 1 : 0);
    us = st->us + (st->currency_us ? 1 : 0);

    if (gb >= 3 && gb >= us) {
        out->cultural |= BEHAVE_CULT_EN_GB;
    }

    if (us >= 3 && us > gb) {
        out->cultural |= BEHAVE_CULT_EN_US;
    }

    if (behave_has(st, BEHAVE_LEX_HONORIFIC)) {
        out->cultural |= BEHAVE_CULT_HONORIFIC;
    }

    if (behave_has(st, BEHAVE_LEX_INDIRECT)) {
        out->cultural |= BEHAVE_CULT_INDIRECT;
    }

    best = 0;
    for (i = 1; i < BEHAVE_LANG_N; i++) {
        if (st->lang[i] > st->lang[best] || best == 0) {
            best = st->lang[i] ? i : best;
        }
    }

    if (best == 0) {
        return;
    }

    f = st->lang[best] + st->foreign_letters / 2;
    e = st->en;

    if (f >= 2 && f * 4 >= (f + e) * 3) {
        out->cultural |= BEHAVE_CULT_NON_ENGLISH;
        code = behave_lang_code((behave_lang_e) best);
        out->language[0] = code[0];
        out->language[1] = code[1];
        out->language[2] = '\0';
        st->rules++;

    } else if (f >= 2 && e >= 2 && f * 5 >= (f + e)) {
        out->cultural |= BEHAVE_CULT_CODE_SWITCHING;
        st->rules++;
    }
}


static void
behave_finish_cues(behave_annot_state_t *st, behave_annotation_t *out)
{
    if (st->questions || st->q_start) {
        out->cues |= BEHAVE_CUE_QUESTION;
    }

    if (behave_has(st, BEHAVE_LEX_RESOLVED)) {
        out->cues |= BEHAVE_CUE_RESOLUTION_CLAIM;
    }

    if (behave_has(st, BEHAVE_LEX_NOTRESOLVED)
        || (behave_has(st, BEHAVE_LEX_STILL) && st->neg_raw >= 0.5))
    {
        out->cues |= BEHAVE_CUE_NOT_RESOLVED;
    }

    if (behave_has(st, BEHAVE_LEX_CONFUSION | BEHAVE_LEX_OVERLOAD)) {
        out->cues |= BEHAVE_CUE_CONFUSION;
    }

    if (behave_has(st, BEHAVE_LEX_GIVEUP)) {
        out->cues |= BEHAVE_CUE_GIVING_UP;
    }

    if (behave_has(st, BEHAVE_LEX_THANKS)) {
        out->cues |= BEHAVE_CUE_THANKS;
    }

    if (behave_has(st, BEHAVE_LEX_SPEC)
        || (st->crisis & ((1u << BEHAVE_CRISIS_SELFHARM)
                          | (1u << BEHAVE_CRISIS_MEDICAL)
                          | (1u << BEHAVE_CRISIS_FRAUD)
                          | (1u << BEHAVE_CRISIS_LEGAL))))
    {
        out->cues |= BEHAVE_CUE_SPECIALIST;
    }

    if (behave_has(st, BEHAVE_LEX_REPEAT)) {
        out->cues |= BEHAVE_CUE_REPEAT_CONTACT;
    }
}


void
behave_rules_finish(behave_annot_state_t *st, behave_annotation_t *out)
{
    unsigned  critical, crisis_register, n;

    behave_sentence_end(st);

    memset(out, 0, sizeof(*out));

    behave_finish_valence(st, out);
    critical = behave_finish_crisis(st, out, &crisis_register);
    behave_finish_urgency(st, out, critical);
    behave_finish_load(st, out);
    behave_finish_engagement(st, out);
    behave_finish_register(st, out, crisis_register);
    behave_finish_culture(st, out);
    behave_finish_cues(st, out);

    n = st->hits + st->rules;
    out->signals_fired = n;

    /* evidence: a few signals in a few words is already fair evidence */
    out->confidence = st->words == 0
                      ? 0.2 : behave_clamp(0.25 + 0.7 * n / (n + 4.0),
                                           0.0, 1.0);
}
