#!/usr/bin/env bash
# tfcc command line: help, version, usage errors (no model needed).
source "$(dirname "$0")/lib.bash"

expect_rc 0 "--help" -- "$TFCC" --help
expect_in "$TMP/out" "usage: tfcc <command>" "--help"
for c in run inspect classify; do expect_in "$TMP/out" "  $c " "--help lists $c"; done
for c in run inspect classify; do
  expect_rc 0 "$c --help" -- "$TFCC" $c --help
  expect_in "$TMP/out" "usage: tfcc $c" "$c --help"
  expect_rc 0 "$c -h" -- "$TFCC" $c -h
done
expect_rc 0 "--version" -- "$TFCC" --version
expect_in "$TMP/out" "tfcc 0." "--version"

expect_rc 2 "no command" -- "$TFCC"
expect_rc 2 "unknown command" -- "$TFCC" frobnicate
if grep -q "^tfcc: error: unknown command 'frobnicate'" "$TMP/err"; then ok; else bad "unknown command message: $(cat "$TMP/err")"; fi

expect_rc 2 "run without args" -- "$TFCC" run
expect_error_line run "run without args"
expect_rc 2 "run without -o" -- "$TFCC" run m.tflite -i x.npy
expect_in "$TMP/err" "-o DIR" "run without -o"
expect_rc 2 "run without -i" -- "$TFCC" run m.tflite -o d
expect_in "$TMP/err" "no input" "run without -i"
expect_rc 2 "run bad option" -- "$TFCC" run --frob m.tflite
expect_error_line run "run bad option"
expect_in "$TMP/err" "unknown option '--frob'" "run bad option"
expect_rc 2 "run -o without value" -- "$TFCC" run m.tflite -i x.npy -o
expect_in "$TMP/err" "needs a value" "run -o without value"
expect_rc 2 "run --threads=x" -- "$TFCC" run m.tflite -i x.npy -o d --threads=x
expect_in "$TMP/err" "--threads: 'x' is not an integer" "run --threads=x"
expect_rc 2 "run two models" -- "$TFCC" run a.tflite b.tflite -i x.npy -o d
expect_error_line run "run two models"
expect_rc 1 "run missing model file" -- "$TFCC" run "$TMP/none.tflite" -i x.npy -o "$TMP/o"
expect_error_line run "run missing model file"
expect_in "$TMP/err" "$TMP/none.tflite" "run missing model file"

expect_rc 2 "inspect without model" -- "$TFCC" inspect
expect_error_line inspect "inspect without model"
expect_rc 2 "inspect --json=1" -- "$TFCC" inspect m.tflite --json=1
expect_in "$TMP/err" "takes no value" "inspect --json=1"
printf 'not a model at all, just text padding padding padding' >"$TMP/bad.tflite"
expect_rc 1 "inspect garbage" -- "$TFCC" inspect "$TMP/bad.tflite"
expect_error_line inspect "inspect garbage"

expect_rc 2 "classify without image" -- "$TFCC" classify m.tflite
expect_in "$TMP/err" "missing IMAGE" "classify without image"
expect_rc 2 "classify --top 0" -- "$TFCC" classify m.tflite x.bmp --top 0
expect_in "$TMP/err" "--top: 0 is out of range" "classify --top 0"
expect_rc 2 "classify -k0 (attached value)" -- "$TFCC" classify m.tflite x.bmp -k0
expect_in "$TMP/err" "--top: 0 is out of range" "classify -k0"
expect_rc 2 "classify -x" -- "$TFCC" classify m.tflite x.bmp -x
expect_in "$TMP/err" "unknown option '-x'" "classify -x"
expect_rc 2 "classify --std 0" -- "$TFCC" classify m.tflite x.bmp --std 0
expect_error_line classify "classify --std 0"
expect_rc 2 "classify --mean nan" -- "$TFCC" classify m.tflite x.bmp --mean nan
expect_in "$TMP/err" "not a finite number" "classify --mean nan"
finish
