// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The input format of the in-memory-column fuzz target (column_fuzz.cpp): how a byte string
// becomes a compressed_column, with every array raw enough that any inconsistency a caller could
// build is reachable, and consistent modes so that small inputs also give (mostly) valid columns.
// Also the writer make_column_corpus.cpp builds the seeds with. Host-only.
//
// Reading past the end of the input gives zeros. Integers are little-endian; a "count" is one
// byte below 255, else 255 and the u16 that follows. "Delta-coded"
// values: each is the previous value (0 before the first) plus a signed byte, or, after the
// escape byte 0x80, the raw value (u32 or u64) that follows: any sequence is representable,
// non-monotone and out-of-range ones included.
//
//  u8 flags      bits 0-1  codec: 0 onpair16, 1 onpair12, 2 fsst12, 3 the next byte as is
//                bit  2    dictionary raw (else built)
//                bit  3    codes raw (else packed from code values)
//                bit  4    rows raw (else derived from row lengths)
//                bit  5    sidecar raw (else computed from the codes)
//                bit  6    no sidecar (computed mode)
//  [u8 codec]    if the codec bits are 3 (values other than 1..3 included)
//  dictionary, built: u8 rot, u8 E, E x (u8 h, then h % 16 + 1 token bytes), count G
//                tokens 0..255 are the bytes (i + rot) & 255 (FSST-12 needs rot = 0), then the E
//                extra tokens, then G generated two-byte tokens {k & 255, k >> 8}, k = 0..G-1
//                (so dictionaries up to and past 65 536 tokens take a few bytes)
//  dictionary, raw:   u8 sub, count M, M offsets, u32 B, B token bytes
//                sub bit 0: offsets as raw u32 each (else delta-coded u32)
//                sub bit 1: token byte k is k & 255, B capped at 1 MiB (else B raw bytes from the
//                           input, capped at what is left of it)
//                sub bit 2: M += 65 536
//  codes, packed:     u8 mode, count C, C code values, packed at the codec's width; num_codes = C
//                mode % 4: 0 one byte b per code, code b % N (N = dictionary size, 1 if 0)
//                          1 two bytes per code, the u16 masked to the code width (may be >= N)
//                          2 one byte b per code, code (256 + b) % N (the extra tokens)
//                          3 one byte b per code, code (b * 257) % N
//  codes, raw:        count L, L code bytes, u8 nsel; nsel % 4: 0 num_codes = the most codes L
//                bytes hold, 1 that plus a signed byte, 2 a raw u32, 3 a raw u64
//  rows, derived:     count R, R x u8 (codes in the row, clamped; 255 = all the rest), then a last
//                row to num_codes if they stop short; byte offsets are the running sums of the
//                token lengths (codes that cannot be read or lie outside the dictionary count 0)
//  rows, raw:         u8 A, A delta-coded u64 (row_code_offsets), u8 B: 255 = byte offsets
//                derived from those code offsets as above, else B delta-coded u64
//  sidecar:           u8 s: stride s, or for s = 0 a raw u32 stride (0 included); then
//                computed: the decoded position of every stride-th code (as the byte offsets;
//                none if the flag says so or it would exceed 65 536 entries), or
//                raw: u8 K, K delta-coded u64
//  mutations:         the rest of the input: ops of an opcode byte (% 20) and its arguments
//                (apply_mutation; an index is a u16 modulo the array size, bit 15 counting from
//                the end, so 0x8000 is the last entry): set or add to a dictionary offset, push
//                or pop one; xor a token byte or resize the token bytes; xor a code byte, resize
//                the code bytes; add to or set num_codes; add to a row code or byte offset, push
//                or pop either; add to, push or pop a sidecar entry; set the stride; set the
//                codec byte; add to a run of dictionary offsets, row code offsets, row byte
//                offsets or sidecar entries
//
// Every vector is shrunk to its size at the end, so that a read one element past any array is
// a heap-buffer-overflow under AddressSanitizer.
#pragma once

#include <fastpair/format.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace column_fuzz {

using fastpair::codec;
using fastpair::compressed_column;

