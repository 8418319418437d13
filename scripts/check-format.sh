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
bad=0
while read -r f; do
  n=$("$cf" --style=file "$f" | diff "$f" - | grep -c '^[<>]' || true)
  if [ "$n" -gt 0 ]; then
    echo "$f: $n lines differ from clang-format (scripts/format.sh $f)"
    bad=$((bad + 1))
  fi
done < <(bash scripts/format-files.sh)
if [ $bad -gt 0 ]; then
  echo "check-format: $bad files not formatted; run scripts/format.sh"
  exit 1
fi
echo "check-format: every file formatted"
