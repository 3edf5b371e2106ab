/*
 * The conversation findings on kinds of turn that the development
 * conversations of data/corpus showed missed, in the five languages (en,
 * es, pt, fr, de), written from labels.md and the kinds, not copied from
 * the conversations:
 *
 * - escalating: the details told at last after a first turn that said
 *   nothing of the problem ("I've got a problem", "the thing again") are
 *   no rise from its calm, however high and unhappy they read; after a
 *   first turn that asked something clear, the same turn is a rise;
 *   disrespect named, and a person demanded who can act ("get me someone
 *   who can actually fix this"), after an unhappy turn, are a rise
 *   (phrases/anger.tsv; every phrase is checked by test_conv_phrases.c);
 * - action: once a team was named and the agent answered, a later
 *   question that names the team again asks how the case goes on
 *   (resolve); told, not asked ("I still want it passed to your fraud
 *   team"), the case is still the team's (route);
 * - repetition: a clause that opens with "so" and asks ("So is sending
 *   them back free or not?", "Entonces, ¿tengo que pagar?") asks the
 *   earlier question again, even after a turn that took an answer with
 *   thanks (phrases/conclusive.tsv, ask_verb.tsv); "so" and a statement
 *   with a question mark ("so it's just a lie?") does not say so;
 * - clarify: a short turn that announces a question and does not ask it
 *   ("quick question about my data", phrases/announce.tsv) is unclear;
 *   the turn that then asks it, on the same topic, is no repetition;
 * - repetition: formal thanks ("Les agradezco la confirmación", "Ich
 *   bedanke mich", phrases/confirm_weak.tsv) take the answer, so the new
 *   question after them is not the letter asked again (resolve);
 * - clarify: "which one", "I don't understand" in a first message is no
 *   answer not understood (none was given yet): the ask is answered
 *   (resolve); after an answer, the same words ask to clarify;
 * - repetition: a question about the wait for the fix ("ok, but
 *   anything I can do until then?", phrases/interim.tsv) is a new ask,
 *   whatever concession opens it and however close it reads.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "convtest.h"
#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"


/*
 * A first turn that says nothing of the problem, the agent asks what
 * happens, the customer tells it, read as high urgency and unhappy: not
 * escalating.  The same third turn after a clear, calm first ask:
 * escalating (the second turn's rise, behave_conv_escalation.c).
 */
static void
test_told_after_unclear(void)
{
    size_t                 i, k;
    behave_conv_result_t   r;
    static const char     *const convs[][4] = {
        { "Hi, I've got a problem.",
          "How do I order a new card?",
          "What happens exactly?",
          "My card was declined at the till twice and the app shows a "
          "payment I never made." },
        { "Hola, tengo un problema.",
          "¿Cómo pido una tarjeta nueva?",
          "¿Qué pasa exactamente?",
          "Me rechazaron la tarjeta dos veces en la caja y la app muestra "
          "un pago que nunca hice." },
        { "Olá, tenho um problema.",
          "Como peço um cartão novo?",
          "O que acontece exatamente?",
          "O cartão foi recusado duas vezes no caixa e o app mostra um "
          "pagamento que eu nunca fiz." },
        { "Bonjour, j'ai un souci.",
          "Comment je commande une nouvelle carte ?",
          "Que se passe-t-il exactement ?",
          "Ma carte a été refusée deux fois en caisse et l'appli affiche "
          "un paiement que je n'ai jamais fait." },
        { "Hallo, ich habe ein Problem.",
          "Wie bestelle ich eine neue Karte?",
          "Was passiert genau?",
          "Meine Karte wurde an der Kasse zweimal abgelehnt und die App "
          "zeigt eine Zahlung, die ich nie gemacht habe." },
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        for (k = 0; k < 2; k++) {
            second_rise(convs[i][k], convs[i][2], convs[i][3], &r);
            is_int(r.escalating, k == 1, "%s: %s", k == 0
                   ? "told after a turn that said nothing: not escalating"
                   : "told after a clear first ask: escalating",
                   convs[i][k]);
        }
    }
}


