/*
 * The conversation rules as labels.md defines them, in the five languages
 * (en, es, pt, fr, de) and in other registers (phone transcripts, slang,
 * letters), written from the definitions, not from the corpus:
 *
 * - false resolution: an agent claim of a completed fix (participles of
 *   delivering, repairing, correcting; "you can now"; a deed in the
 *   perfect followed by a time), then any customer statement that the
 *   problem persists (conjugated "still", "again", a polite "thanks, but",
 *   the problem said again); not a rule, a plan or a noun before a modal;
 *   not a confirmation, nor "thanks again";
 * - simplify: "I don't understand" with a cascade of questions;
 * - route: a specialist team named in the customer's language;
 * - escalating: the second customer turn, when valence falls and urgency
 *   rises into high.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "convtest.h"
#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"



static const fr_case_t  fr_cases[] = {
    /* a claim in the customer's language, a denial in other words */
    { "my wifi keeps dropping",
      "I've pushed a firmware update, you should be good to go now.",
      "nope, dropped again twice in the last half hour", 1 },
    { "me han cobrado dos veces el pedido 4471",
      "Listo, ya hemos devuelto el cargo duplicado.",
      "pues en mi cuenta siguen apareciendo los dos cargos", 1 },
    { "no puedo entrar en la app",
      "Le hemos restablecido el acceso, ya debería funcionar.",
      "sigo sin poder entrar, me da el mismo error", 1 },
    { "fui cobrado duas vezes",
      "Pronto, o valor duplicado já foi estornado.",
      "olhei agora e as duas cobranças continuam lá", 1 },
    { "o app não abre", "Corrigimos o erro, já está tudo certo.",
      "abri agora e fecha sozinho do mesmo jeito", 1 },
    { "le chauffage est en panne", "Le technicien est passé et l'a réparé.",
      "il fait toujours aussi froid, les radiateurs sont glacés", 1 },
    { "ma commande n'est pas arrivée", "Votre colis a été livré ce matin.",
      "je n'ai rien reçu du tout", 1 },
    { "mein Paket fehlt",
      "Laut Sendungsverfolgung wurde es gestern zugestellt.",
      "bei mir ist kein Paket angekommen", 1 },
    { "ich kann mich nicht anmelden",
      "Sie können sich jetzt wieder anmelden, die Sperre ist aufgehoben.",
      "nein, kommt wieder die gleiche Meldung", 1 },
    { "Internet geht nicht", "Das Problem ist behoben.",
      "gerade nochmal probiert, gleicher Fehler", 1 },
    /* "you can now" in each language */
    { "no me deja entrar en la app",
      "Ya puede entrar, hemos quitado el bloqueo.",
      "pues me sale otra vez que la cuenta está bloqueada", 1 },
    { "não consigo acessar a conta",
      "Já pode acessar, desbloqueamos o acesso.",
      "tentei de novo e deu o mesmo erro", 1 },
    { "je ne peux pas me connecter",
      "Vous pouvez à nouveau vous connecter, le blocage a été levé.",
      "non, toujours bloqué, même message", 1 },
    /* phone transcripts and slang */
    { "uh hi yeah the tv box keeps saying no signal",
      "right so ive sent a refresh signal to the box that should sort it "
      "out for you it should be fine now",
      "um no its still its still saying no signal on the screen", 1 },
    { "oye no me llegan los sms", "ya quedo arreglado desde aqui",
      "pues nada, sigo igual sin sms", 1 },
    { "i got double billed",
      "refund went through just now, you'll see it in your app",
      "I don't see anything in the app", 1 },
    /* a polite denial: thanks do not outweigh it */
    { "I was charged twice",
      "I've refunded the duplicate charge, it's all sorted.",
      "Thank you, Sam. I appreciate the help but the charge is still "
      "showing on my account.", 1 },
    { "I was charged twice",
      "I've refunded the duplicate charge, it's all sorted.",
      "Great, thanks! Hmm, it's still asking for the code and the code "
      "never comes.", 1 },
    { "cobro doble", "El cargo ha sido anulado.",
      "Muchas gracias por la ayuda, pero sigue apareciendo el cargo.", 1 },
    { "cobrança em dobro", "O estorno foi realizado.",
      "Obrigada pela atenção, mas continua aparecendo a cobrança.", 1 },
    { "double débit", "C'est fait, le prélèvement a été remboursé.",
      "Merci beaucoup, mais le prélèvement apparaît toujours.", 1 },
    { "doppelt abgebucht", "Erledigt, die Abbuchung wurde storniert.",
      "Vielen Dank, aber die Abbuchung ist immer noch da.", 1 },
    /* a deed done, then the bank's time: still a claim */
    { "charged twice",
      "Your refund has been processed and should appear within 3-5 days.",
      "No, it's still charged twice.", 1 },
    { "cobro doble",
      "El reembolso ya se ha procesado y lo verá en un plazo de 5 días.",
      "sigue sin aparecer, sigue el cargo doble", 1 },
    /* "no problem," does not negate the claim after the comma */
    { "charged twice", "No problem, I've refunded that for you.",
      "No, it's still charged twice.", 1 },
    { "doppelt abgebucht", "Kein Problem, die Erstattung ist erfolgt.",
      "funktioniert immer noch nicht, beide Abbuchungen sind da", 1 },
    /* the same problem said again after a claim */
    { "mi pedido no ha llegado",
      "Según el transportista ya fue entregado en su domicilio.",
      "aquí no ha llegado nada, no hay ningún paquete", 1 },
    /* confirmations, and "thanks again" */
    { "password reset email not arriving",
      "I've resent it, it's in your inbox now.",
      "thanks, got it and I'm back in", 0 },
    { "la tarjeta está bloqueada",
      "Ya la hemos desbloqueado, puede usarla con normalidad.",
      "gracias, ya funciona perfectamente", 0 },
    { "Karte gesperrt", "Ihre Karte ist wieder freigeschaltet.",
      "danke, hat geklappt", 0 },
    { "router light is red", "I've reset the line, it should be back up now.",
      "all good, thanks again!", 0 },
    /* a noun before a modal, a plan, a question: no claim */
    { "cobrança em dobro", "O estorno pode levar até 7 dias úteis.",
      "ok, então ainda não caiu", 0 },
    { "double débit", "Le remboursement sera effectué sous 5 jours.",
      "d'accord, donc c'est encore en attente", 0 },
    { "doppelt abgebucht",
      "Die Erstattung wird innerhalb von 5 Tagen bearbeitet.",
      "ok, also noch nicht da", 0 },
    { "cobro doble", "El reembolso se procesará en un plazo de 5 días.",
      "vale, sigue pendiente entonces", 0 },
    { "my card got blocked",
      "I'll pass this to the card team and they'll unblock it today.",
      "it's still blocked", 0 },
    { "Internet geht nicht", "Haben Sie den Router neu gestartet?",
      "ja, geht trotzdem nicht", 0 },
    /* an instruction, a rule stated without "usually" */
    { "internet down",
      "Reset your router with a paperclip, then wait two minutes.",
      "it's still not working", 0 },
    { "where is my refund", "Refunds are processed within 5 days.",
      "ok, still nothing", 0 },
    { "internet down", "I've gone ahead and reset it for you.",
      "it's still not working", 1 },
    { "internet down", "Let's get you back online: unplug the router.",
      "it's still not working", 0 },
    { "internet down", "I've managed to get it working again.",
      "it's still not working", 1 },
    /* deeds that put right what was missing, in each language, and the
     * answer that nothing is there (empty, not there, thanks but no) */
    { "my loyalty points are missing",
      "I've added the missing 1,500 points to your balance.",
      "Cheers. Just checked and no, the points aren't there.", 1 },
    { "faltan mis puntos", "Hemos abonado los puntos en su cuenta.",
      "acabo de mirar y no aparece nada", 1 },
    { "o valor não caiu", "Já devolvemos o dinheiro para o seu cartão.",
      "olhei agora e não aparece no extrato", 1 },
    { "mon colis n'arrive pas",
      "Le colis a été déposé dans votre boîte aux lettres.",
      "ma boîte aux lettres est vide", 1 },
    { "mein Paket fehlt", "Das Paket wurde in Ihren Briefkasten gelegt.",
      "der Briefkasten ist leer", 1 },
    { "the heater is broken",
      "The engineer replaced the faulty part this morning.",
      "thanks, but it's not there, the room is freezing", 1 },
    /* asked, planned or a rule: no claim */
    { "my points are missing", "Has the refund been processed?",
      "no, nothing yet", 0 },
    { "my parcel is missing",
      "I'll check whether it was left in your letterbox.",
      "ok, it's not there", 0 },
    { "my points are missing",
      "Once the points have been added you'll get an email.",
      "ok, nothing yet", 0 },
    /* a wish or a hope wrapped around the deed: no claim */
    { "my parcel is lost",
      "We want to make sure this issue has been resolved for you!",
      "it's still not here", 0 },
    { "mi paquete no llegó",
      "Queremos asegurarnos de que el problema ha sido resuelto.",
      "sigue sin llegar", 0 },
    { "meu pacote não chegou",
      "Tomara que o problema já foi resolvido.",
      "ainda não chegou nada", 0 },
    { "mon colis n'est pas arrivé",
      "Nous voulons nous assurer que le problème a été résolu.",
      "il n'est toujours pas là", 0 },
    { "mein Paket ist nicht da",
      "Hoffentlich wurde das Problem inzwischen behoben.",
      "es ist immer noch nicht da", 0 },
    /* the same deed told as done: a claim */
    { "my parcel is lost",
      "This issue has been resolved for you!",
      "it's still not here", 1 },
    { "o valor não caiu",
      "Devolvemos o dinheiro em até 7 dias úteis.",
      "ok, ainda não aparece", 0 },
    /* a polite close denies nothing */
    { "I was charged twice", "I've refunded the duplicate charge.",
      "Great, thanks, nothing else", 0 },
    { "me cobraron dos veces", "Ya le hemos devuelto el cargo duplicado.",
      "Perfecto, gracias, nada más", 0 },
    { "doppelt abgebucht", "Wir haben die doppelte Abbuchung storniert.",
      "Danke, kein Problem, das wäre alles", 0 },
    /* a fix put live, the working state predicted back, a deed carried
     * out: claims in each language; the same deed still to come is not */
    { "the dashboard keeps timing out",
      "Our engineers deployed a patch an hour ago, so it should work "
      "again.",
      "nope, it times out on every page", 1 },
    { "no puedo descargar la factura",
      "Ya quedó, corregimos el enlace de descarga.",
      "pues sigo sin poder descargarla", 1 },
    { "a transferência não saiu",
      "A transferência foi efetuada hoje de manhã.",
      "aqui na minha conta ainda não apareceu nada", 1 },
    { "l'appli plante au démarrage",
      "Le correctif a été déployé, l'appli devrait refonctionner.",
      "non, elle plante toujours au lancement", 1 },
    { "die Überweisung fehlt", "Die Überweisung wurde heute durchgeführt.",
      "auf meinem Konto ist noch nichts eingegangen", 1 },
    { "the replacement never came",
      "A new card has been sent and will arrive on Friday.",
      "it's Saturday and nothing has come", 1 },
    { "die Überweisung fehlt", "Die Überweisung wird morgen durchgeführt.",
      "gut, bisher ist noch nichts eingegangen", 0 },
    { "la app no abre", "La corrección será realizada esta noche.",
      "vale, de momento sigue sin funcionar", 0 },
    { "fui cobrado duas vezes",
      "Vamos estornar o valor duplicado nos próximos dias.",
      "ok, por enquanto ainda não entrou nada", 0 },
    { "le site ne charge pas", "Nous allons déployer un correctif ce soir.",
      "d'accord, pour l'instant ça ne marche pas", 0 },
    /* working now in the customer's words, a past trouble beside it */
    { "my game won't launch", "We rolled out a hotfix, it's fixed.",
      "Yeah it crashed twice earlier but it's fine now, cheers", 0 },
    { "la web no carga", "Ya está solucionado.",
      "antes no cargaba pero ya va bien, gracias", 0 },
    { "o app travava", "O problema foi resolvido.",
      "de manhã não abria mas agora está ok, obrigado", 0 },
    { "le site plante", "C'est réglé de notre côté.",
      "ce matin ça ne marchait pas mais ça marche enfin, merci", 0 },
    { "das Portal hängt", "Das Problem ist behoben.",
      "heute früh ging nichts, aber jetzt läuft es wieder einwandfrei", 0 },
    /* a question that asks to confirm what stays as it was; a denial
     * asked the same way still denies */
    { "please move my booking to Friday", "Done, it's moved to Friday.",
      "Thanks. And the table is still for four people, right?", 0 },
    { "cambia mi cita al jueves", "Hecho, ya está cambiada al jueves.",
      "Genial. ¿Y sigue siendo con la misma doctora, verdad?", 0 },
    { "bitte den Termin verschieben", "Erledigt, der Termin ist verschoben.",
      "Super. Und es bleibt weiterhin bei Frau Keller, oder?", 0 },
    { "charged twice", "I've refunded the duplicate charge.",
      "Thanks, but it's still not showing, right?", 1 },
    /* the settled state said in the present ("problem solved", "ya
     * funciona", "c'est corrigé", "das passt jetzt"), then the same
     * result again in other words, or a bare "no" that opens the turn */
    { "my invoice download fails",
      "Problem solved, the download works now.",
      "lol no. it says 'file not found' the second I click it", 1 },
    { "la app se cierra sola", "Ya funciona, actualizamos el servidor.",
      "me pasa lo mismo, se cierra al abrirla", 1 },
    { "o boleto não gera", "Já funciona, corrigimos o sistema.",
      "tentei agora e é a mesma coisa", 1 },
    { "le paiement échoue", "C'est corrigé, vous pouvez réessayer.",
      "je viens de réessayer, c'est pareil", 1 },
    { "die Buchung hängt", "Ich hab das angestoßen, das passt jetzt.",
      "Im Portal steht weiterhin 'offen'.", 1 },
    /* the fix confirmed, then something new asked: "still" and
     * "again" that count the asks, "I managed to" in each language */
    { "My card was blocked after the trip.",
      "I've unblocked your card, it works now.",
      "It works now, thanks! I still have a question: how do I raise "
      "my daily limit?", 0 },
    { "No me llega el código SMS.", "Ya está solucionado.",
      "Sí, ya pude entrar, gracias. Todavía tengo una pregunta: ¿cómo "
      "cambio mi número?", 0 },
    { "Meu cartão foi bloqueado.", "Pronto, já desbloqueei o seu cartão.",
      "Consegui, obrigado! Ainda tenho uma dúvida: como aumento o "
      "limite?", 0 },
    { "Je n'arrive pas à me connecter.",
      "C'est corrigé, vous pouvez vous reconnecter.",
      "C'est bon, j'ai pu me connecter. Encore une question : comment "
      "changer mon adresse e-mail ?", 0 },
    { "Meine Karte ist gesperrt.",
      "Erledigt, Ihre Karte ist wieder entsperrt.",
      "Ja, funktioniert wieder, danke! Noch eine Frage: Wie erhöhe ich "
      "mein Tageslimit?", 0 },
    { "Je n'arrive pas à me connecter.",
      "C'est corrigé, vous pouvez vous reconnecter.",
      "Non, je n'ai pas pu me connecter, toujours la même erreur.", 1 },
    { "No puedo entrar.", "Ya está solucionado.",
      "No pude entrar, sigue igual.", 1 },
    /* "no" that is Portuguese's "in the"; a negation after the verb */
    { "a fatura não abre", "Já funciona.",
      "No app, abriu certinho agora. Obrigada!", 0 },
    { "die Buchung hängt",
      "Das geht jetzt nicht, die Technik prüft es morgen.",
      "Im Portal steht weiterhin 'offen'.", 0 },
};


