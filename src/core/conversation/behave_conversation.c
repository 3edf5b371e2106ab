/*
 * Copyright (C) ngx_http_behave_module authors
 *
 * Conversation findings and the recommendation; the rules are described
 * in behave_conversation.h.
 *
 * The phrase tables below cover what the annotator's cues may not (yet):
 * the conversation logic must hold on its own, so it counts the
 * annotator's cue as one more piece of evidence, never as the only one.
 * They are kept here, next to the rules that weigh them, rather than in
 * src/core/text/lexicon/, because each entry carries the words used in the
 * reasons ("claimed the refund was processed").
 */

/* memmem() is a GNU extension */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "behave_conversation.h"
#include "behave_conv_index.h"
#include "behave_conv_state.h"
#include "behave_model.h"
#include "behave_similarity.h"


/*
 * Repetition thresholds on the behave_similarity() score, tuned on the
 * labelled data: without any re-ask marker the texts must be close; with
 * a contrast ("but where...") they may share the topic only; when the
 * customer says the question is still open ("yes or no", "I've read that
 * page") a shared key word or two is enough.  Unrelated questions score
 * below 0.12 in the data, same-topic different asks 0.25 to 0.40.
 */
#define BEHAVE_CONV_REP_HIGH    0.55
#define BEHAVE_CONV_REP_LOW     0.25
#define BEHAVE_CONV_REP_FLOOR   0.15

#define BEHAVE_CONV_ESC_WINDOW  4       /* customer turns looked at */
#define BEHAVE_CONV_ESC_ANGER   -1      /* "from": anger, not a severity */
#define BEHAVE_CONV_ESC_FALL    200     /* valence fall (thousandths) */
#define BEHAVE_CONV_ID_MIN      4       /* chars of an order number */

/* repetition by meaning: BEHAVE_CONV_MEANING_* in behave_conversation.h;
 * compared with the newest customer turns only, each annotated again */
#define BEHAVE_CONV_MEANING_WINDOW  4


/*
 * A normalised turn and, filled on first use, the places where a phrase
 * of a table may match it (behave_conv_index.h): a turn is matched
 * against a dozen tables when its record is derived, and tries only the
 * phrases that begin with its words.  Where each byte pair occurs is kept
 * for the plain scan, which the index falls back on (a phrase that starts
 * with no word, too many candidates): a phrase whose first two bytes are
 * not there cannot match, and one that may is compared only where its
 * first two bytes are (head[] and next[] chain the positions of a pair's
 * bucket in increasing order), never searched for over the whole text.
 */
#define BEHAVE_CONV_PAIR_BITS  1024
#define BEHAVE_CONV_NO_POS     0xffff

typedef struct {
    char                   text[BEHAVE_CONV_SCAN_MAX + 1];
    size_t                 len;
    uint64_t               pairs[BEHAVE_CONV_PAIR_BITS / 64];
    uint16_t               head[BEHAVE_CONV_PAIR_BITS];   /* where set */
    uint16_t               next[BEHAVE_CONV_SCAN_MAX];
    int                    pairs_ready;
    int                    cands_ready;
    behave_conv_cands_t    cands;
} behave_conv_norm_t;


#define behave_conv_pair(a, b)                                                \
    (((unsigned) (unsigned char) (a) << 5 ^ (unsigned char) (b))              \
     & (BEHAVE_CONV_PAIR_BITS - 1))


/* a turn's valence score (x1000) at or below which it reports trouble */
#define BEHAVE_CONV_DENY_VALENCE  -350


#define behave_conv_tab(t)  t, sizeof(t) / sizeof(t[0])


/* the phrase tables, by their index in behave_conv_tables[] */
typedef enum {
    BEHAVE_CONV_T_CLAIMS,
    BEHAVE_CONV_T_NOT_RESOLVED,
    BEHAVE_CONV_T_CLOSING,
    BEHAVE_CONV_T_NEGATORS,
    BEHAVE_CONV_T_NO,
    BEHAVE_CONV_T_CONFIRM_STRONG,
    BEHAVE_CONV_T_AFFECT_NEG,
    BEHAVE_CONV_T_CONFIRM_WEAK,
    BEHAVE_CONV_T_REASK_STRONG,
    BEHAVE_CONV_T_FOCUS_COST,
    BEHAVE_CONV_T_FOCUS_LIMIT,
    BEHAVE_CONV_T_FOCUS_DURATION,
    BEHAVE_CONV_T_INTENT_CANCEL,
    BEHAVE_CONV_T_INTENT_REFUND,
    BEHAVE_CONV_T_INTENT_DELIVERY,
    BEHAVE_CONV_T_INTENT_ACCESS,
    BEHAVE_CONV_T_INTENT_DISCOUNT,
    BEHAVE_CONV_T_INTENT_CHARGE,
    BEHAVE_CONV_T_REASK,
    BEHAVE_CONV_T_YES_BUT,
    BEHAVE_CONV_T_CONFUSION,
    BEHAVE_CONV_T_OVERLOAD,
    BEHAVE_CONV_T_VAGUE,
    BEHAVE_CONV_T_VAGUE_REF,
    BEHAVE_CONV_T_ANGER,
    BEHAVE_CONV_T_SPECIALIST,
    BEHAVE_CONV_T_REPEAT_CONTACT,
    BEHAVE_CONV_T_ASKS,
    BEHAVE_CONV_T_CLAIMS_MORE,
    BEHAVE_CONV_T_N
} behave_conv_tab_e;

/* behave_conv_match()'s "negatable" for claims: nor after a plan */
#define BEHAVE_CONV_CLAIMED  2

/*
 * behave_conv_match()'s "negatable" for a topic (a specialist team): a
 * "not" or "never" before it counts, a "no" does not: "caí no golpe",
 * "no processo judicial" are Portuguese's "in the"
 */
#define BEHAVE_CONV_TOPIC    3


/* agent turns: the issue is presented as settled */
static const behave_conv_phrase_t  behave_conv_claims[] = {
    { "processed the refund", "the refund was processed" },
    { "processed your refund", "the refund was processed" },
    { "refund has been processed", "the refund was processed" },
    { "issued a refund", "the refund was processed" },
    { "issued the refund", "the refund was processed" },
    { "refunded", "the refund was processed" },
    { "credited", "the account was credited" },
    { "reprocessed and approved", "the claim was approved" },
    { "approved", "it was approved" },
    { "unblocked", "it was unblocked" },
    { "unlocked", "it was unlocked" },
    { "corrected", "it was corrected" },
    { "cancelled", "it was cancelled" },
    { "canceled", "it was cancelled" },
    { "fixed", "the issue was fixed" },
    { "resolved", "the issue was resolved" },
    { "sorted", "the issue was sorted" },
    { "all set", "the issue was settled" },
    { "taken care of", "the issue was taken care of" },
    { "no further action is needed", "the issue was settled" },
    { "close this ticket", "the ticket was closed" },
    { "closed the ticket", "the ticket was closed" },
    { "closed your ticket", "the ticket was closed" },
    { "closing this ticket", "the ticket was closed" },
    { "ticket is closed", "the ticket was closed" },
    { "should work now", "it works now" },
    { "should be working now", "it works now" },
    { "should be working for you", "it works now" },
    { "you're covered", "the issue was settled" },
    { "refund through", "the refund was processed" },
    { "back online", "it works now" },
    { "working now", "it works now" },
    { "working again", "it works now" },
    { "working normally", "it works now" },
    { "up and running", "it works now" },
    { "back to normal", "it works now" },
    { "good to go", "the issue was settled" },
    { "ready for collection", "it is ready" },
    { "ready to collect", "it is ready" },
    { "on its way", "it is on its way" },
    { "from now on", "it works from now on" },
    { "done", "it was done" },
    { "delivered", "it was delivered" },
    { "processed", "it was processed" },
    { "reversed", "the charge was reversed" },
    { "waived", "the charge was waived" },
    { "restored", "it was restored" },
    { "reinstated", "it was reinstated" },
    { "reactivated", "it was reactivated" },
    { "active again", "it was reactivated" },
    { "updated", "it was updated" },
    { "been applied", "it was applied" },
    { "has been sent", "it was sent" },
    { "re-sent", "it was sent" },
    { "went through", "it went through" },
    { "gone through", "it went through" },
    { "should go through", "it works now" },
    { "try again now", "it works now" },
    { "should now be able", "it works now" },
    { "you can now", "it works now" },
    { "debería funcionar", "it works now" },
    { "deberia funcionar", "it works now" },
    { "deve funcionar", "it works now" },
    { "deveria funcionar", "it works now" },
    { "devrait fonctionner", "it works now" },
    { "devrait marcher", "it works now" },
    { "sollte jetzt funktionieren", "it works now" },
    { "sollte wieder funktionieren", "it works now" },
    { "sollte jetzt laufen", "it works now" },
    { "sollte wieder laufen", "it works now" },
    { "ya puede", "it works now" },
    { "ya puedes", "it works now" },
    { "já pode", "it works now" },
    { "já podes", "it works now" },
    { "já consegue", "it works now" },
    { "pouvez à nouveau", "it works now" },
    { "pouvez de nouveau", "it works now" },
    { "pouvez maintenant", "it works now" },
    { "jetzt wieder", "it works now" },
    { "été levé", "it was lifted" },
    { "été levée", "it was lifted" },
    { "been issued", "it was issued" },
    { "dealt with", "the issue was dealt with" },
    { "en ordre", "the issue was settled" },
    { "dans l'ordre", "the issue was settled" },
    { "été livré", "it was delivered" },
    { "été livrée", "it was delivered" },
    { "tudo certo", "the issue was settled" },
    { "back up", "it works now" },
    { "fine now", "it works now" },
    /* deeds that give back or put right what was missing, in the five
     * languages: "I've added the missing points", "the parcel was left
     * in your letterbox", "hemos abonado", "removemos a cobrança",
     * "déposé dans votre boîte", "in Ihren Briefkasten gelegt" */
    { "i've added", "it was added" },
    { "we've added", "it was added" },
    { "been added", "it was added" },
    { "been returned", "the money was returned" },
    { "i've replaced", "it was replaced" },
    { "we've replaced", "it was replaced" },
    { "replaced the", "it was replaced" },
    { "been replaced", "it was replaced" },
    { "left in your", "it was delivered" },
    { "looks good now", "it works now" },
    { "looks good on our side", "it works now" },
    { "all good now", "it works now" },
    { "abonado", "the account was credited" },
    { "abonamos", "the account was credited" },
    { "hemos añadido", "it was added" },
    { "hemos sustituido", "it was replaced" },
    { "hemos cambiado", "it was replaced" },
    { "ya está todo bien", "it works now" },
    /* Portuguese's first person plural past is its present ("devolvemos
     * o dinheiro em até 7 dias"): with "já" only */
    { "já devolvemos", "the money was returned" },
    { "já removemos", "it was removed" },
    { "já adicionamos", "it was added" },
    { "já substituímos", "it was replaced" },
    { "já está tudo bem", "it works now" },
    { "foi deixada", "it was delivered" },
    { "foi deixado", "it was delivered" },
    { "été déposé", "it was delivered" },
    { "été déposée", "it was delivered" },
    { "avons ajouté", "it was added" },
    { "été ajouté", "it was added" },
    { "été ajoutée", "it was added" },
    { "avons remplacé", "it was replaced" },
    { "été remplacé", "it was replaced" },
    { "tout est bon", "it works now" },
    { "briefkasten gelegt", "it was delivered" },
    { "eingeworfen", "it was delivered" },
    { "hinzugefügt", "it was added" },
    { "ausgetauscht", "it was replaced" },
    { "ersetzt", "it was replaced" },
    { "alles wieder in ordnung", "it works now" },
    /*
     * Appended (a record keeps the index of its claim): the settled
     * state in each language's own participles and set phrases, casual
     * and formal ("that's been processed", "ticket closed on our side",
     * "c'est réglé", "ya quedó solucionado", "já está resolvido", "das
     * ist erledigt"); a plan or a negation before one is no claim
     */
    { "been processed", "it was processed" },
    { "pushed through", "the refund was processed" },
    { "put through", "it went through" },
    { "closed on our side", "the ticket was closed" },
    { "closed on our end", "the ticket was closed" },
    { "ticket closed", "the ticket was closed" },
    { "been closed", "the ticket was closed" },
    { "been cancelled", "it was cancelled" },
    { "been credited", "the account was credited" },
    { "solucionado", "the issue was resolved" },
    { "solucionada", "the issue was resolved" },
    { "resuelto", "the issue was resolved" },
    { "resuelta", "the issue was resolved" },
    { "arreglado", "the issue was fixed" },
    { "arreglada", "the issue was fixed" },
    { "reembolsado", "the refund was processed" },
    { "hecho la devolución", "the refund was processed" },
    { "hecho el reembolso", "the refund was processed" },
    { "ha sido cerrada", "the ticket was closed" },
    { "ha sido cerrado", "the ticket was closed" },
    { "ha sido procesado", "it was processed" },
    { "ha sido procesada", "it was processed" },
    { "tramitado", "it was processed" },
    { "resolvido", "the issue was resolved" },
    { "resolvida", "the issue was resolved" },
    { "corrigido", "the issue was fixed" },
    { "corrigida", "the issue was fixed" },
    { "estorno foi", "the refund was processed" },
    { "estornado", "the refund was processed" },
    { "estornada", "the refund was processed" },
    { "reembolso foi", "the refund was processed" },
    { "foi processado", "it was processed" },
    { "foi processada", "it was processed" },
    { "foi encerrado", "the ticket was closed" },
    { "foi encerrada", "the ticket was closed" },
    { "deve estar funcionando", "it works now" },
    { "c'est réglé", "the issue was resolved" },
    { "est réglé", "the issue was resolved" },
    { "été réglé", "the issue was resolved" },
    { "été résolu", "the issue was resolved" },
    { "est résolu", "the issue was resolved" },
    { "été corrigé", "the issue was fixed" },
    { "été effectué", "it was done" },
    { "été effectuée", "it was done" },
    { "été remboursé", "the refund was processed" },
    { "été traité", "it was processed" },
    { "été traitée", "it was processed" },
    { "été clôturé", "the ticket was closed" },
    { "été clôturée", "the ticket was closed" },
    { "erledigt", "the issue was settled" },
    { "behoben", "the issue was fixed" },
    { "gelöst", "the issue was resolved" },
    { "erstattet", "the refund was processed" },
    { "gutgeschrieben", "the account was credited" },
    { "veranlasst", "it was done" },
    { "ticket geschlossen", "the ticket was closed" },
    { "wurde geschlossen", "the ticket was closed" },
    { "storniert", "it was cancelled" },
    { "do the trick", "it works now" },
    { "looks fine", "it works now" },
    { "confirmed on our", "it was confirmed" },
    { "been initiated", "the refund was processed" },
    { "marked as solved", "the ticket was closed" },
    { "been solved", "the issue was resolved" },
    { "ya está.", "it was done" },
    { "ya está!", "it was done" },
    { "ya está hecho", "it was done" },
    { "está funcionando", "it works now" },
    { "c'est fait", "it was done" },
    { "est fait", "it was done" },
    { "zurücküberwiesen", "the money was returned" },
    { "sollte jetzt", "it works now" },
    { "sollte es jetzt", "it works now" },
    /*
     * Appended: a fix put live ("the patch is live", "se ha desplegado
     * la corrección", "a correção foi implantada", "le correctif a été
     * déployé", "das Update wurde eingespielt"); the working state
     * predicted back ("should work again", "debería volver a
     * funcionar"); a deed carried out ("the transfer was carried out",
     * "ya quedó", "foi efetuado", "a été réalisé", "wurde
     * durchgeführt").  A plan ("will be carried out", "wird
     * durchgeführt") or a negation before one is no claim.
     */
    { "deployed", "the fix was deployed" },
    { "fix is live", "the fix was deployed" },
    { "rolled out", "the fix was deployed" },
    { "should work again", "it works now" },
    { "should be fine again", "it works now" },
    { "been completed", "it was done" },
    { "been carried out", "it was done" },
    { "ya quedó", "the issue was settled" },
    { "quedó listo", "the issue was settled" },
    { "quedó lista", "the issue was settled" },
    { "ya está listo", "the issue was settled" },
    { "ya está lista", "the issue was settled" },
    { "se ha realizado", "it was done" },
    { "hemos realizado", "it was done" },
    { "ha sido realizado", "it was done" },
    { "ha sido realizada", "it was done" },
    { "se ha efectuado", "it was done" },
    { "hemos efectuado", "it was done" },
    { "ha sido efectuado", "it was done" },
    { "ha sido efectuada", "it was done" },
    { "se ha desplegado", "the fix was deployed" },
    { "hemos desplegado", "the fix was deployed" },
    { "volver a funcionar", "it works now" },
    { "foi efetuado", "it was done" },
    { "foi efetuada", "it was done" },
    { "foi realizado", "it was done" },
    { "foi realizada", "it was done" },
    { "foi implantado", "the fix was deployed" },
    { "foi implantada", "the fix was deployed" },
    { "já está pronto", "the issue was settled" },
    { "já está pronta", "the issue was settled" },
    { "été réalisé", "it was done" },
    { "été réalisée", "it was done" },
    { "avons effectué", "it was done" },
    { "été déployé", "the fix was deployed" },
    { "été déployée", "the fix was deployed" },
    { "avons déployé", "the fix was deployed" },
    { "été réparé", "the issue was fixed" },
    { "été réparée", "the issue was fixed" },
    { "avons réparé", "the issue was fixed" },
    { "refonctionner", "it works now" },
    { "durchgeführt", "it was done" },
    { "ausgeführt", "it was done" },
    { "abgeschlossen", "it was done" },
    { "ausgerollt", "the fix was deployed" },
    { "eingespielt", "the fix was deployed" },
    { "repariert", "the issue was fixed" },
    { "sollte wieder gehen", "it works now" },
    { "sollte wieder klappen", "it works now" },
};


/*
 * More claims, past what a record's byte can index: each is kept as the
 * first entry of behave_conv_claims[] that says the same ("what"), so the
 * record is unchanged.  The settled state said in the present ("problem
 * solved", "the link works now", "ya funciona", "já funciona", "c'est
 * corrigé", "ça marche maintenant", "das passt jetzt", "funktioniert
 * wieder").
 */
static const behave_conv_phrase_t  behave_conv_claims_more[] = {
    { "solved", "the issue was resolved" },
    { "works now", "it works now" },
    { "all fixed", "the issue was fixed" },
    { "good now", "it works now" },
    { "ya funciona", "it works now" },
    { "ya va bien", "it works now" },
    { "queda resuelto", "the issue was resolved" },
    { "já funciona", "it works now" },
    { "está certinho", "the issue was settled" },
    { "tá certinho", "the issue was settled" },
    { "ficou resolvido", "the issue was resolved" },
    { "c'est corrigé", "the issue was fixed" },
    { "est corrigé", "the issue was fixed" },
    { "est réparé", "the issue was fixed" },
    { "marche maintenant", "it works now" },
    { "fonctionne maintenant", "it works now" },
    { "passt jetzt", "it works now" },
    { "passt wieder", "it works now" },
    { "geht jetzt", "it works now" },
    { "geht wieder", "it works now" },
    { "funktioniert jetzt", "it works now" },
    { "funktioniert wieder", "it works now" },
    { "läuft jetzt", "it works now" },
    { "läuft wieder", "it works now" },
};


