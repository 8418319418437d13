#!/usr/bin/env bash
# Lists upward includes: a file of one layer including a header of a higher layer.
# Layers, lowest first (docs/architecture.md):
#   base -> cpu -> kernels -> ir -> ops -> format -> passes -> plan -> runtime -> API -> tools/server
# Each layer includes only its own and lower layers. Known exceptions, each with its reason, are
# in scripts/check-includes.exceptions ("<file or glob> <included header>  # why"); they are not
# reported.
# Usage: scripts/check-includes.sh [repository root]. Exit status 1 if any upward include is
# found, 0 otherwise.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
exceptions=scripts/check-includes.exceptions

# Every "dir/header" include as "file layer header layer" (layers as numbers, then names).
includes() {
  grep -rHo --include='*.[ch]' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/[^"]*"' \
    src tools server | sed 's/:[^"]*"\([^"]*\)"$/ \1/' |
    awk 'function layer(p) {
           if (p ~ /^src\/base\//) return "0 base"
           if (p ~ /^src\/cpu\//) return "1 cpu"
           if (p ~ /^src\/kernels\//) return "2 kernels"
           if (p ~ /^src\/ir\//) return "3 ir"
           if (p ~ /^src\/ops\//) return "4 ops"
           if (p ~ /^src\/format\//) return "5 format"
           if (p ~ /^src\/passes\//) return "6 passes"
           if (p ~ /^src\/plan\//) return "7 plan"
           if (p ~ /^src\/(runtime|crypto|cuda)\//) return "8 runtime"
           if (p ~ /^(tools|server)\//) return "10 tools/server"
           return ""
         }
         $2 !~ /^tfcc\// {
           f = layer($1); t = layer("src/" $2)
           if (f != "" && t != "") print $1, f, $2, t
         }'
}

# exception patterns: "glob header" pairs
declare -a ex_files=() ex_incs=()
if [ -f "$exceptions" ]; then
  while read -r f i _; do
    case "$f" in '' | '#'*) continue ;; esac
    ex_files+=("$f")
    ex_incs+=("$i")
  done <"$exceptions"
fi
excepted() { # file include
  local k
  for k in "${!ex_files[@]}"; do
    # shellcheck disable=SC2053 # the exception's file is a glob
    if [[ $1 == ${ex_files[$k]} && $2 == "${ex_incs[$k]}" ]]; then return 0; fi
  done
  return 1
}

found=0
while read -r file from from_name inc to to_name; do
  if [ "$to" -gt "$from" ] && ! excepted "$file" "$inc"; then
    echo "$file ($from_name) includes $inc ($to_name)"
    found=1
  fi
done < <(includes | sort)
exit $found