static void
test_false_resolution(void)
{
    fr_check(fr_cases, sizeof(fr_cases) / sizeof(fr_cases[0]), 1);
}


/* "I don't understand" and question after question: simplify */
static void
test_overload(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const replies[] = {
        "I don't understand any of this. So do I pay or not?? What's a "
        "deductible? Why are there three numbers?",
        "no entiendo nada. ¿Devolver la comida? ¿El crédito caduca? ¿La "
        "tarifa la pago yo?",
        "não entendi nada. qual formulário? qual prazo? preciso ir lá?",
        "je ne comprends pas. Quel formulaire ? Quel délai ? Je dois y "
        "aller ?",
        "Ich verstehe das nicht. Welches Formular? Welche Frist? Muss ich "
        "hin?",
    };
    const char            *texts[3];

    texts[0] = "I need to renew my permit, what do I need?";
    texts[1] = "You need form B2, a photo of 600x750 pixels, the fee of 88 "
               "and a countersignatory if your appearance changed.";

    for (i = 0; i < sizeof(replies) / sizeof(replies[0]); i++) {
        texts[2] = replies[i];
        conversation(texts, 3, &r);
        is_int(r.action, BEHAVE_ACTION_SIMPLIFY, "simplify: %s", replies[i]);
    }
}


/* a specialist team named in the customer's language: route */
static void
test_specialist(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const first[] = {
        "I would like to make a formal complaint about my last bill.",
        "Quiero presentar una reclamación formal por la factura de marzo.",
        "Semana passada caí num golpe do boleto falso e paguei 1.800 reais.",
        "Je souhaite déposer une réclamation formelle concernant ma facture.",
        "Hiermit lege ich Widerspruch gegen den Bescheid vom 3. März ein.",
    };

    for (i = 0; i < sizeof(first) / sizeof(first[0]); i++) {
        first_turn(first[i], &r);
        ok(r.action == BEHAVE_ACTION_ROUTE
           || r.action == BEHAVE_ACTION_HANDOFF,
           "route (or hand off): %s", first[i]);
        ok(r.action != BEHAVE_ACTION_RESOLVE, "not resolve: %s", first[i]);
    }
}


