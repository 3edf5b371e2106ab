#!/usr/bin/env node
// Loads the review console in headless Chromium, as a person would: opens
// the page, pastes the portal token into its form, reads the queue, opens
// one review and reads its trajectory, and saves screenshots of both.  Talks to
// Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe):
// no WebSocket, no npm package.  Prints one JSON object of what it saw.
//
//   node scripts/console-check.js URL TOKEN REVIEW_ID SCREENSHOT.png
//
// URL is the console's page (http://127.0.0.1:PORT/console/).

"use strict";

const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const [url, token, reviewId, shot] = process.argv.slice(2);

if (!shot) {
    console.error("usage: console-check.js URL TOKEN REVIEW_ID SCREENSHOT");
    process.exit(2);
}

const bin = ["chromium", "chromium-browser", "google-chrome"]
    .map((b) => ["/usr/bin/" + b, b])
    .flat()
    .find((b) => b.startsWith("/") && fs.existsSync(b)) || "chromium";

const profile = fs.mkdtempSync(path.join(os.tmpdir(), "behave-chromium-"));

const chrome = spawn(bin, [
    "--headless=new", "--no-sandbox", "--disable-gpu",
    "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
    "--disable-extensions", "--disable-background-networking",
    "--remote-debugging-pipe", "--user-data-dir=" + profile,
    "--window-size=1280,1400", "about:blank",
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });

let stderr = "";
chrome.stderr.on("data", (d) => { stderr += d; });

const toChrome = chrome.stdio[3];
const fromChrome = chrome.stdio[4];

let nextId = 1;
const pending = new Map();
let buf = Buffer.alloc(0);

fromChrome.on("data", (d) => {
    buf = Buffer.concat([buf, d]);
    let i;
    while ((i = buf.indexOf(0)) >= 0) {
        const msg = JSON.parse(buf.subarray(0, i).toString("utf8"));
        buf = buf.subarray(i + 1);
        if (msg.id && pending.has(msg.id)) {
            const { resolve, reject } = pending.get(msg.id);
            pending.delete(msg.id);
            if (msg.error) {
                reject(new Error(JSON.stringify(msg.error)));
            } else {
                resolve(msg.result);
            }
        }
    }
});

function send(method, params = {}, sessionId) {
    const id = nextId++;
    const msg = { id, method, params };
    if (sessionId) {
        msg.sessionId = sessionId;
    }
    return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        toChrome.write(JSON.stringify(msg) + "\0");
    });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let session;

async function evaluate(expr) {
    const r = await send("Runtime.evaluate", {
        expression: expr, returnByValue: true, awaitPromise: true,
    }, session);
    if (r.exceptionDetails) {
        throw new Error("page: " + JSON.stringify(r.exceptionDetails));
    }
    return r.result.value;
}

// polls expr until it is truthy (or the time is up); returns its value
async function until(expr, ms = 10000) {
    const end = Date.now() + ms;
    let v;
    while (Date.now() < end) {
        v = await evaluate(expr);
        if (v) {
            return v;
        }
        await sleep(100);
    }
    return v;
}

