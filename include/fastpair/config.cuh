// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file config.cuh
 * @brief The compile-time decode configuration `decode_config<K, W, H, T, B, E, G>` (tokens
 * per thread, low-plane width, hoisted rounds, threads per block, min blocks per SM, emit and
 * gather strategies), the paper's configuration and a config's name.
 */
#pragma once

#include <string>
#include <type_traits>

namespace fastpair {

/** @brief Architecture buckets of the tuning table (lookup newest first). sm_80 and older GPUs
 *  are `generic` (the paper's configuration: nothing was measured on them); the values are kept
 *  from when sm_80 had a bucket of its own (they appear in kernel names). */
enum class arch_bucket { generic = 0, sm90 = 2, sm100 = 3 };

/** @brief How a warp writes decoded tokens into its shared-memory staging buffer. */
enum class emit_strategy {
  /// The paper's Algorithm 1: lane ℓ owns codes ℓ + 32k; byte-wise shared stores; long tokens go
  /// through a ballot queue (W = 8) with H hoisted rounds.
  staged_bytes,
  /// Lane ℓ owns K consecutive codes (one contiguous output segment, one vector code load, one
  /// warp scan); tokens are assembled into aligned 32-bit words in registers with funnel shifts
  /// and stored 4 bytes at a time; the word shared by two lanes is merged through one shuffle.
  /// Needs K >= 4 (so a lane's segment spans at least one whole word); H is unused.
  register_words,
  /// register_words for dictionaries without tokens longer than 8 bytes (every FSST-12 column):
  /// W = 8, 8-byte token registers (half of register_words'), three words and two stores per
  /// token, no high plane. launch_decode refuses it (cudaErrorInvalidValue) on a column view
  /// that has a high plane, i.e. one whose tokens may exceed 8 bytes.
  register_words_short,
};

/**
 * @brief Which SM pipe reads the dictionary entries (register_words only).
 *
 * The register_words kernel is bound by the rate at which the L1's LSU data pipe processes
 * wavefronts (ncu, H200: 90 % of peak on every column), and its dictionary gathers are most of
 * them. Texture fetches (`tex1Dfetch` on a texture object over the same plane) run through the
 * L1's separate texture pipe, so moving gathers there spreads the work over both pipes
 * (docs/notes/decoder-history-2026-11.md, "Issue 7 lever: dictionary gathers through the texture pipe").
 */
enum class gather_strategy {
  /// Every dictionary read is an `ld.global.nc` through the LSU pipe.
  global,
  /// The low-plane read (W bytes per code) goes through the texture pipe; length nibbles (and the
  /// high plane of W = 8 long tokens) through the LSU.
  texture_low,
  /// The low-plane read goes through the texture pipe, and the token lengths are not gathered at
  /// all: they come from the column's per-code length stream (device_column, prepare_options::
  /// length_stream), loaded with the codes, 4 bits per code. Costs num_codes / 2 bytes of device
  /// memory; pays off on columns of short tokens (docs/notes/decoder-history-2026-11.md, "streamed lengths").
  texture_low_streamed,
  /// As texture_low_streamed, but for dictionaries of at most 4 096 entries (OnPair-12, FSST-12):
  /// each code comes with its length in one 16-bit word (code in bits 0..11, length - 1 in bits
  /// 12..15) of the column's fused code stream (column_view::code_words, built by
  /// device_column::prepare), so the lane reads 2 bytes per code instead of 2.5.
  texture_low_fused,
};

/**
 * @brief Compile-time configuration of the FastPair decode kernel (the paper's Algorithm 1).
 *
 * One warp decodes batches of 32·K consecutive codes; lane ℓ handles codes ℓ + 32k (k < K).
 *
 * @tparam TokensPerThread K: codes per lane and batch, 1..8. More K = more loads in flight and a
 *         longer emit per scan, at the cost of registers (≈ K·(3 + W/4)) and shared memory
 *         (≈ 32·K·20 bytes per warp).
 * @tparam LowPlaneBytes W: bytes per entry of the low dictionary plane, 8 or 16. W = 16 reads each
 *         token with one 16-byte load; W = 8 ("split read") reads 8 bytes and queues the tokens
 *         longer than 8 bytes for a second read of the high plane. Must match the prepared column.
 * @tparam HoistedRounds H: rounds (of 32 queued long tokens) whose high-plane reads are issued
 *         before the emit, 0..K. Only meaningful for W = 8.
 * @tparam ThreadsPerBlock T: 64, 128, 256 or 512.
 * @tparam MinBlocksPerSm B: `__launch_bounds__(T, B)` minimum resident blocks per SM, 1..8; caps
 *         registers at about 65536 / (T·B).
 * @tparam Emit **[optional]** the emit strategy; default: emit_strategy::register_words (the
 *         automatic configuration's; K >= 4). emit_strategy::staged_bytes is the paper's
 *         (paper_config), the one for K < 4.
 * @tparam Gather **[optional]** the pipe of the dictionary reads; default: gather_strategy::global.
 *         The texture strategies need a register_words emit.
 */
template <int TokensPerThread, int LowPlaneBytes, int HoistedRounds, int ThreadsPerBlock,
          int MinBlocksPerSm, emit_strategy Emit = emit_strategy::register_words,
          gather_strategy Gather = gather_strategy::global>
struct decode_config {
  static constexpr int tokens_per_thread = TokensPerThread;  ///< K
  static constexpr int low_plane_bytes   = LowPlaneBytes;    ///< W
  static constexpr int hoisted_rounds    = HoistedRounds;    ///< H
  static constexpr int threads_per_block = ThreadsPerBlock;  ///< T
  static constexpr int min_blocks_per_sm = MinBlocksPerSm;   ///< B
  static constexpr emit_strategy emit    = Emit;
  static constexpr gather_strategy gather = Gather;
  /// Gather takes the token lengths from the per-code length stream (texture_low_streamed).
  /// register_words or register_words_short: the kernel of warp_decode_words.cuh
  static constexpr bool emits_words = Emit == emit_strategy::register_words || Emit == emit_strategy::register_words_short;
  /// register_words_short: every token is at most 8 bytes (no high plane)
  static constexpr bool short_tokens = Emit == emit_strategy::register_words_short;
  /// the lengths come with the codes (texture_low_streamed: a nibble stream; texture_low_fused: the
  /// fused 16-bit code words) instead of being gathered from the dictionary
  static constexpr bool streams_lengths = Gather == gather_strategy::texture_low_streamed;
  static constexpr bool fused_codes     = Gather == gather_strategy::texture_low_fused;
  static constexpr int warps_per_block   = ThreadsPerBlock / 32;
  static constexpr int codes_per_batch   = 32 * TokensPerThread;  ///< codes per warp batch