/*
 * A complaint, a scripted apology, then disrespect named or a person
 * demanded who can act: escalating, handoff
 */
static void
test_disrespect_and_someone(void)
{
    static const char  *const convs[][5] = {
        { "My order is a week late and nobody told me anything.",
          "Sorry, it's the courier's delay.",
          "Nobody warned me, I had to chase you myself. This is so "
          "disrespectful." },
        { "Mi pedido llega una semana tarde y nadie me avisó.",
          "Lo sentimos, es un retraso de la mensajería.",
          "Nadie me avisó, tuve que perseguirles yo. Es una falta de "
          "respeto." },
        { "Meu pedido está uma semana atrasado e ninguém me avisou.",
          "Desculpe, é atraso da transportadora.",
          "Ninguém me avisou, eu que tive que correr atrás. Isso é um "
          "desrespeito." },
        { "Ma commande a une semaine de retard et personne ne m'a "
          "prévenu.",
          "Désolé, c'est un retard du transporteur.",
          "Personne ne m'a prévenu, j'ai dû vous relancer moi-même. "
          "C'est un manque de respect." },
        { "Meine Bestellung ist eine Woche zu spät und niemand hat mir "
          "Bescheid gesagt.",
          "Entschuldigung, das ist eine Verzögerung beim Paketdienst.",
          "Niemand hat mich informiert, ich musste selbst nachhaken. Das "
          "ist respektlos." },
        { "All my photos are gone from the cloud, 3,000 of them.",
          "Let me check again.",
          "It's been an hour. Please get me someone who can actually fix "
          "this." },
        { "Todas mis fotos han desaparecido de la nube, 3.000.",
          "Déjeme revisar otra vez.",
          "Ya pasó una hora. Páseme con alguien que realmente pueda "
          "arreglarlo." },
        { "Sumiram todas as minhas fotos da nuvem, 3.000, que tristeza.",
          "Deixe-me verificar de novo.",
          "Já faz uma hora. Me passa para alguém que realmente possa "
          "resolver isso." },
        { "Toutes mes photos ont disparu du cloud, 3 000.",
          "Je vérifie encore.",
          "Ça fait une heure. Passez-moi quelqu'un qui peut vraiment "
          "régler ça." },
        { "Alle meine Fotos sind aus der Cloud verschwunden, 3.000 Stück.",
          "Ich prüfe das noch einmal.",
          "Jetzt ist eine Stunde vorbei. Geben Sie mir jemanden, der "
          "wirklich helfen kann." },
    };

    conv_each(convs, 3, escalating, 1,
              "disrespect or someone who can act: escalating");
    conv_each(convs, 3, action, BEHAVE_ACTION_HANDOFF,
              "disrespect or someone who can act: handoff");
}


/*
 * A charge reported as fraud (route), the agent passes it on, then a
 * question on how it goes on (resolve) or the team demanded again in a
 * statement (route)
 */
