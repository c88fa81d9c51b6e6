#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Tests of the `fastpair` command-line tool (registered as ctest fastpair_test_cli in
# tools/CMakeLists.txt). Host paths always; GPU paths when `fastpair devices` finds a GPU.
#   - compress -> inspect -> decompress --cpu --check round trips for every codec on generated
#     input (empty rows, UTF-8, "\r", long rows), on Arrow files, on stdin and on .zst input, and
#     on ../shared/data columns when that folder is present;
#   - chunked encoding gives a byte-identical .fpc;
#   - malformed files and bad arguments give the documented message and exit code (docs/CLI.md);
#   - path errors (a directory given as a file, an unwritable output) name the path and the errno
#     text; compress -o - writes stdout; progress lines at each 10 % step with --progress.
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
# expect_err NAME RC LINE CMD...: runs CMD, requires exit code RC and LINE as a whole line of its
# stderr (exact text, not a pattern).
expect_err() {
  local name=$1 want=$2 line=$3
  shift 3
  "$@" > out.log 2> err.log
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    bad "$name: exit $rc, expected $want"
    sed 's/^/      /' err.log | head -5
    return
  fi
  if ! grep -Fxq -- "$line" err.log; then
    bad "$name: stderr lacks the line: $line"
    sed 's/^/      /' err.log | head -5
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
  expect "inspect $codec" 0 "chosen W, paper's rule +(8|16) \(fastpair::paper_low_plane_bytes: " "$bin" inspect "gen_$codec.fpc" --top 3
  expect "inspect $codec: the GPU's rule, named" 0 "chosen W, GPU auto, sm_90 +(8|16) \(detail::tuned_low_plane_bytes for sm_90 and newer" "$bin" inspect "gen_$codec.fpc"
  expect "inspect --json $codec" 0 "\"paper_rule_w\":(8|16),\"gpu_auto_w\":(8|16),\"gpu_auto_arch\":\"sm_90\",\"gpu_tuned_split_stream\":(true|false)," "$bin" inspect "gen_$codec.fpc" --json
  expect "inspect $codec: device memory by prepare option" 0 "^  default \(lean\) +[0-9]+ B, [0-9.]+ x the .fpc file" "$bin" inspect "gen_$codec.fpc"
  expect "inspect $codec: file size of both .fpc versions" 0 "^  version 1 +[0-9]+ B, ratio " "$bin" inspect "gen_$codec.fpc"
  expect "inspect --json $codec: device bytes and file sizes" 0 "\"fpc_v1_bytes\":[0-9]+,\"fpc_v2_bytes\":[0-9]+,.*\"device_bytes_default\":[0-9]+,\"device_bytes_length_stream\":[0-9]+,\"device_bytes_fused_codes\":[0-9]+,\"device_bytes_split_stream\":[0-9]+,\"device_bytes_row_offsets\":[0-9]+,\"device_bytes_row_lengths\":[0-9]+,\"device_bytes_old_defaults\":[0-9]+,\"device_bytes_borrow_codes\":[0-9]+,\"fused_codes_applies\":(true|false),\"split_stream_applies\":(true|false),\"row_lengths_applies\":(true|false),\"row_lengths_in_default\":(true|false)" "$bin" inspect "gen_$codec.fpc" --json
  expect "decompress --cpu --check $codec" 0 "check OK" "$bin" decompress "gen_$codec.fpc" --cpu -o "gen_$codec.out" --check gen.txt
  same "decompressed text equals the input ($codec)" gen.txt "gen_$codec.out"
done
grep -q "\"rows\":$rows," < <("$bin" inspect gen_onpair16.fpc --json) && ok "inspect reports $rows rows" || bad "inspect row count"
# The lean default is the smallest footprint; the file is smaller as version 2 than as version 1.
"$bin" inspect gen_onpair12.fpc --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
base = d["device_bytes_default"]
assert all(d["device_bytes_" + k] >= base for k in ("length_stream", "fused_codes", "split_stream", "row_offsets", "row_lengths", "old_defaults"))
assert d["device_bytes_fused_codes"] > base and d["fused_codes_applies"]
assert d["fpc_v2_bytes"] == d["file_bytes"] and d["fpc_v1_bytes"] > d["fpc_v2_bytes"]
assert d["device_bytes_borrow_codes"] + d["stored"]["codes"] + 1 == base  # the codes, as the estimate counts them
' && ok "inspect --json: default <= every accelerator, fused codes for OnPair-12, v2 file < v1, borrow_codes = default - codes" || bad "inspect --json device bytes / file sizes"
# The two W rules differ: short tokens (mean under 3 B) are W = 8 by the paper's rule, 16 on sm_90.
seq 1 1000 > digits.txt
expect "compress short tokens" 0 "" "$bin" compress digits.txt -o digits.fpc
expect "inspect: paper's rule W = 8 for short tokens" 0 "chosen W, paper's rule +8 \(" "$bin" inspect digits.fpc
expect "inspect: GPU rule W = 16 for short tokens" 0 "chosen W, GPU auto, sm_90 +16 \(.*mean token is shorter than 3 B" "$bin" inspect digits.fpc
expect "inspect --json: both W" 0 "\"paper_rule_w\":8,\"gpu_auto_w\":16," "$bin" inspect digits.fpc --json
expect "inspect: FSST-12 is W = 8 by both rules" 0 "chosen W, GPU auto, sm_90 +8 \(.*FSST-12" "$bin" inspect gen_fsst12.fpc
expect "inspect: OnPair-12 is W = 16 on sm_90" 0 "chosen W, GPU auto, sm_90 +16 \(.*always 16 for OnPair-12" "$bin" inspect gen_onpair12.fpc

for codec in onpair16 onpair12 fsst12; do
  expect "compress $codec in 4 KiB chunks" 0 "" "$bin" compress gen.txt -o "chunk_$codec.fpc" --codec "$codec" --chunk-bytes 4K
  same "chunked encoding is byte-identical ($codec)" "gen_$codec.fpc" "chunk_$codec.fpc"
done

expect "compress from stdin" 0 "" sh -c "\"$bin\" compress - -o stdin.fpc < gen.txt"
same "stdin input gives the same .fpc" gen_onpair16.fpc stdin.fpc

# '-' as the .fpc output is stdout (the summary then goes to stderr), and as the .fpc input stdin.
rm -f ./-
"$bin" compress gen.txt -o - > stdout.fpc 2> err.log && ok "compress -o - exits 0" || bad "compress -o - failed"
same "compress -o - writes the .fpc to stdout" gen_onpair16.fpc stdout.fpc
[ ! -e ./- ] && ok "compress -o - creates no file named '-'" || bad "compress -o - wrote a file named '-'"
grep -q "^compressed gen.txt -> stdout$" err.log && ok "compress -o - prints its summary on stderr" || bad "compress -o - summary not on stderr"
"$bin" compress gen.txt -o - 2> /dev/null | "$bin" decompress - --cpu -o - 2> /dev/null > pipe.txt
same "compress -o - | decompress - -o - round trip" gen.txt pipe.txt
expect "inspect - reads stdin" 0 "^file +stdin \([0-9]+ B\)" sh -c "\"$bin\" inspect - < gen_onpair16.fpc"
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
expect "truncated .fpc (3)" 3 "malformed input: trunc.fpc: invalid .fpc: file size" "$bin" inspect trunc.fpc
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
expect_err "--sample-fraction 0 (2)" 2 "fastpair: error: --sample-fraction: 0 is out of range (0, 1]" "$bin" compress gen.txt -o x.fpc --sample-fraction 0
expect_err "--sample-fraction 2 (2)" 2 "fastpair: error: --sample-fraction: 2 is out of range (0, 1]" "$bin" compress gen.txt -o x.fpc --sample-fraction 2
expect "half of an Arrow pair (2)" 2 "needs both --offsets and --chars" "$bin" compress --offsets off64.bin -o x.fpc
expect "decompress with nothing to do (2)" 2 "nothing to do" "$bin" decompress gen_onpair16.fpc
expect "--rows out of range (2)" 2 "outside the column" "$bin" decompress gen_onpair16.fpc --cpu --rows 5:999999999 -o x.txt
expect "--rows malformed (2)" 2 "expected BEGIN:END" "$bin" decompress gen_onpair16.fpc --cpu --rows 5 -o x.txt
expect "--cpu with --gpu (2)" 2 "exclude each other" "$bin" decompress gen_onpair16.fpc --cpu --gpu -o x.txt
expect "two inputs (2)" 2 "exactly one" "$bin" inspect gen_onpair16.fpc gen_onpair12.fpc
expect "bench --runs 0 (2)" 2 "--runs: 0 is out of range" "$bin" bench --runs 0 gen_onpair16.fpc
expect "missing input file (1)" 1 "cannot open 'missing.txt'" "$bin" compress missing.txt -o x.fpc
expect "missing .fpc file (1)" 1 "cannot open 'missing.fpc'" "$bin" inspect missing.fpc
expect_err "unwritable output (1)" 1 "fastpair: error: cannot open '/nonexistent-dir/x.fpc' for writing: No such file or directory" "$bin" compress gen.txt -o /nonexistent-dir/x.fpc

# ---- paths that are not files (exit 1, the path and the errno text) ------------------------------
mkdir -p dir.fpc
isdir_r="fastpair: error: cannot open 'dir.fpc' for reading: Is a directory"
isdir_w="fastpair: error: cannot open 'dir.fpc' for writing: Is a directory"
expect_err "inspect a directory (1)" 1 "$isdir_r" "$bin" inspect dir.fpc
expect_err "decompress a directory (1)" 1 "$isdir_r" "$bin" decompress dir.fpc --cpu -o x.txt
expect_err "compress a directory (1)" 1 "$isdir_r" "$bin" compress dir.fpc -o x.fpc
expect_err "Arrow input that is a directory (1)" 1 "$isdir_r" "$bin" compress --offsets dir.fpc --chars c3.bin -o x.fpc
expect_err "--check a directory (1)" 1 "$isdir_r" "$bin" decompress gen_onpair16.fpc --cpu --check dir.fpc
expect_err "--check-offsets a directory (1)" 1 "$isdir_r" "$bin" decompress arrow32.fpc --cpu --check-offsets dir.fpc --check-chars chars32.bin
expect_err "stdin that is a directory (1)" 1 "fastpair: error: cannot open 'stdin' for reading: Is a directory" sh -c "\"$bin\" compress - -o x.fpc < dir.fpc"
expect_err "compress -o a directory (1)" 1 "$isdir_w" "$bin" compress gen.txt -o dir.fpc
expect_err "decompress -o a directory (1)" 1 "$isdir_w" "$bin" decompress gen_onpair16.fpc --cpu -o dir.fpc
expect_err "decompress --chars-out a directory (1)" 1 "$isdir_w" "$bin" decompress gen_onpair16.fpc --cpu --offsets-out o.bin --chars-out dir.fpc
expect_err "output under a missing folder (1)" 1 "fastpair: error: cannot open 'no-such-dir/x.txt' for writing: No such file or directory" "$bin" decompress gen_onpair16.fpc --cpu -o no-such-dir/x.txt
expect_err "output under a file (1)" 1 "fastpair: error: cannot open 'gen.txt/x.fpc' for writing: Not a directory" "$bin" compress gen.txt -o gen.txt/x.fpc
expect_err "input under a file (1)" 1 "fastpair: error: cannot open 'gen.txt/x.fpc' for reading: Not a directory" "$bin" inspect gen.txt/x.fpc
if [ -d /proc/self ]; then
  expect_err "output that cannot be created (/proc) (1)" 1 "fastpair: error: cannot open '/proc/x.fpc' for writing: No such file or directory" "$bin" compress gen.txt -o /proc/x.fpc
fi
if [ -w /dev/full ]; then
  expect_err "write error, disk full (1)" 1 "fastpair: error: error writing '/dev/full': No space left on device" "$bin" decompress gen_onpair16.fpc --cpu -o /dev/full
fi
[ -d dir.fpc ] && [ -z "$(ls -A dir.fpc)" ] && ok "the directory is left as it was" || bad "dir.fpc changed"

# ---- a .fpc is checked by its header and size before it is read whole (exit 3) -------------------
# Sparse files far larger than memory: reading them whole took minutes or failed for memory.
if truncate -s 8T big.fpc 2> /dev/null || truncate -s 1T big.fpc 2> /dev/null; then
  big_size=$(stat -c %s big.fpc)
  expect "a huge file that is no .fpc fails on its magic (3)" 3 "big.fpc: invalid .fpc: magic" timeout 20 "$bin" inspect big.fpc
  cp gen_onpair16.fpc big.fpc && truncate -s "$big_size" big.fpc
  expect "a .fpc header with a huge tail fails on the file size (3)" 3 "file size: $big_size bytes; the header's counts need" timeout 20 "$bin" decompress big.fpc --cpu -o x.txt
  rm -f big.fpc
else
  ok "sparse files of 1 TiB refused by this file system; huge-file checks skipped"
fi

# ---- progress (stderr, with --progress when stderr is not a terminal) ------------------------------
# FASTPAIR_PROGRESS_DELAY=0 shows progress at once instead of after 0.5 s. With a known total
# (reading, encoding, writing) one line is printed first and then one line at each 10 % step.
FASTPAIR_PROGRESS_DELAY=0 "$bin" compress gen.txt -o prog.fpc --chunk-bytes 4K --progress > /dev/null 2> prog.log
same "progress does not change the output" gen_onpair16.fpc prog.fpc
for label in "reading gen.txt" "encoding with onpair16"; do
  missing=""
  for p in 10 20 30 40 50 60 70 80 90 100; do
    grep -Eq "^$label +$p%  " prog.log || missing="$missing $p%"
  done
  [ -z "$missing" ] && ok "progress of '$label' shows each 10 % step" || bad "progress of '$label' lacks$missing"
  n=$(grep -Ec "^$label +[0-9]+%  " prog.log)
  [ "$n" -le 11 ] && ok "progress of '$label': $n lines (one per 10 % step and a first one)" || bad "progress of '$label': $n lines"
  grep -q "^$label: done in " prog.log && ok "progress of '$label' ends with its time" || bad "progress of '$label' has no end line"
done
FASTPAIR_PROGRESS_DELAY=0 "$bin" compress gen.txt -o prog.fpc > /dev/null 2> prog.log
[ ! -s prog.log ] && ok "no progress on a non-terminal without --progress" || bad "progress printed without --progress"
FASTPAIR_PROGRESS_DELAY=0 "$bin" compress gen.txt -o prog.fpc --progress -q > /dev/null 2> prog.log
[ ! -s prog.log ] && ok "-q turns progress off" || bad "progress printed with -q"

# ---- GPU paths -------------------------------------------------------------------------------------
if "$bin" devices > devices.log 2>&1; then
  echo "note  GPU found: $(head -1 devices.log)"
  for codec in onpair16 onpair12 fsst12; do
    expect "GPU decompress --check $codec" 0 "on the GPU" "$bin" decompress "gen_$codec.fpc" -o "gpu_$codec.out" --check gen.txt
    same "GPU output equals the input ($codec)" gen.txt "gpu_$codec.out"
    expect "GPU decompress --rows $codec" 0 "check OK" "$bin" decompress "gen_$codec.fpc" --gpu --rows 777:20001 -o x.txt --check gen.txt
  done
  expect "GPU decompress prepares the stored bytes from pinned memory" 0 "\.fpc version 2 from pinned host memory, checked on the GPU" "$bin" decompress gen_onpair16.fpc --gpu -o x.txt
  expect "GPU decompress from stdin (pageable)" 0 "check OK" sh -c "\"$bin\" decompress - --gpu -o x.txt --check gen.txt < gen_onpair12.fpc"
  expect "GPU decompress of a flipped byte (3)" 3 "malformed input: flip.fpc: invalid .fpc" "$bin" decompress flip.fpc --gpu -o x.txt
  expect "GPU decompress of a truncated file (3)" 3 "malformed input: trunc.fpc: invalid .fpc: file size" "$bin" decompress trunc.fpc --gpu -o x.txt
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
