# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""The CPU path of the package: round trips against pyarrow for every codec and input kind, file
I/O, predicates against Python's own string operations, the DSV parser, and bad input."""

from __future__ import annotations

import fnmatch

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import fastpair
from conftest import CODECS, real_column


def test_round_trip_list_of_str(rows, codec):
    col = fastpair.compress(rows, codec=codec)
    assert col.codec == codec
    assert len(col) == len(rows)
    assert col.decoded_bytes == sum(len(r.encode()) for r in rows)
    out = col.decode_cpu()
    assert out.type == pa.large_string()
    assert out.to_pylist() == rows
    out32 = col.decode_cpu(offsets=32)
    assert out32.type == pa.string()
    assert out32.equals(pa.array(rows, type=pa.string()))


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string(), pa.binary(), pa.large_binary()])
def test_round_trip_arrow_types(rows, codec, typ):
    values = [r.encode() for r in rows] if pa.types.is_binary(typ) or pa.types.is_large_binary(typ) else rows
    arr = pa.array(values, type=typ)
    col = fastpair.compress(arr, codec=codec)
    assert col.decode_cpu(binary=True).to_pylist() == [r.encode() for r in rows]


def test_sliced_and_chunked_arrow_input(rows):
    arr = pa.array(rows, type=pa.string())
    sliced = arr.slice(100, 1000)
    col = fastpair.compress(sliced, codec="onpair12")
    assert col.decode_cpu().to_pylist() == rows[100:1100]
    chunked = pa.chunked_array([arr.slice(0, 10), arr.slice(10, 20)])
    assert fastpair.compress(chunked).decode_cpu().to_pylist() == rows[:30]


def test_newline_separated_bytes():
    assert fastpair.compress(b"a\nbb\n\nccc\n").decode_cpu().to_pylist() == ["a", "bb", "", "ccc"]
    assert fastpair.compress(b"a\nbb").decode_cpu().to_pylist() == ["a", "bb"]
    assert len(fastpair.compress(b"")) == 0
    assert fastpair.compress(b"\n").decode_cpu().to_pylist() == [""]


@pytest.mark.parametrize("name", ["tpch_l_comment", "en_wiki", "log_windows", "zh_text"])
def test_real_columns(name, codec):
    lines = real_column(name, 1 << 20)
    if lines is None:
        pytest.skip(f"../shared/data/{name}.txt.zst not present")
    col = fastpair.compress(lines, codec=codec)
    assert col.ratio > 1.0
    assert col.decode_cpu(binary=True).to_pylist() == lines
    back = fastpair.from_bytes(col.to_bytes())
    assert back.decode_cpu(binary=True).equals(col.decode_cpu(binary=True))


def test_auto_picks_the_smallest(rows):
    auto = fastpair.compress(rows, codec="auto")
    sizes = {c: fastpair.compress(rows, codec=c).sizes for c in CODECS}
    with_rows = {c: s["dictionary"] + s["codes"] + s["sidecar"] + s["row_metadata"] for c, s in sizes.items()}
    assert with_rows[auto.codec] == min(with_rows.values())
    assert "smallest stored size" in auto.reason


def test_sizes_and_ratio(columns):
    for col in columns.values():
        s = col.sizes
        assert s["file"] == len(col.to_bytes()) == col.stored_bytes
        assert s["dictionary"] > 0 and s["codes"] > 0
        assert col.ratio == pytest.approx(col.decoded_bytes / len(col.to_bytes()))


def test_file_io(tmp_path, columns, rows):
    for codec, col in columns.items():
        p = tmp_path / f"{codec}.fpc"
        col.write(p)
        back = fastpair.read(p)
        assert back.codec == codec and len(back) == len(rows)
        assert back.decode_cpu().to_pylist() == rows
        v1 = tmp_path / f"{codec}.v1.fpc"
        col.write(v1, version=1)
        assert fastpair.read(str(v1)).decode_cpu().to_pylist() == rows


def test_row_selections(columns, rows):
    col = columns["onpair16"]
    assert col.decode_cpu(rows=range(10, 20)).to_pylist() == rows[10:20]
    assert col.decode_cpu(rows=slice(-5, None)).to_pylist() == rows[-5:]
    ids = [0, 3, 4999]
    assert col.decode_cpu(rows=ids).to_pylist() == [rows[i] for i in ids]
    assert col.decode_cpu(rows=np.array(ids, dtype=np.uint64), offsets=32).to_pylist() == [rows[i] for i in ids]
    mask = np.zeros(len(rows), dtype=bool)
    mask[[7, 8]] = True
    assert col.decode_cpu(rows=mask).to_pylist() == [rows[7], rows[8]]
    with pytest.raises(ValueError, match="strictly increasing"):
        col.decode_cpu(rows=[3, 3])
    with pytest.raises(ValueError, match="past"):
        col.decode_cpu(rows=[len(rows)])
    with pytest.raises(ValueError, match="outside"):
        col.decode_cpu(rows=range(0, len(rows) + 1))
    with pytest.raises(ValueError, match="step 1"):
        col.decode_cpu(rows=range(0, 10, 2))


def _like(value: str, pattern: str) -> bool:
    return fnmatch.fnmatchcase(value, pattern.replace("[", "[[]").replace("%", "*").replace("?", "[?]"))