static void
test_team_taken(void)
{
    size_t                 i, k;
    behave_conv_result_t   r;
    const char            *texts[3];
    static const char     *const convs[][5] = {
        { "There's a charge on my card I never made, it looks like fraud. "
          "How do I dispute it?",
          "I've passed it to our fraud team, reference D-5521.",
          "Thanks. How long does the fraud team usually take?",
          "I know, but I still want the fraud team to call me back "
          "today." },
        { "Hay un cargo en mi tarjeta que nunca hice, parece un fraude. "
          "¿Cómo lo reclamo?",
          "Lo he pasado al equipo de fraude, referencia D-5521.",
          "Gracias. ¿Cuánto suele tardar el equipo de fraude?",
          "Ya, pero sigo queriendo que el equipo de fraude me llame "
          "hoy." },
        { "Tem uma cobrança no meu cartão que eu nunca fiz, parece "
          "fraude. Como contesto?",
          "Já passei para a equipe de fraude, protocolo D-5521.",
          "Obrigado. Quanto tempo a equipe de fraude costuma levar?",
          "Sei, mas ainda quero que a equipe de fraude me ligue hoje." },
        { "Il y a un paiement sur ma carte que je n'ai jamais fait, ça "
          "ressemble à une fraude. Comment le contester ?",
          "Je l'ai transmis au service fraude, référence D-5521.",
          "Merci. Combien de temps prend le service fraude en général ?",
          "Oui, mais je veux toujours que le service fraude me rappelle "
          "aujourd'hui." },
        { "Auf meiner Karte ist eine Abbuchung, die ich nie gemacht habe, "
          "sieht nach Betrug aus. Wie widerspreche ich?",
          "Ich habe es an die Betrugsabteilung weitergegeben, Referenz "
          "D-5521.",
          "Danke. Wie lange dauert die Prüfung wegen Betrug "
          "normalerweise?",
          "Der Betrug muss bitte heute noch von jemandem geprüft "
          "werden." },
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        first_turn(convs[i][0], &r);
        is_int(r.action, BEHAVE_ACTION_ROUTE, "fraud named: route: %s",
               convs[i][0]);

        for (k = 2; k < 4; k++) {
            texts[0] = convs[i][0];
            texts[1] = convs[i][1];
            texts[2] = convs[i][k];
            conversation(texts, 3, &r);
            is_int(r.action, k == 2 ? BEHAVE_ACTION_RESOLVE
                                    : BEHAVE_ACTION_ROUTE, "%s: %s",
                   k == 2 ? "asks how the case goes on: resolve"
                          : "the team demanded again: route",
                   convs[i][k]);
        }
    }
}


/*
 * A question, the agent's questions and answers beside it, a turn that
 * takes one gladly, then the first question asked with "so" in other
 * words: repetition, clarify.  Ending on "so" and a statement ("so I'll
 * take it to the drop-off"): no repetition.
 */
static void
test_so_asks_again(void)
{
    static const char  *const asked[][7] = {
        { "Is the warranty on my TV transferable if I sell it?",
          "Which model is it?",
          "It's the QN65, bought in 2024.",
          "That model has a two-year warranty, extended if registered.",
          "Nice, I did register it.",
          "Great, then you're covered until 2027.",
          "Cool. So if I hand it over to a buyer, is the new owner covered "
          "too?" },
        { "¿La garantía de mi televisor se puede transferir si lo vendo?",
          "¿Qué modelo es?",
          "Es el QN65, comprado en 2024.",
          "Ese modelo tiene dos años de garantía, ampliada si se registra.",
          "Genial, lo registré.",
          "Perfecto, entonces está cubierto hasta 2027.",
          "Estupendo. Entonces, si se lo doy a un comprador, ¿el nuevo "
          "dueño también queda cubierto?" },
        { "A garantia da minha TV pode ser transferida se eu vender?",
          "Qual é o modelo?",
          "É a QN65, comprada em 2024.",
          "Esse modelo tem dois anos de garantia, estendida se registrado.",
          "Legal, eu registrei.",
          "Ótimo, então está coberto até 2027.",
          "Beleza. Então, se eu passar para um comprador, o novo dono "
          "também fica coberto?" },
        { "La garantie de ma télé est-elle transférable si je la vends ?",
          "Quel modèle est-ce ?",
          "C'est la QN65, achetée en 2024.",
          "Ce modèle a deux ans de garantie, prolongée si enregistré.",
          "Super, je l'ai enregistrée.",
          "Parfait, vous êtes couvert jusqu'en 2027.",
          "Cool. Alors, si je la cède à un acheteur, est-ce que le nouveau "
          "propriétaire est couvert aussi ?" },
        { "Ist die Garantie meines Fernsehers übertragbar, wenn ich ihn "
          "verkaufe?",
          "Welches Modell ist es?",
          "Der QN65, gekauft 2024.",
          "Das Modell hat zwei Jahre Garantie, verlängert bei "
          "Registrierung.",
          "Super, ich habe ihn registriert.",
          "Prima, dann sind Sie bis 2027 abgedeckt.",
          "Gut. Dann ist der neue Besitzer auch abgedeckt, wenn ich ihn "
          "einem Käufer gebe?" },
    };
    static const char  *const told[][5] = {
        { "Do I have to pay for the return postage?",
          "You can start a return from Your Orders.",
          "Thanks, I've started it.",
          "Choose a drop-off point or home collection.",
          "Great, so it's free with the drop-off, I'll do that." },
        { "¿Tengo que pagar el envío de la devolución?",
          "Puede iniciar la devolución desde Mis pedidos.",
          "Gracias, ya la he iniciado.",
          "Elija un punto de entrega o la recogida a domicilio.",
          "Perfecto, entonces lo llevo al punto de entrega." },
        { "Eu tenho que pagar o frete da devolução?",
          "Você pode iniciar a devolução em Meus pedidos.",
          "Obrigado, já iniciei.",
          "Escolha um ponto de entrega ou a coleta em casa.",
          "Beleza, então levo no ponto de entrega." },
        { "Est-ce que je dois payer les frais de retour ?",
          "Vous pouvez lancer le retour depuis Mes commandes.",
          "Merci, c'est lancé.",
          "Choisissez un point relais ou l'enlèvement à domicile.",
          "Parfait, alors je le dépose au point relais." },
        { "Muss ich das Rücksendeporto bezahlen?",
          "Sie können die Rücksendung unter Meine Bestellungen starten.",
          "Danke, habe ich gestartet.",
          "Wählen Sie eine Paketstation oder die Abholung zu Hause.",
          "Gut, dann bringe ich es zur Paketstation." },
    };

    conv_each(asked, 7, repetition, 1, "so, and a question: repetition");
    conv_each(asked, 7, action, BEHAVE_ACTION_CLARIFY,
              "so, and a question: clarify");
    conv_each(told, 5, repetition, 0, "so, and a statement: no repetition");
}