/*
 * A topic that needs care but no team (a prescription, a hospital letter,
 * a funeral joke) is a clear ask: resolve; a team named after Portuguese's
 * "no" ("in the") still routes
 */
static void
test_no_team(void)
{
    char                   name[256];
    size_t                 i, handoffs;
    behave_conv_result_t   r;
    static const char     *const plain[] = {
        "Hi, is my dad's repeat prescription ready to pick up? Ordered it "
        "on Monday.",
        "Hola, ¿la receta de mi madre ya está lista para recoger?",
        "Oi, a receita da minha mãe já está pronta para retirar?",
        "Bonjour, l'ordonnance de ma mère est-elle prête à retirer ?",
        "Hallo, ist das Rezept meiner Mutter schon zum Abholen bereit?",
    };
    static const char     *const team[] = {
        "Caí no golpe do Pix ontem e quero contestar a transferência.",
        "Recebi uma intimação no processo judicial sobre a conta antiga.",
        "I've been scammed by a seller on your site, who do I talk to?",
        "Me han estafado con una tienda falsa que usa vuestra pasarela.",
        "J'ai été arnaquée par un faux vendeur, je veux signaler le compte.",
        "Ich wurde von einem Verkäufer betrogen und will das melden.",
        "I've had a County Court claim form about an account I closed.",
    };

    handoffs = 0;

    for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
        first_turn(plain[i], &r);

        /* no team either way; a hand-off comes from the message marked
         * critical, the trained layer's over-escalation (README, Notes) */
        if (r.action == BEHAVE_ACTION_HANDOFF) {
            handoffs++;
            snprintf(name, sizeof(name), "no team needed: %s", plain[i]);
            todo_ok(0, "handed off: marked critical (over-escalation)",
                    name);
            continue;
        }

        is_int(r.action, BEHAVE_ACTION_RESOLVE, "no team needed: %s",
               plain[i]);
    }

    ok(handoffs <= 1, "at most one plain ask handed off (%zu)", handoffs);

    for (i = 0; i < sizeof(team) / sizeof(team[0]); i++) {
        first_turn(team[i], &r);
        ok(r.action == BEHAVE_ACTION_ROUTE
           || r.action == BEHAVE_ACTION_HANDOFF,
           "a team: route (or hand off): %s", team[i]);
    }
}


/*
 * After a claim, "I don't understand" says the answer did not land, not
 * that the issue persists: no false resolution; with a cascade of
 * questions, simplify
 */
static void
test_lost_is_no_denial(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const replies[] = {
        "Sorry, I don't understand. Which fee? Do I do anything? Is the "
        "card charged?",
        "Perdona, no entiendo nada. ¿Qué tasa? ¿Tengo que hacer algo? ¿Me "
        "cobran en la tarjeta?",
        "Desculpa, não entendi nada. Que taxa? Tenho que fazer alguma coisa? "
        "Cobram no cartão?",
        "Pardon, je ne comprends rien. Quels frais ? Je dois faire quelque "
        "chose ? C'est débité sur la carte ?",
        "Entschuldigung, ich verstehe gar nichts. Welche Gebühr? Muss ich "
        "etwas tun? Wird die Karte belastet?",
    };
    const char            *texts[3];

    texts[0] = "My order came damaged, can I get my money back?";
    texts[1] = "I've processed a partial refund of 4.50 to your card; a full "
               "refund needs the item back with a 1.99 handling fee.";

    for (i = 0; i < sizeof(replies) / sizeof(replies[0]); i++) {
        texts[2] = replies[i];
        conversation(texts, 3, &r);
        is_int(r.false_resolution, 0, "lost, not a denial: %s", replies[i]);
        is_int(r.action, BEHAVE_ACTION_SIMPLIFY, "and simplify");
    }
}


/*
 * "ok, but...": the customer takes the answer and says it is not the one
 * asked for; the earlier question is asked again in other words (a
 * repetition, clarify); thanks and a new question is none
 */
