// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Build-only check (compiled for sm_80, sm_90 and the newest toolkit architecture): instantiates
// the automatic configuration, the paper's configuration, a register_words configuration and one
// with the bulk-copy drain (sm_90+ code, the lanes drain on sm_80).
#include <fastpair/fastpair.cuh>

void fastpair_arch_check(fastpair::device_column const& col, fastpair::string_column_view<std::int64_t> out,
                         fastpair::string_column_view<std::int32_t> out32, cudaStream_t s)
{
  fastpair::decode_column(col, out, s);
  fastpair::decode_column<fastpair::paper_config<8>>(col, out32, s);
  fastpair::decode_column<fastpair::decode_config<8, 16, 0, 256, 3, fastpair::emit_strategy::register_words>>(col, out, s);
  fastpair::decode_column<fastpair::decode_config<8, 8, 0, 256, 3, fastpair::emit_strategy::register_words,
                                                  fastpair::drain_strategy::bulk_copy>>(col, out, s);
}
