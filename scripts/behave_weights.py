#!/usr/bin/python3
"""The trained layer's weights in the tree: packed, quantised, compressed.

scripts/train writes its weights as text (one "w" row of 22 integers a
feature, one "m" row of 64 meaning coordinates a word); as text they come
to 7 MB, and every retraining would add that to every clone.  In the tree
they are kept as two files:

  weights.tsv   the small lines (scale, the stack's trees and bits) and a
                line "packed<TAB>weights.bin";
  weights.bin   the rows, packed (below); scripts/gen-model unpacks them
                into the same int16 tables as before, so the annotator
                reads them exactly as it read the text.

weights.bin: the 8 bytes "BHVWTS1\\n", then one zlib stream of
  u32 nw, u32 nm, u16 ncols, u16 ndim, u8 ngroups, ngroups+1 u8 group
  bounds (columns), 128 u16 levels;
  nw rows, in id order: varint id delta, u8 mask of the groups that are
  not all zero, then one u8 code a column of each such group;
  nm rows, in id order: varint id delta, ndim int8.
All little-endian.  A code is a sign bit and 7 bits of level: the value is
+-levels[code & 127].  The levels grow by a constant ratio (logarithmic,
like mu-law audio), so that a weight keeps about 3% of relative precision
at every size: a linear model's weights span four orders of magnitude and
most of them are small.  The levels are fixed, so packing what was
unpacked gives the same bytes.

Usage: behave_weights.py pack FULL.tsv OUT.tsv   (writes OUT.tsv, OUT.bin)
       behave_weights.py unpack IN.tsv OUT_FULL.tsv
"""

import math
import os
import struct
import sys
import zlib

MAGIC = b"BHVWTS1\n"
NCOLS = 22
NDIM = 64
# the five dimensions' logits (valence 4, urgency 5, load 4, engagement
# 4, register 4) and the critical head: a feature that the labelled
# messages never carried has only valence (GoEmotions) weights
GROUPS = (0, 4, 9, 13, 17, 21, 22)
LEVELS_C = 8.0
LEVELS_TOP = 32767


def levels():
    """128 magnitudes from 0 to 32767, each about 6.8% above the last
    (every small integer below where that ratio is under one step)."""
    s = math.log(LEVELS_TOP / LEVELS_C + 1) / 127
    out = []
    for k in range(128):
        v = int(round(LEVELS_C * (math.exp(k * s) - 1)))
        if out and v <= out[-1]:
            v = out[-1] + 1
        out.append(v)
    out[-1] = LEVELS_TOP
    return out


LEVELS = levels()


def code(v):
    """The nearest level's code for an integer weight."""
    a = min(abs(v), LEVELS_TOP)
    lo, hi = 0, 127
    while lo < hi:
        mid = (lo + hi) // 2
        if LEVELS[mid] < a:
            lo = mid + 1
        else:
            hi = mid
    if lo > 0 and a - LEVELS[lo - 1] <= LEVELS[lo] - a:
        lo -= 1
    return lo | (128 if v < 0 and lo else 0)


def value(c):
    return -LEVELS[c & 127] if c & 128 else LEVELS[c & 127]


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def read_full(path):
    """The text lines other than rows, and the w and m rows."""
    small, w, m = [], {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("w\t") or line.startswith("m\t"):
                kind, fid, vals = line.rstrip("\n").split("\t")
                (w if kind == "w" else m)[int(fid, 16)] = [
                    int(v) for v in vals.split(",")]
            elif not line.startswith("packed\t"):
                small.append(line)
    return small, w, m


def pack_rows(w, m):
    body = bytearray(struct.pack("<IIHHB", len(w), len(m), NCOLS, NDIM,
                                 len(GROUPS) - 1))
    body += bytes(GROUPS)
    body += struct.pack("<128H", *LEVELS)
    last = 0
    for fid in sorted(w):
        row = [code(v) for v in w[fid]]
        mask = 0
        for g in range(len(GROUPS) - 1):
            if any(row[GROUPS[g]:GROUPS[g + 1]]):
                mask |= 1 << g
        body += varint(fid - last) + bytes([mask])
        for g in range(len(GROUPS) - 1):
            if mask & (1 << g):
                body += bytes(row[GROUPS[g]:GROUPS[g + 1]])
        last = fid
    last = 0
    for fid in sorted(m):
        body += varint(fid - last)
        body += struct.pack("<%db" % NDIM, *m[fid])
        last = fid
    return MAGIC + zlib.compress(bytes(body), 9)


def unpack_rows(data):
    if not data.startswith(MAGIC):
        raise ValueError("not a packed weights file")
    body = zlib.decompress(data[len(MAGIC):])
    nw, nm, ncols, ndim, ng = struct.unpack_from("<IIHHB", body, 0)
    pos = 13
    groups = list(body[pos:pos + ng + 1])
    pos += ng + 1
    lv = struct.unpack_from("<128H", body, pos)
    pos += 256

    def uvar():
        nonlocal pos
        n, shift = 0, 0
        while True:
            b = body[pos]
            pos += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return n

    w, m, last = {}, {}, 0
    for _ in range(nw):
        last += uvar()
        mask = body[pos]
        pos += 1
        row = [0] * ncols
        for g in range(ng):
            if mask & (1 << g):
                for j in range(groups[g], groups[g + 1]):
                    c = body[pos]
                    pos += 1
                    row[j] = -lv[c & 127] if c & 128 else lv[c & 127]
        w[last] = row
    last = 0
    for _ in range(nm):
        last += uvar()
        m[last] = list(struct.unpack_from("<%db" % ndim, body, pos))
        pos += ndim
    return w, m


def pack(full, out_tsv):
    """Writes out_tsv (the small lines) and its .bin beside it."""
    small, w, m = read_full(full)
    out_bin = os.path.splitext(out_tsv)[0] + ".bin"
    data = pack_rows(w, m)
    with open(out_bin + ".tmp", "wb") as f:
        f.write(data)
    with open(out_tsv + ".tmp", "w") as f:
        f.writelines(small)
        f.write("packed\t%s\n" % os.path.basename(out_bin))
    os.replace(out_bin + ".tmp", out_bin)
    os.replace(out_tsv + ".tmp", out_tsv)
    return len(w), len(m), len(data)


def unpack(tsv, out_full):
    """Writes the full text form of a packed pair (what scripts/train
    wrote, but for the quantisation)."""
    small, w, m = read_full(tsv)
    with open(os.path.splitext(tsv)[0] + ".bin", "rb") as f:
        w2, m2 = unpack_rows(f.read())
    w.update(w2)
    m.update(m2)
    with open(out_full, "w") as f:
        f.writelines(small)
        for fid in sorted(w):
            f.write("w\t%08x\t%s\n" % (fid, ",".join(map(str, w[fid]))))
        for fid in sorted(m):
            f.write("m\t%08x\t%s\n" % (fid, ",".join(map(str, m[fid]))))


def is_packed(tsv):
    with open(tsv, encoding="utf-8") as f:
        return any(line.startswith("packed\t") for line in f)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("pack", "unpack"):
        sys.exit(__doc__.split("\n\n")[-1])
    if sys.argv[1] == "pack":
        nw, nm, size = pack(sys.argv[2], sys.argv[3])
        print("behave_weights: %d rows, %d meaning rows, %d bytes" %
              (nw, nm, size))
    else:
        unpack(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    main()
