#!/bin/bash
# device run 24 (session 11): scripts/gpu-verify.sh on 77693e2 + the test fix (prepare synced before other streams decode)
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
# the three tests that decode on non-blocking streams, 8 memcheck runs at once (the load under which run 23 failed)
for i in 1 2 3 4 5 6 7 8; do
  (FASTPAIR_TEST_SOURCE_BYTES=65536 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 .devbin/tests/fastpair_test_gpu \
    'concurrent decodes of row ranges on several streams,decode_column is capturable in a CUDA graph,work queued after decode_column sees its chars and offsets' > /tmp/stress$i.log 2>&1; echo "stress $i rc=$? $(grep -E 'test cases|All tests' /tmp/stress$i.log | tail -1)" >> $OUT/stress.txt) &
done
wait
cat $OUT/stress.txt
echo "total $SECONDS s"
