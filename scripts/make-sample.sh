#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 fastpair contributors
# SPDX-License-Identifier: Apache-2.0
# Writes a deterministic sample string column to stdout, one row per line: web-server log lines,
# URLs, key=value records and short free text, with some empty and UTF-8 rows (~90 B a row).
# Usage: scripts/make-sample.sh [ROWS]   (default 1000000 rows, about 90 MB)
set -euo pipefail
rows=${1:-1000000}
awk -v rows="$rows" 'BEGIN {
  srand(20260401)
  split("GET POST PUT DELETE GET GET", verb, " ")
  split("api/v1/items api/v1/users static/img search checkout api/v2/orders health", path, " ")
  split("200 200 200 200 304 404 500 201", code, " ")
  split("Mozilla/5.0 curl/8.5.0 python-requests/2.31 Go-http-client/1.1", agent, " ")
  split("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda", word, " ")
  for (i = 0; i < rows; i++) {
    r = rand(); k = i % 10
    if (i % 211 == 0) { print ""; continue }
    if (k < 5) {
      printf "10.%d.%d.%d - - [01/Apr/2026:%02d:%02d:%02d +0000] \"%s /%s/%d HTTP/1.1\" %s %d \"%s\"\n",
        int(r * 256), (i * 7) % 256, (i * 13) % 256, int(i / 3600) % 24, int(i / 60) % 60, i % 60,
        verb[int(r * 6) + 1], path[(i % 7) + 1], int(r * 100000), code[(i % 8) + 1], int(r * 50000), agent[(i % 4) + 1]
    } else if (k < 7) {
      printf "https://www.example.com/%s/%s?id=%d&ref=%s\n", word[(i % 11) + 1], path[(i % 7) + 1], int(r * 1e6), word[(int(r * 11)) + 1]
    } else if (k < 9) {
      printf "user_id=%d;country=%s;plan=%s;score=%.3f;active=%s\n", int(r * 1e7), (r < 0.5 ? "DE" : "US"),
        (r < 0.3 ? "free" : "pro"), r * 100, (r < 0.8 ? "true" : "false")
    } else if (i % 3 == 0) {
      printf "caf\303\251 \346\227\245\346\234\254 %s %s %d\n", word[(i % 11) + 1], word[(int(r * 11)) + 1], i
    } else {
      printf "the %s of %s and %s over %d nights\n", word[(i % 11) + 1], word[(int(r * 11)) + 1], word[((i * 3) % 11) + 1], int(r * 100)
    }
  }
}'
