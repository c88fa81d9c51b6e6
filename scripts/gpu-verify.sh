#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# The whole correctness pass on a machine with a GPU, in one call of under ten minutes:
#   1. every test binary in full, one at a time on an otherwise idle GPU (host, decode config
#      groups, fastpair_test_gpu including the [large] > 4 GiB / 1 GB-field / 24 M-row cases), the
#      examples and the CLI's GPU paths (scripts/gpu-examples.sh), the csv_pipeline example;
#   2. then compute-sanitizer memcheck, racecheck, synccheck and initcheck over every GPU test
#      binary on small inputs, JOBS at a time ([large] excluded; racecheck and synccheck also skip
#      the every-shared-column cases, which memcheck/initcheck cover). Sanitizer runs are bound by
#      the host CPU, so they share the GPU well; nothing here is timed.
# A failed test's Catch2 report (the lines around FAILED) is copied into summary.txt.
# Every log lands in OUTDIR; OUTDIR/summary.txt has one line per check; exit 0 only if all passed.
# Usage: scripts/gpu-verify.sh OUTDIR BUILD_DIR [JOBS] [all|tests|sanitizers]
#   (FASTPAIR_DATA_DIR: the zstd columns). "tests" runs step 1 only, "sanitizers" step 2 only: two
#   calls where one cannot hold both. FASTPAIR_SANITIZER_TOOLS (default "memcheck racecheck synccheck
#   initcheck") picks the sanitizer tools and FASTPAIR_SANITIZER_ONLY (an extended regex on the
#   run names, e.g. "racecheck_gpu_prepare_fpc") the runs, so the matrix too can be split over calls.
#   Every run ends by FASTPAIR_VERIFY_DEADLINE_S (default 570) seconds after the start; the runs
#   the deadline leaves out are listed as "not run" (rc 95), so the summary and logs come back.
set -uo pipefail
out=${1:?usage: gpu-verify.sh OUTDIR BUILD_DIR [JOBS] [all|tests|sanitizers]}
build=${2:?usage: gpu-verify.sh OUTDIR BUILD_DIR [JOBS] [all|tests|sanitizers]}
jobs=${3:-8}
phase=${4:-all}
case $phase in all | tests | sanitizers) ;; *) echo "gpu-verify: unknown phase '$phase'"; exit 2 ;; esac
source "$(dirname "${BASH_SOURCE[0]}")/gpu-common.sh"
t=$build/tests
require_bins "configure with -DFASTPAIR_BUILD_TESTS=ON and build in $build" \
  "$t/fastpair_test_host" "$t/fastpair_test_gpu" "$t"/fastpair_test_decode_g{0,1,2,3,4}
gpu_begin "$out"
limit=${FASTPAIR_VERIFY_LIMIT:-540}
# Every run ends by this deadline (FASTPAIR_VERIFY_DEADLINE_S after the start, default 570 s: the
# device machine cuts a command at 600 s), so the summary is written and the logs survive: a run
# gets min(limit, time left), and one that would start with under 20 s left is recorded as not run.
deadline=$(($(date +%s) + ${FASTPAIR_VERIFY_DEADLINE_S:-570}))

