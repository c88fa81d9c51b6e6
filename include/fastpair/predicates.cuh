// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file predicates.cuh
 * @brief Predicates evaluated on the GPU directly on a `device_column`'s codes (issue 8, item 2):
 * equality, IN-lists and LIKE 'p%' / '%p%' / '%p'. They write a selection bitmask (selection.cuh
 * layout) and give exactly the bitmask of their host reference in predicates.hpp.
 *
 * @code{.pseudo}
 * auto col  = fastpair::compress(rows, codec::onpair16);        // host column (its dictionary)
 * auto dcol = fastpair::device_column::prepare(col, stream);
 * fastpair::device_buffer<std::uint64_t> words((dcol.num_rows() + 63) / 64, stream);
 * fastpair::select_equal(dcol, col, "DELIVER IN PERSON", words.data(), stream);   // one-shot
 * auto in = fastpair::device_literal_set::prepare(col, {"a", "b", "c"}, stream);  // reusable
 * in.evaluate(dcol, words.data(), stream);
 * auto like = fastpair::device_like_predicate::prepare(col, like_kind::substring, "http", stream);
 * like.evaluate(dcol, words.data(), stream);
 * @endcode
 *
 * The host compiles each predicate once against the column's dictionary (the `compressed_column`
 * the device column was prepared from, or any column with the same codec and dictionary):
 * literals are encoded by `encode_literals`, patterns become `like_matcher` token tables. The
 * prepared objects upload these once and can be evaluated on any device column with that
 * dictionary, any number of times. Everything is stream-ordered: `prepare` allocates (from its
 * `mr` argument, default_device_resource() by default; the prepared object keeps the memory and
 * frees it through that resource) and copies (pageable host memory, copied before it returns),
 * `evaluate` only launches one kernel (no allocation, no synchronisation). The one-shot select_*
 * functions prepare a temporary predicate from their `mr` and free it stream-ordered.
 * Preconditions as in predicates.hpp: equality / IN need the canonical parse `encode()` produces.
 * Design and table sizes: detail/kernels/predicate_kernel.cuh and docs/PREDICATES.md.
 */
#pragma once

#include <fastpair/detail/cuda.cuh>
#include <fastpair/detail/kernels/predicate_kernel.cuh>
#include <fastpair/device_column.cuh>
#include <fastpair/predicates.hpp>
#include <fastpair/selection.cuh>

#include <cuda/stream_ref>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace fastpair {

namespace detail {

/** @brief The device pointers the predicate kernels read from `col`. */
inline predicate_rows rows_of(device_column const& col)
{
  predicate_rows r;
  r.codes            = {col.low_plane_bytes() == 8 ? col.view<8>().codes : col.view<16>().codes, static_cast<std::uint32_t>(code_bits(col.kind()))};
  r.row_byte_offsets = col.device_row_byte_offsets();
  r.row_code_offsets = col.device_row_code_offsets();
  r.num_rows         = col.num_rows();
  return r;
}

inline std::uint32_t num_tokens_of(device_column const& col)
{
  return col.low_plane_bytes() == 8 ? col.view<8>().num_tokens : col.view<16>().num_tokens;
}

/** @brief Checks that a predicate compiled for (kind, num_tokens) may read `col`. */
inline void expect_same_dictionary(device_column const& col, codec kind, std::uint64_t num_tokens)
{
  FASTPAIR_EXPECTS(col.kind() == kind && num_tokens_of(col) == num_tokens,
                   "predicate: compiled for a " + std::string(codec_name(kind)) + " dictionary of " +
                     std::to_string(num_tokens) + " tokens, evaluated on a " + codec_name(col.kind()) +
                     " column with " + std::to_string(num_tokens_of(col)) + " tokens");
}

/** @brief Blocks for one warp per 64-row word (grid-stride beyond 2^20 blocks). */
inline unsigned predicate_blocks(std::uint64_t num_rows)
{
  std::uint64_t const words = (num_rows + 63) / 64;
  std::uint64_t const warps = predicate_threads / 32;
  return static_cast<unsigned>(std::min<std::uint64_t>((words + warps - 1) / warps, std::uint64_t{1} << 20));
}

}  // namespace detail

