#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Markdown table of fastpair_bench_select's JSON (bench/select_bench.cu) for docs/SELECTIVE.md.

Usage: scripts/select-table.py BENCH_JSON [> select.md]

Cells: selective ms / dense (decode-then-filter) ms, speedup, min times (ms_min); then the full
decode (decode_column of every row) and the plan times at 1 % random ids, and the acceptance line
(1 % selective >= 10x the dense path).
"""
import json
import re
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    data = json.load(open(sys.argv[1], encoding="utf-8"))
    sel, full, plan, cols, pcts = {}, {}, {}, [], []
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or b.get("error_occurred"):
            continue
        name = b["name"].split("/iterations:")[0]
        m = re.match(r"^select/([^/]+)/[^/]+/([a-z]+)/([\d.]+)pct/([a-z]+)$", name)
        if m:
            col, pat, pct, strat = m.group(1), m.group(2), float(m.group(3)), m.group(4)
            sel[(col, pat, pct, strat)] = b["ms_min"]
            if col not in cols:
                cols.append(col)
            if pct not in pcts:
                pcts.append(pct)
            continue
        m = re.match(r"^full/([^/]+)/", name)
        if m:
            full[m.group(1)] = b["ms_min"]
        m = re.match(r"^plan/([^/]+)/[^/]+/ids/1pct$", name)
        if m:
            plan[m.group(1)] = b["ms_min"]
    pcts.sort()
    ctx = data.get("context", {})
    print(f"GPU {ctx.get('gpu_name', '?')}, driver {ctx.get('cuda_driver_version', '?')}, {ctx.get('date', '?')}; "
          "min times; cells: selective ms / dense ms, speedup.\n")
    print("| column | pattern | " + " | ".join(f"{p:g} %" for p in pcts) + " |")
    print("|---|---|" + "---|" * len(pcts))
    accept = []
    for col in cols:
        for pat in ("ids", "range"):
            cells = []
            for p in pcts:
                s, d = sel.get((col, pat, p, "selective")), sel.get((col, pat, p, "dense"))
                cells.append("-" if s is None or d is None else f"{s:.3f}/{d:.3f} ×{d / s:.1f}")
                if p == 1 and s and d:
                    accept.append((d / s, col, pat))
            print(f"| {col} | {pat} | " + " | ".join(cells) + " |")
    print()
    print("- decode_column of every row (full): " + ", ".join(f"{c} {full[c]:.3f} ms" for c in cols if c in full))
    print("- make_select_plan at 1 % random ids: " + ", ".join(f"{c} {plan[c]:.3f} ms" for c in cols if c in plan))
    if accept:
        ok = sum(r >= 10 for r, _, _ in accept)
        r, c, p = min(accept)
        print(f"- 1 % selective >= 10x dense: {ok} of {len(accept)} cases; the tightest {c} {p} ×{r:.1f}")


if __name__ == "__main__":
    main()
