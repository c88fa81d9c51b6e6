// A downstream project: includes the umbrella header from an installed fastpair and uses the
// host API (no GPU needed to run it).
#include <fastpair/fastpair.cuh>

#include <cstdio>

int main()
{
  fastpair::host_strings rows;
  rows.push_back("hello");
  rows.push_back("world");
  auto const col = fastpair::compress(rows, fastpair::codec::onpair12);
  auto const back = fastpair::decode_reference(col);
  if (!(back == rows)) { std::printf("round trip failed\n"); return 1; }
  std::printf("consumer ok: %zu rows, config %s\n", back.num_rows(),
              fastpair::config_name<fastpair::paper_config<8>>().c_str());
  return 0;
}
