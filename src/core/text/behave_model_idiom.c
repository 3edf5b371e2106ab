/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * The trained layer's idioms, laughter and all-clears: what tells a death
 * word about a thing, a joke, a boss or an event that is over, so that a
 * crisis frame does not hold and the risk head reads it as such.
 */

#include <string.h>
#include "text/behave_model_int.h"


/*
 * Laughter written out: "lol", "mdr", "haha", "jajaja", "kkkk", "rsrs",
 * "xD" (labels.md's dark humour and idioms: "vou me matar kkk" is a
 * joke).  Only the syllables, so "khaki" or "hahn" are not laughter.
 */
unsigned
behave_laugh(const char *w, size_t len)
{
    size_t  i;
    char    a, b;

    /* most words start with no letter laughter starts with: a h j k l m
     * p r x */
    if (len < 2 || w[0] < 'a' || w[0] > 'x'
        || !((1u << (w[0] - 'a')) & 0x829e81u))
    {
        return 0;
    }

    switch (len) {
    case 2:
        return memcmp(w, "xd", 2) == 0 || memcmp(w, "kk", 2) == 0;
    case 3:
        if (memcmp(w, "lol", 3) == 0 || memcmp(w, "mdr", 3) == 0
            || memcmp(w, "xdd", 3) == 0)
        {
            return 1;
        }
        break;
    case 4:
        if (memcmp(w, "lmao", 4) == 0 || memcmp(w, "ptdr", 4) == 0
            || memcmp(w, "rofl", 4) == 0 || memcmp(w, "lool", 4) == 0)
        {
            return 1;
        }
        break;
    }

    if (len < 3) {
        return 0;
    }

    /* "kkk", "kkkkkk": Brazilian laughter ("kk" once runs are cut) */
    for (i = 0; i < len && w[i] == 'k'; i++) { /* void */ }
    if (i == len) {
        return 1;
    }

    if (len < 4) {
        return 0;
    }

    /* "haha", "ahah", "hehehe", "jajaja", "jejeje", "hihi", "rsrs":
     * two letters repeated, of the pairs laughter is written in */
    i = (w[0] == 'a' && w[1] == 'h') ? 1 : 0;
    a = w[i];
    b = w[i + 1];

    if (!((a == 'h' || a == 'j') && (b == 'a' || b == 'e' || b == 'i'))
        && !(a == 'r' && b == 's'))
    {
        return 0;
    }

    for ( ; i < len; i++) {
        if (w[i] != ((i - (w[0] == 'a')) % 2 == 0 ? a : b)) {
            return 0;
        }
    }

    return 1;
}


/*
 * What tells a death word as an idiom (labels.md: "this is killing me",
 * "I could murder a coffee", "my phone died", "I'm dying to know"), word
 * by word within a clause and not over a comma:
 * - a THING near a death word: "this router is killing me", "je vais le
 *   tuer ce wifi", "vou me matar com esse roteador", "the app is not
 *   responding" (a thing's symptom: the thing before it);
 * - a CAUSE after "dying of", "morir de", "mort de", "sterben vor":
 *   "me muero de ganas", "morto de cansaço", "dying to know";
 * - laughter anywhere in the clause: "kkk", "lol", "mdr", "😂";
 * - a toy or fake weapon: "un faux couteau pour la pièce de l'école";
 * - "almost" before a sign: "casi me da un infarto al ver la factura";
 * - "just kidding", "je rigole", "é força de expressão".
 * behave_idiom() then weighs them against the signs of an emergency.
 */
