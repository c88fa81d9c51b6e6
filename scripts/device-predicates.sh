#!/usr/bin/env bash
# The GPU predicate tests (fastpair_test_gpu "[predicates]~[large]") on a few real columns, then
# under compute-sanitizer memcheck, racecheck, synccheck and initcheck on 64 KiB sources of one
# column. One summary line per check in OUTDIR/summary.txt; the logs in OUTDIR/logs.tgz.
#
# Usage: scripts/device-predicates.sh OUTDIR TEST_BINARY
#   DATA=.devdata COLUMNS=tpch_l_comment,en_wiki,log_windows SANITIZE_COLUMN=tpch_l_comment
set -uo pipefail
out=${1:?usage: device-predicates.sh OUTDIR TEST_BINARY}
bin=${2:?usage: device-predicates.sh OUTDIR TEST_BINARY}
mkdir -p "$out/logs"
export FASTPAIR_DATA_DIR=${DATA:-.devdata}
summary="$out/summary.txt"
: > "$summary"
t0=$(date +%s)
FASTPAIR_TEST_PREDICATE_COLUMNS=${COLUMNS:-tpch_l_comment,en_wiki,log_windows} "$bin" "[predicates]~[large]" \
  > "$out/logs/predicates.log" 2>&1
echo "[predicates]~[large]: rc=$? in $(( $(date +%s) - t0 )) s: $(grep -E 'test cases|All tests' "$out/logs/predicates.log" | tail -1)" | tee -a "$summary"
for t in memcheck racecheck synccheck initcheck; do
  t0=$(date +%s)
  FASTPAIR_TEST_LIGHT=1 FASTPAIR_TEST_SOURCE_BYTES=65536 FASTPAIR_TEST_PREDICATE_COLUMNS=${SANITIZE_COLUMN:-tpch_l_comment} \
    timeout "${SANITIZE_TIMEOUT:-120}" compute-sanitizer --tool "$t" --error-exitcode 9 "$bin" "[predicates]~[large]" \
    > "$out/logs/$t.log" 2>&1
  echo "$t: rc=$? in $(( $(date +%s) - t0 )) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/logs/$t.log" | tail -1); $(grep -E 'test cases|All tests' "$out/logs/$t.log" | tail -1)" | tee -a "$summary"
done
tar -C "$out" -czf "$out/logs.tgz" logs && rm -rf "$out/logs"
