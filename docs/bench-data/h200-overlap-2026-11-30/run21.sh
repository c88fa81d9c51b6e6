#!/bin/bash
# device run 21 (session 11): overlap experiment (offsets pass on a second stream) on 6 columns,
# then scripts/gpu-verify.sh on the binaries of head 8e4e712
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
tar xzf .devab/pack/devbin.tgz; (cd .devab && tar xzf pack/bench.tgz)
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/smi.txt; date -u >> $OUT/smi.txt
FASTPAIR_BENCH_OVERLAP=1 FASTPAIR_BENCH_CODECS=onpair16,onpair12 FASTPAIR_BENCH_COLUMNS=log_windows,tpch_l_comment,tpch_l_shipinstruct,tpch_o_clerk,en_wiki,urls \
  .devab/bench_ovl --benchmark_filter='^(decode|chars|ovl_after|ovl_before)/.*cfg:(auto|paper)/|^copy/' --benchmark_out=$OUT/ovl.json --benchmark_out_format=json > $OUT/ovl.txt 2>&1
date -u >> $OUT/smi.txt
V=/tmp/verify; rm -rf $V; mkdir -p $V
(while sleep 5; do cp $V/summary.txt $OUT/summary.txt 2>/dev/null; done) &
loop=$!
FASTPAIR_VERIFY_LIMIT=400 bash scripts/gpu-verify.sh $V .devbin 8
rc=$?
kill $loop
cp $V/summary.txt $OUT/summary.txt; echo "gpu-verify status=$rc ($SECONDS s)" >> $OUT/summary.txt; date -u >> $OUT/smi.txt
find $V -type f -size +1M -exec sh -c 'tail -c 400000 "$1" > "$1.tail" && mv "$1.tail" "$1"' _ {} \;
(cd /tmp && tar czf $OUT/verify.tgz verify)
cat $OUT/summary.txt
