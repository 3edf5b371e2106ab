/*
 * The conversation rules' word classes, in the five languages, written
 * from labels.md's definitions (not from the corpus):
 *
 * - claims in each language's own participles and set phrases ("that's
 *   been processed", "c'est réglé", "ya quedó solucionado", "já está
 *   resolvido", "das ist erledigt"), not when negated ("não foi
 *   resolvido", "noch nicht erledigt");
 * - denials: "still" and "the same" in each language, a claim challenged
 *   ("then why", "alors pourquoi"), a negator of any language right
 *   after a claim ("aucun", "nichts"), a bare "no"; a negated feeling
 *   ("still can't believe how quick") and money "already on my card" are
 *   none;
 * - repetition: the same ask by its intent in other words or another
 *   language; two asks on one topic that want different things (a fee
 *   and a limit, a delay and a cost) are not; "that's not what I meant"
 *   re-opens the question;
 * - clarify for a thing named only by when it came up ("lo de antes");
 * - escalating on contempt or a demand for a superior after unhappy turns.
 */

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "convtest.h"
#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"


static const fr_case_t  fr_cases[] = {
    /* claims in other words, a plain denial */
    { "I was charged twice", "That's been processed on our end now.",
      "hmm the app still shows both payments", 1 },
    { "my card was charged twice",
      "Ticket closed on our side, the duplicate is gone.",
      "Closed, wonderful. Shame both charges are still on my statement.",
      1 },
    { "el router no conecta", "Listo, ya quedó solucionado.",
      "pues no, sigue igual", 1 },
    { "no tengo internet", "Su incidencia ha sido cerrada.",
      "qué bien, cerrada, y yo sigo sin internet", 1 },
    { "o app não abre", "Pronto, já está resolvido!",
      "não está não, continua dando erro", 1 },
    { "fui cobrado duas vezes", "O estorno foi processado hoje.",
      "mas o valor ainda aparece na fatura", 1 },
    { "on m'a débité deux fois",
      "Nous vous confirmons que le remboursement a été effectué.",
      "Je viens de vérifier : aucun remboursement n'y apparaît.", 1 },
    { "erreur 503 au paiement", "C'est réglé, vous pouvez réessayer.",
      "Non, toujours le même message d'erreur.", 1 },
    { "Router verbindet nicht", "Das ist jetzt erledigt.",
      "Nein, immer noch dasselbe Problem.", 1 },
    { "doppelt abgebucht",
      "Wir bestätigen, dass die Erstattung veranlasst wurde.",
      "Auf meinem Konto ist bis heute nichts eingegangen.", 1 },
    /* a claim challenged, a bare no */
    { "I was charged twice", "You're all set, I've reversed it.",
      "then why did I just get a text about a second payment?", 1 },
    { "on m'a débité deux fois", "C'est réglé de notre côté.",
      "Alors pourquoi je viens de recevoir un nouveau prélèvement ?", 1 },
    { "the app won't open", "Should be working now!", "lol no", 1 },
    /* a negated claim is no claim */
    { "o app não abre", "O problema ainda não foi resolvido, desculpe.",
      "ok, continua dando erro", 0 },
    { "Router verbindet nicht", "Das ist leider noch nicht erledigt.",
      "ok, immer noch dasselbe", 0 },
    /* a negated feeling, the money already there: confirmations */
    { "I want my money back for the boots",
      "I've pushed the refund through just now.",
      "Brilliant, it's already on my card. Still can't believe how quick "
      "that was, thank you!", 0 },
    { "Die App stürzt ab", "Sollte jetzt wieder funktionieren.",
      "Funktioniert wieder, danke!", 0 },
    { "mi internet se corta", "Ya debería funcionar.",
      "Funcionó, gracias.", 0 },
};


static void
test_claims_and_denials(void)
{
    fr_check(fr_cases, sizeof(fr_cases) / sizeof(fr_cases[0]), 1);
}


