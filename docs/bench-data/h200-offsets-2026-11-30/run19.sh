#!/bin/bash
# device run 19: second round of the final bench (decode and chars, automatic and paper configs)
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
(cd .devab && tar xzf pack/bench.tgz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/smi.txt; date -u >> $OUT/smi.txt
export FASTPAIR_BENCH_COLUMNS=log_windows,log_spark,log_android,tpch_ps_comment,tpch_l_comment,tpch_l_shipinstruct,tpch_o_clerk,tpch_c_address,urls,en_wiki,zh_text,code_lines
.devab/bench_final --benchmark_filter='cfg:(auto|paper)/|^copy/' --benchmark_out=$OUT/final2.json --benchmark_out_format=json > $OUT/final2.txt 2>&1
date -u >> $OUT/smi.txt
