#!/usr/bin/env bash
# scripts/sweep_models.py's comparison and verdicts, on tiny models made here with modelgen and a
# fake oracle (tests/cli/sweep_fake_oracle.py: run_ref.mjs's command line, its "reference" is
# tfcc's own output changed as each case asks). Checks the tolerances (float 1e-3 + 1e-3 |ref|,
# 1 quantized unit, int32 equal on >= 99.5 %), the fallbacks (a LiteRT.js mismatch asked again of
# the classic interpreter; a classic-interpreter mismatch asked again of LiteRT.js on a copy with
# tfcc's output shapes; a refusal of the classic interpreter, asked first, asked of LiteRT.js; a
# computed RESHAPE output asked of LiteRT.js on a copy with the shape constant), refusals on
# either side (the classic interpreter's own XNNPACK delegate failing and being undone is none),
# the TRANSPOSE_CONV output_shape input, and the counts, Markdown and JSON. Needs Debian's Python
# with NumPy (TFCC_SWEEP_PYTHON names another; skips, 77, without it).
source "$(dirname "$0")/lib.bash"
SRC=${TFCC_SOURCE_DIR:-$(cd "$HERE/../.." && pwd)}
PY=${TFCC_SWEEP_PYTHON:-/usr/bin/python3}
"$PY" -c 'import numpy' 2>/dev/null || { echo "SKIP: $PY with NumPy needed (sweep_models.py uses it)"; exit 77; }
M=$TMP/models
mkdir -p "$M"
"$PY" - "$SRC/modelgen" "$M" <<'PY' || { bad "modelgen did not write the models"; finish; }
import sys
sys.path.insert(0, sys.argv[1])
import tflite_schema as S

def save(name, m):
    open("%s/%s.tflite" % (sys.argv[2], name), "wb").write(S.serialize(m))

def relu_f32():
    m = S.Model()
    x, y = m.add_tensor("x", S.FLOAT32, [1, 8]), m.add_tensor("y", S.FLOAT32, [1, 8])
    m.add_op("RELU", [x], [y])
    m.inputs, m.outputs = [x], [y]
    return m

def reshape(dtype, shape, quant=None):
    m = S.Model()
    n = 1
    for d in shape:
        n *= d
    x = m.add_tensor("x", dtype, shape, quant=quant)
    s = m.add_tensor("s", S.INT32, [2], data=S.pack(S.INT32, [1, n]))
    y = m.add_tensor("y", dtype, [1, n], quant=quant)
    m.add_op("RESHAPE", [x, s], [y], {"new_shape": [1, n]})
    m.inputs, m.outputs = [x], [y]
    return m

for name in ("f32_exact", "f32_within", "f32_litert_off", "f32_both_off", "f32_tflite_refuses",
             "f32_tfweb_delegate_fallback"):
    save(name, relu_f32())
q = {"scale": [0.05], "zero_point": [3]}
for name in ("i8_one_lsb", "i8_two_lsb"):
    save(name, reshape(S.INT8, [1, 4, 4], q))
for name in ("i32_one_of_400", "i32_three_of_400"):
    save(name, reshape(S.INT32, [1, 20, 20]))
for name in ("custom_tfcc_refuses", "custom_both_refuse"):
    m = S.Model()
    x, y = m.add_tensor("x", S.FLOAT32, [1, 4]), m.add_tensor("y", S.FLOAT32, [1, 4])
    m.add_op("CUSTOM", [x], [y], custom_code="NoSuchSweepOp")
    m.inputs, m.outputs = [x], [y]
    save(name, m)
