/*
 * The conversation findings on the kinds of turn that real support
 * threads hold and written conversations seldom do, in the five
 * languages (en, es, pt, fr, de), written from labels.md and the kinds
 * the development threads showed (data/turn-labels), not copied from
 * them:
 *
 * - escalating: a first message that vents is the angriest; a later turn
 *   no worse than it is no rise, however calm the turns between; a slide
 *   of valence that ends at a neutral turn (thanks, then a time to call
 *   back read as high urgency) is no rise either;
 *   A second turn that asks how to follow the answer, read as high
 *   urgency and unhappy ("I'm struggling"), is a new ask, not a rise.
 *   Refusing the usual channel and demanding someone with authority, or
 *   taking the complaint public, after an unhappy turn, is a rise;
 * - action: a turn marked critical hands off every later turn, however
 *   calm it read and however calm the turns after it;
 * - repetition: the point made before said again ("that's why I said")
 *   and an answer chased ("any response to this", "still no answer"),
 *   without a question mark, ask the earlier question again; so does the
 *   demand made again, impatiently ("Just fix it"); an ask answered and
 *   taken gladly or with thanks is not asked again by a later check on
 *   the same topic.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "convtest.h"
#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"


/*
 * A conversation of texts (customer, agent, customer...), annotated, with
 * the customer turns' severity and valence set by hand where sev[i] >= 0,
 * so that a rule over the numbers is checked whatever the annotator
 * reads; assessed at its last turn
 */
static void
numbered(const char *const *texts, size_t n, const int *sev,
    const double *val, behave_conv_result_t *r)
{
    size_t          i;
    behave_turn_t   tv[8];

    for (i = 0; i < n && i < 8; i++) {
        turn(&tv[i], i % 2 ? BEHAVE_SPEAKER_AGENT : BEHAVE_SPEAKER_CUSTOMER,
             texts[i], (int) i);

        if (sev[i] >= 0) {
            tv[i].severity = sev[i];
            tv[i].valence_score = val[i];
            tv[i].urgency = sev[i] >= 4 ? BEHAVE_URGENCY_CRITICAL
                                        : BEHAVE_URGENCY_LOW;
        }
    }

    behave_conversation_assess(tv, i - 1, &tv[i - 1], r);
}


/*
 * A first message that vents (severity 3, clearly negative), two calm
 * answers to the agent's questions, then the fix suggested fails, as
 * severe and less negative: not escalating.  The same numbers after a
 * first message that was calm but read as high: escalating.
 */
static void
test_vent_first(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const int       sev[] = { 3, -1, 0, -1, 0, -1, 3 };
    static const double    vent[] = { -0.8, 0, 0, 0, 0.1, 0, -0.5 };
    static const double    calm[] = { -0.1, 0, 0, 0, 0.1, 0, -0.5 };
    static const char     *const convs[][7] = {
        { "I'm so pissed off, my music app is useless and keeps crashing!!",
          "Sorry to hear that! Which phone are you on?",
          "an iphone 8",
          "Thanks. And which version of the app?",
          "the latest one",
          "Could you try reinstalling the app?",
          "doesn't work, still crashing" },
        { "Estoy harto, la app de música no sirve y se cierra todo el rato!!",
          "¡Lo sentimos! ¿Qué teléfono usas?",
          "un iphone 8",
          "Gracias. ¿Y qué versión de la app?",
          "la última",
          "¿Puedes reinstalar la app?",
          "no funciona, se sigue cerrando" },
        { "Estou farto, o app de música não presta e fecha o tempo todo!!",
          "Sentimos muito! Qual é o seu celular?",
          "um iphone 8",
          "Obrigado. E qual versão do app?",
          "a mais recente",
          "Pode reinstalar o app?",
          "não funciona, continua fechando" },
        { "J'en ai marre, l'appli de musique est nulle et plante sans "
          "arrêt !!",
          "Désolés ! Quel téléphone utilisez-vous ?",
          "un iphone 8",
          "Merci. Et quelle version de l'appli ?",
          "la dernière",
          "Pouvez-vous réinstaller l'appli ?",
          "ça ne marche pas, ça plante toujours" },
        { "Ich bin sauer, die Musik-App taugt nichts und stürzt ständig ab!!",
          "Das tut uns leid! Welches Handy nutzen Sie?",
          "ein iPhone 8",
          "Danke. Und welche Version der App?",
          "die neueste",
          "Können Sie die App neu installieren?",
          "geht nicht, stürzt immer noch ab" },
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        numbered(convs[i], 7, sev, vent, &r);
        is_int(r.escalating, 0, "no worse than the first message that "
               "vented: %s", convs[i][6]);

        numbered(convs[i], 7, sev, calm, &r);
        is_int(r.escalating, 1, "worse than a calm first message read as "
               "high: %s", convs[i][6]);
    }
}