/*
 * A question announced: clarify; after the agent's "what is it?", the
 * question itself on the same topic: no repetition.  Announced and
 * asked at once: resolve.
 */
static void
test_announced(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const convs[][4] = {
        { "Hi, I have a question about cancelling my gym contract.",
          "Sure, what would you like to know?",
          "Can I cancel the gym contract before the end of the minimum "
          "term if I move abroad?",
          "Hi, a question about my gym contract: can I cancel it early?" },
        { "Hola, tengo una duda sobre la cancelación de mi contrato del "
          "gimnasio.",
          "Claro, ¿qué quiere saber?",
          "¿Puedo cancelar el contrato del gimnasio antes del plazo "
          "mínimo si me mudo al extranjero?",
          "Hola, una duda sobre mi contrato: ¿puedo cancelarlo antes?" },
        { "Olá, tenho uma dúvida sobre o cancelamento do meu contrato da "
          "academia.",
          "Claro, o que gostaria de saber?",
          "Posso cancelar o contrato da academia antes do prazo mínimo "
          "se eu me mudar para o exterior?",
          "Olá, uma dúvida sobre meu contrato: posso cancelar antes?" },
        { "Bonjour, j'ai une question sur la résiliation de mon "
          "abonnement à la salle.",
          "Bien sûr, que voulez-vous savoir ?",
          "Est-ce que je peux résilier l'abonnement à la salle avant la "
          "fin de l'engagement si je déménage à l'étranger ?",
          "Bonjour, une question sur mon abonnement : je peux résilier "
          "avant ?" },
        { "Guten Tag, ich habe eine Frage zur Kündigung meines "
          "Fitnessvertrags.",
          "Gern, worum geht es?",
          "Kann ich den Fitnessvertrag vor Ende der Mindestlaufzeit "
          "kündigen, wenn ich ins Ausland ziehe?",
          "Guten Tag, eine Frage zu meinem Vertrag: kann ich früher "
          "kündigen?" },
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        first_turn(convs[i][0], &r);
        is_int(r.action, BEHAVE_ACTION_CLARIFY,
               "a question announced, not asked: clarify: %s", convs[i][0]);

        conversation(convs[i], 3, &r);
        is_int(r.repetition, 0, "the question after its announcement: no "
               "repetition: %s", convs[i][2]);

        first_turn(convs[i][3], &r);
        is_int(r.action, BEHAVE_ACTION_RESOLVE,
               "announced and asked: resolve: %s", convs[i][3]);
    }
}


