// Runs vader-sentiment 1.1.3 and sentiment 5.0.2 (AFINN) over the
// sentiment ground-truth files given as arguments; prints Pearson r of
// their score against the human mean and the time per message.
// Used by scripts/eval --compare.
'use strict';

const fs = require('fs');
const path = require('path');
const vader = require('vader-sentiment');
const Sentiment = require('sentiment');

const afinn = new Sentiment();

function pearson(xs, ys) {
    const n = xs.length;
    let sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (let i = 0; i < n; i++) {
        sx += xs[i]; sy += ys[i];
        sxx += xs[i] * xs[i]; syy += ys[i] * ys[i]; sxy += xs[i] * ys[i];
    }
    return (n * sxy - sx * sy)
           / Math.sqrt((n * sxx - sx * sx) * (n * syy - sy * sy));
}

const tools = {
    'vader-sentiment@1.1.3': (t) =>
        vader.SentimentIntensityAnalyzer.polarity_scores(t).compound,
    'sentiment@5.0.2 (AFINN)': (t) => afinn.analyze(t).comparative,
};

for (const file of process.argv.slice(2)) {
    const rows = fs.readFileSync(file, 'utf8').split('\n')
        .map((l) => l.split('\t')).filter((c) => c.length >= 3);
    const human = rows.map((c) => parseFloat(c[1]));
    for (const [name, fn] of Object.entries(tools)) {
        const t0 = process.hrtime.bigint();
        const scores = rows.map((c) => fn(c.slice(2).join('\t')));
        const ns = Number(process.hrtime.bigint() - t0) / rows.length;
        const tag = /amazon/i.test(file) ? 'amazon'
                    : path.basename(file).split('_')[0];
        console.log(`compare ${tag.padEnd(22)}`
                    + ` ${name.padEnd(24)} r=${pearson(scores, human)
                    .toFixed(3)}  ${ns.toFixed(0)} ns/msg`);
    }
}
