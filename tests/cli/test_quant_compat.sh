#!/usr/bin/env bash
# --quant-compat tflite|reference of tfcc run and tfcc bench (tfcc_model_options.quant_compat):
# usage errors; a hybrid CONV_2D conformance case gives TensorFlow Lite's default (XNNPACK)
# outputs by default and with `tflite`, and its builtin kernels' outputs with `reference`
# (tests/ops/hybrid_builtin: the classic interpreter's), bit for bit; bench reports the mode.
source "$(dirname "$0")/lib.bash"
: "${TFCC_SOURCE_DIR:?}"
have_python || { echo "SKIP: python3 not found (npy comparisons)"; exit 77; }
C=$TFCC_SOURCE_DIR/tests/ops/conformance
case=conv_2d_hybrid_pt_3x3_same
M=$C/$case.tflite
IN=$C/$case.in0.npy

expect_rc 2 "run: bad mode" -- "$TFCC" run "$M" -i "$IN" -o "$TMP/x" --quant-compat xnnpack
expect_error_line run "run: bad mode"
expect_in "$TMP/err" "--quant-compat: unknown arithmetic 'xnnpack' (tflite, reference)" "run: bad mode message"
expect_rc 2 "bench: bad mode" -- "$TFCC" bench "$M" --quant-compat builtin --runs 1
expect_error_line bench "bench: bad mode"
"$TFCC" run --help | grep -q -- "--quant-compat" && ok || bad "run --help lists --quant-compat"
"$TFCC" bench --help | grep -q -- "--quant-compat" && ok || bad "bench --help lists --quant-compat"

# bit-for-bit comparison of two float outputs (same dtype and shape, max |a - b| = 0)
same() { npy_tool diff "$1" "$2" 0 0 >/dev/null; }
expect_rc 0 "run default" -- "$TFCC" run "$M" -i "$IN" -o "$TMP/d"
expect_rc 0 "run tflite" -- "$TFCC" run "$M" -i "$IN" -o "$TMP/t" --quant-compat tflite
expect_rc 0 "run reference" -- "$TFCC" run "$M" -i "$IN" -o "$TMP/r" --quant-compat reference
same "$TMP/d/"0_*.npy "$C/$case.out0.npy" && ok || bad "default: not LiteRT's output bit for bit"
same "$TMP/t/"0_*.npy "$C/$case.out0.npy" && ok || bad "tflite: not LiteRT's output bit for bit"
same "$TMP/r/"0_*.npy "$TFCC_SOURCE_DIR/tests/ops/hybrid_builtin/$case.out0.npy" && ok ||
  bad "reference: not the builtin kernels' output bit for bit"
same "$TMP/r/"0_*.npy "$TMP/t/"0_*.npy && bad "the two modes agree on a case where TFLite's two builds differ" || ok

expect_rc 0 "bench reference --json" -- "$TFCC" bench "$M" --quant-compat reference --runs 2 --json
expect_in "$TMP/out" '"quant_compat": "reference"' "bench JSON quant_compat"
expect_rc 0 "bench default --json" -- "$TFCC" bench "$M" --runs 2 --json
expect_in "$TMP/out" '"quant_compat": "tflite"' "bench JSON default quant_compat"
expect_rc 0 "bench reference text" -- "$TFCC" bench "$M" --quant-compat reference --runs 2
expect_in "$TMP/out" "quant-compat: reference" "bench text quant-compat"
finish