static void
test_still_open(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const open[][3] = {
        { "where is my parcel?", "Your order was dispatched on Friday.",
          "ok but when will it actually turn up at my door?" },
        { "¿dónde está mi paquete?", "Su pedido salió el viernes.",
          "vale, pero ¿qué día llega a casa?" },
        { "cadê minha encomenda?", "O seu pedido foi despachado na sexta.",
          "tá, mas quando chega aqui em casa?" },
        { "où est mon colis ?", "Votre commande est partie vendredi.",
          "d'accord, mais quel jour est-ce qu'il arrive chez moi ?" },
        { "wo ist mein Paket?", "Ihre Bestellung wurde am Freitag versandt.",
          "ja, aber wann kommt es bei mir zu Hause an?" },
        { "can my dog travel in the cabin to Madrid?",
          "Please see our Travelling with Pets page.",
          "ive read that page, it doesnt say anything about Madrid. so "
          "yes or no?" },
    };
    static const char     *const fresh[][3] = {
        { "¿puedo cambiar la fecha del vuelo?",
          "Sí, desde Mis reservas, hasta 24 horas antes.",
          "Gracias. Y mientras tanto, ¿puedo elegir asiento?" },
        { "posso mudar a data do voo?",
          "Sim, em Minhas reservas, até 24 horas antes.",
          "Obrigada. E entretanto, posso escolher o lugar?" },
        { "je peux changer la date du vol ?",
          "Oui, depuis Mes réservations, jusqu'à 24 heures avant.",
          "Merci. Et en attendant, je peux choisir ma place ?" },
        { "kann ich das Flugdatum ändern?",
          "Ja, unter Meine Buchung, bis 24 Stunden vorher.",
          "Danke. Und kann ich dabei einen Sitzplatz wählen?" },
    };

    for (i = 0; i < sizeof(open) / sizeof(open[0]); i++) {
        conversation(open[i], 3, &r);
        is_int(r.repetition, 1, "still open: %s", open[i][2]);
        is_int(r.repeated_turn, 0, "and the first question is named");
        is_int(r.action, BEHAVE_ACTION_CLARIFY, "and clarify");
    }

    conv_each(fresh, 3, repetition, 0, "thanks and a new question");
}


/*
 * Only what was asked can be asked again (labels.md): a customer turn
 * that reported a step taken ("I've started the return, it wants a
 * courier") asked nothing, however close a later question's words
 */
static void
test_asked_nothing(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const convs[][5] = {
        { "Hi, I'd like to send back a pair of boots from order 40-7781.",
          "You can start a return from Your Orders.",
          "Thanks, I've started the return. It's asking me to pick a "
          "courier for the return label.",
          "Choose whichever suits you.",
          "I don't have a printer. Can I do the return without printing a "
          "label?" },
        { "Hola, quiero devolver unas botas del pedido 40-7781.",
          "Puede iniciar la devolución desde Mis pedidos.",
          "Gracias, ya he empezado la devolución. Me pide elegir un "
          "mensajero para la etiqueta de devolución.",
          "Elija el que prefiera.",
          "No tengo impresora. ¿Puedo hacer la devolución sin imprimir la "
          "etiqueta?" },
        { "Olá, quero devolver umas botas da encomenda 40-7781.",
          "Pode iniciar a devolução em As minhas encomendas.",
          "Obrigado, já comecei a devolução. Está a pedir para escolher "
          "uma transportadora para a etiqueta de devolução.",
          "Escolha a que preferir.",
          "Não tenho impressora. Posso fazer a devolução sem imprimir a "
          "etiqueta?" },
        { "Bonjour, je voudrais renvoyer des bottes de la commande "
          "40-7781.",
          "Vous pouvez lancer le retour depuis Mes commandes.",
          "Merci, j'ai commencé le retour. Il me demande de choisir un "
          "transporteur pour l'étiquette de retour.",
          "Choisissez celui qui vous convient.",
          "Je n'ai pas d'imprimante. Je peux faire le retour sans imprimer "
          "l'étiquette ?" },
        { "Hallo, ich möchte Stiefel aus Bestellung 40-7781 zurückschicken.",
          "Sie können die Rücksendung unter Meine Bestellungen starten.",
          "Danke, ich habe die Rücksendung gestartet. Jetzt soll ich einen "
          "Versanddienst für das Rücksendeetikett wählen.",
          "Wählen Sie, was Ihnen passt.",
          "Ich habe keinen Drucker. Geht die Rücksendung auch ohne das "
          "Etikett zu drucken?" },
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        conversation(convs[i], 5, &r);
        ok(!r.repetition || r.repeated_turn != 2,
           "turn 2 asked nothing, so it is not asked again: %s (turn %d)",
           convs[i][4], r.repeated_turn);
    }
}


/*
 * A crisis told in the previous customer turn that the customer says is
 * still going on, in calmer words, is still handed off; said to be over,
 * it is not
 */
static void
test_crisis_goes_on(void)
{
    char                   name[160];
    size_t                 i;
    behave_turn_t          tv[3];
    behave_conv_result_t   r;
    static const char     *const on[][3] = {
        { "my son swallowed a battery from the remote and he's crying, "
          "please help",
          "Please call emergency services now.",
          "the line is still busy and he still won't stop coughing" },
        { "mi hijo se ha tragado una pila del mando y está llorando, ayuda "
          "por favor",
          "Llame ahora mismo a emergencias.",
          "la línea sigue ocupada y el niño sigue tosiendo" },
        { "meu filho engoliu uma pilha do controle e está chorando, "
          "socorro",
          "Ligue agora para a emergência.",
          "a linha continua ocupada e ele continua tossindo" },
        { "mon fils a avalé une pile de la télécommande et il pleure, aidez"
          "-moi",
          "Appelez les urgences tout de suite.",
          "la ligne est toujours occupée et il tousse toujours" },
        { "mein Sohn hat eine Batterie verschluckt und weint, bitte helft "
          "mir",
          "Rufen Sie sofort den Notruf an.",
          "die Leitung ist immer noch besetzt und er hustet immer noch" },
    };
    static const char     *const over[] = {
        "my son swallowed a battery from the remote and he's crying, please "
        "help",
        "Please call emergency services now.",
        "thank you, the ambulance came and the doctors say he is fine now",
    };

    for (i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
        turn(&tv[0], BEHAVE_SPEAKER_CUSTOMER, on[i][0], 0);
        turn(&tv[1], BEHAVE_SPEAKER_AGENT, on[i][1], 1);
        turn(&tv[2], BEHAVE_SPEAKER_CUSTOMER, on[i][2], 2);

        /* the annotator's own call: a miss of the risk head at its
         * default threshold is reported (test_generalise bounds them) */
        snprintf(name, sizeof(name), "a crisis first: %s", on[i][0]);
        todo_ok(tv[0].severity >= 4, "risk below the default threshold",
                name);

        /* the rule under test reads the first turn's call: where the
         * annotator missed it (the TODO above), the action's miss is the
         * same miss, reported beside it */
        behave_conversation_assess(tv, 2, &tv[2], &r);
        if (tv[0].severity >= 4) {
            is_int(r.action, BEHAVE_ACTION_HANDOFF, "still going on: %s",
                   on[i][2]);
        } else {
            snprintf(name, sizeof(name), "still going on: %s", on[i][2]);
            todo_ok(r.action == BEHAVE_ACTION_HANDOFF,
                    "the first turn's crisis was missed", name);
        }
    }

    conversation(over, 3, &r);
    ok(strstr(r.reason, "still going on") == NULL,
       "said to be over: not a crisis going on (%s)", r.reason);
}


