# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""GPU decode through the Python package, timed as the C++ tool times it (``fastpair bench``):
the column tiled to >= 1 GB decoded, L2 flushed (a memset of 3x its size) before every run,
CUDA events around each run, min and median, a device-to-device copy of the decoded size in the
same process. Three ways, each verified once against the CPU reference:

- ``decode_into``: ``DeviceColumn.decode_into`` into CuPy buffers allocated once (the C++
  ``decode_column``: no allocation, no synchronisation inside the timed region but the event);
- ``decode``: ``DeviceColumn.decode()`` (allocates the output from the pool, checks the error
  word, which synchronizes) and the zero-copy ``cupy.asarray`` of both buffers;
- ``copy``: ``cupy`` device-to-device copy of the decoded size.

Usage: python bench_decode.py OUT.json [--data DIR] [--columns a,b] [--codecs x,y] [--runs N]
       [--source-bytes N] [--tile-bytes N] [--cli PATH]
``--cli`` runs the C++ tool's ``fastpair bench`` on each tiled column's .fpc right after the
Python measurement (compare_cli.py prints both and the ratio).
"""

from __future__ import annotations

import argparse
import gc
import json
import pathlib
import statistics
import subprocess
import tempfile
import time

import numpy as np
import pyarrow as pa

import fastpair


def read_lines(path: pathlib.Path, max_bytes: int) -> list[bytes]:
    with pa.input_stream(str(path), compression="zstd") as f:
        data = f.read(max_bytes)
    lines = data.split(b"\n")
    return lines[:-1] if len(lines) > 1 else lines


def timed(cp, fn, runs: int, flush) -> list[float]:
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    out = []
    for _ in range(runs):
        flush()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        out.append(cp.cuda.get_elapsed_time(start, stop) * 1e-3)
    return out


def stats(times: list[float], nbytes: int) -> dict:
    mn, md = min(times), statistics.median(times)
    return {"min_ms": mn * 1e3, "median_ms": md * 1e3, "gbps_max": nbytes / mn / 1e9, "gbps_median": nbytes / md / 1e9}


def main() -> None:
    import cupy as cp

    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--columns", default="tpch_l_comment,en_wiki,log_windows")
    ap.add_argument("--codecs", default="onpair16,onpair12,fsst12")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--source-bytes", type=int, default=16 << 20)
    ap.add_argument("--tile-bytes", type=int, default=1 << 30)
    ap.add_argument("--cli", default=None, help="the C++ tool: `fastpair bench` runs on each tiled .fpc right after")
    a = ap.parse_args()

    dev = cp.cuda.Device()
    l2 = dev.attributes["L2CacheSize"]
    scratch = cp.empty(3 * l2, dtype=cp.uint8)

    def flush() -> None:
        scratch.fill(1)

    results = {"device": fastpair._core.device_name(dev.id), "runs": a.runs, "cells": []}
    for name in a.columns.split(","):
        lines = read_lines(pathlib.Path(a.data) / f"{name}.txt.zst", a.source_bytes)
        for codec in a.codecs.split(","):
            t0 = time.perf_counter()
            col = fastpair.compress(lines, codec=codec)
            t_compress = time.perf_counter() - t0
            tiled = col.tile(a.tile_bytes)
            image = tiled.to_bytes()
            t0 = time.perf_counter()
            dcol = fastpair.open_device(image)
            t_open = time.perf_counter() - t0
            n, nbytes = dcol.output_size()

            # Verified once: the tile's first copy against the CPU reference (byte for byte).
            ref = col.decode_cpu(binary=True)
            first = dcol.decode(range(0, len(col)), binary=True).to_arrow()
            assert first.equals(ref), f"{name} {codec}: GPU decode differs from the CPU reference"

            off = cp.empty(n + 1, dtype=cp.int64)
            chars = cp.empty(nbytes, dtype=cp.uint8)
            dcol.decode_into(off, chars)
            dcol.check_errors()
            assert int(off[-1].get()) == nbytes

            into = timed(cp, lambda: dcol.decode_into(off, chars), a.runs, flush)
            dcol.check_errors()

            def alloc() -> None:
                ds = dcol.decode()
                cp.asarray(ds.offsets), cp.asarray(ds.chars)

            alloc()
            allocating = timed(cp, alloc, a.runs, flush)
            dst = cp.empty_like(chars)
            copy = timed(cp, lambda: cp.copyto(dst, chars), a.runs, flush)
            cell = {
                "column": name,
                "codec": codec,
                "rows": n,
                "decoded_bytes": nbytes,
                "stored_bytes": len(image),
                "device_bytes": dcol.device_bytes,
                "compress_s_source": t_compress,
                "open_device_s": t_open,
                "decode_into": stats(into, nbytes),
                "decode_alloc": stats(allocating, nbytes),
                "copy": stats(copy, nbytes),
            }
            del dcol, off, chars, dst
            gc.collect()
            cp.get_default_memory_pool().free_all_blocks()
            if a.cli:  # the C++ tool on the same bytes, in the same run, right after
                fpc = pathlib.Path(tempfile.gettempdir()) / f"fastpair-bench-{name}.{codec}.fpc"
                fpc.write_bytes(image)
                r = subprocess.run([a.cli, "bench", "--no-verify", "--json", "-n", str(a.runs), str(fpc)],
                                   capture_output=True, text=True, check=True)
                fpc.unlink()
                cell["cli"] = json.loads(r.stdout)
            results["cells"].append(cell)
            print(
                f"{name:16s} {codec:9s} {nbytes / 1e9:6.2f} GB  decode_into {cell['decode_into']['gbps_max']:7.1f} GB/s "
                f"(median {cell['decode_into']['gbps_median']:7.1f})  decode() {cell['decode_alloc']['gbps_max']:7.1f} "
                f"(median {cell['decode_alloc']['gbps_median']:7.1f})  copy {cell['copy']['gbps_max']:7.1f}"
                + (f"  C++ {cell['cli']['decode_GBps_min']:7.1f} (median {cell['cli']['decode_GBps_median']:7.1f})" if a.cli else ""),
                flush=True,
            )
    pathlib.Path(a.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