/**
 * @brief `col = literal` / `col IN (literals...)` compiled for one dictionary and uploaded: the
 * literals' codes (encode_literals), sorted by decoded byte length. Reusable across calls and
 * across device columns with the same codec and dictionary.
 */
class device_literal_set {
 public:
  device_literal_set() = default;

  /**
   * @brief Encodes `literals` with `host`'s dictionary and uploads them on `stream`. Duplicates
   * are fine; an empty list selects nothing. Allocates from `mr` on `stream` (no synchronisation
   * beyond the pageable uploads' staging).
   * @throw format_error if the dictionary is not valid for its codec; cuda_error.
   */
  static device_literal_set prepare(compressed_column const& host, std::vector<std::string_view> const& literals,
                                    cuda::stream_ref stream = {},
                                    device_async_resource_ref mr = default_device_resource())
  {
    device_literal_set s;
    s.kind_       = host.kind;
    s.num_tokens_ = host.dict.size();
    s.count_      = static_cast<std::uint32_t>(literals.size());
    FASTPAIR_EXPECTS(literals.size() < 0xFFFFFFFFu, "select_in: too many literals");
    std::vector<encoded_literal> const lits = literals.empty() ? std::vector<encoded_literal>{}
                                                                : encode_literals(host, literals);
    std::vector<std::size_t> order(lits.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return lits[a].bytes < lits[b].bytes; });
    std::vector<std::uint16_t> codes;
    std::vector<std::uint64_t> offsets{0}, bytes;
    for (std::size_t i : order) {
      codes.insert(codes.end(), lits[i].codes.begin(), lits[i].codes.end());
      offsets.push_back(codes.size());
      bytes.push_back(lits[i].bytes);
    }
    s.codes_   = detail::upload(codes, stream, mr);
    s.offsets_ = detail::upload(offsets, stream, mr);
    s.bytes_   = detail::upload(bytes, stream, mr);
    return s;
  }

  /**
   * @brief Writes the bitmask of the rows of `col` equal to one of the literals into `words`
   * (ceil(num_rows / 64) device words, all written; no clear needed). Asynchronous: no
   * allocation, no synchronisation.
   * @throw logic_error if `col` has another codec or dictionary size; cuda_error.
   */
  device_bitmask evaluate(device_column const& col, std::uint64_t* words, cuda::stream_ref stream = {}) const
  {
    detail::expect_same_dictionary(col, kind_, num_tokens_);
    std::uint64_t const rows = col.num_rows();
    if (rows == 0) return {words, 0};
    FASTPAIR_EXPECTS(words != nullptr, "predicate: null bitmask");
    detail::literal_set_view v;
    v.codes        = codes_.data();
    v.code_offsets = offsets_.data();
    v.bytes        = bytes_.data();
    v.count        = count_;
    detail::equal_kernel<<<detail::predicate_blocks(rows), detail::predicate_threads, 0, stream.get()>>>(
      v, detail::rows_of(col), words);
    FASTPAIR_CUDA_TRY(cudaGetLastError());
    return {words, rows};
  }

  std::uint32_t size() const noexcept { return count_; }

 private:
  codec kind_                = codec::onpair16;
  std::uint64_t num_tokens_  = 0;
  std::uint32_t count_       = 0;
  device_buffer<std::uint16_t> codes_;
  device_buffer<std::uint64_t> offsets_, bytes_;
};

/**
 * @brief A LIKE pattern compiled for one dictionary (like_matcher's token table) and uploaded:
 * num_tokens x S entries, u8 when S <= 256, else u16. Reusable across calls and columns with the
 * same codec and dictionary.
 */
class device_like_predicate {
 public:
  device_like_predicate() = default;

