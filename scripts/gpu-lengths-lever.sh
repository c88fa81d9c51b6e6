#!/usr/bin/env bash
# Issue 7 lever "token lengths from the W = 16 plane": GPU tests, memcheck/racecheck of the new
# test, the automatic config with and without the length-nibble gather in one process
# (FASTPAIR_BENCH_NIBBLES=1), and ncu LSU wavefronts of one launch of each.
# Usage: scripts/gpu-lengths-lever.sh OUTDIR BIN_DIR
set -uo pipefail
out=${1:?OUTDIR}; bin=${2:?BIN_DIR}
mkdir -p "$out"; s="$out/summary.txt"; : > "$s"
nvidia-smi --query-gpu=name,driver_version --format=csv >> "$s" 2>&1; date -u >> "$s"
for t in "$bin"/tests/fastpair_test_decode_g* "$bin"/tests/fastpair_test_gpu; do
  n=$(basename "$t"); "$t" '~[large]' > "$out/$n.log" 2>&1
  echo "test $n rc=$? $(grep -E 'test cases|All tests passed' "$out/$n.log" | tail -1)" >> "$s"
done
for tool in memcheck racecheck initcheck; do
  FASTPAIR_TEST_SOURCE_BYTES=65536 timeout 200 compute-sanitizer --tool $tool --error-exitcode 99 \
    "$bin/tests/fastpair_test_gpu" '[lengths]' > "$out/san_$tool.log" 2>&1
  echo "sanitizer $tool [lengths] rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_$tool.log" | tail -1)" >> "$s"
done
FASTPAIR_BENCH_NIBBLES=1 FASTPAIR_BENCH_CODECS=onpair16,onpair12 \
  FASTPAIR_BENCH_COLUMNS=log_windows,tpch_l_comment,en_wiki,urls,zh_text,code_lines,tpch_c_address \
  timeout 300 "$bin/bench/fastpair_bench_decode" --benchmark_filter='cfg:(auto|auto\.nibbles|paper)/|^copy/' \
  --benchmark_out="$out/decode_lengths.json" --benchmark_out_format=json > "$out/decode_lengths.txt" 2>&1
echo "bench rc=$?" >> "$s"
m=gpu__time_duration.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__bytes_write.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
for cfg in auto auto.nibbles; do
  for col in en_wiki:onpair12 log_windows:onpair16; do
    c=${col%%:*}; k=${col##*:}
    FASTPAIR_BENCH_NIBBLES=1 FASTPAIR_BENCH_COLUMNS=$c FASTPAIR_BENCH_CODECS=$k timeout 120 ncu --clock-control none \
      --kernel-name regex:decode_kernel --launch-skip 3 --launch-count 1 --metrics $m --csv --page raw \
      "$bin/bench/fastpair_bench_decode" --benchmark_filter="^decode/$c/$k/cfg:${cfg//./\\.}/" > "$out/ncu_${c}_${k}_$cfg.csv" 2>&1
    echo "ncu $c $k $cfg rc=$?" >> "$s"
  done
done
echo done >> "$s"
