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

CODECS = ("onpair16", "onpair12", "fsst12")

TABLES = {  # name: (columns, key expression for the row order)
    "part": ("p_partkey p_name p_mfgr p_brand p_type p_size p_container p_retailprice p_comment",
             "CAST(p_partkey AS BIGINT)"),
    "supplier": ("s_suppkey s_name s_address s_nationkey s_phone s_acctbal s_comment",
                 "CAST(s_suppkey AS BIGINT)"),
    "customer": ("c_custkey c_name c_address c_nationkey c_phone c_acctbal c_mktsegment c_comment",
                 "CAST(c_custkey AS BIGINT)"),
    "orders": ("o_orderkey o_custkey o_orderstatus o_totalprice o_orderdate o_orderpriority o_clerk "
               "o_shippriority o_comment", "CAST(o_orderkey AS BIGINT)"),
    "lineitem": ("l_orderkey l_partkey l_suppkey l_linenumber l_quantity l_extendedprice l_discount l_tax "
                 "l_returnflag l_linestatus l_shipdate l_commitdate l_receiptdate l_shipinstruct l_shipmode "
                 "l_comment", "CAST(l_orderkey AS BIGINT), CAST(l_linenumber AS BIGINT)"),
}

# (query, table, [(column, op, args, SQL)], materialised columns)
QUERIES = [
    ("Q2", "part", [("p_type", "suffix", ["BRASS"], "p_type LIKE '%BRASS'")], ["p_type", "p_mfgr"]),
    ("Q9", "part", [("p_name", "substring", ["green"], "p_name LIKE '%green%'")], ["p_name"]),
    ("Q13", "orders", [("o_comment", "not_like", ["%special%requests%"],
                        "o_comment NOT LIKE '%special%requests%'")], ["o_comment"]),
    ("Q14", "part", [("p_type", "prefix", ["PROMO"], "p_type LIKE 'PROMO%'")], ["p_type"]),
    ("Q16", "part", [("p_brand", "ne", ["Brand#45"], "p_brand <> 'Brand#45'"),
                     ("p_type", "not_prefix", ["MEDIUM POLISHED"], "p_type NOT LIKE 'MEDIUM POLISHED%'")],
     ["p_brand", "p_type"]),
    ("Q16 supplier", "supplier", [("s_comment", "like", ["%Customer%Complaints%"],
                                    "s_comment LIKE '%Customer%Complaints%'")], ["s_comment", "s_name"]),
    ("Q19 part", "part", [("p_brand", "eq", ["Brand#12"], "p_brand = 'Brand#12'"),
                          ("p_container", "in", ["SM CASE", "SM BOX", "SM PACK", "SM PKG"],
                           "p_container IN ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG')")],
     ["p_brand", "p_container"]),
    ("Q19 lineitem", "lineitem",
     [("l_shipinstruct", "eq", ["DELIVER IN PERSON"], "l_shipinstruct = 'DELIVER IN PERSON'"),
      ("l_shipmode", "in", ["AIR", "AIR REG"], "l_shipmode IN ('AIR', 'AIR REG')")],
     ["l_shipinstruct", "l_shipmode", "l_comment"]),
    ("Q20", "part", [("p_name", "prefix", ["forest"], "p_name LIKE 'forest%'")], ["p_name"]),
    ("Q22", "customer", [("c_phone", "prefix_in", ["13", "31", "23", "29", "30", "18", "17"],
                          "substring(c_phone, 1, 2) IN ('13', '31', '23', '29', '30', '18', '17')")],
     ["c_phone", "c_name"]),
]


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
    gen = shutil.which("tpchgen-cli") or shutil.which("tpchgen-cli", path=os.path.dirname(sys.executable))
    if gen is None:
        missing("tpchgen-cli")

    work = a.work or tempfile.mkdtemp(prefix="fastpair_tpch_")
    shutil.rmtree(work, ignore_errors=True)
    data = os.path.join(work, "tbl")
    os.makedirs(data)
    subprocess.run([gen, "tbl", "-s", a.sf, "--tables", ",".join(TABLES), "--output-dir", data], check=True)

    db = duckdb.connect()
    for t, (cols, key) in TABLES.items():
        names = cols.split() + ["trailing_empty"]  # every .tbl line ends with '|'
        spec = "{" + ", ".join(f"'{n}': 'VARCHAR'" for n in names) + "}"
        db.execute(f"CREATE TABLE {t}_raw AS SELECT * FROM read_csv('{os.path.join(data, t + '.tbl')}', delim='|', "
                   f"header=false, quote='', escape='', auto_detect=false, columns={spec})")
        db.execute(f"CREATE TABLE {t} AS SELECT row_number() OVER (ORDER BY {key}) - 1 AS rn, * FROM {t}_raw")

    def values_file(table, col):  # the column in row order, one value per line
        path = os.path.join(work, f"{table}.{col}.txt")
        if not os.path.exists(path):
            vals = [r[0] for r in db.execute(f"SELECT {col} FROM {table} ORDER BY rn").fetchall()]
            if any("\n" in v for v in vals):
                sys.exit(f"{table}.{col}: a value holds a newline")
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write("".join(v + "\n" for v in vals))
        return path

    failures, checks = 0, 0
    for name, table, where, shown in QUERIES:
        sql = " AND ".join(w[3] for w in where)
        expect = db.execute(f"SELECT rn, {', '.join(shown)} FROM {table} WHERE {sql} ORDER BY rn").fetchall()
        expect_text = "".join("\t".join(str(x) for x in row) + "\n" for row in expect) + f"count\t{len(expect)}\n"
        spec_path = os.path.join(work, "spec.txt")
        with open(spec_path, "w", encoding="utf-8") as f:
            for col, op, args, _ in where:
                f.write("\t".join(["where", values_file(table, col), op] + args) + "\n")
            for col in shown:
                f.write(f"materialize\t{values_file(table, col)}\n")
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