/* a record keeps 1 + a claim's index in a byte, 0xff for the cue */
typedef char  behave_conv_claims_fit[
    sizeof(behave_conv_claims) / sizeof(behave_conv_claims[0])
    < BEHAVE_CONV_CLAIM_CUE ? 1 : -1];


/* customer turns: the issue is not settled */
static const behave_conv_phrase_t  behave_conv_not_resolved[] = {
    { "still not", NULL },
    { "still isn't", NULL },
    { "still doesn't", NULL },
    { "still don't", NULL },
    { "still hasn't", NULL },
    { "still haven't", NULL },
    { "still can't", NULL },
    { "still no", NULL },
    { "still nothing", NULL },
    { "still empty", NULL },
    { "still broken", NULL },
    { "still down", NULL },
    { "still there", NULL },
    { "still says", NULL },
    { "still shows", NULL },
    { "still showing", NULL },
    { "still charged", NULL },
    { "still the same", NULL },
    { "still 0", NULL },
    { "still zero", NULL },
    { "still based", NULL },
    { "still failing", NULL },
    { "still declined", NULL },
    { "still denied", NULL },
    { "still blocked", NULL },
    { "still locked", NULL },
    { "still missing", NULL },
    { "still pending", NULL },
    { "still waiting", NULL },
    { "not working", NULL },
    { "isn't working", NULL },
    { "doesn't work", NULL },
    { "didn't work", NULL },
    { "hasn't worked", NULL },
    { "not fixed", NULL },
    { "isn't fixed", NULL },
    { "not sorted", NULL },
    { "isn't sorted", NULL },
    { "not resolved", NULL },
    { "isn't resolved", NULL },
    { "nothing has come in", NULL },
    { "nothing has come", NULL },
    { "nothing came", NULL },
    { "hasn't come", NULL },
    { "hasn't arrived", NULL },
    { "never arrived", NULL },
    { "haven't received", NULL },
    { "has not been", NULL },
    { "hasn't been", NULL },
    { "same problem", NULL },
    { "same issue", NULL },
    { "same error", NULL },
    { "exactly the same", NULL },
    { "nothing changed", NULL },
    { "nothing has changed", NULL },
    { "no refund", NULL },
    { "no change", NULL },
    /* new evidence of the same problem after the claim */
    { "again", NULL },
    { "another charge", NULL },
    { "charged another", NULL },
    /* "again" in the other four languages (the annotator's concept holds
     * single words: "encore", "immer noch") */
    { "otra vez", NULL },
    { "de nuevo", NULL },
    { "outra vez", NULL },
    { "de novo", NULL },
    { "à nouveau", NULL },
    { "de nouveau", NULL },
    { "erneut", NULL },
    { "schon wieder", NULL },
    { "vuelve a", NULL },
    { "volvió a", NULL },
    { "vuelto a", NULL },
    { "voltou a", NULL },
    { "volta a", NULL },
    { "got charged", NULL },
    { "been charged", NULL },
    { "new charge", NULL },
    /* nothing where the claim put it: "my letterbox is empty", "the
     * money's not there" */
    { "not there", NULL },
    { "isn't there", NULL },
    { "aren't there", NULL },
    { "no está ahí", NULL },
    { "no aparece", NULL },
    { "não está lá", NULL },
    { "não aparece", NULL },
    { "n'est pas là", NULL },
    { "n'apparaît pas", NULL },
    { "nicht da", NULL },
    { "nicht angekommen", NULL },
    { "taucht nicht auf", NULL },
    { "is empty", NULL },
    { "was empty", NULL },
    { "está vacío", NULL },
    { "está vacía", NULL },
    { "estaba vacío", NULL },
    { "estaba vacía", NULL },
    { "está vazio", NULL },
    { "está vazia", NULL },
    { "estava vazio", NULL },
    { "estava vazia", NULL },
    { "est vide", NULL },
    { "était vide", NULL },
    { "ist leer", NULL },
    { "war leer", NULL },
    /*
     * Appended (a record keeps the index of its quote): "still" and
     * "the same" in the other four languages, and their "not working"
     */
    { "sigue igual", NULL },
    { "sigue sin", NULL },
    { "sigo sin", NULL },
    { "siguen ahí", NULL },
    { "sigue ahí", NULL },
    { "todavía no", NULL },
    { "no funciona", NULL },
    { "no ha llegado", NULL },
    { "continua igual", NULL },
    { "continua dando", NULL },
    { "continua com", NULL },
    { "continua sem", NULL },
    { "ainda não", NULL },
    { "ainda aparece", NULL },
    { "ainda está", NULL },
    { "não funciona", NULL },
    { "não funcionou", NULL },
    { "nada mudou", NULL },
    { "toujours le même", NULL },
    { "toujours la même", NULL },
    { "toujours pas", NULL },
    { "ne marche pas", NULL },
    { "ne fonctionne pas", NULL },
    { "rien n'a changé", NULL },
    { "immer noch", NULL },
    { "noch immer", NULL },
    { "funktioniert nicht", NULL },
    { "nicht erledigt", NULL },
    { "nichts geändert", NULL },
    { "nichts eingegangen", NULL },
    { "kein betrag", NULL },
    /* as it was before the claim */
    { "same as before", NULL },
    { "igual que antes", NULL },
    { "igual a antes", NULL },
    { "comme avant", NULL },
    { "wie vorher", NULL },
    /* the claim challenged with what the customer sees: "then why did I
     * just get...", "alors pourquoi...", "warum dann..." */
    { "then why", NULL },
    { "so why", NULL },
    { "how come", NULL },
    { "then explain", NULL },
    { "entonces por qué", NULL },
    { "entonces ¿por qué", NULL },
    { "então por que", NULL },
    { "então porque", NULL },
    { "alors pourquoi", NULL },
    { "warum dann", NULL },
    { "wieso dann", NULL },
    { "warum kam dann", NULL },
    /* new evidence of the same problem in the other four languages */
    { "otro cargo", NULL },
    { "otro cobro", NULL },
    { "outra cobrança", NULL },
    { "nova cobrança", NULL },
    { "nouveau prélèvement", NULL },
    { "nouveau débit", NULL },
    { "neue abbuchung", NULL },
    { "wieder", NULL },
    /*
     * Appended: the same result again, in other words ("the same
     * message", "lo mismo", "a mesma coisa", "exactement pareil",
     * "dasselbe"), and "still" as German says it in writing ("steht
     * weiterhin")
     */
    { "same message", NULL },
    { "same thing", NULL },
    { "lo mismo", NULL },
    { "el mismo error", NULL },
    { "el mismo mensaje", NULL },
    { "mismo problema", NULL },
    { "a mesma coisa", NULL },
    { "o mesmo erro", NULL },
    { "a mesma mensagem", NULL },
    { "mesmo problema", NULL },
    { "pareil", NULL },
    { "la même erreur", NULL },
    { "le même message", NULL },
    { "même problème", NULL },
    { "dasselbe", NULL },
    { "das gleiche", NULL },
    { "gleiche fehler", NULL },
    { "gleicher fehler", NULL },
    { "gleiche meldung", NULL },
    { "gleiche problem", NULL },
    { "steht weiterhin", NULL },
    { "ist weiterhin", NULL },
    { "weiterhin nicht", NULL },
};


/*
 * customer turns whose negation denies nothing of the fix: a polite close
 * ("thanks, nothing else", "no, that's all") in the five languages, and
 * a remark on the answer itself ("I've read it, it doesn't say when")
 */
static const behave_conv_phrase_t  behave_conv_closing[] = {
    { "nothing else", NULL },
    { "anything else", NULL },
    { "no problem", NULL },
    { "no worries", NULL },
    { "not at all", NULL },
    { "sin problema", NULL },
    { "no pasa nada", NULL },
    { "sem problema", NULL },
    { "pas de problème", NULL },
    { "pas de souci", NULL },
    { "kein problem", NULL },
    { "that's all", NULL },
    { "that is all", NULL },
    { "that's everything", NULL },
    { "nada más", NULL },
    { "eso es todo", NULL },
    { "nada mais", NULL },
    { "só isso", NULL },
    { "é tudo", NULL },
    { "rien d'autre", NULL },
    { "c'est tout", NULL },
    { "nichts weiter", NULL },
    { "sonst nichts", NULL },
    { "das wäre alles", NULL },
    { "das war's", NULL },
};


/*
 * Negators of the five languages as whole words, for a turn right after a
 * claim ("aucun remboursement n'y apparaît", "nichts ist eingegangen"):
 * the annotator's negation cue, where its lexicon has no entry.  "no" is
 * left out: Portuguese's "in the".
 */
static const behave_conv_phrase_t  behave_conv_negators[] = {
    { "nothing", NULL },
    { "none", NULL },
    { "never", NULL },
    { "aucun", NULL },
    { "aucune", NULL },
    { "rien", NULL },
    { "jamais", NULL },
    { "pas", NULL },
    { "nada", NULL },
    { "nunca", NULL },
    { "ningún", NULL },
    { "ninguna", NULL },
    { "não", NULL },
    { "nenhum", NULL },
    { "nenhuma", NULL },
    { "nicht", NULL },
    { "nichts", NULL },
    { "kein", NULL },
    { "keine", NULL },
    { "keinen", NULL },
    { "nie", NULL },
    { "nope", NULL },
    { "nah", NULL },
    { "nowhere", NULL },
    { "non", NULL },
    { "nein", NULL },
};


/*
 * "lol no", "no.": a bare "no" answers the claim; in a longer turn it may
 * be Portuguese's "in the"
 */
static const behave_conv_phrase_t  behave_conv_no[] = {
    { "no", NULL },
};

#define BEHAVE_CONV_BARE_NO  12     /* bytes of a bare answer */


/* customer turns: the claimed fix is confirmed (weight 2) */
static const behave_conv_phrase_t  behave_conv_confirm_strong[] = {
    { "worked", NULL },
    { "works now", NULL },
    { "working now", NULL },
    { "it works", NULL },
    { "i'm in", NULL },
    { "all good", NULL },
    { "that did it", NULL },
    { "got the email", NULL },
    { "fixed now", NULL },
    { "back now", NULL },
    { "working again", NULL },
    { "back to normal", NULL },
    { "back online", NULL },
    /* none that a negation after the verb turns round ("ça marche pas",
     * "geht wieder nicht") */
    { "ya funciona", NULL },
    { "vuelve a funcionar", NULL },
    { "volvió a funcionar", NULL },
    { "voltou a funcionar", NULL },
    { "funciona otra vez", NULL },
    { "funciona de nuevo", NULL },
    { "já funciona", NULL },
    { "funciona de novo", NULL },
    { "marche à nouveau", NULL },
    { "marche de nouveau", NULL },
    { "fonctionne à nouveau", NULL },
    { "hat geklappt", NULL },
    /* the claimed money or parcel has turned up where it was promised */
    { "already on my", NULL },
    { "already in my", NULL },
    { "already there", NULL },
    { "already showing", NULL },
    { "already arrived", NULL },
    { "came through", NULL },
    { "has arrived", NULL },
    { "funcionó", NULL },
    { "funcionou", NULL },
    { "ya me llegó", NULL },
    { "ya llegó", NULL },
    { "já caiu", NULL },
    { "já chegou", NULL },
    { "déjà reçu", NULL },
    { "bien reçu", NULL },
    { "est arrivé", NULL },
    { "ist angekommen", NULL },
    { "schon da", NULL },
    /* German "again" after the verb: it works again */
    { "funktioniert wieder", NULL },
    { "geht wieder", NULL },
    { "klappt wieder", NULL },
    { "läuft wieder", NULL },
    /*
     * Appended: working now in the customer's own words, a past trouble
     * beside it or not ("it was down earlier but it's fine now", "ya va
     * bien", "agora está ok", "ça marche enfin", "läuft jetzt
     * einwandfrei"); none that a negation after the verb turns round
     */
    { "fine now", NULL },
    { "ok now", NULL },
    { "okay now", NULL },
    { "fine again", NULL },
    { "loading now", NULL },
    { "loads now", NULL },
    { "working fine", NULL },
    { "works fine", NULL },
    { "ya va bien", NULL },
    { "ya carga", NULL },
    { "ya anda", NULL },
    { "agora funciona", NULL },
    { "agora está ok", NULL },
    { "já está ok", NULL },
    { "já carrega", NULL },
    { "marche enfin", NULL },
    { "fonctionne enfin", NULL },
    { "marche bien maintenant", NULL },
    { "fonctionne bien maintenant", NULL },
    { "jetzt einwandfrei", NULL },
    { "wieder einwandfrei", NULL },
    { "wieder normal", NULL },
};


/*
 * A negation of a feeling, not of the fix: "still can't believe how quick
 * that was", "can't thank you enough", "no me lo puedo creer"; each one
 * accounts for one denial phrase and the annotator's cue it raised
 */
static const behave_conv_phrase_t  behave_conv_affect_neg[] = {
    { "can't believe", NULL },
    { "cannot believe", NULL },
    { "cant believe", NULL },
    { "can't thank", NULL },
    { "cannot thank", NULL },
    { "can't wait", NULL },
    { "can't complain", NULL },
    { "no complaints", NULL },
    { "no me lo creo", NULL },
    { "no me lo puedo creer", NULL },
    { "não acredito", NULL },
    { "n'en reviens pas", NULL },
    { "kann es kaum glauben", NULL },
    { "kaum zu glauben", NULL },
};


/* customer turns: politeness that leans towards "it landed" (weight 1) */
static const behave_conv_phrase_t  behave_conv_confirm_weak[] = {
    { "thanks", NULL },
    { "thank you", NULL },
    { "great", NULL },
    { "perfect", NULL },
    { "brilliant", NULL },
    { "cheers", NULL },
    { "got it", NULL },
    { "done", NULL },
};


/* the customer says outright that the question is still open */
static const behave_conv_phrase_t  behave_conv_reask_strong[] = {
    { "or not", NULL },
    { "yes or no", NULL },
    { "a yes or a no", NULL },
    { "i've read", NULL },
    { "ive read", NULL },
    { "i have read", NULL },
    { "doesn't say", NULL },
    { "doesnt say", NULL },
    { "doesnt answer", NULL },
    { "didnt answer", NULL },
    { "doesnt mention", NULL },
    { "didn't answer", NULL },
    { "doesn't answer", NULL },
    { "doesn't mention", NULL },
    { "haven't answered", NULL },
    { "same page", NULL },
    { "already asked", NULL },
    { "i asked", NULL },
    { "my question", NULL },
    { "still don't know", NULL },
    { "i just need to know", NULL },
    /* the same in other words and the other four languages */
    { "not what i asked", NULL },
    { "not my question", NULL },
    { "wasn't my question", NULL },
    { "answer my question", NULL },
    { "what i asked", NULL },
    { "i was asking", NULL },
    { "you haven't told me", NULL },
    { "still haven't told me", NULL },
    { "mi pregunta", NULL },
    { "lo que pregunté", NULL },
    { "ya pregunté", NULL },
    { "no me respondi", NULL },
    { "no me contest", NULL },
    { "minha pergunta", NULL },
    { "que eu perguntei", NULL },
    { "já perguntei", NULL },
    { "não respondeu", NULL },
    { "ma question", NULL },
    { "pas répondu", NULL },
    { "j'ai demandé", NULL },
    { "je demandais", NULL },
    { "meine frage", NULL },
    { "nicht beantwortet", NULL },
    { "ich wollte wissen", NULL },
    { "wollte aber wissen", NULL },
    { "ich habe gefragt", NULL },
    { "schon gefragt", NULL },
    /*
     * the answer missed what was meant, or the customer re-phrases it:
     * "that's not what I meant", "I wasn't clear", "no me refería a
     * eso", "não foi isso que", "ce n'est pas ce que je", "das meinte ich
     * nicht"
     */
    { "not what i meant", NULL },
    { "what i meant", NULL },
    { "what i mean is", NULL },
    { "wasn't clear", NULL },
    { "let me rephrase", NULL },
    { "to rephrase", NULL },
    { "no me refería", NULL },
    { "no me referia", NULL },
    { "me expliqué mal", NULL },
    { "no me expliqué", NULL },
    { "lo que quiero saber", NULL },
    { "não foi isso que", NULL },
    { "não era isso", NULL },
    { "me expressei mal", NULL },
    { "o que eu quero saber", NULL },
    { "ce n'est pas ce que", NULL },
    { "je voulais dire", NULL },
    { "mal exprimé", NULL },
    { "mal exprimée", NULL },
    { "avoir été clair", NULL },
    { "avoir été claire", NULL },
    { "ce que je veux savoir", NULL },
    { "meinte ich nicht", NULL },
    { "nicht gemeint", NULL },
    { "falsch ausgedrückt", NULL },
    { "unklar ausgedrückt", NULL },
    { "was ich wissen will", NULL },
    /*
     * a yes-or-no question left open, in the other four languages ("je
     * peux étaler le paiement ou pas ?", "¿se puede o no?")
     */
    { "o no", NULL },
    { "sí o no", NULL },
    { "ou não", NULL },
    { "sim ou não", NULL },
    { "ou pas", NULL },
    { "oui ou non", NULL },
    { "oder nicht", NULL },
    { "ja oder nein", NULL },
    /*
     * the customer goes back to an earlier question ("returning to my
     * first question", "nochmal zu meiner eigentlichen Frage"), says it
     * is asked again ("the third time I'm asking", "je vous le
     * redemande") or that only half of it was answered
     */
    { "first question", NULL },
    { "original question", NULL },
    { "time i'm asking", NULL },
    { "time im asking", NULL },
    { "time i've asked", NULL },
    { "time of asking", NULL },
    { "asking again", NULL },
    { "ask again", NULL },
    { "that's half of it", NULL },
    { "thats half of it", NULL },
    { "half my question", NULL },
    { "solo la mitad", NULL },
    { "só metade", NULL },
    { "qu'à moitié", NULL },
    { "nur die hälfte", NULL },
    { "primera pregunta", NULL },
    { "vuelvo a preguntar", NULL },
    { "lo vuelvo a preguntar", NULL },
    { "otra vez te pregunto", NULL },
    { "primeira pergunta", NULL },
    { "pergunta inicial", NULL },
    { "volto a perguntar", NULL },
    { "pergunto de novo", NULL },
    { "première question", NULL },
    { "question initiale", NULL },
    { "je redemande", NULL },
    { "je repose ma", NULL },
    { "le redemande", NULL },
    { "eigentlichen frage", NULL },
    { "ursprünglichen frage", NULL },
    { "ersten frage", NULL },
    { "frage nochmal", NULL },
    { "frage noch einmal", NULL },
    { "frage ich nochmal", NULL },
    /* the same question put another way */
    { "in other words", NULL },
    { "put another way", NULL },
    { "ask it differently", NULL },
    { "dicho de otra forma", NULL },
    { "dicho de otro modo", NULL },
    { "en otras palabras", NULL },
    { "em outras palavras", NULL },
    { "de outra forma", NULL },
    { "repose la question", NULL },
    { "autrement dit", NULL },
    { "anders gefragt", NULL },
    { "anders formuliert", NULL },
    /* going back to what was asked first, without naming it a question
     * ("going back to the start", "volviendo a lo primero", "voltando
     * ao início", "pour revenir au début", "zurück zum Anfang") */
    { "going back to", NULL },
    { "back to what i asked", NULL },
    { "back to the start", NULL },
    { "volviendo a lo primero", NULL },
    { "volviendo a lo de antes", NULL },
    { "volviendo al principio", NULL },
    { "voltando ao início", NULL },
    { "voltando ao começo", NULL },
    { "voltando ao que perguntei", NULL },
    { "pour revenir au début", NULL },
    { "pour revenir à ma", NULL },
    { "pour en revenir", NULL },
    { "zurück zum anfang", NULL },
    { "zurück zu meiner", NULL },
    { "um nochmal auf", NULL },
};


