// Scratch smoke + quick timing of the lean GPU prepare path (not part of the project).
#include <fastpair/fastpair.cuh>
#include <fastpair/encode.hpp>
#include <fastpair/io.hpp>
#include <fastpair/reference.hpp>
#include <utils/data.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
using namespace fastpair;
static int failures = 0;
#define CHECK(c, ...) do { if (!(c)) { ++failures; std::printf("FAIL %s:%d: ", __FILE__, __LINE__); std::printf(__VA_ARGS__); std::printf("\n"); } } while (0)

template <class O>
void compare(compressed_column const& col, string_column<O> const& got, std::uint64_t r0, std::uint64_t r1, char const* what)
{
  auto h = got.to_host();
  auto ref = decode_reference(col, r0, r1);
  bool ok = h.chars == ref.chars && h.offsets.size() == ref.offsets.size();
  for (std::size_t i = 0; ok && i < ref.offsets.size(); ++i) ok = std::uint64_t(h.offsets[i]) == ref.offsets[i];
  CHECK(ok, "%s rows [%llu,%llu) chars %zu/%zu", what, (unsigned long long)r0, (unsigned long long)r1, h.chars.size(), ref.chars.size());
}

void check_column(compressed_column const& col, char const* name)
{
  auto bytes = serialize(col);
  void* pinned = nullptr;
  cudaMallocHost(&pinned, bytes.size());
  std::memcpy(pinned, bytes.data(), bytes.size());
  void* dev = nullptr;
  cudaMalloc(&dev, bytes.size());
  cudaMemcpy(dev, bytes.data(), bytes.size(), cudaMemcpyHostToDevice);
  std::uint64_t const R = col.num_rows();
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {{0, R}, {R / 3, R}, {0, R / 2}, {R > 3 ? 3 : 0, R > 1500 ? 1500 : R}, {R / 2, R / 2}};
  if (R > 2048) ranges.push_back({1024, 2048});
  if (R > 0) ranges.push_back({R - 1, R});
  for (int variant = 0; variant < 5; ++variant) {
    prepare_options opt;
    if (variant == 1) opt.row_offsets = true;
    if (variant == 2) opt.validate = false;
    if (variant == 3) opt.length_stream = opt.fused_codes = true;
    if (variant == 4) opt.regenerate_sidecar = true;
    try {
      device_column d = variant == 0 ? device_column::prepare_fpc_host(bytes.data(), bytes.size(), {}, opt)
                      : variant == 1 ? device_column::prepare_fpc_host(pinned, bytes.size(), {}, opt)
                      : variant == 2 ? device_column::prepare_fpc_device(dev, bytes.size(), {}, opt)
                                     : device_column::prepare(col, {}, opt);
      for (auto [a, b] : ranges) {
        compare(col, decompress<std::int64_t>(d, a, b), a, b, name);
        compare(col, decompress<std::int32_t>(d, a, b), a, b, name);
      }
      CHECK(d.read_and_clear_errors() == 0, "%s errors", name);
    } catch (std::exception const& e) {
      CHECK(false, "%s variant %d threw %s", name, variant, e.what());
    }
  }
  // corrupt: flip a code byte
  if (col.num_codes > 4) {
    auto bad = bytes;
    auto h = parse_fpc_header(bad.data(), bad.size());
    bad[h.layout.payload_at[3] + 1] ^= 0x40;
    try { device_column::prepare_fpc_host(bad.data(), bad.size()); CHECK(false, "%s corrupt accepted", name); }
    catch (format_error const& e) { std::printf("  ok corrupt: %s\n", e.what()); }
  }
  cudaFreeHost(pinned);
  cudaFree(dev);
}

host_strings synthetic(int kind)
{
  host_strings s;
  for (int r = 0; r < 5000; ++r) {
    std::string v;
    if (kind == 0) v = (r % 7 == 0) ? "" : std::string(1 + r % 40, char('a' + r % 26));
    else if (kind == 1) v = "Clerk#00000" + std::to_string(100 + r % 900);
    else v = std::string(r % 13 == 0 ? 3000 : 5, 'x') + std::to_string(r);
    s.push_back(v);
  }
  return s;
}

