// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
/**
 * @file fastpair.hpp
 * @brief Umbrella header of the host-only part of fastpair (compiles with g++ alone): the column
 * format, validation, the CPU reference decoder, GPU table preparation, encoders, `.fpc` files,
 * row-level cascades, predicates on codes and the DSV reference parser.
 */
#pragma once

#include <fastpair/cascade.hpp>
#include <fastpair/dsv.hpp>
#include <fastpair/encode.hpp>
#include <fastpair/error.hpp>
#include <fastpair/format.hpp>
#include <fastpair/io.hpp>
#include <fastpair/planes.hpp>
#include <fastpair/predicates.hpp>
#include <fastpair/prepare_options.hpp>
#include <fastpair/reference.hpp>
#include <fastpair/validate.hpp>
#include <fastpair/version.hpp>
