#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Builds the .fpc libFuzzer target and the seed-corpus generator with clang directly (no CUDA
# toolchain needed). Usage: fuzz/build.sh [build folder]   (default build/fuzz)
# Then: build/fuzz/fpc_fuzz -max_total_time=600 fuzz/corpus-run fuzz/corpus
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/fuzz}
cxx=${CXX:-clang++}
mkdir -p "$out"
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -I"$root/include")
"$cxx" "${flags[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  "$root/fuzz/fpc_fuzz.cpp" -o "$out/fpc_fuzz"
"$cxx" "${flags[@]}" "$root/fuzz/make_corpus.cpp" -o "$out/make_corpus"
echo "built $out/fpc_fuzz and $out/make_corpus"
