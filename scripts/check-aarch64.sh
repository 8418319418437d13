#!/bin/sh
# Cross-compiles the core library and the f32 / q8 / q16 kernel tests (GEMM, depthwise, elementwise) for aarch64 (NEON kernels included)
# with gcc-aarch64-linux-gnu; runs the tests under qemu-aarch64 when it is installed.
#   apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross [qemu-user]
set -eu
cd "$(dirname "$0")/.."
CC=${CC:-aarch64-linux-gnu-gcc}
OUT=${OUT:-/tmp/tfcc-aarch64}
command -v "$CC" >/dev/null || { echo "SKIP: $CC not installed"; exit 77; }
mkdir -p "$OUT"
FLAGS="-std=c11 -O3 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-format-truncation -D_GNU_SOURCE -Iinclude -Isrc"
# the library's sources for aarch64 (x86 variants and the OpenSSL module left out), compiled
# in parallel
for f in $(find src -name '*.c' | sort); do
  case "$f" in *-avx512.c|*-avx2.c|*-sse4.c|*-avx512vnni.c|*-avxvnni.c|*-avx512bf16.c|*-amxbf16.c|*-amxint8.c|*-shani.c|*-wasmsimd.c|src/crypto/*|src/cuda/*) continue ;; esac
  echo "$f"
done >"$OUT/sources"
export CC FLAGS OUT
xargs -P "$(nproc)" -n 1 sh -c '
  f=$1; o="$OUT/$(echo "$f" | tr / _).o"; extra=""
  case "$f" in *-neondot.c) extra="-march=armv8.2-a+dotprod" ;; *-neoni8mm.c) extra="-march=armv8.2-a+dotprod+i8mm" ;; *-neonsha2.c) extra="-march=armv8-a+crypto" ;; esac
  $CC $FLAGS $extra -c "$f" -o "$o"' _ <"$OUT/sources"
objs=$(sed "s|/|_|g; s|^|$OUT/|; s|\$|.o|" "$OUT/sources")
rm -f "$OUT/libtfcc.a"
ar rcs "$OUT/libtfcc.a" $objs
echo "aarch64 library: $OUT/libtfcc.a"
# TFCC_A64_LIB_ONLY=1: the library only (scripts/build-aarch64-tfcc.sh links the tfcc command)
[ "${TFCC_A64_LIB_ONLY:-0}" = 1 ] && exit 0
# the tests: each linked and run (under qemu-aarch64 when installed) beside the others,
# nproc at a time (the longest, test_move, first); their outputs printed in order, the first
# failure's exit status returned
tests="test_move test_f32_gemm test_f32_dwconv test_q8_gemm test_q8_dwconv test_bf16_gemm test_vbinary test_vunary test_q8_lut test_q8_resize test_pool_fast test_quantize_fast test_reduce_fast test_softmax_fast test_f32_gemv test_f32_conv_direct test_q8_lstm_fast test_f32_lstm_fast test_lstm_op_fast test_q8_fc_small test_f32_winograd test_f32_expand_dw test_f32_conv_residual test_move_ops test_resize_move test_arg_fast test_detect_fast test_fft test_sha256 test_hybrid test_q16_gemm test_q16_dwconv test_q16_dot test_q16_fc_batches test_q16_bmm test_q16_vbinary test_q8_softmax test_q16_softmax"
QEMU=$(command -v qemu-aarch64 || true)
# tests that read the conformance models (test_q16_fc_batches) find them here
TFCC_SOURCE_DIR=$(pwd)
export QEMU TFCC_SOURCE_DIR
rm -f "$OUT"/test_*.log "$OUT"/test_*.rc
# the test harness compiled once (it was compiled again into each of the test programs)
harness=""
for h in harness fb_test_builder npy_load; do
  $CC $FLAGS -Itests/harness -c "tests/harness/$h.c" -o "$OUT/harness_$h.o"
  harness="$harness $OUT/harness_$h.o"
done
export HARNESS="$harness"
printf '%s\n' $tests | xargs -P "$(nproc)" -n 1 sh -c '
  t=$1
  { $CC $FLAGS -Itests/harness -static tests/ops/$t.c $HARNESS \
      -Wl,--whole-archive "$OUT/libtfcc.a" -Wl,--no-whole-archive -lpthread -lm -o "$OUT/$t" &&
    if [ -n "$QEMU" ]; then "$QEMU" "$OUT/$t"; else echo "built $OUT/$t (qemu-aarch64 not installed: not run)"; fi
  } >"$OUT/$t.log" 2>&1
  echo $? >"$OUT/$t.rc"' _ || true
status=0
for t in $tests; do
  cat "$OUT/$t.log"
  rc=$(cat "$OUT/$t.rc" 2>/dev/null || echo 1)
  if [ "$rc" != 0 ]; then echo "$t: exit status $rc"; [ $status != 0 ] || status=$rc; fi
done
exit $status
