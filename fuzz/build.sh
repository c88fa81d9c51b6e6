#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Builds the two libFuzzer targets and their seed-corpus generators with clang directly (no CUDA
# toolchain needed): fpc_fuzz + make_corpus (the .fpc reader) and column_fuzz +
# make_column_corpus (columns built in memory). Usage: fuzz/build.sh [build folder]
# (default build/fuzz). Then, e.g.:
#   build/fuzz/fpc_fuzz    -max_total_time=300 <scratch corpus folder> fuzz/corpus
#   build/fuzz/column_fuzz -max_total_time=300 <scratch corpus folder> fuzz/column-corpus
# (docs/FUZZING.md; the first folder receives the new units, so keep it out of the repository).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/fuzz}
cxx=${CXX:-clang++}
mkdir -p "$out"
flags=(-std=c++17 -O1 -g -fno-omit-frame-pointer -I"$root/include")
san=(-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
# The two fuzz targets build in parallel (each takes most of the time).
"$cxx" "${flags[@]}" "${san[@]}" "$root/fuzz/fpc_fuzz.cpp" -o "$out/fpc_fuzz" &
fpc=$!
"$cxx" "${flags[@]}" "${san[@]}" -fsanitize-coverage-ignorelist="$root/fuzz/column_fuzz.ignorelist" \
  "$root/fuzz/column_fuzz.cpp" -o "$out/column_fuzz" &
col=$!
"$cxx" "${flags[@]}" "$root/fuzz/make_corpus.cpp" -o "$out/make_corpus"
"$cxx" "${flags[@]}" "$root/fuzz/make_column_corpus.cpp" -o "$out/make_column_corpus"
wait "$fpc"
wait "$col"
echo "built $out/fpc_fuzz, $out/make_corpus, $out/column_fuzz and $out/make_column_corpus"
