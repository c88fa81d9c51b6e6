# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures: real columns from ../shared/data (when present) and synthetic ones; GPU tests
(marked ``gpu``) are skipped without a usable GPU, and the session summary says how many."""

from __future__ import annotations

import os
import pathlib
import random

import numpy as np
import pyarrow as pa
import pytest

import fastpair

CODECS = ["onpair16", "onpair12", "fsst12"]
_REPO = pathlib.Path(__file__).resolve().parents[2]


def _data_dirs() -> list[pathlib.Path]:
    env = os.environ.get("FASTPAIR_DATA_DIR")
    dirs = [pathlib.Path(env)] if env else []
    return dirs + [_REPO / ".devdata", _REPO.parent / "shared" / "data"]


def real_column(name: str, max_bytes: int = 1 << 20) -> list[bytes] | None:
    """The first rows (up to max_bytes) of ../shared/data/NAME.txt.zst, or None if absent."""
    for d in _data_dirs():
        p = d / f"{name}.txt.zst"
        if p.exists():
            with pa.input_stream(str(p), compression="zstd") as f:
                data = f.read(max_bytes)
            lines = data.split(b"\n")
            return lines[:-1] if len(lines) > 1 else lines  # the last line may be cut
    return None


def synthetic_rows(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "special", "requests", "Customer", "Complaints", "é", "日本"]
    rows = []
    for i in range(n):
        k = rng.randrange(0, 8)
        rows.append(" ".join(rng.choice(words) for _ in range(k)) + (f" #{i}" if i % 3 == 0 else ""))
    rows[5] = ""
    rows[6] = "x" * 300  # longer than any token, than 255 bytes
    return rows


@pytest.fixture(scope="session")
def rows() -> list[str]:
    return synthetic_rows(5000)


@pytest.fixture(scope="session", params=CODECS)
def codec(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="session")
def columns(rows: list[str]) -> dict[str, fastpair.CompressedColumn]:
    return {c: fastpair.compress(rows, codec=c) for c in CODECS}


_GPU_REASON = fastpair.gpu_unavailable_reason()
_skipped_gpu = 0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    global _skipped_gpu
    if _GPU_REASON is None:
        return
    skip = pytest.mark.skip(reason=f"no GPU: {_GPU_REASON}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
            _skipped_gpu += 1


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ANN001
    if _skipped_gpu:
        terminalreporter.write_line(f"fastpair: {_skipped_gpu} GPU test(s) skipped ({_GPU_REASON})")
