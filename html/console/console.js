/*
 * The review console: the queue of calls and conversations that need a
 * person, and one call with its valence per turn, transcript and review.
 *
 * It talks only to the read API of this origin (CSP default-src 'self').
 * The portal token is pasted once and kept in sessionStorage (this tab
 * only, gone when it closes); it travels only in the Authorization
 * header, never in a URL.  Every text from the API is put in the page as
 * text (textContent), never as markup.
 */

"use strict";

(function () {

    var TOKEN_KEY = "behave.portal_token";
    var SVG_NS = "http://www.w3.org/2000/svg";
    var api = document.querySelector('meta[name="behave-api"]')
                      .getAttribute("content");

    var $ = function (id) { return document.getElementById(id); };

    var state = { cursor: null, review: null };


    function token() {
        return sessionStorage.getItem(TOKEN_KEY);
    }

    function say(text, error) {
        var s = $("status");
        s.textContent = text || "";
        s.className = error ? "status error" : "status";
    }

    function request(method, path, body) {
        var h = { "Authorization": "Bearer " + token() };
        var init = { method: method, headers: h, cache: "no-store",
                     credentials: "omit", referrerPolicy: "no-referrer" };

        if (body !== undefined) {
            h["Content-Type"] = "application/json";
            init.body = JSON.stringify(body);
        }

        return fetch(api + path, init).then(function (res) {
            return res.json().catch(function () { return {}; })
                .then(function (json) {
                    if (!res.ok) {
                        var e = json && json.error ? json.error : {};
                        if (res.status === 401) {
                            sessionStorage.removeItem(TOKEN_KEY);
                            showSignedIn();
                        }
                        throw new Error(res.status + " " + (e.code || "")
                                        + ": " + (e.message || "failed"));
                    }
                    return json;
                });
        });
    }

    function el(tag, cls, text) {
        var e = document.createElement(tag);
        if (cls) { e.className = cls; }
        if (text !== undefined && text !== null) { e.textContent = text; }
        return e;
    }

    function svg(tag, attrs, cls) {
        var e = document.createElementNS(SVG_NS, tag);
        Object.keys(attrs).forEach(function (k) {
            e.setAttribute(k, attrs[k]);
        });
        if (cls) { e.setAttribute("class", cls); }
        return e;
    }

    function when(iso) {
        if (!iso) { return "—"; }
        var d = new Date(iso);
        return isNaN(d) ? iso : d.toLocaleString();
    }

    function words(s) {
        return s ? String(s).replace(/_/g, " ") : "—";
    }


    /* the token */

    function showSignedIn() {
        var has = !!token();
        $("token-form").hidden = has;
        $("signed-in").hidden = !has;
        $("queue-view").hidden = !has;
        if (!has) { $("call-view").hidden = true; }
    }

    $("token-form").addEventListener("submit", function (ev) {
        ev.preventDefault();
        var v = $("token").value.trim();
        $("token").value = "";
        if (!v) { return; }
        sessionStorage.setItem(TOKEN_KEY, v);
        showSignedIn();
        route();
    });

    $("forget").addEventListener("click", function () {
        sessionStorage.removeItem(TOKEN_KEY);
        document.querySelector("#queue tbody").textContent = "";
        showSignedIn();
        say("Token forgotten.");
    });


    /* the queue */

    function query() {
        var f = $("filters"), q = [];
        ["status", "provider", "reviewed"].forEach(function (n) {
            if (f.elements[n].value) {
                q.push(n + "=" + encodeURIComponent(f.elements[n].value));
            }
        });
        if (f.elements.from.value) {
            q.push("from=" + encodeURIComponent(f.elements.from.value
                                                + "T00:00:00Z"));
        }
        if (f.elements.to.value) {
            q.push("to=" + encodeURIComponent(f.elements.to.value
                                              + "T23:59:59.999Z"));
        }
        return q;
    }

    function loadQueue(more) {
        var q = query(), body = document.querySelector("#queue tbody");

        if (more && state.cursor) {
            q.push("cursor=" + encodeURIComponent(state.cursor));
        } else {
            body.textContent = "";
        }

        say("Loading…");

        return request("GET", q.length ? "?" + q.join("&") : "")
            .then(function (json) {
                json.reviews.forEach(function (r) {
                    body.appendChild(row(r));
                });
                state.cursor = json.next_cursor;
                $("more").hidden = !json.next_cursor;
                $("empty").hidden = body.children.length > 0;
                say(body.children.length + " in the queue"
                    + (json.next_cursor ? " so far" : "") + ".");
            })
            .catch(function (e) { say(e.message, true); });
    }

    function row(r) {
        var tr = el("tr"), st = el("span", "badge " + r.status,
                                    words(r.status));
        tr.dataset.id = r.id;
        tr.tabIndex = 0;
        tr.appendChild(el("td", "time", when(r.updated_at)));
        tr.appendChild(el("td", "provider",
                          r.provider === "api" ? "API" : r.provider));
        tr.appendChild(el("td", "state")).appendChild(st);
        tr.appendChild(el("td", "action", words(r.action)));
        tr.appendChild(el("td", "sev sev-" + r.peak_severity,
                          String(r.peak_severity)));
        tr.appendChild(el("td", "turns", String(r.turns)));
        tr.appendChild(el("td", "reviewed")).appendChild(
            r.reviewed ? el("span", "badge reviewed", "reviewed") : el("span",
                                                       "muted", "—"));
        tr.addEventListener("click", function () { open(r.id); });
        tr.addEventListener("keydown", function (ev) {
            if (ev.key === "Enter") { open(r.id); }
        });
        return tr;
    }

    function open(id) {
        location.hash = "#/review/" + encodeURIComponent(id);
    }

    $("filters").addEventListener("submit", function (ev) {
        ev.preventDefault();
        loadQueue(false);
    });

    $("more").addEventListener("click", function () { loadQueue(true); });


    /* one call */

    function loadReview(id) {
        say("Loading…");
        return request("GET", "/" + encodeURIComponent(id))
            .then(function (r) {
                state.review = r;
                showReview(r);
                say("");
            })
            .catch(function (e) { say(e.message, true); });
    }

    function showReview(r) {
        var marks = highlights(r);

        $("queue-view").hidden = true;
        $("call-view").hidden = false;

        $("call-title").textContent = (r.kind === "call" ? "Call " : "Conversation ")
            + (r.call_id || r.conversation_id);

        facts(r);
        trajectory(r.transcript, marks);
        findings(r.findings);
        transcript(r.transcript, marks);
        history(r);

        $("storage-mode").textContent = (r.storage_mode === "redacted"
            ? "(stored redacted: personal data was removed before storage)"
            : "(stored in full)")
            + (r.turns_trimmed ? "; the first " + r.turns_trimmed
               + " turns are no longer stored" : "");
    }

    /* the turns of the false-resolution claims and denials */
    function highlights(r) {
        var m = { claim: {}, denial: {} };
        (r.findings || []).forEach(function (f) {
            if (f.type === "false_resolution") {
                m.denial[f.turn] = true;
                if (f.claim_turn !== undefined) { m.claim[f.claim_turn] = true; }
            }
        });
        return m;
    }

    function facts(r) {
        var dl = $("call-facts");
        dl.textContent = "";
        [["Status", words(r.status)], ["Action", words(r.action)],
         ["Why", r.action_reason], ["Peak severity", r.peak_severity],
         ["Turns", r.turns], ["Provider", r.provider],
         ["Provider's verdict", r.verdicts.provider || "—"],
         ["Service's verdict", r.verdicts.service || "—"],
         ["Verdicts disagree", r.verdicts.disagreement ? "yes" : "no"],
         ["First flagged", when(r.created_at)],
         ["Last flagged", when(r.updated_at)]
        ].forEach(function (p) {
            dl.appendChild(el("dt", null, p[0]));
            dl.appendChild(el("dd", null, p[1] === null ? "—" : String(p[1])));
        });
    }

    /*
     * Valence (-1..1) per turn, in turn order: one line through every
     * turn, a circle at each customer turn and a square at each agent
     * turn; the claimed resolution and the customer's denial ringed.
     */
    function trajectory(turns, marks) {
        var s = $("trajectory"), W = 800, H = 240, L = 40, R = 16, T = 16,
            B = 28, n = turns.length, pts = [];

        var step = Math.max(1, Math.ceil(n / 25));  /* turn labels shown */

        s.textContent = "";
        s.setAttribute("viewBox", "0 0 " + W + " " + H);

        function x(i) { return L + (n < 2 ? (W - L - R) / 2
                                          : i * (W - L - R) / (n - 1)); }
        function y(v) { return T + (1 - v) / 2 * (H - T - B); }

        s.appendChild(svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0) },
                          "zero"));
        s.appendChild(svg("line", { x1: L, x2: L, y1: T, y2: H - B },
                          "axis"));
        [[1, "+1"], [0, "0"], [-1, "−1"]].forEach(function (t) {
            var lab = svg("text", { x: 6, y: y(t[0]) + 4 }, "label");
            lab.textContent = t[1];
            s.appendChild(lab);
        });

        turns.forEach(function (t, i) {
            pts.push(x(i).toFixed(1) + "," +
                     y(t.annotation.valence_score).toFixed(1));
        });

        if (n > 1) {
            s.appendChild(svg("polyline", { points: pts.join(" ") }, "line"));
        }

        turns.forEach(function (t, i) {
            var cx = x(i), cy = y(t.annotation.valence_score), p, tip;

            if (t.speaker === "customer") {
                p = svg("circle", { cx: cx, cy: cy, r: 5 },
                        "point customer");
            } else {
                p = svg("rect", { x: cx - 4.5, y: cy - 4.5, width: 9,
                                  height: 9 }, "point agent");
            }
            p.setAttribute("data-turn", t.turn);
            tip = svg("title", {});
            tip.textContent = "turn " + t.turn + " (" + t.speaker + "): "
                              + t.annotation.valence_score;
            p.appendChild(tip);
            s.appendChild(p);

            if (marks.claim[t.turn]) {
                s.appendChild(svg("circle", { cx: cx, cy: cy, r: 10 },
                                  "mark claim"));
            }
            if (marks.denial[t.turn]) {
                s.appendChild(svg("circle", { cx: cx, cy: cy, r: 10 },
                                  "mark denial"));
            }

            if (i % step === 0) {
                var lab = svg("text", { x: cx - 3, y: H - 8 }, "label");
                lab.textContent = String(t.turn);
                s.appendChild(lab);
            }
        });
    }

    function findings(list) {
        var ul = $("findings");
        ul.textContent = "";
        if (!list.length) {
            ul.appendChild(el("li", "muted", "none in the stored turns"));
        }
        list.forEach(function (f) {
            var where = f.turn === null ? "" : "turn " + f.turn
                + (f.claim_turn !== undefined ? " (claimed at turn "
                   + f.claim_turn + ")" : "") + ": ";
            ul.appendChild(el("li", "finding " + f.type,
                              words(f.type) + " — " + where + f.reason));
        });
    }

    function transcript(turns, marks) {
        var ol = $("transcript");
        ol.textContent = "";
        turns.forEach(function (t) {
            var li = el("li", t.speaker), a = t.annotation,
                labels = el("div", "labels"), head = el("div");

            if (marks.claim[t.turn]) { li.classList.add("claim"); }
            if (marks.denial[t.turn]) { li.classList.add("denial"); }

            head.appendChild(el("span", "who", "#" + t.turn + " "
                                + t.speaker));
            head.appendChild(el("span", "muted", when(t.at)));
            li.appendChild(head);
            li.appendChild(el("p", "text", t.text));

            [words(a.emotional_valence) + " (" + a.valence_score + ")",
             "urgency " + words(a.urgency_level),
             "load " + words(a.cognitive_load),
             "severity " + a.severity].concat(a.cues.map(words))
                .concat(t.review ? [words(t.review.review_status),
                                    "→ " + words(t.review.action)] : [])
                .forEach(function (l) {
                    labels.appendChild(el("span", "badge", l));
                });
            li.appendChild(labels);
            ol.appendChild(li);
        });
    }

    function history(r) {
        var ul = $("history");
        ul.textContent = "";
        $("mark").textContent = r.reviewed ? "Mark reviewed again"
                                           : "Mark reviewed";
        $("reopen").hidden = !r.reviewed;
        r.history.forEach(function (h) {
            ul.appendChild(el("li", null, when(h.at) + " — " + words(h.event)
                              + (h.by ? " by " + h.by : "")
                              + (h.note ? ": " + h.note : "")));
        });
    }

    function patch(reviewed) {
        var f = $("review-form");
        if (!f.elements.reviewed_by.value.trim()) {
            say("Say who reviewed it.", true);
            f.elements.reviewed_by.focus();
            return;
        }
        request("PATCH", "/" + encodeURIComponent(state.review.id), {
            reviewed: reviewed,
            reviewed_by: f.elements.reviewed_by.value.trim(),
            note: f.elements.note.value
        }).then(function (r) {
            state.review.reviewed = r.reviewed;
            state.review.history = r.history;
            history(state.review);
            f.elements.note.value = "";
            say(reviewed ? "Marked reviewed." : "Marked not reviewed.");
        }).catch(function (e) { say(e.message, true); });
    }

    $("review-form").addEventListener("submit", function (ev) {
        ev.preventDefault();
        patch(true);
    });
    $("reopen").addEventListener("click", function () { patch(false); });

    $("back").addEventListener("click", function (ev) {
        ev.preventDefault();
        location.hash = "";
    });


    /* #/review/<id> opens one; anything else is the queue */
    function route() {
        if (!token()) { return; }
        var m = /^#\/review\/(.+)$/.exec(location.hash);
        if (m) {
            loadReview(decodeURIComponent(m[1]));
        } else {
            $("call-view").hidden = true;
            $("queue-view").hidden = false;
            loadQueue(false);
        }
    }

    window.addEventListener("hashchange", route);

    showSignedIn();
    if (token()) {
        route();
    } else {
        say("Paste a portal token to see the queue.");
    }
})();
