#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Markdown table of fastpair_bench_predicates' JSON (bench/predicates_bench.cu) for docs/PREDICATES.md.

Usage: scripts/predicates-table.py BENCH_JSON [> predicates.md]

Cells: logical GB/s (decoded bytes of the column / min time) on codes / decode-then-compare
(ratio); then the copy rate of the same run and the >= 3x check for equality and IN.
"""
import json
import re
import sys

PREDS = ("eq", "in10", "prefix", "substring")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    data = json.load(open(sys.argv[1], encoding="utf-8"))
    rates, copies, cols = {}, [], []
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        name = b["name"].split("/iterations:")[0]
        m = re.match(r"^(codes|decode_cmp)/([^/]+)/[^/]+/([a-z0-9]+)$", name)
        if m:
            rates[(m.group(2), m.group(3), m.group(1))] = b["GBps_min"]
            if m.group(2) not in cols:
                cols.append(m.group(2))
        elif name.startswith("copy/"):
            copies.append(b["GBps_min"])
    ctx = data.get("context", {})
    print(f"GPU {ctx.get('gpu_name', '?')}, driver {ctx.get('cuda_driver_version', '?')}, {ctx.get('date', '?')}; "
          "logical GB/s at the min time, on codes / decode-then-compare (ratio).\n")
    print("| column | " + " | ".join(PREDS) + " |")
    print("|---|" + "---|" * len(PREDS))
    worst = []
    for col in cols:
        cells = []
        for p in PREDS:
            c, d = rates.get((col, p, "codes")), rates.get((col, p, "decode_cmp"))
            if c is None or d is None:
                cells.append("-")
                continue
            r = c / d
            cells.append(f"{c:,.0f} / {d:,.0f} ({r:.2g}×)".replace(",", " "))
            if p in ("eq", "in10"):
                worst.append((r, col, p))
        print(f"| {col} | " + " | ".join(cells) + " |")
    print()
    if copies:
        print(f"- device-to-device copy in the same run: {min(copies) / 1e3:.2f}–{max(copies) / 1e3:.2f} TB/s")
    if worst:
        ok = sum(r >= 3 for r, _, _ in worst)
        r, c, p = min(worst)
        print(f"- equality / IN on codes >= 3x decode-then-compare: {ok} of {len(worst)} cases; the closest {c} {p} {r:.1f}×")


if __name__ == "__main__":
    main()
