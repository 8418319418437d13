#!/usr/bin/env bash
# The C files scripts/format.sh formats and scripts/check-format.sh checks (one a line): every
# tracked .c / .h under src/ include/ tools/ tests/ examples/ python/src/. Also picks the
# clang-format binary: $CLANG_FORMAT, else clang-format-14, else clang-format (the config,
# .clang-format, is written for clang-format 14, Debian 12's; other versions format a few
# constructs differently).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --binary ]; then
  for c in "${CLANG_FORMAT:-}" clang-format-14 clang-format; do
    if [ -n "$c" ] && command -v "$c" >/dev/null; then echo "$c"; exit 0; fi
  done
  echo "clang-format not found (apt-get install clang-format; scripts/install-deps.sh)" >&2
  exit 77
fi
git ls-files -- src include tools tests examples python/src | grep -E '\.(c|h)$'
