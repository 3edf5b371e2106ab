"""The corpus' split rule and readers, shared by scripts/train and
scripts/eval-corpus so that training and measuring cannot disagree on
what is held out (data/corpus/README.md, "Split")."""

import hashlib
import json
import os
import random


def held_out(file_name, ident):
    """A message or conversation is held out when its file is blind-*, or
    when the first byte of the SHA-1 of its id is below 64."""
    if os.path.basename(file_name).startswith("blind-"):
        return True
    return hashlib.sha1(ident.encode()).digest()[0] < 64


def cv_fold(ident, n):
    """The cross-validation fold of a development message (scripts/cv):
    the second byte of the SHA-1 of its id, independent of the split's
    first byte."""
    return hashlib.sha1(ident.encode()).digest()[1] % n


def intent_held_out(intent):
    """Repetition by meaning is measured on intents never trained on."""
    return hashlib.sha1(intent.encode()).digest()[0] < 64


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def intent_pairs(queries, seed=7, per_intent=20):
    """Pairs of queries for repetition by meaning: in each intent, its
    first per_intent queries two by two (the same ask, a repetition), each
    first one also beside a query of another intent drawn at random (not
    a repetition), 1:1, in a fixed order.  queries: (text, intent) in
    file order.  scripts/eval-corpus measures on the held-out intents,
    scripts/train chooses on an inner split of the development ones."""
    by = {}
    for t, i in queries:
        by.setdefault(i, []).append(t)
    rnd = random.Random(seed)
    intents = sorted(by)
    pairs = []
    for i in intents:
        ts = by[i][:per_intent]
        for k in range(0, len(ts) - 1, 2):
            pairs.append((ts[k], ts[k + 1], 1))
            j = rnd.choice([x for x in intents if x != i])
            pairs.append((ts[k], rnd.choice(by[j]), 0))
    return pairs


def intent_inner_fold(intent, n):
    """The inner fold of a development intent: scripts/train chooses the
    meaning signature's settings on development intents it left out
    (the second byte of the SHA-1, independent of the held-out rule)."""
    return hashlib.sha1(intent.encode()).digest()[1] % n


def cosine(a, b):
    ab = sum(x * y for x, y in zip(a, b))
    aa = sum(x * x for x in a) ** .5
    bb = sum(x * x for x in b) ** .5
    return ab / (aa * bb) if aa and bb else 0


def pairs_f1(pairs, sig, threshold):
    """F1 of "a repetition" (cosine >= threshold) on intent_pairs()."""
    tp = fp = fn = 0
    for a, b, same in pairs:
        hit = cosine(sig[a], sig[b]) >= threshold
        tp += hit and same
        fp += hit and not same
        fn += same and not hit
    return 2 * tp / max(1, 2 * tp + fp + fn)


# Real text (../shared/data/real, ../shared/data/public): a frozen split.
# A real row is held out when the first byte of the SHA-1 of "real:" and
# its id (public query sets: of its text) is below 40; the hand-labelled
# held-out files (data/real-labels/heldout-*.jsonl) are drawn from that
# part only and are never read by scripts/train.
REAL_HELD_OUT_BYTE = 40


def real_held_out(ident):
    return hashlib.sha1(("real:" + ident).encode()).digest()[0] \
        < REAL_HELD_OUT_BYTE
