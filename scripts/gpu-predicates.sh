#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# GPU predicates on the compressed form (issue 8 item 2, and its part of item 4), on a machine with
# a GPU. Writes one log per step and summary.txt (one line per check) to OUTDIR; exit 0 only if
# every step passed.
#   1. tests: fastpair_test_gpu "[gpu][predicates]" (all cases, [large] included: GPU bitmask ==
#      predicates.hpp bitmask == decode-then-compare on every shared column x 3 codecs, generated
#      adversarial columns, a ~1 MB row)
#   2. compute-sanitizer memcheck, racecheck, synccheck, initcheck on small inputs:
#      FASTPAIR_TEST_SOURCE_BYTES=65536, two shared columns, "[gpu][predicates]~[large]"
#   3. benchmark: fastpair_bench_predicates (5 columns tiled to >= 1 GB, OnPair-16; eq, in10,
#      prefix, substring on codes vs decode-then-compare), JSON output, plus a one-line ratio
#      check per column (equality / IN on codes >= 3x the logical GB/s of decode-then-compare).
# Usage: scripts/gpu-predicates.sh OUTDIR BUILD_DIR
#   BUILD_DIR must hold tests/fastpair_test_gpu and bench/fastpair_bench_predicates.
#   FASTPAIR_DATA_DIR must point to the shared data folder (zstd columns).
set -uo pipefail
out=${1:?usage: gpu-predicates.sh OUTDIR BUILD_DIR}
build=${2:?usage: gpu-predicates.sh OUTDIR BUILD_DIR}
source "$(dirname "${BASH_SOURCE[0]}")/gpu-common.sh"
test_bin=$build/tests/fastpair_test_gpu
bench_bin=$build/bench/fastpair_bench_predicates
require_bins "build fastpair_test_gpu and fastpair_bench_predicates in $build" "$test_bin" "$bench_bin"
gpu_begin "$out"

# 1. Tests (all predicate cases).
start=$SECONDS
"$test_bin" "[gpu][predicates]" > "$out/test_predicates.log" 2>&1
record test_predicates $? "$(grep -E 'test cases|All tests passed' "$out/test_predicates.log" | tail -1) ($((SECONDS - start)) s)"

# 2. Sanitizers on small inputs.
for tool in memcheck racecheck synccheck initcheck; do
  start=$SECONDS
  FASTPAIR_TEST_SOURCE_BYTES=65536 FASTPAIR_TEST_PREDICATE_COLUMNS=tpch_o_clerk,en_wiki \
    timeout "${FASTPAIR_SANITIZER_TIMEOUT:-300}" compute-sanitizer --tool "$tool" --error-exitcode 99 \
    "$test_bin" "[gpu][predicates]~[large]" > "$out/san_$tool.log" 2>&1
  record "sanitizer_$tool" $? "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases|All tests passed' "$out/san_$tool.log" | tail -2 | tr '\n' ' ') ($((SECONDS - start)) s)"
done

# 3. Benchmark.
start=$SECONDS
"$bench_bin" --benchmark_out="$out/predicates_bench.json" --benchmark_out_format=json > "$out/predicates_bench.txt" 2>&1
rc=$?
grep -q '"error_occurred": true' "$out/predicates_bench.json" 2> /dev/null && rc=98
record bench_predicates $rc "$(grep -c '"name"' "$out/predicates_bench.json" 2> /dev/null) entries ($((SECONDS - start)) s)"

# Acceptance: equality / IN on codes >= 3x decode-then-compare (logical GB/s at the min time).
python3 - "$out/predicates_bench.json" >> "$out/acceptance.txt" 2>&1 << 'EOF'
import json, sys
runs = {b["name"].split("/manual_time")[0].split("/iterations")[0]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
bad = 0
for name, b in sorted(runs.items()):
    if not name.startswith("codes/"):
        continue
    ref = runs.get("decode_cmp/" + name[len("codes/"):])
    if not ref or "GBps_min" not in b or "GBps_min" not in ref:
        continue
    ratio = b["GBps_min"] / ref["GBps_min"]
    gate = name.endswith("/eq") or name.endswith("/in10")
    ok = ratio >= 3 or not gate
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {name:50s} codes {b['GBps_min']:9.1f} GB/s  decode+cmp {ref['GBps_min']:8.1f} GB/s  x{ratio:6.2f}{'  (gate >= 3x)' if gate else ''}")
sys.exit(1 if bad else 0)
EOF
rc=$?
record acceptance_eq_in_3x $rc "$(grep -c '^ok' "$out/acceptance.txt") ok, $(grep -c '^FAIL' "$out/acceptance.txt") below (acceptance.txt)"
cat "$out/acceptance.txt" >> "$summary"

echo "gpu-predicates status=$status" | tee -a "$summary"
exit $status
