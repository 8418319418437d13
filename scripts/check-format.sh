#!/usr/bin/env bash
# Fails (exit 1) when a C source differs from what scripts/format.sh would make of it, listing
# each such file and the number of lines it would change; exit 77 without clang-format.
# scripts/test.sh runs it in stage 1.
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(bash scripts/format-files.sh --binary) || exit $?
case "$("$cf" --version)" in
  *" 14."*) ;;
  *) echo "check-format: $("$cf" --version) is not clang-format 14; its output may differ" >&2 ;;
esac
# one clang-format process per batch of files (--dry-run -Werror reports each difference)
if out=$(bash scripts/format-files.sh | xargs -r "$cf" --style=file --dry-run -Werror 2>&1); then
  echo "check-format: every file formatted"
  exit 0
fi
echo "$out" | grep -oE '^[^:]+\.(c|h|cc|cpp):' | sort | uniq -c |
  while read -r n f; do echo "${f%:}: $n places differ from clang-format (scripts/format.sh ${f%:})"; done
echo "check-format: files not formatted; run scripts/format.sh"
exit 1