  /**
   * @brief Builds the token table of `kind` / `pattern` on the host and uploads it on `stream`.
   * When the table would exceed `opt.max_table_bytes` (u16 size, as on the host) or S > 65 535,
   * no table is built and evaluate() accepts only columns where the pattern is longer than every
   * row (then nothing matches); otherwise it throws. The table is allocated from `mr` on `stream`.
   * @throw format_error for an invalid dictionary; cuda_error.
   */
  static device_like_predicate prepare(compressed_column const& host, like_kind kind, std::string_view pattern,
                                       cuda::stream_ref stream = {}, like_options const& opt = {},
                                       device_async_resource_ref mr = default_device_resource())
  {
    device_like_predicate p;
    p.kind_       = host.kind;
    p.num_tokens_ = host.dict.size();
    p.like_       = kind;
    p.pattern_bytes_ = pattern.size();
    like_matcher const lm(host.dict, kind, pattern, opt);
    p.states_ = lm.num_states();
    p.accept_ = static_cast<std::uint32_t>(pattern.size());
    p.moving_ = kind == like_kind::suffix ? p.states_ : p.accept_;
    p.stops_at_absorbing_ = kind != like_kind::suffix;
    p.warp_long_rows_     = kind != like_kind::prefix && p.states_ <= detail::like_map_states;
    if (lm.has_table()) p.upload_table(lm.table(), stream, mr);
    return p;
  }

  /**
   * @brief A LIKE pattern of any number of `%`-separated parts ('%special%requests%', 'a%b'),
   * compiled as on the host (like_pattern: '_' and escapes are refused with logic_error) and its
   * token table uploaded on `stream` (u8 entries up to 256 states, else u16; none above 65 535
   * states or `opt.max_table_bytes`, as prepare()). kind() is not meaningful for it.
   * @throw logic_error for '_' or an escape; format_error for an invalid dictionary; cuda_error.
   */
  static device_like_predicate prepare_pattern(compressed_column const& host, std::string_view pattern,
                                               cuda::stream_ref stream = {}, like_options const& opt = {},
                                               device_async_resource_ref mr = default_device_resource())
  {
    device_like_predicate p;
    p.kind_       = host.kind;
    p.num_tokens_ = host.dict.size();
    like_pattern const lp(host.dict, pattern, opt);
    p.states_        = lp.num_states();
    p.pattern_bytes_ = lp.min_bytes();
    // The states are the parts' states, then `fin` (accept and absorbing, unless the pattern has
    // no '%'), then `dead` (absorbing); accept() equals min_bytes(), which the kernel's length
    // shortcut relies on.
    std::uint32_t const fin = p.states_ - 2;
    p.accept_               = lp.accept();
    p.moving_               = lp.absorbing(fin) ? fin : fin + 1;
    p.stops_at_absorbing_   = true;
    p.warp_long_rows_       = p.states_ <= detail::like_map_states;
    if (lp.has_table() && p.states_ <= 0xFFFF) p.upload_table(lp.table(), stream, mr);
    return p;
  }

  /**
   * @brief `col LIKE 'p1%' OR col LIKE 'p2%' OR ...` (SQL's `substring(col, 1, k) IN (...)`) as
   * one automaton (like_prefix_set: the prefixes' trie), so a row is walked once instead of once
   * per prefix. Table as prepare_pattern's; kind() is not meaningful for it.
   * @throw format_error for an invalid dictionary; cuda_error.
   */
  static device_like_predicate prepare_prefixes(compressed_column const& host, std::vector<std::string_view> const& prefixes,
                                                cuda::stream_ref stream = {}, like_options const& opt = {},
                                                device_async_resource_ref mr = default_device_resource())
  {
    device_like_predicate p;
    p.kind_       = host.kind;
    p.num_tokens_ = host.dict.size();
    like_prefix_set const ps(host.dict, prefixes, opt);
    p.states_             = ps.num_states();
    p.pattern_bytes_      = ps.min_bytes();
    p.accept_             = ps.accept();
    p.moving_             = ps.accept();  // accept and dead absorb
    p.stops_at_absorbing_ = true;
    p.warp_long_rows_     = false;  // a prefix is decided by a row's first codes
    if (ps.has_table() && p.states_ <= 0xFFFF) p.upload_table(ps.table(), stream, mr);
    return p;
  }

