#!/bin/bash
# device run 16: [decode] tests of the fused-offsets change + A/B of the automatic/paper configs
# (before = 2c9594f, after = fused offsets; after also times the chars only)
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
cd .devab && tar xzf pack/r16.tgz && cd ..
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/smi.txt; date -u >> $OUT/smi.txt
[ -n "$TESTS" ] && .devab/fastpair_test_gpu '[decode]' > $OUT/test_decode.txt 2>&1; echo "rc=$?" >> $OUT/test_decode.txt; tail -3 $OUT/test_decode.txt
[ -n "$TESTS" ] && compute-sanitizer --tool memcheck .devab/fastpair_test_gpu 'the decode kernel writes the offsets; null offsets decode the chars only' > $OUT/memcheck_offsets.txt 2>&1; tail -2 $OUT/memcheck_offsets.txt
date -u >> $OUT/smi.txt
export FASTPAIR_BENCH_COLUMNS=log_windows,log_spark,log_android,tpch_ps_comment,tpch_l_comment,tpch_l_shipinstruct,tpch_o_clerk,tpch_c_address,urls,en_wiki,zh_text,code_lines
.devab/bench_before --benchmark_filter='cfg:(auto|paper)/|^copy/' --benchmark_out=$OUT/before.json --benchmark_out_format=json > $OUT/before.txt 2>&1
date -u >> $OUT/smi.txt
.devab/bench_after --benchmark_filter='cfg:(auto|paper)/|^copy/' --benchmark_out=$OUT/after.json --benchmark_out_format=json > $OUT/after.txt 2>&1
date -u >> $OUT/smi.txt
echo "total $SECONDS s"
