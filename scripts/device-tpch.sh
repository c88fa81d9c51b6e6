#!/usr/bin/env bash
# TPC-H string predicates on the GPU, checked against DuckDB (issue #27), in one run on a GPU
# machine: installs the carried duckdb and tpchgen-cli wheels, runs tests/tpch/tpch_duckdb_test.py
# with the tool's GPU path at SF ${SF:-1} (every codec), then at SF 0.01 under each of
# compute-sanitizer's memcheck, racecheck, synccheck and initcheck (one codec each run: OnPair-16,
# the widest dictionary), then (with BENCH=fastpair_bench_tpch and CLI=fastpair) the benchmark at
# SF ${BENCH_SF:-10}: scripts/tpch-bench.py (GPU on codes vs decode-then-filter vs DuckDB on every
# core). Logs under OUTDIR; one summary line per step in OUTDIR/summary.txt. SF= or SANITIZERS=
# (empty) leave a step out.
#
# Usage: scripts/device-tpch.sh OUTDIR TOOL   (TOOL: a built fastpair_tpch_predicates)
#   WHEELS=.whl2 SF=1 CODECS=onpair16,onpair12,fsst12 SANITIZERS="memcheck racecheck synccheck initcheck"
#   BENCH=... CLI=... BENCH_SF=10 BENCH_CODECS=onpair16 BENCH_TIMEOUT=500
set -uo pipefail
out=${1:?usage: device-tpch.sh OUTDIR TOOL}
tool=${2:?usage: device-tpch.sh OUTDIR TOOL}
mkdir -p "$out"
wheels=${WHEELS:-.whl2}
summary="$out/summary.txt"
: > "$summary"
if ls "$wheels"/*.whl >/dev/null 2>&1; then
  pipw() { python3 -m pip install --no-index --no-deps --disable-pip-version-check "$@" "$wheels"/*.whl >> "$out/pip.log" 2>&1; }
  pipw || pipw --break-system-packages || pipw --user --break-system-packages || echo "wheel install failed" >> "$summary"
fi
export PATH=$PATH:$HOME/.local/bin FASTPAIR_REQUIRE_TPCH=1
test_py=tests/tpch/tpch_duckdb_test.py

sf=${SF-1}
if [ -n "$sf" ]; then
  t0=$(date +%s)
  timeout "${SF_TIMEOUT:-400}" python3 "$test_py" --tool "$tool" --gpu --sf "$sf" --codecs "${CODECS:-onpair16,onpair12,fsst12}" --work /tmp/fastpair-tpch-sf > "$out/gpu_sf$sf.log" 2>&1
  echo "GPU SF $sf: rc=$? in $(( $(date +%s) - t0 )) s: $(tail -1 "$out/gpu_sf$sf.log")" | tee -a "$summary"
  rm -rf /tmp/fastpair-tpch-sf
fi

for t in ${SANITIZERS-memcheck racecheck synccheck initcheck}; do
  t0=$(date +%s)
  timeout "${SANITIZE_TIMEOUT:-300}" python3 "$test_py" --tool "$tool" --gpu --sf 0.01 --codecs onpair16 --work /tmp/fastpair-tpch-$t \
    --wrap "compute-sanitizer --tool $t --error-exitcode 9 --log-file /tmp/fastpair-cs-$t.%p.log" > "$out/$t.log" 2>&1
  rc=$?
  cat /tmp/fastpair-cs-$t.*.log > "$out/$t-sanitizer.log" 2>/dev/null; rm -f /tmp/fastpair-cs-$t.*.log
  echo "$t SF 0.01 onpair16: rc=$rc in $(( $(date +%s) - t0 )) s: $(tail -1 "$out/$t.log"); $(grep -cE 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards' "$out/$t-sanitizer.log") clean process reports" | tee -a "$summary"
  rm -rf /tmp/fastpair-tpch-$t
done

if [ -n "${BENCH:-}" ]; then
  t0=$(date +%s)
  timeout "${BENCH_TIMEOUT:-500}" python3 scripts/tpch-bench.py --sf "${BENCH_SF:-10}" --cli "${CLI:?CLI=fastpair}" --bench "$BENCH" \
    --codecs "${BENCH_CODECS:-onpair16}" --work /tmp/fastpair-tpch-bench --out "$out" > "$out/bench.log" 2>&1
  echo "bench SF ${BENCH_SF:-10}: rc=$? in $(( $(date +%s) - t0 )) s" | tee -a "$summary"
  rm -rf /tmp/fastpair-tpch-bench
fi
