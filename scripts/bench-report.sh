#!/usr/bin/env bash
# Runs the benchmark suite behind docs/notes/paper-figures.md (the paper's figures) on a GPU machine, in parts that each stay
# well under 9 minutes on an H200 (each part stops starting new columns after
# FASTPAIR_PART_BUDGET_S seconds, default 480, and logs what it skipped).
#
# Usage: scripts/bench-report.sh OUTDIR PART... [--tar]
#   PART: env      GPU / driver / clocks (nvidia-smi), always cheap
#         suite1   baselines (auto, paper, naive, CPU, copy) on zh_text en_wiki code_lines urls
#         suite2   ... on log_android log_windows log_spark tpch_l_comment
#         suite3   ... on tpch_ps_comment tpch_c_address tpch_o_clerk tpch_l_shipinstruct
#         sweeps   paper Figures 2 and 3 (K x T x B, K x H) on log_windows OnPair-12, W = 8
#         fig4a    Figure 4 (W = 8 vs 16, OnPair-16 and -12) on the first six columns
#         fig4b    ... on the last six columns
#         ncu      scripts/ncu-counters.sh (LSU wavefronts per byte, DRAM, L1)
#         nvcomp   nvCOMP LZ4/Snappy/Zstd/GDeflate/ANS on all columns (needs fastpair_bench_nvcomp)
#         all      every part above, one after another (for a machine without a time limit)
#         suite:C1,C2 / fig4:C1,C2 / nvcomp:C1,C2   the same on the named columns (e.g. to redo
#                  columns a part skipped when its budget ran out); folder suite-C1-C2
#   Each part writes OUTDIR/<part>/ (JSON from --benchmark_out, text logs, env.txt); with --tar,
#   each part is packed into OUTDIR/fastpair-bench-<part>.tgz and its folder removed (one file
#   per part, for transports that return few files).
# Every benchmark process handles ONE column, so device memory holds one column's inputs at a time.
#
# Environment:
#   FASTPAIR_DATA_DIR     folder of the *.txt.zst columns (required unless the build default works)
#   FASTPAIR_BENCH_BIN    folder holding fastpair_bench_{baselines,sweeps,nvcomp}; if it has none
#                         and build/carry/fastpair-bench.tar.xz exists (scripts/stage-bench.sh),
#                         that archive is unpacked to /tmp/fastpair-bench and used
#   FASTPAIR_NVCOMP_LIB   folder of libnvcomp.so.6 (default .nvcomp/lib64, or unpacked from
#                         build/carry-nvcomp/nvcomp.tar.xz)
#   FASTPAIR_PART_BUDGET_S  per-part time budget in seconds (default 480)
#   Other FASTPAIR_BENCH_* variables pass through to the benchmarks.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bench-report.sh OUTDIR PART... [--tar]}; shift
tar_parts=0; parts=()
for a in "$@"; do case "$a" in --tar) tar_parts=1;; *) parts+=("$a");; esac; done
[ ${#parts[@]} -gt 0 ] || { echo "bench-report: name at least one PART"; exit 2; }
[ "${parts[*]}" = all ] && parts=(env suite1 suite2 suite3 sweeps fig4a fig4b ncu nvcomp)
mkdir -p "$out"; out=$(cd "$out" && pwd)
budget=${FASTPAIR_PART_BUDGET_S:-480}

bin=${FASTPAIR_BENCH_BIN:-$root/build/bench/bench}
if [ ! -x "$bin/fastpair_bench_baselines" ] && [ -f "$root/build/carry/fastpair-bench.tar.xz" ]; then
  mkdir -p /tmp/fastpair-bench && tar -C /tmp/fastpair-bench -xJf "$root/build/carry/fastpair-bench.tar.xz"
  bin=/tmp/fastpair-bench
fi
nvlib=${FASTPAIR_NVCOMP_LIB:-$root/.nvcomp/lib64}
if [ ! -f "$nvlib/libnvcomp.so.6" ] && [ -f "$root/build/carry-nvcomp/nvcomp.tar.xz" ]; then
  mkdir -p /tmp/fastpair-nvcomp && tar -C /tmp/fastpair-nvcomp -xJf "$root/build/carry-nvcomp/nvcomp.tar.xz"
  nvlib=/tmp/fastpair-nvcomp
fi
export LD_LIBRARY_PATH="$root/.deps/usr/lib/x86_64-linux-gnu:$nvlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -n "${FASTPAIR_DATA_DIR:-}" ] || { [ -d "$root/.devdata" ] && export FASTPAIR_DATA_DIR=$root/.devdata; }

write_env() {  # write_env FILE
  {
    echo "date_utc: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "git_commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "host_cpus: $(nproc)"
    echo "host_cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    nvidia-smi --query-gpu=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.draw,power.limit,temperature.gpu,memory.total,persistence_mode --format=csv 2>&1
    nvidia-smi -q -d CLOCK 2>&1 | sed -n '1,60p'
  } > "$1"
}

declare -A part_columns=(
  [suite1]="zh_text en_wiki code_lines urls"
  [suite2]="log_android log_windows log_spark tpch_l_comment"
  [suite3]="tpch_ps_comment tpch_c_address tpch_o_clerk tpch_l_shipinstruct"
  [fig4a]="zh_text en_wiki code_lines urls log_android log_windows"
  [fig4b]="log_spark tpch_l_comment tpch_ps_comment tpch_c_address tpch_o_clerk tpch_l_shipinstruct"
  [nvcomp]="zh_text en_wiki code_lines urls log_android log_windows log_spark tpch_l_comment tpch_ps_comment tpch_c_address tpch_o_clerk tpch_l_shipinstruct"
)

run_bench() {  # run_bench DIR NAME EXE [env...] -- ; JSON to DIR/NAME.json, log to DIR/NAME.log
  local dir=$1 name=$2 exe=$3; shift 3
  if [ ! -x "$exe" ]; then echo "$name: $exe missing" | tee -a "$dir/summary.txt"; return 1; fi
  local t0=$SECONDS
  env "$@" "$exe" --benchmark_out="$dir/$name.json" --benchmark_out_format=json > "$dir/$name.log" 2>&1
  local rc=$?
  local errs; errs=$(grep -c "ERROR OCCURRED" "$dir/$name.log")
  echo "$name rc=$rc $((SECONDS - t0))s benchmark_errors=$errs" | tee -a "$dir/summary.txt"
  [ "$errs" -eq 0 ] || rc=${rc/#0/3}
  return $rc
}

status=0
for part in "${parts[@]}"; do
  pname=$(echo "$part" | tr ':,' '--')  # folder/archive name: suite:urls,zh_text -> suite-urls-zh_text
  dir="$out/$pname"; mkdir -p "$dir"; : > "$dir/summary.txt"
  write_env "$dir/env.txt"
  start=$SECONDS
  over_budget() { [ $((SECONDS - start)) -ge "$budget" ]; }
  cols=${part_columns[$part]:-}
  case "$part" in *:*) cols=$(echo "${part#*:}" | tr ',' ' ');; esac
  case "$part" in
    env) cat "$dir/env.txt" ;;
    suite1|suite2|suite3|suite:*)
      for c in $cols; do
        if over_budget; then echo "SKIPPED $c (part budget ${budget}s spent)" | tee -a "$dir/summary.txt"; status=1; continue; fi
        run_bench "$dir" "baselines_$c" "$bin/fastpair_bench_baselines" FASTPAIR_BENCH_COLUMNS="$c" || status=1
      done ;;
    sweeps)
      run_bench "$dir" sweeps_fig23 "$bin/fastpair_bench_sweeps" FASTPAIR_SWEEP=fig2,fig3 || status=1 ;;
    fig4a|fig4b|fig4:*)
      for c in $cols; do
        if over_budget; then echo "SKIPPED $c (part budget ${budget}s spent)" | tee -a "$dir/summary.txt"; status=1; continue; fi
        run_bench "$dir" "sweeps_fig4_$c" "$bin/fastpair_bench_sweeps" FASTPAIR_SWEEP=fig4 FASTPAIR_BENCH_COLUMNS="$c" || status=1
      done ;;
    ncu)
      FASTPAIR_BENCH_BIN=$bin "$root/scripts/ncu-counters.sh" "$dir" 2>&1 | tee -a "$dir/summary.txt"
      [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
    nvcomp|nvcomp:*)
      for c in $cols; do
        if over_budget; then echo "SKIPPED $c (part budget ${budget}s spent)" | tee -a "$dir/summary.txt"; status=1; continue; fi
        run_bench "$dir" "nvcomp_$c" "$bin/fastpair_bench_nvcomp" FASTPAIR_BENCH_COLUMNS="$c" || status=1
      done ;;
    *) echo "bench-report: unknown part $part"; status=1 ;;
  esac
  echo "part $part done in $((SECONDS - start))s" | tee -a "$dir/summary.txt"
  if [ $tar_parts -eq 1 ]; then
    tar -C "$out" -czf "$out/fastpair-bench-$pname.tgz" "$pname" && rm -rf "$dir"
  fi
done
exit $status
