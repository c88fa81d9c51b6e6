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

TABLES = {  # name: (columns, key, string columns measured)
    "lineitem": ("l_orderkey l_partkey l_suppkey l_linenumber l_quantity l_extendedprice l_discount l_tax "
                 "l_returnflag l_linestatus l_shipdate l_commitdate l_receiptdate l_shipinstruct l_shipmode "
                 "l_comment", "CAST(l_orderkey AS BIGINT), CAST(l_linenumber AS BIGINT)",
                 "l_shipinstruct l_shipmode l_comment"),
    "orders": ("o_orderkey o_custkey o_orderstatus o_totalprice o_orderdate o_orderpriority o_clerk "
               "o_shippriority o_comment", "CAST(o_orderkey AS BIGINT)",
               "o_orderstatus o_orderpriority o_clerk o_comment"),
    "part": ("p_partkey p_name p_mfgr p_brand p_type p_size p_container p_retailprice p_comment",
             "CAST(p_partkey AS BIGINT)", "p_name p_mfgr p_brand p_type p_container p_comment"),
    "partsupp": ("ps_partkey ps_suppkey ps_availqty ps_supplycost ps_comment",
                 "CAST(ps_partkey AS BIGINT), CAST(ps_suppkey AS BIGINT)", "ps_comment"),
    "supplier": ("s_suppkey s_name s_address s_nationkey s_phone s_acctbal s_comment",
                 "CAST(s_suppkey AS BIGINT)", "s_name s_address s_phone s_comment"),
    "customer": ("c_custkey c_name c_address c_nationkey c_phone c_acctbal c_mktsegment c_comment",
                 "CAST(c_custkey AS BIGINT)", "c_name c_address c_phone c_mktsegment c_comment"),
    "nation": ("n_nationkey n_name n_regionkey n_comment", "CAST(n_nationkey AS BIGINT)", "n_name n_comment"),
    "region": ("r_regionkey r_name r_comment", "CAST(r_regionkey AS BIGINT)", "r_name r_comment"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", required=True, help="the fastpair_tpch_sizes binary")
    ap.add_argument("--sf", default="0.1")
    ap.add_argument("--work", default=None)
    a = ap.parse_args()
    gen = shutil.which("tpchgen-cli") or shutil.which("tpchgen-cli", path=os.path.dirname(sys.executable))
    if gen is None:
        sys.exit("tpch-ratios: tpchgen-cli not found (pip install tpchgen-cli)")
    work = a.work or tempfile.mkdtemp(prefix="fastpair_tpch_ratios_")
    shutil.rmtree(work, ignore_errors=True)
    data = os.path.join(work, "tbl")
    os.makedirs(data)
    subprocess.run([gen, "tbl", "-s", a.sf, "--tables", ",".join(TABLES), "--output-dir", data], check=True)

    db = duckdb.connect()
    jobs = []  # (column, values path, values)
    for t, (cols, key, strings) in TABLES.items():
        names = cols.split() + ["trailing_empty"]
        spec = "{" + ", ".join(f"'{n}': 'VARCHAR'" for n in names) + "}"
        db.execute(f"CREATE TABLE {t} AS SELECT * FROM read_csv('{os.path.join(data, t + '.tbl')}', delim='|', "
                   f"header=false, quote='', escape='', auto_detect=false, columns={spec}) ORDER BY {key}")
        for c in strings.split():
            vals = [r[0] for r in db.execute(f"SELECT {c} FROM {t}").fetchall()]
            path = os.path.join(work, c + ".txt")
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write("".join(v + "\n" for v in vals))
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