  static_assert(TokensPerThread >= 1 && TokensPerThread <= 8, "K (tokens per thread) must be in 1..8");
  static_assert(LowPlaneBytes == 8 || LowPlaneBytes == 16, "W (low plane bytes) must be 8 or 16");
  static_assert(HoistedRounds >= 0 && HoistedRounds <= TokensPerThread, "H must be in 0..K");
  static_assert(ThreadsPerBlock == 64 || ThreadsPerBlock == 128 || ThreadsPerBlock == 256 ||
                  ThreadsPerBlock == 512,
                "T (threads per block) must be 64, 128, 256 or 512");
  static_assert(MinBlocksPerSm >= 1 && MinBlocksPerSm <= 8, "B (min blocks per SM) must be in 1..8");
  static_assert(!emits_words || TokensPerThread >= 4,
                "the register_words strategies need K >= 4 (emit_strategy::staged_bytes for smaller K)");
  static_assert(!short_tokens || LowPlaneBytes == 8, "register_words_short needs W = 8");
  static_assert(Gather == gather_strategy::global || emits_words,
                "texture gathers are implemented for the register_words strategies only");
};

/** @brief True if `C` is a specialization of decode_config. */
template <class C>
struct is_decode_config : std::false_type {};
template <int K, int W, int H, int T, int B, emit_strategy E, gather_strategy G>
struct is_decode_config<decode_config<K, W, H, T, B, E, G>> : std::true_type {};

/**
 * @brief `Config` with its token lengths gathered (texture_low) where it streams them
 * (texture_low_streamed, texture_low_fused), otherwise `Config` itself: for code streams made on the fly, such as
 * the compact stream of a selective decode, which have no per-code length stream.
 */
template <class Config>
struct with_gathered_lengths {
  using type = Config;
};
template <int K, int W, int H, int T, int B, emit_strategy E>
struct with_gathered_lengths<decode_config<K, W, H, T, B, E, gather_strategy::texture_low_streamed>> {
  using type = decode_config<K, W, H, T, B, E, gather_strategy::texture_low>;
};
template <int K, int W, int H, int T, int B, emit_strategy E>
struct with_gathered_lengths<decode_config<K, W, H, T, B, E, gather_strategy::texture_low_fused>> {
  using type = decode_config<K, W, H, T, B, E, gather_strategy::texture_low>;
};

/** @brief Tag selecting the automatic configuration (tuning.cuh; the default of decode_column's
 *  Config). */
struct auto_config {};

/**
 * @brief The paper's configuration (K=6, H=1, T=256, B=4) for a given W: the named reference that
 * every improvement is measured against, side by side.
 */
template <int W>
using paper_config = decode_config<6, W, 1, 256, 4, emit_strategy::staged_bytes>;

/**
 * @brief A config's name in test names, benchmark names, logs and errors: the five numbers, then
 * a word for each strategy that is not the default.
 *
 * `k8.w16.h0.t256.b3` is K = 8 tokens per thread, W = 16, H = 0 hoisted rounds, T = 256 threads
 * per block, B = 3 blocks per SM, the default emit (register_words) and global gathers. Suffixes:
 * `.staged` (emit_strategy::staged_bytes, the paper's emit), `.short` (register_words_short:
 * tokens of at most 8 bytes); `.tex` (gather_strategy::texture_low), `.tex.lenstream`
 * (texture_low_streamed: token lengths from the per-code length stream), `.tex.fused`
 * (texture_low_fused: codes fused with their lengths). The paper's configuration is
 * `k6.w8.h1.t256.b4.staged` (or `.w16`). auto_config_name() appends `.split` where the automatic
 * choice decodes the split stream.
 */
template <class Config>
std::string config_name()
{
  return "k" + std::to_string(Config::tokens_per_thread) + ".w" +
         std::to_string(Config::low_plane_bytes) + ".h" + std::to_string(Config::hoisted_rounds) +
         ".t" + std::to_string(Config::threads_per_block) + ".b" +
         std::to_string(Config::min_blocks_per_sm) +
         (Config::emit == emit_strategy::staged_bytes           ? ".staged"
          : Config::emit == emit_strategy::register_words_short ? ".short"
                                                                : "") +
         (Config::gather == gather_strategy::texture_low            ? ".tex"
          : Config::gather == gather_strategy::texture_low_streamed ? ".tex.lenstream"
          : Config::gather == gather_strategy::texture_low_fused    ? ".tex.fused"
                                                                    : "");
}

}  // namespace fastpair
