// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file prepare_options.hpp
 * @brief What device_column::prepare (device_column.cuh) builds: plain host data, so that host code
 * (a binding, a configuration file) can hold it without the CUDA headers.
 */
#pragma once

#include <cstdint>

namespace fastpair {

/** @brief Options of device_column::prepare and prepare_fpc_host / prepare_fpc_device.
 *
 * The default prepared column is lean: the codes as stored (u16 for OnPair-16, packed 12-bit for
 * OnPair-12 and FSST-12, read in place by the kernels), the stored row code counts, a row index of 16 bytes per 1 024
 * rows, the sidecar and the dictionary planes. Every decode-time accelerator below is opt-in; each
 * one's device bytes and decode gain per column are in docs/BENCHMARKS.md (table 3, "Each
 * accelerator alone"), what each costs per row or code in docs/DECODER.md.
 */
struct prepare_options {
  int low_plane_bytes = 0;  ///< W: 8 or 16; 0 = automatic for the current GPU (detail::tuned_low_plane_bytes)
  /// Check the column's content: section checksums, codes < dictionary size, row code counts
  /// summing to num_codes, the decoded size and a stored sidecar against the token lengths (on
  /// the GPU for stored images; a compressed_column is checked on the host with validate()).
  /// The structural checks (header, dictionary, section sizes, count prefixes) run either way.
  bool validate       = true;
  bool regenerate_sidecar = false;  ///< ignore a stored sidecar and compute it on the GPU
  /// Accelerator: the per-code length stream (half a byte per code) that
  /// gather_strategy::texture_low_streamed reads. Without it decode_column refuses those configs
  /// (logic_error naming the config).
  bool length_stream = false;
  /// Accelerator for dictionaries of at most 4 096 entries (OnPair-12, FSST-12): the fused code
  /// stream (2 bytes per code: code and token length in one 16-bit word) that
  /// gather_strategy::texture_low_fused reads; the automatic config then uses it.
  bool fused_codes = false;
  /// Accelerator for OnPair-12 columns of mostly short tokens on sm_90+ (detail::tuned_split_stream),
  /// from a compressed_column only (built on the host): every token longer than 8 bytes becomes
  /// two codes (build_split_stream in planes.hpp), so the short-token emit can decode the column.
  /// Costs 2 bytes per split code, 8 bytes per row (host) and 68 KiB of planes.
  bool split_stream = false;
  /// Accelerator: 8-byte row code offsets and row byte offsets (16 bytes per row), built on the
  /// GPU. Selective decode, predicates and cascades read them (they throw logic_error without);
  /// decode_column then copies offsets instead of deriving them from the codes.
  bool row_offsets = false;
  /// Accelerator: every row's decoded length in 1 byte (all rows of at most 255 bytes) or 2 (of
  /// at most 65 535), built on the GPU, from which decode_column writes the output offsets
  /// reading 1-2 bytes per row instead of reading the codes a second time. Built where it costs
  /// at most this share of the column's stored bytes (the default, 0.08, keeps it to columns of
  /// long rows, where it is cheap); 0 = never, a large value (e.g. 1e9) = wherever rows fit 2 bytes.
  double row_lengths_max_share = 0.08;
  /// Bytes of codes per step of the preparation's pipeline, rounded up to 4 KiB: step j is
  /// checked (and, in decode_fpc_host / decode_fpc_device, decoded) on the GPU while the next
  /// steps are copied. 0 = automatic: from host memory 1/16 of the codes, at least 4 MiB; from
  /// device memory one step (a device-to-device copy takes a fraction of the decode).
  std::uint64_t chunk_bytes = 0;
  /// prepare_fpc_device and decode_fpc_device: the column reads the codes where the image stores
  /// them instead of keeping a copy, so that a column kept in device memory costs its image plus
  /// what the preparation builds (device_bytes() leaves the codes out), and a one-off decode does
  /// not copy them. The image must stay allocated and unchanged while the column is used, and be
  /// a version-2 image whose codes section is 16-byte aligned in memory (it is at a multiple of 16
  /// in the image: any image at the start of a cudaMalloc'd buffer); logic_error otherwise, and
  /// from the builders of host memory and in-memory columns.
  bool borrow_codes = false;
};

}  // namespace fastpair
