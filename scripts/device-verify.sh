#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# One device run: builds the tests, examples and CLI for sm_90 on the GPU machine (its 16 cores
# build in a few minutes what the 2-core build machine builds in twenty), then runs
# scripts/gpu-verify.sh over them. Needs, carried beside the tree: .deps (Catch2 and libzstd-dev
# unpacked by shared/tools/device-deps.sh plus `apt-get download libzstd-dev`) and .devdata (the
# shared columns). The logs go to OUTDIR/verify.tgz, the summary to OUTDIR/summary.txt.
# Usage: scripts/device-verify.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: device-verify.sh OUTDIR}
export PATH=/usr/local/cuda/bin:$PATH FASTPAIR_DATA_DIR=$PWD/.devdata
t0=$SECONDS
cmake -S . -B build/device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_PREFIX_PATH="$PWD/.deps/usr" -DFASTPAIR_DATA_DIR="$PWD/.devdata" -DFASTPAIR_BUILD_TESTS=ON \
  -DFASTPAIR_BUILD_BENCH=OFF -DFASTPAIR_BUILD_EXAMPLES=ON -DFASTPAIR_BUILD_TOOLS=ON > "$out/configure.log" 2>&1 ||
  { tail -30 "$out/configure.log"; exit 1; }
cmake --build build/device -j"$(nproc)" > "$out/build.log" 2>&1 || { grep -m 20 -A 8 'error' "$out/build.log"; exit 1; }
echo "build: $((SECONDS - t0)) s on $(nproc) cores"
v=/tmp/verify
rm -rf $v
mkdir -p $v
(while sleep 5; do cp $v/summary.txt "$out/summary.txt" 2> /dev/null; done) &
loop=$!
FASTPAIR_VERIFY_LIMIT=${FASTPAIR_VERIFY_LIMIT:-300} bash scripts/gpu-verify.sh $v build/device 8
rc=$?
kill $loop
cp $v/summary.txt "$out/summary.txt"
echo "gpu-verify status=$rc ($((SECONDS - t0)) s with the build)" | tee -a "$out/summary.txt"
find $v -type f -size +1M -exec sh -c 'tail -c 400000 "$1" > "$1.tail" && mv "$1.tail" "$1"' _ {} \;
(cd /tmp && tar czf "$out/verify.tgz" verify)
cat "$out/summary.txt"
exit $rc