/*
 * What a question asks about, in the five languages: two asks on one
 * topic that want different things ("the fee for international
 * transfers" and "the maximum per international transfer", "prazo de
 * entrega" and "valor do frete") share most of their words but are not
 * the same ask.  Only unambiguous words: "how much" and "when" may ask
 * for a cost, an amount or a date and are left out.
 */
static const behave_conv_phrase_t  behave_conv_focus_cost[] = {
    { "fee", NULL },
    { "fees", NULL },
    { "cost", NULL },
    { "costs", NULL },
    { "price", NULL },
    { "charge for", NULL },
    { "precio", NULL },
    { "coste", NULL },
    { "costo", NULL },
    { "cuánto cuesta", NULL },
    { "comisión", NULL },
    { "preço", NULL },
    { "custo", NULL },
    { "quanto custa", NULL },
    { "valor", NULL },
    { "taxa", NULL },
    { "prix", NULL },
    { "coût", NULL },
    { "frais", NULL },
    { "combien coûte", NULL },
    { "tarif", NULL },
    { "gebühr", NULL },
    { "gebühren", NULL },
    { "kosten", NULL },
    { "kostet", NULL },
    { "preis", NULL },
};

static const behave_conv_phrase_t  behave_conv_focus_limit[] = {
    { "limit", NULL },
    { "limits", NULL },
    { "maximum", NULL },
    { "minimum", NULL },
    { "límite", NULL },
    { "máximo", NULL },
    { "mínimo", NULL },
    { "limite", NULL },
    { "plafond", NULL },
    { "höchstbetrag", NULL },
    { "mindestbetrag", NULL },
    { "maximal", NULL },
};

static const behave_conv_phrase_t  behave_conv_focus_duration[] = {
    { "how long", NULL },
    { "how many days", NULL },
    { "cuánto tarda", NULL },
    { "cuánto tiempo", NULL },
    { "plazo", NULL },
    { "quanto tempo", NULL },
    { "prazo", NULL },
    { "combien de temps", NULL },
    { "délai", NULL },
    { "wie lange", NULL },
    { "dauer", NULL },
    { "dauert", NULL },
};

/* German compounds end in what they are: "Jahresgebühr", "Versandkosten" */
static const char  *behave_conv_cost_suffix[] = {
    "gebühr", "gebühren", "kosten", "preis", "preise",
};


/*
 * A question without a question mark ("ok but like what's the last day of
 * the sale", "wie lange dauert das"): a clause that opens with an
 * interrogative.  Only words that rarely open a statement: "cuando",
 * "quando", "como" and German "was" do, and are left out.
 */
static const behave_conv_phrase_t  behave_conv_interrogative[] = {
    { "what", NULL }, { "what's", NULL }, { "whats", NULL },
    { "when", NULL }, { "where", NULL }, { "where's", NULL },
    { "how", NULL }, { "why", NULL }, { "which", NULL },
    { "can i", NULL }, { "can you", NULL }, { "could you", NULL },
    { "do i", NULL }, { "do you", NULL }, { "is there", NULL },
    { "are there", NULL },
    { "qué", NULL }, { "cuándo", NULL }, { "cómo", NULL },
    { "dónde", NULL }, { "por qué", NULL }, { "cuánto", NULL },
    { "cuánta", NULL }, { "cuántos", NULL }, { "cuántas", NULL },
    { "cuál", NULL }, { "puedo", NULL },
    { "o que", NULL }, { "onde", NULL }, { "por que", NULL },
    { "quanto", NULL }, { "quantos", NULL }, { "quantas", NULL },
    { "qual", NULL }, { "posso", NULL }, { "cadê", NULL },
    { "quand", NULL }, { "comment", NULL }, { "où", NULL },
    { "pourquoi", NULL }, { "combien", NULL }, { "quel", NULL },
    { "quelle", NULL }, { "est-ce que", NULL }, { "puis-je", NULL },
    { "wann", NULL }, { "wie viel", NULL }, { "wie viele", NULL },
    { "wie lange", NULL }, { "wie hoch", NULL }, { "wo", NULL },
    { "warum", NULL }, { "wieso", NULL }, { "welche", NULL },
    { "welcher", NULL }, { "welches", NULL }, { "kann ich", NULL },
    { "gibt es", NULL },
};


/* a concession: "schon klar, aber", "Top. Mais du coup", "tá mas" */
static const char  *behave_conv_but[] = {
    "but", "pero", "mas", "mais", "aber",
};

#define BEHAVE_CONV_CONCEDE_WORDS  3    /* words before the "but" */


/*
 * A new ask that builds on the answer: a clause that opens with "and" or
 * "also" ("OK, and can I choose Saturday?", "¿Y cubre también...?", "E
 * qual é o custo...?", "Und außerdem..."), or a turn that opens with a
 * bare acknowledgement ("Fine. And when...", "Richtig. Kann ich..."):
 * the answer landed; what follows is asked for the first time unless
 * the customer says otherwise.
 */
static const behave_conv_phrase_t  behave_conv_additive[] = {
    { "and", NULL }, { "also", NULL }, { "another question", NULL },
    { "one more thing", NULL }, { "one more question", NULL },
    { "what else", NULL },
    { "y", NULL }, { "además", NULL }, { "otra pregunta", NULL },
    { "otra cosa", NULL }, { "qué más", NULL },
    { "e", NULL }, { "também", NULL }, { "outra pergunta", NULL },
    { "outra coisa", NULL }, { "o que mais", NULL },
    { "et", NULL }, { "aussi", NULL }, { "autre question", NULL },
    { "autre chose", NULL }, { "quoi d'autre", NULL },
    { "und", NULL }, { "außerdem", NULL }, { "noch eine frage", NULL },
    { "zusätzlich", NULL }, { "was sonst", NULL },
};

static const char  *behave_conv_ack_open[] = {
    "ok", "okay", "fine", "right", "great", "cool", "sweet", "perfect",
    "good", "alright", "vale", "genial", "perfecto", "muy bien",
    "estupendo", "de acuerdo", "certo", "ótimo", "beleza", "perfeito",
    "tá bom", "top", "parfait", "d'accord", "super", "très bien",
    "gut", "prima", "alles klar", "richtig", "perfekt",
};


/*
 * What an ask is about, in the five languages: the commonest support
 * intents, each named in its own words and its synonyms ("close my
 * account", "shut it down", "dar de baja", "résilier", "kündigen"), so
 * that the same ask in other words, or in another language, is known as
 * the same ask when the letters share little.  A turn takes the first
 * intent it names; intents are numbered from 1 in the order below (a
 * record keeps the number: append only, at most 7).
 */
static const behave_conv_phrase_t  behave_conv_intent_cancel[] = {
    { "cancel", NULL }, { "close my account", NULL },
    { "close the account", NULL }, { "shut", NULL }, { "terminate", NULL },
    { "unsubscribe", NULL }, { "end my contract", NULL },
    { "dar de baja", NULL }, { "doy de baja", NULL }, { "darme de baja", NULL },
    { "cancelar", NULL }, { "cancelo", NULL }, { "encerrar", NULL },
    { "encerro", NULL }, { "résilier", NULL }, { "résiliation", NULL },
    { "arrête mon abonnement", NULL }, { "arrêter mon abonnement", NULL },
    { "kündigen", NULL }, { "kündige", NULL }, { "kündigung", NULL },
    { "beenden", NULL },
};

static const behave_conv_phrase_t  behave_conv_intent_refund[] = {
    { "refund", NULL }, { "money back", NULL }, { "reimburse", NULL },
    { "reembolso", NULL }, { "devolución", NULL }, { "devuelven", NULL },
    { "devolver el dinero", NULL }, { "estorno", NULL },
    { "dinheiro de volta", NULL }, { "remboursement", NULL },
    { "rembourser", NULL }, { "remboursé", NULL }, { "remboursée", NULL },
    { "erstattung", NULL }, { "rückzahlung", NULL }, { "geld zurück", NULL },
};

static const behave_conv_phrase_t  behave_conv_intent_delivery[] = {
    { "arrive", NULL }, { "get here", NULL }, { "delivery date", NULL },
    { "be delivered", NULL }, { "get to me", NULL },
    { "fecha de entrega", NULL },
    { "entrega", NULL }, { "llega", NULL }, { "llegar", NULL },
    { "chega", NULL }, { "chegar", NULL }, { "livraison", NULL },
    { "arriver", NULL }, { "arrivera", NULL }, { "lieferung", NULL },
    { "liefertermin", NULL }, { "ankommen", NULL }, { "zustellung", NULL },
};

static const behave_conv_phrase_t  behave_conv_intent_access[] = {
    { "password", NULL }, { "log in", NULL }, { "login", NULL },
    { "sign in", NULL }, { "pin", NULL }, { "contraseña", NULL },
    { "iniciar sesión", NULL }, { "senha", NULL }, { "mot de passe", NULL },
    { "me connecter", NULL }, { "passwort", NULL }, { "kennwort", NULL },
    { "anmelden", NULL }, { "einloggen", NULL },
};

static const behave_conv_phrase_t  behave_conv_intent_discount[] = {
    { "discount", NULL }, { "reduction", NULL }, { "cheaper", NULL },
    { "descuento", NULL }, { "desconto", NULL }, { "réduction", NULL },
    { "remise", NULL }, { "rabatt", NULL }, { "ermäßigung", NULL },
};

static const behave_conv_phrase_t  behave_conv_intent_charge[] = {
    { "charged", NULL }, { "extra charge", NULL }, { "on my bill", NULL },
    { "cargo", NULL }, { "cobro", NULL }, { "cobraron", NULL },
    { "cobrança", NULL }, { "cobrado", NULL }, { "prélèvement", NULL },
    { "débité", NULL }, { "abbuchung", NULL }, { "abgebucht", NULL },
};

static const behave_conv_tab_e  behave_conv_intents[] = {
    BEHAVE_CONV_T_INTENT_CANCEL,
    BEHAVE_CONV_T_INTENT_REFUND,
    BEHAVE_CONV_T_INTENT_DELIVERY,
    BEHAVE_CONV_T_INTENT_ACCESS,
    BEHAVE_CONV_T_INTENT_DISCOUNT,
    BEHAVE_CONV_T_INTENT_CHARGE,
};


/* the customer contrasts with the answer given */
static const behave_conv_phrase_t  behave_conv_reask[] = {
    { "but where", NULL },
    { "but how", NULL },
    { "but when", NULL },
    { "but what", NULL },
    { "but is", NULL },
    { "but can", NULL },
    { "actually", NULL },
    { "again", NULL },
    { "i just want", NULL },
    { "i just need", NULL },
    /* "as I said" before an ask: asked before and still open (before a
     * detail given again, "55-221, as I said", it asks nothing) */
    { "like i said", NULL },
    { "as i said", NULL },
    { "as i mentioned", NULL },
    { "as i already said", NULL },
    { "como le dije", NULL },
    { "como te dije", NULL },
    { "como ya dije", NULL },
    { "como dije", NULL },
    { "como eu disse", NULL },
    { "como já disse", NULL },
    { "como lhe disse", NULL },
    { "comme je disais", NULL },
    { "comme je vous disais", NULL },
    { "comme je l'ai dit", NULL },
    { "comme je vous l'ai dit", NULL },
    { "wie gesagt", NULL },
    { "wie schon gesagt", NULL },
    { "wie ich schon sagte", NULL },
    /* "actually" correcting what was understood, in the other four
     * languages, where the bare word is a filler ("en fait", "eigentlich"):
     * opening a clause, or "what I asked" */
    { "en realidad,", NULL },
    { "lo que pregunté", NULL },
    { "na verdade,", NULL },
    { "o que eu perguntei", NULL },
    { "en fait,", NULL },
    { "ce que j'ai demandé", NULL },
    { "eigentlich wollte ich", NULL },
    { "was ich gefragt habe", NULL },
};


/*
 * the customer takes the answer and says it is not the one asked for: a
 * concession, then "but" ("ok, but when does it get here", "tá, mas
 * quanto custa", "Ja, aber"): the earlier question is still open
 */
static const behave_conv_phrase_t  behave_conv_yes_but[] = {
    { "ok, but", NULL },
    { "ok but", NULL },
    { "okay, but", NULL },
    { "okay but", NULL },
    { "yes, but", NULL },
    { "sure, but", NULL },
    { "right, but", NULL },
    { "yes but", NULL },
    { "fine, but", NULL },
    { "fine but", NULL },
    { "got it, but", NULL },
    { "i know, but", NULL },
    { "i know that, but", NULL },
    /* the same in the other four languages */
    { "ok pero", NULL },
    { "ok, pero", NULL },
    { "vale pero", NULL },
    { "vale, pero", NULL },
    { "sí, pero", NULL },
    { "ya, pero", NULL },
    { "tá mas", NULL },
    { "tá, mas", NULL },
    { "ok mas", NULL },
    { "ok, mas", NULL },
    { "sim, mas", NULL },
    { "certo, mas", NULL },
    { "oui mais", NULL },
    { "oui, mais", NULL },
    { "d'accord mais", NULL },
    { "d'accord, mais", NULL },
    { "ok mais", NULL },
    { "ok, mais", NULL },
    { "ja, aber", NULL },
    { "ja aber", NULL },
    { "ok, aber", NULL },
    { "ok aber", NULL },
    { "schon, aber", NULL },
    { "entiendo, pero", NULL },
    { "entendido, pero", NULL },
    { "ya lo sé, pero", NULL },
    { "entendo, mas", NULL },
    { "entendi, mas", NULL },
    { "eu sei, mas", NULL },
    { "je sais, mais", NULL },
    { "compris, mais", NULL },
    { "verstanden, aber", NULL },
    { "weiß ich, aber", NULL },
    { "gut, aber", NULL },
    /*
     * "no" and what was meant: the answer took the ask for another
     * ("No, I mean the mobile line", "No, quiero...", "Não, eu quero
     * levar o número", "Non, je veux dire", "Nein, ich meine")
     */
    { "no, i mean", NULL },
    { "no i mean", NULL },
    { "no, i meant", NULL },
    { "no, i want", NULL },
    { "no, i'm asking", NULL },
    { "no, quiero", NULL },
    { "no, me refiero", NULL },
    { "no, pregunto", NULL },
    { "não, eu quero", NULL },
    { "não, quero", NULL },
    { "não, eu queria", NULL },
    { "não, estou perguntando", NULL },
    { "não, eu digo", NULL },
    { "non, je veux", NULL },
    { "non, je voulais", NULL },
    { "non, je demande", NULL },
    { "non, je parle", NULL },
    { "nein, ich meine", NULL },
    { "nein, ich will", NULL },
    { "nein, ich möchte", NULL },
    { "nein, ich wollte", NULL },
};


/* the answer was not understood */
static const behave_conv_phrase_t  behave_conv_confusion[] = {
    { "don't understand", NULL },
    { "do not understand", NULL },
    { "don't get it", NULL },
    { "don't know what", NULL },
    { "what do you mean", NULL },
    { "makes no sense", NULL },
    { "confused", NULL },
    { "confusing", NULL },
    { "which one", NULL },
    { "muddle", NULL },
    { "no entiendo", NULL },
    { "no lo entiendo", NULL },
    { "não entendi", NULL },
    { "não entendo", NULL },
    { "nao entendi", NULL },
    { "comprends pas", NULL },
    { "pas compris", NULL },
    { "comprends rien", NULL },
    { "rien compris", NULL },
    { "verstehe nicht", NULL },
    { "verstehe nichts", NULL },
    { "verstehe gar nichts", NULL },
    { "verstehe kein wort", NULL },
    { "versteh nicht", NULL },
    { "verstehe das nicht", NULL },
    { "verstehe ich nicht", NULL },
    /* last: "I don't see it" after a claim says it is not there */
    { "don't see", NULL },
};


/* the answer was too much */
static const behave_conv_phrase_t  behave_conv_overload[] = {
    { "i'm lost", NULL },
    { "im lost", NULL },
    { "too many steps", NULL },
    { "too many questions", NULL },
    { "too many options", NULL },
    { "too much information", NULL },
    { "this is too much", NULL },
    { "it's too much", NULL },
    { "that's too much", NULL },
    { "too complicated", NULL },
    { "overwhelm", NULL },
    { "overwhelmed", NULL },
    { "can't follow", NULL },
    { "cannot follow", NULL },
    { "jargon", NULL },
    { "double dutch", NULL },
    { "demasiada información", NULL },
    { "me he liado", NULL },
    { "estoy perdido", NULL },
    { "estoy perdida", NULL },
    { "informação demais", NULL },
    { "estou perdido", NULL },
    { "estou perdida", NULL },
    { "trop d'informations", NULL },
    { "trop compliqué", NULL },
    { "je suis perdu", NULL },
    { "je suis perdue", NULL },
    { "mir alles zu viel", NULL },
    { "ist mir zu viel", NULL },
    { "zu kompliziert", NULL },
    { "blicke nicht durch", NULL },
};


/* the ask itself is vague; two or more make it unclear */
static const behave_conv_phrase_t  behave_conv_vague[] = {
    { "hard to say", NULL },
    { "sort of", NULL },
    { "kind of", NULL },
    { "you know", NULL },
    { "the thing with", NULL },
    { "or something", NULL },
    { "not sure", NULL },
    { "i guess", NULL },
    { "somehow", NULL },
    { "whatever it is", NULL },
};


/*
 * What a customer names without saying what it is: "it's doing the thing
 * again", "that noise", "my phone thing", "charging weird".  In a short
 * first message with no number or name to go on, the ask is unclear.
 */
