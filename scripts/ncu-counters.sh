#!/usr/bin/env bash
# Hardware counters of ONE decode launch (ncu --clock-control none) for the automatic ("default")
# and the paper-faithful configurations, on a log column and a text column; writes per profile
#   OUTDIR/ncu_<column>_<codec>_<cfg>.csv        ncu --page raw (one row: the decode kernel)
#   OUTDIR/ncu_<column>_<codec>_<cfg>.bench.json the benchmark's JSON (decoded bytes, codes, W...)
#   OUTDIR/ncu_<column>_<codec>_<cfg>.log        stdout/stderr of the run
#   OUTDIR/ncu_metrics.txt                       the metrics actually requested, and why others were dropped
# scripts/ncu_parse.py (run anywhere) turns them into LSU wavefronts per decoded byte with the
# paper's breakdown; scripts/make_report.py calls it.
#
# How one launch is isolated: fastpair_bench_baselines with FASTPAIR_BENCH_PROFILE=1 decodes once
# (the correctness gate, not profiled), then calls decode_column between cudaProfilerStart/Stop;
# ncu runs with --profile-from-start off --kernel-name regex:decode_kernel --launch-count 1.
#
# Usage: scripts/ncu-counters.sh OUTDIR
# Environment: FASTPAIR_BENCH_BIN (folder of fastpair_bench_baselines; default build/bench/bench),
#   FASTPAIR_NCU_PROFILES (default "log_windows:onpair16 log_windows:onpair12 en_wiki:onpair12 en_wiki:onpair16"),
#   FASTPAIR_NCU_CONFIGS (default "auto paper"), FASTPAIR_NCU_BUDGET_S (stop starting profiles
#   after this many seconds, default 480), NCU (default ncu), FASTPAIR_DATA_DIR.
set -uo pipefail
out=${1:?usage: ncu-counters.sh OUTDIR}
mkdir -p "$out"
bin=${FASTPAIR_BENCH_BIN:-build/bench/bench}/fastpair_bench_baselines
ncu=${NCU:-ncu}
profiles=${FASTPAIR_NCU_PROFILES:-log_windows:onpair16 log_windows:onpair12 en_wiki:onpair12 en_wiki:onpair16}
configs=${FASTPAIR_NCU_CONFIGS:-auto paper}
[ -x "$bin" ] || { echo "ncu-counters: $bin not found (set FASTPAIR_BENCH_BIN)"; exit 2; }
command -v "$ncu" >/dev/null || { echo "ncu-counters: $ncu not found"; exit 2; }

# Wanted metrics. Breakdown (DESIGN.md §4): shared stores, shared loads (drain), other shared
# (shuffles etc. = mem_shared - ld - st), global/local reads and writes (mem_lg cmd read/write),
# other = total - all of these.
wanted="gpu__time_duration.sum
l1tex__data_pipe_lsu_wavefronts.sum
l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
l1tex__data_pipe_lsu_wavefronts_mem_lg.sum
l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum
l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_write.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
l1tex__throughput.avg.pct_of_peak_sustained_active
l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_active
dram__throughput.avg.pct_of_peak_sustained_elapsed
dram__bytes_read.sum
dram__bytes_write.sum
lts__t_sector_hit_rate.pct
sm__throughput.avg.pct_of_peak_sustained_elapsed
sm__warps_active.avg.pct_of_peak_sustained_active
sm__cycles_elapsed.avg
smsp__inst_executed_op_shfl.sum
launch__registers_per_thread
launch__occupancy_limit_registers"

note="$out/ncu_metrics.txt"; : > "$note"
"$ncu" --version >> "$note" 2>&1
# 1) Keep the names that `ncu --query-metrics` knows (base name = up to the first '.').
"$ncu" --query-metrics > "$out/ncu_query_metrics.txt" 2>&1 || true
known=0; metrics=""
for m in $wanted; do
  base=${m%%.*}
  if grep -qw -- "$base" "$out/ncu_query_metrics.txt"; then metrics="$metrics $m"; known=$((known + 1))
  else echo "dropped (not in --query-metrics): $m" >> "$note"; fi
done
if [ "$known" -lt 5 ]; then  # the query failed or its format is unexpected: keep everything
  echo "query-metrics matched only $known names: keeping the whole list" >> "$note"
  metrics=$(echo $wanted)
fi

run_one() {  # run_one COLUMN CODEC CFG METRICS PREFIX [extra env...]
  local column=$1 codec=$2 cfg=$3 mlist=$4 prefix=$5; shift 5
  env "$@" FASTPAIR_BENCH_PROFILE=1 FASTPAIR_BENCH_COLUMNS="$column" FASTPAIR_BENCH_CODECS="$codec" \
    "$ncu" --clock-control none --profile-from-start off --kernel-name regex:decode_kernel --launch-count 1 \
      --metrics "$(echo $mlist | tr ' ' ',')" --export "$prefix" --force-overwrite \
      "$bin" --benchmark_filter="^profile/$column/$codec/cfg:$cfg/" \
      --benchmark_out="$prefix.bench.json" --benchmark_out_format=json > "$prefix.log" 2>&1 || return 1
  [ -f "$prefix.ncu-rep" ] || return 1
  "$ncu" --import "$prefix.ncu-rep" --csv --page raw > "$prefix.csv" 2>> "$prefix.log" || return 1
  grep -q decode_kernel "$prefix.csv"
}

# 2) One probe on a small input; if the whole list fails, try each metric alone and keep the good ones.
probe="$out/ncu_probe"
if ! run_one log_windows onpair12 auto "$metrics" "$probe" FASTPAIR_BENCH_BYTES=50000000 FASTPAIR_BENCH_SOURCE_BYTES=1048576; then
  echo "combined probe failed (see ncu_probe.log); testing metrics one by one" >> "$note"
  good=""
  for m in $metrics; do
    if run_one log_windows onpair12 auto "$m" "$probe.one" FASTPAIR_BENCH_BYTES=20000000 FASTPAIR_BENCH_SOURCE_BYTES=1048576; then
      good="$good $m"
    else
      echo "dropped (ncu failed with it alone): $m" >> "$note"
    fi
  done
  metrics=$good
  rm -f "$probe".one*
fi
rm -f "$probe".ncu-rep
echo "requested:$metrics" >> "$note"

status=0
budget=${FASTPAIR_NCU_BUDGET_S:-480}
for pc in $profiles; do
  column=${pc%%:*}; codec=${pc##*:}
  for cfg in $configs; do
    prefix="$out/ncu_${column}_${codec}_${cfg}"
    if [ "$SECONDS" -ge "$budget" ]; then echo "ncu $column $codec $cfg: SKIPPED (budget ${budget}s spent)"; status=1; continue; fi
    if run_one "$column" "$codec" "$cfg" "$metrics" "$prefix"; then
      echo "ncu $column $codec $cfg: ok"
    else
      echo "ncu $column $codec $cfg: FAILED (see $(basename "$prefix").log)"; status=1
    fi
    rm -f "$prefix.ncu-rep"  # the CSV holds what the report needs; keeps the tarball small
  done
done
exit $status