  /**
   * @brief Writes the bitmask of the rows of `col` matching the pattern into `words`
   * (ceil(num_rows / 64) device words, all written). Asynchronous (no allocation, no
   * synchronisation), except without a table (see prepare), where it copies the row byte
   * offsets to the host and synchronizes `stream`. Reads the column's row offsets
   * (prepare_options::row_offsets).
   * @throw logic_error if `col` has another codec or dictionary size, or there is no table and
   * some row is at least as long as the pattern; cuda_error.
   */
  device_bitmask evaluate(device_column const& col, std::uint64_t* words, cuda::stream_ref stream = {}) const
  {
    detail::expect_same_dictionary(col, kind_, num_tokens_);
    std::uint64_t const rows = col.num_rows();
    if (rows == 0) return {words, 0};
    FASTPAIR_EXPECTS(words != nullptr, "predicate: null bitmask");
    if (!has_table_) {
      std::vector<std::uint64_t> off(rows + 1);  // rare path: copied to the host (synchronizes)
      FASTPAIR_CUDA_TRY(cudaMemcpyAsync(off.data(), col.device_row_byte_offsets(), off.size() * 8,
                                        cudaMemcpyDeviceToHost, stream.get()));
      FASTPAIR_CUDA_TRY(cudaStreamSynchronize(stream.get()));
      for (std::uint64_t r = 0; r < rows; ++r)
        FASTPAIR_EXPECTS(off[r + 1] - off[r] < pattern_bytes_,
                         "LIKE pattern of " + std::to_string(pattern_bytes_) +
                           " bytes: its token table exceeds like_options::max_table_bytes; raise it");
      FASTPAIR_CUDA_TRY(cudaMemsetAsync(words, 0, (rows + 63) / 64 * sizeof(std::uint64_t), stream.get()));
      return {words, rows};
    }
    auto launch = [&](auto const* table) {
      using state_t = std::remove_const_t<std::remove_pointer_t<decltype(table)>>;
      detail::like_table_view<state_t> v;
      v.table              = table;
      v.num_states         = states_;
      v.num_tokens         = static_cast<std::uint32_t>(num_tokens_);
      v.accept             = accept_;
      v.min_bytes          = pattern_bytes_;
      v.moving             = moving_;
      v.stops_at_absorbing = stops_at_absorbing_;
      detail::like_kernel<state_t><<<detail::predicate_blocks(rows), detail::predicate_threads, 0, stream.get()>>>(
        v, detail::rows_of(col), warp_long_rows_, words);
    };
    if (states_ <= 256) launch(table8_.data());
    else launch(table16_.data());
    FASTPAIR_CUDA_TRY(cudaGetLastError());
    return {words, rows};
  }

  like_kind kind() const noexcept { return like_; }
  /** @brief Automaton states S (prefix: m + 2, substring / suffix: m + 1). */
  std::uint32_t num_states() const noexcept { return states_; }
  bool has_table() const noexcept { return has_table_; }
  /** @brief Bytes per table entry: 1 (S <= 256) or 2. */
  int state_bytes() const noexcept { return states_ <= 256 ? 1 : 2; }
  /** @brief Device bytes of the token table (num_tokens x S x state_bytes()); 0 without table. */
  std::size_t table_bytes() const noexcept
  {
    return has_table_ ? static_cast<std::size_t>(num_tokens_) * states_ * static_cast<std::size_t>(state_bytes()) : 0;
  }

 private:
  template <class Entry>
  void upload_table(std::vector<Entry> const& t, cuda::stream_ref stream, device_async_resource_ref mr)
  {
    has_table_ = true;
    if (states_ <= 256) table8_ = detail::upload(std::vector<std::uint8_t>(t.begin(), t.end()), stream, mr);
    else table16_ = detail::upload(std::vector<std::uint16_t>(t.begin(), t.end()), stream, mr);
  }

  codec kind_               = codec::onpair16;
  std::uint64_t num_tokens_ = 0;
  like_kind like_           = like_kind::prefix;
  std::uint64_t pattern_bytes_ = 0;
  std::uint32_t states_     = 1;
  std::uint32_t accept_     = 0;     // the accepting state (also the shortest matching row, in bytes)
  std::uint32_t moving_     = 0;     // states at or above it are absorbing (when stops_at_absorbing_)
  bool stops_at_absorbing_  = true;
  bool warp_long_rows_      = false; // long rows walked by the whole warp (needs states_ <= like_map_states)
  bool has_table_           = false;
  device_buffer<std::uint8_t> table8_;
  device_buffer<std::uint16_t> table16_;
};

