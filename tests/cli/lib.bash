# Helpers sourced by the tests/cli/*.sh scripts (not a test itself: not named *.sh).
# Env from ctest: TFCC (the binary), TFCC_SHARED_DIR, TFCC_SOURCE_DIR, TFCC_BINARY_DIR.
set -u
: "${TFCC:?set TFCC to the tfcc binary}"
FAILS=0
CHECKS=0
SKIPPED=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tfcc_cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MODELS=${TFCC_SHARED_DIR:-/nonexistent}/models
have_python() { command -v python3 >/dev/null 2>&1; }
npy_tool() { python3 "$HERE/npy_tool.py" "$@"; }
# many_inputs_model DIR N: DIR/many.tflite of N inputs summed into y, DIR/xK.npy (many_inputs.py)
many_inputs_model() { python3 "$HERE/many_inputs.py" "$@"; }

ok() { CHECKS=$((CHECKS + 1)); }
bad() { CHECKS=$((CHECKS + 1)); FAILS=$((FAILS + 1)); echo "FAIL: $*" >&2; }

# expect_rc WANT DESC -- CMD...: runs CMD, stdout to $TMP/out, stderr to $TMP/err.
expect_rc() {
  local want=$1 desc=$2; shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  if [ "$want" = nonzero ]; then
    if [ $rc -ne 0 ]; then ok; else bad "$desc: exit 0, wanted failure"; fi
  elif [ $rc -eq "$want" ]; then ok
  else bad "$desc: exit $rc, wanted $want; stderr: $(head -c 400 "$TMP/err")"
  fi
}
# expect_in FILE TEXT DESC: FILE contains TEXT (fixed string).
expect_in() {
  if grep -qF -- "$2" "$1"; then ok; else bad "$3: '$2' not in $(basename "$1"): $(head -c 400 "$1")"; fi
}
# The error contract: exactly one line "tfcc <cmd>: error: ..." on stderr.
expect_error_line() {
  local cmd=$1 desc=$2
  local lines; lines=$(wc -l <"$TMP/err")
  if [ "$lines" -eq 1 ] && grep -q "^tfcc $cmd: error: " "$TMP/err"; then ok
  else bad "$desc: stderr is not one 'tfcc $cmd: error:' line: $(head -c 400 "$TMP/err")"; fi
}
# model_runnable NAME: the model loads with all operators supported.
model_runnable() {
  [ -f "$MODELS/$1.tflite" ] || return 1
  "$TFCC" inspect "$MODELS/$1.tflite" 2>/dev/null | grep -q '^unsupported: none$'
}
# flip_byte FILE OFFSET: inverts every bit of the byte at OFFSET (a write of a fixed value
# would leave the file unchanged when the byte already held it: 1 run in 256 of a ciphertext).
flip_byte() {
  local b
  b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "\\$(printf '%03o' $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# Sanitizer builds run ~10x slower: tests skip their heaviest models there.
sanitized_build() { grep -qa "__asan_init\|__ubsan_handle" "$TFCC"; }
# skip_part WHY: part of the test cannot run here; it prints "SKIP: WHY" and finish then exits
# 77 (reported as skipped by ctest) unless a check failed.
skip_part() { SKIPPED=1; echo "SKIP: $*"; }
finish() {
  echo "$(basename "$0"): $CHECKS checks, $FAILS failed$([ "$SKIPPED" -eq 0 ] || echo ", some parts SKIPPED")"
  [ "$FAILS" -eq 0 ] || exit 1
  [ "$SKIPPED" -eq 0 ] || exit 77
  exit 0
}
