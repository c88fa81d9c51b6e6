#!/usr/bin/env bash
# Builds the report benchmarks on the build machine (no GPU needed) and packs them for a GPU
# machine that has no compiler or package registry of ours:
#   build/carry/fastpair-bench.tar.xz         fastpair_bench_{baselines,sweeps,nvcomp} (~2 MB)
#   build/carry-nvcomp/nvcomp.tar.xz          libnvcomp.so.6 (~21 MB; only if .nvcomp/ exists)
# scripts/bench-report.sh unpacks them by itself when FASTPAIR_BENCH_BIN is not set.
# Usage: scripts/stage-bench.sh [BUILD_DIR] (default build/bench; configured if needed, -j2)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/bench}
cd "$root"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake --preset release -B "$build" -DFASTPAIR_BUILD_TESTS=OFF -DFASTPAIR_BUILD_EXAMPLES=OFF -DFASTPAIR_BUILD_TOOLS=OFF
fi
cmake "$build" > /dev/null  # re-check for nvCOMP
targets="fastpair_bench_baselines fastpair_bench_sweeps"
[ -d "$root/.nvcomp/include/nvcomp" ] && targets="$targets fastpair_bench_nvcomp"
cmake --build "$build" --target $targets -j"${JOBS:-2}"
mkdir -p build/carry
files=""
for t in $targets; do files="$files $t"; done
tar -C "$build/bench" -cJf build/carry/fastpair-bench.tar.xz $files
if [ -f "$root/.nvcomp/lib64/libnvcomp.so.6" ]; then
  mkdir -p build/carry-nvcomp
  [ build/carry-nvcomp/nvcomp.tar.xz -nt "$root/.nvcomp/lib64/libnvcomp.so.6" ] ||
    tar -C "$root/.nvcomp/lib64" -cJf build/carry-nvcomp/nvcomp.tar.xz libnvcomp.so.6
fi
ls -la build/carry build/carry-nvcomp 2>/dev/null
