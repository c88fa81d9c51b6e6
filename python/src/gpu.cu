// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The GPU half of the Python extension (declared in gpu.hpp): each function selects the caller's
// device for its duration, runs the library's call on the caller's stream, and hands device
// memory back as (pointer, bytes) spans kept alive by a shared owner. Outputs come from the
// library's default resource (cudaMallocAsync from the device's pool) and are freed
// stream-ordered on the stream they were made on.
#include "gpu.hpp"

#include <fastpair/dsv.cuh>
#include <fastpair/fastpair.cuh>
#include <fastpair/predicates.cuh>
#include <fastpair/select.cuh>


#include <cuda_runtime_api.h>

namespace fastpair::python {

class gpu_column_impl {
 public:
  explicit gpu_column_impl(device_column c) : col(std::move(c)) {}
  device_column col;
};

namespace {

/** Makes `w.device` current for the scope (restoring the previous device); no-op for -1. */
class device_scope {
 public:
  explicit device_scope(int device)
  {
    FASTPAIR_CUDA_TRY(cudaGetDevice(&previous_));
    if (device >= 0 && device != previous_) {
      FASTPAIR_CUDA_TRY(cudaSetDevice(device));
      restore_ = true;
    }
  }
  ~device_scope()
  {
    if (restore_) (void)cudaSetDevice(previous_);
  }
  device_scope(device_scope const&)            = delete;
  device_scope& operator=(device_scope const&) = delete;

