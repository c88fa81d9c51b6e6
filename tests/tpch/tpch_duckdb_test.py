#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""TPC-H string predicates on compressed columns, checked against DuckDB (issue #27, CPU path).

Generates TPC-H at a small scale factor with tpchgen-cli, loads it into DuckDB, and for each
string predicate of Q2, Q9, Q13, Q14, Q16, Q19, Q20 and Q22 compares, for every codec, the rows that
fastpair selects on the compressed columns (host predicates on the codes, ANDed per table) and the
values it materialises from the compressed columns (late materialisation) with DuckDB's answer over
the same data, rows numbered in the order of the generated key. With --gpu the tool evaluates the
predicates on the GPU (predicates.cuh, masks combined on the device) and materialises the rows with
decompress_selected; ctest runs the host path, scripts/device-tpch.sh the GPU path at SF 1.

The multi-part LIKEs (Q13 o_comment NOT LIKE '%special%requests%', Q16 s_comment LIKE
'%Customer%Complaints%') go through select_like_pattern (host) / prepare_pattern (GPU).

Usage: tpch_duckdb_test.py --tool PATH/fastpair_tpch_predicates [--gpu] [--sf 0.01] [--work DIR]
                           [--wrap "compute-sanitizer --tool memcheck --error-exitcode 9"]
Exit 0: every comparison equal; 1: a difference (printed); 77: duckdb or tpchgen-cli missing
(skipped), unless FASTPAIR_REQUIRE_TPCH=1 (CI), where it fails instead.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tpch_data  # noqa: E402
from tpch_data import QUERIES  # noqa: E402

CODECS = ("onpair16", "onpair12", "fsst12")
QUERY_TABLES = ("part", "supplier", "customer", "orders", "lineitem")


def missing(what):
    if os.environ.get("FASTPAIR_REQUIRE_TPCH") == "1":
        sys.exit(f"tpch_duckdb_test: {what} is required (FASTPAIR_REQUIRE_TPCH=1)")
    print(f"SKIPPED: {what} not found (pip install duckdb tpchgen-cli)")
    sys.exit(77)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--sf", default="0.01")
    ap.add_argument("--work", default=None)
    ap.add_argument("--gpu", action="store_true", help="the tool's GPU path")
    ap.add_argument("--wrap", default="", help="a command prefix for the tool (a sanitizer)")
    ap.add_argument("--codecs", default=",".join(CODECS))
    a = ap.parse_args()
    try:
        import duckdb
    except ImportError:
        missing("the duckdb Python package")
    if tpch_data.tpchgen() is None:
        missing("tpchgen-cli")

    work = a.work or tempfile.mkdtemp(prefix="fastpair_tpch_")
    shutil.rmtree(work, ignore_errors=True)
    data = os.path.join(work, "tbl")
    tpch_data.generate(a.sf, data, QUERY_TABLES)
    db = duckdb.connect()
    tpch_data.load(db, data, QUERY_TABLES)

    def values_file(table, col):  # the column in row order, one value per line
        path = os.path.join(work, f"{table}.{col}.txt")
        if not os.path.exists(path):
            tpch_data.write_values(db, table, col, path)
        return path

    failures, checks = 0, 0
    for name, table, where, shown in QUERIES:
        sql = " AND ".join(w[3] for w in where)
        expect = db.execute(f"SELECT rn, {', '.join(shown)} FROM {table} WHERE {sql} ORDER BY rn").fetchall()
        expect_text = "".join("\t".join(str(x) for x in row) + "\n" for row in expect) + f"count\t{len(expect)}\n"
        spec_path = os.path.join(work, "spec.txt")
        with open(spec_path, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in tpch_data.spec_lines(where, shown, lambda c: values_file(table, c))))
        rows = db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for codec in a.codecs.split(","):
            checks += 1
            cmd = a.wrap.split() + [a.tool] + (["--gpu"] if a.gpu else []) + [codec, spec_path]
            got = subprocess.run(cmd, capture_output=True, text=True)
            if got.returncode != 0 or got.stdout != expect_text:
                failures += 1
                print(f"DIFFERENT {name} {codec}: {sql} (rc {got.returncode}) {got.stderr.strip()}")
                gl, el = got.stdout.splitlines(), expect_text.splitlines()
                for i, (g, e) in enumerate(zip(gl, el)):
                    if g != e:
                        print(f"  line {i}: fastpair {g!r} vs duckdb {e!r}")
                        break
                else:
                    print(f"  fastpair {len(gl)} lines, duckdb {len(el)}")
            else:
                print(f"equal  {name:13s} {codec:9s} {len(expect):6d} of {rows:6d} rows  {sql}")
    path = "GPU" if a.gpu else "host"
    print(f"{checks - failures} of {checks} comparisons equal ({path} path, TPC-H SF {a.sf}, DuckDB {duckdb.__version__})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
