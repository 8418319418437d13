# Helpers for tests/install/*.sh (sourced; reuses tests/cli/lib.bash's checks).
# Env from ctest: TFCC_BINARY_DIR (the build), TFCC_SOURCE_DIR, TFCC_SHARED_DIR.
: "${TFCC_BINARY_DIR:?}" "${TFCC_SOURCE_DIR:?}"
TFCC=${TFCC:-$TFCC_BINARY_DIR/tools/tfcc}
source "$TFCC_SOURCE_DIR/tests/cli/lib.bash"
EXAMPLE=$TFCC_SOURCE_DIR/examples/c_api/main.c

# example_model: a one-input, one-output model for the example: a shared one, else one made by
# modelgen (python3, standard library only); empty if neither is possible.
example_model() {
  if [ -f "$MODELS/mobilenet_v1_025_128_quant.tflite" ]; then
    echo "$MODELS/mobilenet_v1_025_128_quant.tflite"
  elif have_python && python3 "$TFCC_SOURCE_DIR/modelgen/build.py" --out "$TMP/models" \
         --net mobilenet_v1_025_128_int8 >/dev/null 2>&1; then
    echo "$TMP/models/mobilenet_v1_025_128_int8.tflite"
  fi
}

# check_example DESC BINARY MODEL: runs the example; one line naming the top index.
check_example() {
  local desc=$1 bin=$2 model=$3
  expect_rc 0 "$desc: run" -- "$bin" "$model"
  if grep -Eq '^.*: output .* [0-9]+ values; top: index [0-9]+, score -?[0-9.]+$' "$TMP/out"; then ok
  else bad "$desc: output: $(head -c 300 "$TMP/out")"; fi
  expect_rc 1 "$desc: missing model" -- "$bin" "$TMP/nope.tflite"
  expect_in "$TMP/err" "nope.tflite" "$desc: missing model named"
}