enum flag : std::uint8_t {
  codec_mask    = 0x03,
  raw_codec     = 0x03,
  raw_dict      = 0x04,
  raw_codes     = 0x08,
  raw_rows      = 0x10,
  raw_sidecar   = 0x20,
  no_sidecar    = 0x40,
};
inline constexpr std::uint8_t delta_escape = 0x80;
inline constexpr std::uint64_t max_pattern_bytes = 1u << 20;
inline constexpr std::uint64_t max_computed_sidecar = 1u << 16;

class reader {
 public:
  reader(std::uint8_t const* p, std::size_t n) : p_(p), n_(n) {}
  std::uint8_t u8() { return pos_ < n_ ? p_[pos_++] : 0; }
  std::int8_t s8() { return static_cast<std::int8_t>(u8()); }
  // (Each half read in its own statement: the operands of | are unsequenced.)
  std::uint16_t u16()
  {
    std::uint32_t const lo = u8();
    return static_cast<std::uint16_t>(lo | (std::uint32_t{u8()} << 8));
  }
  std::uint32_t u32()
  {
    std::uint32_t const lo = u16();
    return lo | (std::uint32_t{u16()} << 16);
  }
  std::uint64_t u64()
  {
    std::uint64_t const lo = u32();
    return lo | (std::uint64_t{u32()} << 32);
  }
  /** A count: one byte below 255, else the u16 that follows (small inputs stay small). */
  std::uint32_t count()
  {
    std::uint32_t const b = u8();
    return b < 255 ? b : u16();
  }
  std::size_t left() const { return n_ - pos_; }
  bool done() const { return pos_ >= n_; }
  template <class T>
  T delta(T prev)
  {
    std::uint8_t const b = u8();
    if (b == delta_escape) return sizeof(T) == 8 ? static_cast<T>(u64()) : static_cast<T>(u32());
    return static_cast<T>(prev + static_cast<T>(static_cast<std::int64_t>(static_cast<std::int8_t>(b))));
  }
  template <class T>
  std::vector<T> deltas(std::size_t count)
  {
    std::vector<T> v(count);
    T prev = 0;
    for (auto& x : v) prev = x = delta<T>(prev);
    return v;
  }

 private:
  std::uint8_t const* p_;
  std::size_t n_;
  std::size_t pos_ = 0;
};

/** Codes a packed buffer of this codec holds completely (code_at reads bytes b and b+1). */
inline std::uint64_t readable_codes(compressed_column const& col)
{
  return static_cast<std::uint64_t>(col.codes.size()) * 8 / fastpair::code_bits(col.kind);
}

/** Length of the token of code j, or 0 where j cannot be read or the code has no token. */
inline std::uint64_t safe_length(compressed_column const& col, std::uint64_t readable, std::uint64_t j)
{
  if (j >= readable) return 0;
  std::uint32_t const c = fastpair::code_at(col.kind, col.codes.data(), j);
  return c < col.dict.size() ? col.dict.length(c) : 0;
}

/** Byte offsets consistent with the code offsets (running sums of safe_length). */
inline std::vector<std::uint64_t> derive_byte_offsets(compressed_column const& col)
{
  std::uint64_t const readable = readable_codes(col);
  std::vector<std::uint64_t> out(col.row_code_offsets.size(), 0);
  std::uint64_t j = 0, pos = 0;
  for (std::size_t r = 0; r < col.row_code_offsets.size(); ++r) {
    std::uint64_t const end = std::min(col.row_code_offsets[r], readable);
    for (; j < end; ++j) pos += safe_length(col, readable, j);
    out[r] = pos;
  }
  return out;
}

