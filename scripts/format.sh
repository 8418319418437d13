#!/usr/bin/env bash
# Formats the C sources in place with clang-format and the repository's .clang-format
# (the files: scripts/format-files.sh). Usage: scripts/format.sh [FILE...] (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(bash scripts/format-files.sh --binary)
if [ $# -gt 0 ]; then
  # C sources only: clang-format rewrites any file it is given (a shell script passed here once
  # came back as broken shell)
  for f in "$@"; do
    case "$f" in
      *.c | *.h) ;;
      *) echo "format.sh: $f is not a C source (.c / .h); nothing formatted" >&2; exit 2 ;;
    esac
  done
  "$cf" -i --style=file "$@"
  "$cf" -i --style=file "$@" # twice: clang-format 14 settles some constructs on its second pass
else
  bash scripts/format-files.sh | xargs -r "$cf" -i --style=file
  bash scripts/format-files.sh | xargs -r "$cf" -i --style=file
fi
