#!/usr/bin/env bash
# tfcc run names output files "<i>_<name>.npy": a tensor name longer than a file name may be
# (a 300-character name, as TFLite converters write for fused operators) is cut to 199
# characters, sanitized, and keeps "<i>_" first (a file name over 255 bytes had failed with
# "File name too long"). The model is made here with modelgen (python3, stdlib only).
source "$(dirname "$0")/lib.bash"
have_python || { echo "SKIP: python3 needed to make the model"; exit 77; }
SRC=${TFCC_SOURCE_DIR:-$(cd "$HERE/../.." && pwd)}
long=$(printf 'streamable_model/unet_0/conv2d_%03d;' $(seq 1 12))
python3 - "$SRC/modelgen" "$TMP/long.tflite" "$long" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import tflite_schema as S
m = S.Model(description="long output name")
x = m.add_tensor("x", S.FLOAT32, [1, 4])
y = m.add_tensor(sys.argv[3], S.FLOAT32, [1, 4])
m.add_op("RELU", [x], [y])
m.inputs, m.outputs = [x], [y]
open(sys.argv[2], "wb").write(S.serialize(m))
PY
[ -s "$TMP/long.tflite" ] || { bad "modelgen did not write the model"; finish; }
[ ${#long} -gt 255 ] && ok || bad "the test name is only ${#long} characters"
npy_tool make "$TMP/x.npy" '<f4' 1,4 -1.5
expect_rc 0 "run with a long output name" -- "$TFCC" run "$TMP/long.tflite" -i "$TMP/x.npy" -o "$TMP/o"
want="0_$(printf '%s' "$long" | tr -c 'A-Za-z0-9._-' '_' | cut -c1-199).npy"
[ ${#want} -le 255 ] && ok || bad "expected file name is ${#want} bytes"
if [ -f "$TMP/o/$want" ]; then ok; else bad "$want not written: $(ls "$TMP/o" 2>&1)"; fi
expect_in "$TMP/out" "-> $TMP/o/$want" "output line names the file"
finish