# an output that is also a graph input: LiteRT.js hands back other memory for it, so the sweep
# asks the classic interpreter first
m = S.Model()
x, y = m.add_tensor("x", S.FLOAT32, [1, 4]), m.add_tensor("y", S.FLOAT32, [1, 4])
m.add_op("RELU", [x], [y])
m.inputs, m.outputs = [x], [x, y]
save("passthrough_tfweb_off", m)
save("passthrough_tfweb_refuses", m)
# TRANSPOSE_CONV whose output_shape is a graph input: the sweep feeds the op's static shape
m = S.Model()
osh = m.add_tensor("output_shape", S.INT32, [4])
w = m.add_tensor("w", S.FLOAT32, [1, 3, 3, 1], data=S.pack(S.FLOAT32, [0.5, -1, 0.25, 1, 2, -0.5, 0, 1, 0.75]))
x = m.add_tensor("x", S.FLOAT32, [1, 2, 2, 1])
y = m.add_tensor("y", S.FLOAT32, [1, 5, 5, 1])
m.add_op("TRANSPOSE_CONV", [osh, w, x], [y], {"padding": 1, "stride_w": 2, "stride_h": 2})
m.inputs, m.outputs = [osh, x], [y]
save("transpose_conv_shape_input", m)
# an output a RESHAPE writes from a computed shape (SHAPE -> RESHAPE): dynamic in TFLite, and
# LiteRT.js hands back other memory for it; the sweep asks LiteRT.js again on a copy whose
# shape operand is a constant
m = S.Model()
x, y = m.add_tensor("x", S.FLOAT32, [1, 6]), m.add_tensor("y", S.FLOAT32, [1, 6])
s = m.add_tensor("s", S.INT32, [2])
z = m.add_tensor("z", S.FLOAT32, [1, 6])
m.add_op("RELU", [x], [y])
m.add_op("SHAPE", [y], [s], {"out_type": S.INT32})
m.add_op("RESHAPE", [y, s], [z])
m.inputs, m.outputs = [x], [z]
save("reshape_computed_litert_stale", m)
# an input the file declares [0] (an empty tensor, as TFLite's test_min_runtime): fed empty
m = S.Model()
x, b, y = m.add_tensor("x", S.FLOAT32, [0]), m.add_tensor("b", S.FLOAT32, [1]), m.add_tensor("y", S.FLOAT32, [0])
m.add_op("ADD", [x, b], [y])
m.inputs, m.outputs = [x, b], [y]
save("empty_input", m)
PY
cat >"$TMP/cases.json" <<'EOF'
{"f32_within": {"litert": "add:0.0005"},
 "f32_litert_off": {"litert": "add:0.01"},
 "f32_both_off": {"litert": "add:0.01", "tfweb": "add:0.01"},
 "f32_tflite_refuses": {"litert": "refuse", "tfweb": "refuse"},
 "f32_tfweb_delegate_fallback": {"litert": "refuse", "tfweb": "noisy:exact"},
 "i8_one_lsb": {"litert": "add:1"},
 "i8_two_lsb": {"litert": "add:2", "tfweb": "add:2"},
 "i32_one_of_400": {"litert": "flip:1"},
 "i32_three_of_400": {"litert": "flip:3", "tfweb": "flip:3"},
 "custom_tfcc_refuses": {"litert": "zeros:float32:1,4"},
 "custom_both_refuse": {"litert": "refuse", "tfweb": "refuse"},
 "passthrough_tfweb_off": {"tfweb": "add:0.5"},
 "passthrough_tfweb_refuses": {"tfweb": "refuse"},
 "reshape_computed_litert_stale": {"litert": "add:100", "tfweb": "refuse"}}
EOF
printf '%s\n' "f32_exact owner/repo path/f32.tflite" >"$TMP/sources.txt"
export FAKE_ORACLE_CASES=$TMP/cases.json FAKE_ORACLE_LOG=$TMP/oracle.log TFCC
expect_rc 0 "sweep_models.py over the cases" -- "$PY" "$SRC/scripts/sweep_models.py" "$M" --tfcc "$TFCC" \
  --oracle "$HERE/sweep_fake_oracle.py" --work "$TMP/work" --sources "$TMP/sources.txt" \
  --markdown "$TMP/T.md" --json "$TMP/R.json" --timeout 60
