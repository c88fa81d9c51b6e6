#!/usr/bin/env python3
"""Compares the benchmark JSON of scripts/gpu-ab.sh: OUTDIR/a_<r>.json vs OUTDIR/b_<r>.json.

Prints one Markdown row per benchmark: the GB/s min of every round for A and for B, and B's gain
over A computed from the best round of each (min of the timed iterations, as in
docs/BENCHMARKS.md). Benchmarks that failed (error_occurred) are marked ERROR.
Usage: scripts/ab_compare.py OUTDIR
"""
import glob
import json
import os
import re
import sys


def load(path):
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        name = b["name"].split("/iterations")[0]
        out[name] = None if b.get("error_occurred") else b.get("GBps_min")
    return out


def main(outdir):
    runs = {"a": {}, "b": {}}
    for path in glob.glob(os.path.join(outdir, "[ab]_*.json")):
        m = re.match(r"([ab])_(\d+)\.json$", os.path.basename(path))
        if m:
            runs[m.group(1)][int(m.group(2))] = load(path)
    if not runs["a"] or not runs["b"]:
        sys.exit("ab_compare: need a_<r>.json and b_<r>.json in " + outdir)
    names = []
    for r in sorted(runs["a"]):
        names += [n for n in runs["a"][r] if n not in names]
    print("| benchmark | A GB/s min per round | B GB/s min per round | B vs A (best rounds) |")
    print("|---|---|---|---|")
    for n in names:
        a = [runs["a"][r].get(n) for r in sorted(runs["a"])]
        b = [runs["b"][r].get(n) for r in sorted(runs["b"])]
        fmt = lambda v: ", ".join("ERROR" if x is None else f"{x:.0f}" for x in v)
        good_a = [x for x in a if x]
        good_b = [x for x in b if x]
        gain = f"{100 * (max(good_b) / max(good_a) - 1):+.1f} %" if good_a and good_b else "–"
        print(f"| {n} | {fmt(a)} | {fmt(b)} | {gain} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
