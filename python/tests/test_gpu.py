# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""The GPU path (marked ``gpu``; skipped without a GPU): decode against the CPU reference byte for
byte, zero-copy views through CuPy (``__cuda_array_interface__`` and DLPack), the Arrow C Device
capsule read by nanoarrow, predicates against their host reference, selective decode, the GPU DSV
parser, streams, and corrupt input."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

import fastpair
from conftest import CODECS, real_column

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def cp():
    return pytest.importorskip("cupy")


def _host_bytes(arr: pa.Array) -> tuple[np.ndarray, bytes]:
    bufs = arr.buffers()
    dtype = np.int64 if pa.types.is_large_string(arr.type) or pa.types.is_large_binary(arr.type) else np.int32
    off = np.frombuffer(bufs[1], dtype=dtype)[: len(arr) + 1]
    return off, bytes(bufs[2] or b"")[: int(off[-1])]


def _check_equal_to_cpu(cp, ds: fastpair.DeviceStrings, ref: pa.Array) -> None:
    off, chars = _host_bytes(ref)
    got_off = cp.asarray(ds.offsets)  # zero-copy (__cuda_array_interface__)
    assert got_off.data.ptr == ds.offsets.ptr
    assert np.array_equal(cp.asnumpy(got_off), off.astype(got_off.dtype))
    got_chars = cp.from_dlpack(ds.chars)  # zero-copy (DLPack)
    assert got_chars.data.ptr == ds.chars.ptr
    assert cp.asnumpy(got_chars).tobytes() == chars


def _columns():
    cols = []
    for name in ["tpch_l_comment", "en_wiki", "log_windows", "zh_text"]:
        lines = real_column(name, 4 << 20)
        if lines is not None:
            cols.append((name, lines))
    from conftest import synthetic_rows

    cols.append(("synthetic", [r.encode() for r in synthetic_rows(20000, seed=3)]))
    return cols


