#!/bin/sh
# Compiles the WebAssembly SIMD128 kernel drivers (tests/wasm/*_node.c, each with the library
# sources it names below) with emcc -O2 -msimd128 and runs them in Node; exits 77 (skip) without
# emcc or node. The JS glue is linked at -O0 (Debian's emscripten 3.1.6 lacks its JS optimizer's
# acorn module) and Node runs without its fetch (that emscripten's loader reads the .wasm with
# fetch where it exists).
set -eu
cd "$(dirname "$0")/.."
command -v emcc >/dev/null || { echo "SKIP: emcc not installed"; exit 77; }
command -v node >/dev/null || { echo "SKIP: node not installed"; exit 77; }
[ -x /usr/bin/python3 ] && export EMSDK_PYTHON=${EMSDK_PYTHON:-/usr/bin/python3}
OUT=${OUT:-/tmp/tfcc-wasm-kernels}
mkdir -p "$OUT"
FLAGS="-O2 -Wall -Wextra -Werror -msimd128 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -Itests/harness"
run() { # name, sources...
  name=$1
  shift
  objs=""
  for f in "tests/wasm/${name}_node.c" "$@"; do
    o="$OUT/$(echo "$f" | tr / _).o"
    emcc $FLAGS -c "$f" -o "$o"
    objs="$objs $o"
  done
  emcc -O0 $objs -o "$OUT/$name.js"
  node --no-experimental-fetch "$OUT/$name.js"
}
run q16_softmax src/kernels/softmax/q16-softmax-wasmsimd.c src/kernels/ref/softmax.c
# tests/ops/test_q16_dwconv.c on the SIMD128 and scalar rows (a one-thread pool stand-in)
run q16_dwconv src/kernels/q16-dwconv/dispatch.c src/kernels/q16-dwconv/q16-dwconv-wasmsimd.c \
  src/kernels/q16-dwconv/q16-dwconv-scalar.c src/kernels/ref/depthwise_conv.c src/cpu/cpu_info.c