void
behave_idiom_word(behave_model_state_t *m, const char *w, size_t len,
    behave_cset_t cs, unsigned flags)
{
    unsigned  laugh, thing, cause;

    laugh = behave_laugh(w, len);

    /* most words have no concept and no flag: nothing is near them */
    if (cs == 0 && flags == 0) {
        m->idiom |= laugh ? BEHAVE_IDIOM_LAUGH : 0;
        m->prev_self = 0;
        m->drive_at = 0;
        return;
    }

    /* the HYPERBOLE words ("coffee", "battery", "queue") are things */
    thing = !laugh && ((flags & BEHAVE_WORD_THING)
                       || ((cs & BEHAVE_C_HYPERBOLE)
                           && !(flags & BEHAVE_WORD_CAUSE)));
    cause = thing || (flags & BEHAVE_WORD_CAUSE);

    if ((cs & (BEHAVE_C_DIE | BEHAVE_C_KILL | BEHAVE_C_BREATH
               | BEHAVE_C_SYMPTOM))
        && m->thing_at && m->words - m->thing_at <= BEHAVE_THING_BEFORE)
    {
        m->idiom |= BEHAVE_IDIOM_NEAR;
    }

    /* "jetzt reagiert der Controller nicht mehr": the thing just after */
    if (thing && m->symptom_at && m->words - m->symptom_at <= 2) {
        m->idiom |= BEHAVE_IDIOM_NEAR;
    }

    m->symptom_at = (cs & BEHAVE_C_SYMPTOM) ? m->words : m->symptom_at;

    if ((cs & (BEHAVE_C_SEVERE | BEHAVE_C_SYMPTOM | BEHAVE_C_DIE))
        && m->almost_at && m->words - m->almost_at <= 4)
    {
        m->idiom |= BEHAVE_IDIOM_ALMOST;
    }

    m->almost_at = (flags & BEHAVE_WORD_ALMOST) ? m->words : m->almost_at;

    if (cause && m->death_at && m->words - m->death_at <= BEHAVE_THING_AFTER)
    {
        m->idiom |= BEHAVE_IDIOM_NEAR;
    }

    if (cs & (BEHAVE_C_DIE | BEHAVE_C_KILL | BEHAVE_C_BREATH)) {
        m->death_at = m->words;
    }

    m->thing_at = thing ? m->words : m->thing_at;
    behave_idiom_role(m, cs, flags);
    m->idiom |= laugh ? BEHAVE_IDIOM_LAUGH : 0;
    m->idiom |= (flags & BEHAVE_WORD_TOY) ? BEHAVE_IDIOM_TOY : 0;

    /*
     * "non je rigole", "just kidding", "é força de expressão"; not "I'm
     * not joking", "no es broma", "kein Scherz", nor "je rigole pas"
     */
    if ((flags & BEHAVE_WORD_JOKE)
        && (m->since_neg > 1 || (m->since_neg == 1 && m->prev_self)))
    {
        m->idiom |= BEHAVE_IDIOM_JOKE;
        m->joke_at = m->words;

    } else if ((cs & BEHAVE_C_NEG) && m->joke_at + 1 == m->words) {
        m->idiom &= ~BEHAVE_IDIOM_JOKE;
    }

    m->prev_self = (cs & BEHAVE_C_SELF) != 0;

    /* "this app is driving me crazy": no one drives */
    m->vehicles += (cs & BEHAVE_C_VEHICLE) != 0;

    if ((cs & BEHAVE_C_SELF) && m->drive_at && m->drive_at + 1 == m->words) {
        if (--m->vehicles == 0) {
            m->clause &= ~BEHAVE_C_VEHICLE;
        }
    }

    m->drive_at = (flags & BEHAVE_WORD_DRIVE) ? m->words : 0;
}


/*
 * A person the writer answers to (a boss, a teacher, an accountant, a
 * mother) who "will kill me": "my boss will kill me if", "el contable me
 * va a matar si", "ma prof va me tuer si", "minha chefe vai me matar".
 * The writer is the object ("me", "mich", "m'") between the person and
 * the killing word or just after it; "I'll kill my boss" names the
 * person after the word and is not one.  behave_idiom() asks for an "if"
 * as well: the blame is for an errand not done.
 */
