#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# GPU DSV parsing (issue 9) on a machine with a GPU. Writes one log per step and summary.txt (one
# line per check) to OUTDIR; exit 0 only if every step passed. About 2-3 minutes on an H200.
#   1. tests: fastpair_test_gpu "[dsv]" (all GPU cases incl. [large]: the 1 GB single field;
#      reddit_posts.csv and tpch_lineitem.tbl byte for byte vs parse_dsv_reference, errors,
#      random inputs, streamed path with tiny batches)
#   2. compute-sanitizer memcheck, racecheck, synccheck, initcheck (concurrently) on small inputs:
#      FASTPAIR_TEST_SOURCE_BYTES=65536, "[dsv]~[large]"
#   3. the example fastpair_example_csv_pipeline (CSV -> GPU parse -> encode -> .fpc -> GPU decode)
#   4. benchmark: fastpair_bench_dsv (reddit_posts.csv and tpch_lineitem.tbl tiled to >= 1 GB;
#      boundaries, materialised, streamed from pageable and pinned host memory, pinned H2D, host
#      staging copy, device copy), JSON output, plus one line per target:
#      boundaries >= 50 GB/s, materialised >= 20 GB/s, streamed >= 80 % of min(device, H2D).
# Usage: scripts/gpu-dsv.sh OUTDIR BUILD_DIR
#   BUILD_DIR must hold tests/fastpair_test_gpu, bench/fastpair_bench_dsv and
#   examples/fastpair_example_csv_pipeline. FASTPAIR_DATA_DIR must point to the shared data folder.
set -uo pipefail
out=${1:?usage: gpu-dsv.sh OUTDIR BUILD_DIR}
build=${2:?usage: gpu-dsv.sh OUTDIR BUILD_DIR}
source "$(dirname "${BASH_SOURCE[0]}")/gpu-common.sh"
test_bin=$build/tests/fastpair_test_gpu
bench_bin=$build/bench/fastpair_bench_dsv
example_bin=$build/examples/fastpair_example_csv_pipeline
require_bins "build fastpair_test_gpu fastpair_bench_dsv fastpair_example_csv_pipeline in $build" \
  "$test_bin" "$bench_bin" "$example_bin"
gpu_begin "$out"

# 1. Tests (all DSV cases, [large] included).
start=$SECONDS
timeout 600 "$test_bin" "[dsv]" > "$out/test_dsv.log" 2>&1
record test_dsv $? "$(grep -E 'test cases|All tests passed' "$out/test_dsv.log" | tail -1) ($((SECONDS - start)) s)"

# 2. Sanitizers on small inputs, the four tools at once (25-60 s each on the H200 when run
#    together, helper run 21:29 UTC; one after another they would take most of the time budget).
start=$SECONDS
for tool in memcheck racecheck synccheck initcheck; do
  (FASTPAIR_TEST_SOURCE_BYTES=65536 \
    timeout "${FASTPAIR_SANITIZER_TIMEOUT:-300}" compute-sanitizer --tool "$tool" --error-exitcode 99 \
    "$test_bin" "[dsv]~[large]" > "$out/san_$tool.log" 2>&1
   echo $? > "$out/san_$tool.rc") &
done
wait
for tool in memcheck racecheck synccheck initcheck; do
  record "sanitizer_$tool" "$(cat "$out/san_$tool.rc")" "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases|All tests passed' "$out/san_$tool.log" | tail -2 | tr '\n' ' ') ($((SECONDS - start)) s, concurrent)"
done

# 3. The example.
"$example_bin" > "$out/example_csv_pipeline.log" 2>&1
rc=$?
if grep -q "skipped" "$out/example_csv_pipeline.log"; then rc=3; fi  # a GPU must be present here
record example_csv_pipeline $rc "$(tail -1 "$out/example_csv_pipeline.log" | cut -c1-150)"

# 4. Benchmark + targets.
start=$SECONDS
timeout 600 "$bench_bin" --benchmark_out="$out/bench_dsv.json" --benchmark_out_format=json \
  --benchmark_counters_tabular=true > "$out/bench_dsv.log" 2>&1
record bench_dsv $? "($((SECONDS - start)) s) $out/bench_dsv.json"
if [ -s "$out/bench_dsv.json" ]; then
  python3 - "$out/bench_dsv.json" >> "$summary" 2>&1 <<'EOF'
import json, sys
rows = {b["name"].split("/iterations")[0]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
def gb(name, key="GBps_min"):
    b = rows.get(name)
    return b.get(key) if b else None
print("h2d pinned: %.1f GB/s (min time)" % (gb("h2d/pinned") or 0))
for f in ("reddit_posts", "tpch_lineitem"):
    for kind, target in (("boundaries", 50), ("materialized", 20)):
        v = gb("dsv/%s/%s" % (f, kind))
        ok = v is not None and v >= target
        print("%-4s %s %s: %.1f GB/s min, %.1f median (target >= %d)" %
              ("ok" if ok else "MISS", f, kind, v or 0, gb("dsv/%s/%s" % (f, kind), "GBps_median") or 0, target))
    for name, b in sorted(rows.items()):
        if name.startswith("dsv/%s/streamed" % f) and "pct_of_bound" in b:
            print("%-4s %s: %.1f GB/s min = %.0f %% of min(device, H2D) = %.1f GB/s (target >= 80 %%)" %
                  ("ok" if b["pct_of_bound"] >= 80 else "MISS", name, b["GBps_min"], b["pct_of_bound"], b["bound_GBps"]))
EOF
fi
cat "$summary" > /dev/null
exit $status