/* the second customer turn: valence falls and urgency rises into high */
static void
test_second_turn_escalation(void)
{
    behave_conv_result_t   r;
    static const char     *const worse[] = {
        "Hi, the boiler in flat 3B has stopped heating water again. Could "
        "someone come out this week please?",
        "Thanks for reporting it. I'll raise it with the contractor.",
        "It's Thursday now and still nothing. Cold water only and nobody "
        "has given me a date. I've got two kids washing with kettle water, "
        "this isn't ok.",
    };
    static const char     *const better[] = {
        "Hi, the boiler in flat 3B has stopped heating water. This is "
        "urgent, we have no hot water at all today!",
        "An engineer will be there at 2pm.",
        "Great, thank you, 2pm works for us.",
    };

    conversation(worse, 3, &r);
    ok(r.escalating, "second turn worse and blocked: escalating");

    conversation(better, 3, &r);
    ok(!r.escalating, "second turn calmer: not escalating");
}


/*
 * A repetition in other words, known by how the customer says it: a few
 * words that take the answer then "but" ("ist mir klar, aber"), a
 * yes-or-no tail ("ou pas ?", "¿o no?"), a way back to the first question,
 * or the cost asked for again after an acknowledgement ("Kontogebühr",
 * then "was kostet das Konto?"); in the five languages.
 */
static void
test_reask_in_other_words(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const convs[][3] = {
        { "How long does delivery to Dublin take?",
          "We ship to the whole of Ireland.",
          "Right I see, but how many days to Dublin" },
        { "¿Cuánto tarda el envío a Sevilla?",
          "Enviamos a toda España.",
          "Claro que sí, pero ¿cuántos días tarda a Sevilla?" },
        { "Quanto tempo demora a entrega no Porto?",
          "Entregamos em todo o país.",
          "Sim sim, mas quantos dias leva para o Porto?" },
        { "Combien de temps prend la livraison à Lyon ?",
          "Nous livrons partout en France.",
          "Oui je vois, mais combien de jours pour Lyon ?" },
        { "Wie lange dauert die Lieferung nach Graz?",
          "Wir liefern in alle EU-Länder.",
          "Ist mir klar, aber wie viele Tage braucht es bis Graz?" },
        { "Est-ce que je peux payer en trois fois ?",
          "Vous pouvez payer par carte ou par virement.",
          "Merci. Donc le paiement échelonné, c'est possible ou pas ?" },
        { "¿Puedo pagar a plazos?",
          "Aceptamos tarjeta y transferencia.",
          "Gracias. Entonces, ¿se puede fraccionar el pago o no?" },
        { "Posso pagar em prestações?",
          "Aceitamos cartão e transferência.",
          "Obrigado. Então dá para dividir o pagamento ou não?" },
        { "Kann ich in Raten zahlen?",
          "Wir nehmen Karte und Überweisung.",
          "Danke. Also Ratenzahlung geht oder nicht?" },
        { "Does my policy cover a cracked windscreen?",
          "Your policy renews in March.",
          "Thanks. Going back to my first question: is windscreen damage "
          "included?" },
        { "Wie hoch ist die Kontogebühr?",
          "Das Konto hat viele Vorteile, etwa Cashback.",
          "Schön. Und was kostet das Konto im Monat?" },
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        conversation(convs[i], 3, &r);
        is_int(r.repetition, 1, "asked again in other words: %s",
               convs[i][2]);
        is_int(r.action, BEHAVE_ACTION_CLARIFY, "and clarify");
    }
}


/*
 * Near misses, not repetitions: "OK, and..." after the answer asks
 * something new on the same topic; details given after an unclear turn
 * (the agent asked for them); an identifier said again; a thank-you.
 */
static void
test_reask_near_misses(void)
{
    static const char     *const convs[][3] = {
        { "Do you deliver on Sundays?", "Yes, from 9 to 1.",
          "OK, and can I track the driver on the day?" },
        { "¿Hacéis envíos los domingos?", "Sí, de 9 a 13.",
          "Vale. ¿Y puedo seguir al repartidor ese día?" },
        { "Vocês entregam ao domingo?", "Sim, das 9 às 13.",
          "Certo. E posso acompanhar o estafeta nesse dia?" },
        { "Vous livrez le dimanche ?", "Oui, de 9 h à 13 h.",
          "Parfait. Et je peux suivre le livreur ce jour-là ?" },
        { "Liefert ihr auch sonntags?", "Ja, von 9 bis 13 Uhr.",
          "Gut. Und kann ich den Fahrer an dem Tag verfolgen?" },
        { "the app is acting weird again",
          "Sorry! What exactly happens? Is there an error code?",
          "When I open Payments it shows error E-4410 and closes. Can you "
          "fix the app?" },
        { "Where is my order 55-221?", "Could you give me the order number?",
          "55-221, as I said." },
        { "When does my card arrive?", "It was posted yesterday.",
          "Thanks, that's all I needed." },
    };

    conv_each(convs, 3, repetition, 0, "not asked again");
}


/*
 * The same thing asked a third time, now as a clear complaint after a
 * calm first ask, escalates; a third ask no worse than the first does
 * not
 */
static void
test_third_ask_escalates(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const worse[][5] = {
        { "When will my refund arrive?", "Refunds follow our refund policy.",
          "OK but when exactly will I get the money back?",
          "Refunds are handled promptly.",
          "This is the third time I'm asking. When is my refund coming? "
          "I've waited three weeks and I'm fed up with this." },
        { "¿Cuándo llega mi reembolso?", "Los reembolsos siguen nuestra "
          "política.", "Vale, pero ¿cuándo me devuelven el dinero?",
          "Los reembolsos se tramitan con rapidez.",
          "Se lo vuelvo a preguntar por tercera vez: ¿cuándo llega mi "
          "reembolso? Llevo tres semanas esperando y estoy harta." },
    };
    static const char     *const calm[5] = {
        "When will my refund arrive? I need it soon, it's been a week.",
        "Refunds follow our refund policy.",
        "OK but when exactly will I get the money back? I need it soon.",
        "Refunds are handled promptly.",
        "Sorry, third time I'm asking: when will the refund arrive?",
    };

    for (i = 0; i < sizeof(worse) / sizeof(worse[0]); i++) {
        conversation(worse[i], 5, &r);
        is_int(r.repetition, 1, "a third ask: %s", worse[i][4]);
        is_int(r.escalating, 1, "worse than the first: escalating");
        is_int(r.action, BEHAVE_ACTION_HANDOFF, "and handoff");
    }

    conversation(calm, 5, &r);
    is_int(r.repetition, 1, "a calm third ask: repetition");
    is_int(r.escalating, 0, "no worse than the first: not escalating");
}


/*
 * An ultimatum (a demand and what the customer will do if it is not met,
 * a deadline set to the company) after earlier unhappy turns: the rising
 * intensity labels.md counts, in the five languages; the same words in a
 * calm conversation are no escalation
 */
