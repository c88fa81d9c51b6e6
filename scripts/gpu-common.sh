# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/gpu-dsv.sh and scripts/gpu-predicates.sh: their shared prologue and the
# one-line-per-check summary.

# require_bins HINT BIN...: exits 1 (printing HINT) if a BIN is not an executable file.
require_bins() {
  local hint=$1 b
  shift
  for b in "$@"; do
    [ -x "$b" ] || { echo "missing $b ($hint)"; exit 1; }
  done
}

# gpu_begin OUTDIR: compute-sanitizer on PATH, OUTDIR created and made absolute in $out,
# $out/summary.txt in $summary started with the GPU, the commit and the date; status=0.
gpu_begin() {
  command -v compute-sanitizer > /dev/null || export PATH=/usr/local/cuda/bin:$PATH
  mkdir -p "$1" && out=$(cd "$1" && pwd)
  summary=$out/summary.txt
  : > "$summary"
  { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; echo "commit ${FASTPAIR_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}"; date -u; } >> "$summary" 2>&1
  status=0
}

# record NAME RC DETAIL: one summary line; a non-zero RC sets status=1.
record() {
  [ "$2" -ne 0 ] && status=1
  printf '%-4s %-34s rc=%-3d %s\n' "$([ "$2" -eq 0 ] && echo ok || echo FAIL)" "$1" "$2" "$3" | tee -a "$summary"
}
