#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# CI step (.ci/run): builds the two libFuzzer targets with clang (fuzz/build.sh) and runs each for
# FUZZ_SECONDS (default 45) over its committed seed corpus, both at once (one core each). The
# working corpora and any crash artifacts go to a temporary folder, never into the repository.
# Fails on any finding (crash, sanitizer report, property failure, leak, timeout, out of memory)
# and prints the reproducer. Installs the Debian packages clang and libclang-rt-<N>-dev (the
# libFuzzer runtime, only recommended by clang) if they are missing. docs/FUZZING.md describes the
# targets.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${FUZZ_SECONDS:-45}
out=${FUZZ_BUILD_DIR:-build/fuzz-ci}

apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "$@"
}
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
fuzzer_links() {  # clang++ links a libFuzzer target
  echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' \
    > "$probe/t.cpp"
  clang++ -fsanitize=fuzzer,address,undefined "$probe/t.cpp" -o "$probe/t" > /dev/null 2>&1
}
command -v clang++ > /dev/null || apt_install clang
if ! fuzzer_links; then
  major=$(clang++ -dumpversion | cut -d. -f1)
  apt_install "libclang-rt-$major-dev"
  fuzzer_links || { echo "ci-fuzz: clang++ cannot link a libFuzzer target" >&2; exit 1; }
fi
echo "ci-fuzz: $(clang++ --version | head -1)"

t0=$SECONDS
CXX=clang++ bash fuzz/build.sh "$out"
echo "ci-fuzz: built in $((SECONDS - t0)) s"

# The seed generators still write what is committed (the column seeds also check that each seed
# is valid, structural-only or invalid as its name says; a mismatch fails here).
work=$(mktemp -d)
trap 'rm -rf "$probe" "$work"' EXIT
"$out/make_corpus" "$work/seeds-fpc"
"$out/make_column_corpus" "$work/seeds-column" > "$work/seeds-column.log" ||
  { echo "ci-fuzz: FAILED: make_column_corpus: a seed is not what its name says"; exit 1; }
diff -rq "$work/seeds-fpc" fuzz/corpus > /dev/null ||
  echo "ci-fuzz: warning: fuzz/corpus differs from make_corpus output (regenerate it)"
diff -rq "$work/seeds-column" fuzz/column-corpus > /dev/null ||
  echo "ci-fuzz: warning: fuzz/column-corpus differs from make_column_corpus output (regenerate it)"

run() {  # name seeds: runs target `name` in the background, log in $work/name.log
  local name=$1 seeds=$2
  mkdir -p "$work/$name-corpus" "$work/$name-artifacts"
  "$out/$name" -max_total_time="$secs" -max_len=4096 -timeout=30 -print_final_stats=1 \
    -artifact_prefix="$work/$name-artifacts/" "$work/$name-corpus" "$seeds" > "$work/$name.log" 2>&1
}
run fpc_fuzz fuzz/corpus &
fpc=$!
run column_fuzz fuzz/column-corpus &
col=$!
rc_fpc=0 rc_col=0
wait "$fpc" || rc_fpc=$?
wait "$col" || rc_col=$?

failed=0
for name in fpc_fuzz column_fuzz; do
  [ "$name" = fpc_fuzz ] && rc=$rc_fpc || rc=$rc_col
  log=$work/$name.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' || true)
  artifacts=$(ls "$work/$name-artifacts" | wc -l)
  if [ "$rc" -ne 0 ] || [ "$artifacts" -ne 0 ]; then
    failed=1
    echo "ci-fuzz: $name: FINDING (exit $rc, $artifacts artifact(s)); end of its log:"
    tail -60 "$log"
    for a in "$work/$name-artifacts"/*; do
      [ -f "$a" ] && echo "ci-fuzz: $name: reproducer $(basename "$a") (base64): $(base64 -w0 "$a")"
    done
  else
    echo "ci-fuzz: $name: ok: ${secs} s, ${execs:-?} executions (${rate:-?}/s), ${last:-?}, no findings"
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "ci-fuzz: FAILED (reproduce: fuzz/build.sh, then build/fuzz/<target> <reproducer file>)"
  exit 1
fi
echo "ci-fuzz: PASSED: fpc_fuzz and column_fuzz ran ${secs} s each with no findings"
