# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""The Dask scale-out example (python/examples/dask_predicate_count.py) on CPU workers over a
small directory of row groups: its aggregated counts equal pyarrow's over the same rows. On a GPU
machine the same example runs with one GPU worker (marked gpu)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from conftest import real_column, synthetic_rows

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "dask_predicate_count.py"


@pytest.fixture(scope="module")
def row_groups(tmp_path_factory):
    pytest.importorskip("distributed")
    lines = real_column("tpch_l_comment", 2 << 20) or [r.encode() for r in synthetic_rows(20000)]
    d = tmp_path_factory.mktemp("groups")
    src = d / "source.txt"
    src.write_bytes(b"\n".join(lines) + b"\n")
    out = d / "fpc"
    subprocess.run([sys.executable, str(EXAMPLE), "make", str(out), "--source", str(src), "--groups", "6"], check=True)
    return out, lines


def _expected(lines, pattern):
    arr = pa.array(lines, type=pa.large_binary()).cast(pa.large_string())
    m = pc.match_like(arr, pattern)
    sel = arr.filter(m)
    return len(sel), int(pc.sum(pc.binary_length(sel)).as_py() or 0)


def _run(directory, pattern, *extra):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    r = subprocess.run([sys.executable, str(EXAMPLE), "count", str(directory), "--pattern", pattern, *extra],
                       check=True, capture_output=True, text=True, env=env, timeout=300)
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("pattern", ["%special%", "%requests%deposits%"])
def test_cpu_workers(row_groups, pattern):
    directory, lines = row_groups
    got = _run(directory, pattern, "--workers", "2")
    n, nbytes = _expected(lines, pattern)
    assert got["files"] == 6 and got["rows"] == len(lines)
    assert got["decoded_bytes"] == sum(len(v) for v in lines)
    assert (got["matches"], got["matched_bytes"]) == (n, nbytes)
    assert n > 0


@pytest.mark.gpu
@pytest.mark.parametrize("pattern", ["%special%", "%requests%deposits%"])
def test_one_gpu_worker(row_groups, pattern):
    directory, lines = row_groups
    got = _run(directory, pattern, "--gpus", "1")
    assert (got["matches"], got["matched_bytes"]) == _expected(lines, pattern)
    assert got["rows"] == len(lines)
