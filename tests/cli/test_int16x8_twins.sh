#!/usr/bin/env bash
# int16x8 twins (modelgen/make_int16x8_twins.py: int16 activations calibrated by tfcc running the
# float model, int8 weights, int64 biases, the converter's rules) run in tfcc bit-exact with
# TensorFlow Lite (LiteRT 2.5, run_ref.mjs engine litert; outputs in tests/cli/data/int16x8_twins):
#   - modelgen's transformer_encoder_float (its GELUs made int16 too: --extra-int16 GELU), on a
#     stored input: FULLY_CONNECTED, BATCH_MATMUL, SOFTMAX, MEAN, MUL, SUB, ADD, GELU in int16
#   - the zoo's MobileNetV2 (TFCC_ZOO_DIR, default ~/.cache/tfcc-zoo; skipped when absent or
#     not the model the reference was made from): CONV_2D, DEPTHWISE_CONV_2D, ADD, PAD, MEAN
# The twins' scales are calibrated ranges rounded up to 8 significant bits, so a float kernel's
# last bits on another ISA do not move them. About 20 s (the MobileNetV2 calibration).
. "$(dirname "$0")/lib.bash"
have_python || { echo "SKIP: python3 not found"; exit 77; }
zoo=${TFCC_ZOO_DIR:-$HOME/.cache/tfcc-zoo}
src=${TFCC_SOURCE_DIR:-$(cd "$HERE/../.." && pwd)}
data=$HERE/data/int16x8_twins
# same NAME GOT.npy REF.npy: the float32 outputs (DEQUANTIZE of int16) are bit-identical
same() {
  if python3 - "$2" "$3" <<'PY'
import os, sys
sys.path.insert(0, os.environ["SRC_MODELGEN"])
import npy
_, gs, g = npy.load(sys.argv[1])
_, rs, r = npy.load(sys.argv[2])
bad = sum(1 for a, b in zip(g, r) if a != b)
print("%d of %d differ" % (bad, len(r)))
sys.exit(0 if gs == rs and bad == 0 else 1)
PY
  then ok; else bad "$1: the int16x8 twin differs from TensorFlow Lite"; fi
}
export SRC_MODELGEN=$src/modelgen

python3 "$src/modelgen/build.py" --out "$TMP" --net transformer_encoder_float >/dev/null ||
  bad "build.py transformer_encoder_float"
expect_rc 0 "transformer twin" -- python3 "$src/modelgen/make_int16x8_twins.py" \
  "$TMP/transformer_encoder_float.tflite" "$TMP/transformer.int16x8.tflite" \
  --input "$data/transformer_encoder.input.npy" --calib 2 --extra-int16 GELU --tfcc "$TFCC"
expect_in "$TMP/out" "GELU:2" "transformer twin: GELU in int16"
expect_rc 0 "transformer twin run" -- "$TFCC" run "$TMP/transformer.int16x8.tflite" \
  -i "$data/transformer_encoder.input.npy" -o "$TMP/tr" -t 1
same transformer "$TMP"/tr/0_*.npy "$data/transformer_encoder.int16x8.litert.npy"

f=$zoo/mobilenet_v2.tflite x=$zoo/mobilenet_v2.input_nhwc.npy
if [ ! -f "$f" ] || [ ! -f "$x" ]; then
  skip_part "$f or its input absent"
elif [ "$(sha256sum "$f" | cut -d' ' -f1)" != bf6001e1bd9496c4c5fa8e6f0b8ce283963054b65eef589e7dd4665d59aac255 ]; then
  skip_part "$f is not the zoo model the reference was made from"
else
  expect_rc 0 "mobilenet_v2 twin" -- python3 "$src/modelgen/make_int16x8_twins.py" "$f" \
    "$TMP/mnv2.int16x8.tflite" --input "$x" --calib 2 --tfcc "$TFCC"
  expect_rc 0 "mobilenet_v2 twin run" -- "$TFCC" run "$TMP/mnv2.int16x8.tflite" -i "$x" \
    -o "$TMP/mnv2" -t 2
  same mobilenet_v2 "$TMP"/mnv2/0_*.npy "$data/mobilenet_v2.int16x8.litert.npy"
fi
finish
