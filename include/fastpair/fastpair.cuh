// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file fastpair.cuh
 * @brief Umbrella header: everything in fastpair.hpp plus the GPU decoder (needs nvcc).
 */
#pragma once

#include <fastpair/config.cuh>
#include <fastpair/decode.cuh>
#include <fastpair/device_column.cuh>
#include <fastpair/fastpair.hpp>
