// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// A [sharded] test case's share of its loop: the sanitizer runs split their slowest test cases
// over several processes this way (scripts/gpu-verify.sh sets FASTPAIR_TEST_SHARD per process).
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace fastpair::testing {

/** $FASTPAIR_TEST_SHARD = "k/n": this process takes items k, k + n, k + 2n, ... of each sharded
 *  loop ({0, 1}, every item, when unset). A malformed value fails the test instead of running
 *  nothing. */
inline std::pair<std::size_t, std::size_t> test_shard()
{
  char const* env = std::getenv("FASTPAIR_TEST_SHARD");
  if (env == nullptr || *env == 0) return {0, 1};
  unsigned long k = 0, n = 0;
  char tail       = 0;
  bool const ok   = std::sscanf(env, "%lu/%lu%c", &k, &n, &tail) == 2 && n > 0 && k < n;
  INFO("FASTPAIR_TEST_SHARD=" << env);
  REQUIRE(ok);  // "k/n" with k < n
  return {k, n};
}

/** True when item `i` of a sharded loop is this process's (test_shard()). */
inline bool in_test_shard(std::size_t i)
{
  auto const [k, n] = test_shard();
  return i % n == k;
}

}  // namespace fastpair::testing
