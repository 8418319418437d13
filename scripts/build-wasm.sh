#!/usr/bin/env bash
# Builds the WebAssembly package tfcc-wasm (js/): the library with Emscripten (SIMD128 and the
# wasmsimd kernels), the glue js/src/tfcc_wasm.c, then `npm pack`, which leaves
# <build>/tfcc-wasm-<version>.tgz. Installs Emscripten with apt when emcc is missing (Debian 12:
# emscripten 3.1.6) and exits 77 (skip) when it cannot.
#   bash scripts/build-wasm.sh [--threads]     build dir: TFCC_WASM_BUILD_DIR (default build-wasm)
# --threads: pthreads build (SharedArrayBuffer; browsers need cross-origin isolation, Node >= 20
# runs the workers on worker_threads with no flag).
# TFCC_WASM_RELAXED_BUILD=0: no relaxed-SIMD binary in the package (it then loads the plain one
# everywhere; scripts/test.sh's threads build, whose test runs on Node without relaxed SIMD).
# Tests: ctest --test-dir build-wasm (wasm.node_api, wasm.node_models, wasm.node_dtypes,
# wasm.node_ops, wasm.node_conv, wasm.browser; with --threads also wasm.node_threads; TFCC_SHARED_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TFCC_WASM_BUILD_DIR:-build-wasm}
shared=${TFCC_SHARED_DIR:-$(cd .. && pwd)/shared}
threads=OFF
[ "${1:-}" = --threads ] && threads=ON

if ! command -v emcc >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing emscripten (apt)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q emscripten >/dev/null ||
      { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q emscripten >/dev/null; } || true
  fi
  command -v emcc >/dev/null || { echo "SKIP: emcc (Emscripten) not installed and not installable here"; exit 77; }
fi
command -v node >/dev/null || { echo "SKIP: node not installed"; exit 77; }
command -v npm >/dev/null || { echo "SKIP: npm not installed"; exit 77; }
# emcc is a Python program; a pyenv shim on PATH costs seconds per compile
[ -x /usr/bin/python3 ] && export EMSDK_PYTHON=${EMSDK_PYTHON:-/usr/bin/python3}
# Compiles go through scripts/wasm-cc.sh: Emscripten's clang with emcc's flags, once a probe
# compiled both ways gives the same object (else emcc itself), and ccache when installed.
TFCC_WASM_CCACHE=$(command -v ccache || true)
export TFCC_WASM_CCACHE
wasm_direct_clang() {
  local d pflag=() clang
  d=$(mktemp -d)
  [ "$threads" = ON ] && pflag=(-pthread)
  printf 'int tfcc_probe(const float *x, int n) { float s = 0; for (int i = 0; i < n; i++) s += x[i]; return (int)s; }\n' >"$d/probe.c"
  clang=$(EMCC_VERBOSE=1 emcc -v "${pflag[@]}" -O2 -msimd128 -c "$d/probe.c" -o "$d/a.o" 2>&1 |
    sed -n 's/^ *"\([^"]*clang[^"]*\)" -target wasm32-unknown-emscripten .*/\1/p' | head -1)
  TFCC_WASM_CFLAGS=$(emcc --cflags "${pflag[@]}")
  if [ -n "$clang" ] && [ -x "$clang" ] &&
    "$clang" $TFCC_WASM_CFLAGS "${pflag[@]}" -O2 -msimd128 -c "$d/probe.c" -o "$d/b.o" 2>/dev/null &&
    cmp -s "$d/a.o" "$d/b.o"; then
    TFCC_WASM_CLANG=$clang
  else
    TFCC_WASM_CLANG=
  fi
  rm -rf "$d"
  export TFCC_WASM_CLANG TFCC_WASM_CFLAGS
}
wasm_direct_clang
launcher=(-DCMAKE_C_COMPILER_LAUNCHER="$PWD/scripts/wasm-cc.sh")