cp "$TMP/out" "$TMP/sweep.txt"
# verdict VERDICT_PREFIX CASE: the JSON row of CASE has a verdict starting with the prefix
verdict() {
  local got
  got=$("$PY" -c 'import json,sys; r={x["model"]: x for x in json.load(open(sys.argv[1]))}; print(r[sys.argv[2]]["verdict"])' "$TMP/R.json" "$2" 2>&1)
  case "$got" in "$1"*) ok ;; *) bad "$2: verdict '$got', wanted '$1...'" ;; esac
}
verdict "match: out0 max |diff| 0" f32_exact
verdict "match: out0 max |diff| 0.0005" f32_within
verdict "match vs the classic interpreter: out0 max |diff| 0 (LiteRT.js: MISMATCH: out0 max |diff| 0.01)" f32_litert_off
verdict "MISMATCH: out0 max |diff| 0.01; the classic interpreter: MISMATCH: out0 max |diff| 0.01" f32_both_off
verdict "tfcc runs, TFLite refuses" f32_tflite_refuses
verdict "match: out0 max |diff| 0" f32_tfweb_delegate_fallback
verdict "match: out0 max |diff| 1 LSB" i8_one_lsb
verdict "MISMATCH: out0 max |diff| 2 LSB" i8_two_lsb
verdict "match: out0 99.75% equal" i32_one_of_400
verdict "MISMATCH: out0 99.25% equal" i32_three_of_400
verdict "tfcc refuses" custom_tfcc_refuses
verdict "both refuse" custom_both_refuse
verdict "match vs LiteRT on a copy with the output shapes written: out0 max |diff| 0; out1 max |diff| 0 (the classic interpreter: MISMATCH: out0 max |diff| 0.5" passthrough_tfweb_off
verdict "match: out0 max |diff| 0" transpose_conv_shape_input
verdict "match: out0 max |diff| 0; out1 max |diff| 0" passthrough_tfweb_refuses
verdict "match vs LiteRT on a copy whose computed RESHAPE shape is written as a constant: out0 max |diff| 0 (LiteRT.js on the file: MISMATCH: out0 max |diff| 100" reshape_computed_litert_stale
# the refusals name the cause: tfcc's message, the oracle's ERROR line
expect_in "$TMP/T.md" "NoSuchSweepOp" "tfcc's refusal names the custom operator"
expect_in "$TMP/T.md" "refused: ERROR: fake litert refuses f32_tflite_refuses" "the oracle's refusal is quoted"
# the oracle was asked in the order the docstring gives
expect_in "$TMP/oracle.log" "passthrough_tfweb_off tfweb" "an output that is an input goes to the classic interpreter first"
expect_in "$TMP/oracle.log" "passthrough_tfweb_off/static_outputs litert" "then to LiteRT.js on a copy with tfcc's shapes"
expect_in "$TMP/oracle.log" "reshape_computed_litert_stale/static_reshape litert" "a computed RESHAPE output: LiteRT.js on a copy with the shape constant"
expect_in "$TMP/oracle.log" "f32_tflite_refuses tfweb" "a LiteRT.js refusal is asked of the classic interpreter"
expect_in "$TMP/oracle.log" "passthrough_tfweb_refuses litert" "a refusal of the classic interpreter asked first is asked of LiteRT.js"
expect_in "$TMP/T.md" "| passthrough_tfweb_refuses |  | runs (litert) |" "and LiteRT.js's run is the reference"
if grep -q "^f32_exact tfweb" "$TMP/oracle.log"; then bad "a match was asked again of the classic interpreter"; else ok; fi
# the TRANSPOSE_CONV's output_shape input held the op's static shape, not random values
got=$("$PY" -c 'import numpy,sys; print(numpy.load(sys.argv[1]).tolist())' "$TMP/work/transpose_conv_shape_input/in0.npy" 2>&1)
[ "$got" = "[1, 5, 5, 1]" ] && ok || bad "output_shape input was $got, wanted [1, 5, 5, 1]"
expect_in "$TMP/T.md" "| f32_tfweb_delegate_fallback |  | runs (tfweb) |" "the classic interpreter's delegate fallback is a run"
# the empty input was fed as declared, [0], and the run matched
got=$("$PY" -c 'import numpy,sys; print(list(numpy.load(sys.argv[1]).shape))' "$TMP/work/empty_input/in0.npy" 2>&1)
[ "$got" = "[0]" ] && ok || bad "empty input fed as $got, wanted [0]"
verdict "match: out0" empty_input
# counts: 17 models; TFLite runs all but f32_tflite_refuses and custom_both_refuse (15); tfcc
# all but the 2 custom ones (15); both 14; 11 match
expect_in "$TMP/sweep.txt" "17 models: 15 run in TFLite, 15 run in tfcc, 14 run in both, 11 of those match" "counts line"
expect_in "$TMP/T.md" "17 models: 15 run in TFLite" "counts in the Markdown"
expect_in "$TMP/T.md" "| f32_exact | owner/repo | runs (litert) | runs | match" "Markdown row with its source"
finish
