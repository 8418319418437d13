#!/usr/bin/env bash
# int16x8 twins (modelgen/make_int16x8_twins.py: int16 activations calibrated by tfcc running the
# float model, int8 weights, int64 biases, the converter's rules) run in tfcc bit-exact with
# TensorFlow Lite (LiteRT 2.5, run_ref.mjs engine litert; outputs in tests/cli/data/int16x8_twins):
#   - modelgen's transformer_encoder_float (its GELUs made int16 too: --extra-int16 GELU), on a
#     stored input: FULLY_CONNECTED, BATCH_MATMUL, SOFTMAX, MEAN, MUL, SUB, ADD, GELU in int16
#   - the same transformer as the converter makes it by default: its GELUs stay float32 between
#     DEQUANTIZE and QUANTIZE (exact53: XNNPACK's GELU interpolant in every model in TFLITE mode;
#     tfcc's erfc form was 2 LSB off LiteRT on 0.05% of the output before)
#   - the shared DeepLab v3 (TFCC_SHARED_DIR; skipped when absent): its float RESIZE_BILINEAR
#     output after int16 convolutions (exact53: XNNPACK's ibilinear; 3.8e-6 off before); its
#     [1,257,257,21] reference is kept as the SHA-256 of LiteRT's float32 output bytes
#   - the zoo's MobileNetV2 (TFCC_ZOO_DIR, default ~/.cache/tfcc-zoo; skipped when absent or
#     not the model the reference was made from): CONV_2D, DEPTHWISE_CONV_2D, ADD, PAD, MEAN
# The twins' scales are calibrated ranges rounded up to 8 significant bits, so a float kernel's
# last bits on another ISA do not move them. About 35 s (the DeepLab and MobileNetV2
# calibrations).
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
# same_sha NAME GOT.npy SHA256: the output's data bytes hash to LiteRT's
same_sha() {
  if python3 - "$2" "$3" <<'PY'
import hashlib, struct, sys
data = open(sys.argv[1], "rb").read()
hstart = 10 if data[6] == 1 else 12
hlen = struct.unpack_from("<H" if data[6] == 1 else "<I", data, 8)[0]
header = data[hstart:hstart + hlen].decode("latin1")
h = hashlib.sha256(data[hstart + hlen:]).hexdigest()
print("sha256", h)
sys.exit(0 if "'<f4'" in header and h == sys.argv[2] else 1)
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

expect_rc 0 "transformer twin, float GELU" -- python3 "$src/modelgen/make_int16x8_twins.py" \
  "$TMP/transformer_encoder_float.tflite" "$TMP/transformer_fg.int16x8.tflite" \
  --input "$data/transformer_encoder.input.npy" --calib 2 --tfcc "$TFCC"
expect_rc 0 "transformer twin, float GELU, run" -- "$TFCC" run "$TMP/transformer_fg.int16x8.tflite" \
  -i "$data/transformer_encoder.input.npy" -o "$TMP/trfg" -t 1
same transformer_float_gelu "$TMP"/trfg/0_*.npy "$data/transformer_encoder_float_gelu.int16x8.litert.npy"

f=$MODELS/deeplabv3_257_float.tflite x=$MODELS/ref/deeplabv3_257_float/input_0.npy
if [ ! -f "$f" ] || [ ! -f "$x" ]; then
  skip_part "$f or its input absent"
else
  expect_rc 0 "deeplab twin" -- python3 "$src/modelgen/make_int16x8_twins.py" "$f" \
    "$TMP/dl.int16x8.tflite" --input "$x" --calib 2 --tfcc "$TFCC"
  expect_rc 0 "deeplab twin run" -- "$TFCC" run "$TMP/dl.int16x8.tflite" -i "$x" -o "$TMP/dl" -t 2
  same_sha deeplab "$TMP"/dl/0_*.npy f2ec68a1cd78c14657732c20d46857a0c4d93e2de7bec56d6be6d3dda6bffc0d
fi

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
