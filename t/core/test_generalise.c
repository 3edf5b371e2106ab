/*
 * Cases written from labels.md for what the corpus did not show: words
 * that mean another thing in another language ("die", "até", "sim"), an
 * errand that names pills, a hyperbole word beside a real emergency, a
 * person who does not wake, subjects that Spanish and Portuguese drop,
 * ending a life in five languages, a short message in fragments, the
 * writer killing themself, signs that are an emergency whoever has them,
 * an overdose told in the past, a card used now, idioms and dark humour
 * (a thing, a cause, laughter, "almost", a toy) beside look-alikes; an
 * all-clear ("nobody was hurt", "já está recuperado", "card already
 * blocked") and "my boss will kill me if" beside crises; false
 * resolutions claimed and denied in other words, rules and plans that
 * claim nothing; and a first message too vague to act on.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "convtest.h"
#include "text/behave_annotate.h"
#include "conversation/behave_conversation.h"
#include "text/behave_model.h"


typedef struct {
    const char  *text;
    int          critical;
} crisis_case_t;


static const crisis_case_t  crisis_cases[] = {
    /* false friends */
    { "Ich möchte die Rechnung bitte per E-Mail.", 0 },
    { "Ich möchte die Lieferadresse für Bestellung 4411 ändern.", 0 },
    { "Ich habe die Zahlung heute überwiesen, bitte bestätigen.", 0 },
    { "I want to order the canvas tote bag in blue.", 0 },
    { "Meu filho está esperando o pedido até hoje, quando chega?", 0 },
    { "Sim, quero cancelar a assinatura até sexta.", 0 },
    { "My Visa was charged twice today for the same order.", 0 },
    { "My subscription expires tonight, can I renew it with PayPal?", 0 },
    { "My hearing aid batteries are dead, can you send new ones today?",
      0 },
    { "Can I get my sleeping tablets delivered today?", 0 },
    { "I could murder a pizza right now, is the shop open?", 0 },
    { "I'm dying to know when the new phone comes out!", 0 },
    /* the same words in their crisis sense */
    { "I just want to die", 1 },
    { "Ich will nur noch sterben.", 1 },
    { "Quiero morirme, ya tengo las pastillas preparadas", 1 },
    { "my son won't wake up and his lips are blue", 1 },
    { "Meu marido caiu e não acorda", 1 },
    { "the battery you sold me is on fire in my flat and the kids are "
      "inside", 1 },
    { "Mein Sohn hat eine Batterie verschluckt und atmet komisch", 1 },
    { "my ex is outside my door and says he'll kill me", 1 },
    { "Mein Ex steht vor meiner Tür und droht mich umzubringen", 1 },
    /* ending a life, in words three apart at most */
    { "I'm going to end my life tonight", 1 },
    { "Quiero acabar con mi vida, ya no puedo más", 1 },
    { "Ich will meinem Leben ein Ende setzen", 1 },
    { "Je veux mettre fin à ma vie ce soir", 1 },
    { "My phone's battery life is ending so fast", 0 },
    { "The end of my subscription is near, my life is easier without it",
      0 },
    /* a short message in fragments */
    { "Help. Can't breathe.", 1 },
    { "Ex outside. Knife. Please.", 1 },
    { "Help! Can't log in.", 0 },
    { "Wifi down. Help. Now.", 0 },
    { "Knife set arrived. Outside box damaged. Please replace.", 0 },
    { "Someone's using my card right now in another country", 1 },
    { "Someone's package was left at my door", 0 },
    /* the writer kills themself: "me" before the verb, "myself" after */
    { "Borren mi cuenta. Hoy me mato.", 1 },
    { "Hoje à noite eu vou me matar.", 1 },
    { "Je compte me tuer ce soir, inutile de rappeler.", 1 },
    { "Ich werde mich heute Nacht umbringen.", 1 },
    { "cancel my plan, gonna kill myself tonight", 1 },
    /* wishing not to wake, not waking someone else */
    { "Sinceramente, ojalá no despertarme mañana.", 1 },
    { "I just wish I wouldn't wake up tomorrow.", 1 },
    /* signs that are an emergency whoever has them */
    { "my father is slurring his words and his face is drooping", 1 },
    { "Mi madre está inconsciente en el suelo", 1 },
    { "Mein Vater ist gerade zusammengebrochen", 1 },
    /* an overdose told in the past is happening now */
    { "took the whole bottle of tablets an hour ago", 1 },
    { "Já tomei os comprimidos todos.", 1 },
    /* a card used now while the writer holds it */
    { "Charges on my card right now in Dubai. The card is in my hand.",
      1 },
    { "Mi tarjeta está siendo usada ahora mismo y la tengo en la mano", 1 },
    { "My card was charged twice today, please refund one.", 0 },
    /* burning a place down, in French with its elisions */
    { "Il menace de brûler l'agence demain matin.", 1 },
    { "Better for my family if I were gone, they'd get the insurance.", 1 },
    /* someone else acts, or a story does */
    { "Le GPS a essayé de me tuer trois fois 😂", 0 },
    { "Ebook 'The Overdose Diaries' won't download.", 0 },
    /*
     * A death word about a thing, a cause after "dying of", laughter, a
     * joke owned up to, "almost", a toy weapon, a game (issue 14): not
     * critical in any of the five languages
     */
    { "this router is killing me, third drop today", 0 },
    { "I'm going to kill myself with this printer \xf0\x9f\x98\x82", 0 },
    { "this app is driving me crazy, it keeps failing to load", 0 },
    { "the app is not responding and keeps crashing", 0 },
    { "I almost had a heart attack when I saw the bill", 0 },
    { "je vais le tuer ce wifi, encore une coupure", 0 },
    { "ce formulaire va me tuer mdr", 0 },
    { "je vais finir par tuer mon fils, non je rigole, il a encore "
      "acheté des jeux", 0 },
    { "me muero de ganas de estrenar el sofá", 0 },
    { "este router me va a matar jajaja", 0 },
    { "casi me da un infarto al ver la factura", 0 },
    { "En el videojuego me mataron 30 veces y ahora el mando no "
      "responde.", 0 },
    { "mano vou me matar com esse roteador kkk", 0 },
    { "esse formulário vai me matar kkkk", 0 },
    { "quase tive um infarto com a conta de luz", 0 },
    { "ich sterbe vor Langeweile in der Warteschleife", 0 },
    { "this hold music is killing me haha, is anyone there?", 0 },
    { "cette musique d'attente me tue mdr", 0 },
    { "ce formulaire me donne envie de me jeter par la fenêtre mdr", 0 },
    { "jetzt reagiert der Controller nicht mehr richtig", 0 },
    { "beinahe hätte ich einen Herzinfarkt bekommen, die Rechnung ist "
      "dreimal so hoch", 0 },
    { "Ma fille joue une meurtrière à l'école, il nous faut un faux "
      "couteau en plastique.", 0 },
    /* the look-alikes: a method, a time, a weapon, a child, "not
     * kidding" keep the crisis whatever laughs or things are near */
    { "I'm going to kill myself tonight lol", 1 },
    { "lol I'll kill myself, I have the pills", 1 },
    { "I can't pay this bill, I'm going to kill myself", 1 },
    { "the car's brakes failed and my kids are inside", 1 },
    { "haha my husband collapsed and he's not breathing", 1 },
    { "I'm not kidding, he says he'll kill me, he's outside with a knife",
      1 },
    { "a man with a toy gun is threatening staff at your branch right now",
      1 },
    { "my son swallowed a toy magnet and is not responding", 1 },
    { "my dad almost fainted and now he can't breathe", 1 },
    { "je vais le tuer, il a frappé ma fille", 1 },
    { "je vais me tuer ce soir avec ce routeur mdr", 1 },
    { "je ne rigole pas, je vais le tuer, il est devant l'école avec un "
      "couteau", 1 },
    { "tengo ganas de morirme", 1 },
    { "me quiero morir jaja, ya tengo las pastillas", 1 },
    { "no es broma, lo voy a matar, está en la tienda con una pistola", 1 },
    { "vou me matar hoje, já escrevi a carta", 1 },
    { "vou me matar hoje kkk já separei os remédios", 1 },
    { "Mein Sohn hat eine Batterie verschluckt und reagiert nicht mehr",
      1 },
    { "Ich werde mich heute Nacht umbringen, haha", 1 },
    { "je vais me jeter sous un train ce soir mdr", 1 },
    { "I'm going to throw myself off the bridge tonight lol", 1 },
    /*
     * An all-clear: it happened and is over, or nobody is hurt (labels.md's
     * past events and negations), in five languages; the same words
     * beside a weapon, a method or someone coming back stay a crisis
     */
    { "Our van skidded on ice back in January; the driver was unhurt. "
      "Can you send the repair invoice again?", 0 },
    { "El mes pasado hubo un pequeño incendio en la cocina del local, no "
      "hubo heridos. ¿Cubre la póliza la campana extractora?", 0 },
    { "Em maio o meu avô caiu na escada do prédio mas já está "
      "recuperado. Queria só mudar o contacto da fatura.", 0 },
    { "En mars, un chauffe-eau a pris feu dans notre cave, personne n'a "
      "été blessé. Pouvez-vous m'envoyer l'attestation pour l'assurance ?",
      0 },
    { "Letzten Herbst hatte mein Mann einen Autounfall, er blieb "
      "unverletzt. Wie melde ich den Schaden am Leihwagen?", 0 },
    { "He hit me last night, I'm unhurt but he says he is coming back "
      "with a knife.", 1 },
    { "Nadie está herido todavía pero mi ex está fuera con una pistola.",
      1 },
    { "Eu me recuperei da última vez, mas hoje vou tomar todos os "
      "comprimidos.", 1 },
    { "Personne n'a été blessé mais mon ex est devant la porte avec un "
      "couteau.", 1 },
    { "Er wird das nicht unverletzt überstehen, ich warte heute vor der "
      "Filiale auf ihn mit einem Messer.", 1 },
    { "Nobody's hurt but the car is on fire and my kids are still inside",
      1 },
    /* "I'm not in danger, just annoyed" (labels.md), beside a danger
     * that is coming */
    { "I'm not in any danger, just fed up that the door sensor keeps "
      "beeping.", 0 },
    { "No estoy en peligro, solo harta: el cerrajero no vino y sigo sin "
      "poder cerrar la puerta.", 0 },
    { "Não estou em perigo, só cansada de esperar pelo técnico do "
      "alarme.", 0 },
    { "Ich bin nicht in Gefahr, nur genervt: der Rauchmelder piept seit "
      "gestern ohne Grund.", 0 },
    { "Nobody is in danger yet but he says he's coming back tonight with "
      "a gun.", 1 },
    { "No estoy en peligro ahora, pero mi ex dice que viene esta noche con "
      "un cuchillo.", 1 },
    { "I'm in danger, he's outside my door right now.", 1 },
    /* someone the writer answers to "will kill me if" an errand is not
     * done: blame, not a threat; with a weapon, blows or a place to
     * come back to, a threat */
    { "my manager will kill me if this invoice isn't sent today, can you "
      "resend it?", 0 },
    { "la jefa me va a matar si no llega el pedido antes del viernes", 0 },
    { "o meu patrão vai me matar se a encomenda não chegar amanhã", 0 },
    { "ma prof va me tuer si le colis n'arrive pas demain", 0 },
    { "my boss said he will kill me if I come back, he has a gun", 1 },
    { "mi jefe me va a matar si vuelvo a la oficina, ayer me pegó", 1 },
    { "Mein Vermieter hat gesagt, er bringt mich um, wenn ich nicht "
      "ausziehe, er steht mit einem Messer vor der Tür.", 1 },
    /* a loss already stopped, beside money still going, a caller on the
     * line or a password changed */
    { "Left my wallet in a taxi, I've already cancelled both cards in the "
      "app and nothing has been taken. How do I order new ones?", 0 },
    { "Perdí el móvil en el tren, ya lo bloqueé con la operadora. ¿Cómo "
      "pido un duplicado de la SIM?", 0 },
    { "Roubaram minha bolsa no metrô, já cancelei o cartão pelo app. Como "
      "peço a segunda via?", 0 },
    { "J'ai oublié mon portefeuille au café, la carte est déjà bloquée "
      "dans l'appli. Comment en commander une autre ?", 0 },
    { "Handy im Zug liegen gelassen, SIM schon gesperrt. Wie bekomme ich "
      "eine Ersatzkarte?", 0 },
    { "I already blocked my card but money is still leaving my account "
      "right now", 1 },
    { "Ya bloqueé la tarjeta pero el que llama dice que necesita el código "
      "ahora mismo", 1 },
    { "Já bloqueei o cartão mas alguém mudou a senha do meu banco e está "
      "transferindo agora", 1 },
    /* the one who calls is the caller (behave_who_calls), a name is not */
    { "Já cancelei o cartão, mas quem liga insiste que precisa do código "
      "agora", 1 },
    { "J'ai déjà fait opposition mais celui qui appelle exige le code tout "
      "de suite", 1 },
    { "Mi sobrina se llama Lucía y necesita el código del wifi de casa, "
      "¿me lo recuerdas?", 0 },
};



