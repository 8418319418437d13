#!/usr/bin/env bash
# Formats the C sources in place with clang-format and the repository's .clang-format
# (the files: scripts/format-files.sh). Usage: scripts/format.sh [FILE...] (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(bash scripts/format-files.sh --binary)
if [ $# -gt 0 ]; then
  "$cf" -i --style=file "$@"
  "$cf" -i --style=file "$@" # twice: clang-format 14 settles some constructs on its second pass
else
  bash scripts/format-files.sh | xargs -r "$cf" -i --style=file
  bash scripts/format-files.sh | xargs -r "$cf" -i --style=file
fi
