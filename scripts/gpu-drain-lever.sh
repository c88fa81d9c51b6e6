#!/usr/bin/env bash
# Issue 7 lever "bulk-copy (TMA) drain": tests + sanitizers of the decode configs that use it, the
# decode benchmark (automatic, paper and register_words with and without the bulk drain, side by
# side with a device copy) and ncu LSU wavefronts of one launch per config on log_windows.
# Usage: scripts/gpu-drain-lever.sh OUTDIR BIN_DIR   (BIN_DIR holds tests/ and bench/ binaries)
set -uo pipefail
out=${1:?OUTDIR}; bin=${2:?BIN_DIR}
mkdir -p "$out"; s="$out/summary.txt"; : > "$s"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >> "$s" 2>&1; date -u >> "$s"
for t in "$bin"/tests/fastpair_test_*; do
  n=$(basename "$t"); "$t" > "$out/$n.log" 2>&1; rc=$?
  echo "test $n rc=$rc $(grep -E 'test cases|All tests passed' "$out/$n.log" | tail -1)" >> "$s"
done
san() {  # san TOOL BINARY
  local n=$(basename "$2")
  FASTPAIR_TEST_SOURCE_BYTES=65536 timeout 300 compute-sanitizer --tool "$1" --error-exitcode 99 "$2" '~[large]' \
    > "$out/san_$1_$n.log" 2>&1
  echo "sanitizer $1 $n rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san_$1_$n.log" | tail -1)" >> "$s"
}
for tool in memcheck racecheck synccheck initcheck; do
  for g in g1 g3; do san $tool "$bin/tests/fastpair_test_decode_$g"; done
done
for g in g0 g2; do san memcheck "$bin/tests/fastpair_test_decode_$g"; done
san memcheck "$bin/tests/fastpair_test_gpu"
filter='cfg:(auto|paper|k8\.w16\.h0\.t256\.b3\.words|k8\.w16\.h0\.t256\.b3\.words\.bulk|k8\.w16\.h0\.t128\.b6\.words|k8\.w16\.h0\.t128\.b6\.words\.bulk|k8\.w8\.h0\.t256\.b3\.words|k8\.w8\.h0\.t256\.b3\.words\.bulk)/|^copy/'
FASTPAIR_BENCH_SWEEP=1 FASTPAIR_BENCH_COLUMNS=log_windows,tpch_l_comment,en_wiki,urls,zh_text \
  timeout 300 "$bin/bench/fastpair_bench_decode" --benchmark_filter="$filter" \
  --benchmark_out="$out/decode_bulk.json" --benchmark_out_format=json > "$out/decode_bulk.txt" 2>&1
echo "bench decode rc=$?" >> "$s"
m=gpu__time_duration.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
for cfg in k8.w16.h0.t256.b3.words k8.w16.h0.t256.b3.words.bulk paper; do
  for col in log_windows:onpair16 en_wiki:onpair12; do
    c=${col%%:*}; k=${col##*:}
    FASTPAIR_BENCH_SWEEP=1 FASTPAIR_BENCH_COLUMNS=$c FASTPAIR_BENCH_CODECS=$k timeout 120 ncu --clock-control none \
      --kernel-name regex:decode_kernel --launch-skip 3 --launch-count 1 --metrics $m --csv --page raw \
      "$bin/bench/fastpair_bench_decode" --benchmark_filter="^decode/$c/$k/cfg:${cfg//./\\.}/" \
      > "$out/ncu_${c}_${k}_$cfg.csv" 2>&1
    echo "ncu $c $k $cfg rc=$?" >> "$s"
  done
done
echo done >> "$s"
