// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#define FASTPAIR_VERSION_MAJOR 0
#define FASTPAIR_VERSION_MINOR 1
#define FASTPAIR_VERSION_PATCH 0