@pytest.mark.parametrize(
    "pattern", ["alpha%", "%requests", "%special%", "%special%requests%", "%Customer%Complaints%", "beta", "%", "%%", ""]
)
def test_like_matches_python(columns, rows, pattern):
    expect = np.array([_like(r, pattern) for r in rows])
    for col in columns.values():
        got = col.like(pattern)
        assert got.dtype == np.bool_ and got.shape == (len(rows),)
        assert np.array_equal(got, expect), pattern


def test_predicates_match_python(columns, rows):
    lits = ["alpha", "", rows[0], "no such row"]
    for col in columns.values():
        assert np.array_equal(col.equals(rows[1]), np.array([r == rows[1] for r in rows]))
        assert np.array_equal(col.isin(lits), np.array([r in lits for r in rows]))
        assert np.array_equal(col.startswith("gamma"), np.array([r.startswith("gamma") for r in rows]))
        for prefixes in [("gamma", "alpha", "al"), ("b", "日"), (), ("",)]:
            assert np.array_equal(col.startswith(prefixes), np.array([r.startswith(prefixes) for r in rows]))
        assert np.array_equal(col.endswith("#3"), np.array([r.endswith("#3") for r in rows]))
        assert np.array_equal(col.contains("日本"), np.array(["日本" in r for r in rows]))
        assert np.array_equal(col.contains("é".encode()), np.array(["é" in r for r in rows]))
        with pytest.raises(ValueError, match="wildcard"):
            col.like("a_b")


def test_tile(columns, rows):
    col = columns["fsst12"]
    tiled = col.tile(4 * col.decoded_bytes)
    assert tiled.decoded_bytes >= 4 * col.decoded_bytes
    assert len(tiled) % len(rows) == 0
    assert tiled.decode_cpu(rows=range(len(rows), 2 * len(rows))).to_pylist() == rows


def test_parse_csv():
    t = fastpair.parse_csv(b'name,note\nann,"a ""quoted"" word"\nbob,\r\n', header=True)
    assert t.column_names == ["name", "note"]
    assert t.column("note").to_pylist() == ['a "quoted" word', ""]
    tbl = fastpair.parse_csv(b"1|x|\n2|y|\n", delimiter="|", trailing_delimiter=True)
    assert tbl.column_names == ["f0", "f1"]
    assert tbl.column("f1").to_pylist() == ["x", "y"]
    with pytest.raises(fastpair.FormatError, match="byte 4"):
        fastpair.parse_csv(b'a,b\n"x')
    with pytest.raises(ValueError, match="one ASCII character"):
        fastpair.parse_csv(b"a", delimiter="||")


# ---- bad input ------------------------------------------------------------------------------------


def test_bad_inputs():
    with pytest.raises(ValueError, match="unknown codec"):
        fastpair.compress(["a"], codec="lz4")
    with pytest.raises(ValueError, match="nulls"):
        fastpair.compress(pa.array(["a", None]))
    with pytest.raises(TypeError, match="all be str or all be bytes"):
        fastpair.compress(["a", b"b"])
    with pytest.raises(TypeError, match="not a string column"):
        fastpair.compress(np.arange(3))
    with pytest.raises(TypeError):
        fastpair.compress("abc")
    with pytest.raises(TypeError, match="string or binary"):
        fastpair.compress(pa.array([1, 2]))
    with pytest.raises(ValueError, match="sample_fraction"):
        fastpair.compress(["a"], sample_fraction=0)
    with pytest.raises(ValueError, match="offsets must be 32"):
        fastpair.compress(["a"]).decode_cpu(offsets=16)


def test_corrupt_images_raise_format_error(columns):
    good = columns["onpair12"].to_bytes()
    with pytest.raises(fastpair.FormatError):
        fastpair.from_bytes(b"")
    with pytest.raises(fastpair.FormatError):
        fastpair.from_bytes(b"NOTAFILE" + bytes(200))
    with pytest.raises(fastpair.FormatError, match="size"):
        fastpair.from_bytes(good[:-8])
    rng = np.random.default_rng(1)
    for _ in range(200):  # any flipped byte is caught (header fields or a section checksum)
        bad = bytearray(good)
        i = int(rng.integers(0, len(bad)))
        bad[i] ^= 1 << int(rng.integers(0, 8))
        try:
            back = fastpair.from_bytes(bytes(bad))
        except fastpair.FormatError:
            continue
        # padding bytes are not covered by the checksums: then the column must still be intact
        assert back.decode_cpu().equals(columns["onpair12"].decode_cpu())


def test_read_errors(tmp_path):
    with pytest.raises(RuntimeError, match="missing.fpc"):
        fastpair.read(tmp_path / "missing.fpc")
    p = tmp_path / "junk.fpc"
    p.write_bytes(b"junk")
    with pytest.raises(fastpair.FormatError):
        fastpair.read(p)


def test_no_gpu_is_a_clear_error(columns):
    if fastpair.device_count() > 0:
        pytest.skip("a GPU is present")
    with pytest.raises(fastpair.CudaError, match="no usable CUDA GPU"):
        columns["onpair16"].to_device()
    with pytest.raises(fastpair.CudaError, match="no usable CUDA GPU"):
        fastpair.open_device(columns["onpair16"].to_bytes())
