#!/usr/bin/env bash
# session 10 call 2: the deferred-release test (fixed expectation); a longer A/B of pipelined_device
# on the two cells that read slower in call 1; selective decode, predicates and cascades against
# today's decoder (defaults); memcheck, synccheck, initcheck over decode-path tests (light)
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu:$PWD/.deps/usr/lib FASTPAIR_DATA_DIR=$PWD/.devdata
python3 - <<'P'
import lzma,shutil,glob,os
for f in glob.glob('.devb2/*.xz'):
    n='/tmp/'+os.path.basename(f)[:-3]
    with lzma.open(f) as a, open(n,'wb') as b: shutil.copyfileobj(a,b)
    os.chmod(n,0o755)
P
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; cat .devb2/COMMIT; date -u; } > $OUT/gpu.txt
timeout 60 /tmp/test_gpu '[texture]' > $OUT/deferred.txt 2>&1; echo "texture-tagged tests rc $?" >> $OUT/gpu.txt
( export FASTPAIR_BENCH_COLUMNS=en_wiki,log_windows FASTPAIR_BENCH_CODECS=onpair16
  for b in bench_e2e bench_e2e_old bench_e2e bench_e2e_old bench_e2e bench_e2e_old; do echo "== $b"
    timeout 40 /tmp/$b --benchmark_filter='(pipelined_device|e2e_device|decode_only)/' 2>&1 | grep -E '^e2e' | cut -c1-200; done ) > $OUT/ab2.txt
date -u >> $OUT/gpu.txt
for b in select predicates cascade; do t1=$SECONDS
  timeout 150 /tmp/bench_$b --benchmark_out=$OUT/$b.json --benchmark_out_format=json > $OUT/$b.txt 2> $OUT/$b.err
  echo "$b rc $? after $((SECONDS-t1)) s" >> $OUT/gpu.txt; done
date -u >> $OUT/gpu.txt
f1='automatic W and config match the reference,fused codes and the short-token emit are refused where they do not apply,a texture-gather config needs the view*,[select]'
for tool in memcheck synccheck initcheck; do
  ( t1=$SECONDS; FASTPAIR_TEST_LIGHT=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/test_gpu "$f1" > /tmp/$tool.txt 2>&1
    echo "rc $? after $((SECONDS-t1)) s" >> /tmp/$tool.txt ) &
done
wait
for tool in memcheck synccheck initcheck; do echo "== $tool"; grep -E "Filters|All tests|test cases|assertions|ERROR SUMMARY|rc " /tmp/$tool.txt | head; grep -m5 -B2 -A10 "Invalid\|Race\|Barrier\|Uninitialized\|FAILED" /tmp/$tool.txt | head -30; done > $OUT/sanitizers.txt
date -u >> $OUT/gpu.txt