/* a formal letter routed, then formal thanks and a new question */
static void
test_formal_thanks(void)
{
    static const char  *const convs[][3] = {
        { "Dear Sirs, unless I receive a reply within fifteen days I shall "
          "take legal action over the breach of building contract 2231. "
          "Kindly forward this letter to your legal department. Yours "
          "faithfully, R. Ibanez",
          "Dear Mr Ibanez, we have forwarded your letter to our legal "
          "department, which will reply by registered post.",
          "Much appreciated. Could you give me the reference number of the "
          "letter's registration?" },
        { "Estimados señores: Por la presente les comunico que, de no "
          "recibir respuesta en quince días, iniciaré acciones legales por "
          "el incumplimiento del contrato de obra n.º 2231. Ruego trasladen "
          "este escrito a su departamento jurídico. Atentamente, Ramón "
          "Ibáñez",
          "Estimado Sr. Ibáñez: hemos trasladado su escrito al departamento "
          "jurídico, que le contestará por correo certificado.",
          "Les agradezco la confirmación. ¿Podrían indicarme el número de "
          "registro de entrada?" },
        { "Prezados senhores, venho por meio desta comunicar que, caso não "
          "receba resposta em quinze dias, entrarei com ação judicial pelo "
          "descumprimento do contrato de obra n.º 2231. Solicito que "
          "encaminhem esta carta ao departamento jurídico. Atenciosamente, "
          "Ramiro Ibanez",
          "Prezado Sr. Ibanez, encaminhamos a sua carta ao departamento "
          "jurídico, que responderá por carta registrada.",
          "Agradeço a confirmação. Poderiam informar o número de protocolo "
          "de entrada?" },
        { "Madame, Monsieur, je vous informe que, sans réponse sous quinze "
          "jours, j'engagerai une action en justice pour l'inexécution du "
          "contrat de travaux n° 2231. Je vous prie de transmettre ce "
          "courrier à votre service juridique. Veuillez agréer mes "
          "salutations distinguées. R. Ibanez",
          "Monsieur Ibanez, nous avons transmis votre courrier au service "
          "juridique, qui vous répondra par lettre recommandée.",
          "Je vous remercie de la confirmation. Pourriez-vous m'indiquer le "
          "numéro d'enregistrement du courrier ?" },
        { "Sehr geehrte Damen und Herren, sollte ich binnen fünfzehn Tagen "
          "keine Antwort erhalten, werde ich wegen der Nichterfüllung des "
          "Bauvertrags Nr. 2231 rechtliche Schritte einleiten. Bitte leiten "
          "Sie dieses Schreiben an Ihre Rechtsabteilung weiter. Mit "
          "freundlichen Grüßen R. Ibanez",
          "Sehr geehrter Herr Ibanez, wir haben Ihr Schreiben an die "
          "Rechtsabteilung weitergeleitet, die Ihnen per Einschreiben "
          "antworten wird.",
          "Ich bedanke mich für die Bestätigung. Könnten Sie mir die "
          "Eingangsnummer des Schreibens nennen?" },
    };

    conv_each(convs, 3, repetition, 0,
              "formal thanks, then a new question: no repetition");
    conv_each(convs, 3, action, BEHAVE_ACTION_RESOLVE,
              "formal thanks, then a new question: resolve");
}


