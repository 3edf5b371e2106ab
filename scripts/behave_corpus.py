"""The corpus' split rule and readers, shared by scripts/train and
scripts/eval-corpus so that training and measuring cannot disagree on
what is held out (data/corpus/README.md, "Split")."""

import hashlib
import json
import os


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