static void
test_ultimatum_escalates(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const worse[][5] = {
        { "My new fridge arrived with a dented door.",
          "Sorry to hear that, please send us photos.",
          "I sent the photos on Monday and nobody has replied, this is "
          "really annoying.",
          "Your case is in the queue.",
          "Send a replacement by Thursday or I'm taking this to my bank "
          "and leaving a review everywhere." },
        { "La nevera llegó con la puerta abollada.",
          "Lo siento, envíenos fotos por favor.",
          "Mandé las fotos el lunes y nadie contesta, qué mal servicio.",
          "Su caso está en la cola.",
          "Quiero una nevera nueva antes del jueves, de lo contrario "
          "presento una queja y pido el dinero a mi banco." },
        { "A geladeira chegou com a porta amassada.",
          "Lamentamos, envie fotos por favor.",
          "Mandei as fotos na segunda e ninguém respondeu, péssimo "
          "atendimento.",
          "O seu caso está na fila.",
          "Quero outra geladeira até quinta, senão eu vou pedir o "
          "estorno no cartão e reclamar em todo lado." },
        { "Le frigo est arrivé avec la porte cabossée.",
          "Désolé, envoyez-nous des photos.",
          "J'ai envoyé les photos lundi et personne ne répond, c'est "
          "vraiment pénible.",
          "Votre dossier est en attente.",
          "Je veux un frigo neuf avant jeudi, sinon je fais opposition "
          "auprès de ma banque et je laisse des avis partout." },
        { "Der Kühlschrank kam mit einer verbeulten Tür an.",
          "Das tut uns leid, bitte schicken Sie Fotos.",
          "Die Fotos habe ich am Montag geschickt und niemand antwortet, "
          "das ist wirklich ärgerlich.",
          "Ihr Fall ist in Bearbeitung.",
          "Ich will bis Donnerstag einen neuen Kühlschrank, andernfalls "
          "lasse ich die Zahlung zurückbuchen und schreibe überall "
          "Bewertungen." },
    };
    static const char     *const calm[5] = {
        "Can I pay for the fridge in instalments?",
        "Yes, over 6 or 12 months.",
        "Nice. Is delivery included?",
        "Yes, delivery is free.",
        "Great, should I bring the receipt or else the card statement?",
    };

    for (i = 0; i < sizeof(worse) / sizeof(worse[0]); i++) {
        conversation(worse[i], 5, &r);
        is_int(r.escalating, 1, "an ultimatum after unhappy turns: %s",
               worse[i][4]);
        is_int(r.action, BEHAVE_ACTION_HANDOFF, "and handoff");
    }

    conversation(calm, 5, &r);
    is_int(r.escalating, 0, "'or else' in a calm conversation: not "
           "escalating");
}


/*
 * labels.md's clarify: "the customer's ask is unclear".  A greeting says
 * nothing of the issue, so a short vague turn after greetings only is the
 * first ask, and unclear, in the five languages; after a first turn that
 * named the issue, a short answer to the agent's question is not
 */
static void
test_vague_after_greeting(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const convs[][3] = {
        { "good evening", "Good evening! How can I help?",
          "that thing is acting up again" },
        { "buenas", "¡Buenas! ¿En qué le ayudo?",
          "lo de antes, que otra vez hace cosas raras" },
        { "olá", "Olá! Em que posso ajudar?",
          "aquele negócio parou outra vez" },
        { "salut", "Bonjour ! Comment puis-je vous aider ?",
          "le truc refait pareil" },
        { "guten Morgen", "Guten Morgen! Wie kann ich helfen?",
          "das Teil spinnt schon wieder" },
    };
    static const char     *const named[3] = {
        "I ordered a desk lamp on Monday, order 55210, it arrived "
        "with a cracked shade and I'd like a new one.",
        "Sorry about that! Which shade did you order, the white or the "
        "green one?",
        "the other one",
    };

    /* a first message that only says there is a problem */
    static const char     *const only[] = {
        "hello there, I have an issue",
        "buenas tardes, tengo un problema con el pedido",
        "oi, tenho um problema com a conta",
        "bonsoir, j'ai un souci avec la livraison",
        "Hallo, ich habe ein Problem mit dem Vertrag",
    };
    static const char     *const said[] = {
        "I have a problem, my card was declined at the supermarket",
        "tengo un problema: la tarjeta no pasa en ninguna tienda",
        "the app doesn't work",
        "mi tarjeta no funciona",
        "le lecteur plante",
    };
    /* a first message that only says that something fails */
    static const char     *const fails[] = {
        "it's not working!", "no funciona", "isso não funciona",
        "ça plante...", "das klappt nicht",
    };

    conv_each(convs, 3, action, BEHAVE_ACTION_CLARIFY,
              "a vague ask after a greeting: clarify");

    for (i = 0; i < sizeof(only) / sizeof(only[0]); i++) {
        first_turn(only[i], &r);
        is_int(r.action, BEHAVE_ACTION_CLARIFY,
               "only that there is a problem: clarify: %s", only[i]);
    }

    for (i = 0; i < sizeof(fails) / sizeof(fails[0]); i++) {
        first_turn(fails[i], &r);
        is_int(r.action, BEHAVE_ACTION_CLARIFY,
               "only that something fails: clarify: %s", fails[i]);
    }

    for (i = 0; i < sizeof(said) / sizeof(said[0]); i++) {
        first_turn(said[i], &r);
        ok(r.action != BEHAVE_ACTION_CLARIFY,
           "the problem said: not unclear: %s (%s)", said[i], r.reason);
    }

    conversation(named, 3, &r);
    ok(r.action != BEHAVE_ACTION_CLARIFY || strstr(r.reason, "short first")
       == NULL, "an answer after the issue was named is no unclear first "
       "ask (%s)", r.reason);
}


/*
 * A correction of what the agent understood ("Actually, what I asked
 * was...") re-asks the earlier question, in the four other languages as
 * in English; the filler "en fait" before a new question does not
 */
static void
test_correction_reasks(void)
{
    behave_conv_result_t   r;
    static const char     *const convs[][3] = {
        { "¿Puedo cambiar la fecha de mi vuelo sin pagar?",
          "Puede gestionar su reserva en la web.",
          "En realidad, lo que pregunté es si cambiar la fecha tiene "
          "coste." },
        { "Posso mudar a data do voo sem pagar?",
          "Pode gerir a reserva no site.",
          "Na verdade, o que eu perguntei foi se mudar a data custa "
          "alguma coisa." },
        { "Je peux changer la date de mon vol sans payer ?",
          "Vous pouvez gérer votre réservation en ligne.",
          "En fait, ce que j'ai demandé, c'est si changer la date coûte "
          "quelque chose." },
        { "Kann ich das Flugdatum ohne Gebühr ändern?",
          "Sie können Ihre Buchung online verwalten.",
          "Eigentlich wollte ich wissen, ob die Umbuchung etwas "
          "kostet." },
    };
    static const char     *const other[3] = {
        "Je peux changer la date de mon vol sans payer ?",
        "Oui, le changement est gratuit jusqu'à 24 h avant.",
        "Merci. En fait j'ai une autre question : livrez-vous des "
        "bagages en Belgique ?",
    };

    conv_each(convs, 3, repetition, 1, "a correction re-asks");

    conversation(other, 3, &r);
    is_int(r.repetition, 0, "'en fait' before a new question: no "
           "repetition");
}


/*
 * Going back to the first ask without calling it a question, and "no" with
 * what was meant: the earlier ask is asked again, in the five languages
 */
