#!/usr/bin/env bash
# Device run: defer_diag alone; fastpair_test_gpu in full alone (TESTS=1); then compute-sanitizer
# over gpu-verify.sh's matrix for fastpair_test_gpu (TOOLS; ONLY: a regex on run names), JOBS at
# a time, slowest groups first, every process cut at one deadline (END s after the start);
# defer_diag lazy / warm / eager twice under that load. Summaries and logs before the deadline.
set -u
R=$PWD
export LD_LIBRARY_PATH=$R/.deps/usr/lib/x86_64-linux-gnu FASTPAIR_DATA_DIR=$R/.devdata PATH=/usr/local/cuda/bin:$PATH
B=/tmp/b; mkdir -p $B; tar -C $B -xJf .devbin/test.txz && mv $B/cur_test $B/fastpair_test_gpu
L=$OUT/logs; mkdir -p $L
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; date -u; } >> $L/gpu.txt
T0=$(date +%s); export deadline=$((T0 + ${END:-540})) limit=600 out=$L
echo "== alone" >> $L/defer_diag.log; $B/defer_diag 50 >> $L/defer_diag.log 2>&1
if [ "${TESTS:-1}" = 1 ]; then
  s=$SECONDS; timeout 300 $B/fastpair_test_gpu --durations yes > $L/test_gpu_full.log 2>&1; echo "test_gpu_full rc=$? $((SECONDS-s)) s: $(grep -E 'test cases|All tests passed' $L/test_gpu_full.log | tail -1)" > $L/tests.txt
  grep -B 12 -A 12 FAILED $L/test_gpu_full.log | head -80 >> $L/tests.txt
fi
t=$B; eval "$(sed -n '/^cases() {/,/^}/p; /^expand() {/,/^}/p; /^matrix() {/,/^}/p; /^sanitize() {/,/^}/p' scripts/gpu-verify.sh)"
FASTPAIR_SANITIZER_TOOLS="${TOOLS:-racecheck memcheck synccheck initcheck}" matrix | grep -v decode_g \
  | awk -F'|' -v re="${ONLY:-.}" '$1 ~ re' | awk -F'|' '/prepare_fpc|predicates/ {print; next} {rest[n++]=$0} END {for (i=0;i<n;i++) print rest[i]}' > $L/matrix.txt
export -f sanitize
( sleep 20; for r in 1 2; do
    echo "== under load $r: lazy" >> $L/defer_diag.log; $B/defer_diag 100 >> $L/defer_diag.log 2>&1
    echo "== under load $r: lazy, warm" >> $L/defer_diag.log; $B/defer_diag 100 warm >> $L/defer_diag.log 2>&1
    echo "== under load $r: eager" >> $L/defer_diag.log; CUDA_MODULE_LOADING=EAGER $B/defer_diag 100 >> $L/defer_diag.log 2>&1
    sleep 30; done ) &
xargs -d '\n' -P ${JOBS:-16} -I{} bash -c 'sanitize "$@"' _ {} < $L/matrix.txt
while IFS= read -r line; do
  name=${line%%|*}; read -r rc secs < $L/san_$name.rc 2>/dev/null || { rc=98; secs=?; }
  grep -q 'No test cases matched' $L/san_$name.log && [ "$rc" = 0 ] && rc=97
  echo "$name rc=$rc ${secs}s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san_$name.log 2>/dev/null | tail -1) | $(grep -E 'test cases|All tests passed|No test cases' $L/san_$name.log 2>/dev/null | tail -1)" >> $L/sanitizers.txt
done < $L/matrix.txt
{ cat $L/tests.txt 2>/dev/null; echo "sanitizers rc=0: $(grep -c ' rc=0 ' $L/sanitizers.txt) of $(wc -l < $L/sanitizers.txt)"; grep -v ' rc=0 ' $L/sanitizers.txt; grep -E "iterations failed|polled|==|raw event" $L/defer_diag.log; } > $OUT/summary.txt
date -u >> $L/gpu.txt
cd $OUT && tar czf logs.tgz logs && rm -rf logs; cat summary.txt
