# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
"""Prints the Markdown table of bench_decode.py's results beside `fastpair bench --json` on the
same .fpc image: GB/s (best and median run) through Python and through the C++ tool, and the ratio.

Usage: python compare_cli.py bench_python.json   (bench_decode.py's output, run with --cli)
"""

from __future__ import annotations

import json
import pathlib
import sys


def main() -> None:
    py = json.loads(pathlib.Path(sys.argv[1]).read_text())
    print(f"Device: {py['device']}; {py['runs']} runs each; GB/s = decoded bytes / time (best run; median run).\n")
    print("| column | codec | decoded GB | device MB | C++ `fastpair bench` GB/s | Python `decode_into` GB/s | ratio (best; median) | "
          "Python `decode()` GB/s | copy GB/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for c in py["cells"]:
        r = c.get("cli")
        into, alloc, copy = c["decode_into"], c["decode_alloc"], c["copy"]
        if r is None:
            ref, ratio = "n/a", "n/a"
        else:
            ref = f"{r['decode_GBps_min']:.0f}; {r['decode_GBps_median']:.0f}"
            ratio = f"{into['gbps_max'] / r['decode_GBps_min']:.3f}; {into['gbps_median'] / r['decode_GBps_median']:.3f}"
        print(f"| {c['column']} | {c['codec']} | {c['decoded_bytes'] / 1e9:.2f} | {c['device_bytes'] / 1e6:.0f} | {ref} | "
              f"{into['gbps_max']:.0f}; {into['gbps_median']:.0f} | {ratio} | {alloc['gbps_max']:.0f}; {alloc['gbps_median']:.0f} | "
              f"{copy['gbps_max']:.0f}; {copy['gbps_median']:.0f} |")


if __name__ == "__main__":
    main()
