#!/usr/bin/env bash
# --precision f32|bf16 of tfcc run and tfcc bench: usage errors, the JSON/text report, bf16
# kernels in the profile where the CPU has AVX512-BF16, and bit-identical float32 output when
# the dispatch level is capped below avx512 (the option falls back).
source "$(dirname "$0")/lib.bash"
M=$MODELS/mnist_lstm_float.tflite
IN=$MODELS/ref/mnist_lstm_float/input_0.npy
[ -f "$M" ] || { echo "SKIP: shared models not found"; exit 77; }

expect_rc 2 "run: bad precision" -- "$TFCC" run "$M" -i "$IN" -o "$TMP/x" --precision fp8
expect_error_line run "run: bad precision"
expect_in "$TMP/err" "unknown precision 'fp8' (f32, bf16, fp16)" "run: bad precision message"
expect_rc 2 "bench: bad precision" -- "$TFCC" bench "$M" --precision half --runs 1
expect_error_line bench "bench: bad precision"
"$TFCC" run --help | grep -q -- "--precision" && ok || bad "run --help lists --precision"
"$TFCC" bench --help | grep -q -- "--precision" && ok || bad "bench --help lists --precision"

expect_rc 0 "bench --precision bf16 --json" -- "$TFCC" bench "$M" --precision bf16 --runs 2 --json
expect_in "$TMP/out" '"precision": "bf16"' "bench JSON precision"
expect_rc 0 "bench text" -- "$TFCC" bench "$M" --precision bf16 --runs 2
expect_in "$TMP/out" "precision: bf16" "bench text precision"
expect_rc 0 "bench default" -- "$TFCC" bench "$M" --runs 2 --json
expect_in "$TMP/out" '"precision": "f32"' "bench JSON default precision"

# bf16 kernels where the CPU has AVX512-BF16 (cpu-info's "features:" line; its other lines name
# the feature too, as missing or as a kernel's need) and no cap below avx512 is set
has_bf16=0
"$TFCC" cpu-info 2>/dev/null | grep "^features:" | grep -qw "avx512_bf16" && has_bf16=1
if [ "$has_bf16" -eq 1 ] && [ -z "${TFCC_ISA:-}" ]; then
  expect_rc 0 "bench bf16 kernels" -- "$TFCC" bench "$M" --precision bf16 --runs 2
  expect_in "$TMP/out" "bf16-gem" "bf16 kernel in the profile"
fi

# capped below avx512: float32 kernels, output bit-identical to --precision f32
expect_rc 0 "run f32" -- env TFCC_ISA=avx2 "$TFCC" run "$M" -i "$IN" -o "$TMP/f32" --precision f32
expect_rc 0 "run bf16 capped" -- env TFCC_ISA=avx2 "$TFCC" run "$M" -i "$IN" -o "$TMP/bf16" --precision bf16
if cmp -s "$TMP/f32/0_"*.npy "$TMP/bf16/0_"*.npy; then ok; else bad "bf16 at avx2 differs from f32"; fi
expect_rc 0 "bench bf16 capped" -- "$TFCC" bench "$M" --precision bf16 --isa avx2 --runs 2
if grep -q "bf16-gem" "$TMP/out"; then bad "bf16 kernel below avx512"; else ok; fi
# one KERNEL_FALLBACK at load naming the reason (library log lines shown with TFCC_LOG): the cap,
# or, on a CPU without AVX512-BF16, the CPU
why="the kernel dispatch level is capped below avx512"
[ "$has_bf16" -eq 1 ] || why="the CPU has no AVX512-BF16"
expect_rc 0 "bench bf16 capped, logged" -- env TFCC_LOG=1 "$TFCC" bench "$M" --precision bf16 --isa avx2 --runs 1
n=$(grep -c "KERNEL_FALLBACK.*precision bf16: $why" "$TMP/err")
[ "$n" -eq 1 ] && ok || bad "capped bf16: $n KERNEL_FALLBACK lines for the precision ($why), wanted 1"
expect_rc 0 "run bf16" -- "$TFCC" run "$M" -i "$IN" -o "$TMP/bf16b" --precision bf16
[ -s "$TMP/bf16b/0_"*.npy ] && ok || bad "run bf16 wrote no output"
finish
