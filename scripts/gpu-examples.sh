#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Runs every example and the GPU paths of the `fastpair` tool on a machine with a GPU, writing
# one log per step and summary.txt to OUTDIR. Exit status 0 only if every step passed.
#   1. examples/fastpair_example_* (generated sample; then on a .fpc of a shared column if present)
#   2. tests/cli/cli_test.sh, which takes its GPU branch when a GPU is present
#   3. CLI: compress -> decompress on the GPU with --check (3 codecs, row ranges, W = 8 and 16,
#      int32/int64 Arrow output), bench (--tile to >= 1 GB) per codec, JSON output
#   4. CLI on the full shared columns (../shared/data, if present): GPU decode + --check, bench
# Usage: scripts/gpu-examples.sh OUTDIR [BUILD_DIR]   (BUILD_DIR default build/release; the tool
#        and the examples are built there if missing)
set -uo pipefail
out=${1:?usage: gpu-examples.sh OUTDIR [BUILD_DIR]}
build=${2:-build/release}
cd "$(dirname "$0")/.."
command -v nvcc > /dev/null || export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$out" && out=$(cd "$out" && pwd)
data=${FASTPAIR_DATA_DIR:-../shared/data}
examples="decode_basic custom_config multi_stream arrow_device"
need_build=0
[ -x "$build/tools/fastpair" ] || need_build=1
for e in $examples; do [ -x "$build/examples/fastpair_example_$e" ] || need_build=1; done
if [ $need_build -eq 1 ]; then
  { [ -f "$build/CMakeCache.txt" ] || cmake --preset release -B "$build"; } > "$out/build.log" 2>&1
  cmake --build "$build" -j"$(nproc)" --target fastpair_cli $(for e in $examples; do echo fastpair_example_$e; done) \
    >> "$out/build.log" 2>&1 || { echo "build failed: see $out/build.log"; exit 1; }
fi
bin=$(cd "$build/tools" && pwd)/fastpair
summary=$out/summary.txt
: > "$summary"
{ nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv; git rev-parse --short HEAD; date -u; } >> "$summary" 2>&1
status=0
work=$out/work
mkdir -p "$work"

# step NAME CMD...: runs CMD with its output in NAME.log; records rc in the summary.
step() {
  local name=$1
  shift
  "$@" > "$out/$name.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then status=1; fi
  if grep -q "skipped" "$out/$name.log" && [[ "$name" == example_* ]]; then
    echo "FAIL $name: skipped although a GPU should be present" | tee -a "$summary"
    status=1
    return
  fi
  printf '%-4s %-55s rc=%d  %s\n' "$([ $rc -eq 0 ] && echo ok || echo FAIL)" "$name" "$rc" \
    "$(grep -E 'GB/s|matches|valid|every partition|check OK|checks,' "$out/$name.log" | tail -1 | cut -c1-110)" | tee -a "$summary"
}

if ! "$bin" devices > "$out/devices.log" 2>&1; then
  echo "no GPU found: $(cat "$out/devices.log")" | tee -a "$summary"
  exit 5
fi
cat "$out/devices.log" >> "$summary"

# 1. Examples.
for e in $examples; do step "example_$e" "$build/examples/fastpair_example_$e"; done

# 3. CLI on a generated sample.
bash scripts/make-sample.sh 1000000 > "$work/sample.txt"
for codec in onpair16 onpair12 fsst12; do
  step "cli_compress_$codec" "$bin" compress "$work/sample.txt" -o "$work/sample_$codec.fpc" --codec "$codec"
  step "cli_gpu_decompress_check_$codec" "$bin" decompress "$work/sample_$codec.fpc" --gpu -o "$work/decoded_$codec.txt" --check "$work/sample.txt"
  step "cli_gpu_decompress_rows_$codec" "$bin" decompress "$work/sample_$codec.fpc" --gpu --rows 12345:654321 -o "$work/rows.txt" --check "$work/sample.txt"
  step "cli_bench_tile_$codec" "$bin" bench "$work/sample_$codec.fpc" --tile --runs 20
done
step "cli_compare_gpu_output_with_input" cmp "$work/sample.txt" "$work/decoded_onpair16.txt"
step "cli_gpu_decompress_w8" "$bin" decompress "$work/sample_onpair16.fpc" --gpu --low-plane-bytes 8 -o "$work/w8.txt" --check "$work/sample.txt"
step "cli_gpu_decompress_w16" "$bin" decompress "$work/sample_onpair16.fpc" --gpu --low-plane-bytes 16 -o "$work/w16.txt" --check "$work/sample.txt"
step "cli_gpu_arrow_int32" "$bin" decompress "$work/sample_onpair12.fpc" --gpu --offsets-out "$work/o32.bin" --chars-out "$work/c32.bin" --offset-bits 32
step "cli_gpu_check_arrow_int32" "$bin" decompress "$work/sample_onpair12.fpc" --gpu --check-offsets "$work/o32.bin" --check-chars "$work/c32.bin"
step "cli_bench_json_int32" "$bin" bench "$work/sample_fsst12.fpc" --tile --runs 10 --offset-bits 32 --json
step "cli_bench_untiled_noflush" "$bin" bench "$work/sample_onpair16.fpc" --runs 10 --no-flush

# 1b. Examples on a file, and 2. the CLI test (GPU branch).
step "example_decode_basic_on_file" "$build/examples/fastpair_example_decode_basic" "$work/sample_onpair16.fpc"
step "example_custom_config_on_file" "$build/examples/fastpair_example_custom_config" "$work/sample_onpair16.fpc"
step "example_multi_stream_on_file" "$build/examples/fastpair_example_multi_stream" "$work/sample_onpair12.fpc" 8
step "example_arrow_device_on_file" "$build/examples/fastpair_example_arrow_device" "$work/sample_fsst12.fpc"
step "cli_test" bash tests/cli/cli_test.sh "$bin" "$work/cli_test" "$data"

# 4. Full shared columns.
if [ -d "$data" ]; then
  for col in en_wiki urls log_spark tpch_l_comment; do
    [ -f "$data/$col.txt.zst" ] || continue
    step "shared_${col}_compress_auto" "$bin" compress "$data/$col.txt.zst" -o "$work/$col.fpc" --codec auto
    step "shared_${col}_gpu_decompress_check" "$bin" decompress "$work/$col.fpc" --gpu -o "$work/$col.out" --check "$data/$col.txt.zst"
    step "shared_${col}_bench_tile" "$bin" bench "$work/$col.fpc" --tile --runs 20
    rm -f "$work/$col.out"
  done
fi
echo "gpu-examples status=$status" | tee -a "$summary"
exit $status
