# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""The Python API of fastpair, thin over the C++ library (fastpair._core).

Host side: :func:`compress`, :func:`read`, :func:`from_bytes` give a :class:`CompressedColumn`
(encoders, the ``.fpc`` container, the CPU reference decoder, predicates on the codes).
GPU side: :meth:`CompressedColumn.to_device` or :func:`open_device` give a :class:`DeviceColumn`,
whose :meth:`~DeviceColumn.decode` returns :class:`DeviceStrings` (Arrow offsets + chars in device
memory, exported zero-copy through ``__cuda_array_interface__``, DLPack and the Arrow C Device
interface). docs/PYTHON.md is the user guide.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Sequence, Union

import numpy as np
import pyarrow as pa

from . import _core

FormatError = _core.FormatError
DecodeError = _core.DecodeError
CudaError = _core.CudaError

#: Arrow's device type of CUDA device memory (ARROW_DEVICE_CUDA, DLPack's kDLCUDA).
_CUDA_DEVICE_TYPE = 2

Rows = Union[None, range, slice, Sequence[int], np.ndarray, "DeviceMask", Any]

# --------------------------------------------------------------------------------------------------
# Streams and devices
# --------------------------------------------------------------------------------------------------


def _stream_handle(stream: Any) -> int:
    """A cudaStream_t as an integer from None (the default stream), an int, an object with
    ``__cuda_stream__`` (cuda.core, the CUDA stream protocol) or a CuPy / Numba stream (``.ptr`` /
    ``.handle``)."""
    if stream is None:
        return 0
    if isinstance(stream, bool):
        raise TypeError("stream: expected an int handle or a stream object, got a bool")
    if isinstance(stream, int):
        if stream < 0:
            raise ValueError(f"stream handle {stream} is negative")
        return stream
    proto = getattr(stream, "__cuda_stream__", None)
    if proto is not None:
        value = proto() if callable(proto) else proto
        if not (isinstance(value, tuple) and len(value) == 2):
            raise TypeError("__cuda_stream__ must give (version, handle)")
        return int(value[1])
    for attr in ("ptr", "handle"):
        value = getattr(stream, attr, None)
        if isinstance(value, int):
            return value
        if value is not None and hasattr(value, "value"):  # ctypes c_void_p (Numba)
            return int(value.value or 0)
    raise TypeError(f"stream: cannot get a CUDA stream handle from {type(stream).__name__}")


def _device_index(device: int | None) -> int:
    if device is None:
        return -1
    if not isinstance(device, int) or isinstance(device, bool) or device < 0:
        raise ValueError(f"device must be a non-negative int or None, got {device!r}")
    return device


def device_count() -> int:
    """Number of CUDA devices this process can use (0 without a GPU or driver)."""
    return _core.device_count()[0]


def gpu_unavailable_reason() -> str | None:
    """Why no GPU is usable (None when one is)."""
    n, why = _core.device_count()
    return None if n > 0 else why


def _require_gpu() -> None:
    n, why = _core.device_count()
    if n == 0:
        raise CudaError(f"fastpair: no usable CUDA GPU: {why}")


# --------------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------------

_ARROW_STRING_TYPES = {
    pa.string(): np.int32,
    pa.binary(): np.int32,
    pa.large_string(): np.int64,
    pa.large_binary(): np.int64,
}


