#!/usr/bin/env bash
# Same-session A/B of two decode-benchmark binaries (e.g. fastpair_bench_decode built before and
# after a kernel change, or with and without a compile-time switch): runs A, B, A, B, ... on one
# GPU with the same columns and codecs, then prints the comparison (scripts/ab_compare.py).
# Alternating the binaries within one call is what makes a few-percent difference measurable on a
# shared machine; the device copy and the unchanged paper config in each run show the noise.
#
# Usage: scripts/gpu-ab.sh OUTDIR BIN_A BIN_B [ROUNDS]   (default 2 rounds)
# Environment: FASTPAIR_BENCH_COLUMNS, FASTPAIR_BENCH_CODECS, FASTPAIR_DATA_DIR (as for the
#   benchmark); FASTPAIR_AB_FILTER (default 'cfg:(auto|paper)/|^copy/'); FASTPAIR_AB_BUDGET_S
#   (start no run after this many seconds, default 500).
# Writes OUTDIR/{a,b}_<round>.{json,txt}, OUTDIR/summary.txt and OUTDIR/compare.md.
set -uo pipefail
out=${1:?usage: gpu-ab.sh OUTDIR BIN_A BIN_B [ROUNDS]}
bin_a=${2:?BIN_A}; bin_b=${3:?BIN_B}; rounds=${4:-2}
filter=${FASTPAIR_AB_FILTER:-'cfg:(auto|paper)/|^copy/'}
budget=${FASTPAIR_AB_BUDGET_S:-500}
mkdir -p "$out"
for bin in "$bin_a" "$bin_b"; do [ -x "$bin" ] || { echo "gpu-ab: $bin is not executable"; exit 2; }; done
status=0
for r in $(seq 1 "$rounds"); do
  for side in a b; do
    if [ "$SECONDS" -ge "$budget" ]; then echo "$side $r: SKIPPED (budget ${budget}s spent)" >> "$out/summary.txt"; status=1; continue; fi
    bin=$bin_a; [ "$side" = b ] && bin=$bin_b
    "$bin" --benchmark_filter="$filter" --benchmark_out="$out/${side}_$r.json" --benchmark_out_format=json \
      > "$out/${side}_$r.txt" 2>&1
    rc=$?; [ $rc -ne 0 ] && status=1
    echo "$side $r rc=$rc (${SECONDS} s)" >> "$out/summary.txt"
  done
done
python3 "$(dirname "$0")/ab_compare.py" "$out" > "$out/compare.md" 2>&1 || status=1
cat "$out/summary.txt" "$out/compare.md"
exit $status
