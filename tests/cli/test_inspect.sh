#!/usr/bin/env bash
# tfcc inspect on the shared models: text and JSON.
source "$(dirname "$0")/lib.bash"

# a per-axis DEQUANTIZE of constant weights (QAT files, sweep63c) is folded at load and never runs:
# no KERNEL_FALLBACK note for it; a node that runs still notes its fallback once
# (quantize_int16_to_int32 below)
conf=${TFCC_SOURCE_DIR:-$HERE/../..}/tests/ops/conformance
for m in dequantize_u4_const_per_channel_v8 dequantize_i2_const_per_channel_v7; do
  expect_rc 0 "inspect $m" -- "$TFCC" inspect "$conf/$m.tflite"
  if grep -q "KERNEL_FALLBACK" "$TMP/err"; then bad "$m: $(head -c 300 "$TMP/err")"; else ok; fi
done

# a model whose decode signature cannot run (a Flex op; docs/runtime.md, "Subgraphs that cannot
# run"): subgraph 0 is inspected as usual (MACs, dynamic tensors, memory), decode is marked with
# its cause, in text and JSON
cf=${TFCC_SOURCE_DIR:-$HERE/../..}/tests/models/data/control_flow
cause="unsupported: CUSTOM:FlexRestore at subgraph 1 node 0"
expect_rc 0 "inspect flex_decode" -- "$TFCC" inspect --memory "$cf/signatures.flex_decode.tflite"
if grep -qx "  encode (subgraph 0): inputs x -> outputs code" "$TMP/out"; then ok; else bad "flex_decode: encode: $(grep encode "$TMP/out")"; fi
expect_in "$TMP/out" "  decode (subgraph 1): inputs code_in -> outputs out; cannot run: $cause" "flex_decode: decode"
expect_in "$TMP/out" "entry (runs when its session runs); cannot run: $cause" "flex_decode: subgraph 1"
expect_in "$TMP/out" "unsupported: CUSTOM:FlexRestore at subgraph 1 node 0" "flex_decode: unsupported"
expect_in "$TMP/out" "dynamic tensors: none" "flex_decode: subgraph 0's session"
expect_in "$TMP/out" "memory (one session at the stored shapes):" "flex_decode: memory"
if grep -q "unknown\|no session" "$TMP/out"; then bad "flex_decode: $(grep "unknown\|no session" "$TMP/out")"; else ok; fi
expect_rc 0 "inspect bad_decode" -- "$TFCC" inspect "$cf/signatures.bad_decode.tflite"
if grep -q "^  decode (subgraph 1): .*; cannot run: .*ADD" "$TMP/out"; then ok; else bad "bad_decode: $(grep decode "$TMP/out")"; fi
if have_python; then
  "$TFCC" inspect --json "$cf/signatures.flex_decode.tflite" >"$TMP/flex.json"
  if python3 - "$TMP/flex.json" "$cause" <<'PY'
import json, sys
d, cause = json.load(open(sys.argv[1])), sys.argv[2]
assert [(k, s["subgraph"], s["cannot_run"]) for k, s in d["signatures"].items()] == [
    ("encode", 0, None), ("decode", 1, cause)], d["signatures"]
assert [s["cannot_run"] for s in d["subgraphs"]] == [None, cause], d["subgraphs"]
assert d["total_macs"] is not None and d["dynamic_tensors"] == [], d
PY
  then ok; else bad "flex_decode JSON"; fi
fi

[ -d "$MODELS" ] || { echo "SKIP: shared models not found"; exit 77; }

m=$MODELS/mobilenet_v2_224_quant.tflite
expect_rc 0 "inspect text" -- "$TFCC" inspect "$m"
expect_in "$TMP/out" "tensors: 174" "tensor count"
expect_in "$TMP/out" "  0  input  uint8 [1,224,224,3]  scale=0.0078125 zero_point=128" "input line"
expect_in "$TMP/out" "  0  MobilenetV2/Predictions/Softmax  uint8 [1,1001]  scale=0.00390625 zero_point=0" "output line"
expect_in "$TMP/out" "operators (66, 6 types):" "operator total"
if grep -Eq '^  CONV_2D +36  1 ' "$TMP/out"; then ok; else bad "CONV_2D row: $(grep CONV_2D "$TMP/out")"; fi
if grep -Eq '^  DEPTHWISE_CONV_2D +17  1 ' "$TMP/out"; then ok; else bad "DEPTHWISE row"; fi
expect_in "$TMP/out" "description: MLIR Converted." "description"
expect_in "$TMP/out" "constant bytes: " "constant bytes"
expect_in "$TMP/out" "unsupported: " "unsupported line"

# dynamic batch: signature shown
expect_rc 0 "inspect hello_world" -- "$TFCC" inspect "$MODELS/hello_world_int8.tflite"
expect_in "$TMP/out" "int8 [1,1] (signature [-1,1])" "signature"
expect_in "$TMP/out" "FULLY_CONNECTED" "FC row"