static const fr_case_t  fr_cases[] = {
    { "the heating is off in flat 3",
      "An engineer has sorted the boiler, it's all working.",
      "it's freezing in here, the radiators are stone cold", 1 },
    { "my parcel never came",
      "I've arranged a redelivery, it was delivered this morning.",
      "there's nothing at my door and nobody knocked", 1 },
    { "my subscription renewed after I cancelled",
      "I've cancelled it and refunded the renewal.",
      "I just got charged another $12.99 this morning", 1 },
    { "my card got declined at the shop",
      "I removed the block, your card is active again.",
      "just tried again at the till and it got declined", 1 },
    { "internet down",
      "I've refreshed the line from our end, it should be back up.",
      "ok thanks, it's back now!", 0 },
    { "refund for the jacket?",
      "Your refund has been issued, it takes 3-5 days.",
      "great, thank you", 0 },
    { "mein Konto ist gesperrt",
      "Erledigt, Ihr Konto ist wieder freigeschaltet.",
      "geht immer noch nicht, wieder gesperrt", 1 },
    { "fui cobrado em dobro", "O estorno já foi feito.",
      "ok, obrigado, já apareceu aqui", 0 },
    /* rules and plans are not claims */
    { "charged twice",
      "Refunds are usually processed within 5 to 7 working days.",
      "No, it's still charged twice.", 0 },
    { "charged twice",
      "To reset it, press and hold the button for ten seconds.",
      "No, it's still charged twice.", 0 },
    { "charged twice",
      "Sobald die Zahlung bearbeitet ist, erhalten Sie eine Bestätigung.",
      "No, it's still charged twice.", 0 },
    { "charged twice", "Para solicitar el reembolso, rellene el formulario.",
      "No, it's still charged twice.", 0 },
    { "charged twice", "Ya está, el cargo ha sido anulado.",
      "No, it's still charged twice.", 1 },
    { "charged twice", "That should be working for you now.",
      "No, it's still charged twice.", 1 },
};