@pytest.mark.parametrize("name,lines", _columns(), ids=lambda x: x if isinstance(x, str) else "")
@pytest.mark.parametrize("codec", CODECS)
def test_decode_equals_cpu(cp, name, lines, codec):
    col = fastpair.compress(lines, codec=codec)
    ref = col.decode_cpu(binary=True)
    for dcol in (col.to_device(), fastpair.open_device(col.to_bytes())):
        assert dcol.num_rows == len(lines) and dcol.decoded_bytes == col.decoded_bytes
        assert dcol.device_bytes > 0
        for bits in (64, 32):
            ds = dcol.decode(offsets=bits, binary=True)
            assert ds.offset_bits == bits and len(ds) == len(lines)
            _check_equal_to_cpu(cp, ds, col.decode_cpu(offsets=bits, binary=True))
            assert ds.to_arrow().equals(col.decode_cpu(offsets=bits, binary=True))
        r = range(len(lines) // 3, len(lines) // 2)
        assert dcol.decode(r, binary=True).to_arrow().equals(ref.slice(r.start, len(r)))


def test_decode_into_caller_buffers(cp, columns, rows):
    dcol = columns["onpair16"].to_device()
    n, nbytes = dcol.output_size()
    assert (n, nbytes) == (len(rows), columns["onpair16"].decoded_bytes)
    off = cp.empty(n + 1, dtype=cp.int64)
    chars = cp.empty(nbytes, dtype=cp.uint8)
    stream = cp.cuda.Stream(non_blocking=True)
    dcol.decode_into(off, chars, stream=stream)
    dcol.check_errors(stream)
    ref = columns["onpair16"].decode_cpu()
    o, c = _host_bytes(ref)
    assert np.array_equal(cp.asnumpy(off), o) and cp.asnumpy(chars).tobytes() == c
    with pytest.raises(ValueError, match="entries"):
        dcol.decode_into(cp.empty(n, dtype=cp.int64), chars)
    with pytest.raises(TypeError, match="int32 or int64"):
        dcol.decode_into(cp.empty(n + 1, dtype=cp.float64), chars)
    with pytest.raises(ValueError, match="capacity"):
        dcol.decode_into(off, cp.empty(nbytes - 1, dtype=cp.uint8))


def test_arrow_device_capsule_read_by_nanoarrow(columns, rows):
    nad = pytest.importorskip("nanoarrow.device")
    for bits, fmt in ((64, "U"), (32, "u")):
        ds = columns["onpair12"].to_device().decode(offsets=bits)
        ptrs = (0, ds.offsets.ptr, ds.chars.ptr)
        arr = nad.c_device_array(ds)
        # Plain values first: nanoarrow's repr of a CUDA array would read device memory on the host.
        got = (int(arr.device_type_id), int(arr.device_id), str(arr.schema.format), int(arr.array.length),
               int(arr.array.null_count), int(arr.array.offset), tuple(int(p) for p in arr.array.buffers))
        want = (2, ds.device, fmt, len(rows), 0, 0, ptrs)  # 2 = ARROW_DEVICE_CUDA
        assert got == want, f"{got} != {want}"
        del ds  # the imported array keeps the buffers alive
        assert int(arr.array.length) == len(rows)


def test_streams_and_devices(cp, columns, rows):
    col = columns["fsst12"]
    s = cp.cuda.Stream(non_blocking=True)
    for stream in (s, s.ptr, None, 0):
        dcol = col.to_device(stream=stream)
        assert dcol.decode(stream=stream).to_arrow(stream=stream).to_pylist() == rows

    class ProtocolStream:  # the CUDA stream protocol of cuda.core
        def __cuda_stream__(self):
            return (0, s.ptr)

    assert col.to_device(stream=ProtocolStream()).decode(stream=ProtocolStream()).to_arrow().to_pylist() == rows
    with pytest.raises(TypeError, match="stream"):
        col.to_device(stream="nope")
    n = fastpair.device_count()
    with pytest.raises(fastpair.CudaError):
        col.to_device(device=n)  # no such device
    if n > 1:
        dcol = col.to_device(device=1)
        assert dcol.device == 1
        with cp.cuda.Device(0):  # a column decodes on its own device, whichever is current
            ds = dcol.decode()
        assert ds.device == 1 and ds.to_arrow().to_pylist() == rows


@pytest.mark.parametrize("codec", CODECS)
def test_predicates_equal_host(columns, rows, codec):
    col = columns[codec]
    dcol = col.to_device()
    cases = [
        (dcol.equals(rows[1]), col.equals(rows[1])),
        (dcol.isin(["alpha", "", rows[0]]), col.isin(["alpha", "", rows[0]])),
        (dcol.startswith("gamma"), col.startswith("gamma")),
        (dcol.endswith("#3"), col.endswith("#3")),
        (dcol.contains("special"), col.contains("special")),
        (dcol.like("%日本%"), col.like("%日本%")),
        (dcol.like("beta%"), col.like("beta%")),
        (dcol.like("%requests"), col.like("%requests")),
        (dcol.like("alpha"), col.like("alpha")),
        (dcol.like("%special%requests%"), col.like("%special%requests%")),
        (dcol.like("%Customer%Complaints%"), col.like("%Customer%Complaints%")),
        (dcol.like("gamma%é%"), col.like("gamma%é%")),
        (dcol.like("%"), col.like("%")),
        (dcol.startswith(("gamma", "alpha", "al")), col.startswith(("gamma", "alpha", "al"))),
        (dcol.startswith(()), col.startswith(())),
    ]
    for dev, host in cases:
        assert np.array_equal(dev.to_numpy(), host)
        assert dev.count() == int(host.sum())
    a, b = cases[2], cases[4]
    assert np.array_equal((a[0] & b[0]).to_numpy(), a[1] & b[1])
    assert np.array_equal((a[0] | b[0]).to_numpy(), a[1] | b[1])
    assert np.array_equal((~a[0]).to_numpy(), ~a[1])
    assert (~a[0]).count() == len(rows) - int(a[1].sum())  # bits past num_rows stay clear
    with pytest.raises(ValueError, match="wildcard"):
        dcol.like("a_b")


def test_selective_decode(cp, columns, rows):
    col = columns["onpair16"]
    dcol = col.to_device()
    mask = dcol.contains("special")
    host = col.contains("special")
    want = [r for r, m in zip(rows, host) if m]
    assert dcol.decode(mask).to_arrow().to_pylist() == want
    ids = mask.to_row_ids()
    assert np.array_equal(ids.copy_to_host(), np.flatnonzero(host).astype(np.uint64))
    assert dcol.decode(ids).to_arrow().to_pylist() == want
    assert dcol.decode(cp.asarray(ids)).to_arrow().to_pylist() == want
    assert dcol.decode([0, 4999], offsets=32).to_arrow().to_pylist() == [rows[0], rows[4999]]
    assert dcol.decode(host).to_arrow().to_pylist() == want  # a host boolean mask
    with pytest.raises(ValueError, match="increasing"):
        dcol.decode([5, 2])
    with pytest.raises(TypeError, match="uint64 or int64"):
        dcol.decode(cp.zeros(3, dtype=cp.int32))
    with pytest.raises(ValueError):
        dcol.decode(cp.asarray(np.array([5, 2], dtype=np.uint64)))  # checked on the GPU


def test_parse_csv_gpu():
    text = b'name,note\nann,"a ""quoted"" word"\nbob,\n' * 1000
    cpu = fastpair.parse_csv(text, header=False)
    gpu = fastpair.parse_csv(text, gpu=True)
    assert list(gpu) == cpu.column_names
    for name, ds in gpu.items():
        assert ds.to_arrow().equals(cpu.column(name).combine_chunks())
    with pytest.raises(fastpair.FormatError, match="byte"):
        fastpair.parse_csv(b'a,"b\n', gpu=True)


def test_corrupt_device_image_is_a_format_error(columns):
    good = bytearray(columns["onpair16"].to_bytes())
    rng = np.random.default_rng(5)
    caught = 0
    for _ in range(60):
        bad = bytearray(good)
        i = int(rng.integers(96, len(bad)))  # past the header: sections checked on the GPU
        bad[i] ^= 0xFF
        try:
            dcol = fastpair.open_device(bytes(bad))
        except fastpair.FormatError:
            caught += 1
            continue
        assert dcol.decode().to_arrow().equals(columns["onpair16"].decode_cpu())  # padding byte
    assert caught > 0