# the file's operators, and tfcc's plan after its graph passes (fused operators) apart
expect_rc 0 "inspect deeplabv3_257_float" -- "$TFCC" inspect "$MODELS/deeplabv3_257_float.tflite"
sed -n '/^operators/,/^total MACs/p' "$TMP/out" >"$TMP/file_ops"
sed -n '/^plan after graph passes/,/^unsupported/p' "$TMP/out" >"$TMP/plan_ops"
expect_in "$TMP/file_ops" "operators (70, 6 types):" "file operator total"
if grep -q EXPAND_DEPTHWISE_CONV_2D "$TMP/file_ops"; then bad "tfcc-internal EXPAND_DEPTHWISE_CONV_2D listed among the file's operators"; else ok; fi
if grep -Eq '^  DEPTHWISE_CONV_2D +17 ' "$TMP/file_ops"; then ok; else bad "file DEPTHWISE row: $(grep DEPTHWISE "$TMP/file_ops")"; fi
if grep -Eq '^  EXPAND_DEPTHWISE_CONV_2D +[1-9]' "$TMP/plan_ops"; then ok; else bad "plan lacks the fused EXPAND_DEPTHWISE_CONV_2D: $(cat "$TMP/plan_ops")"; fi

# per-axis quantization does not show up on I/O; versions listed
expect_rc 0 "inspect tf2 ptq" -- "$TFCC" inspect "$MODELS/tf2_mobilenet_v2_224_ptq.tflite"
if grep -Eq '^  CONV_2D +36  3 ' "$TMP/out"; then ok; else bad "tf2 CONV_2D v3 row"; fi
expect_in "$TMP/out" "scale=0.00784313772 zero_point=127" "tf2 input quant"

# warnings come from the plan's load only: the pass-free load of the file's own operators saw
# float16 / sparse filters before fold_constants made them constants and wrote "reference kernel,
# filter or bias is not constant" for CONV_2Ds that run on the fast kernels (sweep31: every
# float16-weight model); a genuine fallback is written once, not once per load
expect_rc 0 "inspect face_landmark" -- "$TFCC" inspect "$MODELS/face_landmark.tflite"
if grep -q "KERNEL_FALLBACK" "$TMP/err"; then bad "face_landmark: $(head -c 300 "$TMP/err")"; else ok; fi
expect_rc 0 "inspect hand_landmark_lite" -- "$TFCC" inspect "$MODELS/hand_landmark_lite.tflite"
if grep -q "KERNEL_FALLBACK" "$TMP/err"; then bad "hand_landmark_lite: $(head -c 300 "$TMP/err")"; else ok; fi
expect_rc 0 "inspect quantize_int16_to_int32" -- "$TFCC" inspect "$MODELS/quantize_int16_to_int32.tflite"
if [ "$(grep -c "KERNEL_FALLBACK.*QUANTIZE" "$TMP/err")" = 1 ]; then ok; else bad "int16 QUANTIZE fallback lines: $(cat "$TMP/err")"; fi

# every shared model inspects as JSON; the JSON parses and is consistent
for f in "$MODELS"/*.tflite; do
  name=$(basename "$f" .tflite)
  expect_rc 0 "inspect --json $name" -- "$TFCC" inspect --json "$f"
  cp "$TMP/out" "$TMP/$name.json"
done
if have_python; then
  if python3 - "$TMP"/*.json <<'PY'
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    assert d["operator_count"] == sum(o["count"] for o in d["operators"]), path + ": op counts"
    assert d["plan"]["operator_count"] == sum(o["count"] for o in d["plan"]["operators"]), path + ": plan op counts"
    assert d["plan"]["operator_count"] <= d["operator_count"], path + ": the plan has more nodes than the file"
    assert not any(o["name"] == "EXPAND_DEPTHWISE_CONV_2D" for o in d["operators"]), path + ": internal op in the file's"
    for t in d["inputs"] + d["outputs"]:
        assert len(t["shape"]) == len(t["signature"]), path + ": signature rank"
        assert isinstance(t["dtype"], str)
    assert isinstance(d["unsupported"], str)
    if d["subgraphs"][0]["cannot_run"] is None:  # subgraph 0 runs: its MACs are known
        assert d["total_macs"] == sum(o["macs"] for o in d["operators"]), path + ": mac total"
    else:
        assert d["total_macs"] is None, path
PY
  then ok; else bad "JSON of the shared models"; fi
fi

if have_python; then
  "$TFCC" inspect --json "$m" >"$TMP/m.json"
  if python3 - "$TMP/m.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
i = d["inputs"][0]
assert i["name"] == "input" and i["dtype"] == "uint8" and i["shape"] == [1, 224, 224, 3], i
assert i["quantization"]["scales"] == [0.0078125] and i["quantization"]["zero_points"] == [128]
assert d["tensor_count"] == 174 and d["operator_count"] == 66
ops = {o["name"]: o for o in d["operators"]}
assert ops["CONV_2D"]["count"] == 36 and ops["CONV_2D"]["versions"] == [1]
if d["unsupported"] == "":
    # MobileNet v2 1.0 224: about 300M multiply-accumulates
    assert 250e6 < d["total_macs"] < 350e6, d["total_macs"]
PY
  then ok; else bad "mobilenet JSON content"; fi
fi
finish