def _rows_of_arrow(arr: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    if arr.type not in _ARROW_STRING_TYPES:
        if pa.types.is_string_view(arr.type) or pa.types.is_binary_view(arr.type):
            arr = arr.cast(pa.large_binary())
        else:
            raise TypeError(f"expected a string or binary Arrow array, got {arr.type}")
    if arr.null_count:
        raise ValueError(
            f"the array has {arr.null_count} nulls; a fastpair column stores no validity bitmap: "
            "fill them (pyarrow.compute.fill_null) and keep the validity aside"
        )
    bufs = arr.buffers()
    off = np.frombuffer(bufs[1], dtype=_ARROW_STRING_TYPES[arr.type])[arr.offset : arr.offset + len(arr) + 1]
    chars = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    return chars, off.astype(np.uint64)


def _rows_of_lines(data: Any) -> tuple[np.ndarray, np.ndarray]:
    a = np.frombuffer(memoryview(data).cast("B"), dtype=np.uint8)
    if a.size == 0:
        return a, np.zeros(1, np.uint64)
    nl = np.flatnonzero(a == 10)
    ends = nl if a[-1] == 10 else np.append(nl, a.size)
    starts = np.concatenate(([0], nl[: ends.size - 1] + 1))
    lengths = (ends - starts).astype(np.uint64)
    offsets = np.concatenate((np.zeros(1, np.uint64), np.cumsum(lengths, dtype=np.uint64)))
    return np.delete(a, nl), offsets


def _rows_of(values: Any) -> tuple[np.ndarray, np.ndarray]:
    """(chars uint8, offsets uint64) of the supported inputs (see compress)."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if isinstance(values, pa.Array):
        return _rows_of_arrow(values)
    if isinstance(values, (bytes, bytearray, memoryview)):
        return _rows_of_lines(values)
    if isinstance(values, str):
        raise TypeError("compress: a str is not a column; pass a list of str, or newline-separated bytes")
    if isinstance(values, np.ndarray) and values.dtype.kind not in "OUS":
        raise TypeError(f"compress: a numpy array of {values.dtype} is not a string column")
    values = list(values)
    if all(isinstance(v, str) for v in values):
        return _rows_of_arrow(pa.array(values, type=pa.large_string()))
    if all(isinstance(v, (bytes, bytearray, memoryview)) for v in values):
        return _rows_of_arrow(pa.array([bytes(v) for v in values], type=pa.large_binary()))
    bad = next((v for v in values if not isinstance(v, (str, bytes, bytearray, memoryview))), None)
    found = "a mix of str and bytes" if bad is None else type(bad).__name__
    raise TypeError(f"compress: rows must all be str or all be bytes, found {found}")


def _bytes_view(data: Any) -> np.ndarray:
    return np.frombuffer(memoryview(data).cast("B"), dtype=np.uint8)


def _mask_of_words(words: np.ndarray, num_rows: int) -> np.ndarray:
    bits = np.unpackbits(words.view(np.uint8), bitorder="little")[:num_rows]
    return bits.view(np.bool_)


def _words_of_mask(mask: np.ndarray) -> np.ndarray:
    packed = np.packbits(mask.astype(np.bool_), bitorder="little")
    words = np.zeros((mask.size + 63) // 64, dtype=np.uint64)
    words.view(np.uint8)[: packed.size] = packed
    return words


def _string_array(offsets: np.ndarray, chars: np.ndarray, offset_bits: int, binary: bool) -> pa.Array:
    n = offsets.size - 1
    if offset_bits == 32:
        if chars.size > np.iinfo(np.int32).max:
            raise ValueError(f"{chars.size} chars overflow int32 offsets: use offsets=64")
        offsets = offsets.astype(np.int32)
        typ = pa.binary() if binary else pa.string()
    else:
        offsets = offsets.view(np.int64) if offsets.dtype == np.uint64 else offsets
        typ = pa.large_binary() if binary else pa.large_string()
    return pa.Array.from_buffers(typ, n, [None, pa.py_buffer(offsets), pa.py_buffer(chars)])


def _check_offset_bits(offsets: int) -> int:
    if offsets not in (32, 64):
        raise ValueError(f"offsets must be 32 (Arrow utf8) or 64 (Arrow large_utf8), got {offsets!r}")
    return offsets


def _row_range(rows: range | slice, num_rows: int) -> tuple[int, int]:
    if isinstance(rows, range):
        start, stop, step = rows.start, rows.stop, rows.step
        if step != 1:
            raise ValueError("a row range must have step 1 (pass row ids for other selections)")
        if not 0 <= start <= stop <= num_rows:
            raise ValueError(f"row range [{start}, {stop}) is outside the column's {num_rows} rows")
        return start, stop
    start, stop, step = rows.indices(num_rows)
    if step != 1:
        raise ValueError("a row slice must have step 1 (pass row ids for other selections)")
    return start, max(start, stop)


def _host_row_ids(rows: Any, num_rows: int) -> np.ndarray:
    ids = np.asarray(rows)
    if ids.dtype == np.bool_:
        if ids.shape != (num_rows,):
            raise ValueError(f"a boolean mask needs {num_rows} entries, got shape {ids.shape}")
        return np.flatnonzero(ids).astype(np.uint64)
    if ids.ndim != 1 or ids.dtype.kind not in "iu":
        raise TypeError(f"row ids must be a 1-d array of integers, got {ids.dtype} of shape {ids.shape}")
    if ids.size:
        if ids.dtype.kind == "i" and ids.min() < 0:
            raise ValueError("row ids must not be negative")
        if np.any(np.diff(ids.astype(np.int64)) <= 0):
            raise ValueError("row ids must be strictly increasing")
        if int(ids[-1]) >= num_rows:
            raise ValueError(f"row id {int(ids[-1])} is past the column's {num_rows} rows")
    return ids.astype(np.uint64)


def _like_form(pattern: str | bytes) -> tuple[str, bytes]:
    """Classifies a SQL LIKE pattern with '%' as the only wildcard: ('equals' | 'prefix' | 'suffix' |
    'substring' | 'pattern', the literal)."""
    p = pattern.encode() if isinstance(pattern, str) else bytes(pattern)
    if b"_" in p or b"\\" in p:
        raise ValueError("like: only '%' is supported as a wildcard ('_' and escapes are not)")
    inner = p.strip(b"%")
    if b"%" in inner:
        return "pattern", p
    lead, trail = p.startswith(b"%"), p.endswith(b"%") and len(p) > 0
    if p == b"%" * len(p) and p:
        return "prefix", b""
    if lead and trail:
        return "substring", inner
    if lead:
        return "suffix", inner
    if trail:
        return "prefix", inner
    return "equals", p


def _literal(v: str | bytes) -> bytes:
    """A literal or pattern as the bytes the column holds (str: UTF-8)."""
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    raise TypeError(f"literals and patterns are str or bytes, got {type(v).__name__}")


# --------------------------------------------------------------------------------------------------
# The host column
# --------------------------------------------------------------------------------------------------


class CompressedColumn:
    """A compressed string column in host memory: a dictionary, packed codes, row offsets and the
    sidecar of decode positions. Immutable. Made by :func:`compress`, :func:`read` or
    :func:`from_bytes`; every one of them is valid (checked when read)."""

    __slots__ = ("_col", "_reason")

    def __init__(self, col: _core.Column, reason: str = "") -> None:
        self._col = col
        self._reason = reason

    # ---- what it is ----------------------------------------------------------------------------
    @property
    def codec(self) -> str:
        """'onpair16', 'onpair12' or 'fsst12'."""
        return self._col.codec

    @property
    def num_rows(self) -> int:
        return self._col.num_rows

    def __len__(self) -> int:
        return self._col.num_rows

    @property
    def num_codes(self) -> int:
        return self._col.num_codes

    @property
    def decoded_bytes(self) -> int:
        """Bytes of all rows decoded (the chars buffer; offsets not counted)."""
        return self._col.decoded_bytes

    @property
    def dictionary_size(self) -> int:
        """Tokens in the dictionary (256 .. 4 096 or 65 536)."""
        return self._col.dictionary_size

    @property
    def stored_bytes(self) -> int:
        """Bytes of the ``.fpc`` (version 2) image: what :meth:`to_bytes` returns."""
        return self._col.file_bytes()

    @property
    def ratio(self) -> float:
        """decoded_bytes / stored_bytes (the file, headers and row counts included)."""
        return self.decoded_bytes / self.stored_bytes if self.stored_bytes else 0.0

    @property
    def sizes(self) -> dict[str, int]:
        """Stored sizes by part: dictionary, codes, sidecar, row metadata (4 or 8 bytes per row
        offset), and the file."""
        d, c, s, r = self._col.stored_sizes()
        return {"dictionary": d, "codes": c, "sidecar": s, "row_metadata": r, "file": self.stored_bytes}

    @property
    def reason(self) -> str:
        """Why this codec (for ``codec='auto'``: the stored size of each candidate)."""
        return self._reason

    def __repr__(self) -> str:
        return (
            f"CompressedColumn(codec={self.codec!r}, rows={self.num_rows}, decoded_bytes={self.decoded_bytes}, "
            f"stored_bytes={self.stored_bytes}, ratio={self.ratio:.3f})"
        )

    # ---- storage -------------------------------------------------------------------------------
    def to_bytes(self, version: int = 2) -> bytes:
        """The ``.fpc`` image (docs/FORMAT.md; version 2, or 1 for old readers)."""
        return _core.serialize(self._col, version)

    def write(self, path: str | os.PathLike[str], version: int = 2) -> None:
        """Writes the ``.fpc`` image to ``path`` (replacing it)."""
        _core.write_fpc(os.fspath(path), self._col, version)

    def tile(self, min_bytes: int) -> "CompressedColumn":
        """The rows repeated until the column decodes to at least ``min_bytes`` (for benchmarks)."""
        return CompressedColumn(_core.tile(self._col, int(min_bytes)), self._reason)

    # ---- decoding on the CPU -------------------------------------------------------------------
    def decode_cpu(self, rows: Rows = None, offsets: int = 64, binary: bool = False) -> pa.Array:
        """Decodes on the CPU (the reference decoder) into a pyarrow array: ``large_string``
        (offsets=64) or ``string`` (32); ``binary=True`` gives ``large_binary`` / ``binary``.
        ``rows``: None (all), a ``range`` / ``slice`` of step 1, increasing row ids, or a boolean
        mask of num_rows entries."""
        bits = _check_offset_bits(offsets)
        if rows is None or isinstance(rows, (range, slice)):
            r0, r1 = (0, self.num_rows) if rows is None else _row_range(rows, self.num_rows)
            off, chars = _core.decode_cpu(self._col, r0, r1)
            return _string_array(off, chars, bits, binary)
        ids = _host_row_ids(rows, self.num_rows)
        whole = self.decode_cpu(None, 64, binary)
        taken = whole.take(pa.array(ids.astype(np.int64)))
        return taken.cast(pa.binary() if binary else pa.string()) if bits == 32 else taken

    # ---- predicates on the codes (host) --------------------------------------------------------
    def equals(self, literal: str | bytes) -> np.ndarray:
        """Rows equal to ``literal``, evaluated on the codes: a boolean numpy mask."""
        return self.isin([literal])

    def isin(self, literals: Iterable[str | bytes]) -> np.ndarray:
        """Rows equal to any of ``literals``, on the codes: a boolean numpy mask."""
        lits = [_literal(v) for v in literals]
        return _mask_of_words(_core.select_in_cpu(self._col, lits), self.num_rows)

    def like(self, pattern: str | bytes) -> np.ndarray:
        """SQL ``LIKE pattern`` with '%' wildcards (any number of parts), on the codes: a boolean
        numpy mask. '_' and escapes are refused (ValueError)."""
        _like_form(pattern)  # refuses '_' and escapes with the message of the Python API
        return _mask_of_words(_core.select_like_pattern_cpu(self._col, _literal(pattern)), self.num_rows)

    def startswith(self, prefix: str | bytes | tuple[str | bytes, ...]) -> np.ndarray:
        """``LIKE 'prefix%'`` on the codes: a boolean numpy mask. A tuple of prefixes (as
        ``str.startswith``) selects rows starting with any of them, in one pass (SQL's
        ``substring(col, 1, k) IN (...)``)."""
        if isinstance(prefix, tuple):
            prefixes = [_literal(p) for p in prefix]
            return _mask_of_words(_core.select_prefix_in_cpu(self._col, prefixes), self.num_rows)
        return _mask_of_words(_core.select_like_cpu(self._col, 0, _literal(prefix)), self.num_rows)

    def contains(self, substring: str | bytes) -> np.ndarray:
        """``LIKE '%substring%'`` on the codes: a boolean numpy mask."""
        return _mask_of_words(_core.select_like_cpu(self._col, 1, _literal(substring)), self.num_rows)

    def endswith(self, suffix: str | bytes) -> np.ndarray:
        """``LIKE '%suffix'`` on the codes: a boolean numpy mask."""
        return _mask_of_words(_core.select_like_cpu(self._col, 2, _literal(suffix)), self.num_rows)

    # ---- to the GPU ----------------------------------------------------------------------------
    def to_device(
        self,
        stream: Any = None,
        device: int | None = None,
        *,
        row_offsets: bool = False,
        length_stream: bool = False,
        fused_codes: bool = False,
        row_lengths_max_share: float = 0.08,
    ) -> "DeviceColumn":
        """Prepares the column in GPU memory (``device_column::prepare``). The options are the
        decode-time accelerators of ``prepare_options`` (docs/DECODER.md); ``row_offsets`` (16 bytes
        per row) is built on first use by selective decode and predicates when not asked for here.
        Synchronizes ``stream``."""
        _require_gpu()
        dev, s = _device_index(device), _stream_handle(stream)
        g = _core.prepare(self._col, dev, s, True, row_offsets, length_stream, fused_codes, float(row_lengths_max_share))
        return DeviceColumn(g, self._col, self.codec)


def compress(
    values: Any,
    codec: str = "auto",
    *,
    sample_fraction: float = 0.15,
    seed: int = 42,
    sidecar_stride: int = 768,
) -> CompressedColumn:
    """Trains a dictionary and encodes a column.

    ``values``: a pyarrow string / large_string / binary / large_binary array (or chunked array;
    no nulls), a list of ``str`` or of ``bytes``, or newline-separated ``bytes`` (one row per line,
    a trailing newline adds no row). ``codec``: 'onpair16', 'onpair12', 'fsst12' or 'auto' (the
    smallest stored size of the three, row metadata included). The GIL is released while it runs.
    """
    if codec not in ("auto", "onpair16", "onpair12", "fsst12"):
        raise ValueError(f"unknown codec {codec!r} (expected auto, onpair16, onpair12 or fsst12)")
    chars, offsets = _rows_of(values)
    col, reason = _core.compress(chars, offsets, codec, float(sample_fraction), int(seed), int(sidecar_stride))
    return CompressedColumn(col, reason)


def from_bytes(data: Any) -> CompressedColumn:
    """Reads a ``.fpc`` image (bytes-like), fully validated (FormatError naming the field)."""
    return CompressedColumn(_core.deserialize(_bytes_view(data)))


def read(path: str | os.PathLike[str]) -> CompressedColumn:
    """Reads a ``.fpc`` file, fully validated (FormatError naming the field; OSError-like
    RuntimeError naming the path when it cannot be read)."""
    return CompressedColumn(_core.read_fpc(os.fspath(path)))


def open_device(
    source: Any,
    stream: Any = None,
    device: int | None = None,
    *,
    validate: bool = True,
    row_offsets: bool = False,
    row_lengths_max_share: float = 0.08,
) -> "DeviceColumn":
    """Prepares a ``.fpc`` image (a path, or bytes-like in host memory) on the GPU without
    decoding it on the host: the stored sections are uploaded as they are and checked on the GPU
    (``device_column::prepare_fpc_host``). The dictionary is also read on the host, for the
    predicates. Synchronizes ``stream``."""
    _require_gpu()
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            source = f.read()
    view = _bytes_view(source)
    dev, s = _device_index(device), _stream_handle(stream)
    g = _core.prepare_fpc(view, dev, s, validate, row_offsets, False, False, float(row_lengths_max_share))
    host = _core.fpc_dictionary_column(view)
    return DeviceColumn(g, host, host.codec)


# --------------------------------------------------------------------------------------------------
# Device memory
# --------------------------------------------------------------------------------------------------


class DeviceBuffer:
    """A 1-d array in device memory owned by fastpair (freed when the last reference goes, on the
    stream it was made on). Zero-copy into CuPy (``cupy.asarray``: ``__cuda_array_interface__``
    v3) and any DLPack consumer (``cupy.from_dlpack``, ``torch.from_dlpack``)."""

    __slots__ = ("_span", "_dtype")

    def __init__(self, span: _core.DeviceSpan, dtype: np.dtype) -> None:
        self._span = span  # holds the memory (a C++ shared owner): no reference back to its parent
        self._dtype = np.dtype(dtype)

    @property
    def ptr(self) -> int:
        return self._span.ptr

    @property
    def nbytes(self) -> int:
        return self._span.nbytes

    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    @property
    def size(self) -> int:
        return self._span.nbytes // self._dtype.itemsize

    def __len__(self) -> int:
        return self.size

    @property
    def device(self) -> int:
        return self._span.device

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        # The data is complete when a fastpair call returns (each synchronizes), hence no stream.
        return {
            "shape": (self.size,),
            "typestr": self._dtype.str,
            "data": (self.ptr, False),
            "strides": None,
            "version": 3,
        }

    def __dlpack__(
        self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None, copy: bool | None = None
    ) -> Any:
        """A DLPack capsule ("dltensor") of the buffer. No stream synchronisation is needed: the
        data is complete when the fastpair call that made it returns."""
        if copy:
            raise BufferError("DeviceBuffer.__dlpack__: copy=True is not supported")
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError(f"DeviceBuffer is on {self.__dlpack_device__()}, not {tuple(dl_device)}")
        kind = "i" if self._dtype.kind == "i" else "u"
        return self._span.dlpack(self._dtype.itemsize * 8, kind)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (_CUDA_DEVICE_TYPE, self.device)

    def copy_to_host(self, stream: Any = None) -> np.ndarray:
        """A numpy copy (synchronizes ``stream``)."""
        raw = _core.download(self.ptr, self.nbytes, self.device, _stream_handle(stream))
        return raw.view(self._dtype)

    def __repr__(self) -> str:
        return f"DeviceBuffer(dtype={self._dtype}, size={self.size}, device={self.device})"


class DeviceStrings:
    """Decoded strings in device memory, in Arrow layout: ``offsets`` (num_rows + 1, int32 or
    int64) and ``chars``. Exports ``__arrow_c_device_array__`` (the Arrow C Device interface:
    pylibcudf, nanoarrow) and zero-copy buffers for CuPy / DLPack; :meth:`to_arrow` copies to a
    host pyarrow array."""

    __slots__ = ("_d", "offsets", "chars", "_binary")

    def __init__(self, d: _core.DeviceStrings, binary: bool = False) -> None:
        self._d = d
        self._binary = binary
        self.offsets = DeviceBuffer(d.offsets, np.int32 if d.offset_bits == 32 else np.int64)
        self.chars = DeviceBuffer(d.chars, np.uint8)

    @property
    def num_rows(self) -> int:
        return self._d.num_rows

    def __len__(self) -> int:
        return self._d.num_rows

    @property
    def offset_bits(self) -> int:
        return self._d.offset_bits

    @property
    def device(self) -> int:
        return self.offsets.device

    @property
    def nbytes(self) -> int:
        return self.offsets.nbytes + self.chars.nbytes

    def __arrow_c_device_array__(self, requested_schema: Any = None, **kwargs: Any) -> tuple[Any, Any]:
        """(ArrowSchema, ArrowDeviceArray) capsules: utf8 / large_utf8 in CUDA memory, no nulls,
        no sync event (the data is complete)."""
        if requested_schema is not None:
            raise NotImplementedError("DeviceStrings exports its own schema only (utf8 or large_utf8)")
        return self._d.arrow_device_capsules()

    def to_arrow(self, stream: Any = None) -> pa.Array:
        """Copies to a host pyarrow ``large_string`` / ``string`` array (synchronizes ``stream``)."""
        off, chars = self._d.to_host(self.device, _stream_handle(stream))
        dtype = np.int32 if self.offset_bits == 32 else np.int64
        return _string_array(off.view(dtype), chars, self.offset_bits, self._binary)

    def __repr__(self) -> str:
        return f"DeviceStrings(rows={self.num_rows}, chars={self.chars.nbytes}, offsets=int{self.offset_bits}, device={self.device})"


class DeviceMask:
    """A row bitmask in device memory (bit r % 64 of word r // 64 is row r): the result of a
    predicate, combined with ``&``, ``|``, ``~``, passed to :meth:`DeviceColumn.decode`."""

    __slots__ = ("_m", "_stream")

    def __init__(self, m: _core.DeviceMask, stream: int = 0) -> None:
        self._m = m
        self._stream = stream

    @property
    def num_rows(self) -> int:
        return self._m.num_rows

    def __len__(self) -> int:
        return self._m.num_rows

    @property
    def words(self) -> DeviceBuffer:
        """The uint64 words (ceil(num_rows / 64)), zero-copy."""
        return DeviceBuffer(self._m.words, np.uint64)

    @property
    def device(self) -> int:
        return self._m.words.device

    def _other(self, other: Any) -> _core.DeviceMask:
        if not isinstance(other, DeviceMask):
            return NotImplemented
        if other.num_rows != self.num_rows:
            raise ValueError(f"masks of {self.num_rows} and {other.num_rows} rows")
        return other._m

    def __and__(self, other: "DeviceMask") -> "DeviceMask":
        o = self._other(other)
        if o is NotImplemented:
            return NotImplemented
        return DeviceMask(_core.mask_and(self._m, o, self.device, self._stream), self._stream)

    def __or__(self, other: "DeviceMask") -> "DeviceMask":
        o = self._other(other)
        if o is NotImplemented:
            return NotImplemented
        return DeviceMask(_core.mask_or(self._m, o, self.device, self._stream), self._stream)

    def __invert__(self) -> "DeviceMask":
        return DeviceMask(_core.mask_not(self._m, self.device, self._stream), self._stream)

    def count(self, stream: Any = None) -> int:
        """Selected rows (a reduction on the GPU; synchronizes)."""
        s = self._stream if stream is None else _stream_handle(stream)
        return _core.mask_count(self._m, self.device, s)

    def to_row_ids(self, stream: Any = None) -> DeviceBuffer:
        """The selected row ids, increasing, as a uint64 device buffer (synchronizes)."""
        s = self._stream if stream is None else _stream_handle(stream)
        span, _count = _core.mask_to_row_ids(self._m, self.device, s)
        return DeviceBuffer(span, np.uint64)

    def to_numpy(self, stream: Any = None) -> np.ndarray:
        """A boolean numpy mask of num_rows entries (copied to the host)."""
        words = self.words.copy_to_host(stream)
        return _mask_of_words(words, self.num_rows)

    def __repr__(self) -> str:
        return f"DeviceMask(rows={self.num_rows}, device={self.device})"


# --------------------------------------------------------------------------------------------------
# The device column
# --------------------------------------------------------------------------------------------------


class DeviceColumn:
    """A compressed column in GPU memory, ready to decode (``fastpair::device_column``). It lives
    on one device; calls on another device raise ValueError."""

    __slots__ = ("_g", "_host", "_codec")

    def __init__(self, g: _core.GpuColumn, host: _core.Column, codec: str) -> None:
        self._g = g
        self._host = host  # kind and dictionary, for the predicates
        self._codec = codec

    @property
    def codec(self) -> str:
        return self._codec

    @property
    def num_rows(self) -> int:
        return self._g.num_rows

    def __len__(self) -> int:
        return self._g.num_rows

    @property
    def decoded_bytes(self) -> int:
        return self._g.decoded_bytes

    @property
    def device_bytes(self) -> int:
        """Device memory the column holds (its allocations, accelerators included)."""
        return self._g.device_bytes

    @property
    def device(self) -> int:
        return self._g.device

    def __repr__(self) -> str:
        return (
            f"DeviceColumn(codec={self.codec!r}, rows={self.num_rows}, decoded_bytes={self.decoded_bytes}, "
            f"device_bytes={self.device_bytes}, device={self.device})"
        )

    def _ensure_row_offsets(self, s: int) -> None:
        if not self._g.has_row_offsets:
            _core.build_row_offsets(self._g, self.device, s)

    def decode(self, rows: Rows = None, offsets: int = 64, stream: Any = None, *, binary: bool = False) -> DeviceStrings:
        """Decodes into new device buffers and checks the device error word (DecodeError on
        corrupt data; synchronizes ``stream``).

        ``rows``: None (every row); a ``range`` / ``slice`` of step 1; a :class:`DeviceMask`;
        increasing row ids as a device array (``__cuda_array_interface__``, uint64 or int64) or as
        a host sequence / numpy array; a boolean numpy mask. A selection builds the column's row
        offsets on first use (16 bytes per row, kept). ``offsets``: 64 (Arrow large_utf8) or 32."""
        bits = _check_offset_bits(offsets)
        s = _stream_handle(stream)
        dev = self.device
        if rows is None or isinstance(rows, (range, slice)):
            r0, r1 = (0, self.num_rows) if rows is None else _row_range(rows, self.num_rows)
            return DeviceStrings(_core.decode(self._g, r0, r1, bits, dev, s), binary)
        if isinstance(rows, DeviceMask):
            if rows.num_rows != self.num_rows:
                raise ValueError(f"the mask has {rows.num_rows} rows, the column {self.num_rows}")
            self._ensure_row_offsets(s)
            return DeviceStrings(_core.decode_mask(self._g, rows._m, bits, dev, s), binary)
        cai = getattr(rows, "__cuda_array_interface__", None)
        if cai is not None:
            typestr, shape = cai["typestr"], cai["shape"]
            if typestr not in ("<u8", "<i8") or len(shape) != 1:
                raise TypeError(f"device row ids must be a 1-d uint64 or int64 array, got {typestr} of shape {shape}")
            if cai.get("strides") not in (None, (8,)):
                raise ValueError("device row ids must be contiguous")
            self._ensure_row_offsets(s)
            return DeviceStrings(_core.decode_rows(self._g, cai["data"][0], shape[0], bits, dev, s), binary)
        ids = _host_row_ids(rows, self.num_rows)
        self._ensure_row_offsets(s)
        span = _core.upload(ids.view(np.uint8), dev, s)
        return DeviceStrings(_core.decode_rows(self._g, span.ptr, ids.size, bits, dev, s), binary)

    def output_size(self, rows: range | slice | None = None, stream: Any = None) -> tuple[int, int]:
        """(rows, chars bytes) that decoding ``rows`` writes: the sizes :meth:`decode_into` needs."""
        r0, r1 = (0, self.num_rows) if rows is None else _row_range(rows, self.num_rows)
        return r1 - r0, _core.range_bytes(self._g, r0, r1, self.device, _stream_handle(stream))

    def decode_into(self, offsets: Any, chars: Any, rows: range | slice | None = None, stream: Any = None) -> None:
        """Decodes into caller buffers (objects with ``__cuda_array_interface__``: ``offsets``
        int32 or int64 of rows + 1 entries, ``chars`` uint8 of at least the decoded size): no
        allocation and no synchronisation, as ``decode_column`` in C++. Call :meth:`check_errors`
        after the work on ``stream`` to learn of corrupt device data."""
        r0, r1 = (0, self.num_rows) if rows is None else _row_range(rows, self.num_rows)
        o, c = offsets.__cuda_array_interface__, chars.__cuda_array_interface__
        bits = {"<i4": 32, "<i8": 64}.get(o["typestr"])
        if bits is None or len(o["shape"]) != 1 or o.get("strides") not in (None, (bits // 8,)):
            raise TypeError(f"offsets must be a contiguous 1-d int32 or int64 array, got {o['typestr']} {o['shape']}")
        if c["typestr"] not in ("|u1", "|i1", "|b1") or len(c["shape"]) != 1 or c.get("strides") not in (None, (1,)):
            raise TypeError(f"chars must be a contiguous 1-d uint8 array, got {c['typestr']} {c['shape']}")
        if o["data"][1] or c["data"][1]:
            raise ValueError("decode_into: the buffers are read-only")
        if o["shape"][0] != r1 - r0 + 1:
            raise ValueError(f"offsets has {o['shape'][0]} entries, decoding {r1 - r0} rows needs {r1 - r0 + 1}")
        _core.decode_into(self._g, r0, r1, bits, o["data"][0], r1 - r0, c["data"][0], c["shape"][0], self.device,
                          _stream_handle(stream))

    def check_errors(self, stream: Any = None) -> None:
        """Reads and clears the device error word (synchronizes ``stream``); DecodeError if set."""
        _core.check_errors(self._g, self.device, _stream_handle(stream))

    # ---- predicates on the codes (GPU) ---------------------------------------------------------
    def equals(self, literal: str | bytes, stream: Any = None) -> DeviceMask:
        """Rows equal to ``literal``, evaluated on the codes on the GPU."""
        return self.isin([literal], stream)

    def isin(self, literals: Iterable[str | bytes], stream: Any = None) -> DeviceMask:
        """Rows equal to any of ``literals``, on the codes on the GPU."""
        s = _stream_handle(stream)
        self._ensure_row_offsets(s)
        lits = [_literal(v) for v in literals]
        return DeviceMask(_core.select_in(self._g, self._host, lits, self.device, s), s)

    def _like(self, kind: int, pattern: str, s: int) -> DeviceMask:
        self._ensure_row_offsets(s)
        return DeviceMask(_core.select_like(self._g, self._host, kind, _literal(pattern), self.device, s), s)

    def startswith(self, prefix: str | bytes | tuple[str | bytes, ...], stream: Any = None) -> DeviceMask:
        """``LIKE 'prefix%'`` on the codes on the GPU. A tuple of prefixes (as ``str.startswith``)
        selects rows starting with any of them, in one pass over the codes
        (``device_like_predicate::prepare_prefixes``)."""
        s = _stream_handle(stream)
        if isinstance(prefix, tuple):
            self._ensure_row_offsets(s)
            prefixes = [_literal(p) for p in prefix]
            return DeviceMask(_core.select_prefix_in(self._g, self._host, prefixes, self.device, s), s)
        return self._like(0, prefix, s)

    def contains(self, substring: str | bytes, stream: Any = None) -> DeviceMask:
        """``LIKE '%substring%'`` on the codes on the GPU."""
        return self._like(1, substring, _stream_handle(stream))

    def endswith(self, suffix: str | bytes, stream: Any = None) -> DeviceMask:
        """``LIKE '%suffix'`` on the codes on the GPU."""
        return self._like(2, suffix, _stream_handle(stream))

    def like(self, pattern: str | bytes, stream: Any = None) -> DeviceMask:
        """SQL ``LIKE pattern`` with '%' wildcards on the GPU: 'p' (equality), 'p%', '%p', '%p%' use
        the dedicated predicates, patterns of several parts ('%special%requests%', 'a%b') one
        automaton over the codes (``device_like_predicate::prepare_pattern``). '_' and escapes are
        refused (ValueError)."""
        form, text = _like_form(pattern)
        s = _stream_handle(stream)
        if form == "equals":
            return self.equals(text, s)
        if form == "pattern":
            self._ensure_row_offsets(s)
            return DeviceMask(_core.select_like_pattern(self._g, self._host, text, self.device, s), s)
        kind = {"prefix": 0, "substring": 1, "suffix": 2}[form]
        return self._like(kind, text, s)


# --------------------------------------------------------------------------------------------------
# Delimited text
# --------------------------------------------------------------------------------------------------


def _dialect(delimiter: str, quote: str, header: bool, trailing_delimiter: bool, expected_fields: int,
             crlf: bool, quoted_newlines: bool, doubled_quote_escape: bool) -> _core.Dialect:
    for name, ch in (("delimiter", delimiter), ("quote", quote)):
        if not isinstance(ch, str) or len(ch) != 1 or ord(ch) > 127:
            raise ValueError(f"{name} must be one ASCII character, got {ch!r}")
    d = _core.Dialect()
    d.delimiter, d.quote = delimiter, quote
    d.header, d.trailing_delimiter, d.expected_fields = header, trailing_delimiter, int(expected_fields)
    d.crlf, d.quoted_newlines, d.doubled_quote_escape = crlf, quoted_newlines, doubled_quote_escape
    return d


def parse_csv(
    data: Any,
    *,
    delimiter: str = ",",
    quote: str = '"',
    header: bool = False,
    trailing_delimiter: bool = False,
    expected_fields: int = -1,
    crlf: bool = True,
    quoted_newlines: bool = True,
    doubled_quote_escape: bool = True,
    gpu: bool = False,
    stream: Any = None,
    device: int | None = None,
) -> Any:
    """Parses delimiter-separated text (RFC 4180 CSV by default; TPC-H ``.tbl`` is
    ``delimiter='|', trailing_delimiter=True``) into one string column per field.

    ``gpu=False``: the CPU parser, returning a ``pyarrow.Table`` of large_string columns.
    ``gpu=True``: the GPU parser (``fastpair::parse_dsv``, the bytes uploaded first), returning a
    ``dict`` of field name to :class:`DeviceStrings`. Names come from the header, else f0, f1, ...
    Malformed input raises FormatError naming the byte offset and the record."""
    d = _dialect(delimiter, quote, header, trailing_delimiter, expected_fields, crlf, quoted_newlines,
                 doubled_quote_escape)
    view = _bytes_view(data)
    if gpu:
        _require_gpu()
        names, _records, cols = _core.parse_dsv(view, d, _device_index(device), _stream_handle(stream))
        names = names or [f"f{i}" for i in range(len(cols))]
        return {n: DeviceStrings(c) for n, c in zip(names, cols)}
    names, _records, cols = _core.parse_dsv_cpu(view, d)
    names = names or [f"f{i}" for i in range(len(cols))]
    arrays = [_string_array(off, chars, 64, False) for off, chars in cols]
    return pa.table(dict(zip(names, arrays)))
