# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""fastpair: dictionary-compressed string columns (OnPair-16, OnPair-12, FSST-12), decoded on
NVIDIA GPUs into Arrow layout. See docs/PYTHON.md.

>>> import fastpair
>>> col = fastpair.compress(["apple", "banana", "apple pie"], codec="onpair16")
>>> col.decode_cpu().to_pylist()
['apple', 'banana', 'apple pie']
"""

from ._api import (
    CompressedColumn,
    CudaError,
    DecodeError,
    DeviceBuffer,
    DeviceColumn,
    DeviceMask,
    DeviceStrings,
    FormatError,
    compress,
    device_count,
    from_bytes,
    gpu_unavailable_reason,
    open_device,
    parse_csv,
    read,
)
from ._core import __version__

__all__ = [
    "CompressedColumn",
    "CudaError",
    "DecodeError",
    "DeviceBuffer",
    "DeviceColumn",
    "DeviceMask",
    "DeviceStrings",
    "FormatError",
    "__version__",
    "compress",
    "device_count",
    "from_bytes",
    "gpu_unavailable_reason",
    "open_device",
    "parse_csv",
    "read",
]
