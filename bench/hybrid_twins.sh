#!/usr/bin/env bash
# A dynamic-range ("hybrid") network against the same network in float32 and in int8, side by
# side: CPU time per run (process CPU time, which a shared machine does not inflate).
#
#   bench/hybrid_twins.sh [--rounds N] [--runs R] [--threads T] [--zoo DIR] [--build DIR]
#                         [--tfcc PATH] [--before PATH] [ARCH...]
#
# ARCH: mobilenet_v2, resnet18, resnet50 (the zoo's float/int8 pairs in --zoo, default
# ~/.cache/tfcc-zoo, from /work/shared/tools/zoo) and yolov8n (../shared/models'
# yolov8n_dynamic_range against its float32 twin). The twins are made once by
# modelgen/make_hybrid_twins.py next to the originals (--zoo folder: <arch>.hybrid.tflite,
# yolov8n.float.tflite). Each round runs `tfcc bench -t T -r R --json` on every variant in turn
# (interleaved, so that load changes hit all alike); the table gives the median over the rounds
# of CPU ms per run and the ratios hybrid / float32 and hybrid / int8. --before PATH: another
# tfcc binary (an older build) also runs the hybrid model in each round ("hybrid before").
# Benchmarks are not tests: nothing is asserted.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BUILD=$ROOT/build
ZOO=${TFCC_ZOO_DIR:-$HOME/.cache/tfcc-zoo}
SHARED=${TFCC_SHARED_DIR:-$ROOT/../shared}
ROUNDS=5
RUNS=10
THREADS=1
TFCC=
BEFORE=
ARCHS=()
. "$HERE/twins_rounds.sh"
twins_parse hybrid_twins.sh 16 1 "$@"
[ ${#ARCHS[@]} -gt 0 ] || ARCHS=(mobilenet_v2 resnet18 yolov8n)
TFCC=${TFCC:-$BUILD/tools/tfcc}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
[ -x "$TFCC" ] || { echo "hybrid_twins.sh: error: no tfcc at $TFCC (build it first)" >&2; exit 1; }

variants() { # ARCH -> "label path" lines
  local a=$1
  if [ "$a" = yolov8n ]; then
    local h=$SHARED/models/yolov8n_dynamic_range.tflite f=$ZOO/yolov8n.float.tflite
    [ -f "$h" ] || { echo "hybrid_twins.sh: error: $h missing" >&2; exit 1; }
    [ -f "$f" ] || "$PY" "$ROOT/modelgen/make_hybrid_twins.py" --dequantize "$h" "$f" >&2
    echo "float32 $f"; echo "hybrid $h"
    return
  fi
  local f=$ZOO/$a.tflite h=$ZOO/$a.hybrid.tflite i=$ZOO/$a.int8.tflite
  [ -f "$f" ] || { echo "hybrid_twins.sh: error: $f missing (make the zoo pairs first)" >&2; exit 1; }
  [ -f "$h" ] || "$PY" "$ROOT/modelgen/make_hybrid_twins.py" "$f" "$h" >&2
  echo "float32 $f"; echo "hybrid $h"
  [ -f "$i" ] && echo "int8 $i"
  return 0
}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for a in "${ARCHS[@]}"; do variants "$a" > "$TMP/$a.list"; done
twins_rounds "$TMP" "$ROUNDS" "$RUNS" "$THREADS" "$TFCC" "$BEFORE" hybrid "${ARCHS[@]}"
twins_table "$TMP" "$ROUNDS" "$THREADS" hybrid "${ARCHS[@]}"