static const behave_conv_phrase_t  behave_conv_vague_ref[] = {
    { "thing", NULL },
    { "things", NULL },
    { "that noise", NULL },
    { "the noise", NULL },
    { "weird", NULL },
    { "funny", NULL },
    { "acting up", NULL },
    { "playing up", NULL },
    { "doing it again", NULL },
    { "la cosa", NULL },
    { "esa cosa", NULL },
    { "lo de siempre", NULL },
    { "raro", NULL },
    { "a coisa", NULL },
    { "aquela coisa", NULL },
    { "estranho", NULL },
    { "le truc", NULL },
    { "ce truc", NULL },
    { "bizarre", NULL },
    { "das ding", NULL },
    { "komisch", NULL },
    { "seltsam", NULL },
    /* something named by when it was last mentioned, never by what */
    { "the other one", NULL },
    { "that one", NULL },
    { "lo de antes", NULL },
    { "lo del otro día", NULL },
    { "lo de ayer", NULL },
    { "aquilo", NULL },
    { "aquele problema", NULL },
    { "o de antes", NULL },
    { "le machin", NULL },
    { "l'autre truc", NULL },
    { "comme l'autre fois", NULL },
    { "das von vorhin", NULL },
    { "das von neulich", NULL },
    { "das teil", NULL },
    /* the same vague thing in another case or gender */
    { "dem ding", NULL },
    { "dem teil", NULL },
    { "das zeug", NULL },
    { "the stuff", NULL },
    { "esse negócio", NULL },
    { "aquele negócio", NULL },
    { "ce machin", NULL },
};

#define BEHAVE_CONV_UNCLEAR_MAX  100    /* bytes of a short message */
#define BEHAVE_CONV_CASCADE      3      /* questions in one turn */


/*
 * Anger and ultimatums: the intensity that labels.md's escalation counts
 * besides valence and urgency, which the annotator's levels may not show
 * ("If nobody has come by Friday I'm reporting you" reads as medium).
 */
static const behave_conv_phrase_t  behave_conv_anger[] = {
    { "unacceptable", NULL },
    { "ridiculous", NULL },
    { "a disgrace", NULL },
    { "a joke", NULL },
    { "i've had enough", NULL },
    { "enough is enough", NULL },
    { "fed up", NULL },
    { "sick of this", NULL },
    { "last chance", NULL },
    { "i'm reporting", NULL },
    { "i will report", NULL },
    { "i'll report", NULL },
    { "report you", NULL },
    { "speak to a manager", NULL },
    { "speak to your manager", NULL },
    { "your supervisor", NULL },
    { "inaceptable", NULL },
    { "una vergüenza", NULL },
    { "estoy harto", NULL },
    { "estoy harta", NULL },
    { "voy a denunciar", NULL },
    { "inaceitável", NULL },
    { "um absurdo", NULL },
    { "estou farto", NULL },
    { "estou farta", NULL },
    { "vou denunciar", NULL },
    { "inadmissible", NULL },
    { "inacceptable", NULL },
    { "scandaleux", NULL },
    { "j'en ai marre", NULL },
    { "ras le bol", NULL },
    { "porter plainte", NULL },
    { "unverschämt", NULL },
    { "inakzeptabel", NULL },
    { "frechheit", NULL },
    { "mir reicht", NULL },
    { "reicht mir", NULL },
    { "beschweren", NULL },
    /*
     * the same intensity by other means, in the five languages: contempt
     * for the service, a demand for someone above the agent, a threat to
     * leave or to take it further
     */
    { "pathetic", NULL },
    { "incompetent", NULL },
    { "a manager", NULL },
    { "a supervisor", NULL },
    { "someone senior", NULL },
    { "taking my business", NULL },
    { "i'm cancelling", NULL },
    { "i'm leaving", NULL },
    { "ombudsman", NULL },
    { "inútiles", NULL },
    { "incompetentes", NULL },
    { "un responsable", NULL },
    { "un supervisor", NULL },
    { "un encargado", NULL },
    { "me doy de baja", NULL },
    { "hoja de reclamaciones", NULL },
    { "um supervisor", NULL },
    { "um gerente", NULL },
    { "um responsável", NULL },
    { "vou cancelar", NULL },
    { "reclame aqui", NULL },
    { "procon", NULL },
    { "lamentável", NULL },
    { "incompétents", NULL },
    { "un supérieur", NULL },
    { "je vais résilier", NULL },
    { "n'importe quoi", NULL },
    { "vorgesetzten", NULL },
    { "ihren chef", NULL },
    { "ich kündige", NULL },
    { "verbraucherzentrale", NULL },
    { "lächerlich", NULL },
    { "unfähig", NULL },
    /*
     * an ultimatum: a demand and what the customer will do if it is not
     * met ("sort it today or I'm going to the press", "de lo contrario
     * me voy", "senão eu cancelo", "sinon je résilie", "andernfalls
     * kündige ich"), a deadline set to the company ("you have until
     * noon"), and anger named outright ("I'm furious", "stinksauer")
     */
    { "or i'm", NULL },
    { "or im", NULL },
    { "or i'll", NULL },
    { "or i will", NULL },
    { "or else", NULL },
    { "otherwise i'll", NULL },
    { "otherwise i will", NULL },
    { "otherwise i'm", NULL },
    { "you have until", NULL },
    { "you've got until", NULL },
    { "furious", NULL },
    { "livid", NULL },
    { "o si no", NULL },
    { "de lo contrario", NULL },
    { "tienen hasta", NULL },
    { "tiene hasta", NULL },
    { "furioso", NULL },
    { "furiosa", NULL },
    { "senão eu", NULL },
    { "senão vou", NULL },
    { "caso contrário", NULL },
    { "vocês têm até", NULL },
    { "você tem até", NULL },
    { "sinon je", NULL },
    { "sinon j'", NULL },
    { "ou je vais", NULL },
    { "vous avez jusqu'à", NULL },
    { "furieux", NULL },
    { "furieuse", NULL },
    { "andernfalls", NULL },
    { "sonst werde ich", NULL },
    { "sonst gehe ich", NULL },
    { "sonst zahlen sie", NULL },
    { "sonst ziehe ich", NULL },
    { "sie haben bis", NULL },
    { "stinksauer", NULL },
    { "wütend", NULL },
};


/* needs a specialist team */
static const behave_conv_phrase_t  behave_conv_specialist[] = {
    { "formal complaint", "the complaints team" },
    { "make a complaint", "the complaints team" },
    { "complaint", "the complaints team" },
    { "appeal", "the appeals team" },
    { "by mistake", "payment recovery" },
    { "wrong account", "payment recovery" },
    { "fraud", "the fraud team" },
    { "fraudulent", "the fraud team" },
    { "scam", "the fraud team" },
    { "scammed", "the fraud team" },
    { "scammer", "the fraud team" },
    { "dispute", "the disputes team" },
    { "chargeback", "the disputes team" },
    { "legal action", "the legal team" },
    { "county court", "the legal team" },
    { "court claim", "the legal team" },
    { "court order", "the legal team" },
    { "take you to court", "the legal team" },
    { "small claims", "the legal team" },
    { "solicitor", "the legal team" },
    { "lawyer", "the legal team" },
    { "ombudsman", "the complaints team" },
    { "bereavement", "the bereavement team" },
    { "passed away", "the bereavement team" },
    { "data breach", "the data protection team" },
    { "gdpr", "the data protection team" },
    /* the same teams in the other four languages */
    { "reclamación formal", "the complaints team" },
    { "queja formal", "the complaints team" },
    { "hoja de reclamaciones", "the complaints team" },
    { "reclamação formal", "the complaints team" },
    { "livro de reclamações", "the complaints team" },
    { "réclamation formelle", "the complaints team" },
    { "plainte formelle", "the complaints team" },
    { "förmliche beschwerde", "the complaints team" },
    { "offizielle beschwerde", "the complaints team" },
    { "dienstaufsichtsbeschwerde", "the complaints team" },
    { "widerspruch", "the appeals team" },
    { "recurso", "the appeals team" },
    { "recours", "the appeals team" },
    { "fraude", "the fraud team" },
    { "fraudes", "the fraud team" },
    { "estafa", "the fraud team" },
    { "estafado", "the fraud team" },
    { "estafada", "the fraud team" },
    { "golpe", "the fraud team" },
    { "golpista", "the fraud team" },
    { "arnaque", "the fraud team" },
    { "arnaqué", "the fraud team" },
    { "arnaquée", "the fraud team" },
    { "escroquerie", "the fraud team" },
    { "escroc", "the fraud team" },
    { "betrug", "the fraud team" },
    { "betrüger", "the fraud team" },
    { "betrogen", "the fraud team" },
    { "abogado", "the legal team" },
    { "advogado", "the legal team" },
    { "avocat", "the legal team" },
    { "anwalt", "the legal team" },
    { "rechtsanwalt", "the legal team" },
    { "demanda judicial", "the legal team" },
    { "processo judicial", "the legal team" },
    { "action en justice", "the legal team" },
    { "klage", "the legal team" },
    { "juzgado", "the legal team" },
    { "citación judicial", "the legal team" },
    { "ação judicial", "the legal team" },
    { "intimação", "the legal team" },
    { "tribunal", "the legal team" },
    { "huissier", "the legal team" },
    { "mise en demeure", "the legal team" },
    { "vor gericht", "the legal team" },
    { "gerichtlich", "the legal team" },
    { "mahnbescheid", "the legal team" },
    { "falleció", "the bereavement team" },
    { "faleceu", "the bereavement team" },
    { "décédé", "the bereavement team" },
    { "décédée", "the bereavement team" },
    { "verstorben", "the bereavement team" },
    { "contracargo", "the disputes team" },
    { "rgpd", "the data protection team" },
    { "dsgvo", "the data protection team" },
    /*
     * Appended (a record keeps the index of its team): the legal team
     * named by its department or by the action threatened ("legal
     * department", "acciones legales", "departamento jurídico", "service
     * juridique", "rechtliche Schritte"), and the accessibility team
     * by its name (not "large print", which a bookshop sells)
     */
    { "legal department", "the legal team" },
    { "legal team", "the legal team" },
    { "acciones legales", "the legal team" },
    { "acción legal", "the legal team" },
    { "departamento jurídico", "the legal team" },
    { "departamento legal", "the legal team" },
    { "ações legais", "the legal team" },
    { "medidas legais", "the legal team" },
    { "service juridique", "the legal team" },
    { "poursuites judiciaires", "the legal team" },
    { "rechtliche schritte", "the legal team" },
    { "rechtsabteilung", "the legal team" },
    { "accessibility team", "the accessibility team" },
    { "accesibilidad", "the accessibility team" },
    { "acessibilidade", "the accessibility team" },
    { "accessibilité", "the accessibility team" },
    { "barrierefreiheit", "the accessibility team" },
};


/* the customer says this is not the first contact */
static const behave_conv_phrase_t  behave_conv_repeat_contact[] = {
    { "third time", NULL },
    { "second time", NULL },
    { "three times", NULL },
    { "several times", NULL },
    { "many times", NULL },
    { "third day", NULL },
    { "already told", NULL },
    { "already asked", NULL },
    { "already called", NULL },
    { "already contacted", NULL },
    { "keep asking", NULL },
    { "called before", NULL },
    { "contacted you before", NULL },
};


/* a question asked without "?" */
static const behave_conv_phrase_t  behave_conv_asks[] = {
    { "i just need to know", NULL },
    { "i need to know", NULL },
    { "i just want to", NULL },
    { "tell me", NULL },
    /* an indirect question: "I'd like to know why", "queria saber" */
    { "i'd like to know", NULL },
    { "i would like to know", NULL },
    { "i want to know", NULL },
    { "i wanted to know", NULL },
    { "quería saber", NULL },
    { "queria saber", NULL },
    { "quisiera saber", NULL },
    { "me gustaría saber", NULL },
    { "gostaria de saber", NULL },
    { "je voudrais savoir", NULL },
    { "j'aimerais savoir", NULL },
    { "je veux savoir", NULL },
    { "ich möchte wissen", NULL },
    { "ich würde gern wissen", NULL },
    { "ich wüsste gern", NULL },
    /* the same in the past of politeness: "I wanted to ask" */
    { "i wanted to ask", NULL },
    { "quería preguntar", NULL },
    { "queria perguntar", NULL },
    { "je voulais savoir", NULL },
    { "je voulais demander", NULL },
    { "wollte ich wissen", NULL },
    { "wollte wissen", NULL },
    { "wollte fragen", NULL },
};


static const behave_conv_table_t  behave_conv_tables[BEHAVE_CONV_T_N] = {
    [BEHAVE_CONV_T_CLAIMS] = { behave_conv_tab(behave_conv_claims) },
    [BEHAVE_CONV_T_NOT_RESOLVED] =
        { behave_conv_tab(behave_conv_not_resolved) },
    [BEHAVE_CONV_T_CLOSING] = { behave_conv_tab(behave_conv_closing) },
    [BEHAVE_CONV_T_NEGATORS] = { behave_conv_tab(behave_conv_negators) },
    [BEHAVE_CONV_T_NO] = { behave_conv_tab(behave_conv_no) },
    [BEHAVE_CONV_T_CONFIRM_STRONG] =
        { behave_conv_tab(behave_conv_confirm_strong) },
    [BEHAVE_CONV_T_AFFECT_NEG] = { behave_conv_tab(behave_conv_affect_neg) },
    [BEHAVE_CONV_T_CONFIRM_WEAK] =
        { behave_conv_tab(behave_conv_confirm_weak) },
    [BEHAVE_CONV_T_REASK_STRONG] =
        { behave_conv_tab(behave_conv_reask_strong) },
    [BEHAVE_CONV_T_FOCUS_COST] = { behave_conv_tab(behave_conv_focus_cost) },
    [BEHAVE_CONV_T_FOCUS_LIMIT] = { behave_conv_tab(behave_conv_focus_limit) },
    [BEHAVE_CONV_T_FOCUS_DURATION] =
        { behave_conv_tab(behave_conv_focus_duration) },
    [BEHAVE_CONV_T_INTENT_CANCEL] =
        { behave_conv_tab(behave_conv_intent_cancel) },
    [BEHAVE_CONV_T_INTENT_REFUND] =
        { behave_conv_tab(behave_conv_intent_refund) },
    [BEHAVE_CONV_T_INTENT_DELIVERY] =
        { behave_conv_tab(behave_conv_intent_delivery) },
    [BEHAVE_CONV_T_INTENT_ACCESS] =
        { behave_conv_tab(behave_conv_intent_access) },
    [BEHAVE_CONV_T_INTENT_DISCOUNT] =
        { behave_conv_tab(behave_conv_intent_discount) },
    [BEHAVE_CONV_T_INTENT_CHARGE] =
        { behave_conv_tab(behave_conv_intent_charge) },
    [BEHAVE_CONV_T_REASK] = { behave_conv_tab(behave_conv_reask) },
    [BEHAVE_CONV_T_YES_BUT] = { behave_conv_tab(behave_conv_yes_but) },
    [BEHAVE_CONV_T_CONFUSION] = { behave_conv_tab(behave_conv_confusion) },
    [BEHAVE_CONV_T_OVERLOAD] = { behave_conv_tab(behave_conv_overload) },
    [BEHAVE_CONV_T_VAGUE] = { behave_conv_tab(behave_conv_vague) },
    [BEHAVE_CONV_T_VAGUE_REF] = { behave_conv_tab(behave_conv_vague_ref) },
    [BEHAVE_CONV_T_ANGER] = { behave_conv_tab(behave_conv_anger) },
    [BEHAVE_CONV_T_SPECIALIST] = { behave_conv_tab(behave_conv_specialist) },
    [BEHAVE_CONV_T_REPEAT_CONTACT] =
        { behave_conv_tab(behave_conv_repeat_contact) },
    [BEHAVE_CONV_T_ASKS] = { behave_conv_tab(behave_conv_asks) },
    [BEHAVE_CONV_T_CLAIMS_MORE] =
        { behave_conv_tab(behave_conv_claims_more) },
};

/* the index of behave_conv_tables[], built before the first match */
static pthread_once_t  behave_conv_once = PTHREAD_ONCE_INIT;


static const char  *behave_conv_guidance[] = {
    /* 0 crisis */
    "Put the person's safety first: respond with care and urgency, give "
    "emergency guidance if anyone is at risk, and connect a human now. Do "
    "not close the conversation or send scripted text.",
    /* 1 false resolution */
    "Do not say again that the issue is resolved. Acknowledge that it is "
    "still not working, apologise for the wrong confirmation, and hand over "
    "to a person who can check the fix before confirming anything.",
    /* 2 escalating */
    "Acknowledge the frustration and what the customer has already tried, "
    "without scripted apologies or links already sent. Hand over to a person "
    "with authority to act and say when they will be in touch.",
    /* 3 route */
    "Tell the customer which team will handle this and what happens next; "
    "do not decide it yourself or promise an outcome.",
    /* 4 simplify */
    "Answer in one or two short sentences in plain words, no jargon; give "
    "one step at a time and check it worked before the next.",
    /* 5 clarify after repetition */
    "The previous answer did not land: answer the exact question directly "
    "(yes or no first if that is what was asked), without pointing to the "
    "same page or policy text again.",
    /* 6 clarify unclear */
    "Ask one specific question to pin down the problem, offering concrete "
    "options the customer can pick from.",
    /* 7 resolve */
    "Answer the question directly and completely; do not present the issue "
    "as resolved until the customer confirms it.",
    /* 8 degraded */
    "Conversation context is unavailable: treat this message as possibly "
    "part of an ongoing problem, do not claim anything is resolved, and hand "
    "over to a person who can read the history.",
};


typedef enum {
    BEHAVE_GUIDE_CRISIS = 0,
    BEHAVE_GUIDE_FALSE_RESOLUTION,
    BEHAVE_GUIDE_ESCALATING,
    BEHAVE_GUIDE_ROUTE,
    BEHAVE_GUIDE_SIMPLIFY,
    BEHAVE_GUIDE_REPETITION,
    BEHAVE_GUIDE_UNCLEAR,
    BEHAVE_GUIDE_RESOLVE,
    BEHAVE_GUIDE_DEGRADED
} behave_conv_guide_e;


static void behave_conv_normalize(const char *in, size_t len,
    behave_conv_norm_t *out);
static void behave_conv_pairs(behave_conv_norm_t *t);
static int behave_conv_negated(const char *s, size_t at, int topic);
static int behave_conv_planned(const char *s, size_t at);
static int behave_conv_at(const behave_conv_norm_t *t, const char *phrase,
    size_t plen, size_t at, int negatable);
static int behave_conv_occurs(const behave_conv_norm_t *t,
    const char *phrase, size_t plen, int negatable);
static unsigned behave_conv_scan(const behave_conv_norm_t *t,
    const behave_conv_phrase_t *tab, size_t ntab, int negatable,
    const behave_conv_phrase_t **first);
static void behave_conv_index_init(void);
static unsigned behave_conv_indexed(const behave_conv_norm_t *t,
    behave_conv_tab_e id, int negatable, const behave_conv_phrase_t **first);
static unsigned behave_conv_match(const behave_conv_norm_t *t,
    behave_conv_tab_e id, int negatable, const behave_conv_phrase_t **first);
static int behave_conv_intensity(const char *text, size_t len);
static void behave_conv_ids(const behave_conv_norm_t *t,
    behave_conv_rec_t *rec);
static int behave_conv_asked(const behave_conv_rec_t *r);
static int behave_conv_ids_differ(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b);
static int behave_conv_has_question(const behave_conv_norm_t *t);
static size_t behave_conv_clause(const behave_conv_norm_t *t, size_t i);
static int behave_conv_phrase_at(const behave_conv_norm_t *t,
    const behave_conv_phrase_t *tab, size_t ntab, size_t at);
