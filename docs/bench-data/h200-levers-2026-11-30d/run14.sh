#!/bin/bash
# device run 14: the split stream (OnPair-12 re-coded so that no token exceeds 8 bytes, decoded by
# the short-token emit; dbS) vs the automatic config of acfabbd (dbA), OnPair-12, all 12 columns,
# alternating A S A S
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
o=$PWD/.devab/res; rm -rf $o; mkdir -p $o
tar xzf .devab/pack/bin.tgz -C .devab
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt; date -u >> $o/gpu.txt
ALL=log_windows,log_spark,log_android,tpch_l_comment,tpch_ps_comment,tpch_c_address,tpch_o_clerk,tpch_l_shipinstruct,en_wiki,zh_text,urls,code_lines
for r in 1 2; do
for v in A S; do
FASTPAIR_BENCH_CODECS=onpair12 FASTPAIR_BENCH_COLUMNS=$ALL timeout 140 .devab/db$v --benchmark_filter='cfg:(auto|paper)/' --benchmark_out=$o/split_${v}$r.json --benchmark_out_format=json > $o/split_${v}$r.txt 2>&1
echo "$v$r rc=$? ${SECONDS}s" >> $o/log.txt
done; done
date -u >> $o/gpu.txt
cat $o/log.txt; grep -i "error\|differs" $o/*.txt | head
tar czf $OUT/res.tgz -C .devab res