async function main() {
    const { targetId } = await send("Target.createTarget",
                                    { url: "about:blank" });
    ({ sessionId: session } = await send("Target.attachToTarget",
                                         { targetId, flatten: true }));
    await send("Page.enable", {}, session);
    await send("Runtime.enable", {}, session);

    const out = { url };

    await send("Page.navigate", { url }, session);
    await until("document.readyState === 'complete' && "
                + "!!document.getElementById('token-form')");

    out.form_before_token = await evaluate(
        "!document.getElementById('token-form').hidden");

    // paste the token and submit, as a person does
    await evaluate(`(() => {
        const i = document.getElementById('token');
        i.value = ${JSON.stringify(token)};
        document.querySelector('#token-form button[type=submit]').click();
        return true;
    })()`);

    out.queue_loaded = await until(
        "document.querySelectorAll('#queue tbody tr').length > 0 "
        + "&& /in the queue/.test(document.getElementById('status')"
        + ".textContent)");
    out.rows = await evaluate(`[...document.querySelectorAll(
        '#queue tbody tr')].map((tr) => ({
            id: tr.dataset.id,
            cells: [...tr.cells].map((c) => c.textContent.trim()) }))`);
    out.headers = await evaluate(`[...document.querySelectorAll(
        '#queue thead th')].map((th) => th.textContent.trim())`);
    out.token_in_url = await evaluate(
        `location.href.includes(${JSON.stringify(token)})`);
    out.token_kept = await evaluate(
        `sessionStorage.getItem('behave.portal_token') === `
        + JSON.stringify(token));

    const queueShot = shot.replace(/(\.png)?$/, "-queue.png");
    const q = await send("Page.captureScreenshot", { format: "png" },
                         session);
    fs.writeFileSync(queueShot, Buffer.from(q.data, "base64"));
    out.queue_screenshot = queueShot;

    // open the review by clicking its row
    await evaluate(`document.querySelector(
        '#queue tbody tr[data-id="${reviewId}"]').click()`);
    out.call_loaded = await until(
        "!document.getElementById('call-view').hidden && "
        + "document.querySelectorAll('#transcript li').length > 0");
    out.customer_points = await evaluate(
        "document.querySelectorAll('#trajectory .point.customer').length");
    out.agent_points = await evaluate(
        "document.querySelectorAll('#trajectory .point.agent').length");
    out.customer_turns = await evaluate(
        "document.querySelectorAll('#transcript li.customer').length");
    out.line = await evaluate(
        "!!document.querySelector('#trajectory polyline.line')");
    out.claim_marks = await evaluate(`[...document.querySelectorAll(
        '#trajectory .mark.claim')].length`);
    out.denial_marks = await evaluate(`[...document.querySelectorAll(
        '#trajectory .mark.denial')].length`);
    out.highlighted = await evaluate(`({
        claim: [...document.querySelectorAll('#transcript li.claim .who')]
            .map((e) => e.textContent),
        denial: [...document.querySelectorAll('#transcript li.denial .who')]
            .map((e) => e.textContent) })`);
    out.title = await evaluate(
        "document.getElementById('call-title').textContent");
    out.storage_note = await evaluate(
        "document.getElementById('storage-mode').textContent");
    out.hash = await evaluate("location.hash");

    const { data } = await send("Page.captureScreenshot",
                                { format: "png", captureBeyondViewport: true },
                                session);
    fs.writeFileSync(shot, Buffer.from(data, "base64"));
    out.screenshot = shot;

    // mark it reviewed through the form
    await evaluate(`(() => {
        const f = document.getElementById('review-form');
        f.elements.reviewed_by.value = 'console test';
        f.elements.note.value = 'checked in a browser';
        document.getElementById('mark').click();
        return true;
    })()`);
    out.marked = await until(
        "/Marked reviewed/.test(document.getElementById('status')"
        + ".textContent)");
    out.history = await evaluate(`[...document.querySelectorAll(
        '#history li')].map((li) => li.textContent)`);

    return out;
}

const timer = setTimeout(() => {
    console.error("console-check: timed out\n" + stderr.slice(-2000));
    chrome.kill("SIGKILL");
    process.exit(1);
}, 60000);

main().then((out) => {
    process.stdout.write(JSON.stringify(out) + "\n");
    return send("Browser.close").catch(() => {});
}).catch((e) => {
    console.error("console-check: " + e.message + "\n" + stderr.slice(-2000));
    process.exitCode = 1;
    chrome.kill("SIGKILL");
}).finally(() => {
    clearTimeout(timer);
    chrome.on("exit", () => {
        fs.rmSync(profile, { recursive: true, force: true });
    });
    setTimeout(() => {
        chrome.kill("SIGKILL");
        process.exit();
    }, 2000).unref();
});