static int behave_conv_opens(const behave_conv_norm_t *t,
    const behave_conv_phrase_t *tab, size_t ntab, unsigned clauses);
static size_t behave_conv_word_in(const behave_conv_norm_t *t, size_t at,
    const char **words, size_t n);
static size_t behave_conv_concedes(const behave_conv_norm_t *t);
static int behave_conv_plain_question(const behave_conv_norm_t *t);
static int behave_conv_follow_up(const behave_conv_norm_t *t);
static int behave_conv_compound_cost(const behave_conv_norm_t *t);
static unsigned behave_conv_focus(const behave_conv_norm_t *t);
static unsigned behave_conv_intent(const behave_conv_norm_t *t);
static int behave_conv_same_intent(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b);
static int behave_conv_focus_differs(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b);
static unsigned behave_conv_questions(const behave_conv_norm_t *t);
static unsigned behave_conv_first(const behave_conv_norm_t *t,
    behave_conv_tab_e id, int negatable, unsigned *count);
static int behave_conv_denies(const behave_conv_norm_t *cur, unsigned cues,
    int lost, unsigned *quote);
static unsigned behave_conv_claim(const behave_conv_norm_t *t,
    unsigned cues);
static const char *behave_conv_claim_what(unsigned k);
static int behave_conv_restates(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur);
static void behave_conv_false_resolution(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out);
static void behave_conv_repetition(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out,
    unsigned *similar);
static void behave_conv_escalation_second(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out, int *from);
static void behave_conv_escalation(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur_rec, unsigned reasks,
    behave_conv_result_t *out, int *from, int *turns);
static void behave_conv_assess_customer(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out);
static void behave_conv_recommend(const behave_conv_state_t *st,
    const behave_conv_rec_t *current,
    behave_conv_result_t *out, int esc_from, int esc_turns, int opening);
static void behave_conv_review(behave_conv_result_t *out);
static void behave_conv_init(behave_conv_result_t *out, size_t n);

/*
 * Lowercases ASCII, maps U+2018/U+2019 to "'" and runs of whitespace to
 * one space; stops before a multibyte character that would not fit.
 */

static void
behave_conv_normalize(const char *in, size_t len, behave_conv_norm_t *out)
{
    size_t          i, n, k;
    unsigned char   c;

    n = 0;
    i = 0;

    while (i < len && n < BEHAVE_CONV_SCAN_MAX) {
        c = (unsigned char) in[i];

        if (c == 0xe2 && i + 2 < len && (unsigned char) in[i + 1] == 0x80
            && ((unsigned char) in[i + 2] == 0x98
                || (unsigned char) in[i + 2] == 0x99))
        {
            out->text[n++] = '\'';
            i += 3;
            continue;
        }

        if (c >= 0x80) {
            /* copy the whole character or stop */
            k = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                : (c & 0xf8) == 0xf0 ? 4 : 1;

            if (n + k > BEHAVE_CONV_SCAN_MAX || i + k > len) {
                break;
            }

            memcpy(out->text + n, in + i, k);
            n += k;
            i += k;
            continue;
        }

        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (n > 0 && out->text[n - 1] != ' ') {
                out->text[n++] = ' ';
            }
            i++;
            continue;
        }

        if (c >= 'A' && c <= 'Z') {
            c = (unsigned char) (c + ('a' - 'A'));
        }

        out->text[n++] = (char) c;
        i++;
    }

    out->text[n] = '\0';
    out->len = n;

    out->pairs_ready = 0;
    out->cands_ready = 0;
}


/* most normalised turns are only compared, never matched: pairs on demand */
static void
behave_conv_pairs(behave_conv_norm_t *t)
{
    size_t  i, k;

    memset(t->pairs, 0, sizeof(t->pairs));

    /* backwards, so that each chain runs forwards */
    for (i = t->len > 0 ? t->len - 1 : 0; i-- > 0; /* void */) {
        k = behave_conv_pair(t->text[i], t->text[i + 1]);

        t->next[i] = (t->pairs[k / 64] >> (k % 64) & 1) ? t->head[k]
                                                         : BEHAVE_CONV_NO_POS;
        t->head[k] = (uint16_t) i;
        t->pairs[k / 64] |= (uint64_t) 1 << (k % 64);
    }

    t->pairs_ready = 1;
}


/*
 * Where the clause that `at` is in starts, at most span bytes back: what
 * comes before a comma or a stop ("no problem, fixed") is another clause.
 */
static size_t
behave_conv_clause_start(const char *s, size_t at, size_t span)
{
    size_t  from, k;

    from = at > span ? at - span : 0;

    for (k = at; k > from; k--) {
        if (s[k - 1] == ',' || s[k - 1] == '.' || s[k - 1] == '!'
            || s[k - 1] == ';' || s[k - 1] == ':' || s[k - 1] == '?')
        {
            return k;
        }
    }

    return from;
}


/* "not fixed", "hasn't been resolved", "never worked": a denial */
static int
behave_conv_negated(const char *s, size_t at, int topic)
{
    size_t       from, k, nneg;
    static const char  *neg[] = {
        "not ", "n't ", "never ",
        /* the other four languages' negators before the verb or the
         * participle ("não foi resolvido", "pas encore réglé", "nicht
         * erledigt"); Spanish shares "no", kept last */
        "não ", "nunca ", "pas ", "jamais ", "nicht ", "noch kein ",
        "no "
    };

    /* "no" is the last entry */
    nneg = sizeof(neg) / sizeof(neg[0]) - (topic ? 1 : 0);

    /* "no problem, fixed": a negation does not reach over punctuation */
    from = behave_conv_clause_start(s, at, 16);

    for (k = 0; k < nneg; k++) {
        const char  *p;

        p = memmem(s + from, at - from, neg[k], strlen(neg[k]));
        if (p != NULL) {
            return 1;
        }
    }

    return 0;
}


/*
 * "Let's get you back online", "I'll have it working again by Friday":
 * a plan, not a claim (the annotator's @notyet, for the phrase table)
 */
static const char  *behave_conv_plan[] = {
        "let's ", "let me ", "i'll ", "we'll ", "will ", "going to ",
        "try to ", "vamos a ", "vamos ", "on va ", "nous allons ",
        "wir werden ",
        /* the passive or the future of a deed still to come ("will be
         * carried out", "será realizado", "vai ser", "sera effectué",
         * "wird durchgeführt") */
        "wird ", "werden ", "será ", "serán ", "vai ", "vão ", "sera ",
        "seront ",
        /* a condition or a rule, not a deed: "once the points have been
         * added", "check whether it was left in your letterbox" */
        "once ", "as soon as ", "until ", "unless ", "whether ", "if ",
        "cuando ", "en cuanto ", "quando ", "assim que ", "lorsque ",
        "quand ", "dès que ", "sobald ", "wenn ", "falls ", "ob ",
};


/*
 * A deed told as done, in the perfect or the past of the five languages
 * ("has been re-dispatched", "hemos enviado", "já foi", "a été",
 * "wurde"): a plan beside it ("and will arrive tomorrow") is what
 * follows from the deed, not the deed itself
 */
static const char  *behave_conv_perfect[] = {
    "has been ", "have been ", "i've ", "we've ", "was ", "were ",
    "ha sido ", "han sido ", "hemos ", "fue ", "fueron ", "já ", "foi ",
    "foram ", "a été ", "ont été ", "avons ", "wurde ", "wurden ",
    "haben ", "ist ",
};


/* a word of words[] starts in s[from, to) */
static int
behave_conv_word_from(const char *s, size_t from, size_t to,
    const char **words, size_t n)
{
    size_t       k;
    const char  *p, *e;

    e = s + to;

    for (k = 0; k < n; k++) {
        for (p = s + from; p < e; p++) {
            p = memmem(p, (size_t) (e - p), words[k], strlen(words[k]));
            if (p == NULL) {
                break;
            }

            /* a whole word: "if " is not the end of "tarif ", nor "ob "
             * of "job " */
            if (p == s || !behave_conv_is_word((unsigned char) p[-1])) {
                return 1;
            }
        }
    }

    return 0;
}


#define behave_conv_plan_in(s, from, to)                                      \
    behave_conv_word_from(s, from, to, behave_conv_plan,                      \
                          sizeof(behave_conv_plan)                            \
                          / sizeof(behave_conv_plan[0]))

#define behave_conv_perfect_in(s, to)                                         \
    behave_conv_word_from(s, 0, to, behave_conv_perfect,                      \
                          sizeof(behave_conv_perfect)                         \
                          / sizeof(behave_conv_perfect[0]))


static int
behave_conv_planned(const char *s, size_t at)
{
    size_t  from, k;

    from = behave_conv_clause_start(s, at, 24);

    if (behave_conv_plan_in(s, from, at)) {
        return 1;
    }

    /* "Is it working now?", "Has the refund gone through?": asked, not
     * claimed (the phrase's clause ends with a question mark) */
    for (k = at; s[k] != '\0'; k++) {
        if (s[k] == '?') {
            return 1;
        }

        if (s[k] == ',' || s[k] == '.' || s[k] == '!' || s[k] == ';'
            || s[k] == ':')
        {
            break;
        }
    }

    return 0;
}


/* phrase at t->text + at, as whole words, not right after a denial */
static int
behave_conv_at(const behave_conv_norm_t *t, const char *phrase, size_t plen,
    size_t at, int negatable)
{
    if (at + plen > t->len || memcmp(t->text + at, phrase, plen) != 0) {
        return 0;
    }

    /* "¿cuánto", "¡ya": Spanish's opening marks end no word */
    if (behave_conv_is_word((unsigned char) phrase[0]) && at > 0
        && behave_conv_is_word((unsigned char) t->text[at - 1])
        && !(at > 1 && (unsigned char) t->text[at - 2] == 0xc2
             && ((unsigned char) t->text[at - 1] == 0xbf
                 || (unsigned char) t->text[at - 1] == 0xa1)))
    {
        return 0;
    }

    if (behave_conv_is_word((unsigned char) phrase[plen - 1])
        && at + plen < t->len
        && behave_conv_is_word((unsigned char) t->text[at + plen]))
    {
        return 0;
    }

    if (negatable == BEHAVE_CONV_CLAIMED && behave_conv_planned(t->text, at)) {
        return 0;
    }

    return !(negatable
             && behave_conv_negated(t->text, at,
                                    negatable == BEHAVE_CONV_TOPIC));
}


/* phrase occurs in t as whole words (with negatable, not after a denial) */
static int
behave_conv_occurs(const behave_conv_norm_t *t, const char *phrase,
    size_t plen, int negatable)
{
    size_t       at;
    const char  *p, *s;

    if (!t->pairs_ready) {
        /* a cache filled on first use; every norm lives in writable memory */
        behave_conv_pairs((behave_conv_norm_t *) t);
    }

    if (plen < 2) {
        /* no pair to look up: the whole text (no table has these) */
        s = t->text;
        while ((p = memmem(s, t->len - (size_t) (s - t->text), phrase, plen))
               != NULL)
        {
            s = p + 1;
            if (behave_conv_at(t, phrase, plen, (size_t) (p - t->text),
                               negatable))
            {
                return 1;
            }
        }

        return 0;
    }

    for (at = t->head[behave_conv_pair(phrase[0], phrase[1])];
         at != BEHAVE_CONV_NO_POS;
         at = t->next[at])
    {
        if (behave_conv_at(t, phrase, plen, at, negatable)) {
            return 1;
        }
    }

    return 0;
}


/*
 * Counts the entries of tab that occur in t as whole words; with
 * negatable, an occurrence right after a denial does not count.  Every
 * phrase is tried: what the index answers for a table must be this.
 */

static unsigned
behave_conv_scan(const behave_conv_norm_t *t, const behave_conv_phrase_t *tab,
    size_t ntab, int negatable, const behave_conv_phrase_t **first)
{
    size_t    i, k;
    unsigned  count;

    count = 0;

    if (!t->pairs_ready) {
        behave_conv_pairs((behave_conv_norm_t *) t);
    }

    for (i = 0; i < ntab; i++) {
        /* most phrases' first two bytes are nowhere in the text: that
         * test comes before their length */
        if (tab[i].phrase[0] != '\0' && tab[i].phrase[1] != '\0') {
            k = behave_conv_pair(tab[i].phrase[0], tab[i].phrase[1]);

            if (!(t->pairs[k / 64] >> (k % 64) & 1)) {
                continue;
            }
        }

        if (!behave_conv_occurs(t, tab[i].phrase, strlen(tab[i].phrase),
                                negatable))
        {
            continue;
        }

        if (count == 0 && first != NULL) {
            *first = &tab[i];
        }

        count++;
    }

    return count;
}


/* the tables never change: indexed once, whichever thread comes first */
static void
behave_conv_index_init(void)
{
    /* on failure nothing is indexed, and every table is scanned */
    (void) behave_conv_index_build(behave_conv_tables, BEHAVE_CONV_T_N);
}


/*
 * behave_conv_scan() of table id, from the candidates of t: each phrase
 * counts once however many places it matches, and *first is the lowest
 * of the table's phrases that match, as the scan's order would find it
 */
static unsigned
behave_conv_indexed(const behave_conv_norm_t *t, behave_conv_tab_e id,
    int negatable, const behave_conv_phrase_t **first)
{
    size_t                     i, naside, low;
    uint16_t                   j;
    uint64_t                   seen[BEHAVE_CONV_TAB_MAX / 64];
    unsigned                   count;
    const uint16_t            *aside;
    const behave_conv_cand_t  *c;
    const behave_conv_table_t *tb;

    tb = &behave_conv_tables[id];
    count = 0;
    low = tb->n;
    memset(seen, 0, sizeof(seen));

    for (j = t->cands.head[id]; j != BEHAVE_CONV_CAND_NONE; j = c->next) {
        c = &t->cands.cand[j];

        if ((seen[c->phrase / 64] >> (c->phrase % 64) & 1)
            || !behave_conv_at(t, tb->tab[c->phrase].phrase, c->len, c->at,
                               negatable))
        {
            continue;
        }

        seen[c->phrase / 64] |= (uint64_t) 1 << (c->phrase % 64);
        low = c->phrase < low ? c->phrase : low;
        count++;
    }

    aside = behave_conv_index_aside(id, &naside);

    for (i = 0; i < naside; i++) {
        if (behave_conv_occurs(t, tb->tab[aside[i]].phrase,
                               strlen(tb->tab[aside[i]].phrase), negatable))
        {
            low = aside[i] < low ? aside[i] : low;
            count++;
        }
    }

    if (count > 0 && first != NULL) {
        *first = &tb->tab[low];
    }

    return count;
}


/*
 * Counts the entries of table id that occur in t as whole words; with
 * negatable, an occurrence right after a denial does not count.  Only
 * the phrases that begin where t's words do are tried (the index).
 */

static unsigned
behave_conv_match(const behave_conv_norm_t *t, behave_conv_tab_e id,
    int negatable, const behave_conv_phrase_t **first)
{
    behave_conv_norm_t  *w;

    (void) pthread_once(&behave_conv_once, behave_conv_index_init);

    if (!t->cands_ready) {
        /* like the pairs, filled on first use */
        w = (behave_conv_norm_t *) t;
        behave_conv_index_cands(t->text, t->len, &w->cands);
        w->cands_ready = 1;
    }

    if (t->cands.overflow) {
        return behave_conv_scan(t, behave_conv_tables[id].tab,
                                behave_conv_tables[id].n, negatable, first);
    }

    return behave_conv_indexed(t, id, negatable, first);
}


/*
 * Raised voice, from the original text: a run of "!!", "??", "?!" and
 * shouting (an all-capitals word of five letters or more: shorter ones are
 * mostly acronyms, "SAML", "CSV").  Returns 0, 1 or 2 points.
 */

static int
behave_conv_intensity(const char *text, size_t len)
{
    size_t  i, run;
    int     punct, caps;

    punct = 0;
    caps = 0;

    for (i = 0; i + 1 < len; i++) {
        if ((text[i] == '!' || text[i] == '?')
            && (text[i + 1] == '!' || text[i + 1] == '?'))
        {
            punct = 1;
            break;
        }
    }

    i = 0;

    while (i < len) {
        if (!(text[i] >= 'A' && text[i] <= 'Z')) {
            i++;
            continue;
        }

        if (i > 0 && ((text[i - 1] >= 'a' && text[i - 1] <= 'z')
                      || (text[i - 1] >= '0' && text[i - 1] <= '9')))
        {
            i++;
            continue;
        }

        run = 0;
        while (i < len && text[i] >= 'A' && text[i] <= 'Z') {
            run++;
            i++;
        }

        if (i < len && ((text[i] >= 'a' && text[i] <= 'z')
                        || (text[i] >= '0' && text[i] <= '9')))
        {
            continue;               /* "IdP", "LS6" */
        }

        if (run >= 5) {
            caps = 1;
            break;
        }
    }

    return punct + caps;
}


int
behave_conversation_severity(const behave_annotation_t *a, const char *text,
    size_t len)
{
    int                  s, points;
    behave_conv_norm_t   norm;

    s = 0;

    if (a->valence == BEHAVE_VALENCE_NEGATIVE
        || a->valence == BEHAVE_VALENCE_MIXED)
    {
        s = 1;
    }

    if (a->valence_blend <= -0.75) {
        s = 3;

    } else if (a->valence_blend <= -0.5) {
        s = 2;
    }

    switch (a->urgency) {
    case BEHAVE_URGENCY_MEDIUM:
        s = s > 2 ? s : 2;
        break;
    case BEHAVE_URGENCY_HIGH:
        s = s > 3 ? s : 3;
        break;
    case BEHAVE_URGENCY_CRITICAL:
        s = 4;
        break;
    default:
        break;
    }

    if ((a->cues & BEHAVE_CUE_CRISIS)
        || a->social_register == BEHAVE_REGISTER_CRISIS)
    {
        s = 4;
    }

    if (s == 0 && (a->cues & BEHAVE_CUE_NOT_RESOLVED)) {
        s = 1;
    }

    if (s == 0 && text != NULL) {
        behave_conv_normalize(text, len, &norm);
        if (behave_conv_match(&norm, BEHAVE_CONV_T_NOT_RESOLVED, 0, NULL)) {
            s = 1;
        }
    }

    points = text != NULL ? behave_conv_intensity(text, len) : 0;

    if (points == 2 && s < 3) {
        s = 3;

    } else if (points == 1 && s < 2) {
        s = 2;
    }

    return s;
}


/*
 * Order-like tokens ("#1234", "20gb", "ab12cd"): a word of
 * BEHAVE_CONV_ID_MIN or more characters with a digit.  "23 kg", "5 times"
 * are amounts; an order or a plan is longer.  The first BEHAVE_CONV_IDS
 * are kept as FNV-1a hashes; nids counts them all.
 */

