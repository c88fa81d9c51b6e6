// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// The sanitizer runs split a [sharded] GPU test case's loop over processes (tests/utils/shard.hpp,
// scripts/gpu-verify.sh): the shards of one n must take every item exactly once.
#include "utils/shard.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

namespace ft = fastpair::testing;

namespace {

/** Sets FASTPAIR_TEST_SHARD for the scope, restoring what was there. */
struct shard_env {
  explicit shard_env(char const* value)
  {
    if (char const* old = std::getenv("FASTPAIR_TEST_SHARD")) saved = old, had = true;
    if (value) ::setenv("FASTPAIR_TEST_SHARD", value, 1);
    else ::unsetenv("FASTPAIR_TEST_SHARD");
  }
  ~shard_env() { had ? ::setenv("FASTPAIR_TEST_SHARD", saved.c_str(), 1) : ::unsetenv("FASTPAIR_TEST_SHARD"); }
  std::string saved;
  bool had = false;
};

}  // namespace

TEST_CASE("test shards: unset takes every item; k/n for k < n partition the items", "[shard]")
{
  {
    shard_env const env(nullptr);
    CHECK(ft::test_shard() == std::pair<std::size_t, std::size_t>{0, 1});
    for (std::size_t i = 0; i < 40; ++i) CHECK(ft::in_test_shard(i));
  }
  for (std::size_t n : {1u, 3u, 4u, 12u}) {
    std::vector<int> taken(40, 0);
    for (std::size_t k = 0; k < n; ++k) {
      shard_env const env((std::to_string(k) + "/" + std::to_string(n)).c_str());
      CHECK(ft::test_shard() == std::pair<std::size_t, std::size_t>{k, n});
      for (std::size_t i = 0; i < taken.size(); ++i) taken[i] += ft::in_test_shard(i);
    }
    INFO("n = " << n);
    for (int t : taken) CHECK(t == 1);
  }
}