/*
 * Valence sliding turn by turn, from thanks to a neutral reply that the
 * annotator reads as high urgency ("anytime after noon today"): no
 * complaint, not escalating; the same slide ending below zero is
 */
static void
test_slide_to_neutral(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const int       sev[] = { 0, -1, 0, -1, 0, -1, 3 };
    static const double    neutral[] = { 0.8, 0, 0.6, 0, 0.3, 0, 0.0 };
    static const double    unhappy[] = { 0.8, 0, 0.6, 0, 0.3, 0, -0.2 };
    static const char     *const convs[][7] = {
        { "Thank you, everything was going great with you so far",
          "I called and left a message, please call me back.",
          "Okay, I will return your call shortly",
          "Sorry I missed your call.",
          "Whenever you're ready",
          "When is the best time to reach you?",
          "Anytime after 12 noon today or tomorrow" },
        { "Gracias, hasta ahora todo iba muy bien con ustedes",
          "Le llamé y le dejé un mensaje, llámenos por favor.",
          "Vale, le devuelvo la llamada enseguida",
          "Siento no haber podido atenderle.",
          "Cuando usted pueda",
          "¿Cuál es la mejor hora para llamarle?",
          "Cualquier hora después de las 12 hoy o mañana" },
        { "Obrigada, até agora estava tudo indo muito bem com vocês",
          "Liguei e deixei uma mensagem, por favor retorne.",
          "Certo, retorno a ligação já já",
          "Desculpe, perdi a sua ligação.",
          "Quando puderem",
          "Qual o melhor horário para ligar?",
          "Qualquer hora depois do meio-dia hoje ou amanhã" },
        { "Merci, jusqu'ici tout se passait très bien avec vous",
          "Je vous ai appelé et laissé un message, rappelez-nous svp.",
          "D'accord, je vous rappelle tout de suite",
          "Désolé d'avoir manqué votre appel.",
          "Quand vous voulez",
          "Quel est le meilleur moment pour vous joindre ?",
          "N'importe quand après midi aujourd'hui ou demain" },
        { "Danke, bisher lief alles sehr gut mit Ihnen",
          "Ich habe angerufen und eine Nachricht hinterlassen.",
          "Okay, ich rufe gleich zurück",
          "Entschuldigung, ich habe Ihren Anruf verpasst.",
          "Wann immer Sie können",
          "Wann erreichen wir Sie am besten?",
          "Jederzeit nach 12 Uhr heute oder morgen" },
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        numbered(convs[i], 7, sev, neutral, &r);
        is_int(r.escalating, 0, "a slide that ends neutral: %s",
               convs[i][6]);

        numbered(convs[i], 7, sev, unhappy, &r);
        is_int(r.escalating, 1, "a slide that ends below zero: %s",
               convs[i][6]);
    }
}


/*
 * A question, an answer beside the point, then the customer says the
 * point was made before, or chases the answer, with no question mark:
 * a repetition, clarify
 */
