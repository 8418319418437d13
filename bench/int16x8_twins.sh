#!/usr/bin/env bash
# An int16x8 network (int16 activations, int8 weights: modelgen/make_int16x8_twins.py) against
# the same network in float32 and in int8: CPU time per run (process CPU time, which a shared
# machine does not inflate). A figure, not a target.
#
#   bench/int16x8_twins.sh [--rounds N] [--runs R] [--threads T] [--zoo DIR] [--build DIR]
#                          [--tfcc PATH] [ARCH...]
#
# ARCH: mobilenet_v2, resnet18, resnet50 (the zoo's float/int8 pairs in --zoo, default
# ~/.cache/tfcc-zoo). The int16x8 twin is made once next to them (<arch>.int16x8.tflite,
# calibrated on <arch>.input_nhwc.npy and a seeded random input; about 1 min for resnet50).
# Each round runs `tfcc bench -t T -r R --json` on every variant in turn (interleaved, so that
# load changes hit all alike); the table gives the median over the rounds of CPU ms per run and
# the ratios int16x8 / float32 and int16x8 / int8. Nothing is asserted.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD=$ROOT/build
ZOO=${TFCC_ZOO_DIR:-$HOME/.cache/tfcc-zoo}
ROUNDS=5
RUNS=5
THREADS=1
TFCC=
ARCHS=()
. "$HERE/twins_rounds.sh"
twins_parse int16x8_twins.sh 14 0 "$@"
[ ${#ARCHS[@]} -gt 0 ] || ARCHS=(mobilenet_v2 resnet18 resnet50)
TFCC=${TFCC:-$BUILD/tools/tfcc}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
[ -x "$TFCC" ] || { echo "int16x8_twins.sh: error: no tfcc at $TFCC (build it first)" >&2; exit 1; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for a in "${ARCHS[@]}"; do
  f=$ZOO/$a.tflite q=$ZOO/$a.int16x8.tflite i=$ZOO/$a.int8.tflite
  [ -f "$f" ] || { echo "int16x8_twins.sh: error: $f missing (make the zoo pairs first)" >&2; exit 1; }
  if [ ! -f "$q" ]; then
    in=()
    [ -f "$ZOO/$a.input_nhwc.npy" ] && in=(--input "$ZOO/$a.input_nhwc.npy")
    "$PY" "$ROOT/modelgen/make_int16x8_twins.py" "$f" "$q" "${in[@]}" --calib 2 --tfcc "$TFCC" >&2
  fi
  { echo "float32 $f"; [ -f "$i" ] && echo "int8 $i"; echo "int16x8 $q"; } > "$TMP/$a.list"
done
twins_rounds "$TMP" "$ROUNDS" "$RUNS" "$THREADS" "$TFCC" "" int16x8 "${ARCHS[@]}"
twins_table "$TMP" "$ROUNDS" "$THREADS" int16x8 "${ARCHS[@]}"
