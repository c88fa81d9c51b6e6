#!/bin/bash
# device run 13: the new automatic config (fused 12-bit codes, short-token emit for FSST-12) vs
# the paper config, all 36 cells (dbA); and the split emit (dbB: 8-byte halves, the high half only
# for tokens > 8 B) vs dbA on OnPair-16/-12, alternating A B A B
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
o=$PWD/.devab/res; rm -rf $o; mkdir -p $o
tar xzf .devab/pack/bin.tgz -C .devab
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt; date -u >> $o/gpu.txt
ALL=log_windows,log_spark,log_android,tpch_l_comment,tpch_ps_comment,tpch_c_address,tpch_o_clerk,tpch_l_shipinstruct,en_wiki,zh_text,urls,code_lines
FASTPAIR_BENCH_COLUMNS=$ALL timeout 200 .devab/dbA --benchmark_filter='cfg:(auto|paper)/|^copy/' --benchmark_out=$o/final_A.json --benchmark_out_format=json > $o/final_A.txt 2>&1
echo "A all rc=$? ${SECONDS}s" >> $o/log.txt
F='cfg:(auto|k8.w8.h0.t256.b3.words.texlf)/'
for r in 1 2; do
for v in B A; do
FASTPAIR_BENCH_SWEEP=1 FASTPAIR_BENCH_CODECS=onpair16,onpair12 FASTPAIR_BENCH_COLUMNS=$ALL timeout 150 .devab/db$v --benchmark_filter="$F" --benchmark_out=$o/split_${v}$r.json --benchmark_out_format=json > $o/split_${v}$r.txt 2>&1
echo "$v$r rc=$? ${SECONDS}s" >> $o/log.txt
done; done
date -u >> $o/gpu.txt
cat $o/log.txt; grep -il "error\|differs" $o/*.txt | head
tar czf $OUT/res.tgz -C .devab res
