#!/usr/bin/env bash
# session 10 call 4: selective decode A/B, 0e18001 (old) vs the #25 tree, alternated twice
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu:$PWD/.deps/usr/lib FASTPAIR_DATA_DIR=$PWD/.devdata
python3 - <<'P'
import lzma,shutil,glob,os
for f in glob.glob('.devb4/*.xz'):
    n='/tmp/'+os.path.basename(f)[:-3]
    with lzma.open(f) as a, open(n,'wb') as b: shutil.copyfileobj(a,b)
    os.chmod(n,0o755)
P
mkdir -p /tmp/r4; date -u > /tmp/r4/gpu.txt
i=0; for b in bench_select_old bench_select bench_select_old bench_select; do i=$((i+1))
  timeout 60 /tmp/$b --benchmark_out=/tmp/r4/$i-$b.json --benchmark_out_format=json > /dev/null 2> /tmp/r4/$i-$b.err; echo "$i $b rc $?" >> /tmp/r4/gpu.txt; done
date -u >> /tmp/r4/gpu.txt; cp /tmp/r4/gpu.txt $OUT/; tar czf $OUT/r4.tar.gz -C /tmp r4
