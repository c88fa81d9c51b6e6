#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Before/after table of the pipelined cases of two or more fastpair_bench_e2e runs (same GPU).

Usage: scripts/e2e-compare.py NAME=BENCH_JSON[@DEVICE_CASE] NAME=BENCH_JSON[@DEVICE_CASE] [...] [> table.md]

DEVICE_CASE names the case read as the device path (default pipelined_device; e.g.
pipelined_device_borrow for decode_fpc_device with prepare_options::borrow_codes), so that one
JSON can be shown as two runs.

One row per column x codec: the decode-only rate of the first run (decode_column on the prepared
default column, chars + int64 offsets), then for each run the pipelined rates from device memory
(decode_fpc_device) with their share of that decode rate, and from pinned host memory
(decode_fpc_host) with their share of its bound, min(decode, pinned H2D x file ratio). Where the
first run has the decode_lean case (the decode of the column as decode_fpc_* returns it: offsets
derived from the codes), each run's lean rate (the offsets pass differs between runs; the share
uses the first run's), and each run's device rate as a share of the first run's: the part of the
device path that is not its decode. Runs without the pinned case get no pinned columns. GB/s at
the min time (median time in parentheses). A summary line per run follows the table.
"""
import json
import statistics
import sys


def load(path):
    with open(path) as f:
        d = json.load(f)
    rows = {}
    for b in d["benchmarks"]:
        parts = b["name"].split("/")
        if len(parts) >= 4 and "GBps_min" in b:
            rows[(parts[1], parts[2], parts[3])] = b
    return d["context"], rows


def main(argv):
    if len(argv) < 2 or any("=" not in a for a in argv):
        sys.exit(__doc__)
    runs, device_case = [], {}
    for a in argv:
        name, spec = a.split("=", 1)
        path, _, case = spec.partition("@")
        runs.append((name, *load(path)))
        device_case[name] = case or "pipelined_device"
    ctx = runs[0][1]
    print(f"GPU {ctx.get('gpu_name', '?')}, driver {ctx.get('gpu_driver', '?')}, runs of "
          + ", ".join(f"{n} ({c.get('date', '?')}, {c.get('executable', '?')})" for n, c, _ in runs) + "\n")
    has_lean = any(k[2] == "decode_lean" for k in runs[0][2])
    lean_runs = [n for n, _, rows in runs if any(k[2] == "decode_lean" for k in rows)] if has_lean else []
    has_pinned = any(k[2] == "pipelined_pinned" for _, _, rows in runs for k in rows)
    head = ["column", "codec", "decode GB/s"] + [f"{n}: lean decode GB/s" for n in lean_runs]
    for n, _, _ in runs:
        head += [f"{n}: device GB/s", "% of decode"]
    for n, _, _ in runs if has_pinned else []:
        head += [f"{n}: pinned GB/s", "% of bound"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * 2 + "---:|" * (len(head) - 2))
    cells = sorted({k[:2] for k in runs[0][2]})
    share = {n: ([], [], []) for n, _, _ in runs}
    for col, codec in cells:
        dec = runs[0][2].get((col, codec, "decode_only"))
        if dec is None:
            continue
        line = [col, codec, f"{dec['GBps_min']:.0f} ({dec['GBps_median']:.0f})"]
        lean = runs[0][2].get((col, codec, "decode_lean"))
        for n, _, rows in runs:
            if n in lean_runs:
                ln = rows.get((col, codec, "decode_lean"))
                line.append(f"{ln['GBps_min']:.0f} ({ln['GBps_median']:.0f})" if ln else "-")
        pinned = []
        for n, _, rows in runs:
            dv, pn = rows.get((col, codec, device_case[n])), rows.get((col, codec, "pipelined_pinned"))
            if dv:
                s = dv["GBps_min"] / dec["GBps_min"]
                share[n][0].append(s)
                if lean:
                    share[n][2].append(dv["GBps_min"] / lean["GBps_min"])
                line += [f"{dv['GBps_min']:.0f} ({dv['GBps_median']:.0f})", f"{100 * s:.0f}"]
            else:
                line += ["-", "-"]
            if pn and pn.get("bound_GBps"):
                s = pn["GBps_min"] / pn["bound_GBps"]
                share[n][1].append(s)
                pinned += [f"{pn['GBps_min']:.0f} ({pn['GBps_median']:.0f})", f"{100 * s:.0f}"]
            else:
                pinned += ["-", "-"]
        print("| " + " | ".join(line + (pinned if has_pinned else [])) + " |")
    print()
    for n, (dv, pn, ln) in share.items():
        dev = "decode_fpc_device" + (" (borrow_codes)" if device_case[n].endswith("_borrow") else "")
        for what, v in ((f"{dev} as % of decode only", dv), ("decode_fpc_host (pinned) as % of the bound", pn),
                        (f"{dev} as % of the lean decode", ln)):
            if v:
                print(f"- {n}: {what}: {100 * min(v):.0f} .. {100 * max(v):.0f} %, median {100 * statistics.median(v):.0f} %"
                      f" over {len(v)} cells; >= 80 % on {sum(x >= 0.8 for x in v)}")


if __name__ == "__main__":
    main(sys.argv[1:])
