#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Compression ratios of every TPC-H string column: fastpair's codecs beside Parquet and zstd.

Usage: scripts/tpch-ratios.py --sizes BUILD/tests/fastpair_tpch_sizes [--sf 0.1] [--work DIR] > table.md

Generates TPC-H at the scale factor with tpchgen-cli (pip install tpchgen-cli duckdb pyarrow),
reads each string column in the order of the generated key with DuckDB, and measures:
  fastpair   the .fpc version-2 file of the column with OnPair-16, OnPair-12, FSST-12 (each trained
             on the column) and with encode_auto (its choice in parentheses)
             (tests/tpch/tpch_sizes.cpp);
  Parquet    the column alone in a Parquet file written by pyarrow: dictionary encoding, zstd;
  zstd       the values joined by newlines, compressed by zstd at its default level (pyarrow).
Ratio = the values' bytes (no separators) / the stored bytes. Host figures only: nothing here runs
on the GPU.
"""
import argparse
import concurrent.futures
import io
import os
import shutil
import subprocess
import sys
import tempfile

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "tpch"))
from tpch_data import TABLES, generate, load, write_values  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", required=True, help="the fastpair_tpch_sizes binary")
    ap.add_argument("--sf", default="0.1")
    ap.add_argument("--work", default=None)
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="fastpair_tpch_ratios_")
    shutil.rmtree(work, ignore_errors=True)
    data = os.path.join(work, "tbl")
    generate(a.sf, data, TABLES)

    db = duckdb.connect()
    load(db, data, TABLES)
    jobs = []  # (column, values path, values)
    for t, (_, _, strings) in TABLES.items():
        for c in strings.split():
            path = os.path.join(work, c + ".txt")
            write_values(db, t, c, path)
            vals = [r[0] for r in db.execute(f"SELECT {c} FROM {t} ORDER BY rn").fetchall()]
            jobs.append((c, path, vals))

    def fastpair_sizes(path):
        out = subprocess.run([a.sizes, path], capture_output=True, text=True, check=True).stdout
        return {f[0]: f[1:] for f in (line.split("\t") for line in out.splitlines())}

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        sizes = list(ex.map(fastpair_sizes, [p for _, p, _ in jobs]))

    print(f"TPC-H SF {a.sf} (tpchgen-cli), DuckDB {duckdb.__version__}, pyarrow {pa.__version__}; "
          "ratio = value bytes / stored bytes\n")
    print("| column | rows | value MB | OnPair-16 | OnPair-12 | FSST-12 | auto | Parquet (dict + zstd) | zstd |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (c, _, vals), s in zip(jobs, sizes):
        raw = int(s["decoded"][0])
        buf = io.BytesIO()
        pq.write_table(pa.table({c: pa.array(vals, pa.string())}), buf, compression="zstd", use_dictionary=True)
        joined = "".join(v + "\n" for v in vals).encode("utf-8")
        z = len(pa.compress(joined, codec="zstd", asbytes=True))
        r = lambda n: f"{raw / n:.2f}" if n else "-"
        print(f"| {c} | {len(vals)} | {raw / 1e6:.2f} | {r(int(s['onpair16'][0]))} | {r(int(s['onpair12'][0]))} | "
              f"{r(int(s['fsst12'][0]))} | {r(int(s['auto'][1]))} ({s['auto'][0]}) | {r(buf.tell())} | {r(z)} |")


if __name__ == "__main__":
    main()
