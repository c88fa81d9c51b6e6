# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""TPC-H data and string predicates shared by the DuckDB equality test (tpch_duckdb_test.py), the
ratio table (scripts/tpch-ratios.py) and the SF10 benchmark driver (scripts/tpch-bench.py).

generate() writes the tables with tpchgen-cli; load() reads them into DuckDB with a row number
`rn` in the order of the generated key; write_values() writes one column in that order, one value
per line (the input of `fastpair compress` and of the tools). QUERIES holds the string predicates
of TPC-H Q2, Q9, Q13, Q14, Q16, Q19, Q20 and Q22 in the ops of tests/tpch/tpch_ops.cuh.
"""
import os
import shutil
import subprocess
import sys

TABLES = {  # name: (columns, key expression for the row order, string columns)
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


def tpchgen():
    """The tpchgen-cli executable, or None."""
    return shutil.which("tpchgen-cli") or shutil.which("tpchgen-cli", path=os.path.dirname(sys.executable))


def generate(sf, data_dir, tables):
    """Writes `tables` at scale factor `sf` as .tbl files into data_dir (emptied first)."""
    gen = tpchgen()
    if gen is None:
        raise RuntimeError("tpchgen-cli not found (pip install tpchgen-cli)")
    shutil.rmtree(data_dir, ignore_errors=True)
    os.makedirs(data_dir)
    subprocess.run([gen, "tbl", "-s", str(sf), "--tables", ",".join(tables), "--output-dir", data_dir], check=True)


def load(db, data_dir, tables, columns=None):
    """Reads each table's .tbl into DuckDB table `name` with `rn` (0-based, in key order) first.
    columns: if given, only these columns (and rn) are kept."""
    for t in tables:
        cols, key, _ = TABLES[t]
        names = cols.split() + ["trailing_empty"]  # every .tbl line ends with '|'
        spec = "{" + ", ".join(f"'{n}': 'VARCHAR'" for n in names) + "}"
        keep = ", ".join(c for c in cols.split() if columns is None or c in columns or c in key)
        db.execute(f"CREATE TABLE {t}_raw AS SELECT {keep} FROM read_csv('{os.path.join(data_dir, t + '.tbl')}', "
                   f"delim='|', header=false, quote='', escape='', auto_detect=false, columns={spec})")
        shown = "*" if columns is None else ", ".join(c for c in cols.split() if c in columns)
        db.execute(f"CREATE TABLE {t} AS SELECT row_number() OVER (ORDER BY {key}) - 1 AS rn, {shown} "
                   f"FROM {t}_raw ORDER BY rn")
        db.execute(f"DROP TABLE {t}_raw")


def write_values(db, table, column, path):
    """Writes table.column in row order, one value per line (TPC-H values hold no newline)."""
    db.execute(f"COPY (SELECT {column} FROM {table} ORDER BY rn) TO '{path}' "
               "(FORMAT csv, HEADER false, QUOTE '', ESCAPE '', DELIMITER '\x1f')")


def spec_lines(where, shown, path_of):
    """The tool's spec for one query: `where` and `materialize` lines naming path_of(column)."""
    lines = ["\t".join(["where", path_of(col), op] + args) for col, op, args, _ in where]
    return lines + [f"materialize\t{path_of(col)}" for col in shown]
