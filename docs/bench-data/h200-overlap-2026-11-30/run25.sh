#!/bin/bash
# device run 25 (session 11): same-run comparison of the offsets pass on a second stream
# (bench_ovl ovl_after/) and beside the decode by PDL (bench_pdl decode/), serial (bench_ovl decode/)
cd "$(dirname "$0")/.."
export FASTPAIR_DATA_DIR=$PWD/.devdata LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu PATH=/usr/local/cuda/bin:$PATH
(cd .devab && tar xzf pack/r25.tgz)
date -u > $OUT/smi.txt
export FASTPAIR_BENCH_OVERLAP=1 FASTPAIR_BENCH_COLUMNS=log_windows,tpch_l_comment,tpch_l_shipinstruct,tpch_o_clerk
.devab/bench_ovl --benchmark_filter='^(decode|ovl_after)/.*cfg:auto/' --benchmark_out=$OUT/ovl.json --benchmark_out_format=json > $OUT/ovl.txt 2>&1
.devab/bench_pdl --benchmark_filter='^decode/.*cfg:auto/' --benchmark_out=$OUT/pdl.json --benchmark_out_format=json > $OUT/pdl.txt 2>&1
date -u >> $OUT/smi.txt; echo "total $SECONDS s"