struct timing { double min, med; };
template <class F>
timing time_it(F&& f, int reps = 10)
{
  std::vector<double> t;
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  f();
  for (int i = 0; i < reps; ++i) {
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return {t[0], t[t.size() / 2]};
}

int main()
{
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  codec const codecs[] = {codec::onpair16, codec::onpair12, codec::fsst12};
  for (int k = 0; k < 3; ++k)
    for (codec c : codecs) check_column(compress(synthetic(k), c), "synthetic");
  for (char const* nm : {"tpch_o_clerk", "en_wiki", "log_windows", "tpch_l_shipinstruct"})
    for (codec c : codecs) check_column(compress(testing::load_shared_column(nm, 256 << 10), c), nm);
  std::printf("correctness failures: %d\n", failures);

  for (char const* nm : {"tpch_o_clerk", "log_windows", "tpch_l_comment"})
    for (codec c : codecs) {
      auto col  = compress(testing::load_shared_column(nm, 4 << 20), c);
      auto big  = tile_column(col, 1ull << 30);
      auto file = serialize(big);
      void* pinned = nullptr;
      cudaMallocHost(&pinned, file.size());
      std::memcpy(pinned, file.data(), file.size());
      device_column lean = device_column::prepare_fpc_host(pinned, file.size());
      prepare_options old;
      old.length_stream = old.fused_codes = old.split_stream = old.row_offsets = true;
      device_column acc = device_column::prepare(big, {}, old);
      std::uint64_t const n = big.decoded_bytes(), R = big.num_rows();
      device_buffer<char> chars(n, {});
      device_buffer<std::int64_t> off(R + 1, {});
      string_column_view<std::int64_t> out{off.data(), chars.data(), R, n};
      string_column_view<std::int64_t> out_chars{nullptr, chars.data(), R, n};
      auto t_lean = time_it([&] { decode_column(lean, out); });
      auto t_lean_c = time_it([&] { decode_column(lean, out_chars); });
      auto off_only = [&] {
        if (lean.low_plane_bytes() == 8)
          detail::launch_row_offsets_from_codes(lean.view<8>(), lean.counts_view(), lean.device_block_codes(), lean.device_block_bytes(), 0, R, 0, n, off.data(), false, {});
        else
          detail::launch_row_offsets_from_codes(lean.view<16>(), lean.counts_view(), lean.device_block_codes(), lean.device_block_bytes(), 0, R, 0, n, off.data(), false, {});
      };
      auto t_off = time_it(off_only);
      std::printf("  offsets pass alone %.3f/%.3f ms (%llu rows)\n", t_off.min, t_off.med, (unsigned long long)R);
      auto t_acc = time_it([&] { decode_column(acc, out); });
      auto t_acc_c = time_it([&] { decode_column(acc, out_chars); });
      device_buffer<char> other(n, {});
      auto t_d2d = time_it([&] { cudaMemcpyAsync(other.data(), chars.data(), n, cudaMemcpyDeviceToDevice); });
      auto t_prep = time_it([&] { device_column d = device_column::prepare_fpc_host(pinned, file.size()); }, 5);
      auto t_h2d = time_it([&] { cudaMemcpyAsync(other.data(), pinned, file.size(), cudaMemcpyHostToDevice); }, 5);
      bool same = decompress(lean).to_host().chars == decompress(acc).to_host().chars;
      auto gbs = [&](timing t) { return n / t.min / 1e6; };
      auto gbm = [&](timing t) { return n / t.med / 1e6; };
      std::printf("%-16s %-8s v1 %.0f MB v2 %.0f MB dec %.0f MB | dev lean %.3fx (%s) acc %.3fx | prep %.1f/%.1f ms h2d %.2f ms | "
                  "lean %.0f/%.0f chars-only %.0f/%.0f | acc %.0f/%.0f chars-only %.0f/%.0f | d2d %.0f/%.0f GB/s | cfg %s / %s same=%d\n",
                  nm, codec_name(c), fpc_file_bytes(big, 1) / 1e6, file.size() / 1e6, n / 1e6,
                  double(lean.device_bytes()) / file.size(), "x stored", double(acc.device_bytes()) / file.size(),
                  t_prep.min, t_prep.med, t_h2d.min, gbs(t_lean), gbm(t_lean), gbs(t_lean_c), gbm(t_lean_c), gbs(t_acc), gbm(t_acc),
                  gbs(t_acc_c), gbm(t_acc_c), 2 * gbs(t_d2d), 2 * gbm(t_d2d), auto_config_name(lean).c_str(),
                  auto_config_name(acc).c_str(), int(same));
      std::fflush(stdout);
      cudaFreeHost(pinned);
    }
  return failures != 0;
}