static void
test_said_and_chased(void)
{
    static const char     *const convs[][3] = {
        { "Why does my recorder record channels I don't subscribe to?",
          "Hello, have you checked your scheduled recordings?",
          "Thanks for your reply but that's why I said update your "
          "software." },
        { "I was charged for a ride that was cancelled, why?",
          "Sorry about that! Please contact us through the help page.",
          "The help page gives me an error. Any response to this." },
        { "¿Por qué el grabador graba canales que no tengo contratados?",
          "Hola, ¿ha revisado sus grabaciones programadas?",
          "Gracias, pero por eso dije que actualicen el software." },
        { "Me cobraron un viaje que fue cancelado, ¿por qué?",
          "Lo sentimos, escríbanos desde la página de ayuda.",
          "La página de ayuda da error. Sigo sin respuesta." },
        { "Por que o gravador grava canais que eu não assino?",
          "Olá, já verificou as gravações agendadas?",
          "Obrigado, mas foi o que eu disse, atualizem o software." },
        { "Fui cobrado por uma corrida cancelada, por quê?",
          "Sentimos muito, fale conosco pela página de ajuda.",
          "A página de ajuda dá erro. Ainda sem resposta." },
        { "Pourquoi le décodeur enregistre des chaînes auxquelles je ne "
          "suis pas abonné ?",
          "Bonjour, avez-vous vérifié vos enregistrements programmés ?",
          "Merci, mais c'est ce que j'ai dit, mettez à jour le logiciel." },
        { "On m'a facturé une course annulée, pourquoi ?",
          "Désolés, contactez-nous via la page d'aide.",
          "La page d'aide affiche une erreur. Toujours pas de réponse." },
        { "Warum nimmt der Rekorder Sender auf, die ich nicht abonniert "
          "habe?",
          "Hallo, haben Sie Ihre geplanten Aufnahmen geprüft?",
          "Danke, aber das habe ich doch gesagt, aktualisieren Sie die "
          "Software." },
        { "Mir wurde eine stornierte Fahrt berechnet, warum?",
          "Das tut uns leid, schreiben Sie uns über die Hilfeseite.",
          "Die Hilfeseite zeigt einen Fehler. Immer noch keine Antwort." },
    };

    conv_each(convs, 3, repetition, 1, "said before or chased");
    conv_each(convs, 3, action, BEHAVE_ACTION_CLARIFY,
              "said before or chased: clarify");
}


/*
 * An unhappy first message, an answer that sends the customer back to
 * the usual channel, then the customer refuses it and wants someone who
 * can decide, or takes it public: escalating, handoff
 */
static void
test_authority_and_public(void)
{
    static const char     *const convs[][3] = {
        { "Several calls to your call centre and still no resolution.",
          "Please reach out by phone or chat so we can look into it.",
          "I'm not talking to customer service again. I want someone who "
          "can make decisions." },
        { "My account is still on hold after five days, this is wrong.",
          "A member of our team will follow up through the app.",
          "Get my account running or next is Facebook." },
        { "Varias llamadas a su centro y todavía sin solución.",
          "Por favor contáctenos por teléfono o chat.",
          "No pienso hablar con atención al cliente otra vez. Quiero a "
          "alguien que pueda tomar decisiones." },
        { "Mi cuenta sigue bloqueada después de cinco días, esto está mal.",
          "Un compañero le contactará desde la app.",
          "Voy a contarlo todo en redes sociales." },
        { "Várias ligações para a central e ainda sem solução.",
          "Por favor entre em contato por telefone ou chat.",
          "Não vou falar com o atendimento de novo. Quero alguém que possa "
          "tomar decisões." },
        { "Minha conta continua bloqueada depois de cinco dias, isso está "
          "errado.",
          "Um colega vai entrar em contato pelo app.",
          "Vou expor tudo nas redes sociais." },
        { "Plusieurs appels à votre service et toujours aucune solution.",
          "Merci de nous contacter par téléphone ou par chat.",
          "Je ne parlerai plus au service client. Je veux quelqu'un qui "
          "peut prendre des décisions." },
        { "Mon compte est toujours bloqué après cinq jours, c'est anormal.",
          "Un conseiller vous contactera via l'application.",
          "Je vais tout raconter sur les réseaux sociaux." },
        { "Mehrere Anrufe bei Ihrer Hotline und immer noch keine Lösung.",
          "Bitte melden Sie sich telefonisch oder per Chat.",
          "Ich rede nicht mehr mit dem Kundenservice. Ich will jemanden, "
          "der entscheiden kann." },
        { "Mein Konto ist nach fünf Tagen immer noch gesperrt, das ist "
          "falsch.",
          "Ein Kollege meldet sich über die App.",
          "Ich schreibe das alles in den sozialen Medien." },
    };

    conv_each(convs, 3, escalating, 1, "authority demanded or gone public");
    conv_each(convs, 3, action, BEHAVE_ACTION_HANDOFF,
              "authority demanded or gone public: handoff");
}


/*
 * A first message marked critical: every later turn is a human's, however
 * calm the first read (a fraud in progress reads neutral: "someone is in
 * my bank account right now") and however calm the turns after it
 * (labels.md: handoff for a critical turn, whatever came after)
 */
