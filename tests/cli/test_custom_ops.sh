#!/usr/bin/env bash
# --custom-ops LIB.so: the MediaPipe plugin (examples/mediapipe_ops, libtfcc_mediapipe_ops.so)
# through tfcc run on the model of examples.test_mediapipe_ops, against the same NumPy references
# (tests/models/data/mediapipe_ops: pools, indices and unpooling exact, the convolutions within
# 1e-4); tfcc inspect and bench with it; without it the model is refused naming the operator;
# a missing library, a library that is not a plugin and a failing registration give one error
# line naming the library and exit status 1.
source "$(dirname "$0")/lib.bash"
D="${TFCC_SOURCE_DIR:?}/tests/models/data/mediapipe_ops"
PLUGIN="${TFCC_BINARY_DIR:?}/examples/mediapipe_ops/libtfcc_mediapipe_ops.so"
if [ ! -f "$PLUGIN" ]; then
  skip_part "no $PLUGIN (TFCC_BUILD_EXAMPLES=OFF?)"
  finish
fi

expect_rc 1 "run without the plugin" -- "$TFCC" run "$D/mediapipe_ops.tflite" -i "$D/in0.npy" -o "$TMP/o"
expect_error_line run "run without the plugin"
expect_in "$TMP/err" "custom operator MaxPoolingWithArgmax2D is not registered" "run without the plugin"

expect_rc 0 "run --custom-ops" -- "$TFCC" run "$D/mediapipe_ops.tflite" --custom-ops "$PLUGIN" -i "$D/in0.npy" -o "$TMP/o"
expect_in "$TMP/out" "output 0 pool1 float32 [1,4,5,3]" "run --custom-ops"
expect_in "$TMP/out" "output 6 t2 float32" "run --custom-ops"
if have_python; then
  for i in 0 1 2 3 4 5 6; do
    got=$(ls "$TMP/o/${i}_"*.npy | head -1)
    case $i in 3|6) tol=1e-4 ;; *) tol=0 ;; esac
    if npy_tool diff "$got" "$D/out$i.npy" "$tol" "$tol" >"$TMP/cmp" 2>&1; then ok; else
      bad "run: output $i differs from the reference: $(head -c 300 "$TMP/cmp")"
    fi
  done
else
  skip_part "no python3 to compare the outputs"
fi

expect_rc 0 "inspect --custom-ops" -- "$TFCC" inspect "$D/mediapipe_ops.tflite" --custom-ops="$PLUGIN"
expect_in "$TMP/out" "unsupported: none" "inspect --custom-ops"
expect_in "$TMP/out" "CUSTOM:MaxUnpooling2D" "inspect --custom-ops"
expect_rc 0 "bench --custom-ops" -- "$TFCC" bench "$D/mediapipe_ops.tflite" --custom-ops "$PLUGIN" --runs 2 --profile-runs 1 --json
expect_in "$TMP/out" '"name": "CUSTOM:Convolution2DTransposeBias"' "bench --custom-ops profile"
expect_in "$TMP/out" '"kernel": "custom"' "bench --custom-ops profile"

# errors: one line naming the library, exit 1
expect_rc 1 "missing library" -- "$TFCC" run "$D/mediapipe_ops.tflite" --custom-ops "$TMP/libnope.so" -i "$D/in0.npy" -o "$TMP/o"
expect_error_line run "missing library"
expect_in "$TMP/err" "--custom-ops plugin $TMP/libnope.so: cannot load: $TMP/libnope.so: cannot open shared object file" "missing library"
expect_rc 1 "not a plugin" -- "$TFCC" inspect "$D/mediapipe_ops.tflite" --custom-ops libm.so.6
expect_error_line inspect "not a plugin"
expect_in "$TMP/err" "plugin libm.so.6: no function tfcc_custom_ops_register" "not a plugin"
expect_rc 1 "registration fails" -- "$TFCC" bench "$D/mediapipe_ops.tflite" --custom-ops "$PLUGIN" --custom-ops "$PLUGIN" --runs 1
expect_error_line bench "registration fails"
expect_in "$TMP/err" "tfcc_custom_ops_register failed (invalid state): tfcc_runtime_register_custom_op: custom operator MaxPoolingWithArgmax2D is already registered on this runtime" "registration fails"
expect_rc 2 "empty path" -- "$TFCC" run "$D/mediapipe_ops.tflite" --custom-ops= -i "$D/in0.npy" -o "$TMP/o"
expect_in "$TMP/err" "--custom-ops: empty library path" "empty path"
for c in run bench inspect classify detect serve; do
  expect_rc 0 "$c --help" -- "$TFCC" $c --help
  expect_in "$TMP/out" "--custom-ops LIB.so" "$c --help lists --custom-ops"
done
finish
