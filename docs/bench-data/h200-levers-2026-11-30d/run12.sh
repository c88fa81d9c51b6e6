#!/bin/bash
# device run 12: short-token emit (register_words_short) and fused 12-bit code words, vs the auto
# config of 7055f7c and the paper config; all 12 columns x {OnPair-12, FSST-12}, one process
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
o=$PWD/.devab/res; rm -rf $o; mkdir -p $o
tar xzf .devab/pack/bin.tgz -C .devab
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt; date -u >> $o/gpu.txt
ALL=log_windows,log_spark,log_android,tpch_l_comment,tpch_ps_comment,tpch_c_address,tpch_o_clerk,tpch_l_shipinstruct,en_wiki,zh_text,urls,code_lines
F='cfg:(auto|paper|k8.w16.h0.t256.b3.words.texl[sf]|k8.w8.h0.t256.b3.words.texlf|k8.w8.h0.t256.b[34].swords.texl[sf]|k8.w8.h0.t128.b8.swords.texls)/|^copy/'
FASTPAIR_BENCH_SWEEP=1 FASTPAIR_BENCH_CODECS=onpair12,fsst12 FASTPAIR_BENCH_COLUMNS=$ALL timeout 420 .devab/dbA --benchmark_filter="$F" --benchmark_out=$o/ab12.json --benchmark_out_format=json > $o/ab12.txt 2>&1
echo "rc=$? ${SECONDS}s" >> $o/log.txt; date -u >> $o/gpu.txt
cat $o/log.txt; grep -c "cfg:" $o/ab12.txt; grep -i "error\|differs" $o/ab12.txt | head
tar czf $OUT/res.tgz -C .devab res