emcmake cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
  -DTFCC_BUILD_TOOLS=OFF -DTFCC_BUILD_TESTS=OFF -DTFCC_BUILD_BENCH=OFF -DTFCC_PYTHON=OFF \
  -DTFCC_WITH_CRYPTO=OFF -DTFCC_WASM_THREADS=$threads -DTFCC_SHARED_DIR="$shared" >/dev/null
ninja -C "$build" -j "$(nproc)" tfcc_wasm

pkg=$build/npm/tfcc-wasm
# The relaxed-SIMD binary (js/lib/index.mjs loads it where relaxed SIMD validates): the same
# library with TFCC_WASM_RELAXED (the f32 GEMM's relaxed_madd; the q8 GEMM's relaxed dot
# product, taken where its self-check passes) in <build>-relaxed, the placeholders of
# Emscripten 3.1.6's clang (the early f32x4 / f64x2 fma opcodes) rewritten to relaxed_madd and
# relaxed_dot_i8x16_i7x16_add_s instruction by instruction (scripts/wasm-relaxed.mjs),
# shipped as lib/tfcc-core-relaxed.wasm beside the plain one; its glue must be the same file.
rbuild=$build-relaxed
rwasm=$pkg/lib/tfcc-core-relaxed.wasm
if [ "${TFCC_WASM_RELAXED_BUILD:-1}" = 0 ]; then
  rm -f "$rwasm"
else
emcmake cmake -S . -B "$rbuild" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
  -DTFCC_BUILD_TOOLS=OFF -DTFCC_BUILD_TESTS=OFF -DTFCC_BUILD_BENCH=OFF -DTFCC_PYTHON=OFF \
  -DTFCC_WITH_CRYPTO=OFF -DTFCC_WASM_THREADS=$threads -DTFCC_WASM_RELAXED=ON >/dev/null
ninja -C "$rbuild" -j "$(nproc)" tfcc_wasm
cmp -s "$rbuild/wasm/tfcc-core.mjs" "$build/wasm/tfcc-core.mjs" ||
  { echo "the relaxed build's tfcc-core.mjs differs from the plain build's"; exit 1; }
# the placeholders as binaryen decodes them: the rewriter must find the same counts
dis=$(wasm-dis "$rbuild/wasm/tfcc-core.wasm")
nfma=$(grep -o 'f32x4\.relaxed_fma' <<<"$dis" | wc -l)
ndot=$(grep -o 'f64x2\.relaxed_fma' <<<"$dis" | wc -l)
node scripts/wasm-relaxed.mjs "$rbuild/wasm/tfcc-core.wasm" "$pkg/lib/tfcc-core-relaxed.wasm" \
  "f32x4.relaxed_fma=$nfma" "f64x2.relaxed_fma=$ndot"
fi
# the package's version is the project's
version=$(sed -n 's/^project(tfcc VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
node -e 'const fs=require("fs"),p=process.argv[1],j=JSON.parse(fs.readFileSync(p));j.version=process.argv[2];fs.writeFileSync(p,JSON.stringify(j,null,2)+"\n")' \
  "$pkg/package.json" "$version"
rm -f "$build"/tfcc-wasm-*.tgz
(cd "$pkg" && npm pack --silent --pack-destination "$(cd ../.. && pwd)" >/dev/null)
tgz=$build/tfcc-wasm-$version.tgz
[ -f "$tgz" ] || { echo "npm pack left no $tgz"; exit 1; }
wasm=$build/wasm/tfcc-core.wasm
if [ -f "$rwasm" ]; then rsize="tfcc-core-relaxed.wasm gzip -9 $(gzip -9c "$rwasm" | wc -c) bytes"; else rsize="no relaxed-SIMD binary (TFCC_WASM_RELAXED_BUILD=0)"; fi
echo "built $tgz ($(stat -c %s "$tgz") bytes); tfcc-core.wasm $(stat -c %s "$wasm") bytes, gzip -9 $(gzip -9c "$wasm" | wc -c) bytes; $rsize"