static void
behave_conv_ids(const behave_conv_norm_t *t, behave_conv_rec_t *rec)
{
    size_t    i, e;
    int       digit;
    uint32_t  h;

    for (i = 0; i < t->len; i = e) {
        e = i;
        digit = 0;
        h = 2166136261u;

        while (e < t->len && behave_conv_is_word((unsigned char) t->text[e])) {
            digit |= (t->text[e] >= '0' && t->text[e] <= '9');
            h = (h ^ (unsigned char) t->text[e]) * 16777619u;
            e++;
        }

        if (e == i) {
            e++;
            continue;
        }

        if (!digit || e - i < BEHAVE_CONV_ID_MIN) {
            continue;
        }

        if (rec->nids < BEHAVE_CONV_IDS) {
            rec->ids[rec->nids] = h;
        }

        rec->nids += rec->nids < 255;
    }
}


/* a turn that asked something: only it can be asked again */
static int
behave_conv_asked(const behave_conv_rec_t *r)
{
    return (r->flags & BEHAVE_CONV_F_QUESTION)
           || (r->cues & (BEHAVE_CUE_QUESTION | BEHAVE_CUE_ASKS));
}


/* "order #1234" and "#1240": both name a number, and not the same one */
static int
behave_conv_ids_differ(const behave_conv_rec_t *a, const behave_conv_rec_t *b)
{
    unsigned  i, j, na, nb;

    if (a->nids == 0) {
        return 0;
    }

    na = a->nids < BEHAVE_CONV_IDS ? a->nids : BEHAVE_CONV_IDS;
    nb = b->nids < BEHAVE_CONV_IDS ? b->nids : BEHAVE_CONV_IDS;

    for (i = 0; i < na; i++) {
        for (j = 0; j < nb; j++) {
            if (a->ids[i] == b->ids[j]) {
                return 0;           /* a number in common */
            }
        }
    }

    return b->nids > 0;
}


static int
behave_conv_has_question(const behave_conv_norm_t *t)
{
    return memchr(t->text, '?', t->len) != NULL
           || behave_conv_match(t, BEHAVE_CONV_T_ASKS, 0, NULL) > 0;
}


/*
 * Where the clause that may start at i begins its first word, past an
 * opening "¿", "¡" or quote, or BEHAVE_CONV_NO_POS when i starts none: a
 * clause starts the text or follows a punctuation mark and a space.
 */
static size_t
behave_conv_clause(const behave_conv_norm_t *t, size_t i)
{
    const char  *s;

    s = t->text;

    if (i > 0 && !(i >= 2 && s[i - 1] == ' '
                   && strchr(".,!?;:", s[i - 2]) != NULL))
    {
        return BEHAVE_CONV_NO_POS;
    }

    for ( ;; ) {
        if (i + 1 < t->len && (unsigned char) s[i] == 0xc2
            && ((unsigned char) s[i + 1] == 0xbf
                || (unsigned char) s[i + 1] == 0xa1))
        {
            i += 2;

        } else if (i < t->len && (s[i] == '"' || s[i] == '\'')) {
            i++;

        } else {
            return i;
        }
    }
}


/* a phrase of tab starts at "at" */
static int
behave_conv_phrase_at(const behave_conv_norm_t *t,
    const behave_conv_phrase_t *tab, size_t ntab, size_t at)
{
    size_t  k;

    for (k = 0; k < ntab; k++) {
        if (behave_conv_at(t, tab[k].phrase, strlen(tab[k].phrase), at, 0)) {
            return 1;
        }
    }

    return 0;
}


/* a phrase of tab opens one of the first clauses (0: any clause) */
static int
behave_conv_opens(const behave_conv_norm_t *t, const behave_conv_phrase_t *tab,
    size_t ntab, unsigned clauses)
{
    size_t    i, at;
    unsigned  seen;

    seen = 0;

    for (i = 0; i < t->len; i++) {
        at = behave_conv_clause(t, i);
        if (at == BEHAVE_CONV_NO_POS) {
            continue;
        }

        if (clauses && seen++ == clauses) {
            return 0;
        }

        if (behave_conv_phrase_at(t, tab, ntab, at)) {
            return 1;
        }
    }

    return 0;
}


/* 1 + the length of the word of words at at, 0 for none */
static size_t
behave_conv_word_in(const behave_conv_norm_t *t, size_t at, const char **words,
    size_t n)
{
    size_t  k, len;

    for (k = 0; k < n; k++) {
        len = strlen(words[k]);

        if (behave_conv_at(t, words[k], len, at, 0)) {
            return len + 1;
        }
    }

    return 0;
}


/*
 * "schon klar, aber...", "Top. Mais du coup...", "tá mas...": a few words
 * that take the answer, then "but": the question is still open.  Returns
 * where the words after the "but" start, 0 for none.
 */
static size_t
behave_conv_concedes(const behave_conv_norm_t *t)
{
    size_t    i, n;
    unsigned  words;

    words = 0;
    i = 0;

    while (i < t->len && words <= BEHAVE_CONV_CONCEDE_WORDS) {
        while (i < t->len && !behave_conv_is_word((unsigned char) t->text[i])) {
            i++;
        }

        if (i == t->len) {
            return 0;
        }

        n = behave_conv_word_in(t, i, behave_conv_but,
                                sizeof(behave_conv_but)
                                / sizeof(behave_conv_but[0]));
        if (n > 0) {
            return words > 0 ? i + n : 0;
        }

        while (i < t->len && (behave_conv_is_word((unsigned char) t->text[i])
                              || t->text[i] == '\''))
        {
            i++;
        }

        words++;
    }

    return 0;
}


/* asked without a question mark: an interrogative opens a clause, or
 * follows a concession ("ok but like what's...") */
static int
behave_conv_plain_question(const behave_conv_norm_t *t)
{
    size_t  at;

    if (behave_conv_opens(t, behave_conv_tab(behave_conv_interrogative), 0)) {
        return 1;
    }

    at = behave_conv_concedes(t);
    if (at == 0) {
        return 0;
    }

    if (at + 5 <= t->len && memcmp(t->text + at, "like ", 5) == 0) {
        at += 5;
    }

    return behave_conv_phrase_at(t,
               behave_conv_tab(behave_conv_interrogative), at);
}


/* see behave_conv_additive[] */
static int
behave_conv_follow_up(const behave_conv_norm_t *t)
{
    size_t  at, n;

    if (behave_conv_opens(t, behave_conv_tab(behave_conv_additive), 2)) {
        return 1;
    }

    at = behave_conv_clause(t, 0);
    n = behave_conv_word_in(t, at, behave_conv_ack_open,
                            sizeof(behave_conv_ack_open)
                            / sizeof(behave_conv_ack_open[0]));

    /* the acknowledgement is a clause of its own, and more follows */
    return n > 0 && at + n < t->len && strchr(".,!;:", t->text[at + n - 1])
           != NULL;
}


/* see behave_conv_cost_suffix[] */
static int
behave_conv_compound_cost(const behave_conv_norm_t *t)
{
    size_t  i, e, k, len;

    for (i = 0; i < t->len; i = e + 1) {
        e = i;
        while (e < t->len && behave_conv_is_word((unsigned char) t->text[e])) {
            e++;
        }

        for (k = 0; k < sizeof(behave_conv_cost_suffix)
                        / sizeof(behave_conv_cost_suffix[0]); k++)
        {
            len = strlen(behave_conv_cost_suffix[k]);

            if (e - i > len
                && memcmp(t->text + e - len, behave_conv_cost_suffix[k], len)
                   == 0)
            {
                return 1;
            }
        }
    }

    return 0;
}


/* what the turn asks about: BEHAVE_CONV_F_COST, _LIMIT, _DURATION */
static unsigned
behave_conv_focus(const behave_conv_norm_t *t)
{
    unsigned  f;

    f = 0;

    if (behave_conv_match(t, BEHAVE_CONV_T_FOCUS_COST, 0, NULL)
        || behave_conv_compound_cost(t))
    {
        f |= BEHAVE_CONV_F_COST;
    }

    if (behave_conv_match(t, BEHAVE_CONV_T_FOCUS_LIMIT, 0, NULL)) {
        f |= BEHAVE_CONV_F_LIMIT;
    }

    if (behave_conv_match(t, BEHAVE_CONV_T_FOCUS_DURATION, 0, NULL)) {
        f |= BEHAVE_CONV_F_DURATION;
    }

    return f;
}


/* 1 + the first of behave_conv_intents[] that t names, 0 for none */
static unsigned
behave_conv_intent(const behave_conv_norm_t *t)
{
    size_t  i;

    for (i = 0; i < sizeof(behave_conv_intents)
                    / sizeof(behave_conv_intents[0]); i++)
    {
        if (behave_conv_match(t, behave_conv_intents[i], 0, NULL)) {
            return (unsigned) i + 1;
        }
    }

    return 0;
}


/* both turns name one intent: the same ask, whatever the words */
static int
behave_conv_same_intent(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b)
{
    unsigned  ia;

    ia = a->flags & BEHAVE_CONV_F_INTENT;

    return ia != 0 && ia == (b->flags & BEHAVE_CONV_F_INTENT);
}


/* both turns ask about something named, and not about the same thing */
static int
behave_conv_focus_differs(const behave_conv_rec_t *a,
    const behave_conv_rec_t *b)
{
    unsigned  fa, fb;

    fa = a->flags & BEHAVE_CONV_F_FOCUS;
    fb = b->flags & BEHAVE_CONV_F_FOCUS;

    return fa != 0 && fb != 0 && (fa & fb) == 0;
}


/* questions asked: each run of '?' (and each opening '¿') */
static unsigned
behave_conv_questions(const behave_conv_norm_t *t)
{
    size_t    i;
    unsigned  n;

    n = 0;

    for (i = 0; i < t->len; i++) {
        if (t->text[i] == '?' && (i + 1 == t->len || t->text[i + 1] != '?')) {
            n++;
        }
    }

    return n;
}


/* 1 + the index of the first phrase of tab that t holds, 0 for none */
static unsigned
behave_conv_first(const behave_conv_norm_t *t, behave_conv_tab_e id,
    int negatable, unsigned *count)
{
    unsigned                     n;
    const behave_conv_phrase_t  *first;

    first = NULL;
    n = behave_conv_match(t, id, negatable, &first);

    if (count != NULL) {
        *count = n;
    }

    return n > 0 && first != NULL
           ? (unsigned) (first - behave_conv_tables[id].tab) + 1 : 0;
}


/*
 * The turn ends in a question that asks to confirm ("..., right?", "¿no?",
 * "né?", "n'est-ce pas ?", "oder?"): it checks what it believes, it does
 * not report that anything is wrong
 */
static int
behave_conv_tag_question(const behave_conv_norm_t *t)
{
    size_t              e, k, n;
    static const char  *tag[] = {
        "right", "correct", "yes", "yeah", "isn't it", "is that right",
        "verdad", "cierto", "no", "né", "não é", "certo", "n'est-ce pas",
        "c'est bien ça", "c'est ça", "oui", "oder", "richtig", "ja",
        "stimmt's", "nicht wahr",
    };

    e = t->len;

    while (e > 0 && (t->text[e - 1] == ' ' || t->text[e - 1] == '.')) {
        e--;
    }

    if (e == 0 || t->text[e - 1] != '?') {
        return 0;
    }

    e--;

    while (e > 0 && t->text[e - 1] == ' ') {
        e--;
    }

    for (k = 0; k < sizeof(tag) / sizeof(tag[0]); k++) {
        n = strlen(tag[k]);

        if (n < e && memcmp(t->text + e - n, tag[k], n) == 0
            && !behave_conv_is_word((unsigned char) t->text[e - n - 1]))
        {
            return 1;
        }
    }

    return 0;
}


/* where the text after the last "but" of behave_conv_but[] starts, or 0 */
static size_t
behave_conv_last_but(const behave_conv_norm_t *t)
{
    size_t  i, n, last;

    last = 0;
    i = 0;

    while (i < t->len) {
        while (i < t->len && !behave_conv_is_word((unsigned char) t->text[i])) {
            i++;
        }

        n = behave_conv_word_in(t, i, behave_conv_but,
                                sizeof(behave_conv_but)
                                / sizeof(behave_conv_but[0]));
        if (n > 0) {
            last = i + n - 1;
        }

        while (i < t->len && (behave_conv_is_word((unsigned char) t->text[i])
                              || t->text[i] == '\''))
        {
            i++;
        }
    }

    return last;
}


/*
 * "it wasn't working this morning but it's fine now", "ça ne marchait
 * pas mais ça marche enfin", "ging nichts, aber jetzt läuft es wieder
 * einwandfrei": a trouble conceded as past, then what the customer sees
 * now; the clause after the last "but" confirms that it works, and says
 * no more against it than for it
 */
static int
behave_conv_works_after_but(const behave_conv_norm_t *cur)
{
    size_t               at;
    unsigned             neg, strong;
    behave_conv_norm_t   tail;

    at = behave_conv_last_but(cur);
    if (at == 0) {
        return 0;
    }

    tail.len = cur->len - at;
    memcpy(tail.text, cur->text + at, tail.len);
    tail.text[tail.len] = '\0';
    tail.pairs_ready = 0;
    tail.cands_ready = 0;

    strong = behave_conv_match(&tail, BEHAVE_CONV_T_CONFIRM_STRONG, 1, NULL);
    if (strong == 0) {
        return 0;
    }

    neg = behave_conv_match(&tail, BEHAVE_CONV_T_NOT_RESOLVED, 0, NULL);

    return neg <= strong;
}


/*
 * "lol no. 'This link has expired'", "pues no, ...", "uh no, ...": the
 * first clause is a bare answer that ends in "no", the rest says why;
 * "no app, ..." (Portuguese's "in the") does not end in it
 */
static int
behave_conv_answers_no(const behave_conv_norm_t *t)
{
    size_t  e;

    for (e = 0; e < t->len && strchr(".,!;:?", t->text[e]) == NULL; e++) {
        /* void */
    }

    return e < t->len && e >= 2 && e <= BEHAVE_CONV_BARE_NO
           && t->text[e - 1] == 'o' && t->text[e - 2] == 'n'
           && (e == 2 || !behave_conv_is_word((unsigned char) t->text[e - 3]));
}


/*
 * "hi, I've got a problem", "tengo un problema con la tarjeta", "j'ai un
 * souci avec ma commande": the turn ends on saying that there is a
 * problem, never what it is (the last clause names it, nothing follows);
 * "I have a problem, my card was declined" says what it is
 */
#define BEHAVE_CONV_PROBLEM_MAX  64     /* bytes of such a turn */

static int
behave_conv_only_problem(const behave_conv_norm_t *t)
{
    size_t              e, b, k, n;
    const char         *p;
    static const char  *problem[] = {
        "a problem", "an issue", "a question about", "un problema",
        "una duda", "um problema", "uma dúvida", "un problème",
        "un souci", "une question sur", "ein problem", "eine frage zu",
    };

    if (t->len > BEHAVE_CONV_PROBLEM_MAX) {
        return 0;
    }

    e = t->len;

    while (e > 0 && strchr(" .!?", t->text[e - 1]) != NULL) {
        e--;
    }

    for (b = e; b > 0 && strchr(".,!?;:", t->text[b - 1]) == NULL; b--) {
        /* void */
    }

    for (k = 0; k < sizeof(problem) / sizeof(problem[0]); k++) {
        n = strlen(problem[k]);
        p = memmem(t->text + b, e - b, problem[k], n);

        if (p != NULL
            && (p == t->text || !behave_conv_is_word((unsigned char) p[-1]))
            && (p + n == t->text + e
                || !behave_conv_is_word((unsigned char) p[n])))
        {
            return 1;
        }
    }

    return 0;
}


/*
 * "it doesnt work", "isto não dá.", "ça bug", "geht nicht": the whole turn
 * says that something fails and never what (no subject, or only "it",
 * "this", "isso", "ça", "das"); "the app crashes" names what
 */
static int
behave_conv_only_fails(const behave_conv_norm_t *t)
{
    size_t              b, e, k, n;
    static const char  *subject[] = {
        "it's ", "it ", "its ", "this is ", "this ", "esto ", "eso ",
        "isto ", "isso ", "ça ", "ca ", "es ", "das ",
    };
    static const char  *fails[] = {
        "doesn't work", "doesnt work", "does not work", "not working",
        "isn't working", "broken", "no funciona", "no va", "no anda",
        "não funciona", "não dá", "não vai", "ne marche pas",
        "marche pas", "bug", "bugue", "plante", "geht nicht",
        "funktioniert nicht", "klappt nicht", "spinnt",
    };

    e = t->len;

    while (e > 0 && strchr(" .!?", t->text[e - 1]) != NULL) {
        e--;
    }

    b = 0;

    for (k = 0; k < sizeof(subject) / sizeof(subject[0]); k++) {
        n = strlen(subject[k]);

        if (n < e && memcmp(t->text, subject[k], n) == 0) {
            b = n;
            break;
        }
    }

    for (k = 0; k < sizeof(fails) / sizeof(fails[0]); k++) {
        n = strlen(fails[k]);

        if (e - b == n && memcmp(t->text + b, fails[k], n) == 0) {
            return 1;
        }
    }

    return 0;
}


/* 1 if customer text cur says the issue is not settled; *quote says how */
static int
behave_conv_denies(const behave_conv_norm_t *cur, unsigned cues, int lost,
    unsigned *quote)
{
    int       tag;
    unsigned  neg, strong, aff;

    *quote = behave_conv_first(cur, BEHAVE_CONV_T_NOT_RESOLVED,
                               0, &neg);
    strong = behave_conv_match(cur,
                               BEHAVE_CONV_T_CONFIRM_STRONG,
                               1, NULL);

    /* the annotator's clause, on the same footing when no confirmation
     * that it worked is there; "it's still at 10:30, right?", "¿sigue
     * siendo con ella, verdad?" ask to confirm what stays, and only a
     * denial in so many words counts there */
    tag = behave_conv_tag_question(cur);

    if (!tag
        && ((cues & BEHAVE_CUE_NOT_RESOLVED)
            || ((cues & BEHAVE_CUE_PERSISTS) && strong == 0)))
    {
        neg++;
    }

    aff = behave_conv_match(cur, BEHAVE_CONV_T_AFFECT_NEG, 0, NULL);
    neg = neg > 2 * aff ? neg - 2 * aff : 0;

    /* "thanks again!" repeats the thanks, not the problem */
    if (neg == 1 && *quote > 0
        && strcmp(behave_conv_not_resolved[*quote - 1].phrase, "again") == 0
        && (memmem(cur->text, cur->len, "thanks again", 12) != NULL
            || memmem(cur->text, cur->len, "thank you again", 15) != NULL))
    {
        neg = 0;
    }

    /*
     * Right after a claim, a negation that nothing confirms answers it:
     * "no payment has been received", "nothing on file", "rien", and
     * after thanks too ("Cheers. Just looked and no, the money's not
     * there": only a confirmation that it worked outweighs it); but not
     * a polite close ("thanks, nothing else", "no worries"), nor the
     * negation of "I don't understand",
     * "no entiendo nada": the answer did not land, which says nothing of
     * whether the issue is settled (labels.md: clarify or simplify)
     */
    if (neg == 0 && strong == 0 && !lost
        && ((cues & BEHAVE_CUE_NEGATION)
            || behave_conv_match(cur, BEHAVE_CONV_T_NEGATORS, 0, NULL)
            || (cur->len <= BEHAVE_CONV_BARE_NO
                && behave_conv_match(cur, BEHAVE_CONV_T_NO, 0, NULL))
            || behave_conv_answers_no(cur))
        && !behave_conv_match(cur, BEHAVE_CONV_T_CLOSING, 0, NULL))
    {
        neg++;
    }

    /*
     * A denial outweighs politeness ("thank you, but the charge is still
     * there": labels.md's "the customer's next turn says it is not"), not
     * a confirmation that it worked
     */
    if (neg == 0 || neg <= strong) {
        return 0;
    }

    return !behave_conv_works_after_but(cur);
}


