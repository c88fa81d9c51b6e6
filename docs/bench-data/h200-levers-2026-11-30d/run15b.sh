#!/bin/bash
# device run 15b: fastpair_test_gpu (fixed tests) in full + the four sanitizers on [decode];
# then the before (7055f7c) / after (this tree) decode bench, all 36 cells; then ncu of two new auto configs
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
o=$PWD/.devab/res; rm -rf $o; mkdir -p $o
tar xzf .devab/pack/testgpu.tgz; tar xzf .devab/pack/bench.tgz -C .devab
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt; date -u >> $o/gpu.txt
t=.devbin/tests/fastpair_test_gpu
timeout 150 $t > $o/test_gpu.log 2>&1; echo "test_gpu rc=$? ${SECONDS}s $(tail -n 2 $o/test_gpu.log | tr '\n' ' ')" >> $o/log.txt
for tool in memcheck racecheck synccheck initcheck; do
  (timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $t '[decode]~[large]' > $o/san_$tool.log 2>&1; echo "san $tool rc=$? $(grep -h 'SUMMARY' $o/san_$tool.log | tail -n 1) $(tail -n 2 $o/san_$tool.log | tr '\n' ' ')" >> $o/log.txt) &
done
wait; echo "sanitizers done ${SECONDS}s" >> $o/log.txt
ALL=log_windows,log_spark,log_android,tpch_l_comment,tpch_ps_comment,tpch_c_address,tpch_o_clerk,tpch_l_shipinstruct,en_wiki,zh_text,urls,code_lines
for v in Before After; do
FASTPAIR_BENCH_COLUMNS=$ALL timeout 150 .devab/db$v --benchmark_filter='cfg:(auto|paper)/|^copy/' --benchmark_out=$o/final_$v.json --benchmark_out_format=json > $o/final_$v.txt 2>&1
echo "$v rc=$? ${SECONDS}s" >> $o/log.txt
done
M=$(grep '^requested:' docs/bench-data/report/ncu/ncu_metrics.txt | sed 's/^requested: *//' | tr ' ' ',')
for prof in zh_text:onpair12 en_wiki:fsst12; do
  IFS=: read col cod <<< "$prof"
  [ $SECONDS -ge 420 ] && { echo "skip ncu $prof" >> $o/log.txt; continue; }
  FASTPAIR_BENCH_COLUMNS=$col FASTPAIR_BENCH_CODECS=$cod timeout 50 ncu --clock-control none --kernel-name regex:decode_kernel --launch-skip 3 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --metrics "$M" --csv --page raw \
    .devab/dbAfter --benchmark_filter="^decode/$col/$cod/cfg:auto/" > $o/ncu_${col}_${cod}_auto.csv 2> $o/ncu_${col}_${cod}_auto.err
  echo "ncu $prof rc=$? ${SECONDS}s" >> $o/log.txt
done
date -u >> $o/gpu.txt
cat $o/log.txt
tar czf $OUT/res.tgz -C .devab res
