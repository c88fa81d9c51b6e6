#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""The TPC-H string predicates at scale: GPU on codes vs GPU decode-then-filter vs DuckDB (issue #27).

Usage: scripts/tpch-bench.py --sf 10 --cli BUILD/tools/fastpair --bench BUILD/bench/fastpair_bench_tpch
                             [--codecs onpair16] [--work DIR] [--out DIR] [--duckdb-runs 10]

1. tpchgen-cli writes part, supplier, customer, orders and lineitem at the scale factor;
2. DuckDB (all cores) loads the string columns the queries read, rows numbered in the order of the
   generated key, and writes each column in that order (tests/tpch/tpch_data.py);
3. `fastpair compress` writes each column as a .fpc file per codec (one process per core);
4. fastpair_bench_tpch (bench/tpch_bench.cu) times, per query and codec, the predicates on the
   codes, decode-then-filter and the materialisation of the matches (JSON: OUT/tpch_bench.json);
5. DuckDB times `SELECT count(*) FROM t WHERE <the query's string predicates>` over the same values
   (in memory, every core: the best of --duckdb-runs after one warm-up, and the median), and its
   count must equal the benchmark's `selected` (the script fails otherwise).
Writes OUT/tpch_bench.md (the table in docs/PREDICATES.md) and OUT/duckdb.json;
`scripts/tpch-bench.py --report OUT` rewrites the table from those JSON files alone.
"""
import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "tpch"))
import tpch_data  # noqa: E402
from tpch_data import QUERIES  # noqa: E402

QUERY_TABLES = ("part", "supplier", "customer", "orders", "lineitem")


def bench_name(q):
    return q.replace(" ", "_")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sf", default="10")
    ap.add_argument("--cli", help="the fastpair CLI (compress)")
    ap.add_argument("--bench", help="fastpair_bench_tpch")
    ap.add_argument("--codecs", default="onpair16")
    ap.add_argument("--work", default=None)
    ap.add_argument("--out", default=".")
    ap.add_argument("--duckdb-runs", type=int, default=10)
    ap.add_argument("--iters", default="20", help="FASTPAIR_BENCH_ITERS of the GPU benchmark")
    ap.add_argument("--report", metavar="OUT", help="only rewrite OUT/tpch_bench.md from the JSON files there")
    a = ap.parse_args()
    if a.report:
        text, problems = report(a.report)
        print(text, *(f"FAILED: {e}" for e in problems), sep="\n")
        return 1 if problems else 0
    if not a.cli or not a.bench:
        ap.error("--cli and --bench are required (or --report OUT)")
    import duckdb

    work = a.work or tempfile.mkdtemp(prefix="fastpair_tpch_bench_")
    os.makedirs(a.out, exist_ok=True)
    stamp = lambda what, t0: print(f"tpch-bench: {what} in {time.time() - t0:.1f} s", flush=True)  # noqa: E731

    t0 = time.time()
    data = os.path.join(work, "tbl")
    tpch_data.generate(a.sf, data, QUERY_TABLES)
    stamp(f"generated SF {a.sf}", t0)

    needed = {}
    for _, table, where, shown in QUERIES:
        needed.setdefault(table, set()).update([w[0] for w in where] + shown)
    t0 = time.time()
    db = duckdb.connect()
    threads = db.execute("SELECT current_setting('threads')").fetchone()[0]
    tpch_data.load(db, data, needed, columns=set().union(*needed.values()))
    stamp(f"loaded into DuckDB ({threads} threads)", t0)

    t0 = time.time()
    cols = os.path.join(work, "columns")
    os.makedirs(cols, exist_ok=True)
    jobs = []
    for table, names in needed.items():
        for c in sorted(names):
            values = os.path.join(cols, c + ".txt")
            tpch_data.write_values(db, table, c, values)
            jobs += [[a.cli, "compress", "-c", codec, values, "-o", os.path.join(cols, f"{c}.{codec}.fpc")]
                     for codec in a.codecs.split(",")]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for r in ex.map(lambda cmd: subprocess.run(cmd, capture_output=True, text=True), jobs):
            if r.returncode != 0:
                sys.exit(f"tpch-bench: {' '.join(r.args)} failed: {r.stderr}")
    stamp(f"wrote and compressed {len(jobs)} column files", t0)

    queries = os.path.join(work, "queries.tsv")
    with open(queries, "w", encoding="utf-8") as f:
        for name, table, where, shown in QUERIES:
            f.write(f"query\t{bench_name(name)}\t{table}\n")
            f.write("".join(line + "\n" for line in tpch_data.spec_lines(where, shown, lambda c: c)))
    t0 = time.time()
    bench_json = os.path.join(a.out, "tpch_bench.json")
    env = dict(os.environ, FASTPAIR_TPCH_DIR=cols, FASTPAIR_TPCH_QUERIES=queries, FASTPAIR_BENCH_CODECS=a.codecs,
               FASTPAIR_BENCH_ITERS=a.iters)
    subprocess.run([a.bench, f"--benchmark_out={bench_json}", "--benchmark_out_format=json"], env=env, check=True)
    stamp("GPU benchmark", t0)

    t0 = time.time()
    duck = {}
    for name, table, where, _ in QUERIES:
        sql = f"SELECT count(*) FROM {table} WHERE " + " AND ".join(w[3] for w in where)
        count = db.execute(sql).fetchone()[0]  # warm-up
        times = []
        for _ in range(a.duckdb_runs):
            s = time.perf_counter()
            db.execute(sql).fetchone()
            times.append(time.perf_counter() - s)
        duck[bench_name(name)] = {"sql": sql, "count": count, "min_s": min(times), "median_s": statistics.median(times)}
    stamp("DuckDB timings", t0)
    with open(os.path.join(a.out, "duckdb.json"), "w") as f:
        json.dump({"duckdb": duckdb.__version__, "threads": threads, "sf": a.sf, "queries": duck}, f, indent=1)

    text, problems = report(a.out)
    print(text)
    for e in problems:
        print("FAILED:", e)
    return 1 if problems else 0


def report(out):
    """OUT/tpch_bench.md from OUT/tpch_bench.json and OUT/duckdb.json; returns (text, problems):
    failed benchmarks and counts that differ from DuckDB's."""
    with open(os.path.join(out, "tpch_bench.json")) as f:
        bench = json.load(f)
    with open(os.path.join(out, "duckdb.json")) as f:
        ddb = json.load(f)
    duck = ddb["queries"]
    by, codecs, problems = {}, [], []
    for b in bench["benchmarks"]:
        if b.get("error_occurred"):
            problems.append(f"{b['name']}: {b.get('error_message')}")
            continue
        method, q, codec = b["name"].split("/")[:3]
        by[(method, q, codec)] = b
        if codec not in codecs:
            codecs.append(codec)
    ctx = bench["context"]
    lines = [f"TPC-H SF {ddb['sf']} (tpchgen-cli), {ctx.get('date', '?')}; GPU: {ctx.get('gpu_name', '?')}; "
             f"DuckDB {ddb['duckdb']} on {ddb['threads']} threads over the same values in memory. "
             "ms: min / median; GB/s: decoded bytes of the `where` columns / median time; "
             "×: median over median.", "",
             "| query | codec | rows | where MB | where device MB | selected | compile ms | codes ms | codes GB/s | decode+filter ms | "
             "DuckDB ms | × decode+filter | × DuckDB | materialize ms (MB out) | D2D copy GB/s |",
             "|---|---|---:|---:|---:|---:|---:|---|---:|---|---|---:|---:|---|---:|"]
    for name, _, where, _ in QUERIES:
        q = bench_name(name)
        d = duck[q]
        for i, codec in enumerate(codecs):
            label = f"{name} `{' AND '.join(w[3] for w in where)}`" if i == 0 else ""
            c, f_, m, cp = (by.get((k, q, codec)) for k in ("codes", "decode_filter", "materialize", "copy"))
            if not c or not f_:
                lines.append(f"| {label} | {codec} | failed | | | | | | | | | | | | |")
                continue
            if int(c["selected"]) != d["count"]:
                problems.append(f"{name} {codec}: fastpair {int(c['selected'])} rows, DuckDB {d['count']}")
            mat = f"{m['ms_min']:.3f} / {m['ms_median']:.3f} ({m['out_MB']:.1f})" if m else "-"
            copy = f"{cp['GBps_median']:.0f}" if cp else "-"
            duck_ms = f"{d['min_s'] * 1e3:.1f} / {d['median_s'] * 1e3:.1f}" if i == 0 else ""
            lines.append(
                f"| {label} | {codec} | {int(c['rows'])} | {c['where_MB']:.1f} | {c.get('where_device_MB', 0):.1f} | {int(c['selected'])} | "
                f"{c.get('compile_ms', 0):.1f} | {c['ms_min']:.3f} / {c['ms_median']:.3f} | {c['GBps_median']:.0f} | "
                f"{f_['ms_min']:.3f} / {f_['ms_median']:.3f} | {duck_ms} | "
                f"{f_['ms_median'] / c['ms_median']:.1f} | {d['median_s'] * 1e3 / c['ms_median']:.0f} | {mat} | {copy} |")
    lines += ["", "where device MB: what the predicates' columns occupy on the GPU, prepared with the row offsets "
              "the predicates read (device_column::device_bytes(); 16 B per row of it are the offsets). "
              "codes: the predicates on the compressed codes, compiled beforehand (compile ms); decode+filter: "
              "decode_column (chars + int64 offsets) then a match kernel on the decoded bytes; materialize: "
              "decompress_selected of the query's shown columns; DuckDB: `SELECT count(*)` with the same predicates."]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "tpch_bench.md"), "w") as f:
        f.write(text)
    return text, problems


if __name__ == "__main__":
    sys.exit(main())