/*
 * German and French put the negation after the verb: "das geht jetzt
 * nicht", "ça marche maintenant pas" (spoken), "funktioniert wieder
 * nicht": the settled state is denied, not claimed
 */
static int
behave_conv_negated_after(const behave_conv_norm_t *t, const char *phrase)
{
    size_t              k, n, at;
    const char         *p;
    static const char  *neg[] = {
        " nicht", " noch nicht", " leider nicht", " immer noch nicht",
        " pas", " toujours pas", " no ",
    };

    p = memmem(t->text, t->len, phrase, strlen(phrase));
    if (p == NULL) {
        return 0;
    }

    at = (size_t) (p - t->text) + strlen(phrase);

    for (k = 0; k < sizeof(neg) / sizeof(neg[0]); k++) {
        n = strlen(neg[k]);

        if (at + n <= t->len && memcmp(t->text + at, neg[k], n) == 0
            && (at + n == t->len
                || !behave_conv_is_word((unsigned char) t->text[at + n])))
        {
            return 1;
        }
    }

    return 0;
}


/* 1 + the index in behave_conv_claims[] of a claim of the second table */
static unsigned
behave_conv_claim_more(const behave_conv_norm_t *t)
{
    size_t    i;
    unsigned  m;

    m = behave_conv_first(t, BEHAVE_CONV_T_CLAIMS_MORE, BEHAVE_CONV_CLAIMED,
                          NULL);
    if (m == 0 || behave_conv_negated_after(t,
                      behave_conv_claims_more[m - 1].phrase))
    {
        return 0;
    }

    for (i = 0; i < sizeof(behave_conv_claims) / sizeof(behave_conv_claims[0]);
         i++)
    {
        if (strcmp(behave_conv_claims[i].what,
                   behave_conv_claims_more[m - 1].what) == 0)
        {
            return (unsigned) i + 1;
        }
    }

    return 0;
}


/* an agent turn: does it present the issue as settled, and how */
static unsigned
behave_conv_claim(const behave_conv_norm_t *t, unsigned cues)
{
    unsigned  k;

    if (cues & BEHAVE_CUE_CLAIM_HELD) {
        return 0;
    }

    k = behave_conv_first(t, BEHAVE_CONV_T_CLAIMS, BEHAVE_CONV_CLAIMED, NULL);

    if (k == 0) {
        k = behave_conv_claim_more(t);
    }

    /*
     * The annotator's cue sees a deed's verb in any tense ("vamos
     * reembolsar", "nous allons rembourser"): with no settled phrase of
     * the table, a plan or a condition in the turn and no deed told as
     * done make it a promise, not a claim that the issue is settled
     */
    if (k == 0 && (cues & BEHAVE_CUE_RESOLUTION_CLAIM)
        && (!behave_conv_plan_in(t->text, 0, t->len)
            || behave_conv_perfect_in(t->text, t->len)))
    {
        k = BEHAVE_CONV_CLAIM_CUE;
    }

    return k;
}


static const char *
behave_conv_claim_what(unsigned k)
{
    if (k >= 1
        && k <= sizeof(behave_conv_claims) / sizeof(behave_conv_claims[0]))
    {
        return behave_conv_claims[k - 1].what;
    }

    return "the issue was resolved";
}


void
behave_conversation_record(const behave_turn_t *t, behave_conv_rec_t *rec)
{
    int                   lost;
    double                v;
    unsigned              f, q;
    behave_sim_set_t      set;
    behave_conv_norm_t    norm;
    behave_annotation_t   a;

    memset(rec, 0, sizeof(*rec));

    rec->customer = t->speaker == BEHAVE_SPEAKER_CUSTOMER;
    rec->severity = t->severity < 0 ? 0 : t->severity > 4 ? 4 : t->severity;
    rec->urgency = t->urgency;
    rec->load = t->load;
    rec->cues = t->cues;

    /* stored turns keep three decimals: so does the record */
    v = t->valence_score < -1 ? -1 : t->valence_score > 1 ? 1
        : t->valence_score;
    rec->valence = (int) lround(v * 1000.0);

    behave_conv_normalize(t->text, t->text_len, &norm);

    if (!rec->customer) {
        rec->claim = behave_conv_claim(&norm, t->cues);
        return;
    }

    f = 0;

    rec->overload = behave_conv_first(&norm,
                                      BEHAVE_CONV_T_OVERLOAD, 0,
                                      NULL);
    rec->confusion = behave_conv_first(&norm,
                                       BEHAVE_CONV_T_CONFUSION,
                                       0, NULL);

    /* "I don't see it" after a claim says it is not there */
    lost = rec->overload
           || (rec->confusion
               && rec->confusion < sizeof(behave_conv_confusion)
                                   / sizeof(behave_conv_confusion[0]));

    if (behave_conv_denies(&norm, t->cues, lost, &rec->quote))
    {
        f |= BEHAVE_CONV_F_DENIES;
    }

    /*
     * "it's freezing in here, the radiators are stone cold": a clearly
     * unhappy turn that neither thanks nor asks reports the problem as it
     * still is, whatever its words
     */
    if (rec->valence <= BEHAVE_CONV_DENY_VALENCE
        && !(t->cues & (BEHAVE_CUE_THANKS | BEHAVE_CUE_QUESTION
                        | BEHAVE_CUE_ASKS))
        && !behave_conv_has_question(&norm))
    {
        f |= BEHAVE_CONV_F_DENIES;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_REASK_STRONG, 0, NULL)) {
        f |= BEHAVE_CONV_F_STRONG;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_ANGER, 0, NULL))
    {
        f |= BEHAVE_CONV_F_ANGER;
    }

    if (norm.len <= BEHAVE_CONV_UNCLEAR_MAX
        && strpbrk(norm.text, "0123456789") == NULL
        && (behave_conv_match(&norm, BEHAVE_CONV_T_VAGUE_REF, 0, NULL)
            || behave_conv_only_problem(&norm)
            || behave_conv_only_fails(&norm)))
    {
        f |= BEHAVE_CONV_F_UNCLEAR;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_YES_BUT, 0, NULL)
        || behave_conv_concedes(&norm))
    {
        f |= BEHAVE_CONV_F_OPEN | BEHAVE_CONV_F_REASK;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_REASK, 0, NULL)
        || behave_conv_match(&norm, BEHAVE_CONV_T_CONFUSION, 0, NULL)
        || behave_conv_match(&norm, BEHAVE_CONV_T_OVERLOAD, 0, NULL))
    {
        f |= BEHAVE_CONV_F_REASK;
    }

    if (behave_conv_has_question(&norm) || behave_conv_plain_question(&norm))
    {
        f |= BEHAVE_CONV_F_QUESTION;
    }

    f |= behave_conv_focus(&norm);
    f |= behave_conv_intent(&norm) << BEHAVE_CONV_F_INTENT_SHIFT;

    /*
     * labels.md's overload: "I don't understand any of this" with a
     * cascade of questions ("Photo size? Countersignatory? Extra
     * months??") cannot cope with the information given
     */
    q = behave_conv_questions(&norm);

    if (q > BEHAVE_CONV_CASCADE
        || ((rec->confusion || (t->cues & BEHAVE_CUE_CONFUSION))
            && q >= BEHAVE_CONV_CASCADE))
    {
        f |= BEHAVE_CONV_F_OVERLOAD;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_CONFIRM_STRONG, 1, NULL)
        || behave_conv_match(&norm, BEHAVE_CONV_T_CONFIRM_WEAK, 1, NULL)
        || behave_conv_follow_up(&norm))
    {
        f |= BEHAVE_CONV_F_ACK;
    }

    if (behave_conv_match(&norm, BEHAVE_CONV_T_REPEAT_CONTACT, 0, NULL)) {
        f |= BEHAVE_CONV_F_REPEAT;
    }

    rec->flags = f;

    rec->specialist = behave_conv_first(&norm,
                                        BEHAVE_CONV_T_SPECIALIST,
                                        BEHAVE_CONV_TOPIC, NULL);
    rec->vague = behave_conv_first(&norm, BEHAVE_CONV_T_VAGUE,
                                   0, &rec->vague_n);

    behave_conv_ids(&norm, rec);

    behave_sim_prepare(t->text, t->text_len, &set);
    behave_sim_sketch(&set, &rec->sketch);

    /* a record decoded from an older log has no signature: annotate */
    if (t->has_meaning) {
        memcpy(rec->meaning, t->meaning, BEHAVE_MEANING_DIM);

    } else {
        behave_annotate(t->text, t->text_len, &a);
        memcpy(rec->meaning, a.meaning, BEHAVE_MEANING_DIM);
    }
}


/*
 * "the same problem again" (labels.md) in the customer's own words: after
 * a claim, a turn that says again what an earlier customer turn said ("my
 * order hasn't arrived" ... "nothing has arrived here"), by its letters
 * or its meaning, and neither thanks nor confirms, reports the problem as
 * it still is ("then why did I just get charged £340?").  Said again with
 * "I don't understand", the answer did not land: a repetition to
 * clarify, not a report.  Returns the earlier turn, or -1.
 */
static int
behave_conv_restates(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur)
{
    size_t                i, window;
    behave_similarity_t   sim;

    if ((cur->flags & (BEHAVE_CONV_F_ACK | BEHAVE_CONV_F_OVERLOAD))
        || (cur->cues & (BEHAVE_CUE_THANKS | BEHAVE_CUE_CONFUSION))
        || cur->valence > 0 || cur->confusion || cur->overload)
    {
        return -1;
    }

    window = st->nrec < BEHAVE_CONV_REP_WINDOW ? st->nrec
                                               : BEHAVE_CONV_REP_WINDOW;

    for (i = 0; i < window; i++) {
        behave_sim_sketch_compare(&cur->sketch, &st->rec[i].sketch, &sim);

        if (sim.score >= BEHAVE_CONV_REP_HIGH
            || (i < BEHAVE_CONV_MEANING_WINDOW && i < st->nmean
                && behave_meaning_cosine(cur->meaning, st->rec[i].meaning)
                   >= BEHAVE_CONV_MEANING_REPEAT))
        {
            return (int) st->rec[i].turn;
        }
    }

    return -1;
}


static void
behave_conv_false_resolution(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out)
{
    int  restated;

    if (st->claim_turn == BEHAVE_CONV_NONE) {
        return;
    }

    restated = -1;

    if (!(cur->flags & BEHAVE_CONV_F_DENIES)) {
        restated = behave_conv_restates(st, cur);
        if (restated < 0) {
            return;
        }
    }

    out->false_resolution = 1;
    out->claim_turn = (int) st->claim_turn;

    snprintf(out->false_resolution_reason,
             sizeof(out->false_resolution_reason),
             "agent turn %d claimed %s; customer turn %d says it is not "
             "(\"%s\")",
             out->claim_turn, behave_conv_claim_what(st->claim_what),
             (int) st->turns,
             restated >= 0 ? "the same problem as before"
             : cur->quote > 0 ? behave_conv_not_resolved[cur->quote - 1].phrase
                              : "it is not resolved");
}


static void
behave_conv_repetition(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out,
    unsigned *similar)
{
    int                   strong, said, reask, best_turn, open_turn;
    size_t                i, window, best_i;
    double                best, need, cosine, score, open_score;
    behave_similarity_t   sim;

    *similar = 0;
    best = 0.0;
    best_turn = -1;
    best_i = 0;
    open_turn = -1;
    open_score = 0.0;

    strong = (cur->flags & BEHAVE_CONV_F_STRONG) != 0;

    said = strong || (cur->flags & BEHAVE_CONV_F_REASK);
    reask = said || (cur->cues & (BEHAVE_CUE_CONFUSION | BEHAVE_CUE_CONTRAST));

    need = strong ? BEHAVE_CONV_REP_FLOOR
                  : reask ? BEHAVE_CONV_REP_LOW : BEHAVE_CONV_REP_HIGH;

    /*
     * The most recent customer turns only, newest first: a re-ask answers
     * what went before it, and the cost stays flat however long the
     * conversation grows.
     */
    window = st->nrec < BEHAVE_CONV_REP_WINDOW ? st->nrec
                                               : BEHAVE_CONV_REP_WINDOW;

    for (i = 0; i < window; i++) {
        behave_sim_sketch_compare(&cur->sketch, &st->rec[i].sketch, &sim);

        cosine = 0;
        if (i < BEHAVE_CONV_MEANING_WINDOW && i < st->nmean) {
            cosine = behave_meaning_cosine(cur->meaning, st->rec[i].meaning);
        }

        score = sim.score > cosine ? sim.score : cosine;

        /* reported as measured, whether or not it counts */
        if (score > out->repetition_similarity) {
            out->repetition_similarity = score;
        }

        /*
         * "ok, but when does it get here", "that wasn't my question": the
         * customer says the question is still open, so the newest earlier
         * turn that asked something is asked again, in whatever words
         * (labels.md: "in the same or other words")
         */
        /*
         * "its charging weird again": an unclear turn asked nothing
         * clear; the turn that gives the details the agent then asked
         * for is not its repetition
         */
        if (st->rec[i].flags & BEHAVE_CONV_F_UNCLEAR) {
            continue;
        }

        if (open_turn < 0
            && (strong || (cur->flags & BEHAVE_CONV_F_OPEN))
            && behave_conv_asked(&st->rec[i])
            && !behave_conv_ids_differ(cur, &st->rec[i]))
        {
            open_turn = (int) st->rec[i].turn;
            open_score = score;
        }

        /* a re-ask in so many words ("ok, but...", "that wasn't my
         * question") may use other words: its meaning counts as much as
         * its letters; a mere "but" or "though" does not */
        if ((said ? score : sim.score) < need
            && cosine < (said ? BEHAVE_CONV_MEANING_SAID
                              : BEHAVE_CONV_MEANING_REPEAT)
            && !behave_conv_same_intent(cur, &st->rec[i])
            && !(cur->flags & st->rec[i].flags & BEHAVE_CONV_F_FOCUS))
        {
            continue;
        }

        if (!(behave_conv_asked(&st->rec[i])
              || (st->rec[i].flags & BEHAVE_CONV_F_DENIES)
              || st->rec[i].turn == 0))
        {
            continue;
        }

        if (behave_conv_ids_differ(cur, &st->rec[i])) {
            continue;               /* same shape, another order or plan */
        }

        /* "and the fee?" after "how long does it take?": a new ask,
         * unless the customer says the question is still open */
        if (!strong && behave_conv_focus_differs(cur, &st->rec[i])) {
            continue;
        }

        (*similar)++;

        /* on a tie the earlier turn is named, as it was asked first */
        if (score >= best) {
            best = score;
            best_turn = (int) st->rec[i].turn;
            best_i = i;
        }
    }

    if (best_turn < 0 && open_turn >= 0) {
        best_turn = open_turn;
        best = open_score;
        (*similar)++;
    }

    /* "Ich wollte aber wissen, ob ...": saying the question is still
     * open asks it, with or without a question mark */
    if (best_turn < 0
        || !((cur->flags & BEHAVE_CONV_F_QUESTION)
             || (cur->cues & BEHAVE_CUE_ASKS) || strong))
    {
        return;
    }

    /* "Thanks. And how much is...", "Obrigada. E entretanto...", "OK,
     * and can I...": the answer landed, this is new (the annotator's
     * thanks, in any of the five languages), unless it asks for what the
     * earlier ask asked for ("Das ist schön. Und wie viel kostet sie?"
     * after "wie hoch ist die Jahresgebühr?": the cost, still unanswered) */
    if (((cur->flags & BEHAVE_CONV_F_ACK) || (cur->cues & BEHAVE_CUE_THANKS))
        && !reask
        && !(best_turn == (int) st->rec[best_i].turn
             && (cur->flags & st->rec[best_i].flags & BEHAVE_CONV_F_FOCUS)))
    {
        return;
    }

    out->repetition = 1;
    out->repeated_turn = best_turn;
    out->repetition_similarity = best;
}


/*
 * Severity of the last BEHAVE_CONV_ESC_WINDOW customer turns; see the
 * header for the rule.  *from and *turns describe the rise for the reason.
 * Valence is in thousandths, as stored.
 */

static int
behave_conv_unhappy_before(const behave_conv_state_t *st, int m)
{
    int  k;

    for (k = 0; k < m; k++) {
        if (st->rec[k].severity >= 1) {
            return 1;
        }
    }

    return 0;
}


static int
behave_conv_angry_before(const behave_conv_state_t *st, int m)
{
    int  k;

    for (k = 0; k < m; k++) {
        if (st->rec[k].flags & BEHAVE_CONV_F_ANGER) {
            return 1;
        }
    }

    return 0;
}


/*
 * The second customer turn has one turn to be worse than: labels.md's
 * "valence falls, urgency rises" both at once, clearly, into a blocked
 * (high) urgency and a clearly unhappy turn ("It's Thursday now and still
 * nothing ... this isn't ok" after "Could someone come out this week?")
 */
static void
behave_conv_escalation_second(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out, int *from)
{
    const behave_conv_rec_t  *prev;

    prev = &st->rec[0];

    if (cur->urgency > prev->urgency
        && cur->urgency == BEHAVE_URGENCY_HIGH
        && prev->valence - cur->valence >= BEHAVE_CONV_ESC_FALL
        && cur->valence <= BEHAVE_CONV_DENY_VALENCE)
    {
        out->escalating = 1;
        *from = prev->severity;
    }
}


