// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The filter half of decode-then-filter, the baseline the predicates on codes are measured
// against (predicates_bench.cu, tpch_bench.cu): LIKE patterns ('%' as the only wildcard) matched
// on decoded chars + int64 offsets, a thread per row, leftmost-first search of each part (exact
// for '%'-only patterns). A matcher is an OR of patterns, optionally negated; equality is a
// pattern without '%', IN an OR of them.
#pragma once

#include <fastpair/detail/cuda.cuh>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fastpair::bench {

/** One pattern: parts[first, first + count) with the anchors of a LIKE pattern. */
struct like_program {
  std::uint32_t first = 0, count = 0;
  bool anchored_begin = true, anchored_end = true;
};

__device__ inline bool bytes_equal(char const* a, char const* b, std::uint64_t n)
{
  for (std::uint64_t k = 0; k < n; ++k)
    if (a[k] != b[k]) return false;
  return true;
}

__device__ inline bool like_match(char const* s, std::uint64_t n, like_program p, char const* part_chars,
                                  std::uint64_t const* part_offsets)
{
  auto part = [&](std::uint32_t i) { return part_chars + part_offsets[p.first + i]; };
  auto size = [&](std::uint32_t i) { return part_offsets[p.first + i + 1] - part_offsets[p.first + i]; };
  if (p.count == 0) return !(p.anchored_begin && p.anchored_end) || n == 0;
  if (p.count == 1 && p.anchored_begin && p.anchored_end) return n == size(0) && bytes_equal(s, part(0), n);
  std::uint64_t pos = 0, end = n;
  std::uint32_t i = 0, last = p.count;
  if (p.anchored_begin) {
    if (n < size(0) || !bytes_equal(s, part(0), size(0))) return false;
    pos = size(0), i = 1;
  }
  if (p.anchored_end && i < last) {
    std::uint64_t const m = size(last - 1);
    if (end - pos < m || !bytes_equal(s + end - m, part(last - 1), m)) return false;
    end -= m, --last;
  }
  for (; i < last; ++i) {  // leftmost occurrence of each middle part, in order
    std::uint64_t const m = size(i);
    bool found            = false;
    for (; !found && pos + m <= end; ++pos) found = bytes_equal(s + pos, part(i), m);
    if (!found) return false;
    pos += m - 1;
  }
  return true;
}

/** Row r's bit = negate XOR (any program matches row r); every word of the mask is written. */
__global__ void like_match_kernel(std::int64_t const* offsets, char const* chars, std::uint64_t num_rows,
                                  like_program const* programs, std::uint32_t num_programs, char const* part_chars,
                                  std::uint64_t const* part_offsets, bool negate, std::uint32_t* mask32,
                                  std::uint64_t num_halves)
{
  std::uint64_t const r = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  bool hit              = false;
  if (r < num_rows) {
    char const* s         = chars + offsets[r];
    std::uint64_t const n = static_cast<std::uint64_t>(offsets[r + 1] - offsets[r]);
    for (std::uint32_t i = 0; i < num_programs && !hit; ++i) hit = like_match(s, n, programs[i], part_chars, part_offsets);
    hit = hit != negate;
  }
  unsigned const bits = __ballot_sync(0xFFFFFFFFu, hit);
  if (threadIdx.x % 32 == 0 && r / 32 < num_halves) mask32[r / 32] = bits;
}

/** An OR of LIKE patterns (optionally negated), uploaded once; evaluate() allocates nothing. */
class decoded_matcher {
 public:
  /** Adds one literal with anchors: equality (true, true), prefix (true, false), suffix
   *  (false, true), substring (false, false). The literal may hold '%'. */
  void add_literal(std::string_view literal, bool anchored_begin, bool anchored_end)
  {
    like_program p{static_cast<std::uint32_t>(offsets_.size() - 1), 0, anchored_begin, anchored_end};
    if (!literal.empty()) push_part(literal), p.count = 1;
    programs_.push_back(p);
  }

  /** Adds a LIKE pattern, split at '%' ('%' is the only wildcard). */
  void add_like(std::string_view pattern)
  {
    like_program p{static_cast<std::uint32_t>(offsets_.size() - 1), 0, true, true};
    p.anchored_begin = pattern.empty() || pattern.front() != '%';
    p.anchored_end   = pattern.empty() || pattern.back() != '%';
    for (std::size_t b = 0, e; b <= pattern.size(); b = e + 1) {
      e = std::min(pattern.find('%', b), pattern.size());
      if (e > b) push_part(pattern.substr(b, e - b)), ++p.count;
    }
    programs_.push_back(p);
  }
  void set_negate(bool v) { negate_ = v; }

  void upload(cuda::stream_ref stream = {})
  {
    d_programs_ = detail_upload(programs_, stream);
    d_offsets_  = detail_upload(offsets_, stream);
    d_chars_    = detail_upload(std::vector<char>(chars_.begin(), chars_.end()), stream);
  }

  /** The mask of `num_rows` decoded rows into `words` (ceil(num_rows / 64) words, all written). */
  void evaluate(std::int64_t const* offsets, char const* chars, std::uint64_t num_rows, std::uint64_t* words,
                cuda::stream_ref stream = {}) const
  {
    std::uint64_t const halves = 2 * ((num_rows + 63) / 64);
    if (halves == 0) return;
    unsigned const blocks = static_cast<unsigned>((halves * 32 + 255) / 256);
    like_match_kernel<<<blocks, 256, 0, stream.get()>>>(offsets, chars, num_rows, d_programs_.data(),
                                                         static_cast<std::uint32_t>(programs_.size()), d_chars_.data(),
                                                         d_offsets_.data(), negate_,
                                                         reinterpret_cast<std::uint32_t*>(words), halves);
    FASTPAIR_CUDA_TRY(cudaGetLastError());
  }

 private:
  void push_part(std::string_view s)
  {
    chars_.append(s);
    offsets_.push_back(chars_.size());
  }
  template <class T>
  static device_buffer<T> detail_upload(std::vector<T> const& h, cuda::stream_ref stream)
  {
    device_buffer<T> d(std::max<std::size_t>(h.size(), 1), stream);
    if (!h.empty())
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream.get()));
    FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));  // the host vectors may change after
    return d;
  }

  std::vector<like_program> programs_;
  std::vector<std::uint64_t> offsets_{0};
  std::string chars_;
  bool negate_ = false;
  device_buffer<like_program> d_programs_;
  device_buffer<std::uint64_t> d_offsets_;
  device_buffer<char> d_chars_;
};

}  // namespace fastpair::bench