/** @brief `col = literal` (one-shot device_literal_set, allocated from `mr`, freed stream-ordered).
 *  `host` supplies the dictionary. */
inline device_bitmask select_equal(device_column const& col, compressed_column const& host, std::string_view literal,
                                   std::uint64_t* words, cuda::stream_ref stream = {},
                                   device_async_resource_ref mr = default_device_resource())
{
  return device_literal_set::prepare(host, {literal}, stream, mr).evaluate(col, words, stream);
}

/** @brief `col IN (literals...)` (one-shot device_literal_set, allocated from `mr`). */
inline device_bitmask select_in(device_column const& col, compressed_column const& host,
                                std::vector<std::string_view> const& literals, std::uint64_t* words,
                                cuda::stream_ref stream = {}, device_async_resource_ref mr = default_device_resource())
{
  return device_literal_set::prepare(host, literals, stream, mr).evaluate(col, words, stream);
}

/** @brief Rows matching a prepared LIKE predicate (no allocation). */
inline device_bitmask select_like(device_column const& col, device_like_predicate const& pred, std::uint64_t* words,
                                  cuda::stream_ref stream = {})
{
  return pred.evaluate(col, words, stream);
}

/** @brief Rows matching `kind` of `pattern` (one-shot device_like_predicate, allocated from `mr`,
 *  freed stream-ordered). */
inline device_bitmask select_like(device_column const& col, compressed_column const& host, like_kind kind,
                                  std::string_view pattern, std::uint64_t* words, cuda::stream_ref stream = {},
                                  like_options const& opt = {}, device_async_resource_ref mr = default_device_resource())
{
  return device_like_predicate::prepare(host, kind, pattern, stream, opt, mr).evaluate(col, words, stream);
}

/** @brief `col LIKE pattern` for a pattern of any number of `%`-separated parts (one-shot
 *  device_like_predicate::prepare_pattern, allocated from `mr`, freed stream-ordered). */
inline device_bitmask select_like_pattern(device_column const& col, compressed_column const& host,
                                          std::string_view pattern, std::uint64_t* words, cuda::stream_ref stream = {},
                                          like_options const& opt = {},
                                          device_async_resource_ref mr = default_device_resource())
{
  return device_like_predicate::prepare_pattern(host, pattern, stream, opt, mr).evaluate(col, words, stream);
}

/** @brief Rows starting with any of `prefixes` (one-shot device_like_predicate::prepare_prefixes,
 *  allocated from `mr`, freed stream-ordered). */
inline device_bitmask select_prefix_in(device_column const& col, compressed_column const& host,
                                       std::vector<std::string_view> const& prefixes, std::uint64_t* words,
                                       cuda::stream_ref stream = {}, like_options const& opt = {},
                                       device_async_resource_ref mr = default_device_resource())
{
  return device_like_predicate::prepare_prefixes(host, prefixes, stream, opt, mr).evaluate(col, words, stream);
}

/** @brief LIKE 'pattern%' (one-shot, allocated from `mr`). */
inline device_bitmask select_prefix(device_column const& col, compressed_column const& host, std::string_view pattern,
                                    std::uint64_t* words, cuda::stream_ref stream = {}, like_options const& opt = {},
                                    device_async_resource_ref mr = default_device_resource())
{
  return select_like(col, host, like_kind::prefix, pattern, words, stream, opt, mr);
}
/** @brief LIKE '%pattern%' (one-shot, allocated from `mr`). */
inline device_bitmask select_substring(device_column const& col, compressed_column const& host,
                                       std::string_view pattern, std::uint64_t* words, cuda::stream_ref stream = {},
                                       like_options const& opt = {},
                                       device_async_resource_ref mr = default_device_resource())
{
  return select_like(col, host, like_kind::substring, pattern, words, stream, opt, mr);
}
/** @brief LIKE '%pattern' (one-shot, allocated from `mr`). */
inline device_bitmask select_suffix(device_column const& col, compressed_column const& host, std::string_view pattern,
                                    std::uint64_t* words, cuda::stream_ref stream = {}, like_options const& opt = {},
                                    device_async_resource_ref mr = default_device_resource())
{
  return select_like(col, host, like_kind::suffix, pattern, words, stream, opt, mr);
}

}  // namespace fastpair
