#!/usr/bin/env bash
# The whole test suite: release build (gcc) + tests, clang build with ASan+UBSan + tests,
# and a bounded libFuzzer run of the model loader. Set TFCC_FUZZ_SECONDS=0 to skip fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
shared=${TFCC_SHARED_DIR:-$(cd .. && pwd)/shared}

echo "== release build (gcc) and tests"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFCC_SHARED_DIR="$shared" >/dev/null
ninja -C build -j "$jobs"
ctest --test-dir build --output-on-failure -j "$jobs"

# Every kernel dispatch level this CPU supports below its best (the best ran above).
best=$(build/tools/tfcc cpu-info --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["best_isa"])' 2>/dev/null || echo generic)
for cap in generic sse4 avx2 avx512; do
  [ "$cap" = "$best" ] && break
  echo "== tests with kernel dispatch capped at TFCC_ISA=$cap"
  TFCC_ISA=$cap ctest --test-dir build --output-on-failure -j "$jobs" -E '^(cli|server)\.'
done

echo "== aarch64: NEON kernels cross-compiled and tested under qemu"
bash scripts/check-aarch64.sh || [ $? -eq 77 ]

echo "== clang, ASan + UBSan build and tests"
CC=clang cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTFCC_SANITIZE=address,undefined -DTFCC_FUZZ=ON -DTFCC_SHARED_DIR="$shared" >/dev/null
ninja -C build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs"

secs=${TFCC_FUZZ_SECONDS:-60}
if [ "$secs" -gt 0 ] && [ -x build-asan/tests/fuzz/fuzz_tflite_reader ]; then
  echo "== fuzzing the model loader for ${secs}s"
  sh tests/fuzz/make_corpus.sh build-asan "$shared" >/dev/null
  build-asan/tests/fuzz/fuzz_tflite_reader -max_total_time="$secs" -max_len=65536 -timeout=10 \
    -print_final_stats=1 build-asan/tests/fuzz/corpus
fi
echo "== all tests passed"
