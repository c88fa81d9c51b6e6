#!/bin/bash
# device run 20: compact row lengths for the offsets pass: fastpair_test_gpu in full, memcheck and
# racecheck of the offsets test and [cascade], A/B of decode/ (chars + int64 offsets) before
# (9b0b942) and after
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
(cd .devab && tar xzf pack/r20.tgz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/smi.txt; date -u >> $OUT/smi.txt
T='row offsets at int32 and int64 stay inside their buffer; null offsets decode the chars only'
.devab/fastpair_test_gpu > $OUT/test_gpu.txt 2>&1; echo "rc=$?" >> $OUT/test_gpu.txt; tail -3 $OUT/test_gpu.txt
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 99 .devab/fastpair_test_gpu "$T" > $OUT/${tool}_offsets.txt 2>&1; echo "rc=$?" >> $OUT/${tool}_offsets.txt; tail -3 $OUT/${tool}_offsets.txt
done
FASTPAIR_TEST_SOURCE_BYTES=65536 compute-sanitizer --tool memcheck --error-exitcode 99 .devab/fastpair_test_gpu '[cascade]~[large]' > $OUT/memcheck_cascade.txt 2>&1; echo "rc=$?" >> $OUT/memcheck_cascade.txt; tail -3 $OUT/memcheck_cascade.txt
date -u >> $OUT/smi.txt
export FASTPAIR_BENCH_COLUMNS=log_windows,log_spark,log_android,tpch_ps_comment,tpch_l_comment,tpch_l_shipinstruct,tpch_o_clerk,tpch_c_address,urls,en_wiki,zh_text,code_lines
.devab/bench_final --benchmark_filter='^decode/.*cfg:(auto|paper)/|^copy/' --benchmark_out=$OUT/before.json --benchmark_out_format=json > $OUT/before.txt 2>&1
date -u >> $OUT/smi.txt
.devab/bench_rowlen --benchmark_filter='^decode/.*cfg:(auto|paper)/|^copy/' --benchmark_out=$OUT/after.json --benchmark_out_format=json > $OUT/after.txt 2>&1
date -u >> $OUT/smi.txt
echo "total $SECONDS s"
