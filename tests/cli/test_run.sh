#!/usr/bin/env bash
# tfcc run on the shared models' reference inputs: outputs must match the references
# (README tolerances), plus input binding and error messages. Models with operators tfcc
# does not support yet are skipped (listed). Only the small models run by default (the
# library's own tests/models cover every model); TFCC_CLI_ALL_MODELS=1 runs all of them.
source "$(dirname "$0")/lib.bash"
[ -d "$MODELS/ref" ] || { echo "SKIP: shared models not found"; exit 77; }
have_python || { echo "SKIP: python3 needed to compare .npy files"; exit 77; }

ran=0
SMALL=" hello_world_int8 split_concat_quant keras_lstm_mnist_ptq mnist_lstm_float person_detect_int8 mobilenet_v1_025_128_quant "
for dir in "$MODELS"/ref/*/; do
  name=$(basename "$dir")
  case "$SMALL" in *" $name "*) ;; *) [ "${TFCC_CLI_ALL_MODELS:-0}" = 1 ] || continue ;; esac
  if ! model_runnable "$name"; then echo "skip $name (unsupported operators)"; continue; fi
  args=()
  for f in "$dir"input_*.npy; do args+=(-i "$f"); done
  out="$TMP/out_$name"
  expect_rc 0 "run $name" -- "$TFCC" run "$MODELS/$name.tflite" "${args[@]}" -o "$out" --threads 2
  [ -s "$TMP/out" ] || continue
  ran=$((ran + 1))
  i=0
  for ref in "$dir"output_*.npy; do
    got=$(ls "$out/${i}_"*.npy 2>/dev/null | head -1)
    if [ -z "$got" ]; then bad "$name: output $i not written"; else PAIRS+=("$got" "$ref"); fi
    i=$((i + 1))
  done
  lines=$(grep -c '^output ' "$TMP/out")
  [ "$lines" -eq "$i" ] && ok || bad "$name: $lines output lines for $i outputs"
done
echo "ran $ran shared models"
# one python process for every comparison (startup dominates under sanitizers)
if [ ${#PAIRS[@]} -gt 0 ]; then
  if npy_tool compare "${PAIRS[@]}" >"$TMP/cmp"; then ok; else bad "outputs differ from the references: $(grep FAIL -B1 "$TMP/cmp" | tr '\n' ' ')"; fi
fi
[ $ran -gt 0 ] || { echo "SKIP: no shared model runnable yet"; exit 77; }

# Binding by name, in any order, and sanitized output names (split_concat_quant: 3 inputs).
if model_runnable split_concat_quant; then
  r=$MODELS/ref/split_concat_quant
  expect_rc 0 "run by name" -- "$TFCC" run "$MODELS/split_concat_quant.tflite" \
    -i inputs/rnn2="$r/input_2.npy" -i "$r/input_0.npy" -i inputs/rnn1="$r/input_1.npy" -o "$TMP/named"
  expect_in "$TMP/out" "output 3 outputs/rnn1 uint8 [1,8,8,1] -> $TMP/named/3_outputs_rnn1.npy" "output line"
  P=()
  for i in 0 1 2 3 4; do P+=("$(ls "$TMP/named/${i}_"*.npy | head -1)" "$r/output_$i.npy"); done
  expect_rc 2 "too few inputs" -- "$TFCC" run "$MODELS/split_concat_quant.tflite" -i "$r/input_0.npy" -o "$TMP/x"
  expect_error_line run "too few inputs"
  expect_in "$TMP/err" "input 1 (inputs/rnn1) has no file" "too few inputs"
  expect_rc 2 "input twice" -- "$TFCC" run "$MODELS/split_concat_quant.tflite" -i input1="$r/input_0.npy" \
    -i "$r/input_1.npy" -i input1="$r/input_0.npy" -o "$TMP/x"
  expect_error_line run "input twice"
  expect_in "$TMP/err" "input 0 (input1) is given twice" "input twice"
  # an unknown input name (and no file called NAME=FILE) names the model's inputs
  expect_rc 2 "unknown input name" -- "$TFCC" run "$MODELS/split_concat_quant.tflite" -i bogus="$r/input_0.npy" -o "$TMP/x"
  expect_error_line run "unknown input name"
  expect_in "$TMP/err" "no input named 'bogus' (and no file of that name); inputs are: input1, inputs/rnn1, inputs/rnn2" "unknown input name"
  # plain files fill the inputs not bound by name, in model order
  expect_rc 0 "mixed binding" -- "$TFCC" run "$MODELS/split_concat_quant.tflite" -i "$r/input_0.npy" \
    -i inputs/rnn1="$r/input_1.npy" -i "$r/input_2.npy" -o "$TMP/mixed"
  P+=("$TMP/mixed/4_outputs_rnn2.npy" "$r/output_4.npy")
  npy_tool compare "${P[@]}" >"$TMP/cmp" && ok || bad "named/mixed binding outputs: $(cat "$TMP/cmp")"
  expect_rc 2 "too many inputs" -- "$TFCC" run "$MODELS/split_concat_quant.tflite" -i "$r/input_0.npy" \
    -i "$r/input_1.npy" -i "$r/input_2.npy" -i "$r/input_2.npy" -o "$TMP/x"
  expect_in "$TMP/err" "too many input files: '$r/input_2.npy' is left over (the model has 3 inputs)" "too many inputs"
  # wrong shape: input 1 wants [1,8,8,1]
  expect_rc 1 "wrong shape" -- "$TFCC" run "$MODELS/split_concat_quant.tflite" -i "$r/input_0.npy" \
    -i "$r/input_2.npy" -i "$r/input_2.npy" -o "$TMP/x"
  expect_error_line run "wrong shape"
  expect_in "$TMP/err" "input 1 (inputs/rnn1): file has uint8 [1,8,8,2], model wants uint8 [1,8,8,1]" "wrong shape"
  expect_rc 2 "no -i" -- "$TFCC" run "$MODELS/split_concat_quant.tflite" -o "$TMP/x"
  expect_in "$TMP/err" "no input given (-i FILE.npy); the model has 3 inputs" "no -i"
fi
# a model without inputs (y = 2 + 3, constants only) runs without -i
python3 - "$TMP/noinput.tflite" <<'PY' && ok || bad "writing the model without inputs"
import sys
sys.path.insert(0, __import__("os").environ["TFCC_SOURCE_DIR"] + "/modelgen")
import tflite_schema as S
m = S.Model(description="no inputs")
a = m.add_tensor("a", S.FLOAT32, [2], data=S.pack(S.FLOAT32, [2.0, -1.0]))
b = m.add_tensor("b", S.FLOAT32, [2], data=S.pack(S.FLOAT32, [3.0, 0.5]))
y = m.add_tensor("y", S.FLOAT32, [2])
m.add_op("ADD", [a, b], [y], {})
m.inputs, m.outputs = [], [y]
open(sys.argv[1], "wb").write(S.serialize(m))
PY
expect_rc 0 "no inputs" -- "$TFCC" run "$TMP/noinput.tflite" -o "$TMP/noin"
expect_in "$TMP/out" "output 0 y float32 [2]" "no inputs"

# Any number of -i: TFLite's model-personalization files take every weight as an input
# (a MobileNet head's optimizer: 1,049); tfcc run stopped at 256. 300 inputs x_k = [k, 1],
# summed by a chain of ADDs: y = [44850, 300], exact in float32.
many_inputs_model "$TMP/many" 300 && ok || bad "writing the 300-input model"
args=()
for k in $(seq 0 298); do args+=(-i "$TMP/many/x$k.npy"); done
expect_rc 0 "300 inputs" -- "$TFCC" run "$TMP/many/many.tflite" "${args[@]}" -i x299="$TMP/many/x299.npy" -o "$TMP/manyout"
expect_in "$TMP/out" "output 0 y float32 [2]" "300 inputs"
python3 - "$TMP/many_ref.npy" <<'PY' && ok || bad "writing the 300-input reference"
import os, sys
sys.path.insert(0, os.environ["TFCC_SOURCE_DIR"] + "/modelgen")
import npy
npy.save(sys.argv[1], "float32", [2], [44850.0, 300.0])
PY
npy_tool compare "$TMP/manyout/0_y.npy" "$TMP/many_ref.npy" >"$TMP/cmp" && ok || bad "300 inputs: $(cat "$TMP/cmp")"
expect_rc 2 "301 files for 300 inputs" -- "$TFCC" run "$TMP/many/many.tflite" "${args[@]}" \
  -i "$TMP/many/x299.npy" -i "$TMP/many/x0.npy" -o "$TMP/x"
expect_in "$TMP/err" "too many input files: '$TMP/many/x0.npy' is left over (the model has 300 inputs)" "301 files"

m=mobilenet_v2_224_quant
if model_runnable $m; then
  npy_tool make "$TMP/f.npy" '<f4' 1,224,224,3 0.5
  expect_rc 1 "wrong dtype" -- "$TFCC" run "$MODELS/$m.tflite" -i "$TMP/f.npy" -o "$TMP/x"
  expect_error_line run "wrong dtype"
  expect_in "$TMP/err" "input 0 (input): file has float32 [1,224,224,3], model wants uint8 [1,224,224,3]" "wrong dtype"
  printf 'junk' >"$TMP/junk.npy"
  expect_rc 1 "bad npy" -- "$TFCC" run "$MODELS/$m.tflite" -i "$TMP/junk.npy" -o "$TMP/x"
  expect_in "$TMP/err" "$TMP/junk.npy: not a .npy file" "bad npy"
fi

# Dynamic batch: hello_world_int8 has signature [-1,1]; a [3,1] input resizes the session.
m=hello_world_int8
if model_runnable $m; then
  npy_tool make "$TMP/b3.npy" '|i1' 3,1 -63
  expect_rc 0 "dynamic batch" -- "$TFCC" run "$MODELS/$m.tflite" -i "$TMP/b3.npy" -o "$TMP/dyn"
  expect_in "$TMP/out" "int8 [3,1]" "dynamic batch output shape"
  got=$(ls "$TMP/dyn/0_"*.npy | head -1)
  [ "$(npy_tool shape "$got")" = "|i1 [3,1]" ] && ok || bad "dynamic batch file shape"
  npy_tool make "$TMP/b32.npy" '|i1' 3,2 0
  expect_rc 1 "fixed dim" -- "$TFCC" run "$MODELS/$m.tflite" -i "$TMP/b32.npy" -o "$TMP/x"
  expect_in "$TMP/err" "model wants int8 [1,1] (signature [-1,1])" "fixed dim"
fi
finish
