#!/usr/bin/env bash
# Runs fastpair's GPU suite on a machine with a GPU, writing every log to OUTDIR:
#   1. every test executable (host and [gpu]),
#   2. compute-sanitizer memcheck, racecheck, synccheck and initcheck over the GPU tests (small
#      inputs; the > 4 GiB case is left out: sanitizers slow kernels 10-100x),
#   3. optionally the decode benchmark (--bench).
# Usage: scripts/gpu-suite.sh OUTDIR [BUILD_DIR] [--bench]
#   BUILD_DIR defaults to build/release; it is configured and built if it has no test binaries.
#   FASTPAIR_DATA_DIR must point to the shared data folder (zstd columns).
set -uo pipefail
out=${1:?usage: gpu-suite.sh OUTDIR [BUILD_DIR] [--bench]}
build=${2:-build/release}
bench=0; for a in "$@"; do [ "$a" = --bench ] && bench=1; done
mkdir -p "$out"
if [ ! -x "$build/tests/fastpair_test_gpu" ]; then
  cmake --preset release -B "$build" && cmake --build "$build" -j"$(nproc)" || exit 1
fi
status=0
summary="$out/summary.txt"; : > "$summary"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >> "$summary" 2>&1
git rev-parse --short HEAD >> "$summary" 2>/dev/null; date -u >> "$summary"

tests=$(find "$build/tests" -maxdepth 1 -type f -name 'fastpair_test_*' -perm -u+x | sort)
for t in $tests; do
  n=$(basename "$t")
  "$t" > "$out/$n.log" 2>&1; rc=$?
  echo "test $n rc=$rc $(grep -E 'test cases|All tests passed' "$out/$n.log" | tail -1)" | tee -a "$summary"
  [ $rc -ne 0 ] && status=1
done

san_bytes=${FASTPAIR_SANITIZER_SOURCE_BYTES:-65536}
for tool in memcheck racecheck synccheck initcheck; do
  for t in $tests; do
    n=$(basename "$t")
    case "$n" in fastpair_test_host) continue;; esac
    FASTPAIR_TEST_SOURCE_BYTES=$san_bytes timeout "${FASTPAIR_SANITIZER_TIMEOUT:-600}" compute-sanitizer --tool "$tool" --error-exitcode 99 \
      "$t" '~[large]' > "$out/san_${tool}_$n.log" 2>&1; rc=$?
    echo "sanitizer $tool $n rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_${tool}_$n.log" | tail -1)" | tee -a "$summary"
    [ $rc -ne 0 ] && status=1
  done
done

if [ $bench -eq 1 ]; then
  "$build"/bench/fastpair_bench_decode --benchmark_out="$out/decode_bench.json" --benchmark_out_format=json \
    > "$out/decode_bench.txt" 2>&1 || status=1
fi
echo "gpu-suite status=$status" | tee -a "$summary"
exit $status
