#!/usr/bin/env bash
# Dynamic tensors in the tool: tfcc inspect lists them with the reason, tfcc run writes a dynamic
# output at the shape the run produced (tests/models/data/runtime_shapes/dyn_chain.tflite:
# RESHAPE to a shape fed as input s, MUL and SHAPE of the result, FILL with dims s).
source "$(dirname "$0")/lib.bash"
D="${TFCC_SOURCE_DIR:?}/tests/models/data/runtime_shapes"

expect_rc 0 "inspect dyn_chain" -- "$TFCC" inspect "$D/dyn_chain.tflite"
expect_in "$TMP/out" "dynamic tensors (4, sized while running" "inspect dyn_chain"
expect_in "$TMP/out" "tensor 2 (y) from node 0 (RESHAPE): RESHAPE: shape (tensor 1) is known only while running" "inspect reason"
expect_in "$TMP/out" "tensor 3 (z) from node 1 (MUL): reads dynamic tensor 2 (y)" "inspect reason (reader)"
expect_rc 0 "inspect --json dyn_chain" -- "$TFCC" inspect --json "$D/dyn_chain.tflite"
expect_in "$TMP/out" '"reason": "FILL: dims (tensor 1) is known only while running"' "inspect --json reason"
expect_rc 0 "inspect where_chain" -- "$TFCC" inspect "$D/where_chain.tflite"
expect_in "$TMP/out" "WHERE: the output size depends on the values of the condition (tensor 2)" "inspect WHERE"

expect_rc 0 "run dyn_chain s=[1,12]" -- "$TFCC" run "$D/dyn_chain.tflite" -i "$D/dyn_chain_x.npy" -i "$D/dyn_chain_s112.npy" -o "$TMP/o"
expect_in "$TMP/out" "output 0 z float32 [1,12] (dynamic)" "run: dynamic output shape"
expect_in "$TMP/out" "output 3 w float32 [2,6] ->" "run: static output"
if have_python; then
  for i in 0 1 2 3; do
    got=$(ls "$TMP/o/${i}_"*.npy | head -1)
    if npy_tool compare "$got" "$D/dyn_chain_s112_out$i.npy" >"$TMP/cmp" 2>&1; then ok; else
      bad "run: output $i differs from TFLite: $(head -c 300 "$TMP/cmp")"
    fi
  done
fi
expect_rc 0 "inspect static model" -- "$TFCC" inspect "$D/../../../ops/conformance/expand_dims_i8.tflite"
expect_in "$TMP/out" "dynamic tensors: none" "inspect static model"
finish
