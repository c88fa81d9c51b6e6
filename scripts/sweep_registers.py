#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Registers, shared memory and spills of every decode config in bench/sweeps_bench.cu.

Runs on the build machine (no GPU): recompiles the sweep TU with the exact command CMake uses
(from BUILD_DIR/compile_commands.json) plus `-Xptxas -v`, parses ptxas' per-kernel report,
demangles the kernel names to (K, W, H, T, B), joins the dynamic shared memory printed by
`fastpair_bench_sweeps` with FASTPAIR_SWEEP_LIST=1, and writes

    OUT.json   [{"config", "K", "W", "H", "T", "B", "regs", "stack", "spill_st", "spill_ld",
                 "static_smem", "dyn_smem", "reg_cap", "blocks_regs", "blocks_smem",
                 "blocks_warps", "blocks_pred", "studies"}]
    OUT.md     the same as a Markdown table

`blocks_*` are resident blocks per SM predicted from the sm_90 limits (65 536 registers allocated
per warp in units of 256, 64 warps, 32 blocks, 228 KiB shared memory with 1 KiB reserved per
block); the GPU run records the measured cudaOccupancy value (counter blocks_per_sm) next to it.

Usage: scripts/sweep_registers.py [--build BUILD_DIR] [--out docs/bench-data/registers]
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compile_verbose(build):
    db = json.load(open(os.path.join(build, "compile_commands.json")))
    entry = next((e for e in db if e["file"].endswith("bench/sweeps_bench.cu")), None)
    if entry is None:
        sys.exit("sweeps_bench.cu not in %s/compile_commands.json (configure with benchmarks on)" % build)
    args = shlex.split(entry["command"])
    i = args.index("-o")
    args[i + 1] = "/tmp/fastpair_sweeps_ptxas.o"
    args += ["-Xptxas", "-v"]
    r = subprocess.run(args, cwd=entry["directory"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("compile failed:\n" + r.stderr[-4000:])
    return r.stderr + r.stdout


def parse_ptxas(text):
    """mangled kernel name -> dict(regs, stack, spill_st, spill_ld, static_smem)"""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '(\S+)' for 'sm_\d+'", line)
        if m:
            cur = m.group(1)
            out[cur] = {}
            continue
        if cur is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            out[cur].update(stack=int(m.group(1)), spill_st=int(m.group(2)), spill_ld=int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            out[cur]["regs"] = int(m.group(1))
            s = re.search(r"(\d+) bytes smem", line)
            out[cur]["static_smem"] = int(s.group(1)) if s else 0
    return out


def demangle(names):
    r = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    return r.stdout.splitlines()


def sweep_list(build):
    exe = os.path.join(build, "bench", "fastpair_bench_sweeps")
    env = dict(os.environ, FASTPAIR_SWEEP_LIST="1")
    env["LD_LIBRARY_PATH"] = os.path.join(ROOT, ".deps/usr/lib/x86_64-linux-gnu") + ":" + env.get("LD_LIBRARY_PATH", "")
    r = subprocess.run([exe], env=env, capture_output=True, text=True, check=True)
    rows = {}
    for line in r.stdout.splitlines()[1:]:
        study, cfg, k, w, h, t, b, smem = line.split()
        e = rows.setdefault(cfg, {"config": cfg, "K": int(k), "W": int(w), "H": int(h), "T": int(t), "B": int(b),
                                  "dyn_smem": int(smem), "studies": []})
        e["studies"].append(study)
    return rows


def predict(e):
    warps = e["T"] // 32
    regs_warp = -(-max(e["regs"], 1) * 32 // 256) * 256
    e["reg_cap"] = 65536 // (e["T"] * e["B"])
    e["blocks_regs"] = 65536 // (regs_warp * warps)
    e["blocks_warps"] = 64 // warps
    e["blocks_smem"] = (228 * 1024) // (e["dyn_smem"] + e.get("static_smem", 0) + 1024)
    e["blocks_pred"] = min(32, e["blocks_regs"], e["blocks_warps"], e["blocks_smem"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build/bench"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs/bench-data/registers"))
    a = ap.parse_args()
    stats = parse_ptxas(compile_verbose(a.build))
    mangled = [n for n in stats if "decode_kernel" in n]
    rows = sweep_list(a.build)
    for m, d in zip(mangled, demangle(mangled)):
        g = re.search(r"decode_config<(\d+), (\d+), (\d+), (\d+), (\d+)(?:, \(fastpair::emit_strategy\)(\d+))?>", d)
        if not g:
            continue
        k, w, h, t, b = (int(x) for x in g.groups()[:5])
        name = "k%d.w%d.h%d.t%d.b%d" % (k, w, h, t, b) + (".words" if g.group(6) == "1" else "")
        if name in rows:
            rows[name].update(stats[m])
    table = [e for e in rows.values() if "regs" in e]
    for e in table:
        predict(e)
    table.sort(key=lambda e: (e["W"], e["T"], e["B"], e["K"], e["H"]))
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    json.dump({"source": "nvcc -Xptxas -v of bench/sweeps_bench.cu (sm_90)", "configs": table},
              open(a.out + ".json", "w"), indent=1)
    with open(a.out + ".md", "w") as f:
        f.write("| config | studies | regs | cap 65536/(T·B) | stack B | spill st/ld B | dyn smem B | blocks/SM predicted (regs, smem, warps) |\n")
        f.write("|---|---|---|---|---|---|---|---|\n")
        for e in table:
            f.write("| %s | %s | %d | %d | %d | %d / %d | %d | %d (%d, %d, %d) |\n" % (
                e["config"], ",".join(e["studies"]), e["regs"], e["reg_cap"], e["stack"], e["spill_st"], e["spill_ld"],
                e["dyn_smem"], e["blocks_pred"], e["blocks_regs"], e["blocks_smem"], e["blocks_warps"]))
    spilled = [e["config"] for e in table if e["spill_st"] or e["spill_ld"]]
    print("%d configs; %d spill: %s" % (len(table), len(spilled), " ".join(spilled)))


if __name__ == "__main__":
    main()
