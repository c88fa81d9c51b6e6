#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Parses the output of scripts/ncu-counters.sh into LSU wavefronts per decoded byte.

For each OUTDIR/ncu_<column>_<codec>_<cfg>.csv (ncu --csv --page raw, one decode launch) and
its .bench.json (decoded bytes of that launch), returns the totals divided by decoded bytes,
split like the paper's breakdown (DESIGN.md §4):
    shared stores        l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
    shared loads (drain) l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld
    other shared         mem_shared - op_ld - op_st (shuffles, atomics, ...)
    global reads         l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read (global + local)
    global writes        l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_write (global + local)
    other                total - all of the above
plus L1/LSU and DRAM utilisation, DRAM bytes per decoded byte, sectors per global load request,
and the decode rate under the profiler (decoded bytes / gpu__time_duration).
A metric ncu did not report is None; nothing is estimated.

Usage: scripts/ncu_parse.py DIR...   (prints a Markdown table)
"""
import csv
import glob
import io
import json
import os
import re
import sys

SCALE = {"": 1, "byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
         "nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3, "second": 1, "%": 1,
         "cycle": 1, "Kcycle": 1e3, "Mcycle": 1e6, "inst": 1, "Kinst": 1e3, "Minst": 1e6,
         "sector": 1, "Ksector": 1e3, "Msector": 1e6, "request": 1, "Krequest": 1e3, "Mrequest": 1e6}


def _num(s):
    s = (s or "").strip().replace(",", "")
    try:
        return float(s)
    except ValueError:
        return None


def read_ncu_csv(text):
    """Returns {metric: value in base units} for the first decode_kernel row."""
    lines = [l for l in text.splitlines() if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if len(rows) < 3:
        return {}
    head, units = rows[0], rows[1]
    for r in rows[2:]:
        if any("decode_kernel" in c for c in r):
            out = {}
            for h, u, v in zip(head, units, r):
                x = _num(v)
                if x is not None and ("__" in h):
                    out[h] = x * SCALE.get(u.strip(), 1)
            return out
    return {}


def derive(m, decoded_bytes):
    g = m.get
    b = float(decoded_bytes)
    tot = g("l1tex__data_pipe_lsu_wavefronts.sum")
    sh = g("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum")
    st = g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")
    ld = g("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
    rd = g("l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum")
    wr = g("l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_write.sum")
    per = lambda x: None if x is None else x / b
    d = {"decoded_bytes": b, "w_total": per(tot), "shared_st": per(st), "shared_ld": per(ld),
         "global_rd": per(rd), "global_wr": per(wr)}
    d["shared_other"] = per(sh - st - ld) if None not in (sh, st, ld) else None
    parts = [st, ld, rd, wr] + ([sh - st - ld] if None not in (sh, st, ld) else [])
    d["other"] = per(tot - sum(parts)) if tot is not None and None not in (st, ld, rd, wr) else None
    t = g("gpu__time_duration.sum")
    d["time_s"] = t
    d["GBps_under_ncu"] = b / t / 1e9 if t else None
    d["lsu_pct"] = g("l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed")
    d["l1_pct"] = g("l1tex__throughput.avg.pct_of_peak_sustained_active")
    d["dram_pct"] = g("dram__throughput.avg.pct_of_peak_sustained_elapsed")
    r, w = g("dram__bytes_read.sum"), g("dram__bytes_write.sum")
    d["dram_rd_per_byte"] = per(r)
    d["dram_wr_per_byte"] = per(w)
    req, sec = g("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), g("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
    d["sectors_per_ld_req"] = sec / req if req and sec is not None else None
    d["local_sectors"] = (g("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum") or 0) + (g("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum") or 0) \
        if ("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum" in m) else None
    d["regs"] = g("launch__registers_per_thread")
    d["occupancy_pct"] = g("sm__warps_active.avg.pct_of_peak_sustained_active")
    return d


def load_dir(files):
    """files: {basename: text} of one ncu folder -> list of profile dicts."""
    out = []
    for name, text in sorted(files.items()):
        m = re.match(r"ncu_(.+)_(onpair16|onpair12|fsst12)_(\w+)\.csv$", name)
        if not m:
            continue
        column, codec, cfg = m.groups()
        bj = files.get(name[:-4] + ".bench.json")
        decoded, label = None, None
        if bj:
            try:
                for e in json.loads(bj).get("benchmarks", []):
                    decoded = e.get("decoded_bytes") or decoded
                    label = e.get("label") or label
            except ValueError:
                pass
        metrics = read_ncu_csv(text)
        if not metrics or not decoded:
            continue
        d = derive(metrics, decoded)
        d.update(column=column, codec=codec, cfg=cfg + (" (%s)" % label if label else ""))
        out.append(d)
    return out


def main():
    files = {}
    for d in sys.argv[1:]:
        for p in glob.glob(os.path.join(d, "ncu_*")):
            if p.endswith((".csv", ".json")):
                files[os.path.basename(p)] = open(p, errors="replace").read()
    fmt = lambda x: "–" if x is None else "%.4f" % x
    print("| column | codec | cfg | w total | shared st | shared ld | other shared | global rd | global wr | other |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for d in load_dir(files):
        print("| %s | %s | %s | %s |" % (d["column"], d["codec"], d["cfg"], " | ".join(
            fmt(d[k]) for k in ("w_total", "shared_st", "shared_ld", "shared_other", "global_rd", "global_wr", "other"))))


if __name__ == "__main__":
    main()
