#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Selective decode on a machine with a GPU: one log per step and a one-line-per-check summary.txt
# in OUTDIR. Exit status 0 only if every step passed. About 3-4 minutes on an H200.
#   1. test          fastpair_test_gpu "[select]": byte-exact vs the CPU reference, all forms,
#                    both strategies, int32/int64, corner selections, every shared column x codec
#   2. memcheck      compute-sanitizer memcheck on small inputs (FASTPAIR_TEST_SOURCE_BYTES=65536,
#                    "[select]~[large]"): no out-of-bounds or misaligned access, no leak
#   3. racecheck     shared-memory hazards; synthetic cases only ("~[shared]": the shared columns
#                    would take minutes under racecheck; memcheck/initcheck cover them)
#   4. synccheck     barrier / warp-sync misuse; synthetic cases only, as racecheck
#   5. initcheck     no read of uninitialised device memory
#   6. bench         fastpair_bench_select (JSON in select_bench.json); its stderr summary has the
#                    dense/selective ratios, the measured crossover and the ACCEPT lines (1 %
#                    selective >= 10x faster than full decode + filter), copied into summary.txt
# Usage: scripts/gpu-select.sh OUTDIR BUILD_DIR   (BUILD_DIR holds tests/fastpair_test_gpu and
#        bench/fastpair_bench_select; they are built there if missing)
set -uo pipefail
out=${1:?usage: gpu-select.sh OUTDIR BUILD_DIR}
build=${2:?usage: gpu-select.sh OUTDIR BUILD_DIR}
cd "$(dirname "$0")/.."
command -v nvcc > /dev/null || export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out" && out=$(cd "$out" && pwd)
test_bin=$build/tests/fastpair_test_gpu
bench_bin=$build/bench/fastpair_bench_select
if [ ! -x "$test_bin" ] || [ ! -x "$bench_bin" ]; then
  { [ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DFASTPAIR_BUILD_TESTS=ON -DFASTPAIR_BUILD_BENCH=ON; } > "$out/build.log" 2>&1
  cmake --build "$build" -j"$(nproc)" --target fastpair_test_gpu fastpair_bench_select >> "$out/build.log" 2>&1 ||
    { echo "build failed: see $out/build.log" | tee "$out/summary.txt"; exit 1; }
fi
summary=$out/summary.txt
: > "$summary"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; git rev-parse --short HEAD; date -u; } >> "$summary" 2>&1
status=0

# step NAME LIMIT_S CMD...: runs CMD (killed after LIMIT_S seconds) with its output in NAME.log.
step() {
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" > "$out/$name.log" 2>&1
  local rc=$?
  [ $rc -ne 0 ] && status=1
  local what
  what=$(grep -E 'test cases|ERROR SUMMARY|All tests passed' "$out/$name.log" | tail -1 | cut -c1-100)
  [ $rc -eq 124 ] && what="TIMEOUT after ${limit}s"
  printf '%-4s %-10s rc=%-3d %4ds  %s\n' "$([ $rc -eq 0 ] && echo ok || echo FAIL)" "$name" "$rc" $((SECONDS - t0)) \
    "$what" | tee -a "$summary"
}

small="env FASTPAIR_TEST_SOURCE_BYTES=65536"
cs="compute-sanitizer --error-exitcode 1"
step test 120 "$test_bin" "[select]"
step memcheck 150 $small $cs --tool memcheck --leak-check full "$test_bin" "[select]~[large]"
step racecheck 150 $small $cs --tool racecheck "$test_bin" "[select]~[large]~[shared]"
step synccheck 120 $small $cs --tool synccheck "$test_bin" "[select]~[large]~[shared]"
step initcheck 150 $small $cs --tool initcheck "$test_bin" "[select]~[large]"
step bench 300 "$bench_bin" --benchmark_out="$out/select_bench.json" --benchmark_out_format=json
grep -E '^ACCEPT|crossover' "$out/bench.log" >> "$summary"
exit $status