inline void read_dictionary(reader& in, compressed_column& col, bool raw)
{
  fastpair::dictionary& d = col.dict;
  if (!raw) {
    d = {};
    std::uint8_t const rot = in.u8();
    for (int i = 0; i < 256; ++i) d.push_back(std::string(1, static_cast<char>((i + rot) & 255)));
    std::uint8_t const extras = in.u8();
    for (int e = 0; e < extras; ++e) {
      std::size_t const len = in.u8() % 16 + 1;
      std::string t(len, '\0');
      for (auto& ch : t) ch = static_cast<char>(in.u8());
      d.push_back(t);
    }
    std::uint32_t const gen = in.count();
    std::size_t const b0 = d.bytes.size(), o0 = d.offsets.size();
    d.bytes.resize(b0 + 2 * std::size_t{gen});
    d.offsets.resize(o0 + gen);
    for (std::uint32_t k = 0; k < gen; ++k) {
      d.bytes[b0 + 2 * k]     = static_cast<std::uint8_t>(k);
      d.bytes[b0 + 2 * k + 1] = static_cast<std::uint8_t>(k >> 8);
      d.offsets[o0 + k]       = static_cast<std::uint32_t>(b0 + 2 * k + 2);
    }
    return;
  }
  std::uint8_t const sub = in.u8();
  std::size_t m          = in.count() + ((sub & 4) ? 65536u : 0u);
  if (sub & 1) {
    d.offsets.resize(m);
    for (auto& o : d.offsets) o = in.u32();
  } else {
    d.offsets = in.deltas<std::uint32_t>(m);
  }
  std::uint64_t b = in.u32();
  if (sub & 2) {
    b = std::min(b, max_pattern_bytes);
    d.bytes.resize(b);
    std::uint8_t block[256];
    for (int k = 0; k < 256; ++k) block[k] = static_cast<std::uint8_t>(k);
    for (std::uint64_t k = 0; k < b; k += 256) std::memcpy(d.bytes.data() + k, block, std::min<std::uint64_t>(256, b - k));
  } else {
    b = std::min<std::uint64_t>(b, in.left());
    d.bytes.resize(b);
    for (auto& x : d.bytes) x = in.u8();
  }
}

inline void read_codes(reader& in, compressed_column& col, bool raw)
{
  int const bits = fastpair::code_bits(col.kind);
  if (!raw) {
    std::uint8_t const mode = in.u8() % 4;
    std::uint32_t const n   = in.count();
    std::uint32_t const nt  = col.dict.size() ? static_cast<std::uint32_t>(col.dict.size()) : 1;
    std::uint32_t const mask = (std::uint32_t{1} << bits) - 1;
    std::vector<std::uint16_t> v(n);
    for (auto& c : v) {
      std::uint32_t x = 0;
      switch (mode) {
        case 0: x = in.u8() % nt; break;
        case 1: x = in.u16(); break;
        case 2: x = (256u + in.u8()) % nt; break;
        default: x = (in.u8() * 257u) % nt; break;
      }
      c = static_cast<std::uint16_t>(x & mask);
    }
    col.codes     = fastpair::pack_codes(col.kind, v.data(), n);
    col.num_codes = n;
    return;
  }
  std::size_t const len = in.count();
  col.codes.resize(len);
  for (auto& x : col.codes) x = in.u8();
  std::uint64_t const fit = std::uint64_t{len} * 8 / bits;
  switch (in.u8() % 4) {
    case 0: col.num_codes = fit; break;
    case 1: col.num_codes = fit + static_cast<std::uint64_t>(static_cast<std::int64_t>(in.s8())); break;
    case 2: col.num_codes = in.u32(); break;
    default: col.num_codes = in.u64(); break;
  }
}

inline void read_rows(reader& in, compressed_column& col, bool raw)
{
  if (!raw) {
    std::size_t const rows = in.count();
    col.row_code_offsets.assign(1, 0);
    col.row_code_offsets.reserve(rows + 2);
    std::uint64_t c = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      std::uint8_t const n = in.u8();
      c = n == 255 || col.num_codes - c < n ? col.num_codes : c + n;
      col.row_code_offsets.push_back(c);
    }
    if (c < col.num_codes) col.row_code_offsets.push_back(col.num_codes);
    col.row_byte_offsets = derive_byte_offsets(col);
    return;
  }
  col.row_code_offsets = in.deltas<std::uint64_t>(in.u8());
  std::uint8_t const b = in.u8();
  col.row_byte_offsets = b == 255 ? derive_byte_offsets(col) : in.deltas<std::uint64_t>(b);
}

