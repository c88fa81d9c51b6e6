#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# The README's main job: build the `fastpair` tool (release preset), then on a sample column:
# compress -> decode on the GPU -> verify against the input, and print the throughput (GPU decode
# GB/s beside a device-to-device copy, on the sample tiled to >= 1 GB). On a machine without a GPU
# it says so and runs the CPU path (compress -> CPU reference decode -> verify).
#
# Usage: bash scripts/main-job.sh [--rows N] [--column NAME] [--codec onpair16|onpair12|fsst12|auto]
#   --rows N       rows of the generated sample (default 1000000, about 80 MB)
#   --column NAME  use ../shared/data/NAME.txt.zst instead of the generated sample, if present
#   --codec C      codec (default onpair16)
# Environment: JOBS (parallel build jobs, default nproc), WORK (scratch folder, default
# build/main-job), BUILD (build folder of the release preset, default build/release).
set -euo pipefail
cd "$(dirname "$0")/.."
rows=1000000 column="" codec=onpair16
while [ $# -gt 0 ]; do
  case "$1" in
    --rows) rows=${2:?--rows needs a value}; shift 2 ;;
    --column) column=${2:?--column needs a value}; shift 2 ;;
    --codec) codec=${2:?--codec needs a value}; shift 2 ;;
    -h|--help) sed -n '4,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "main-job.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
command -v nvcc > /dev/null || export PATH=/usr/local/cuda/bin:$PATH
build=${BUILD:-build/release}
work=${WORK:-build/main-job}
mkdir -p "$work"

echo "== 0. set up (Debian packages: scripts/install-deps.sh)"
bash scripts/install-deps.sh

echo "== 1. build (cmake --preset release; target fastpair_cli)"
if [ "$build" = build/release ]; then cmake --preset release > "$work/configure.log"
else cmake --preset release -B "$build" > "$work/configure.log"; fi
cmake --build "$build" -j"${JOBS:-$(nproc)}" --target fastpair_cli
bin=$build/tools/fastpair

echo "== 2. sample"
if [ -n "$column" ]; then
  sample=../shared/data/$column.txt.zst
  [ -f "$sample" ] || { echo "main-job.sh: $sample not found (../shared/data is optional; drop --column to use a generated sample)" >&2; exit 2; }
  echo "using $sample"
else
  sample=$work/sample.txt
  if [ ! -f "$sample" ] || [ "$(wc -l < "$sample")" -ne "$rows" ]; then
    bash scripts/make-sample.sh "$rows" > "$sample"
  fi
  echo "generated $sample: $rows rows, $(stat -c %s "$sample") bytes (scripts/make-sample.sh)"
fi

echo "== 3. compress ($codec)"
"$bin" compress "$sample" -o "$work/sample.fpc" --codec "$codec"
"$bin" inspect "$work/sample.fpc" | grep -E "codes |decoded bytes|entries|mean token|chosen W|sidecar overhead"

if gpu=$("$bin" devices 2> "$work/devices.err"); then
  echo "== 4. decode on the GPU and verify"
  echo "$gpu"
  "$bin" decompress "$work/sample.fpc" --gpu -o "$work/decoded.txt" --check "$sample"
  echo "== 5. GPU decode throughput (sample tiled to >= 1 GB, L2 flushed, 20 runs)"
  "$bin" bench "$work/sample.fpc" --tile --runs 20
  echo "main job: OK (GPU)"
else
  echo "== 4. NO GPU: $(sed 's/^fastpair: no GPU: //' "$work/devices.err")"
  echo "   This machine has no usable CUDA GPU, so the GPU decode and its throughput are skipped."
  echo "   Running the CPU path instead: decode with the CPU reference decoder and verify."
  "$bin" decompress "$work/sample.fpc" --cpu -o "$work/decoded.txt" --check "$sample"
  echo "main job: OK (CPU path only; no GPU)"
fi
