// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Build-only check, compiled once per architecture of the support matrix (75, 80, 86, 89, 90, 100,
// 120; cmake/fastpair_header_tests.cmake): calls every public GPU entry point, so that every
// kernel the library can launch is compiled for every architecture. Nothing here runs.
#include <fastpair/cascade.cuh>
#include <fastpair/dsv.cuh>
#include <fastpair/fastpair.cuh>
#include <fastpair/fpc_streamer.cuh>
#include <fastpair/predicates.cuh>
#include <fastpair/select.cuh>
#include <fastpair/selection.cuh>

#include <cstdint>
#include <string_view>

namespace fp = fastpair;

void fastpair_arch_check(fp::compressed_column const& host, fp::strings_view rows, fp::string_column_view<std::int64_t> out,
                         fp::string_column_view<std::int32_t> out32, std::uint64_t* words, cudaStream_t s)
{
  // Preparation and decoding: the automatic config, the paper's, register_words ones with LSU and
  // texture gathers; row ranges; the allocating forms.
  fp::device_column const col = fp::device_column::prepare(host, s);
  fp::decode_column(col, out, s);
  fp::decode_column(col, 0, col.num_rows(), out32, s);
  fp::decode_column<fp::paper_config<8>>(col, out32, s);
  fp::decode_column<fp::paper_config<16>>(col, out, s);
  fp::decode_column<fp::decode_config<8, 16, 0, 256, 3, fp::emit_strategy::register_words>>(col, out, s);
  fp::decode_column<fp::decode_config<8, 8, 0, 256, 3, fp::emit_strategy::register_words,
                                      fp::gather_strategy::texture_low>>(col, out, s);
  (void)fp::decompress(col, s);
  (void)fp::decompress<std::int32_t>(col, 0, col.num_rows(), s);
  (void)fp::auto_config_name(col);
  (void)col.read_and_clear_errors(s);
  // A stored image, row group by row group.
  fp::fpc_streamer streamer;
  streamer.decode(words, 0, [](fp::fpc_group<std::int64_t> const&) {});
  streamer.decode<std::int32_t>(words, 0, [](fp::fpc_group<std::int32_t> const&) {});

  // Predicates on the codes and the selection forms.
  fp::device_bitmask const m = fp::select_equal(col, host, "a", words, s);
  (void)fp::select_in(col, host, {"a", "b"}, words, s);
  (void)fp::select_prefix(col, host, "a", words, s);
  (void)fp::select_substring(col, host, "a", words, s);
  (void)fp::select_suffix(col, host, "a", words, s);
  fp::device_row_ids_buffer const ids      = fp::to_row_ids(m, s);
  fp::device_row_ranges_buffer const runs  = fp::to_row_ranges(m, s);
  fp::device_row_ranges_buffer const runs2 = fp::to_row_ranges(ids.view(), s);
  (void)runs2;

  // Selective decode, each selection form and strategy.
  fp::select_plan const plan = fp::make_select_plan(col, m, s);
  fp::decode_selected(col, plan, out, s, fp::select_strategy::selective);
  fp::decode_selected(col, plan, out32, s, fp::select_strategy::decode_then_filter);
  fp::decode_selected(col, ids.view(), out, s);
  (void)fp::decompress_selected(col, runs.view(), s);

  // Cascades.
  fp::any_column const any = fp::encode_auto_cascade(rows);
  fp::device_any_column const dany = fp::device_any_column::prepare(any, s);
  fp::decode_column(dany, out, s);
  (void)fp::decompress<std::int32_t>(dany, s);

  // DSV parsing, in device memory and streamed from host memory.
  fp::dsv_dialect const d{};
  std::string_view const text = "a,b\n";
  (void)fp::parse_dsv(text.data(), text.size(), d, s);
  (void)fp::parse_dsv_streamed_to_host(text, d);
}
