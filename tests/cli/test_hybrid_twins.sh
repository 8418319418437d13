#!/usr/bin/env bash
# Dynamic-range ("hybrid") twins of the zoo's float models (modelgen/make_hybrid_twins.py, the
# converter's dynamic-range quantization) run in tfcc and match TensorFlow Lite's outputs
# (LiteRT 2.5 default build, run_ref.mjs engine litert, in tests/cli/data/hybrid_twins) within
# the hybrid tolerance 1e-3 + 1e-3 |ref|. The twins are made in the build folder from the zoo's
# float models (TFCC_ZOO_DIR, default ~/.cache/tfcc-zoo; see ../shared/tools/zoo); skips (77)
# when they or python3 are absent, or when a zoo model is not the one the references were made
# from (sha256 below).
. "$(dirname "$0")/lib.bash"
have_python || { echo "SKIP: python3 not found"; exit 77; }
zoo=${TFCC_ZOO_DIR:-$HOME/.cache/tfcc-zoo}
src=${TFCC_SOURCE_DIR:-$(cd "$HERE/../.." && pwd)}
out=${TFCC_BINARY_DIR:-$TMP}/hybrid_twins
mkdir -p "$out" || exit 1
# twin NAME SHA256-OF-FLOAT-MODEL
twin() {
  local f=$zoo/$1.tflite x=$zoo/$1.input_nhwc.npy h=$out/$1.hybrid.tflite
  if [ ! -f "$f" ] || [ ! -f "$x" ]; then skip_part "$f or its input absent"; return; fi
  if [ "$(sha256sum "$f" | cut -d' ' -f1)" != "$2" ]; then
    skip_part "$f is not the zoo model the references were made from"; return
  fi
  [ -s "$h" ] || python3 "$src/modelgen/make_hybrid_twins.py" "$f" "$h" >/dev/null ||
    { bad "$1: make_hybrid_twins.py"; return; }
  expect_rc 0 "$1 hybrid run" -- "$TFCC" run "$h" -i "$x" -o "$TMP/$1" -t 2
  if npy_tool compare "$TMP/$1/0_output.npy" "$HERE/data/hybrid_twins/$1.hybrid.litert.npy"; then
    ok
  else
    bad "$1 hybrid twin differs from TensorFlow Lite"
  fi
}
twin mobilenet_v2 bf6001e1bd9496c4c5fa8e6f0b8ce283963054b65eef589e7dd4665d59aac255
twin resnet18 07c3a8401c5a45ecdf05240868f178183249f9223c3db4f132be8944005e0cf2
finish