void
behave_idiom_role(behave_model_state_t *m, behave_cset_t cs, unsigned flags)
{
    if ((cs & BEHAVE_C_KILL) && m->role_at
        && m->words - m->role_at <= BEHAVE_THING_BEFORE)
    {
        if (m->reflb_at > m->role_at) {
            m->idiom |= BEHAVE_IDIOM_ROLE;

        } else {
            m->role_kill_at = m->words;
        }

    } else if ((cs & BEHAVE_C_REFLB) && m->role_kill_at
               && m->role_kill_at + 1 == m->words)
    {
        m->idiom |= BEHAVE_IDIOM_ROLE;
    }

    m->role_at = (flags & BEHAVE_WORD_ROLE) ? m->words : m->role_at;
}


/*
 * 1 when the clause's death words are an idiom: unless the clause also
 * names a sign of an emergency (a method, a weapon, an ambulance, a
 * farewell, blows, a child or an older person; with laughter also a
 * time, a place or a threat; with a thing, a day when the writer means
 * themself: "je vais me tuer ce soir avec ce routeur" stays a crisis,
 * "vou me matar com esse roteador, cai toda hora" does not).  Laughter
 * and "just kidding" clear a death word or the writer killing themself
 * ("me donne envie de me jeter par la fenêtre mdr"), nothing else.
 */
unsigned
behave_idiom(behave_cset_t c, unsigned idiom)
{
    if ((idiom & BEHAVE_IDIOM_NEAR) && !(c & BEHAVE_C_EMERGENCY)
        && !((c & BEHAVE_C_SELFDIR) && (c & (BEHAVE_C_NOW | BEHAVE_C_SOON))))
    {
        return 1;
    }

    /* "beim Öffnen der Rechnung hätte ich beinahe einen Herzinfarkt
     * bekommen": what almost happened did not */
    if ((idiom & BEHAVE_IDIOM_ALMOST) && !(c & BEHAVE_C_ALMOST_GUARD)) {
        return 1;
    }

    if (!(c & (BEHAVE_C_DIE | BEHAVE_C_KILL | BEHAVE_C_BREATH
               | BEHAVE_C_SELFDIR)))
    {
        return 0;
    }

    if ((idiom & BEHAVE_IDIOM_LAUGH) && !(c & BEHAVE_C_LAUGH_GUARD)) {
        return 1;
    }

    if ((idiom & BEHAVE_IDIOM_ROLE) && (c & BEHAVE_C_HYPO)
        && !(c & BEHAVE_C_ROLE_GUARD))
    {
        return 1;
    }

    return (idiom & BEHAVE_IDIOM_JOKE) && !(c & BEHAVE_C_JOKE_GUARD);
}


/*
 * An all-clear (labels.md's past events and negations: "it happened and
 * is over", "no one is hurt"): a word that says someone came through
 * unharmed, not just after a negation ("recovered", "ileso"; not "he
 * won't come out of it unhurt"), or an injury word just after one
 * ("nobody was hurt", "no hubo heridos", "personne n'a été blessé").
 * Likewise a loss already stopped: "already" at most three words before
 * "blocked", "frozen", "cancelled" ("I've already frozen it in the app",
 * "já bloqueei o IMEI", "Karte schon gesperrt"; German "ja" is "yes").
 * behave_model_label() then asks the trained layer to be sure, as with
 * an idiom, and no crisis frame alone makes the message critical.
 */
void
behave_well(behave_model_state_t *m, const char *w, size_t len,
    unsigned flags)
{
    if (((flags & BEHAVE_WORD_WELL) && m->since_neg > 3)
        || ((flags & BEHAVE_WORD_HURT) && m->since_neg <= 3))
    {
        m->well++;
    }

    if ((flags & BEHAVE_WORD_STOPPED) && m->already_at
        && m->words - m->already_at <= 3)
    {
        m->stopped++;
    }

    if ((flags & BEHAVE_WORD_ALREADY)
        && !(len == 2 && memcmp(w, "ja", 2) == 0 && m->lang_de))
    {
        m->already_at = m->words;
    }
}