static void
test_calm_crisis(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const int       sev[] = { 4, -1, 0, -1, 0 };
    static const double    calm[] = { 0.0, 0, 0.2, 0, 0.6 };
    static const double    distress[] = { -0.8, 0, 0.2, 0, 0.6 };
    static const char     *const convs[][5] = {
        { "Hi, which days do you deliver to Holloway? My mum can't get out "
          "to collect her prescriptions any more.",
          "We deliver free to patients who are housebound or over 70.",
          "She's 82, so she'd qualify.",
          "Holloway is Tuesdays and Fridays, I've set up Tuesday.",
          "Perfect, thank you so much." },
        { "Hola, ¿qué días reparten en mi barrio? Mi madre ya no puede ir a "
          "recoger sus recetas.",
          "Repartimos gratis a mayores de 70 años.",
          "Tiene 82, así que puede.",
          "Su zona es martes y viernes, lo dejo para el martes.",
          "Perfecto, muchas gracias." },
        { "Oi, quais dias vocês entregam no meu bairro? Minha mãe não "
          "consegue mais buscar os remédios.",
          "Entregamos grátis para maiores de 70 anos.",
          "Ela tem 82, então pode.",
          "O bairro dela é terça e sexta, marquei para terça.",
          "Perfeito, muito obrigada." },
        { "Je voudrais savoir si je peux résilier mon abonnement à la salle "
          "avant la fin de l'engagement.",
          "Bien sûr. Vous êtes dans quel club ?",
          "Celui de Lyon Part-Dieu.",
          "Votre abonnement court jusqu'en septembre.",
          "D'accord, merci beaucoup." },
        { "Hallo, kann ich meinen Fitnessvertrag vor Ende der Laufzeit "
          "kündigen?",
          "Natürlich. In welchem Studio sind Sie?",
          "Im Studio am Hauptbahnhof.",
          "Ihr Vertrag läuft bis September.",
          "Alles klar, vielen Dank." },
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        numbered(convs[i], 5, sev, calm, &r);
        is_int(r.action, BEHAVE_ACTION_HANDOFF, "a critical turn read "
               "calm, calm turns after it: %s", convs[i][4]);

        numbered(convs[i], 5, sev, distress, &r);
        is_int(r.action, BEHAVE_ACTION_HANDOFF, "a crisis said in "
               "distress, calm turns after it: %s", convs[i][4]);
    }
}


/*
 * A demand, an answer that asks for details, a reply, another answer,
 * then the demand made again, impatiently: a repetition
 */
static void
test_demand_again(void)
{
    static const char     *const convs[][5] = {
        { "fix my connection, it keeps dropping",
          "Can you tell us what issues you are having?",
          "it drops every evening out here",
          "Please send us a DM so we can look into it.",
          "Just fix it" },
        { "arreglen mi conexión, se corta todo el rato",
          "¿Nos cuenta qué problema tiene?",
          "se corta todas las tardes aquí",
          "Escríbanos por mensaje privado para revisarlo.",
          "Arréglenlo ya" },
        { "resolvam minha conexão, ela cai toda hora",
          "Pode nos contar qual é o problema?",
          "cai todas as noites aqui",
          "Mande uma mensagem privada para verificarmos.",
          "Resolvam logo" },
        { "réglez ma connexion, elle coupe sans arrêt",
          "Pouvez-vous nous décrire le problème ?",
          "ça coupe tous les soirs ici",
          "Envoyez-nous un message privé pour qu'on regarde.",
          "Réglez ça enfin" },
        { "reparieren Sie meine Verbindung, sie bricht ständig ab",
          "Können Sie uns das Problem beschreiben?",
          "sie bricht jeden Abend ab",
          "Schreiben Sie uns bitte eine Direktnachricht.",
          "Machen Sie es einfach" },
    };

    conv_each(convs, 5, repetition, 1, "the demand made again");
}


/*
 * An ask, the answer, the customer glad or thankful, then a later check
 * on the same topic: a new ask, no repetition; the same check right
 * after the answer is one
 */