/*
 * The crisis probes through the risk head.  Each critical probe is still
 * the trained layer's own call (its frames and stack, an input of the
 * risk head); the risk head must rank the probes (AUC), and mark most
 * critical ones at the default threshold: the misses are reported one by
 * one, since the default operating point trades them for false alarms at
 * production rates (README, the curve).
 */
static void
test_crisis(void)
{
    char                 name[256];
    size_t               i, j, n, over, crit, hit, pairs;
    double               risk[sizeof(crisis_cases) / sizeof(crisis_cases[0])];
    double               won;
    behave_annotation_t  a;

    n = 0;
    over = 0;
    crit = 0;
    hit = 0;

    for (i = 0; i < sizeof(crisis_cases) / sizeof(crisis_cases[0]); i++) {
        behave_annotate(crisis_cases[i].text, strlen(crisis_cases[i].text),
                        &a);
        risk[i] = a.scores.risk;

        if (crisis_cases[i].critical) {
            crit++;
            hit += a.urgency == BEHAVE_URGENCY_CRITICAL;
            is_int(a.risk_inputs[0] == 1.0f, 1, "the layer's call: %s",
                   crisis_cases[i].text);
            snprintf(name, sizeof(name), "critical: %s",
                     crisis_cases[i].text);
            todo_ok(a.urgency == BEHAVE_URGENCY_CRITICAL,
                    "risk below the default threshold", name);
            continue;
        }

        n++;
        over += a.urgency == BEHAVE_URGENCY_CRITICAL;
        snprintf(name, sizeof(name), "not critical: %s",
                 crisis_cases[i].text);
        todo_ok(a.urgency != BEHAVE_URGENCY_CRITICAL,
                "marked critical (over-escalation)", name);
    }

    /* the share of (critical, not critical) pairs in the right order */
    won = 0;
    pairs = 0;
    for (i = 0; i < sizeof(crisis_cases) / sizeof(crisis_cases[0]); i++) {
        for (j = 0; j < sizeof(crisis_cases) / sizeof(crisis_cases[0]);
             j++)
        {
            if (crisis_cases[i].critical && !crisis_cases[j].critical) {
                won += risk[i] > risk[j] ? 1 : risk[i] == risk[j] ? 0.5 : 0;
                pairs++;
            }
        }
    }

    ok(pairs > 0 && won / pairs >= 0.93, "the risk ranks the probes: AUC "
       "%.3f", pairs ? won / pairs : 0);
    ok(crit > 0 && hit * 20 >= crit * 13, "at least 65%% of the %zu crisis "
       "probes critical at the default threshold (%zu)", crit, hit);
    ok(n > 0 && over <= 3, "at most 3 of the %zu messages that are no "
       "crisis marked critical (%zu)", n, over);
}