# cases BINARY SPEC: one Catch2 filter per test case that SPEC selects (the name, its special
# characters escaped), so that a slow group runs as several processes, each inside the limit.
cases() {
  "$1" "$2" --list-test-names-only 2> /dev/null | grep -v '^$' | sed 's/[],[\\]/\\&/g'
}
# expand NAME BINARY SPEC: NAME_1|BINARY|case 1, NAME_2|BINARY|case 2, ...; a case tagged
# [sharded] (one whose loop takes a share, tests/utils/shard.hpp) as FASTPAIR_SANITIZER_SHARDS
# (default 4; racecheck, several times slower: FASTPAIR_RACECHECK_SHARDS, default 12) runs
# NAME_is0|BINARY|case i|0/4 ... , each taking its share of the loop (FASTPAIR_TEST_SHARD).
expand() {
  local i=0 c k n=${FASTPAIR_SANITIZER_SHARDS:-4} sharded
  [[ $1 == racecheck_* ]] && n=${FASTPAIR_RACECHECK_SHARDS:-12}
  sharded=$(cases "$2" "[sharded]")
  while IFS= read -r c; do
    i=$((i + 1))
    if [ "$n" -gt 1 ] && grep -qxF -- "$c" <<< "$sharded"; then
      for ((k = 0; k < n; k++)); do echo "$1_${i}s$k|$2|$c|$k/$n"; done
    else
      echo "$1_$i|$2|$c"
    fi
  done < <(cases "$2" "$3")
}
# The sanitizer matrix, one "NAME|BINARY|FILTER[|SHARD]" per line. The slowest groups under the
# sanitizers ([prepare_fpc], [predicates]: 4-8 minutes each as one process) run one test case per
# process, and the slowest cases ([sharded]: over 8 minutes under racecheck) a share of it.
matrix() {
  local tool g
  for tool in ${FASTPAIR_SANITIZER_TOOLS:-memcheck racecheck synccheck initcheck}; do
    local light=""
    case $tool in racecheck | synccheck) light="~[shared]~[data]" ;; esac
    for g in 0 1 2 3 4; do
      echo "${tool}_decode_g$g|$t/fastpair_test_decode_g$g|~[large]$light"
    done
    echo "${tool}_gpu_decode|$t/fastpair_test_gpu|[decode]~[large]"
    echo "${tool}_gpu_prepare|$t/fastpair_test_gpu|[prepare]~[large],[engine],[memory_resource],[texture]~[spin]"
    expand "${tool}_gpu_prepare_fpc" "$t/fastpair_test_gpu" "[prepare_fpc]~[large]$light"
    [ -z "$light" ] && echo "${tool}_gpu_data|$t/fastpair_test_gpu|[data]~[cascade]~[dsv]~[large]"
    echo "${tool}_select|$t/fastpair_test_gpu|[select]~[large]$light"
    echo "${tool}_cascade|$t/fastpair_test_gpu|[cascade]~[large]$light"
    expand "${tool}_stream" "$t/fastpair_test_gpu" "[stream]~[large]$light"
    echo "${tool}_dsv|$t/fastpair_test_gpu|[dsv]~[large]$light"
    expand "${tool}_predicates" "$t/fastpair_test_gpu" "[predicates]~[large]$light"
  done
}
export out limit deadline
sanitize() {  # sanitize "NAME|BINARY|FILTER[|SHARD]"
  local name=${1%%|*} rest=${1#*|}
  local bin=${rest%%|*} filter=${rest#*|} shard="" tool=${name%%_*} t0=$SECONDS
  [[ $filter == *"|"* ]] && shard=${filter##*|} filter=${filter%|*}
  local left=$((deadline - $(date +%s)))
  if [ "$left" -lt 20 ]; then  # no time left in this call: the summary says so
    echo "not run: the call's deadline" > "$out/san_$name.log"
    echo "95 0" > "$out/san_$name.rc"
    return
  fi
  FASTPAIR_TEST_SHARD=$shard FASTPAIR_TEST_SOURCE_BYTES=65536 FASTPAIR_TEST_PREDICATE_COLUMNS=tpch_o_clerk,en_wiki FASTPAIR_TEST_LIGHT=1 \
    timeout "$((left < limit ? left : limit))" compute-sanitizer --tool "$tool" --error-exitcode 99 "$bin" "$filter" \
    > "$out/san_$name.log" 2>&1
  echo "$? $((SECONDS - t0))" > "$out/san_$name.rc"
}
export -f sanitize
matrix | awk -F'|' -v re="${FASTPAIR_SANITIZER_ONLY:-.}" '$1 ~ re' > "$out/sanitizer_matrix.txt"

run_test() {  # run_test NAME CMD...
  local name=$1 t0=$SECONDS
  shift
  local left=$((deadline - $(date +%s)))
  timeout "$((left < limit ? (left > 1 ? left : 1) : limit))" "$@" > "$out/$name.log" 2>&1
  local rc=$?
  record "$name" $rc "$(grep -E 'test cases|All tests passed' "$out/$name.log" | tail -1) ($((SECONDS - t0)) s)"
  [ $rc -ne 0 ] && grep -B 12 -A 12 FAILED "$out/$name.log" | head -80 >> "$summary"
}
if [ "$phase" != sanitizers ]; then
run_test test_host "$t/fastpair_test_host"
for g in 0 1 2 3 4; do run_test "test_decode_g$g" "$t/fastpair_test_decode_g$g"; done
run_test test_gpu "$t/fastpair_test_gpu"
if [ -x "$build/tools/fastpair" ]; then
  t0=$SECONDS
  bash "$(dirname "${BASH_SOURCE[0]}")/gpu-examples.sh" "$out/examples" "$build" > "$out/examples.log" 2>&1
  record examples_and_cli $? "($((SECONDS - t0)) s) $out/examples/summary.txt"
fi
if [ -x "$build/examples/fastpair_example_csv_pipeline" ]; then
  "$build/examples/fastpair_example_csv_pipeline" > "$out/example_csv_pipeline.log" 2>&1
  rc=$?
  grep -q skipped "$out/example_csv_pipeline.log" && rc=3  # a GPU is present here
  record example_csv_pipeline $rc "$(tail -1 "$out/example_csv_pipeline.log" | cut -c1-120)"
fi

fi
if [ "$phase" != tests ]; then
# -d '\n': xargs must pass each line as it is (its default quote and backslash processing would
# undo the escaped commas of test names, and the filter would then match nothing).
xargs -d '\n' -P "$jobs" -I{} bash -c 'sanitize "$@"' _ {} < "$out/sanitizer_matrix.txt"
while IFS= read -r line; do
  name=${line%%|*}
  read -r rc secs < "$out/san_$name.rc" 2> /dev/null || { rc=98; secs=?; }
  grep -q 'No test cases matched' "$out/san_$name.log" && [ "$rc" = 0 ] && rc=97  # a filter that ran nothing
  case $rc in
    124) what="TIMEOUT after $secs s" ;;
    95) what="not run: the call's deadline (FASTPAIR_SANITIZER_ONLY runs the rest in another call)" ;;
    *) what=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_$name.log" | tail -1) ;;
  esac
  record "san_$name" "$rc" "$what; $(grep -E 'test cases|All tests passed|No test cases' "$out/san_$name.log" | tail -1) ($secs s)"
done < "$out/sanitizer_matrix.txt"
fi
echo "gpu-verify status=$status" | tee -a "$summary"
exit $status
