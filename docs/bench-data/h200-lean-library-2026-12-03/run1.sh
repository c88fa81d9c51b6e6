#!/usr/bin/env bash
# session 10 call 1: GPU suite + config groups; same-call A/B of the e2e bench (old HEAD vs new tree)
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu:$PWD/.deps/usr/lib FASTPAIR_DATA_DIR=$PWD/.devdata
python3 - <<'P'
import lzma,shutil,glob,os
for f in glob.glob('.devbin/*.xz'):
    n='/tmp/'+os.path.basename(f)[:-3]
    with lzma.open(f) as a, open(n,'wb') as b: shutil.copyfileobj(a,b)
    os.chmod(n,0o755)
P
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; cat .devbin/COMMIT; date -u; } > $OUT/gpu.txt
t0=$SECONDS
timeout 220 /tmp/test_gpu '~[large]~[dsv]' > /tmp/t.txt 2>&1; echo "rc $? after $((SECONDS-t0)) s" >> /tmp/t.txt
{ grep -E -B3 -A12 "FAILED" /tmp/t.txt | head -80; tail -4 /tmp/t.txt; } > $OUT/suite.txt
for g in 0 1 2 3 4; do t1=$SECONDS; timeout 60 /tmp/test_decode_g$g '~[large]' > /tmp/g$g.txt 2>&1; echo "g$g rc $? after $((SECONDS-t1)) s: $(tail -2 /tmp/g$g.txt | tr '\n' ' ')"; grep -B3 -A10 FAILED /tmp/g$g.txt | head -30; done > $OUT/groups.txt
date -u >> $OUT/gpu.txt
export FASTPAIR_BENCH_COLUMNS=log_windows,en_wiki,tpch_l_comment,tpch_o_clerk,zh_text,urls
for b in bench_e2e_old bench_e2e bench_e2e_old bench_e2e; do echo "== $b"; t1=$SECONDS; timeout 75 /tmp/$b --benchmark_filter='(decode_only|decode_only_old|pipelined_pinned|pipelined_device|d2d)/' 2>&1 | grep -E '^e2e' | cut -c1-260; echo "after $((SECONDS-t1)) s"; done > $OUT/ab.txt
date -u >> $OUT/gpu.txt
