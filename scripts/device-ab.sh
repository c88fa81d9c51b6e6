#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# One device run: an A/B of decode throughput between two source trees (e.g. git archives of two
# commits), built on the GPU machine: fastpair_bench_decode of each, run one after the other in
# the same session over the same columns (FASTPAIR_BENCH_COLUMNS, default all 12), automatic
# config and a device-to-device copy, chars + int64 offsets and chars only. JSON per side in OUTDIR.
# Needs .deps (Catch2, Google Benchmark, libzstd-dev unpacked) and .devdata beside this tree.
# Usage: scripts/device-ab.sh OUTDIR OLD_TREE NEW_TREE
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: device-ab.sh OUTDIR OLD_TREE NEW_TREE}
old=$(cd "${2:?}" && pwd)
new=$(cd "${3:?}" && pwd)
deps=$PWD/.deps/usr data=$PWD/.devdata
export PATH=/usr/local/cuda/bin:$PATH FASTPAIR_DATA_DIR=$data LD_LIBRARY_PATH=$deps/lib/x86_64-linux-gnu
export FASTPAIR_BENCH_SOURCE_BYTES=${FASTPAIR_BENCH_SOURCE_BYTES:-16777216}
t0=$SECONDS
build() {  # build NAME TREE
  cmake -S "$2" -B "/tmp/ab-$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_PREFIX_PATH="$deps" -DFASTPAIR_BUILD_TESTS=OFF -DFASTPAIR_BUILD_BENCH=ON \
    -DFASTPAIR_BUILD_EXAMPLES=OFF -DFASTPAIR_BUILD_TOOLS=OFF > "$out/configure_$1.log" 2>&1 &&
    cmake --build "/tmp/ab-$1" -j"$(nproc)" --target fastpair_bench_decode > "$out/build_$1.log" 2>&1
}
build old "$old" & build new "$new" & wait
for side in old new; do
  [ -x /tmp/ab-$side/bench/fastpair_bench_decode ] || { tail -30 "$out/build_$side.log"; exit 1; }
done
echo "built in $((SECONDS - t0)) s"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } > "$out/gpu.txt"
for side in old new; do
  /tmp/ab-$side/bench/fastpair_bench_decode --benchmark_filter='^(decode|chars)/.*cfg:auto|^copy/' \
    --benchmark_out="$out/$side.json" --benchmark_out_format=json > "$out/$side.txt" 2>&1
  echo "$side: rc=$? at $((SECONDS - t0)) s"
done
date -u >> "$out/gpu.txt"
python3 - "$out" <<'PY'
import json, sys, re, statistics
out = sys.argv[1]
def load(side):
    d = json.load(open(f"{out}/{side}.json"))
    r = {}
    for b in d["benchmarks"]:
        if b.get("run_type") == "aggregate": continue
        r[b["name"]] = b
    return r
o, n = load("old"), load("new")
rows = []
for name in sorted(set(o) & set(n)):
    if not name.startswith(("decode/", "chars/")): continue
    go, gn = o[name]["GBps_min"], n[name]["GBps_min"]
    mo, mn = o[name]["GBps_median"], n[name]["GBps_median"]
    rows.append((name, go, gn, (gn / go - 1) * 100 if go else 0, mo, mn))
print(f"{'cell':60s} {'old min':>9s} {'new min':>9s} {'change':>8s} {'old med':>9s} {'new med':>9s}")
for r in rows: print(f"{r[0]:60s} {r[1]:9.1f} {r[2]:9.1f} {r[3]:+7.1f}% {r[4]:9.1f} {r[5]:9.1f}")
for side, d in (("old", o), ("new", n)):
    c = [b["GBps_min"] for k, b in d.items() if k.startswith("copy/") and "GBps_min" in b]
    if c: print(f"copy ({side}): {min(c):.0f} .. {max(c):.0f} GB/s (min time)")
if rows:
    d = [r[3] for r in rows]
    print(f"{len(rows)} cells: min {min(d):+.1f} %, median {statistics.median(d):+.1f} %, max {max(d):+.1f} %")
PY