static void
test_repetition_by_intent(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const same[][3] = {
        { "How do I close my account?",
          "You can download your statements under Documents.",
          "Where's the option to shut the account down completely?" },
        { "¿Cómo cancelo mi suscripción?",
          "Puede ver sus facturas en la app.",
          "¿Dónde doy de baja el servicio?" },
        { "Quando chega meu pedido?", "Seu pedido foi enviado.",
          "Qual a data prevista de entrega?" },
        { "Wie kündige ich meinen Vertrag?",
          "Ihre Rechnungen finden Sie im Kundenportal.",
          "Wo kann ich den Vertrag beenden?" },
        { "Wie kann ich meine Bankverbindung ändern?",
          "Ihre Rechnungen finden Sie unter Mein Konto.",
          "Das meinte ich nicht. Wo trage ich die neue IBAN ein?" },
        { "Comment modifier mon adresse de livraison ?",
          "Vos commandes sont dans l'onglet Historique.",
          "Ce n'est pas ce que je demandais : où est-ce que je change "
          "l'endroit où le colis arrive ?" },
    };
    static const char     *const other[][3] = {
        { "What's the fee for international transfers?",
          "It's 0.5% with a minimum of 2 euros.",
          "And what's the maximum amount I can send per international "
          "transfer?" },
        { "Qual é o prazo de entrega para Recife?", "De 3 a 5 dias úteis.",
          "E qual é o valor do frete para Recife?" },
        { "Wie hoch ist die Gebühr für eine Auslandsüberweisung?",
          "0,5 Prozent, mindestens 2 Euro.",
          "Und wie lange dauert eine Auslandsüberweisung?" },
        { "¿Cuánto tarda un envío a Sevilla?", "Dos días laborables.",
          "¿Y cuál es el precio del envío a Sevilla?" },
    };

    for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        conversation(same[i], 3, &r);
        is_int(r.repetition, 1, "the same ask: %s", same[i][2]);
        is_int(r.action, BEHAVE_ACTION_CLARIFY, "and clarify");
    }

    conv_each(other, 3, repetition, 0, "another ask on the topic");
}


/* a short first message naming something only by when it came up */
static void
test_vague_reference(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const vague[] = {
        "lo de antes sigue sin ir",
        "aquilo voltou a acontecer",
        "das von vorhin geht schon wieder nicht",
        "hi the other one isnt right again",
    };

    for (i = 0; i < sizeof(vague) / sizeof(vague[0]); i++) {
        first_turn(vague[i], &r);
        is_int(r.action, BEHAVE_ACTION_CLARIFY, "unclear: %s", vague[i]);
    }
}


/*
 * Contempt or a demand for a superior, raised (the severity of a clear
 * complaint), after unhappy turns escalates
 */
static void
test_escalation_words(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const convs[][5] = {
        { "Hola, mi pedido no ha llegado, ¿pueden mirarlo?",
          "Está en tránsito.",
          "Lleva diez días en tránsito, esto ya molesta.",
          "Le pedimos paciencia.",
          "¡Son ustedes unos inútiles! Quiero hablar con un responsable "
          "AHORA." },
        { "Guten Tag, meine Bestellung ist noch nicht da.",
          "Sie ist unterwegs.",
          "Seit zwei Wochen unterwegs, das ärgert mich langsam.",
          "Wir bitten um Geduld.",
          "Ich will SOFORT Ihren Vorgesetzten sprechen." },
    };
    static const char     *const calm[] = {
        "Hello, do you deliver to the Shetland Islands?",
        "Yes, delivery takes 4-6 days.",
        "Lovely. Is there an extra charge for that?",
        "There's a 5 pound surcharge.",
        "Fair enough. Can I pay with PayPal?",
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        conversation(convs[i], 5, &r);
        is_int(r.escalating, 1, "escalating: %s", convs[i][4]);
        is_int(r.action, BEHAVE_ACTION_HANDOFF, "and handed off");
    }

    conversation(calm, 5, &r);
    is_int(r.escalating, 0, "a calm conversation stays calm");
    is_int(r.action, BEHAVE_ACTION_RESOLVE, "and resolve");
}


int
main(void)
{
    test_claims_and_denials();
    test_repetition_by_intent();
    test_vague_reference();
    test_escalation_words();

    return tap_done();
}