static void
test_answered_and_welcomed(void)
{
    size_t                 i;
    const char            *texts[3];
    behave_conv_result_t   r;
    static const char     *const convs[][5] = {
        { "Any word on when your Broadway shop will open?",
          "If all goes to plan, we should be open on Friday!",
          "Great, thank you so much! I'll be first in line.",
          "Send us a picture!",
          "Did things go to plan? Is your Broadway shop open today?" },
        { "¿Se sabe cuándo abre la tienda de la calle Mayor?",
          "Si todo va bien, abrimos el viernes.",
          "¡Genial, muchas gracias! Seré la primera en la cola.",
          "¡Mándanos una foto!",
          "¿Salió todo bien? ¿Abre hoy la tienda de la calle Mayor?" },
        { "Alguma novidade sobre quando abre a loja da Avenida Paulista?",
          "Se tudo correr bem, abrimos na sexta!",
          "Que ótimo, muito obrigada! Vou ser a primeira da fila.",
          "Mande uma foto pra gente!",
          "Deu tudo certo? A loja da Avenida Paulista abre hoje?" },
        { "Savez-vous quand ouvre votre boutique de la rue de Rivoli ?",
          "Si tout va bien, nous ouvrons vendredi !",
          "Génial, merci beaucoup ! Je serai la première.",
          "Envoyez-nous une photo !",
          "Tout s'est bien passé ? La boutique de la rue de Rivoli ouvre "
          "aujourd'hui ?" },
        { "Wissen Sie schon, wann Ihr Laden in der Hauptstraße öffnet?",
          "Wenn alles klappt, öffnen wir am Freitag!",
          "Super, vielen Dank! Ich bin die Erste in der Schlange.",
          "Schicken Sie uns ein Foto!",
          "Hat alles geklappt? Hat der Laden in der Hauptstraße heute "
          "offen?" },
    };

    conv_each(convs, 5, repetition, 0, "asked again after the answer was "
              "welcomed");

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        texts[0] = convs[i][0];
        texts[1] = convs[i][1];
        texts[2] = convs[i][4];
        conversation(texts, 3, &r);
        is_int(r.repetition, 1, "asked again right after the answer: %s",
               texts[2]);
    }
}


/*
 * The second customer turn read as high urgency and clearly unhappy
 * (set by hand): asking how to follow the answer, not escalating; the
 * same trouble told without a question, escalating
 */
static void
test_second_turn_asks(void)
{
    size_t                 i, k;
    behave_conv_result_t   r;
    static const char     *const convs[][4] = {
        { "Can you remove the best offer option from my listings?",
          "Set up automatic declines in your settings.",
          "How do I set up automatic declines? It's not in your help "
          "centre and I'm struggling to find it.",
          "It's not in your help centre and I'm struggling to find it, "
          "this is useless." },
        { "¿Pueden quitar la opción de mejor oferta de mis anuncios?",
          "Active el rechazo automático en su configuración.",
          "¿Cómo activo el rechazo automático? No está en la ayuda y no "
          "lo encuentro.",
          "No está en la ayuda y no lo encuentro, esto no sirve." },
        { "Podem tirar a opção de melhor oferta dos meus anúncios?",
          "Ative a recusa automática nas configurações.",
          "Como ativo a recusa automática? Não está na ajuda e não "
          "encontro.",
          "Não está na ajuda e não encontro, isso não serve pra nada." },
        { "Pouvez-vous retirer l'option meilleure offre de mes annonces ?",
          "Activez le refus automatique dans vos paramètres.",
          "Comment j'active le refus automatique ? Ce n'est pas dans "
          "l'aide et je ne trouve pas.",
          "Ce n'est pas dans l'aide et je ne trouve pas, c'est nul." },
        { "Können Sie die Preisvorschlag-Option aus meinen Angeboten "
          "entfernen?",
          "Richten Sie die automatische Ablehnung in den Einstellungen "
          "ein.",
          "Wie richte ich die automatische Ablehnung ein? Das steht nicht "
          "in der Hilfe und ich finde es nicht.",
          "Das steht nicht in der Hilfe und ich finde es nicht, das ist "
          "nutzlos." },
    };

    for (i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
        for (k = 2; k < 4; k++) {
            second_rise(convs[i][0], convs[i][1], convs[i][k], &r);
            is_int(r.escalating, k == 3, "%s: %s", k == 2
                   ? "asks how to follow the answer: not escalating"
                   : "the same told without a question: escalating",
                   convs[i][k]);
        }
    }
}


int
main(void)
{
    test_vent_first();
    test_second_turn_asks();
    test_slide_to_neutral();
    test_said_and_chased();
    test_authority_and_public();
    test_calm_crisis();
    test_demand_again();
    test_answered_and_welcomed();

    return tap_done();
}
