#!/usr/bin/env bash
# scripts/sweep_isa.py: the same models in several configurations compared with the baseline run.
# Tiny models made here with modelgen (float32 RELU, int8 RESHAPE, a hybrid FULLY_CONNECTED);
# the built-in configurations (ISA caps generic / sse4, two threads) must be bit-identical on the
# quantized model; a "runner" configuration (tests/cli/sweep_fake_runner.py: `tfcc run`, then the
# outputs changed as FAKE_RUNNER asks) must be reported as it was changed: a float within
# 1e-3 + 1e-3 |x| "close", beyond "DIFF" with TensorFlow Lite asked (the fake oracle, whose
# reference is tfcc's own output) and naming the departing configuration, an int8 output 1 unit
# off "DIFF", a failing runner "FAILS". Also the model kinds, the counts, JSON and Markdown.
# Needs Debian's Python with NumPy (TFCC_SWEEP_PYTHON names another; skips, 77, without it).
source "$(dirname "$0")/lib.bash"
SRC=${TFCC_SOURCE_DIR:-$(cd "$HERE/../.." && pwd)}
PY=${TFCC_SWEEP_PYTHON:-/usr/bin/python3}
"$PY" -c 'import numpy' 2>/dev/null || { echo "SKIP: $PY with NumPy needed (sweep_isa.py uses it)"; exit 77; }
M=$TMP/models
mkdir -p "$M"
"$PY" - "$SRC/modelgen" "$M" <<'PY' || { bad "modelgen did not write the models"; finish; }
import sys
sys.path.insert(0, sys.argv[1])
import tflite_schema as S

def save(name, m):
    open("%s/%s.tflite" % (sys.argv[2], name), "wb").write(S.serialize(m))

m = S.Model()
x, y = m.add_tensor("x", S.FLOAT32, [1, 8]), m.add_tensor("y", S.FLOAT32, [1, 8])
m.add_op("RELU", [x], [y])
m.inputs, m.outputs = [x], [y]
save("a_relu_f32", m)
m = S.Model()
q = {"scale": [0.05], "zero_point": [3]}
x = m.add_tensor("x", S.INT8, [1, 4, 4], quant=q)
s = m.add_tensor("s", S.INT32, [2], data=S.pack(S.INT32, [1, 16]))
y = m.add_tensor("y", S.INT8, [1, 16], quant=q)
m.add_op("RESHAPE", [x, s], [y], {"new_shape": [1, 16]})
m.inputs, m.outputs = [x], [y]
save("b_reshape_i8", m)
m = S.Model()
x = m.add_tensor("x", S.FLOAT32, [1, 8])
w = m.add_tensor("w", S.INT8, [4, 8], data=S.pack(S.INT8, [(i * 7) % 255 - 127 for i in range(32)]),
                 quant={"scale": [0.02], "zero_point": [0]})
y = m.add_tensor("y", S.FLOAT32, [1, 4])
m.add_op("FULLY_CONNECTED", [x, w, -1], [y])
m.inputs, m.outputs = [x], [y]
save("c_hybrid_fc", m)
# a FlatBuffer with the TFL3 identifier and a Model table holding only version 3: no subgraph
# (an empty-model test file of a TFLite binding); listed "unreadable", the sweep goes on
import struct
open("%s/d_no_subgraph.tflite" % sys.argv[2], "wb").write(
    struct.pack("<I4sHHHHiI", 16, b"TFL3", 6, 8, 4, 0, 8, 3))
PY
# a byte-identical copy is taken once
cp "$M/a_relu_f32.tflite" "$M/a_relu_f32_copy.tflite"
# FAKE_RUNNER: "<model substring>:<action>" ... (actions of sweep_fake_runner.py)
cfg_fake="fake=FAKE_RUNNER=a_relu:add:0.0005,b_reshape:add:1,c_hybrid:add:0.5 $PY $HERE/sweep_fake_runner.py $TFCC"
cfg_fail="broken=FAKE_RUNNER=c_hybrid:fail $PY $HERE/sweep_fake_runner.py $TFCC"
echo '{}' >"$TMP/cases.json"
export FAKE_ORACLE_CASES=$TMP/cases.json TFCC
expect_rc 0 "sweep_isa.py over the models" -- "$PY" "$SRC/scripts/sweep_isa.py" "$M" --tfcc "$TFCC" \
  --oracle "$HERE/sweep_fake_oracle.py" --work "$TMP/work" --config generic --config sse4+t2 \
  --config "$cfg_fake" --config "$cfg_fail" --markdown "$TMP/T.md" --json "$TMP/R.json" --timeout 60
cp "$TMP/out" "$TMP/sweep.txt"
# cell MODEL CONFIG PATTERN: the JSON row's verdict + text for CONFIG starts with PATTERN (a
# case pattern: "*..." looks inside)
cell() {
  local got
  got=$("$PY" -c 'import json,sys; r={x["model"]: x for x in json.load(open(sys.argv[1]))}; c=r[sys.argv[2]]["configs"][sys.argv[3]]; print(c["verdict"] + " " + c.get("text", ""))' "$TMP/R.json" "$1" "$2" 2>&1)
  # shellcheck disable=SC2254
  case "$got" in $3*) ok ;; *) bad "$1 / $2: '$got', wanted '$3...'" ;; esac
}
kind() {
  local got
  got=$("$PY" -c 'import json,sys; r={x["model"]: x for x in json.load(open(sys.argv[1]))}; print(r[sys.argv[2]]["kind"])' "$TMP/R.json" "$1" 2>&1)
  [ "$got" = "$2" ] && ok || bad "$1: kind '$got', wanted '$2'"
}
kind a_relu_f32 float
kind b_reshape_i8 quant
kind c_hybrid_fc hybrid
kind d_no_subgraph unreadable
for c in generic sse4+t2; do
  for m in a_relu_f32 b_reshape_i8 c_hybrid_fc; do cell $m $c "exact"; done
done
cell a_relu_f32 fake "close out0 close max |diff| 0.0005"
cell b_reshape_i8 fake "DIFF out0 DIFF max |diff| 1, "
cell b_reshape_i8 fake "*; baseline vs TFLite (litert): match (out0 max |diff| 0 LSB, 100.0% exact); fake vs TFLite (litert): match (out0 max |diff| 1 LSB, 0.0% exact)"
cell c_hybrid_fc fake "DIFF out0 DIFF max |diff| 0.5, 0.0% equal; baseline vs TFLite (litert): match (out0 max |diff| 0); fake vs TFLite (litert): MISMATCH (out0 max |diff| 0.5)"
cell c_hybrid_fc broken "FAILS rc 3"
cell a_relu_f32 broken "exact"
# four models (the copy dropped; one unreadable), the counts per configuration and kind
expect_in "$TMP/sweep.txt" "4 models (1 quant, 1 hybrid, 1 float); the baseline runs 3" "counts line"
expect_in "$TMP/sweep.txt" "d_no_subgraph" "a file without a subgraph is listed, not a crash"
expect_in "$TMP/sweep.txt" "fake       quant     1: 0 bit-identical, 0 close, 1 DIFF, 0 fail" "per-config counts"
expect_in "$TMP/sweep.txt" "broken     hybrid    1: 0 bit-identical, 0 close, 0 DIFF, 1 fail" "a failing configuration is counted"
expect_in "$TMP/T.md" "| b_reshape_i8 | quant | exact | exact | DIFF" "Markdown row"
finish
