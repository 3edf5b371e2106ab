"""Real text for the risk head (../shared/data/real, ../shared/data/public):
the readers, the frozen split and the hand labels, shared by
scripts/train-risk and scripts/eval-real so that training and measuring
cannot disagree on what is held out (docs/quality.md, "Real text").

Every row is a dict: id, text, src (where it comes from), y (1 critical,
0 not, None unknown), kind (critical / hard_negative / ordinary / weak),
labelled (read by hand from labels.md), lang."""

import csv
import json
import os

from behave_corpus import read_jsonl, real_held_out

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LABELS = os.path.join(TOP, "data", "real-labels")


def data_dir(top=TOP):
    return os.environ.get("BEHAVE_DATA",
                          os.path.join(os.path.dirname(top), "shared", "data"))


def _real_texts(data):
    """id -> (text, source row) of every file of data/real."""
    out = {}
    d = os.path.join(data, "real")
    for name in ("suicide_detection", "crisislex_t26", "disaster_tweets",
                 "twcs_tweets", "cfpb"):
        path = os.path.join(d, name + ".jsonl")
        if os.path.exists(path):
            for r in read_jsonl(path):
                out[r["id"]] = r
    return out


def hand_labelled(split, data=None):
    """The messages of data/real-labels/{split}-*.jsonl, labelled by hand
    (split: "dev" or "heldout"), joined with their text."""
    rows = []
    texts = _real_texts(data or data_dir())
    for name in sorted(os.listdir(LABELS)):
        if not (name.startswith(split + "-") and name.endswith(".jsonl")):
            continue
        for lab in read_jsonl(os.path.join(LABELS, name)):
            src = texts.get(lab["id"])
            if src is None:
                continue
            rows.append({"id": lab["id"], "text": src["text"],
                         "src": "labelled:" + _source(lab["id"]),
                         "y": int(lab["kind"] == "critical"),
                         "kind": lab["kind"], "family": lab["family"],
                         "urgency": lab["urgency_level"],
                         "valence": lab["emotional_valence"],
                         "lang": src.get("lang", "en"), "labelled": True})
    return rows


def _source(ident):
    return {"sd": "posts", "cx": "crisis_tweets", "dt": "disaster_tweets",
            "tw": "customer_tweets", "cf": "complaints"}.get(ident[:2],
                                                              "other")


def public_queries(data=None):
    """(id, text) of Banking77 train and CLINC150 train, val and
    out-of-scope: public banking and assistant queries, real ordinary
    traffic; a query's id is its text."""
    data = data or data_dir()
    out = []
    path = os.path.join(data, "public", "banking77", "train.csv")
    if os.path.exists(path):
        with open(path, encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                out.append(("b77", row["text"]))
    path = os.path.join(data, "public", "clinc150",
                        "data_full_train_val.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            j = json.load(f)
        for part in ("train", "val", "oos_train", "oos_val"):
            for text, _ in j[part]:
                out.append(("clinc", text))
    seen = set()
    rows = []
    for src, text in out:
        if text in seen:
            continue
        seen.add(text)
        rows.append({"id": text, "text": text, "src": "ordinary:" + src,
                     "y": 0, "kind": "ordinary", "lang": "en",
                     "labelled": False})
    return rows


def ordinary_traffic(split, data=None):
    """Real ordinary traffic: public queries, customer tweets to brands
    and the brands' replies, complaint narratives (weakly labelled: none
    is read by hand; docs/quality.md says how the few critical ones among
    them are counted)."""
    data = data or data_dir()
    want = split == "heldout"
    # a development message read by hand counts with its label (some of
    # the highest-scored "ordinary" ones are fraud happening now), not
    # twice; the held-out traffic stays as it was frozen
    labelled = set() if want else {r["id"] for r in hand_labelled("dev",
                                                                  data)}
    rows = [r for r in public_queries(data)
            if real_held_out(r["id"]) == want]
    for r in _real_texts(data).values():
        if r["id"][:2] not in ("tw", "cf") or r["id"] in labelled:
            continue
        if real_held_out(r["id"]) != want:
            continue
        rows.append({"id": r["id"], "text": r["text"],
                     "src": "ordinary:" + _source(r["id"]), "y": 0,
                     "kind": "ordinary", "lang": "en", "labelled": False})
    return rows


def weak_rows(data=None):
    """Development rows with weak labels only (never held out, never
    hand-labelled): posts by forum (SuicideWatch as critical, teenagers as
    not), crisis tweets from the media, governments, businesses and NGOs
    and disaster-word tweets not about a disaster (not critical)."""
    data = data or data_dir()
    labelled = {r["id"] for split in ("dev", "heldout")
                for r in hand_labelled(split, data)}
    rows = []
    for r in _real_texts(data).values():
        i = r["id"]
        if real_held_out(i) or i in labelled:
            continue
        y = None
        if i.startswith("sd"):
            y = int(r["subreddit"] == "SuicideWatch")
            src = "weak:" + r["subreddit"]
        elif i.startswith("cx") and r["information_source"] in (
                "Media", "Government", "Business", "NGOs"):
            y, src = 0, "weak:crisis_news"
        elif i.startswith("dt") and not r["about_a_real_disaster"]:
            y, src = 0, "weak:not_disaster"
        if y is None:
            continue
        rows.append({"id": i, "text": r["text"], "src": src, "y": y,
                     "kind": "weak", "lang": r.get("lang", "en"),
                     "labelled": False})
    return rows