/* confusion in a first message, then after an answer */
static void
test_confusion_first(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *const convs[][3] = {
        { "I want to switch plans, which one is cheaper for me?",
          "We have Basic, Plus and Max, each with a family version and "
          "annual billing.",
          "Sorry, which one is cheaper for me?" },
        { "Quiero cambiar de tarifa, no entiendo cuál me sale más barata.",
          "Tenemos Básica, Plus y Max, cada una con versión familiar y "
          "pago anual.",
          "Perdón, no entiendo cuál me sale más barata." },
        { "Quero mudar de plano, não entendo qual sai mais barato para "
          "mim.",
          "Temos Básico, Plus e Max, cada um com versão família e "
          "pagamento anual.",
          "Desculpe, não entendi qual sai mais barato para mim." },
        { "Je veux changer de forfait, je ne comprends pas lequel est le "
          "moins cher pour moi.",
          "Nous avons Basic, Plus et Max, chacun en version famille et "
          "en paiement annuel.",
          "Pardon, je ne comprends pas lequel est le moins cher pour moi." },
        { "Ich möchte den Tarif wechseln, ich verstehe nicht, welcher für "
          "mich günstiger ist.",
          "Wir haben Basic, Plus und Max, jeweils als Familienversion und "
          "mit jährlicher Zahlung.",
          "Entschuldigung, ich verstehe nicht, welcher für mich günstiger "
          "ist." },
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        first_turn(convs[i][0], &r);
        is_int(r.action, BEHAVE_ACTION_RESOLVE,
               "confusion in a first message: resolve: %s", convs[i][0]);
    }

    conv_each(convs, 3, action, BEHAVE_ACTION_CLARIFY,
              "confusion after an answer: clarify");
}


/* a fix promised, then "ok, but what can I do until then?" */
static void
test_interim(void)
{
    static const char  *const convs[][3] = {
        { "The sync between your calendar app and Outlook duplicates "
          "every meeting. Not urgent but it's messy.",
          "Thanks for reporting this. I'll raise it with our engineers "
          "and we'll get back to you within 48 hours.",
          "ok, but it's still duplicating in the meantime, right? "
          "anything I can do until then?" },
        { "La sincronización de su calendario con Outlook duplica todas "
          "las reuniones. No es urgente, pero es un lío.",
          "Gracias por avisar. Lo paso a los ingenieros y le respondemos "
          "en 48 horas.",
          "vale, pero mientras tanto se sigue duplicando, ¿no? ¿puedo "
          "hacer algo hasta entonces?" },
        { "A sincronização do calendário de vocês com o Outlook duplica "
          "todas as reuniões. Não é urgente, mas é uma bagunça.",
          "Obrigado pelo aviso. Vou passar para os engenheiros e "
          "retornamos em 48 horas.",
          "tá, mas enquanto isso continua duplicando, né? tem algo que eu "
          "possa fazer até lá?" },
        { "La synchronisation de votre agenda avec Outlook duplique "
          "toutes les réunions. Pas urgent, mais c'est le bazar.",
          "Merci du signalement. Je transmets aux ingénieurs et nous "
          "revenons vers vous sous 48 heures.",
          "d'accord, mais en attendant ça continue de dupliquer, non ? je "
          "peux faire quelque chose d'ici là ?" },
        { "Die Synchronisierung Ihres Kalenders mit Outlook verdoppelt "
          "jeden Termin. Nicht dringend, aber unübersichtlich.",
          "Danke für den Hinweis. Ich gebe das an die Technik weiter, wir "
          "melden uns innerhalb von 48 Stunden.",
          "ok, aber in der Zwischenzeit wird weiter verdoppelt, oder? "
          "kann ich bis dahin etwas tun?" },
    };

    conv_each(convs, 3, repetition, 0,
              "a question about the wait: no repetition");
    conv_each(convs, 3, action, BEHAVE_ACTION_RESOLVE,
              "a question about the wait: resolve");
}


int
main(void)
{
    test_told_after_unclear();
    test_disrespect_and_someone();
    test_team_taken();
    test_so_asks_again();
    test_announced();
    test_formal_thanks();
    test_confusion_first();
    test_interim();

    return tap_done();
}
