#!/bin/bash
# device run 26 (session 11): the per-device cache of launch_offsets_pass: fastpair_test_gpu in full, memcheck of [decode]
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
(cd .devab && tar xzf pack/r26.tgz)
date -u > $OUT/smi.txt
.devab/t26/fastpair_test_gpu > $OUT/test_gpu.txt 2>&1; echo "rc=$?" >> $OUT/test_gpu.txt; tail -3 $OUT/test_gpu.txt
FASTPAIR_TEST_SOURCE_BYTES=65536 compute-sanitizer --tool memcheck --error-exitcode 99 .devab/t26/fastpair_test_gpu '[decode]~[large]' > $OUT/memcheck_decode.txt 2>&1; echo "rc=$?" >> $OUT/memcheck_decode.txt; tail -3 $OUT/memcheck_decode.txt
date -u >> $OUT/smi.txt; echo "total $SECONDS s"