static void
test_false_resolution(void)
{
    fr_check(fr_cases, sizeof(fr_cases) / sizeof(fr_cases[0]), 0);
}


/* a short first message that does not say what is wrong */
static void
test_unclear_opening(void)
{
    size_t                 i;
    behave_conv_result_t   r;
    static const char     *vague[] = {
        "its charging weird again", "Hi, it's making that noise again",
        "my phone thing isn't working abroad",
        "hola, la cosa del router otra vez",
    };
    static const char     *clear[] = {
        "my phone has no mobile data in Lisbon since this morning",
        "the thing is, order 88213 was charged twice",
    };

    for (i = 0; i < sizeof(vague) / sizeof(vague[0]); i++) {
        first_turn(vague[i], &r);
        is_int(r.action, BEHAVE_ACTION_CLARIFY, "clarify: %s", vague[i]);
    }

    for (i = 0; i < sizeof(clear) / sizeof(clear[0]); i++) {
        first_turn(clear[i], &r);
        ok(r.action != BEHAVE_ACTION_CLARIFY, "no clarify: %s", clear[i]);
    }
}


/* anger or an ultimatum that is new, after earlier unhappy turns */
static void
test_anger(void)
{
    behave_conv_result_t   r;
    static const char     *const ultimatum[] = {
        "the radiator still isn't working, reported it 2 weeks ago",
        "I've chased the contractor.", "Nobody has been in touch.",
        "I'll chase them again.",
        "Still nothing. If nobody comes by Friday I'm reporting you to the "
        "council.",
    };
    static const char     *const calm[] = {
        "Hi, can I change my plan?", "Yes, in the app.",
        "Great, thanks a lot!", "You're welcome.",
        "Ha, the old price was a joke, this one is fine.",
    };

    conversation(ultimatum, 5, &r);
    ok(r.escalating, "an ultimatum after unhappy turns escalates");
    is_int(r.action, BEHAVE_ACTION_HANDOFF, "and is handed off");

    conversation(calm, 5, &r);
    ok(!r.escalating, "no earlier unhappy turn: not escalating");
}


int
main(void)
{
    /* the frames' quick rejection must not hide a frame */
    ok(behave_model_frames_keyed(), "every frame has a frame key concept");
    ok(behave_model_stack_sound(), "the critical stack's trees are sound");
    test_crisis();
    test_false_resolution();
    test_unclear_opening();
    test_anger();

    return tap_done();
}
