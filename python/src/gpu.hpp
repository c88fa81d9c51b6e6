// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The GPU half of the Python extension, as plain C++: the binding (bindings.cpp, compiled by the
// host compiler with nanobind) sees only these declarations; gpu.cu (nvcc) includes the CUDA
// headers of the library and implements them. Every call takes the device and the stream it runs
// on (device < 0: the current one; stream: a cudaStream_t as an integer, 0 = the default stream).
#pragma once

#include <fastpair/fastpair.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fastpair::python {

struct where {
  int device           = -1;
  std::uintptr_t stream = 0;
};

/** Device memory kept alive by `owner` (an allocation of the library, freed stream-ordered). */
struct device_span {
  void* data          = nullptr;
  std::uint64_t bytes = 0;
  int device          = 0;
  std::shared_ptr<void> owner;
};

/** Decoded device strings in Arrow layout: num_rows + 1 offsets of `offset_bits`, then chars. */
struct device_strings {
  int offset_bits        = 64;
  std::uint64_t num_rows = 0;
  device_span offsets;  // (num_rows + 1) * offset_bits / 8 bytes
  device_span chars;
};

/** A row bitmask in device memory: bit r % 64 of word r / 64 is row r. */
struct device_mask {
  std::uint64_t num_rows = 0;
  device_span words;
};

class gpu_column_impl;  // holds a fastpair::device_column (gpu.cu)
/** A prepared device column, shared by its Python owners. */
struct gpu_column {
  std::shared_ptr<gpu_column_impl> impl;
};

/** CUDA devices usable by this process; 0 with the reason in `why` when there is none. */
int device_count(std::string* why);
/** "NVIDIA H200 (sm_90, 132 SMs)". */
std::string device_name(int device);

gpu_column prepare(compressed_column const& col, where w, prepare_options const& o);
gpu_column prepare_fpc(std::uint8_t const* bytes, std::size_t size, where w, prepare_options const& o);

std::uint64_t num_rows(gpu_column const& c);
std::uint64_t decoded_bytes(gpu_column const& c);
std::uint64_t device_bytes(gpu_column const& c);
int device_of(gpu_column const& c);
bool has_row_offsets(gpu_column const& c);
/** Builds the 8-byte row offsets that selective decode and predicates read (once). */
void build_row_offsets(gpu_column& c, where w);
/** Decoded bytes of rows [r0, r1) (may synchronize w.stream). */
std::uint64_t range_bytes(gpu_column const& c, std::uint64_t r0, std::uint64_t r1, where w);

/** decompress: allocates the output, decodes [r0, r1), checks the error word (synchronizes). */
device_strings decode(gpu_column const& c, std::uint64_t r0, std::uint64_t r1, int offset_bits, where w);
/** decode_column into caller buffers: no allocation, no synchronisation (check_errors after). */
void decode_into(gpu_column const& c, std::uint64_t r0, std::uint64_t r1, int offset_bits, void* offsets,
                 std::uint64_t offsets_rows, void* chars, std::uint64_t chars_capacity, where w);
/** read_and_clear_errors; throws decode_error naming the bits when one is set. */
void check_errors(gpu_column const& c, where w);

/** decompress_selected over `count` strictly increasing device row ids / a device bitmask. */
device_strings decode_rows(gpu_column const& c, std::uint64_t const* device_ids, std::uint64_t count, int offset_bits,
                           where w);
device_strings decode_mask(gpu_column const& c, device_mask const& m, int offset_bits, where w);

/** Predicates on the codes; `host` supplies kind and dictionary (its codes are not read). */
device_mask select_in(gpu_column const& c, compressed_column const& host, std::vector<std::string> const& literals,
                      where w);
/** kind: 0 prefix ('p%'), 1 substring ('%p%'), 2 suffix ('%p'). */
device_mask select_like(gpu_column const& c, compressed_column const& host, int kind, std::string const& pattern,
                        where w);
/** SQL LIKE with '%' wildcards, any number of parts (device_like_predicate::prepare_pattern). */
device_mask select_like_pattern(gpu_column const& c, compressed_column const& host, std::string const& pattern, where w);
/** Rows starting with any of `prefixes` (device_like_predicate::prepare_prefixes). */
device_mask select_prefix_in(gpu_column const& c, compressed_column const& host, std::vector<std::string> const& prefixes,
                             where w);
device_mask mask_and(device_mask const& a, device_mask const& b, where w);
device_mask mask_or(device_mask const& a, device_mask const& b, where w);
device_mask mask_not(device_mask const& a, where w);
std::uint64_t mask_count(device_mask const& m, where w);
/** The selected row ids (uint64, increasing); synchronizes. */
device_span mask_to_row_ids(device_mask const& m, std::uint64_t* count, where w);

device_span allocate(std::uint64_t bytes, where w);
void copy_to_device(void* dst, void const* src, std::uint64_t bytes, where w);  // synchronous
void copy_to_host(void* dst, void const* src, std::uint64_t bytes, where w);    // synchronous
void synchronize(where w);

/** parse_dsv on bytes in host memory (uploaded first): header names, records, one column per field. */
std::vector<device_strings> parse_dsv(char const* bytes, std::size_t size, dsv_dialect const& d, where w,
                                      std::vector<std::string>* header, std::uint64_t* records);

}  // namespace fastpair::python