inline void read_sidecar(reader& in, compressed_column& col, bool raw, bool absent)
{
  std::uint8_t const s = in.u8();
  col.sidecar_stride   = s ? s : in.u32();
  col.sidecar.clear();
  if (raw) {
    col.sidecar = in.deltas<std::uint64_t>(in.u8());
    return;
  }
  if (absent || col.sidecar_stride == 0) return;
  // ceil(num_codes / stride) without the overflow of sidecar_entries() for num_codes near 2^64
  std::uint64_t const entries = col.num_codes / col.sidecar_stride + (col.num_codes % col.sidecar_stride != 0);
  if (entries > max_computed_sidecar) return;
  std::uint64_t const readable = readable_codes(col);
  std::uint64_t pos = 0;
  for (std::uint64_t j = 0; j < col.num_codes; ++j) {
    if (j % col.sidecar_stride == 0) col.sidecar.push_back(pos);
    if (j >= readable) {  // the rest count 0: no need to walk a huge claimed num_codes
      col.sidecar.resize(entries, pos);
      break;
    }
    pos += safe_length(col, readable, j);
  }
}

/** An index into v from a u16 (0 if v is empty): bit 15 set counts from the end, so that
 *  0x8000 is the last entry (offsets[N], row_code_offsets[R]). */
template <class V>
std::size_t pick(reader& in, V const& v)
{
  std::size_t const i = in.u16();
  if (v.empty()) return 0;
  std::size_t const k = (i & 0x7FFF) % v.size();
  return (i & 0x8000) ? v.size() - 1 - k : k;
}

/** Grows (zeros) or shrinks v by a signed byte. */
template <class V>
void resize_by(reader& in, V& v)
{
  std::int8_t const d = in.s8();
  if (d < 0) v.resize(v.size() - std::min<std::size_t>(v.size(), static_cast<std::size_t>(-d)));
  else v.resize(v.size() + static_cast<std::size_t>(d));
}

template <class V>
void push_or_pop(reader& in, V& v)
{
  std::uint8_t const a = in.u8();
  if (a & 1) {
    if (!v.empty()) v.pop_back();
  } else {
    v.push_back(v.empty() ? 0 : v.back() + (a >> 1));
  }
}

/** Adds a signed byte to up to `u8` entries of v from a picked index on (a run of offsets moved
 *  together: one token or row grows, the following ones keep their lengths). */
template <class V>
void shift_range(reader& in, V& v)
{
  std::size_t const i = pick(in, v);
  std::size_t const n = in.u8();
  auto const d = static_cast<typename V::value_type>(static_cast<std::int64_t>(in.s8()));
  for (std::size_t k = i; k < v.size() && k < i + n; ++k) v[k] += d;
}

