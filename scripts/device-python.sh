#!/usr/bin/env bash
# The Python package on a GPU machine, in one run (issue #26): installs the carried wheels
# (nanobind, scikit-build-core, nanoarrow, Dask), builds and installs the package with
# `pip install --no-build-isolation --no-deps .`, runs its tests (GPU tests included), the Dask
# example with one GPU worker, then the decode benchmark of python/benchmarks/bench_decode.py
# beside the C++ tool's `fastpair bench` on the same .fpc files, and compute-sanitizer memcheck
# over the small GPU tests. Logs and results under OUTDIR.
#
# Usage: scripts/device-python.sh OUTDIR [CLI]   (CLI: a built `fastpair` tool; default .devbin/fastpair)
#   WHEELS=.whl DATA=.devdata COLUMNS=tpch_l_comment,en_wiki,log_windows CODECS=... RUNS=20
#   SKIP_BENCH=1, SKIP_MEMCHECK=1 leave those steps out
set -uo pipefail
out=${1:?usage: device-python.sh OUTDIR [CLI]}
cli=${2:-.devbin/fastpair}
mkdir -p "$out"
wheels=${WHEELS:-.whl}
data=${DATA:-.devdata}
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
step() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$out/steps.log"; }

step environment
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; python3 --version; nvcc --version | tail -2; \
  cat .devbin/COMMIT 2>/dev/null; } > "$out/environment.txt" 2>&1

step wheels
if ls "$wheels"/*.whl >/dev/null 2>&1; then
  pipw() { python3 -m pip install --no-index --no-deps --disable-pip-version-check "$@" "$wheels"/*.whl >> "$out/pip-wheels.log" 2>&1; }
  pipw || pipw --break-system-packages || pipw --user --break-system-packages || echo "wheel install failed" | tee -a "$out/steps.log"
fi
step build
t0=$(date +%s)
pipb() { python3 -m pip install --no-build-isolation --no-deps --disable-pip-version-check -v "$@" . >> "$out/pip-build.log" 2>&1; }
pipb || pipb --break-system-packages ||
  { echo "pip install . failed"; tail -40 "$out/pip-build.log"; exit 1; }
echo "build+install: $(( $(date +%s) - t0 )) s" | tee -a "$out/steps.log"
python3 -c "import fastpair; print(fastpair.__version__, fastpair.device_count())" | tee -a "$out/steps.log"

step pytest
FASTPAIR_DATA_DIR=$data python3 -m pytest -v -rs python/tests > "$out/pytest.log" 2>&1
echo "pytest rc=$?: $(tail -1 "$out/pytest.log")" | tee -a "$out/steps.log"

step bench
[ -n "${SKIP_BENCH:-}" ] || python3 python/benchmarks/bench_decode.py "$out/bench_python.json" --data "$data" --cli "$cli" \
  ${COLUMNS:+--columns $COLUMNS} ${CODECS:+--codecs $CODECS} --runs "${RUNS:-20}" > "$out/bench_python.log" 2>&1
echo "bench rc=$?" | tee -a "$out/steps.log"
[ -n "${SKIP_BENCH:-}" ] || { python3 python/benchmarks/compare_cli.py "$out/bench_python.json" > "$out/compare.md" 2>&1; cat "$out/compare.md"; }

step memcheck
[ -n "${SKIP_MEMCHECK:-}" ] || FASTPAIR_DATA_DIR=/nonexistent timeout 240 compute-sanitizer --tool memcheck --error-exitcode 1 \
  python3 -m pytest -q -x python/tests/test_gpu.py -k "synthetic or into or predicates or selective or parse_csv or corrupt" \
  > "$out/memcheck.log" 2>&1
echo "memcheck rc=$?: $(grep -E 'ERROR SUMMARY|passed|failed' "$out/memcheck.log" | tail -2 | tr '\n' ' ')" | tee -a "$out/steps.log"
step done
# Few files come back from a device run: the logs travel as one archive.
keep="! -name compare.md ! -name steps.log ! -name bench_python.json"
(cd "$out" && find . -maxdepth 1 -type f $keep -printf '%f\n' | tar -czf /tmp/fastpair-logs.tgz -T - &&
  find . -maxdepth 1 -type f $keep -delete && mv /tmp/fastpair-logs.tgz logs.tgz)
