#!/bin/bash
# device run 23 (session 11): scripts/gpu-verify.sh on 77693e2 (the offsets pass beside the decode, PDL)
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
tar xzf .devab/pack/devbin.tgz; 
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/smi.txt; date -u >> $OUT/smi.txt
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
