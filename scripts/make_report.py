#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Writes the generated part of docs/notes/paper-figures.md and the plots under docs/ from measured files.

Input: the folders (or .tgz archives) that scripts/bench-report.sh wrote on the GPU machine,
default docs/bench-data/report/ (searched recursively; only baselines_*.json, sweeps_*.json,
nvcomp_*.json, env.txt, ncu_*.csv + ncu_*.bench.json are read), and
docs/bench-data/registers.json (scripts/sweep_registers.py, compiled here).

It only formats what those files contain; the one exception is the paper's published figures
and our earlier anchors, which are constants below, each with its source (DESIGN.md §4/§5,
ANCHORS.md). A part that was not run is reported as missing, never filled in.

Output: docs/notes/paper-figures.md between <!-- BEGIN GENERATED --> and <!-- END GENERATED --> (the
rest of the file is kept as is; the markers are appended if absent) and docs/notes/bench_*.png.

Usage: scripts/make_report.py [--doc docs/notes/paper-figures.md] [--plots docs] [INPUT...]
Needs python3 and matplotlib (Debian: python3-matplotlib, i.e. run it with /usr/bin/python3).
"""
import argparse
import glob
import io
import json
import math
import os
import re
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_parse  # noqa: E402

BEGIN, END = "<!-- BEGIN GENERATED -->", "<!-- END GENERATED -->"
CODECS = ["onpair16", "onpair12", "fsst12"]
CODEC_TITLE = {"onpair16": "OnPair-16", "onpair12": "OnPair-12", "fsst12": "FSST-12"}
COLUMNS = ["zh_text", "en_wiki", "code_lines", "urls", "log_android", "log_windows", "log_spark",
           "tpch_l_comment", "tpch_ps_comment", "tpch_c_address", "tpch_o_clerk", "tpch_l_shipinstruct"]

# ---- Published / earlier figures (constants, cited) ------------------------------------------------
# DESIGN.md §5 (the paper's figures). Analogous columns: Loghub Windows = log_windows,
# ClickBench URL = urls, Wikipedia text = en_wiki.
PAPER = {
    ("log_windows", "onpair16"): "B300 1620 (paper's fastest column); H100 best 1413",
    ("log_windows", "onpair12"): "H100 1336 (best OnPair-12 kernel)",
    ("urls", "onpair16"): "H100 ≈951",
    ("urls", "onpair12"): "H100 ≈848",
    ("urls", "fsst12"): "H100 ≈827",
    ("en_wiki", "onpair12"): "H100 ≈751",
    ("en_wiki", "fsst12"): "H100 ≈712",
}
PAPER_RANGES = ("Paper, B300, 10 real columns: OnPair-12 952–1529 GB/s, OnPair-16 814–1620 GB/s; "
                "B300 Decompression Engine best on Windows 650 GB/s; A100 GSST 191 GB/s (DESIGN.md §5).")
# ANCHORS.md §1: the FastPair authors' early kernels on OUR H200, min GB/s.
AUTHORS_H200 = {
    ("log_windows", "onpair16"): 1252, ("log_windows", "onpair12"): 1243,
    ("tpch_l_comment", "onpair16"): 979, ("tpch_l_comment", "onpair12"): 1025,
    ("urls", "onpair16"): 601, ("urls", "onpair12"): 619,
    ("en_wiki", "onpair16"): 564, ("en_wiki", "onpair12"): 624,
    ("zh_text", "onpair16"): 515, ("zh_text", "onpair12"): 592,
}
# ANCHORS.md §1b: Vortex's production GPU FSST-8 decoder on our H200, GB/s.
VORTEX_H200 = {"log_windows": 281, "tpch_l_comment": 249, "urls": 189, "en_wiki": 121, "zh_text": 77}
# DESIGN.md §4: paper's counters, H100, Windows, OnPair-12, 1336 GB/s (wavefronts per output byte).
PAPER_W = {"w_total": 0.193, "shared_st": 0.110, "global_rd": 0.053, "shared_other": 0.011,
           "shared_ld": 0.009, "global_wr": 0.0095}
PAPER_NVCOMP = "Paper, H100: software Zstd (nvCOMP) on ClickBench URL ≈ 108–134 GB/s (DESIGN.md §5)."


# ---- Loading ------------------------------------------------------------------------------------------
def collect(inputs):
    """Returns {relative path: text} of every file under the inputs (folders or .tgz)."""
    files = {}
    for inp in inputs:
        if os.path.isdir(inp):
            for p in glob.glob(os.path.join(inp, "**", "*"), recursive=True):
                if os.path.isfile(p) and not p.endswith(".tgz"):
                    files[os.path.relpath(p, inp)] = open(p, errors="replace").read()
            for p in glob.glob(os.path.join(inp, "**", "*.tgz"), recursive=True):
                files.update(read_tgz(p))
        elif inp.endswith((".tgz", ".tar.gz")):
            files.update(read_tgz(inp))
    return files


def read_tgz(path):
    out = {}
    with tarfile.open(path) as t:
        for m in t.getmembers():
            if m.isfile():
                out[os.path.basename(path) + "/" + m.name] = t.extractfile(m).read().decode(errors="replace")
    return out


def base_name(run_name):
    return re.sub(r"/(iterations:\d+|manual_time|min_time:[^/]+|real_time)", "", run_name)


def load_benchmarks(files):
    """{name: entry} over all benchmark JSON files (later files win), plus the contexts."""
    entries, contexts = {}, []
    for path, text in sorted(files.items()):
        if not re.match(r"(baselines|sweeps|nvcomp)_.*\.json$", os.path.basename(path)):
            continue  # only the files scripts/bench-report.sh writes
        try:
            j = json.loads(text)
        except ValueError:
            continue
        if "benchmarks" not in j:
            continue
        contexts.append((path, j.get("context", {})))
        for e in j["benchmarks"]:
            if e.get("run_type", "iteration") != "iteration":
                continue
            e = dict(e)
            e["_file"] = path
            entries[base_name(e.get("run_name", e["name"]))] = e
    return entries, contexts


def ok(e):
    return e is not None and not e.get("error_occurred") and e.get("GBps_min") is not None


# ---- Formatting helpers ----------------------------------------------------------------------------
def f0(x):
    return "–" if x is None else "%.0f" % x


def f1(x):
    return "–" if x is None else "%.1f" % x


def f2(x):
    return "–" if x is None else "%.2f" % x


def pct(x):
    return "–" if x is None else "%.0f %%" % x


def gb(e):
    return "–" if not ok(e) else "%.0f / %.0f" % (e["GBps_min"], e["GBps_median"])


def err(e):
    return "error: " + e.get("error_message", "?") if e is not None and e.get("error_occurred") else None


# ---- Sections ------------------------------------------------------------------------------------------
def machine_section(files, contexts):
    out = ["### Machine and run", ""]
    envs = sorted((p, t) for p, t in files.items() if os.path.basename(p) == "env.txt")
    ctx = contexts[0][1] if contexts else {}
    if not envs and not ctx:
        return out + ["No measurement files found: run `scripts/bench-report.sh` on the GPU machine (see above).", ""]
    if ctx:
        drv = ctx.get("cuda_driver_version")
        out.append("- GPU: %s (cc %s, %s SMs, L2 %s MiB, max SM clock %s MHz, max memory clock %s MHz)" % (
            ctx.get("gpu_name", "?"), ctx.get("gpu_cc", "?"), ctx.get("gpu_sms", "?"),
            f0(int(ctx["gpu_l2_bytes"]) / 2**20) if "gpu_l2_bytes" in ctx else "?",
            f0(int(ctx["gpu_sm_clock_khz_max"]) / 1000) if "gpu_sm_clock_khz_max" in ctx else "?",
            f0(int(ctx["gpu_mem_clock_khz_max"]) / 1000) if "gpu_mem_clock_khz_max" in ctx else "?"))
        out.append("- CUDA driver API %s, runtime %s; host: %s CPUs (%s)" % (
            drv, ctx.get("cuda_runtime_version", "?"), ctx.get("num_cpus", "?"), ctx.get("host_name", "?")))
        out.append("- Output per column: %s bytes (tiled); source text per column: first %s bytes" % (
            ctx.get("bench_target_bytes", "?"), ctx.get("bench_source_bytes", "?")))
        dates = sorted({c.get("date", "") for _, c in contexts if c.get("date")})
        if dates:
            out.append("- Benchmark runs: %s … %s (%d JSON files)" % (dates[0], dates[-1], len(contexts)))
    if envs:
        text = envs[0][1]
        smi = [l for l in text.splitlines() if l.startswith("name,") or re.match(r"^NVIDIA|^[A-Z].*, \d", l)]
        commit = re.search(r"git_commit: (\S+)", text)
        cpu = re.search(r"host_cpu: (.*)", text)
        if commit:
            out.append("- Source commit on the GPU machine: `%s`; host CPU: %s" % (commit.group(1), cpu.group(1) if cpu else "?"))
        if smi:
            out += ["", "nvidia-smi at the start of part `%s`:" % envs[0][0].split("/")[-2] if "/" in envs[0][0] else "", "",
                    "```", *smi[:3], "```"]
    return out + [""]


def main_tables(E, plots, figs):
    out = ["### Decode throughput per column and codec (one run per column)", "",
           "GB/s = decoded bytes / kernel time, min / median of the timed iterations. *default* = "
           "`decode_column()` with the automatic configuration; *paper* = the paper-faithful "
           "reference `paper_config<W>` (K=6, H=1, T=256, B=4, W by the paper's rule: 16 iff > 60 % of tokens exceed 8 B); *naive* = one thread per row, "
           "offset-table lookup and byte-wise global stores; *CPU* = the reference decoder's loop on all "
           "host cores; *copy* = `cudaMemcpyAsync` device-to-device of the same output size (one "
           "direction). % copy and % roof use the default config's min time; roof = HBM roofline "
           "2·copy·L/(L+2). Ratio = raw bytes / (dictionary + packed codes), row offsets excluded.", ""]
    any_row = False
    for codec in CODECS:
        rows = []
        for col in COLUMNS:
            pre = "%s/%s" % (col, codec)
            a, p = E.get("decode/%s/cfg:auto" % pre), E.get("decode/%s/cfg:paper" % pre)
            n, c, cp = E.get("naive/" + pre), E.get("cpu/" + pre), E.get("copy/" + pre)
            if not any(x is not None for x in (a, p, n, c, cp)):
                continue
            s = a if ok(a) else p if ok(p) else None
            ratio = "–" if not ok(a) else "%.2f" % (a["GBps_min"] / p["GBps_min"]) if ok(p) else "–"
            anchors = []
            if (col, codec) in AUTHORS_H200:
                anchors.append("H200 authors' kernels %d" % AUTHORS_H200[(col, codec)])
            if (col, codec) in PAPER:
                anchors.append(PAPER[(col, codec)])
            pgb = gb(p) if ok(p) or not err(p) else err(p)
            if ok(p) and p.get("W") is not None:
                pgb += " (W%d)" % p["W"]
            rows.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                col, f2(s and s.get("ratio")), f1(s and s.get("mean_tok")),
                pct(s and 100 * s.get("le8", 0)), "`%s`" % a["label"] if ok(a) and a.get("label") else f0(s and s.get("W")),
                gb(a) if ok(a) or not err(a) else err(a), pct(a.get("pct_copy") if ok(a) else None),
                pct(a.get("pct_roof") if ok(a) else None), pgb, ratio,
                gb(n) if ok(n) or not err(n) else err(n), gb(c) if ok(c) or not err(c) else err(c),
                gb(cp), "; ".join(anchors) or ""))
        if rows:
            any_row = True
            out += ["#### " + CODEC_TITLE[codec], "",
                    "| column | ratio | mean token B | ≤ 8 B | default config | default GB/s | % copy | % roof | paper GB/s | default/paper | naive GB/s | CPU GB/s | copy GB/s | published / earlier (GB/s) |",
                    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|", *rows, ""]
    if not any_row:
        return out + ["Not measured yet (parts suite1–suite3 missing).", ""]
    out += ["Published figures are on other GPUs or kernels and are context, not a like-for-like "
            "comparison: " + PAPER_RANGES + " \"H200 authors' kernels\": ANCHORS.md §1 (their early "
            "public kernels on our H200, same columns, min of 100). Vortex's FSST-8 GPU decoder on our "
            "H200 (ANCHORS.md §1b): " + ", ".join("%s %d" % kv for kv in VORTEX_H200.items()) + " GB/s.", ""]
    cpu_threads = sorted({int(e["threads"]) for k, e in E.items() if k.startswith("cpu/") and ok(e) and "threads" in e})
    if cpu_threads:
        out += ["CPU decoder threads: %s." % ", ".join(map(str, cpu_threads)), ""]
    if plots is not None:
        png = overview_plot(E, plots)
        if png:
            figs.append(png)
            out += ["![default vs paper vs naive vs copy](%s)" % png, ""]
    return out


def overview_plot(E, plots):
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(CODECS), 1, figsize=(12, 10), sharex=True)
    drawn = False
    for ax, codec in zip(axes, CODECS):
        kinds = [("decode/{}/cfg:auto", "default"), ("decode/{}/cfg:paper", "paper"), ("naive/{}", "naive"),
                 ("cpu/{}", "CPU"), ("copy/{}", "copy")]
        width = 0.16
        for i, (pat, label) in enumerate(kinds):
            xs, ys = [], []
            for j, col in enumerate(COLUMNS):
                e = E.get(pat.format("%s/%s" % (col, codec)))
                if ok(e):
                    xs.append(j + (i - 2) * width)
                    ys.append(e["GBps_min"])
            if ys:
                ax.bar(xs, ys, width, label=label)
                drawn = True
        ax.set_yscale("log")
        ax.set_ylabel(CODEC_TITLE[codec] + "  GB/s")
        ax.grid(axis="y", alpha=0.3)
    if not drawn:
        plt.close(fig)
        return None
    axes[0].legend(ncol=5, fontsize=8)
    axes[-1].set_xticks(range(len(COLUMNS)))
    axes[-1].set_xticklabels(COLUMNS, rotation=30, ha="right")
    fig.suptitle("Decode GB/s (min time), same run per column")
    fig.tight_layout()
    return save(fig, plots, "bench_overview.png")


def save(fig, plots, name):
    import matplotlib.pyplot as plt
    path = os.path.join(plots, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return name


def lsq(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    syy = sum((y - my) ** 2 for y in ys)
    a = sxy / sxx if sxx else float("nan")
    b = my - a * mx
    r = sxy / math.sqrt(sxx * syy) if sxx and syy else float("nan")
    return a, b, r


def fig5_section(E, plots, figs):
    out = ["### Throughput vs mean token length (paper Figure 5)", "",
           "Default configuration, min time, every measured column; least-squares line GB/s = a·L + b per codec "
           "(L = mean decoded bytes per code) and Pearson r. codes/s = GB/s ÷ L.", ""]
    series = {}
    for codec in CODECS:
        pts = []
        for col in COLUMNS:
            e = E.get("decode/%s/%s/cfg:auto" % (col, codec))
            if ok(e) and e.get("mean_tok"):
                pts.append((e["mean_tok"], e["GBps_min"], col))
        if len(pts) >= 2:
            series[codec] = pts
    if not series:
        return out + ["Not measured yet (parts suite1–suite3 missing).", ""]
    out += ["| codec | columns | a (GB/s per byte of L) | b (GB/s) | r | Gcodes/s range |", "|---|---|---|---|---|---|"]
    for codec, pts in series.items():
        a, b, r = lsq([p[0] for p in pts], [p[1] for p in pts])
        cps = [p[1] / p[0] for p in pts]
        out.append("| %s | %d | %.1f | %.1f | %.3f | %.0f–%.0f |" % (CODEC_TITLE[codec], len(pts), a, b, r, min(cps), max(cps)))
    out.append("")
    if plots is not None:
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(8, 5.5))
        for codec, pts in series.items():
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            a, b, r = lsq(xs, ys)
            sc = ax.scatter(xs, ys, label="%s (r = %.2f)" % (CODEC_TITLE[codec], r))
            lo, hi = min(xs), max(xs)
            ax.plot([lo, hi], [a * lo + b, a * hi + b], color=sc.get_facecolor()[0], alpha=0.6)
            for x, y, col in pts:
                ax.annotate(col, (x, y), fontsize=6, alpha=0.7)
        ax.set_xlabel("mean token length L (bytes per code)")
        ax.set_ylabel("decode GB/s (default config, min)")
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        figs.append(save(fig, plots, "bench_fig5_length.png"))
        out += ["![throughput vs mean token length](bench_fig5_length.png)", ""]
    return out


def sweep_entries(E, study):
    out = []
    for k, e in E.items():
        m = re.match(r"sweep/%s/([^/]+)/([^/]+)/cfg:(\S+)$" % study, k)
        if m and ok(e):
            out.append((m.group(1), m.group(2), m.group(3), e))
    return out


def fig2_section(E, plots, figs):
    out = ["### K × T × B (paper Figure 2)", ""]
    pts = sweep_entries(E, "fig2")
    if not pts:
        return out + ["Not measured yet (part sweeps missing).", ""]
    col, codec = pts[0][0], pts[0][1]
    out += ["%s, %s, W = 8, H = 1; min GB/s, and resident blocks per SM (cudaOccupancy) in brackets. "
            "Registers and spills per config: see the table at the end." % (col, CODEC_TITLE.get(codec, codec)), ""]
    grid = {}
    for _, _, cfg, e in pts:
        grid[(int(e["T"]), int(e["B"]), int(e["K"]))] = e
    ks = sorted({k for (_, _, k) in grid})
    tbs = sorted({(t, b) for (t, b, _) in grid})
    out += ["| T, B | " + " | ".join("K=%d" % k for k in ks) + " |", "|---|" + "---|" * len(ks)]
    for t, b in tbs:
        cells = []
        for k in ks:
            e = grid.get((t, b, k))
            cells.append("–" if e is None else "%.0f (%s)%s" % (e["GBps_min"], f0(e.get("blocks_per_sm")),
                                                                 " spill" if e.get("local_bytes") else ""))
        out.append("| %d, %d | %s |" % (t, b, " | ".join(cells)))
    best = max(pts, key=lambda p: p[3]["GBps_min"])
    out += ["", "Best: `%s` at %.0f GB/s. (\"spill\": the kernel uses local memory.)" % (best[2], best[3]["GBps_min"]), ""]
    if plots is not None:
        import matplotlib.pyplot as plt
        fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
        ts = sorted({t for t, _ in tbs})
        bl = sorted({b for _, b in tbs})
        colors = {t: "C%d" % i for i, t in enumerate(ts)}
        styles = {b: ["-", "--", ":", "-."][i % 4] for i, b in enumerate(bl)}
        for t, b in tbs:
            kk = [k for k in ks if (t, b, k) in grid]
            kw = dict(marker="o", color=colors[t], ls=styles[b])
            ax1.plot(kk, [grid[(t, b, k)]["GBps_min"] for k in kk], label="T=%d, B=%d" % (t, b), **kw)
            ax2.plot(kk, [grid[(t, b, k)].get("blocks_per_sm", float("nan")) for k in kk], **kw)
        ax1.set_ylabel("GB/s (min)")
        ax2.set_ylabel("resident blocks / SM")
        ax2.set_xlabel("K (tokens per thread)")
        ax1.legend(fontsize=7, ncol=3)
        ax1.grid(alpha=0.3)
        ax2.grid(alpha=0.3)
        fig.suptitle("K × T × B, %s %s, W=8, H=1" % (col, CODEC_TITLE.get(codec, codec)))
        fig.tight_layout()
        figs.append(save(fig, plots, "bench_fig2_ktb.png"))
        out += ["![K x T x B](bench_fig2_ktb.png)", ""]
    return out


def fig3_section(E, plots, figs):
    out = ["### K × H (paper Figure 3)", ""]
    pts = sweep_entries(E, "fig3")
    if not pts:
        return out + ["Not measured yet (part sweeps missing).", ""]
    col, codec = pts[0][0], pts[0][1]
    out += ["%s, %s, W = 8, T = 256; min GB/s per (K, H), one table per B." % (col, CODEC_TITLE.get(codec, codec)), ""]
    grid = {(int(e["B"]), int(e["K"]), int(e["H"])): e for _, _, _, e in pts}
    bs = sorted({b for (b, _, _) in grid})
    ks = sorted({k for (_, k, _) in grid})
    hs = sorted({h for (_, _, h) in grid})
    for b in bs:
        out += ["B = %d:" % b, "", "| H | " + " | ".join("K=%d" % k for k in ks) + " |", "|---|" + "---|" * len(ks)]
        for h in hs:
            cells = []
            for k in ks:
                e = grid.get((b, k, h))
                cells.append("–" if e is None else "%.0f%s" % (e["GBps_min"], " spill" if e.get("local_bytes") else ""))
            out.append("| %d | %s |" % (h, " | ".join(cells)))
        out.append("")
    if plots is not None:
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(1, len(bs), figsize=(4.2 * len(bs), 4), sharey=True)
        axes = axes if len(bs) > 1 else [axes]
        for ax, b in zip(axes, bs):
            for h in hs:
                kk = [k for k in ks if (b, k, h) in grid]
                ax.plot(kk, [grid[(b, k, h)]["GBps_min"] for k in kk], marker="o", label="H=%d" % h)
            ax.set_title("T=256, B=%d" % b)
            ax.set_xlabel("K")
            ax.grid(alpha=0.3)
        axes[0].set_ylabel("GB/s (min)")
        axes[0].legend()
        fig.tight_layout()
        figs.append(save(fig, plots, "bench_fig3_kh.png"))
        out += ["![K x H](bench_fig3_kh.png)", ""]
    return out


def fig4_section(E, plots, figs):
    out = ["### W = 8 vs W = 16 against the share of tokens ≤ 8 bytes (paper Figure 4)", ""]
    pts = sweep_entries(E, "fig4")
    if not pts:
        return out + ["Not measured yet (parts fig4a/fig4b missing).", ""]
    best = {}
    # Config names: since 2026-12-03 the default emit (register_words) has no suffix and the
    # paper's emit is ".staged"; before, staged had none and register_words was ".words".
    new_names = any(cfg.endswith(".staged") for _, _, cfg, _ in pts)
    for col, codec, cfg, e in pts:
        emit = "staged" if cfg.endswith(".staged") or (not new_names and not cfg.endswith(".words")) else "words"
        key = (col, codec, emit, int(e["W"]))
        if key not in best or e["GBps_min"] > best[key][1]["GBps_min"]:
            best[key] = (cfg, e)
    rows, plot = [], {}
    for codec in CODECS:
        for col in COLUMNS:
            cells, share = [], None
            for emit in ("staged", "words"):
                b8, b16 = best.get((col, codec, emit, 8)), best.get((col, codec, emit, 16))
                if not b8 or not b16:
                    cells += ["–", "–", "–"]
                    continue
                r = b8[1]["GBps_min"] / b16[1]["GBps_min"]
                share = b8[1].get("le8")
                cells += ["%.0f (`%s`)" % (b8[1]["GBps_min"], b8[0]), "%.0f (`%s`)" % (b16[1]["GBps_min"], b16[0]), "%.2f" % r]
                plot.setdefault((codec, emit), []).append((share, r, col))
            if all(c == "–" for c in cells):
                continue
            auto = E.get("decode/%s/%s/cfg:auto" % (col, codec))
            rows.append("| %s | %s | %s | %s | %s |" % (
                col, CODEC_TITLE[codec], pct(100 * share if share is not None else None), " | ".join(cells),
                f0(auto.get("W")) if ok(auto) else "–"))
    out += ["Best min GB/s over the fig4 configuration set for each W, with the paper's staged emit and with "
            "register_words; W8/W16 = ratio of the two bests. *auto W* = the W the library chose for the "
            "default config in the suite run (the paper's rule: W = 16 when more than 60 % of tokens exceed 8 bytes).", "",
            "| column | codec | ≤ 8 B | staged best W=8 | staged best W=16 | staged W8/W16 | words best W=8 | words best W=16 | words W8/W16 | auto W |",
            "|---|---|---|---|---|---|---|---|---|---|", *rows, ""]
    if plots is not None and plot:
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(8, 5))
        for (codec, emit), p in sorted(plot.items()):
            ax.scatter([100 * s for s, _, _ in p], [r for _, r, _ in p], label="%s, %s" % (CODEC_TITLE[codec], emit),
                       marker="o" if emit == "staged" else "^")
            for s, r, col in p:
                ax.annotate(col, (100 * s, r), fontsize=6, alpha=0.7)
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.axvline(40, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("share of tokens ≤ 8 bytes (%)")
        ax.set_ylabel("best W=8 / best W=16")
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        figs.append(save(fig, plots, "bench_fig4_w.png"))
        out += ["![W=8 vs W=16](bench_fig4_w.png)", ""]
    return out


def registers_section(files, E):
    out = ["### Registers, shared memory and spills per configuration", ""]
    reg = next((t for p, t in files.items() if os.path.basename(p) == "registers.json"), None)
    if reg is None:
        return out + ["Not generated (run `scripts/sweep_registers.py`).", ""]
    j = json.loads(reg)
    measured = {}
    for k, e in E.items():
        m = re.match(r"sweep/\w+/[^/]+/[^/]+/cfg:(\S+)$", k)
        if m and ok(e):
            measured.setdefault(m.group(1), e)
    out += ["From `%s` (compiled on the build machine); *blocks/SM* = measured cudaOccupancy value in "
            "the GPU run where available, else the sm_90 prediction in brackets." % j.get("source", "?"), "",
            "<details><summary>%d configurations (%d with spills)</summary>" % (
                len(j["configs"]), sum(1 for c in j["configs"] if c["spill_st"] or c["spill_ld"])), "",
            "| config | regs | reg cap | stack B | spill st / ld B | dyn smem B | blocks/SM |", "|---|---|---|---|---|---|---|"]
    for c in j["configs"]:
        e = measured.get(c["config"])
        blocks = f0(e.get("blocks_per_sm")) if e is not None and "blocks_per_sm" in e else "(%d)" % c["blocks_pred"]
        out.append("| %s | %d | %d | %d | %d / %d | %d | %s |" % (
            c["config"], c["regs"], c["reg_cap"], c["stack"], c["spill_st"], c["spill_ld"], c["dyn_smem"], blocks))
    return out + ["", "</details>", ""]


def ncu_section(files):
    out = ["### Hardware counters: LSU wavefronts per decoded byte", ""]
    groups = {}
    for p, t in files.items():
        if os.path.basename(p).startswith("ncu_"):
            groups.setdefault(os.path.dirname(p), {})[os.path.basename(p)] = t
    profs = []
    for g in groups.values():
        profs += ncu_parse.load_dir(g)
    if not profs:
        return out + ["Not measured yet (part ncu missing or no counters could be read).", ""]
    keys = ["w_total", "shared_st", "shared_ld", "shared_other", "global_rd", "global_wr", "other"]
    f4 = lambda x: "–" if x is None else "%.4f" % x
    out += ["One decode launch each, `ncu --clock-control none` (scripts/ncu-counters.sh); values are "
            "wavefronts ÷ decoded bytes. shared ld = drain loads; other shared = shared wavefronts that are "
            "neither plain loads nor stores (shuffles, atomics); global rd/wr include local memory; other = "
            "total − the listed parts.", "",
            "| column | codec | config | w total | shared st | shared ld | other shared | global rd | global wr | other | LSU % peak | L1 % | DRAM % | GB/s under ncu | sectors / ld req |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for d in sorted(profs, key=lambda d: (d["column"], d["codec"], d["cfg"])):
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            d["column"], CODEC_TITLE.get(d["codec"], d["codec"]), d["cfg"], " | ".join(f4(d[k]) for k in keys),
            f1(d["lsu_pct"]), f1(d["l1_pct"]), f1(d["dram_pct"]), f0(d["GBps_under_ncu"]), f1(d["sectors_per_ld_req"])))
    out.append("| *paper, H100* | *OnPair-12* | *Windows, 1336 GB/s* | %s | – | – | – | – | – |" % " | ".join(
        f4(PAPER_W.get(k)) for k in keys))
    out += ["", "Paper row: DESIGN.md §4 (shared stores 57 %, global reads 27 %; the paper's \"shuffles/other "
            "shared\" is in *other shared*, its \"drain loads\" in *shared ld*).", ""]
    note = next((t for p, t in files.items() if os.path.basename(p) == "ncu_metrics.txt"), None)
    if note:
        dropped = [l for l in note.splitlines() if l.startswith("dropped")]
        if dropped:
            out += ["Metrics ncu did not accept: " + "; ".join(l.split(": ", 1)[-1] for l in dropped) + ".", ""]
    return out


def nvcomp_section(E, contexts):
    out = ["### nvCOMP on the same columns (optional comparison)", ""]
    pts = {}
    for k, e in E.items():
        m = re.match(r"nvcomp/([^/]+)/([^/]+)/chunk:(\d+)$", k)
        if m:
            pts[(m.group(1), m.group(2), int(m.group(3)))] = e
    if not pts:
        return out + ["Not measured in this report. `fastpair_bench_nvcomp` is built when nvCOMP is found "
                      "(scripts/fetch-nvcomp.sh unpacks the PyPI wheel `nvidia-libnvcomp-cu13`, which carries "
                      "`libnvcomp.so.6` and the C/C++ headers, into .nvcomp/); run part `nvcomp`. " + PAPER_NVCOMP, ""]
    ver = next((c["nvcomp_version"] for _, c in contexts if "nvcomp_version" in c), "?")
    algos = ["lz4", "snappy", "zstd", "gdeflate", "ans"]
    chunks = sorted({c for (_, _, c) in pts})
    out += ["nvCOMP %s batched API, default options, chunks of %s bytes, GPU compression; GB/s = decoded "
            "bytes / decompression time (min / median), ratio = raw / compressed chunk bytes; every output byte "
            "compared once. *FastPair best* = the best of our three codecs' default config in the suite run." %
            (ver, ", ".join(map(str, chunks))), "",
            "| column | chunk | " + " | ".join(a + " GB/s (ratio)" for a in algos) + " | FastPair best GB/s (codec, ratio) |",
            "|---|---|" + "---|" * (len(algos) + 1)]
    for col in COLUMNS:
        for ch in chunks:
            if not any((col, a, ch) in pts for a in algos):
                continue
            cells = []
            for a in algos:
                e = pts.get((col, a, ch))
                cells.append("–" if e is None else err(e) or "%.0f / %.0f (%.2f)" % (e["GBps_min"], e["GBps_median"], e["ratio"]))
            fp = [(E.get("decode/%s/%s/cfg:auto" % (col, c)), c) for c in CODECS]
            fp = [(e, c) for e, c in fp if ok(e)]
            bestfp = max(fp, key=lambda x: x[0]["GBps_min"]) if fp else None
            out.append("| %s | %d | %s | %s |" % (col, ch, " | ".join(cells), "–" if not bestfp else "%.0f (%s, %.2f)" % (
                bestfp[0]["GBps_min"], CODEC_TITLE[bestfp[1]], bestfp[0]["ratio"])))
    return out + ["", PAPER_NVCOMP, ""]


def generate(files, plots):
    E, contexts = load_benchmarks(files)
    figs = []
    lines = ["## Results", "",
             "_Generated by `scripts/make_report.py` from the files in `docs/bench-data/report/` and "
             "`docs/bench-data/registers.json`; do not edit by hand._", ""]
    lines += machine_section(files, contexts)
    lines += main_tables(E, plots, figs)
    lines += fig5_section(E, plots, figs)
    lines += fig2_section(E, plots, figs)
    lines += fig3_section(E, plots, figs)
    lines += fig4_section(E, plots, figs)
    lines += ncu_section(files)
    lines += nvcomp_section(E, contexts)
    lines += registers_section(files, E)
    errors = sorted(k for k, e in E.items() if e.get("error_occurred"))
    if errors:
        lines += ["### Benchmarks that reported an error", ""] + [
            "- `%s`: %s" % (k, E[k].get("error_message", "?")) for k in errors] + [""]
    return "\n".join(lines).rstrip() + "\n", figs


def write_doc(doc, body):
    text = open(doc).read() if os.path.exists(doc) else ""
    block = BEGIN + "\n" + body + END
    if BEGIN in text and END in text:
        pre, rest = text.split(BEGIN, 1)
        _, post = rest.split(END, 1)
        text = pre + block + post
    else:
        text = text.rstrip() + ("\n\n" if text else "") + block + "\n"
    open(doc, "w").write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("inputs", nargs="*", default=[os.path.join(ROOT, "docs", "bench-data", "report")])
    ap.add_argument("--registers", default=os.path.join(ROOT, "docs", "bench-data", "registers.json"))
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "notes", "paper-figures.md"))
    ap.add_argument("--plots", default=os.path.join(ROOT, "docs", "notes"))
    ap.add_argument("--no-plots", action="store_true")
    a = ap.parse_args()
    plots = None
    if not a.no_plots:
        try:
            import matplotlib
        except ImportError:
            sys.exit("matplotlib not found: run with Debian's /usr/bin/python3 (python3-matplotlib) or pass --no-plots")
        matplotlib.use("Agg")
        plots = a.plots
        os.makedirs(plots, exist_ok=True)
    files = collect(a.inputs)
    if os.path.exists(a.registers):
        files["registers.json"] = open(a.registers).read()
    body, figs = generate(files, plots)
    write_doc(a.doc, body)
    print("wrote %s (%d files read, plots: %s)" % (a.doc, len(files), ", ".join(figs) or "none"))


if __name__ == "__main__":
    main()
