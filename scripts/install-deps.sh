#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages fastpair's build needs (cmake, Catch2, Google Benchmark, zstd),
# skipping those already present. Needs root (or sudo) and apt; the CUDA toolkit is not a Debian
# package here and must already be installed (nvcc on PATH or in /usr/local/cuda/bin).
set -euo pipefail
need=()
for p in cmake catch2 libbenchmark-dev zstd libzstd-dev; do
  dpkg -s "$p" > /dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ] ||
  { echo "install-deps.sh: the CUDA toolkit (nvcc) is required and was not found" >&2; exit 1; }