static void
test_going_back(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const back[][5] = {
        { "How much is a second SIM on my plan?",
          "Our fibre deal is 30% off this month.",
          "Ok. Does the plan work in Canada?",
          "Yes, Canada is included.",
          "Good. Going back to the start: a second SIM for my son, what "
          "would that cost monthly?" },
        { "¿Cuánto cuesta una segunda SIM en mi plan?",
          "Este mes la fibra tiene un 30% de descuento.",
          "Vale. ¿El plan funciona en Canadá?",
          "Sí, Canadá está incluido.",
          "Bien. Volviendo al principio: una segunda SIM para mi hijo, "
          "¿cuánto me costaría al mes?" },
        { "Quanto custa um segundo chip no meu plano?",
          "A fibra está com 30% de desconto este mês.",
          "Certo. O plano funciona no Canadá?",
          "Sim, o Canadá está incluído.",
          "Bom. Voltando ao início: um segundo chip para o meu filho, "
          "quanto custaria por mês?" },
        { "Combien coûte une deuxième SIM sur mon forfait ?",
          "La fibre est à -30 % ce mois-ci.",
          "D'accord. Le forfait marche au Canada ?",
          "Oui, le Canada est inclus.",
          "Bien. Pour revenir au début : une deuxième SIM pour mon fils, "
          "ça coûterait combien par mois ?" },
        { "Was kostet eine zweite SIM in meinem Tarif?",
          "Glasfaser gibt es diesen Monat 30 % günstiger.",
          "Okay. Gilt der Tarif in Kanada?",
          "Ja, Kanada ist enthalten.",
          "Gut. Zurück zum Anfang: eine zweite SIM für meinen Sohn, was "
          "würde die im Monat kosten?" },
    };
    static const char     *const meant[][3] = {
        { "How do I move my number to another provider?",
          "We have plans from £9 with 20GB!",
          "No, I mean keeping my number when I leave, how does that "
          "work?" },
        { "¿Cómo me llevo mi número a otra compañía?",
          "¡Tenemos tarifas desde 9 € con 20 GB!",
          "No, me refiero a conservar el número si me voy, ¿cómo se "
          "hace?" },
        { "Como levo o meu número para outra operadora?",
          "Temos planos a partir de 9 € com 20 GB!",
          "Não, eu quero manter o número quando sair, como se faz?" },
        { "Comment garder mon numéro chez un autre opérateur ?",
          "Nous avons des forfaits dès 9 € avec 20 Go !",
          "Non, je veux dire garder mon numéro en partant, comment on "
          "fait ?" },
        { "Wie nehme ich meine Nummer zu einem anderen Anbieter mit?",
          "Wir haben Tarife ab 9 € mit 20 GB!",
          "Nein, ich meine die Rufnummernmitnahme, wie geht das?" },
    };

    for (i = 0; i < sizeof(back) / sizeof(back[0]); i++) {
        conversation(back[i], 5, &r);
        is_int(r.repetition, 1, "going back to the first ask: %s",
               back[i][4]);
        is_int(r.repeated_turn, 0, "the first ask is the one asked again");
    }

    conv_each(meant, 3, repetition, 1, "'no' and what was meant");
}


/*
 * Teams named by their department or the action threatened, and the
 * accessibility team, in the five languages; large print as a product is
 * no team
 */
static void
test_more_teams(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const teams[] = {
        "Please pass this to your legal department, the contract was "
        "breached.",
        "Si no me contestan, emprenderé acciones legales contra ustedes.",
        "Quero que encaminhem isto ao departamento jurídico.",
        "Merci de transmettre ma réclamation à votre service juridique.",
        "Ich behalte mir rechtliche Schritte vor, wenn nichts passiert.",
        "Can I speak to your accessibility team about my statements?",
        "¿Me pasan con el equipo de accesibilidad, por favor?",
        "Vous avez un service accessibilité pour les malvoyants ?",
        /* a court order, a death in the family, a company's single
         * sign-on and data agreement, a charge never made */
        "I'm a solicitor acting for Mrs Hale; we have a court order "
        "requiring disclosure of the statements. Where do I send it?",
        "My husband died last month and I need to close his accounts. I "
        "have the death certificate.",
        "We need single sign-on with Okta and a signed data processing "
        "agreement before procurement signs off.",
        "Mi marido falleció en marzo y tengo que cerrar sus cuentas.",
        "Recebi uma ordem judicial pedindo os extratos da minha conta.",
        "Nous avons besoin de l'authentification unique et d'un accord de "
        "traitement des données signé.",
        "Mein Mann ist verstorben, ich muss seine Konten auflösen. Die "
        "Sterbeurkunde liegt vor.",
        "Je voudrais contester un prélèvement de 39 euros du mois "
        "dernier.",
        "Da ist eine Abbuchung über 39 Euro von einer Firma, die ich nicht "
        "kenne.",
    };

    for (i = 0; i < sizeof(teams) / sizeof(teams[0]); i++) {
        first_turn(teams[i], &r);
        is_int(r.action, BEHAVE_ACTION_ROUTE, "a team named: route: %s",
               teams[i]);
    }

    first_turn("Do you have the large print edition of this novel?", &r);
    ok(r.action != BEHAVE_ACTION_ROUTE,
       "a large print edition is no team (%s)", r.reason);
}


/* "as I said" before the ask put again: a repetition, five languages */
static void
test_as_i_said(void)
{
    static const char     *const convs[][3] = {
        { "Can I pause my gym membership over the summer?",
          "Our summer classes start in June!",
          "As I mentioned, I'm away two months, can the membership be "
          "frozen?" },
        { "¿Puedo pausar la cuota del gimnasio en verano?",
          "¡Las clases de verano empiezan en junio!",
          "Como le dije, me voy dos meses, ¿se puede congelar la cuota?" },
        { "Posso pausar a mensalidade da academia no verão?",
          "As aulas de verão começam em junho!",
          "Como já disse, vou viajar dois meses, dá para congelar a "
          "mensalidade?" },
        { "Je peux suspendre mon abonnement à la salle cet été ?",
          "Les cours d'été commencent en juin !",
          "Comme je vous l'ai dit, je pars deux mois, on peut geler "
          "l'abonnement ?" },
        { "Kann ich meine Mitgliedschaft im Sommer pausieren?",
          "Die Sommerkurse starten im Juni!",
          "Wie schon gesagt, ich bin zwei Monate weg, kann man die "
          "Mitgliedschaft ruhen lassen?" },
    };

    conv_each(convs, 3, repetition, 1, "'as I said' re-asks");
}


/*
 * The answer misread the ask, and the customer says so ("Sorry, you
 * misunderstood!") and gives it again: a repetition, whatever the words
 */
static void
test_misunderstood(void)
{
    static const char     *const convs[][3] = {
        { "Lightroom takes 15 seconds to load each preview since the update.",
          "Could you import new images and see if previews are still slow?",
          "Sorry, you misunderstood! I did import new files, still slow." },
        { "Desde la actualización cada vista previa tarda 15 segundos.",
          "¿Puede importar fotos nuevas y ver si sigue lento?",
          "Creo que no me entendió: ya importé fotos nuevas y va lento." },
        { "Desde a atualização cada prévia demora 15 segundos. Por quê?",
          "Pode importar fotos novas e ver se continua lento?",
          "Você entendeu errado: já importei fotos novas e "
          "continua lento." },
        { "Depuis la mise à jour chaque aperçu met 15 secondes.",
          "Pouvez-vous importer de nouvelles photos et voir si c'est lent ?",
          "Vous avez mal compris : j'ai déjà importé de nouvelles photos, "
          "c'est lent." },
        { "Seit dem Update braucht jede Vorschau 15 Sekunden.",
          "Können Sie neue Bilder importieren und prüfen, ob es langsam ist?",
          "Sie haben mich falsch verstanden: ich habe neue Bilder "
          "importiert, es ist langsam." },
    };

    conv_each(convs, 3, repetition, 1, "'you misunderstood' re-asks");
}


/*
 * Asked a third time in plain words after two answers in jargon ("I
 * just want to know where I click", "je veux juste savoir"), and "I
 * don't follow" in between, which denies no fix: a repetition, clarify
 */
