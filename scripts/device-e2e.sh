#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# One device run of the end-to-end benchmark (bench/e2e_bench.cu): builds fastpair_bench_e2e for
# sm_90 on the GPU machine (Release, Ninja, only that target) and runs it over the shared columns
# (FASTPAIR_BENCH_COLUMNS, default all 12) x codecs (FASTPAIR_BENCH_CODECS, default all 3),
# writing OUTDIR/e2e.json (Google Benchmark JSON), OUTDIR/e2e.txt (its console output) and
# OUTDIR/e2e.md (scripts/e2e-table.py: the results tables of docs/BENCHMARKS.md).
# Needs, carried beside the tree: .deps (Google Benchmark, libzstd-dev unpacked) and .devdata (the
# shared columns).
# Usage: scripts/device-e2e.sh OUTDIR [all|build|run]
#   build: configure + build only; run: run the built binary only (the build folder build/e2e is
#   kept between calls on a warm machine); all (default): both. The run is cut at
#   FASTPAIR_E2E_TIMEOUT seconds (default: 570 s less the time this call spent building, the
#   device machine cutting commands at 600 s); 45 s before that the bench skips the cases left
#   (FASTPAIR_E2E_BUDGET_S, its JSON stays complete) and the table shows the cells that ran.
#   The whole run (12 columns x 3 codecs) should take about 4-6 minutes: build and run in two
#   calls ("build", then "run") if one call cannot hold both. FASTPAIR_E2E_FILTER: a
#   --benchmark_filter (e.g. 'h2d|decode_only$|pipelined_p|streamed' for the streamed table, which
#   `FASTPAIR_E2E_TABLE=--streamed` then prints alone).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: device-e2e.sh OUTDIR [all|build|run]}
phase=${2:-all}
mkdir -p "$out"
out=$(cd "$out" && pwd)
deps=$PWD/.deps/usr data=$PWD/.devdata
export PATH=/usr/local/cuda/bin:$PATH FASTPAIR_DATA_DIR=$data LD_LIBRARY_PATH=$deps/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export FASTPAIR_BENCH_SOURCE_BYTES=${FASTPAIR_BENCH_SOURCE_BYTES:-16777216}
bin=build/e2e/bench/fastpair_bench_e2e
t0=$SECONDS
if [ "$phase" = all ] || [ "$phase" = build ]; then
  cmake -S . -B build/e2e -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_PREFIX_PATH="$deps" -DFASTPAIR_DATA_DIR="$data" -DFASTPAIR_BUILD_TESTS=OFF -DFASTPAIR_BUILD_BENCH=ON \
    -DFASTPAIR_BUILD_EXAMPLES=OFF -DFASTPAIR_BUILD_TOOLS=OFF > "$out/configure.log" 2>&1 ||
    { tail -30 "$out/configure.log"; exit 1; }
  cmake --build build/e2e -j"$(nproc)" --target fastpair_bench_e2e > "$out/build.log" 2>&1 ||
    { grep -m 20 -A 8 'error' "$out/build.log"; exit 1; }
  echo "built in $((SECONDS - t0)) s on $(nproc) cores"
fi
[ "$phase" = build ] && exit 0
[ -x "$bin" ] || { echo "no $bin: run with 'build' or 'all' first"; exit 1; }
# The device machine's commands are cut at 600 s: what is left of them after the build.
left=$((570 - (SECONDS - t0)))
[ "$left" -lt 60 ] && left=60
limit=${FASTPAIR_E2E_TIMEOUT:-$left}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,pcie.link.gen.current,pcie.link.width.current \
    --format=csv; date -u; } > "$out/gpu.txt" 2>&1
# The bench skips what is left once FASTPAIR_E2E_BUDGET_S is spent (its JSON stays complete); the
# timeout is the backstop.
# What ran where, into the JSON's context (the table's header line): the commit (FASTPAIR_COMMIT
# if set: a copy of the tree on another machine may carry a stale .git or none; else git), the
# driver and the clocks.
if [ -n "${FASTPAIR_COMMIT:-}" ]; then commit=$FASTPAIR_COMMIT
else
  commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
  [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] && commit="$commit+local-changes"
fi
smi() { nvidia-smi --query-gpu="$1" --format=csv,noheader,nounits 2>/dev/null | head -1 | tr -d ' '; }
ctx="git_commit=$commit,gpu_driver=$(smi driver_version),sm_clock_mhz=$(smi clocks.sm),sm_clock_max_mhz=$(smi clocks.max.sm),mem_clock_mhz=$(smi clocks.mem)"
FASTPAIR_E2E_BUDGET_S=${FASTPAIR_E2E_BUDGET_S:-$((limit - 45))} timeout "$limit" "$bin" --benchmark_context="$ctx" \
  --benchmark_out="$out/e2e.json" --benchmark_out_format=json ${FASTPAIR_E2E_FILTER:+--benchmark_filter="$FASTPAIR_E2E_FILTER"} \
  > "$out/e2e.txt" 2>&1
rc=$?
date -u >> "$out/gpu.txt"
echo "fastpair_bench_e2e: rc=$rc after $((SECONDS - t0)) s (limit $limit s)"
[ "$rc" -eq 124 ] && echo "cut at $limit s: the table covers the benchmarks that finished"
grep -E "encoded|built in|ERROR|error" "$out/e2e.txt" | head -20
python3 scripts/e2e-table.py ${FASTPAIR_E2E_TABLE:-} "$out/e2e.json" > "$out/e2e.md" && cat "$out/e2e.md"
exit $rc
