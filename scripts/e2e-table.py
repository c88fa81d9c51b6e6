#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Markdown table of fastpair_bench_e2e's JSON (bench/e2e_bench.cu) for docs/BENCHMARKS.md.

Usage: scripts/e2e-table.py [--streamed] BENCH_JSON [> e2e.md]

Three tables from the one run, with a header line saying what ran where (GPU, driver, clocks,
commit, date: the context fastpair_bench_e2e records, plus what scripts/device-e2e.sh passes with
--benchmark_context).

1. Decode, one row per column x codec: decoded GB; the automatic configuration's name; its
  GB/s with chars + int64 offsets and with chars only; the paper's kernel (paper_config<W>, W by
  the paper's rule) the same two ways; default / paper (min times, with offsets); a device-to-
  device copy of the decoded size in the same run; the default column's device bytes / file
  bytes; prepare ms. GB/s: min-time (median-time in parentheses).

2. Stored bytes to decoded column, one row per column x codec:
  ratio v2 (v1)     decoded bytes / .fpc file bytes, version 2 (version 1 in parentheses)
  device / file     device bytes of the prepared column / v2 file bytes: the lean default, then
                    with each accelerator alone (length stream, fused codes, split stream, 8-byte
                    row offsets, compact row lengths wherever rows fit 2 bytes; "-" where it does
                    not apply, "in default" where the default builds the row lengths already)
  prepare ms        prepare_fpc_host from pinned memory (+ destruction), min / median
  prepare from device ms  prepare_fpc_device from device memory (+ destruction), min / median
  e2e GB/s          decoded bytes / time of prepare + decode (chars + int64 offsets), from pinned
                    host memory, pageable host memory and device memory: min-time GB/s (median-
                    time GB/s in parentheses)
  pipelined GB/s    decode_fpc_host / decode_fpc_device (preparation and decode pipelined in
                    steps of codes) into the same output, + destruction: pinned, pageable, device
                    (and, where the run has the case, device with prepare_options::borrow_codes,
                    beside the borrowing column's device bytes / file bytes)
  bound GB/s        min(decode GB/s, pinned H2D GB/s x ratio v2)
  decode GB/s       decode_only on the default column vs the old defaults (what prepare built by
                    default before: length stream + fused codes + split stream + row offsets +
                    row lengths): min-time (median-time)

3. Where the run has the decode_<acc> cases: per column x codec, the decode
GB/s of the default column and, for each accelerator alone on top of it, its device bytes / file
bytes and the change of the decode's min time against the default column's ("-" where it does
not apply).
4. Where the run has the streamed_* cases (fpc_streamer, row groups through bounded device
memory): per column x codec, the groups, the streamer's device bytes against what
decode_fpc_host holds (the default column + the whole output), its GB/s from pinned memory beside
decode_fpc_host's and the bound, and from pageable memory beside the pageable copy x ratio.
`--streamed` prints the header line and this table only (a run of those cases alone).
A truncated JSON file (a run cut short) is read up to its last complete benchmark.
"""
import json
import re
import statistics
import sys

CASES = ("h2d_pinned", "h2d_pageable", "d2d", "decode_only", "decode_only_old", "decode_chars",
         "decode_chars_old", "decode_paper", "decode_paper_chars", "decode_ls", "decode_fc", "decode_ss", "decode_ro", "decode_rl", "prepare_only", "prepare_novalidate", "prepare_device", "e2e_pinned", "e2e_pageable", "e2e_device", "pipelined_pinned",
         "pipelined_pageable", "pipelined_device", "pipelined_device_borrow", "streamed_pinned", "streamed_pageable")


def load(path):
    text = open(path, encoding="utf-8").read()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        # A run cut short: keep the benchmarks up to the last complete one.
        cut = text.rfind("\n    },")
        while cut > 0:
            try:
                return json.loads(text[:cut] + "\n    }\n  ]\n}\n")
            except json.JSONDecodeError:
                cut = text.rfind("\n    },", 0, cut)
        raise


def main():
    args = sys.argv[1:]
    only_streamed = "--streamed" in args
    args = [a for a in args if a != "--streamed"]
    if len(args) != 1:
        sys.exit(__doc__)
    data = load(args[0])
    cells = {}  # (column, codec) -> case -> benchmark entry
    order = []
    for b in data.get("benchmarks", []):
        if b.get("run_type") == "aggregate":
            continue
        m = re.match(r"^e2e/([^/]+)/([^/]+)/([a-z0-9_]+)(/.*)?$", b["name"])  # "/iterations:5/manual_time"
        if not m or m.group(3) not in CASES:
            continue
        key = (m.group(1), m.group(2))
        if key not in cells:
            cells[key] = {}
            order.append(key)
        if b.get("error_occurred"):
            cells[key][m.group(3)] = {"error": b.get("error_message", "error")}
        else:
            cells[key][m.group(3)] = b

    def num(x, fmt="{:.0f}"):
        return "-" if x is None else fmt.format(x)

    def counter(c, name):
        for case in CASES:
            if case in c and name in c[case]:
                return c[case][name]
        return None

    def rate(c, case, digits=0):
        b = c.get(case)
        if b is None:
            return "-"
        if "error" in b:
            return "error"
        f = "{:.%df}" % digits
        return f"{f.format(b['GBps_min'])} ({f.format(b['GBps_median'])})"

    ctx = data.get("context", {})
    print(f"GPU {ctx.get('gpu_name', '?')}, driver {ctx.get('gpu_driver', ctx.get('cuda_driver_version', '?'))}, "
          f"SM clock {ctx.get('sm_clock_mhz', '?')} MHz at the start (max {ctx.get('sm_clock_max_mhz', '?')}), "
          f"memory clock {ctx.get('mem_clock_mhz', '?')} MHz, commit {ctx.get('git_commit', '?')}, "
          f"{ctx.get('date', '?')}; {ctx.get('bench_iterations', '?')} timed runs per case after a warm-up, "
          f"L2 flushed before each; first {int(ctx.get('bench_source_bytes', 0)) >> 20} MiB of each column "
          f"tiled to >= {float(ctx.get('bench_target_bytes', 0)) / 1e9:g} GB decoded; e2e = prepare_fpc_host / "
          f"prepare_fpc_device + decode_column (chars + int64 offsets) + the column's destruction, host clock "
          f"to the stream's end; pipelined = decode_fpc_host / decode_fpc_device into the same output + the "
          f"column's destruction.")
    print()
    if only_streamed:
        streamed(cells, order, counter, rate)
        return
    decode_table(cells, order, counter, rate)
    print()
    # prepare_device is a later case: runs without it print the table as before.
    has_pd = any("prepare_device" in c for c in cells.values())
    has_borrow = any("pipelined_device_borrow" in c for c in cells.values())
    print("| column | codec | ratio v2 (v1) | device / file: default | + length stream | + fused codes "
          "| + split stream | + row offsets | + row lengths | prepare ms min / med | "
          + ("prepare from device ms min / med | " if has_pd else "") + "e2e pinned GB/s | e2e pageable GB/s "
          "| e2e device GB/s | pipelined pinned GB/s | pipelined pageable GB/s | pipelined device GB/s "
          + ("| device / file: borrow_codes | pipelined device, borrow_codes GB/s " if has_borrow else "")
          + "| bound GB/s | decode GB/s default | decode GB/s old defaults |")
    print("|---|---|" + "---:|" * (17 + has_pd + 2 * has_borrow))
    h2d, h2p, d2d, skipped = [], [], [], []
    for key in order:
        c = cells[key]
        stored = counter(c, "stored_bytes")
        if stored is None:  # every case failed or was skipped
            errs = sorted({b.get("error", "") for b in c.values()})
            if all("time budget" in e for e in errs):
                skipped.append(f"{key[0]}/{key[1]}")
                continue
            print(f"| {key[0]} | {key[1]} | error: {'; '.join(errs)[:120]} |" + " |" * (16 + has_pd + 2 * has_borrow))
            continue
        dev = lambda name: counter(c, name) / stored if counter(c, name) is not None else None
        fused = counter(c, "fused_applies")
        split = counter(c, "split_applies")
        def ms(case, digits=1):
            b = c.get(case)
            return "-" if b is None else ("error" if "error" in b else
                                           f"{b['ms_min']:.{digits}f} / {b['ms_median']:.{digits}f}")
        bound = None
        for case in ("e2e_pinned", "e2e_pageable", "e2e_device"):
            if case in c and "bound_GBps" in c[case]:
                bound = c[case]["bound_GBps"]
                break
        row = [key[0], key[1],
               f"{counter(c, 'file_ratio'):.2f} ({counter(c, 'file_ratio_v1'):.2f})",
               num(dev("dev_default"), "{:.2f}"),
               num(dev("dev_length_stream"), "{:.2f}"),
               num(dev("dev_fused_codes"), "{:.2f}") if fused else "-",
               num(dev("dev_split_stream"), "{:.2f}") if split else "-",
               num(dev("dev_row_offsets"), "{:.2f}"),
               ("in default" if counter(c, "rl_default") else
                ("-" if counter(c, "dev_row_lengths") == counter(c, "dev_default") else num(dev("dev_row_lengths"), "{:.2f}"))),
               ms("prepare_only")] + ([ms("prepare_device", 2)] if has_pd else []) + [
               rate(c, "e2e_pinned"), rate(c, "e2e_pageable"), rate(c, "e2e_device"),
               rate(c, "pipelined_pinned"), rate(c, "pipelined_pageable"), rate(c, "pipelined_device")] + (
               [num(dev("dev_borrow_codes"), "{:.2f}"), rate(c, "pipelined_device_borrow")] if has_borrow else []) + [
               num(bound),
               rate(c, "decode_only"), rate(c, "decode_only_old")]
        print("| " + " | ".join(row) + " |")
        for case, acc in (("h2d_pinned", h2d), ("h2d_pageable", h2p), ("d2d", d2d)):
            if case in c and "GBps_min" in c[case]:
                acc.append(c[case]["GBps_min"])
    print()
    if skipped:
        print(f"- not run (the run's time budget was spent): {', '.join(skipped)}")
    for label, v in (("H2D pinned", h2d), ("H2D pageable", h2p), ("device-to-device", d2d)):
        if v:
            print(f"- {label} copy in the same run: {min(v):.1f} .. {max(v):.1f} GB/s (min time; "
                  f"median over cells {statistics.median(v):.1f})")
    gains = []
    for key in order:
        c = cells[key]
        new, old = c.get("decode_only"), c.get("decode_only_old")
        if new and old and "GBps_min" in new and "GBps_min" in old:
            gains.append((new["GBps_min"] / old["GBps_min"] - 1) * 100)
    if gains:
        print(f"- decode, lean default vs old defaults: {min(gains):+.1f} .. {max(gains):+.1f} %, median "
              f"{statistics.median(gains):+.1f} % over {len(gains)} cells (min times)")
    for case in ("e2e_pinned", "pipelined_pinned"):
        pct = [c[case]["pct_bound"] for c in cells.values() if case in c and "pct_bound" in c[case]]
        if pct:
            met = sum(p >= 80 for p in pct)
            print(f"- {case.replace('_', ' ')} as % of the bound: {min(pct):.0f} .. {max(pct):.0f} %, median "
                  f"{statistics.median(pct):.0f} %; >= 80 % on {met} of {len(pct)} cells")
    for case in ("e2e_device", "pipelined_device", "pipelined_device_borrow"):
        pct = [c[case]["GBps_min"] / c[case]["decode_GBps"] * 100 for c in cells.values()
               if case in c and "decode_GBps" in c[case]]
        if pct:
            met = sum(p >= 80 for p in pct)
            print(f"- {case.replace('_', ' ')} as % of decode only: {min(pct):.0f} .. {max(pct):.0f} %, median "
                  f"{statistics.median(pct):.0f} %; >= 80 % on {met} of {len(pct)} cells")

    accelerators(cells, order, counter, rate)
    streamed(cells, order, counter, rate)


def streamed(cells, order, counter, rate):
    """Table 4: fpc_streamer against decode_fpc_host, device bytes and GB/s."""
    if not any("streamed_pinned" in c or "streamed_pageable" in c for c in cells.values()):
        return
    print()
    print("| column | codec | decoded GB | ratio | groups | streamer device MB | decode_fpc_host device MB "
          "| streamed pinned GB/s | % of bound | pipelined pinned GB/s | bound GB/s | streamed pageable GB/s "
          "| pageable copy x ratio GB/s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    pcts, shares = [], []
    for key in order:
        c = cells[key]
        sp = c.get("streamed_pinned") or c.get("streamed_pageable")
        if sp is None or "error" in sp:
            if sp is not None:
                print(f"| {key[0]} | {key[1]} | error: {sp['error'][:120]} |" + " |" * 10)
            continue
        ratio, decoded, rows = counter(c, "file_ratio"), counter(c, "decoded_bytes"), counter(c, "rows")
        whole = counter(c, "dev_default") + decoded + 8 * (rows + 1)  # the column + chars + int64 offsets
        shares.append(sp["dev_streamed"] / whole)
        pin = c.get("streamed_pinned")
        pct = "-"
        if pin and "pct_bound" in pin:
            pct = f"{pin['pct_bound']:.0f}"
            pcts.append(pin["pct_bound"])
        bound = pin.get("bound_GBps") if pin else None
        h2p = c.get("h2d_pageable")
        pageable_bound = h2p["GBps_min"] * ratio if h2p and "GBps_min" in h2p else None
        row = [key[0], key[1], f"{decoded / 1e9:.2f}", f"{ratio:.2f}", f"{sp['groups']:.0f}",
               f"{sp['dev_streamed'] / 1e6:.0f}", f"{whole / 1e6:.0f}", rate(c, "streamed_pinned"), pct,
               rate(c, "pipelined_pinned"), "-" if bound is None else f"{bound:.0f}", rate(c, "streamed_pageable"),
               "-" if pageable_bound is None else f"{pageable_bound:.0f}"]
        print("| " + " | ".join(row) + " |")
    print()
    if shares:
        print(f"- streamer device bytes / decode_fpc_host's: {min(shares):.3f} .. {max(shares):.3f}, median "
              f"{statistics.median(shares):.3f} over {len(shares)} cells")
    if pcts:
        print(f"- streamed pinned as % of the bound: {min(pcts):.0f} .. {max(pcts):.0f} %, median "
              f"{statistics.median(pcts):.0f} %; >= 80 % on {sum(p >= 80 for p in pcts)} of {len(pcts)} cells")


def decode_table(cells, order, counter, rate):
    """Table 1: the automatic configuration and the paper's kernel, with and without offsets,
    beside a device-to-device copy of the decoded size."""
    print("| column | codec | decoded GB | automatic config | GB/s chars + offsets | GB/s chars | paper config "
          "| paper GB/s chars + offsets | paper GB/s chars | default / paper | copy GB/s | device / file | prepare ms min / med |")
    print("|---|---|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    ratios = []
    for key in order:
        c = cells[key]
        stored = counter(c, "stored_bytes")
        if stored is None:
            continue
        dflt, paper = c.get("decode_only"), c.get("decode_paper")
        ok = lambda b: b is not None and "error" not in b
        x = "-"
        if ok(dflt) and ok(paper):
            r = paper["ms_min"] / dflt["ms_min"]
            ratios.append(r)
            x = f"{r:.2f}"
        prep = c.get("prepare_only")
        prep_s = "-" if not ok(prep) else f"{prep['ms_min']:.1f} / {prep['ms_median']:.1f}"
        row = [key[0], key[1], f"{counter(c, 'decoded_bytes') / 1e9:.2f}",
               f"`{dflt['label']}`" if ok(dflt) and dflt.get("label") else "-",
               rate(c, "decode_only"), rate(c, "decode_chars"),
               f"`{paper['label']}`" if ok(paper) and paper.get("label") else "-",
               rate(c, "decode_paper"), rate(c, "decode_paper_chars"), x, rate(c, "d2d"),
               f"{counter(c, 'dev_default') / stored:.2f}", prep_s]
        print("| " + " | ".join(row) + " |")
    if ratios:
        print()
        print(f"- default / paper (min times, chars + offsets): {min(ratios):.2f} .. {max(ratios):.2f}x, median "
              f"{statistics.median(ratios):.2f}x over {len(ratios)} cells")


ACCELERATORS = (("decode_ls", "dev_length_stream", "length stream"), ("decode_fc", "dev_fused_codes", "fused codes"),
                ("decode_ss", "dev_split_stream", "split stream"), ("decode_ro", "dev_row_offsets", "row offsets"),
                ("decode_rl", "dev_row_lengths", "row lengths"))


def accelerators(cells, order, counter, rate):
    """The per-accelerator table: device bytes / file and decode gain of each accelerator alone."""
    if not any(a in c for c in cells.values() for a, _, _ in ACCELERATORS):
        return
    print()
    print("| column | codec | decode GB/s default | " +
          " | ".join(f"+ {label}: device / file, decode time" for _, _, label in ACCELERATORS) + " |")
    print("|---|---|---:|" + "---:|" * len(ACCELERATORS))
    gains = {a: [] for a, _, _ in ACCELERATORS}
    for key in order:
        c = cells[key]
        stored, base = counter(c, "stored_bytes"), c.get("decode_only")
        if stored is None or base is None or "error" in base:
            continue
        row = [key[0], key[1], rate(c, "decode_only")]
        for case, dev, _ in ACCELERATORS:
            b = c.get(case)
            if b is None or "error" in b:
                row.append("-")
                continue
            g = (b["ms_min"] / base["ms_min"] - 1) * 100
            gains[case].append(g)
            row.append(f"{counter(c, dev) / stored:.2f}, {g:+.1f} %")
        print("| " + " | ".join(row) + " |")
    print()
    for case, _, label in ACCELERATORS:
        v = gains[case]
        if v:
            faster = sum(g < -1 for g in v)
            print(f"- {label}: decode time {min(v):+.1f} .. {max(v):+.1f} %, median {statistics.median(v):+.1f} % "
                  f"over {len(v)} cells; more than 1 % faster on {faster}")


if __name__ == "__main__":
    main()