static void
test_plain_third_ask(void)
{
    static const char     *const convs[][5] = {
        { "How do I get my money back for the cancelled flight?",
          "Refunds are processed per EU261 via the PNR-linked claims "
          "interface.",
          "Sorry, I don't follow. How do I get the money back?",
          "You can submit an ERF via MMB under ancillary services.",
          "I just want to know where I click to get my money back." },
        { "¿Cómo recupero el dinero del vuelo cancelado?",
          "El reembolso se tramita conforme al reglamento 261 mediante la "
          "interfaz vinculada al PNR.",
          "Perdone, no le entiendo. ¿Cómo recupero el dinero?",
          "Puede enviar un ERF desde MMB en servicios auxiliares.",
          "Solo quiero saber dónde hago clic para que me devuelvan el "
          "dinero." },
        { "Como recebo meu dinheiro de volta do voo cancelado?",
          "O reembolso é processado conforme a resolução 400 via interface "
          "vinculada ao PNR.",
          "Desculpa, não entendi. Como recebo o dinheiro de volta?",
          "Basta abrir um ERF pelo MMB em serviços auxiliares.",
          "Eu só quero saber onde eu clico pra ter meu dinheiro de volta." },
        { "Comment je récupère mon argent pour le vol annulé ?",
          "Le remboursement est traité selon le règlement 261 via "
          "l'interface liée au PNR.",
          "Pardon, je ne comprends pas. Comment je récupère l'argent ?",
          "Vous pouvez soumettre un ERF via MMB dans les services annexes.",
          "Je veux juste savoir où je clique pour être remboursé." },
        { "Wie bekomme ich mein Geld für den gestrichenen Flug zurück?",
          "Erstattungen laufen gemäß VO 261 über die PNR-verknüpfte "
          "Claims-Schnittstelle.",
          "Entschuldigung, das verstehe ich nicht. Wie bekomme ich das Geld "
          "zurück?",
          "Sie können ein ERF über MMB unter Zusatzleistungen einreichen.",
          "Ich will nur wissen, wo ich klicken muss, um mein Geld "
          "zurückzubekommen." },
    };

    conv_each(convs, 3, false_resolution, 0, "'I don't follow' denies no "
              "fix");
    conv_each(convs, 3, action, BEHAVE_ACTION_CLARIFY,
              "'I don't follow': clarify");
    conv_each(convs, 5, repetition, 1, "a third ask in plain words");
    conv_each(convs, 5, action, BEHAVE_ACTION_CLARIFY,
              "a third ask in plain words: clarify");
}


/*
 * A suggested fix answered "still broken" with the customer saying they
 * will leave, on the second customer turn: escalating, handoff; a fix
 * suggested is no claim, so no false resolution
 */
static void
test_still_broken_leaving(void)
{
    static const char     *const convs[][3] = {
        { "my internet has been down since yesterday",
          "Sorry about that! Have you tried restarting your modem?",
          "yes restarted it 3 times, still broken. honestly about to switch "
          "to another provider" },
        { "la app no me deja pagar",
          "Hola, ¿has probado a cerrar sesión y volver a entrar?",
          "Sí, y sigue igual. Me cambio a otra compañía, nunca más." },
        { "minha internet caiu de novo", "Oi! Já tentou reiniciar o modem?",
          "Já reiniciei, continua sem funcionar. Vou mudar de operadora, "
          "nunca mais." },
        { "ma box ne marche plus",
          "Bonjour, avez-vous essayé de la redémarrer ?",
          "Oui, toujours en panne. Je change de fournisseur, plus jamais." },
        { "Internet geht seit gestern nicht",
          "Hallo, haben Sie den Router neu gestartet?",
          "Ja, geht immer noch nicht. Ich wechsle zur Konkurrenz, nie "
          "wieder." },
    };

    conv_each(convs, 3, escalating, 1, "still broken and leaving");
    conv_each(convs, 3, false_resolution, 0,
              "a suggested fix is no claim");
    conv_each(convs, 3, action, BEHAVE_ACTION_HANDOFF,
              "still broken and leaving: handoff");
}


/*
 * A reply that calls the company liars and threatens to go public, or to
 * shop elsewhere, after an unhappy first turn: escalating, handoff
 */
static void
test_liars_and_public(void)
{
    static const char     *const convs[][3] = {
        { "my account has been on hold for five days, why?",
          "We've escalated your concern, a member of our team will be in "
          "touch.",
          "That's a lie, stop lying. I'll make it public." },
        { "mi cuenta lleva cinco días bloqueada, ¿por qué?",
          "Hemos escalado su caso, un compañero le contactará.",
          "Me están mintiendo. Voy a hacerlo público." },
        { "minha conta está bloqueada há cinco dias, por quê?",
          "Encaminhamos o seu caso, a equipe vai entrar em contato.",
          "Vocês estão mentindo. Vou tornar público." },
        { "mon compte est bloqué depuis cinq jours, pourquoi ?",
          "Nous avons transmis votre demande, un conseiller vous "
          "contactera.",
          "Vous mentez. Je vais rendre public tout ça." },
        { "mein Konto ist seit fünf Tagen gesperrt, warum?",
          "Wir haben Ihr Anliegen weitergeleitet, ein Kollege meldet sich.",
          "Sie lügen. Ich werde das öffentlich machen." },
        { "your driver swore at me on the phone, I am really upset",
          "Could you DM us your name and address please?",
          "Pretty poor apology. Feel like shopping somewhere else." },
    };

    conv_each(convs, 3, escalating, 1, "liars, going public, elsewhere");
    conv_each(convs, 3, action, BEHAVE_ACTION_HANDOFF,
              "liars and going public: handoff");
}


/*
 * The result of the step the agent suggested, with no question mark
 * ("Did both, still shows offline"): new information, no re-ask
 */
static void
test_step_done(void)
{
    static const char     *const convs[][3] = {
        { "My printer shows as offline on my laptop.",
          "Could you restart the printer and check it's on the same Wi-Fi?",
          "Did both, still shows offline." },
        { "Mi impresora sale desconectada en el portátil.",
          "¿Puede reiniciar la impresora y comprobar que está en la misma "
          "wifi?",
          "Ya lo hice, sigue saliendo desconectada." },
        { "Minha impressora aparece offline no notebook.",
          "Pode reiniciar a impressora e ver se está na mesma rede wi-fi?",
          "Já fiz, continua aparecendo offline." },
        { "Mon imprimante apparaît hors ligne sur mon portable.",
          "Pouvez-vous redémarrer l'imprimante et vérifier le wifi ?",
          "C'est fait, elle apparaît toujours hors ligne." },
        { "Mein Drucker wird am Laptop als offline angezeigt.",
          "Können Sie den Drucker neu starten und das WLAN prüfen?",
          "Schon gemacht, er wird immer noch als offline angezeigt." },
    };

    conv_each(convs, 3, repetition, 0, "the step's result is no re-ask");
}


int
main(void)
{
    test_false_resolution();
    test_overload();
    test_specialist();
    test_no_team();
    test_lost_is_no_denial();
    test_still_open();
    test_crisis_goes_on();
    test_asked_nothing();
    test_reask_in_other_words();
    test_reask_near_misses();
    test_third_ask_escalates();
    test_second_turn_escalation();
    test_ultimatum_escalates();
    test_vague_after_greeting();
    test_correction_reasks();
    test_going_back();
    test_more_teams();
    test_as_i_said();
    test_plain_third_ask();
    test_still_broken_leaving();
    test_liars_and_public();
    test_misunderstood();
    test_step_done();

    return tap_done();
}