static void
behave_conv_escalation(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur_rec, unsigned reasks,
    behave_conv_result_t *out, int *from, int *turns)
{
    int       sev[BEHAVE_CONV_ESC_WINDOW], val[BEHAVE_CONV_ESC_WINDOW];
    int       m, cur, base, high, k;
    uint32_t  total;

    cur = cur_rec->severity;
    total = st->customers + 1;
    out->peak_severity = cur > st->peak ? cur : st->peak;

    for (m = 0; m < BEHAVE_CONV_ESC_WINDOW - 1 && (unsigned) m < st->nrec;
         m++)
    {
        val[m] = st->rec[m].valence;
        sev[m] = st->rec[m].severity;
    }

    *from = 0;
    *turns = m + 1;

    if (total == 2 && m == 1) {
        behave_conv_escalation_second(st, cur_rec, out, from);
        return;
    }

    if (total < 3 || cur < 1 || m == 0) {
        return;
    }

    /*
     * Anger or an ultimatum that was not there before ("If nobody has come
     * by Friday I'm reporting you"), in a turn that is itself unhappy,
     * after an earlier unhappy turn: labels.md's rising intensity, which
     * the levels may not show (a calm wording of an ultimatum reads as
     * mild)
     */
    if ((cur_rec->flags & BEHAVE_CONV_F_ANGER)
        && behave_conv_unhappy_before(st, m)
        && !behave_conv_angry_before(st, m))
    {
        out->escalating = 1;
        *from = BEHAVE_CONV_ESC_ANGER;
        return;
    }

    if (cur < 2) {
        return;
    }

    base = sev[0];
    high = sev[0];

    for (k = 1; k < m; k++) {
        base = sev[k] < base ? sev[k] : base;
        high = sev[k] > high ? sev[k] : high;
    }

    *from = base;

    /*
     * The same thing asked a third time, now as a clear complaint after a
     * calm first ask ("When. Is. My. Refund. Coming."): the friction rises
     * with each ask even when no turn is yet angry
     */
    if (cur < 3) {
        out->escalating = reasks >= 2 && cur >= base + 2
                          && (cur_rec->flags
                              & (BEHAVE_CONV_F_STRONG | BEHAVE_CONV_F_REPEAT));
        return;
    }

    /*
     * Two levels above the calmest, and not out of a clear sky: an earlier
     * turn was already negative, or the customer keeps asking the same
     * thing (a third ask is friction even when worded calmly).
     */
    out->escalating = cur >= base + 2 && (high >= 1 || reasks >= 2);

    /*
     * Or a new peak of a distress that was already there: at least as
     * high as every turn of the window, above its calmest, from 3 up.
     */
    if (!out->escalating && cur >= 3 && cur >= high && cur > base
        && high >= 2)
    {
        out->escalating = 1;
    }

    /*
     * Or a steady slide: valence fell at each of the last three customer
     * turns, by 0.35 or more in all, ending at severity 3+.
     */
    if (!out->escalating && m >= 2
        && val[1] - val[0] >= 100
        && val[0] - cur_rec->valence >= 100
        && val[1] - cur_rec->valence >= 350)
    {
        out->escalating = 1;
        *from = sev[1] < sev[0] ? sev[1] : sev[0];
    }
}



static void
behave_conv_recommend(const behave_conv_state_t *st,
    const behave_conv_rec_t *current,
    behave_conv_result_t *out, int esc_from, int esc_turns, int opening)
{
    char    *r;
    size_t   rl;

    r = out->reason;
    rl = sizeof(out->reason);

    if (current->severity >= 4 || current->urgency == BEHAVE_URGENCY_CRITICAL
        || (current->cues & BEHAVE_CUE_CRISIS))
    {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "customer turn %d signals a crisis or critical "
                 "urgency", (int) out->prior_turns);
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_CRISIS];
        return;
    }

    if (out->false_resolution) {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "false resolution: %.280s",
                 out->false_resolution_reason);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_FALSE_RESOLUTION];
        return;
    }

    if (out->escalating) {
        out->action = BEHAVE_ACTION_HANDOFF;
        if (esc_from == BEHAVE_CONV_ESC_ANGER) {
            snprintf(r, rl, "the customer is escalating: anger or an "
                     "ultimatum after earlier unhappy turns");
        } else {
            snprintf(r, rl, "the customer is escalating: severity rose from "
                     "%d to %d over the last %d customer turns", esc_from,
                     current->severity, esc_turns);
        }
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_ESCALATING];
        return;
    }

    /*
     * "he's breathing but he won't open his eyes", "still grey, it's 8pm
     * now": the previous customer turn told of a crisis and this one says
     * it is still going on; calmer words do not end it, a human takes it
     */
    if (st->nrec > 0 && st->rec[0].severity >= 4
        && (current->flags & BEHAVE_CONV_F_DENIES))
    {
        out->action = BEHAVE_ACTION_HANDOFF;
        snprintf(r, rl, "the crisis of customer turn %d is still going on",
                 (int) st->rec[0].turn);
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_CRISIS];
        return;
    }

    /*
     * labels.md's teams (fraud, legal, a formal complaint, disputes,
     * appeals, bereavement, data protection), named: not every topic the
     * annotator marks for care ("prescription", "hospital", "funeral"),
     * which a clear ask about answers
     */
    if (current->specialist) {
        out->action = BEHAVE_ACTION_ROUTE;
        snprintf(r, rl, "needs a specialist team (%s)",
                 behave_conv_specialist[current->specialist - 1].what);
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_ROUTE];
        return;
    }

    /* before the priority queue: nobody can route what is not said */
    if (opening && (current->flags & BEHAVE_CONV_F_UNCLEAR)) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the ask is unclear: a short first message that "
                 "does not say what is wrong");
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    /*
     * The customer says or shows that the answer was too much ("das ist
     * mir alles zu viel", "I don't understand" and question after
     * question): labels.md's overload, not its "high" (blocked, money or
     * access at stake, "asap"), which a cascade of questions makes the
     * annotator read; a queue does not help, a simpler answer does
     */
    if (current->urgency == BEHAVE_URGENCY_HIGH
        && !current->overload && !(current->flags & BEHAVE_CONV_F_OVERLOAD))
    {
        out->action = BEHAVE_ACTION_ROUTE;
        snprintf(r, rl, "high urgency: priority queue");
        out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_ROUTE];
        return;
    }

    if (current->load >= BEHAVE_LOAD_HIGH || current->overload
        || (current->flags & BEHAVE_CONV_F_OVERLOAD))
    {
        out->action = BEHAVE_ACTION_SIMPLIFY;
        if (current->flags & BEHAVE_CONV_F_OVERLOAD) {
            snprintf(r, rl, "the customer did not understand and asks "
                     "question after question%s",
                     out->repetition ? ", re-asking an earlier one" : "");

        } else if (current->overload) {
            snprintf(r, rl, "the customer is overloaded (\"%s\")%s",
                     behave_conv_overload[current->overload - 1].phrase,
                     out->repetition ? " and re-asked the question" : "");
        } else {
            snprintf(r, rl, "cognitive load is %s",
                     behave_load_name((behave_load_e) current->load));
        }
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_SIMPLIFY];
        return;
    }

    if (out->repetition) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "customer turn %d asks again what turn %d asked "
                 "(similarity %.2f): the previous answer did not land",
                 (int) out->prior_turns, out->repeated_turn,
                 out->repetition_similarity);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_REPETITION];
        return;
    }

    if (current->confusion || (current->cues & BEHAVE_CUE_CONFUSION)) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the answer was not understood (\"%s\")",
                 current->confusion
                 ? behave_conv_confusion[current->confusion - 1].phrase
                 : "confusion");
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    if (current->vague_n >= 2 && current->vague) {
        out->action = BEHAVE_ACTION_CLARIFY;
        snprintf(r, rl, "the ask is unclear (\"%s\")",
                 behave_conv_vague[current->vague - 1].phrase);
        out->safe_response_guidance =
            behave_conv_guidance[BEHAVE_GUIDE_UNCLEAR];
        return;
    }

    out->action = BEHAVE_ACTION_RESOLVE;
    snprintf(r, rl, "a clear ask that can be answered");
    out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_RESOLVE];
}


static void
behave_conv_review(behave_conv_result_t *out)
{
    if (out->action == BEHAVE_ACTION_HANDOFF && !out->false_resolution
        && !out->degraded)
    {
        out->review_status = BEHAVE_REVIEW_ESCALATED;

    } else if (out->false_resolution || out->repeat_contact_risk
               || out->degraded)
    {
        out->review_status = BEHAVE_REVIEW_NEEDS_REVIEW;

    } else if (out->repetition || out->action != BEHAVE_ACTION_RESOLVE
               || out->peak_severity >= 2)
    {
        out->review_status = BEHAVE_REVIEW_MONITOR;

    } else {
        out->review_status = BEHAVE_REVIEW_OK;
    }
}


/*
 * "hi", "boa noite", "Hallo": a greeting says nothing of the issue, so a
 * vague turn after greetings only ("the thing from before isn't doing
 * it") is still the customer's first ask.  A greeting: a few letters
 * (the sketch's distinct trigrams), no question, no problem reported, no
 * number, no team, calm.
 */
#define BEHAVE_CONV_GREETING_GRAMS  16

static int
behave_conv_nothing_said(const behave_conv_state_t *st)
{
    size_t                    i;
    const behave_conv_rec_t  *r;

    if (st->customers > st->nrec) {
        return 0;
    }

    for (i = 0; i < st->nrec; i++) {
        r = &st->rec[i];

        if (r->flags != 0 || r->severity > 0 || r->specialist
            || r->nids > 0 || r->vague_n > 0 || r->confusion
            || r->overload || (r->cues & BEHAVE_CUE_QUESTION)
            || r->sketch.n > BEHAVE_CONV_GREETING_GRAMS)
        {
            return 0;
        }
    }

    return 1;
}


static void
behave_conv_assess_customer(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out)
{
    int       esc_from, esc_turns;
    unsigned  similar;

    behave_conv_false_resolution(st, cur, out);
    behave_conv_repetition(st, cur, out, &similar);
    behave_conv_escalation(st, cur, out->repetition ? similar : 0, out,
                           &esc_from, &esc_turns);

    out->repeat_contact_risk =
        out->false_resolution
        || (out->repetition && similar >= 2)
        || (cur->cues & BEHAVE_CUE_REPEAT_CONTACT)
        || (cur->flags & BEHAVE_CONV_F_REPEAT)
        || st->fr;

    behave_conv_recommend(st, cur, out, esc_from, esc_turns,
                          behave_conv_nothing_said(st));
    behave_conv_review(out);
}


static void
behave_conv_init(behave_conv_result_t *out, size_t n)
{
    memset(out, 0, sizeof(*out));
    out->prior_turns = n;
    out->action = BEHAVE_ACTION_RESOLVE;
    out->review_status = BEHAVE_REVIEW_OK;
    out->claim_turn = -1;
    out->repeated_turn = -1;
    out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_RESOLVE];
}


void
behave_conversation_fold(const behave_turn_t *turns, size_t n,
    behave_conv_state_t *st)
{
    size_t             i;
    behave_conv_rec_t  rec;

    behave_conv_state_init(st);

    for (i = 0; i < n; i++) {
        behave_conversation_record(&turns[i], &rec);
        behave_conv_state_push(st, &rec);
    }
}


void
behave_conversation_assess(const behave_turn_t *history, size_t n,
    const behave_turn_t *current, behave_conv_result_t *out)
{
    behave_conv_rec_t    rec;
    behave_conv_state_t  st;

    behave_conversation_fold(history, n, &st);

    behave_conversation_record(current, &rec);
    behave_conversation_assess_state(&st, &rec, out);
}


void
behave_conversation_assess_records(const behave_conv_rec_t *history,
    size_t n, const behave_conv_rec_t *current, behave_conv_result_t *out)
{
    size_t               i;
    behave_conv_rec_t    rec;
    behave_conv_state_t  st;

    behave_conv_state_init(&st);

    for (i = 0; i < n; i++) {
        rec = history[i];
        behave_conv_state_push(&st, &rec);
    }

    behave_conversation_assess_state(&st, current, out);
}


void
behave_conversation_assess_state(const behave_conv_state_t *st,
    const behave_conv_rec_t *cur, behave_conv_result_t *out)
{
    behave_conv_state_t  at;

    behave_conv_init(out, st->turns);

    if (cur->customer) {
        behave_conv_assess_customer(st, cur, out);
        return;
    }

    /* an agent turn: echo the state at the latest customer turn */
    if (st->nrec == 0) {
        snprintf(out->reason, sizeof(out->reason),
                 "no customer turn yet");
        return;
    }

    /* the state before that turn, as the *_prev fields kept it */
    at = *st;
    at.turns = st->rec[0].turn;
    at.customers = st->customers - 1;
    at.peak = st->peak_prev;
    at.fr = st->fr_prev;
    at.claim_turn = st->claim_prev_turn;
    at.claim_what = st->claim_prev_what;
    at.nrec = st->nrec - 1;
    at.nmean = st->nmean > 0 ? st->nmean - 1 : 0;
    memmove(&at.rec[0], &at.rec[1],
            (BEHAVE_CONV_RING - 1) * sizeof(behave_conv_rec_t));

    out->prior_turns = at.turns;
    behave_conv_assess_customer(&at, &st->rec[0], out);

    out->prior_turns = st->turns;
    out->false_resolution = 0;
    out->false_resolution_reason[0] = '\0';
    out->claim_turn = -1;
    out->repetition = 0;
    out->repeated_turn = -1;
}




void
behave_conversation_degraded(const char *reason, behave_conv_result_t *out)
{
    behave_conv_init(out, 0);

    out->degraded = 1;
    snprintf(out->degraded_reason, sizeof(out->degraded_reason), "%s",
             reason != NULL && reason[0] ? reason : "context unavailable");

    out->action = BEHAVE_ACTION_HANDOFF;
    snprintf(out->reason, sizeof(out->reason),
             "conversation context unavailable (%.240s)",
             out->degraded_reason);
    out->safe_response_guidance = behave_conv_guidance[BEHAVE_GUIDE_DEGRADED];
    out->review_status = BEHAVE_REVIEW_NEEDS_REVIEW;
}


const char *
behave_action_name(behave_action_e a)
{
    static const char  *names[] = { "clarify", "simplify", "resolve",
                                    "route", "handoff" };

    return (unsigned) a < sizeof(names) / sizeof(names[0]) ? names[a]
                                                           : "handoff";
}


const char *
behave_review_name(behave_review_e r)
{
    static const char  *names[] = { "ok", "monitor", "needs_review",
                                    "escalated" };

    return (unsigned) r < sizeof(names) / sizeof(names[0]) ? names[r]
                                                           : "needs_review";
}


static void
behave_conv_write_bool(behave_jw_t *w, int v)
{
    if (v) {
        behave_jw_literal(w, "true");
    } else {
        behave_jw_literal(w, "false");
    }
}


/* the block of spec 2.4, keys written as literals (hot path) */
void
behave_conversation_write(behave_jw_t *w, const behave_conv_result_t *r,
    const char *conversation_id, int redacted)
{
    behave_jw_open(w, "conversation");

    behave_jw_literal(w, "\"conversation_id\":");
    behave_jw_value_string(w, conversation_id != NULL ? conversation_id : "");

    if (redacted) {
        behave_jw_literal(w, ",\"storage_mode\":\"redacted\"");
    } else {
        behave_jw_literal(w, ",\"storage_mode\":\"full\"");
    }

    behave_jw_literal(w, ",\"prior_turns\":");
    behave_jw_value_number(w, (double) r->prior_turns);

    behave_jw_literal(w, ",\"failure_flags\":{\"false_resolution\":");
    behave_conv_write_bool(w, r->false_resolution);
    behave_jw_literal(w, ",\"false_resolution_reason\":");
    behave_jw_value_string(w, r->false_resolution_reason);
    behave_jw_literal(w, ",\"repeat_contact_risk\":");
    behave_conv_write_bool(w, r->repeat_contact_risk);

    behave_jw_literal(w, "},\"derived\":{\"repetition\":");
    behave_conv_write_bool(w, r->repetition);
    behave_jw_literal(w, ",\"repetition_similarity\":");
    behave_jw_value_fixed3(w, r->repetition_similarity);
    behave_jw_literal(w, ",\"escalating\":");
    behave_conv_write_bool(w, r->escalating);
    behave_jw_literal(w, ",\"peak_severity\":");
    behave_jw_value_number(w, (double) r->peak_severity);

    behave_jw_literal(w, "},\"recommendation\":{\"action\":");
    behave_jw_value_string(w, behave_action_name(r->action));
    behave_jw_literal(w, ",\"reason\":");
    behave_jw_value_string(w, r->reason);
    behave_jw_literal(w, ",\"safe_response_guidance\":");
    behave_jw_value_string(w, r->safe_response_guidance != NULL
                              ? r->safe_response_guidance : "");

    behave_jw_literal(w, "},\"review_status\":");
    behave_jw_value_string(w, behave_review_name(r->review_status));
    behave_jw_literal(w, ",\"degraded\":");
    behave_conv_write_bool(w, r->degraded);

    if (r->degraded) {
        behave_jw_literal(w, ",\"degraded_reason\":");
        behave_jw_value_string(w, r->degraded_reason);
    }

    behave_jw_member_done(w);
    behave_jw_close(w);
}


/* a turn of this conversation, as the log stores it and assess reads it */

void
behave_turn_from_annotation(behave_turn_t *t, behave_speaker_e speaker,
    const char *text, size_t len, const behave_annotation_t *a,
    uint64_t ts_ms)
{
    t->speaker = speaker;
    t->text = text;
    t->text_len = len;
    t->valence_score = a->scores.valence;
    t->valence = a->valence;
    t->urgency = a->urgency;
    t->load = a->cognitive_load;
    t->cues = a->cues;
    t->severity = behave_conversation_severity(a, text, len);
    t->ts_ms = ts_ms;
    t->has_meaning = 1;
    memcpy(t->meaning, a->meaning, sizeof(t->meaning));
}


int
behave_turns_from_json(const cJSON *turns, behave_turn_t *tv, int max)
{
    int                   i;
    const char           *text;
    const cJSON          *e, *msg, *spk;
    behave_annotation_t   a;

    i = 0;

    /* one walk of the list: cJSON_GetArrayItem(i) would start over each time */
    for (e = cJSON_IsArray(turns) ? turns->child : NULL;
         e != NULL && i < max;
         e = e->next, i++)
    {
        msg = cJSON_GetObjectItem(e, "message");
        spk = cJSON_GetObjectItem(e, "speaker");
        text = cJSON_IsString(msg) ? msg->valuestring : "";

        behave_annotate(text, strlen(text), &a);
        behave_turn_from_annotation(&tv[i],
            cJSON_IsString(spk) && strcmp(spk->valuestring, "agent") == 0
                ? BEHAVE_SPEAKER_AGENT : BEHAVE_SPEAKER_CUSTOMER,
            text, strlen(text), &a, (uint64_t) i * 1000);
    }

    return i;
}


const char *
behave_conversation_phrase(size_t k)
{
    size_t  id;

    for (id = 0; id < BEHAVE_CONV_T_N; id++) {
        if (k < behave_conv_tables[id].n) {
            return behave_conv_tables[id].tab[k].phrase;
        }

        k -= behave_conv_tables[id].n;
    }

    return NULL;
}


unsigned
behave_conversation_index_check(const char *text, size_t len, int *indexed)
{
    int                          negatable;
    size_t                       id;
    unsigned                     bad, a, b;
    behave_conv_norm_t           norm;
    const behave_conv_phrase_t  *fa, *fb;

    behave_conv_normalize(text, len, &norm);
    bad = 0;

    /* every kind of "negatable" the rules use: 0, 1, CLAIMED, TOPIC */
    for (id = 0; id < BEHAVE_CONV_T_N; id++) {
        for (negatable = 0; negatable <= BEHAVE_CONV_TOPIC; negatable++) {
            fa = NULL;
            fb = NULL;
            a = behave_conv_match(&norm, (behave_conv_tab_e) id, negatable,
                                  &fa);
            b = behave_conv_scan(&norm, behave_conv_tables[id].tab,
                                 behave_conv_tables[id].n, negatable, &fb);

            bad += a != b || fa != fb;
        }
    }

    *indexed = !norm.cands.overflow;

    return bad;
}
