# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Scale-out with Dask: a directory of .fpc row groups, one task per file, a LIKE predicate
evaluated on the compressed codes and the matching rows decoded (late materialisation), the
counts aggregated on the client.

One worker process per GPU (``--gpus N``: worker i uses device i; no dask-cuda needed), or CPU
workers (``--gpus 0``: the host predicates and the CPU decoder). The same code runs on a
multi-node cluster by passing ``--scheduler ADDRESS`` instead of starting a LocalCluster.

    python dask_predicate_count.py make DIR --source lines.txt --groups 8
    python dask_predicate_count.py count DIR --pattern '%special%' [--gpus 1] [--workers 2]

``count`` prints one JSON line: files, rows, matches, matched bytes, decoded bytes, seconds.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import time

import fastpair


def process(path: str, pattern: str, gpus: int) -> dict:
    """One row group: rows, predicate matches and the bytes of the matching rows, decoded."""
    if gpus > 0:
        from distributed import get_worker

        device = int(get_worker().name) % gpus
        dcol = fastpair.open_device(path, device=device)
        mask = dcol.like(pattern)
        matched = dcol.decode(mask)
        return {"rows": dcol.num_rows, "matches": len(matched), "matched_bytes": matched.chars.nbytes,
                "decoded_bytes": dcol.decoded_bytes}
    col = fastpair.read(path)
    mask = col.like(pattern)
    matched = col.decode_cpu(rows=mask)
    return {"rows": len(col), "matches": len(matched), "matched_bytes": _chars_bytes(matched),
            "decoded_bytes": col.decoded_bytes}


def _chars_bytes(arr) -> int:  # noqa: ANN001 (a pyarrow large_string array)
    import numpy as np

    off = np.frombuffer(arr.buffers()[1], dtype=np.int64)[arr.offset : arr.offset + len(arr) + 1]
    return int(off[-1] - off[0])


def make(directory: pathlib.Path, source: pathlib.Path, groups: int, codec: str) -> None:
    lines = source.read_bytes().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    directory.mkdir(parents=True, exist_ok=True)
    step = max(1, -(-len(lines) // groups))
    for g in range(0, len(lines), step):
        fastpair.compress(lines[g : g + step], codec=codec).write(directory / f"part-{g // step:05d}.fpc")


def count(directory: pathlib.Path, pattern: str, gpus: int, workers: int, scheduler: str | None) -> dict:
    from distributed import Client, LocalCluster

    files = sorted(str(p) for p in directory.glob("*.fpc"))
    if not files:
        raise SystemExit(f"no .fpc files in {directory}")
    n_workers = gpus if gpus > 0 else workers
    cluster = None if scheduler else LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                                  dashboard_address=None)
    with Client(scheduler or cluster) as client:
        t0 = time.perf_counter()
        parts = client.gather(client.map(process, files, pattern=pattern, gpus=gpus, pure=False))
        seconds = time.perf_counter() - t0
    if cluster is not None:
        cluster.close()
    total = {k: sum(p[k] for p in parts) for k in ("rows", "matches", "matched_bytes", "decoded_bytes")}
    return {"files": len(files), **total, "pattern": pattern, "gpus": gpus, "workers": n_workers, "seconds": seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make", help="split a newline-separated file into compressed row groups")
    m.add_argument("dir", type=pathlib.Path)
    m.add_argument("--source", type=pathlib.Path, required=True)
    m.add_argument("--groups", type=int, default=8)
    m.add_argument("--codec", default="auto")
    c = sub.add_parser("count", help="count the rows matching a LIKE pattern, decoding the matches")
    c.add_argument("dir", type=pathlib.Path)
    c.add_argument("--pattern", required=True)
    c.add_argument("--gpus", type=int, default=0, help="GPU workers (one per GPU); 0 = CPU workers")
    c.add_argument("--workers", type=int, default=2, help="CPU workers when --gpus 0")
    c.add_argument("--scheduler", default=None, help="address of a running Dask scheduler")
    a = ap.parse_args()
    if a.cmd == "make":
        make(a.dir, a.source, a.groups, a.codec)
    else:
        print(json.dumps(count(a.dir, a.pattern, a.gpus, a.workers, a.scheduler)))


if __name__ == "__main__":
    main()
