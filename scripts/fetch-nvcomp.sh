#!/usr/bin/env bash
# Fetches NVIDIA nvCOMP's C/C++ library from PyPI (wheel nvidia-libnvcomp-cu13: libnvcomp.so.6,
# headers, CMake config; it links the CUDA runtime statically) and unpacks it into .nvcomp/ at
# the repository root (ignored by git):
#   .nvcomp/include/nvcomp/*.h   .nvcomp/lib64/libnvcomp.so.6 (+ libnvcomp.so symlink)
# Then configure with -DFASTPAIR_NVCOMP_ROOT=$PWD/.nvcomp (the default) to build
# fastpair_bench_nvcomp. Runs on the build machine (needs pip and network access to PyPI).
# Usage: scripts/fetch-nvcomp.sh [VERSION]   (default: the newest release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
spec=nvidia-libnvcomp-cu13${1:+==$1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
  --platform manylinux_2_28_x86_64 -d "$tmp" "$spec"
whl=$(ls "$tmp"/nvidia_libnvcomp_cu13-*.whl)
python3 -m zipfile -e "$whl" "$tmp/x"
rm -rf "$root/.nvcomp"
mkdir -p "$root/.nvcomp"
cp -r "$tmp/x/nvidia/libnvcomp/include" "$tmp/x/nvidia/libnvcomp/lib64" "$root/.nvcomp/"
cp "$tmp/x/nvidia/libnvcomp/LICENSE" "$root/.nvcomp/" 2>/dev/null || true
ln -sf libnvcomp.so.6 "$root/.nvcomp/lib64/libnvcomp.so"
basename "$whl" > "$root/.nvcomp/WHEEL"
echo "nvCOMP unpacked into $root/.nvcomp ($(cat "$root/.nvcomp/WHEEL"))"
