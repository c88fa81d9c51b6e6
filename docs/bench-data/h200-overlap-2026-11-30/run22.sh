#!/bin/bash
# device run 22 (session 11): the offsets pass beside the decode (programmatic dependent launch):
# fastpair_test_gpu in full, sanitizers of the decode API tests, A/B of decode/ before (8e4e712,
# bench_ovl: serial offsets pass; ovl_after = second stream) and after (bench_pdl)
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
(cd .devab && tar xzf pack/r22.tgz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/smi.txt; date -u >> $OUT/smi.txt
.devab/t22/fastpair_test_gpu > $OUT/test_gpu.txt 2>&1; echo "rc=$?" >> $OUT/test_gpu.txt; tail -3 $OUT/test_gpu.txt
for tool in memcheck racecheck synccheck initcheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 .devab/t22/fastpair_test_gpu '[decode]~[large]' > $OUT/${tool}_decode.txt 2>&1; echo "rc=$?" >> $OUT/${tool}_decode.txt; tail -2 $OUT/${tool}_decode.txt
done
date -u >> $OUT/smi.txt
export FASTPAIR_BENCH_COLUMNS=log_windows,log_spark,log_android,tpch_ps_comment,tpch_l_comment,tpch_l_shipinstruct,tpch_o_clerk,tpch_c_address,urls,en_wiki,zh_text,code_lines
.devab/bench_ovl --benchmark_filter='^decode/.*cfg:(auto|paper)/' --benchmark_out=$OUT/before.json --benchmark_out_format=json > $OUT/before.txt 2>&1
date -u >> $OUT/smi.txt
.devab/bench_pdl --benchmark_filter='^(decode|chars)/.*cfg:(auto|paper)/|^copy/' --benchmark_out=$OUT/after.json --benchmark_out_format=json > $OUT/after.txt 2>&1
date -u >> $OUT/smi.txt
echo "total $SECONDS s"