/** Applies one raw edit, read from `in`, to any array or field of the column. */
inline void apply_mutation(reader& in, compressed_column& col)
{
  switch (in.u8() % 20) {
    case 0: {  // dictionary offset = raw u32
      std::size_t const i = pick(in, col.dict.offsets);
      std::uint32_t const v = in.u32();
      if (!col.dict.offsets.empty()) col.dict.offsets[i] = v;
      break;
    }
    case 1: {  // dictionary offset += signed byte
      std::size_t const i = pick(in, col.dict.offsets);
      std::int8_t const d = in.s8();
      if (!col.dict.offsets.empty()) col.dict.offsets[i] += static_cast<std::uint32_t>(static_cast<std::int32_t>(d));
      break;
    }
    case 2: push_or_pop(in, col.dict.offsets); break;
    case 3: {  // token byte ^= u8, or resize the token bytes by a signed byte
      std::size_t const i = pick(in, col.dict.bytes);
      std::uint8_t const x = in.u8();
      if (x == 0) resize_by(in, col.dict.bytes);
      else if (!col.dict.bytes.empty()) col.dict.bytes[i] ^= x;
      break;
    }
    case 4: {  // code byte ^= u8
      std::size_t const i = pick(in, col.codes);
      std::uint8_t const x = in.u8();
      if (!col.codes.empty()) col.codes[i] ^= x;
      break;
    }
    case 5: resize_by(in, col.codes); break;  // drop or add code bytes at the end
    case 6: col.num_codes += static_cast<std::uint64_t>(static_cast<std::int64_t>(in.s8())); break;
    case 7: col.num_codes = in.u64(); break;
    case 8: {  // row code offset += signed byte
      std::size_t const i = pick(in, col.row_code_offsets);
      std::int8_t const d = in.s8();
      if (!col.row_code_offsets.empty()) col.row_code_offsets[i] += static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
      break;
    }
    case 9: {  // row byte offset += signed byte
      std::size_t const i = pick(in, col.row_byte_offsets);
      std::int8_t const d = in.s8();
      if (!col.row_byte_offsets.empty()) col.row_byte_offsets[i] += static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
      break;
    }
    case 10: push_or_pop(in, col.row_code_offsets); break;
    case 11: push_or_pop(in, col.row_byte_offsets); break;
    case 12: {  // sidecar entry += signed byte
      std::size_t const i = pick(in, col.sidecar);
      std::int8_t const d = in.s8();
      if (!col.sidecar.empty()) col.sidecar[i] += static_cast<std::uint64_t>(static_cast<std::int64_t>(d));
      break;
    }
    case 13: push_or_pop(in, col.sidecar); break;
    case 14: col.sidecar_stride = in.u32(); break;
    case 15: col.kind = static_cast<codec>(in.u8()); break;
    case 16: shift_range(in, col.dict.offsets); break;
    case 17: shift_range(in, col.row_code_offsets); break;
    case 18: shift_range(in, col.row_byte_offsets); break;
    default: shift_range(in, col.sidecar); break;
  }
}

/** Builds the column an input describes (never throws; any content is possible). */
inline compressed_column decode(std::uint8_t const* data, std::size_t size)
{
  reader in(data, size);
  compressed_column col;
  std::uint8_t const flags = in.u8();
  switch (flags & codec_mask) {
    case 0: col.kind = codec::onpair16; break;
    case 1: col.kind = codec::onpair12; break;
    case 2: col.kind = codec::fsst12; break;
    default: col.kind = static_cast<codec>(in.u8()); break;
  }
  read_dictionary(in, col, flags & raw_dict);
  read_codes(in, col, flags & raw_codes);
  read_rows(in, col, flags & raw_rows);
  read_sidecar(in, col, flags & raw_sidecar, flags & no_sidecar);
  while (!in.done()) apply_mutation(in, col);
  col.dict.bytes.shrink_to_fit();
  col.dict.offsets.shrink_to_fit();
  col.codes.shrink_to_fit();
  col.row_code_offsets.shrink_to_fit();
  col.row_byte_offsets.shrink_to_fit();
  col.sidecar.shrink_to_fit();
  return col;
}

/** Appends the fields of an input (for the seed generator). */
struct writer {
  std::vector<std::uint8_t> out;
  writer& u8(std::uint32_t v) { out.push_back(static_cast<std::uint8_t>(v)); return *this; }
  writer& u16(std::uint32_t v) { return u8(v).u8(v >> 8); }
  writer& u32(std::uint32_t v) { return u16(v).u16(v >> 16); }
  writer& u64(std::uint64_t v) { return u32(static_cast<std::uint32_t>(v)).u32(static_cast<std::uint32_t>(v >> 32)); }
  writer& bytes(std::string const& s) { out.insert(out.end(), s.begin(), s.end()); return *this; }
  /** Delta-codes a sequence (signed bytes where the step fits, else the escape and the raw value). */
  template <class T>
  writer& deltas(std::vector<T> const& v)
  {
    T prev = 0;
    for (T x : v) {
      auto const d = static_cast<std::int64_t>(static_cast<std::make_signed_t<T>>(static_cast<T>(x - prev)));
      if (d >= -127 && d <= 127) u8(static_cast<std::uint8_t>(static_cast<std::int8_t>(d)));
      else if (sizeof(T) == 8) u8(delta_escape).u64(x);
      else u8(delta_escape).u32(static_cast<std::uint32_t>(x));
      prev = x;
    }
    return *this;
  }
};

}  // namespace column_fuzz