 private:
  int previous_ = 0;
  bool restore_ = false;
};

cuda::stream_ref stream_of(where w) { return cuda::stream_ref{reinterpret_cast<cudaStream_t>(w.stream)}; }

int current_device()
{
  int d = 0;
  FASTPAIR_CUDA_TRY(cudaGetDevice(&d));
  return d;
}

template <class T>
device_span span_of(device_buffer<T>&& b)
{
  auto owner = std::make_shared<device_buffer<T>>(std::move(b));
  return {owner->data(), owner->size() * sizeof(T), current_device(), owner};
}

template <class OffsetT>
device_strings strings_of(string_column<OffsetT>&& s)
{
  device_strings out;
  out.offset_bits = int(sizeof(OffsetT) * 8);
  out.num_rows    = s.num_rows;
  out.offsets     = span_of(std::move(s.offsets));
  out.chars       = span_of(std::move(s.chars));
  return out;
}

void expect_bits(int offset_bits)
{
  FASTPAIR_EXPECTS(offset_bits == 32 || offset_bits == 64, "offsets must be 32 or 64 (bits)");
}

void expect_on_device(gpu_column const& c, where w)
{
  int const d = w.device >= 0 ? w.device : current_device();
  FASTPAIR_EXPECTS(device_of(c) == d, "the column lives on device " + std::to_string(device_of(c)) +
                                        ", the call runs on device " + std::to_string(d));
}

device_bitmask view_of(device_mask const& m)
{
  return {static_cast<std::uint64_t const*>(m.words.data), m.num_rows};
}

/** op 0: a AND b, 1: a OR b, 2: NOT a (selection.cuh), into a new mask on a's device. */
device_mask combine(device_mask const& a, device_mask const* b, int op, where w)
{
  if (b) FASTPAIR_EXPECTS(a.num_rows == b->num_rows, "masks of different lengths");
  if (b) FASTPAIR_EXPECTS(a.words.device == b->words.device, "masks on different devices");
  device_scope const scope(a.words.device);
  device_buffer<std::uint64_t> out((a.num_rows + 63) / 64, stream_of(w));
  if (op == 0) fastpair::mask_and(view_of(a), view_of(*b), out.data(), stream_of(w));
  if (op == 1) fastpair::mask_or(view_of(a), view_of(*b), out.data(), stream_of(w));
  if (op == 2) fastpair::mask_not(view_of(a), out.data(), stream_of(w));
  return {a.num_rows, span_of(std::move(out))};
}

}  // namespace

int device_count(std::string* why) { return detail::usable_device_count(why); }

std::string device_name(int device)
{
  cudaDeviceProp p{};
  FASTPAIR_CUDA_TRY(cudaGetDeviceProperties(&p, device));
  return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " +
         std::to_string(p.multiProcessorCount) + " SMs)";
}

gpu_column prepare(compressed_column const& col, where w, prepare_options const& o)
{
  device_scope const scope(w.device);
  return {std::make_shared<gpu_column_impl>(device_column::prepare(col, stream_of(w), o))};
}

gpu_column prepare_fpc(std::uint8_t const* bytes, std::size_t size, where w, prepare_options const& o)
{
  device_scope const scope(w.device);
  return {std::make_shared<gpu_column_impl>(device_column::prepare_fpc_host(bytes, size, stream_of(w), o))};
}

std::uint64_t num_rows(gpu_column const& c) { return c.impl->col.num_rows(); }
std::uint64_t decoded_bytes(gpu_column const& c) { return c.impl->col.decoded_bytes(); }
std::uint64_t device_bytes(gpu_column const& c) { return c.impl->col.device_bytes(); }
int device_of(gpu_column const& c) { return c.impl->col.device(); }
bool has_row_offsets(gpu_column const& c) { return c.impl->col.has_row_offsets(); }

void build_row_offsets(gpu_column& c, where w)
{
  expect_on_device(c, w);
  device_scope const scope(device_of(c));
  if (!c.impl->col.has_row_offsets()) c.impl->col.build_row_offsets(stream_of(w));
}

std::uint64_t range_bytes(gpu_column const& c, std::uint64_t r0, std::uint64_t r1, where w)
{
  expect_on_device(c, w);
  device_scope const scope(device_of(c));
  return c.impl->col.decoded_bytes(r0, r1, stream_of(w));
}

device_strings decode(gpu_column const& c, std::uint64_t r0, std::uint64_t r1, int offset_bits, where w)
{
  expect_bits(offset_bits);
  expect_on_device(c, w);
  device_scope const scope(device_of(c));
  if (offset_bits == 32) return strings_of(decompress<std::int32_t>(c.impl->col, r0, r1, stream_of(w)));
  return strings_of(decompress<std::int64_t>(c.impl->col, r0, r1, stream_of(w)));
}

void decode_into(gpu_column const& c, std::uint64_t r0, std::uint64_t r1, int offset_bits, void* offsets,
                 std::uint64_t offsets_rows, void* chars, std::uint64_t chars_capacity, where w)
{
  expect_bits(offset_bits);
  expect_on_device(c, w);
  device_scope const scope(device_of(c));
  if (offset_bits == 32)
    decode_column(c.impl->col, r0, r1,
                  string_column_view<std::int32_t>{static_cast<std::int32_t*>(offsets), static_cast<char*>(chars),
                                                   offsets_rows, chars_capacity},
                  stream_of(w));
  else
    decode_column(c.impl->col, r0, r1,
                  string_column_view<std::int64_t>{static_cast<std::int64_t*>(offsets), static_cast<char*>(chars),
                                                   offsets_rows, chars_capacity},
                  stream_of(w));
}

void check_errors(gpu_column const& c, where w)
{
  device_scope const scope(device_of(c));
  if (std::uint32_t const e = c.impl->col.read_and_clear_errors(stream_of(w)); e != 0)
    throw decode_error(std::string("fastpair: corrupt device data while decoding:") +
                       ((e & code_out_of_range) ? " a code >= the dictionary size;" : "") +
                       ((e & sidecar_mismatch) ? " the sidecar disagrees with the token lengths;" : "") +
                       ((e & kernel_not_built) ? " a kernel ran on an architecture it was not built for;" : ""));
}

device_strings decode_rows(gpu_column const& c, std::uint64_t const* device_ids, std::uint64_t count, int offset_bits,
                           where w)
{
  expect_bits(offset_bits);
  expect_on_device(c, w);
  device_scope const scope(device_of(c));
  device_row_ids const ids{device_ids, count};
  if (offset_bits == 32) return strings_of(decompress_selected<std::int32_t>(c.impl->col, ids, stream_of(w)));
  return strings_of(decompress_selected<std::int64_t>(c.impl->col, ids, stream_of(w)));
}

device_strings decode_mask(gpu_column const& c, device_mask const& m, int offset_bits, where w)
{
  expect_bits(offset_bits);
  expect_on_device(c, w);
  device_scope const scope(device_of(c));
  if (offset_bits == 32) return strings_of(decompress_selected<std::int32_t>(c.impl->col, view_of(m), stream_of(w)));
  return strings_of(decompress_selected<std::int64_t>(c.impl->col, view_of(m), stream_of(w)));
}

device_mask select_in(gpu_column const& c, compressed_column const& host, std::vector<std::string> const& literals,
                      where w)
{
  expect_on_device(c, w);
  device_scope const scope(device_of(c));
  std::uint64_t const rows = c.impl->col.num_rows();
  device_buffer<std::uint64_t> words((rows + 63) / 64, stream_of(w));
  std::vector<std::string_view> views(literals.begin(), literals.end());
  device_literal_set::prepare(host, views, stream_of(w)).evaluate(c.impl->col, words.data(), stream_of(w));
  return {rows, span_of(std::move(words))};
}

device_mask select_like(gpu_column const& c, compressed_column const& host, int kind, std::string const& pattern,
                        where w)
{
  FASTPAIR_EXPECTS(kind >= 0 && kind <= 2, "like kind must be 0 (prefix), 1 (substring) or 2 (suffix)");
  expect_on_device(c, w);
  device_scope const scope(device_of(c));
  std::uint64_t const rows = c.impl->col.num_rows();
  device_buffer<std::uint64_t> words((rows + 63) / 64, stream_of(w));
  fastpair::select_like(c.impl->col, host, static_cast<like_kind>(kind), pattern, words.data(), stream_of(w));
  return {rows, span_of(std::move(words))};
}

device_mask select_like_pattern(gpu_column const& c, compressed_column const& host, std::string const& pattern, where w)
{
  expect_on_device(c, w);
  device_scope const scope(device_of(c));
  std::uint64_t const rows = c.impl->col.num_rows();
  device_buffer<std::uint64_t> words((rows + 63) / 64, stream_of(w));
  fastpair::select_like_pattern(c.impl->col, host, pattern, words.data(), stream_of(w));
  return {rows, span_of(std::move(words))};
}

device_mask select_prefix_in(gpu_column const& c, compressed_column const& host, std::vector<std::string> const& prefixes,
                             where w)
{
  expect_on_device(c, w);
  device_scope const scope(device_of(c));
  std::uint64_t const rows = c.impl->col.num_rows();
  device_buffer<std::uint64_t> words((rows + 63) / 64, stream_of(w));
  std::vector<std::string_view> views(prefixes.begin(), prefixes.end());
  fastpair::select_prefix_in(c.impl->col, host, views, words.data(), stream_of(w));
  return {rows, span_of(std::move(words))};
}

device_mask mask_and(device_mask const& a, device_mask const& b, where w) { return combine(a, &b, 0, w); }
device_mask mask_or(device_mask const& a, device_mask const& b, where w) { return combine(a, &b, 1, w); }
device_mask mask_not(device_mask const& a, where w) { return combine(a, nullptr, 2, w); }

std::uint64_t mask_count(device_mask const& m, where w)
{
  device_scope const scope(m.words.device);
  return fastpair::mask_count(view_of(m), stream_of(w));
}

device_span mask_to_row_ids(device_mask const& m, std::uint64_t* count, where w)
{
  device_scope const scope(m.words.device);
  device_row_ids_buffer ids = to_row_ids(view_of(m), stream_of(w));
  *count                    = ids.count;
  device_span out           = span_of(std::move(ids.rows));  // room for every row; `count` are set
  out.bytes                 = ids.count * sizeof(std::uint64_t);
  return out;
}

device_span allocate(std::uint64_t bytes, where w)
{
  device_scope const scope(w.device);
  return span_of(device_buffer<std::uint8_t>(bytes, stream_of(w)));
}

void copy_to_device(void* dst, void const* src, std::uint64_t bytes, where w)
{
  if (bytes == 0) return;
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream_of(w).get()));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream_of(w).get()));
}

void copy_to_host(void* dst, void const* src, std::uint64_t bytes, where w)
{
  if (bytes == 0) return;
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream_of(w).get()));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream_of(w).get()));
}

void synchronize(where w) { FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream_of(w).get())); }

std::vector<device_strings> parse_dsv(char const* bytes, std::size_t size, dsv_dialect const& d, where w,
                                      std::vector<std::string>* header, std::uint64_t* records)
{
  device_scope const scope(w.device);
  device_buffer<char> input(size, stream_of(w));
  copy_to_device(input.data(), bytes, size, w);
  device_dsv_table t = fastpair::parse_dsv(input.data(), size, d, stream_of(w));
  synchronize(w);  // the last kernel may still run on return; the input is freed below
  *header  = std::move(t.header);
  *records = t.num_records;
  std::vector<device_strings> out;
  out.reserve(t.columns.size());
  for (auto& c : t.columns) out.push_back(strings_of(std::move(c)));
  return out;
}

}  // namespace fastpair::python
