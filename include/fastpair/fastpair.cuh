// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file fastpair.cuh
 * @brief Umbrella header: everything in fastpair.hpp plus the GPU decoder (needs nvcc).
 * The other GPU features have their own headers, included on demand to keep compile times short:
 * select.cuh (selective decode), selection.cuh (device selections), predicates.cuh (predicates on
 * codes), cascade.cuh (cascaded columns), dsv.cuh (DSV parsing), fpc_streamer.cuh (a `.fpc` image
 * decoded row group by row group).
 */
#pragma once

#include <fastpair/config.cuh>
#include <fastpair/decode.cuh>
#include <fastpair/device_column.cuh>
#include <fastpair/fastpair.hpp>
