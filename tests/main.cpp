// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Catch2 v2 runner shared by every test executable. Catch2 2.13 has no SKIP, so when no CUDA
// device is present the `[gpu]` cases are excluded from the run and counted: the runner prints
// how many it skipped, and a test binary holding only GPU cases prints FASTPAIR_NO_GPU so that
// ctest reports it as skipped (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt). Listing
// (--list-tests, --list-test-names-only, --list-tags) runs nothing and lists every case, so that
// scripts (gpu-verify.sh) can enumerate the GPU cases on any machine.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char* argv[])
{
  Catch::Session session;
  if (int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;

  int devices = 0;
  bool const has_gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  (void)cudaGetLastError();
  auto& cfg = session.configData();
  bool const listing = cfg.listTests || cfg.listTestNamesOnly || cfg.listTags;
  if (!has_gpu && !listing) {  // listing runs nothing: every case is listed, GPU or not
    // Count the [gpu] cases that the user's filter would have run.
    Catch::TestSpec const spec = session.config().testSpec();
    std::size_t gpu_cases = 0, total = 0;
    for (auto const& tc : Catch::getAllTestCasesSorted(session.config())) {
      if (spec.hasFilters() && !spec.matches(tc)) continue;
      ++total;
      for (auto const& tag : tc.tags)
        if (tag == "gpu") { ++gpu_cases; break; }
    }
    if (gpu_cases > 0) {
      // Restrict the run to the non-GPU cases the filter selects. Catch2 ORs separate entries and
      // comma-separated alternatives, so "~[gpu]" goes in front of each alternative (in front:
      // after a name pattern, "*~[gpu]" would be read as one name and match nothing).
      std::vector<std::string> filters = cfg.testsOrTags;
      if (filters.empty()) filters.push_back("");
      cfg.testsOrTags.clear();
      for (auto const& f : filters) {
        std::string spec = "~[gpu]";
        for (std::size_t i = 0; i < f.size(); ++i) {
          spec += f[i];
          if (f[i] == '\\' && i + 1 < f.size()) spec += f[++i];  // an escaped character
          else if (f[i] == ',') spec += "~[gpu]";
        }
        cfg.testsOrTags.push_back(spec);
      }
      session.useConfigData(cfg);
    }
    std::printf("fastpair: no CUDA device: skipped %zu [gpu] test cases (of %zu selected)\n",
                gpu_cases, total);
    if (gpu_cases == total && total > 0) {
      std::printf("FASTPAIR_NO_GPU: every selected case needs a GPU\n");
      return 0;
    }
  }
  return session.run();
}
