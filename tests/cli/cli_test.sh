#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Tests of the `fastpair` command-line tool (registered as ctest fastpair_test_cli in
# tools/CMakeLists.txt). Host paths always; GPU paths when `fastpair devices` finds a GPU.
#   - compress -> inspect -> decompress --cpu --check round trips for every codec on generated
#     input (empty rows, UTF-8, "\r", long rows), on Arrow files, on stdin and on .zst input, and
#     on ../shared/data columns when that folder is present;
#   - chunked encoding gives a byte-identical .fpc;
#   - malformed files and bad arguments give the documented message and exit code (docs/CLI.md).
# Usage: cli_test.sh FASTPAIR_BINARY WORK_DIR [DATA_DIR]
set -u
bin=${1:?usage: cli_test.sh FASTPAIR_BINARY WORK_DIR [DATA_DIR]}
work=${2:?usage: cli_test.sh FASTPAIR_BINARY WORK_DIR [DATA_DIR]}
data=${3:-}
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
case "$data" in /* | "") ;; *) data="$PWD/$data" ;; esac
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

fails=0
checks=0
ok() { checks=$((checks + 1)); echo "ok    $1"; }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL  $1"; }

# expect NAME RC PATTERN CMD...: runs CMD, requires exit code RC and PATTERN (grep -E) in its
# stdout + stderr (empty PATTERN = no requirement).
expect() {
  local name=$1 want=$2 pat=$3
  shift 3
  "$@" > out.log 2> err.log
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    bad "$name: exit $rc, expected $want"
    sed 's/^/      /' err.log | head -5
    return
  fi
  if [ -n "$pat" ] && ! cat out.log err.log | grep -Eq -- "$pat"; then
    bad "$name: output lacks /$pat/"
    cat out.log err.log | sed 's/^/      /' | head -8
    return
  fi
  ok "$name"
}
same() {  # same NAME FILE1 FILE2
  if cmp -s "$2" "$3"; then ok "$1"; else bad "$1: $2 and $3 differ"; fi
}

# ---- generated input ---------------------------------------------------------------------------
awk 'BEGIN {
  srand(7)
  for (i = 0; i < 30000; i++) {
    r = rand()
    if (i % 97 == 0) { print ""; continue }                        # empty rows
    if (i % 101 == 0) { printf "caf\303\251 \346\227\245\346\234\254 %d\n", i; continue }  # UTF-8
    if (i % 103 == 0) { printf "windows line %d\r\n", i; continue } # "\r" is kept
    if (i % 499 == 0) { s = ""; for (k = 0; k < 200; k++) s = s "segment" k "/"; print s; continue }
    printf "2026-03-%02d %02d:%02d:%02d INFO [worker-%d] request /api/v1/items/%d took %d ms status=%s\n",
      i % 28 + 1, i % 24, i % 60, (i * 7) % 60, i % 16, int(r * 100000), int(r * 900), (r < 0.9 ? "ok" : "retry")
  }
}' > gen.txt
rows=$(wc -l < gen.txt)

expect "top-level --help lists subcommands and exit codes" 0 "exit codes" "$bin" --help
for sub in compress decompress inspect bench devices; do
  expect "$sub --help" 0 "usage: fastpair $sub" "$bin" "$sub" --help
done
expect "--version" 0 "^fastpair [0-9]+\.[0-9]+\.[0-9]+" "$bin" --version

for codec in onpair16 onpair12 fsst12 auto; do
  expect "compress $codec" 0 "ratio" "$bin" compress gen.txt -o "gen_$codec.fpc" --codec "$codec"
  expect "inspect $codec" 0 "chosen W +(8|16)" "$bin" inspect "gen_$codec.fpc" --top 3
  expect "inspect --json $codec" 0 "\"chosen_w\":(8|16)" "$bin" inspect "gen_$codec.fpc" --json
  expect "decompress --cpu --check $codec" 0 "check OK" "$bin" decompress "gen_$codec.fpc" --cpu -o "gen_$codec.out" --check gen.txt
  same "decompressed text equals the input ($codec)" gen.txt "gen_$codec.out"
done
grep -q "\"rows\":$rows," < <("$bin" inspect gen_onpair16.fpc --json) && ok "inspect reports $rows rows" || bad "inspect row count"

for codec in onpair16 onpair12 fsst12; do
  expect "compress $codec in 4 KiB chunks" 0 "" "$bin" compress gen.txt -o "chunk_$codec.fpc" --codec "$codec" --chunk-bytes 4K
  same "chunked encoding is byte-identical ($codec)" "gen_$codec.fpc" "chunk_$codec.fpc"
done

expect "compress from stdin" 0 "" sh -c "\"$bin\" compress - -o stdin.fpc < gen.txt"
same "stdin input gives the same .fpc" gen_onpair16.fpc stdin.fpc
if command -v zstd > /dev/null; then
  zstd -q -f gen.txt -o gen.txt.zst
  expect "compress .zst input" 0 "" "$bin" compress gen.txt.zst -o zst.fpc
  same ".zst input gives the same .fpc" gen_onpair16.fpc zst.fpc
  head -c 2000 gen.txt.zst > trunc.zst
  expect "truncated .zst input is malformed (3)" 3 "truncated zstd stream" "$bin" compress trunc.zst -o x.fpc
fi

# Arrow offsets + chars, int64 and int32.
expect "decompress to Arrow int64" 0 "" "$bin" decompress gen_onpair12.fpc --cpu --offsets-out off64.bin --chars-out chars64.bin
expect "decompress to Arrow int32" 0 "" "$bin" decompress gen_onpair12.fpc --cpu --offsets-out off32.bin --chars-out chars32.bin --offset-bits 32
[ "$(stat -c %s off64.bin)" -eq $(((rows + 1) * 8)) ] && ok "int64 offsets file has rows+1 entries" || bad "int64 offsets size"
[ "$(stat -c %s off32.bin)" -eq $(((rows + 1) * 4)) ] && ok "int32 offsets file has rows+1 entries" || bad "int32 offsets size"
expect "compress Arrow int64 input" 0 "" "$bin" compress --offsets off64.bin --chars chars64.bin -o arrow64.fpc --codec onpair12
expect "compress Arrow int32 input" 0 "" "$bin" compress --offsets off32.bin --chars chars32.bin -o arrow32.fpc --codec onpair12
same "Arrow int64 input gives the same .fpc" gen_onpair12.fpc arrow64.fpc
same "Arrow int32 input gives the same .fpc" gen_onpair12.fpc arrow32.fpc
expect "--check against Arrow files" 0 "check OK" "$bin" decompress arrow32.fpc --cpu --check-offsets off32.bin --check-chars chars32.bin
expect "--rows decodes a row range" 0 "check OK" "$bin" decompress gen_fsst12.fpc --cpu --rows 1000:2500 -o part.txt --check gen.txt
sed -n 1001,2500p gen.txt > part_expect.txt
same "--rows output equals those lines" part_expect.txt part.txt

# Empty input.
: > empty.txt
for codec in onpair16 onpair12 fsst12; do
  expect "compress empty input ($codec)" 0 "rows +0" "$bin" compress empty.txt -o "empty_$codec.fpc" --codec "$codec"
  expect "decompress empty column ($codec)" 0 "check OK" "$bin" decompress "empty_$codec.fpc" --cpu -o empty.out --check empty.txt
done

# ../shared/data columns, when present.
if [ -n "$data" ] && [ -f "$data/log_spark.txt.zst" ] && command -v zstd > /dev/null; then
  expect "compress shared log_spark.txt.zst directly (auto)" 0 "ratio" "$bin" compress "$data/log_spark.txt.zst" -o spark.fpc --codec auto
  expect "decompress --cpu --check log_spark" 0 "check OK" "$bin" decompress spark.fpc --cpu -o spark.out --check "$data/log_spark.txt.zst"
  for col in urls zh_text; do
    if [ -f "$data/$col.txt.zst" ]; then
      zstd -dc "$data/$col.txt.zst" | head -n 40000 > "$col.txt"
      for codec in onpair16 fsst12; do
        expect "shared $col: compress $codec" 0 "ratio" "$bin" compress "$col.txt" -o "$col.$codec.fpc" --codec "$codec"
        expect "shared $col: inspect $codec" 0 "sidecar overhead" "$bin" inspect "$col.$codec.fpc"
        expect "shared $col: decompress --cpu --check $codec" 0 "check OK" "$bin" decompress "$col.$codec.fpc" --cpu -o "$col.out" --check "$col.txt"
      done
    fi
  done
else
  echo "note  ../shared/data not found ($data): shared-column round trips skipped"
fi

# ---- malformed files (exit 3) --------------------------------------------------------------------
head -c 5000 gen_onpair16.fpc > trunc.fpc
expect "truncated .fpc (3)" 3 "malformed input: trunc.fpc: invalid .fpc: section" "$bin" inspect trunc.fpc
cp gen_onpair16.fpc flip.fpc
printf '\377' | dd of=flip.fpc bs=1 seek=2000 conv=notrunc 2> /dev/null
expect "flipped byte in a section (3)" 3 "checksum mismatch" "$bin" decompress flip.fpc --cpu -o x.txt
cp gen_onpair16.fpc hdr.fpc
printf '\007' | dd of=hdr.fpc bs=1 seek=12 conv=notrunc 2> /dev/null
expect "corrupt header (3)" 3 "invalid .fpc: header" "$bin" inspect hdr.fpc
expect "text file given as .fpc (3)" 3 "invalid .fpc: magic" "$bin" decompress gen.txt --cpu -o x.txt
expect "empty .fpc (3)" 3 "shorter than the 80-byte header" "$bin" inspect empty.txt
printf 'abc' > c3.bin
printf '\000\000\000\000\005\000\000\000' > o_bad.bin
expect "Arrow offsets past the chars (3)" 3 "exceeds the chars file size" "$bin" compress --offsets o_bad.bin --chars c3.bin -o x.fpc
printf '\002\000\000\000\001\000\000\000' > o_dec.bin
expect "decreasing Arrow offsets (3)" 3 "offsets decrease" "$bin" compress --offsets o_dec.bin --chars c3.bin -o x.fpc --offset-bits 32
printf 'a\nb' > nl_chars.bin
printf '\000\000\000\000\003\000\000\000' > nl_off.bin
expect "compress a row holding a newline (Arrow)" 0 "" "$bin" compress --offsets nl_off.bin --chars nl_chars.bin -o nl.fpc
expect "such a row cannot be written as lines (3)" 3 "contains a newline" "$bin" decompress nl.fpc --cpu -o nl.txt
[ ! -e nl.txt ] && ok "no partial output file is left" || bad "partial output left behind"
expect "but it round-trips through Arrow files" 0 "" "$bin" decompress nl.fpc --cpu --offsets-out nl_o.bin --chars-out nl_c.bin
same "Arrow chars round trip" nl_chars.bin nl_c.bin

# ---- verification failures (exit 4) -------------------------------------------------------------
sed '5s/INFO/WARN/' gen.txt > changed.txt
expect "--check finds a changed row (4)" 4 "row 4 differs at byte 20" "$bin" decompress gen_onpair16.fpc --cpu -o x.txt --check changed.txt
head -n 100 gen.txt > short.txt
expect "--check finds a row count mismatch (4)" 4 "check failed: .*rows" "$bin" decompress gen_onpair16.fpc --cpu -o x.txt --check short.txt

# ---- wrong usage (exit 2) and I/O errors (exit 1) -------------------------------------------------
expect "no arguments (2)" 2 "usage: fastpair" "$bin"
expect "unknown subcommand (2)" 2 "unknown subcommand 'frobnicate'" "$bin" frobnicate
expect "unknown option (2)" 2 "unknown option '--bogus'" "$bin" compress gen.txt -o x.fpc --bogus
expect "missing -o (2)" 2 "missing -o" "$bin" compress gen.txt
expect "missing input (2)" 2 "missing INPUT" "$bin" compress -o x.fpc
expect "unknown codec (2)" 2 "unknown codec 'zstd'" "$bin" compress gen.txt -o x.fpc --codec zstd
expect "option without its value (2)" 2 "needs a value" "$bin" compress gen.txt -o
expect "bad number (2)" 2 "--sidecar-stride: expected an integer" "$bin" compress gen.txt -o x.fpc --sidecar-stride many
expect "bad --sample-fraction (2)" 2 "sample-fraction" "$bin" compress gen.txt -o x.fpc --sample-fraction 0
expect "half of an Arrow pair (2)" 2 "needs both --offsets and --chars" "$bin" compress --offsets off64.bin -o x.fpc
expect "decompress with nothing to do (2)" 2 "nothing to do" "$bin" decompress gen_onpair16.fpc
expect "--rows out of range (2)" 2 "outside the column" "$bin" decompress gen_onpair16.fpc --cpu --rows 5:999999999 -o x.txt
expect "--rows malformed (2)" 2 "expected BEGIN:END" "$bin" decompress gen_onpair16.fpc --cpu --rows 5 -o x.txt
expect "--cpu with --gpu (2)" 2 "exclude each other" "$bin" decompress gen_onpair16.fpc --cpu --gpu -o x.txt
expect "two inputs (2)" 2 "exactly one" "$bin" inspect gen_onpair16.fpc gen_onpair12.fpc
expect "bench --runs 0 (2)" 2 "--runs: 0 is out of range" "$bin" bench --runs 0 gen_onpair16.fpc
expect "missing input file (1)" 1 "cannot open 'missing.txt'" "$bin" compress missing.txt -o x.fpc
expect "missing .fpc file (1)" 1 "cannot open 'missing.fpc'" "$bin" inspect missing.fpc
expect "unwritable output (1)" 1 "cannot open .* for writing" "$bin" compress gen.txt -o /nonexistent-dir/x.fpc

# ---- GPU paths -------------------------------------------------------------------------------------
if "$bin" devices > devices.log 2>&1; then
  echo "note  GPU found: $(head -1 devices.log)"
  for codec in onpair16 onpair12 fsst12; do
    expect "GPU decompress --check $codec" 0 "on the GPU" "$bin" decompress "gen_$codec.fpc" -o "gpu_$codec.out" --check gen.txt
    same "GPU output equals the input ($codec)" gen.txt "gpu_$codec.out"
    expect "GPU decompress --rows $codec" 0 "check OK" "$bin" decompress "gen_$codec.fpc" --gpu --rows 777:20001 -o x.txt --check gen.txt
  done
  expect "GPU decompress with W=16" 0 "check OK" "$bin" decompress gen_onpair16.fpc --gpu --low-plane-bytes 16 -o x.txt --check gen.txt
  expect "GPU decompress of an empty column" 0 "check OK" "$bin" decompress empty_onpair16.fpc --gpu -o x.txt --check empty.txt
  expect "bench" 0 "decode/copy" "$bin" bench gen_onpair16.fpc --runs 3
  expect "bench --json int32" 0 "\"decode_GBps_min\"" "$bin" bench gen_fsst12.fpc --runs 3 --offset-bits 32 --json
  expect "bench --device out of range (2)" 2 "--device 999" "$bin" bench gen_onpair16.fpc --device 999
else
  echo "note  no GPU: $(head -1 devices.log)"
  expect "devices without a GPU (5)" 5 "no GPU" "$bin" devices
  expect "bench without a GPU (5)" 5 "bench needs a CUDA GPU" "$bin" bench gen_onpair16.fpc
  expect "decompress --gpu without a GPU (5)" 5 "--gpu was given" "$bin" decompress gen_onpair16.fpc --gpu -o x.txt
  expect "decompress falls back to the CPU with a note" 0 "decoding on the CPU instead" "$bin" decompress gen_onpair16.fpc -o fb.txt --check gen.txt
  same "fallback output equals the input" gen.txt fb.txt
fi

echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
