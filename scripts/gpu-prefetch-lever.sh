#!/usr/bin/env bash
# Issue 7 lever "L2 prefetch of the next batch's codes": the same decode benchmark built with and
# without the prefetch (-DFASTPAIR_NO_CODE_PREFETCH), run alternately on one GPU in one call.
# Usage: scripts/gpu-prefetch-lever.sh OUTDIR BIN_DIR   (BIN_DIR/bench/fastpair_bench_decode{,_nopf})
set -uo pipefail
out=${1:?OUTDIR}; bin=${2:?BIN_DIR}; mkdir -p "$out"
f='cfg:(auto|paper)/|^copy/'
run() {  # run TAG BINARY COLUMNS
  FASTPAIR_BENCH_CODECS=onpair16,onpair12 FASTPAIR_BENCH_COLUMNS=$3 timeout 200 "$2" --benchmark_filter="$f" \
    --benchmark_out="$out/$1.json" --benchmark_out_format=json > "$out/$1.txt" 2>&1; echo "$1 rc=$?" >> "$out/summary.txt"
}
cols=log_windows,tpch_l_comment,en_wiki
run pf1 "$bin/bench/fastpair_bench_decode" $cols
run nopf1 "$bin/bench/fastpair_bench_decode_nopf" $cols
