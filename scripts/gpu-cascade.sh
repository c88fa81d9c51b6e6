#!/usr/bin/env bash
# GPU checks of row-level cascades (cascade.cuh), every log under OUTDIR plus a one-line-per-check
# OUTDIR/summary.txt:
#   1. tests      fastpair_test_gpu "[cascade]"   byte-exact GPU decode vs decode_reference on every
#                 shared column x codec x layout (int32/int64, misaligned, guard bytes), edge cases,
#                 any_column, graph capture, the 24 M-row [large] case
#   2. sanitizers compute-sanitizer memcheck, racecheck, synccheck, initcheck over
#                 fastpair_test_gpu "[cascade]~[large]" with FASTPAIR_TEST_SOURCE_BYTES=65536
#   3. host       fastpair_test_host "[cascade]"
#   4. bench      fastpair_bench_cascade (tpch_o_clerk, tpch_l_shipinstruct tiled to >= 1 GB;
#                 plain vs cascade+indices vs cascade+runs vs D2D copy), JSON in OUTDIR
# Usage: scripts/gpu-cascade.sh OUTDIR BUILD_DIR
#   BUILD_DIR must hold tests/fastpair_test_gpu, tests/fastpair_test_host and
#   bench/fastpair_bench_cascade (built with -DFASTPAIR_BUILD_TESTS=ON -DFASTPAIR_BUILD_BENCH=ON).
#   FASTPAIR_DATA_DIR must point to the shared data folder (zstd columns).
set -uo pipefail
out=${1:?usage: gpu-cascade.sh OUTDIR BUILD_DIR}
build=${2:?usage: gpu-cascade.sh OUTDIR BUILD_DIR}
mkdir -p "$out"
summary="$out/summary.txt"; : > "$summary"
status=0
gpu="$build/tests/fastpair_test_gpu"
host="$build/tests/fastpair_test_host"
bench="$build/bench/fastpair_bench_cascade"
for b in "$gpu" "$host" "$bench"; do
  [ -x "$b" ] || { echo "missing $b" | tee -a "$summary"; status=1; }
done
[ $status -eq 0 ] || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader >> "$summary" 2>&1
git rev-parse --short HEAD >> "$summary" 2>/dev/null; date -u >> "$summary"

check() {  # check NAME LOG CMD...: runs CMD, logs to OUTDIR/LOG, one summary line
  local name=$1 log=$2; shift 2
  local t0=$SECONDS
  "$@" > "$out/$log" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0))s $(grep -E 'test cases|All tests passed|ERROR SUMMARY|RACECHECK SUMMARY' "$out/$log" | tail -1)" | tee -a "$summary"
  [ $rc -ne 0 ] && status=1
}

check "gpu-tests [cascade]" gpu_cascade.log "$gpu" "[cascade]"
for tool in memcheck racecheck synccheck initcheck; do
  check "sanitizer $tool [cascade]~[large]" "san_$tool.log" \
    env FASTPAIR_TEST_SOURCE_BYTES=65536 timeout 600 \
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$gpu" "[cascade]~[large]"
done
check "host-tests [cascade]" host_cascade.log "$host" "[cascade]"
check "bench cascade" cascade_bench.txt "$bench" --benchmark_out="$out/cascade_bench.json" --benchmark_out_format=json
echo "gpu-cascade status=$status" | tee -a "$summary"
exit $status
