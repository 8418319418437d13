#!/usr/bin/env bash
# The whole test suite, in seven stages (meant to stay under 30 minutes on 2 cores; each stage
# prints its time; README, "The two commands"):
#   1. release: formatting (scripts/check-format.sh), gcc build (-Werror) and every ctest test:
#      unit, operators (kernels against references, single-operator cases against TensorFlow
#      Lite), real models, graph passes,
#      the tfcc command, tfcc serve, and the install tests (scratch-prefix install + the README's
#      C example built with pkg-config and find_package; the Debian package from cpack).
#   2. capped ISA: the kernel and operator tests (ops.*, unit.test_kernel_*) again with kernel
#      dispatch capped at each level below this CPU's best (TFCC_ISA=generic, sse4, avx2, ...).
#   3. aarch64: the library and the NEON kernel tests cross-compiled, run under qemu-aarch64.
#   4. sanitizers: clang build with ASan + UBSan and every ctest test again.
#   5. fuzzing (libFuzzer, from the ASan build): model reader, encrypted-container parser,
#      tfcc serve's request parsers, the packed-weights cache reader, the arena planner, the
#      hot weight update and the whole load / plan / run path on mutated models
#      (fuzz_model_run), two at a time, each a fixed number of
#      inputs (about as many as CI's machine ran in 45, 20, 20, 20 and 30-40 s when they were
#      timed; the planner's and the weight update's counts from CPU seconds here, docs/format.md
#      fuzz63) from a seed taken
#      from the commit: the same commit fuzzes the same
#      inputs on any machine with the same CPU features (they choose the kernels), so a find can
#      be reproduced, and every commit fuzzes new ones.
#   6. WebAssembly: scripts/build-wasm.sh (Emscripten from apt when missing; skipped when it cannot
#      be had), the Node tests of the npm package tfcc-wasm and its headless-Chromium page test
#      (chromium from apt when missing; ctest in build-wasm/), and the threads build's Node test
#      (2 threads on worker_threads against 1 and TFLite; build-wasm-threads/), and the SIMD128
#      kernel drivers in Node (scripts/check-wasm-kernels.sh).
#   7. ThreadSanitizer: clang -fsanitize=thread build of the library, the tfcc command and the
#      concurrency tests (thread pool, concurrent sessions, hot weight update and file reads
#      under rewrites, tfcc serve's reload, batching, queue and drain tests); any data race or
#      lock-order report fails it.
# Each stage prints a line or two; its whole output goes to build/logs/<stage>.log, and when a
# stage fails the end of its log is printed. TFCC_TEST_VERBOSE=1 prints everything instead;
# TFCC_FUZZ_SECONDS=0 skips fuzzing (or N runs every target for N seconds instead of its count of
# inputs); TFCC_FUZZ_SEED=N fuzzes from another seed (0: libFuzzer's own random one); TFCC_SHARED_DIR points at the
# shared models (default ../shared); TFCC_TEST_STAGES="1 4" runs only those stages (a later
# stage uses what an earlier one built: stage 2 needs build/, stage 5 build-asan/).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
shared=${TFCC_SHARED_DIR:-$(cd .. && pwd)/shared}
logs=build/logs
mkdir -p "$logs"
rm -f "$logs"/*.log
t_start=$SECONDS
stages=" ${TFCC_TEST_STAGES:-1 2 3 4 5 6 7} "
want() { [[ $stages == *" $1 "* ]]; }

# CPU time: the user + system seconds of this shell's finished children (and theirs: compilers,
# tests, fuzzers), from /proc/self/stat's cutime + cstime (CLK_TCK ticks); 0 where there is no
# /proc. The machine may be shared, so wall time alone does not say what a stage costs.
# (cpu_pid: a subshell's own pid, $BASHPID, where it runs steps of its own: stage 5's lanes)
clk_tck=$(getconf CLK_TCK 2>/dev/null || echo 100)
child_cpu_ticks() {
  local s f
  s=$(cat "/proc/${cpu_pid:-$$}/stat" 2>/dev/null) || { echo 0; return; }
  read -r -a f <<<"${s##*) }" # the fields after the command name: f[13] cutime, f[14] cstime
  echo $((f[13] + f[14]))
}
cpu_s() { echo "$(($1 / clk_tck)).$(((($1 % clk_tck) * 10) / clk_tck))"; } # ticks -> "12.3"
section=0 # the numbered stage being run (1-7): the summary at the end adds its steps up
declare -a sec_wall=(0 0 0 0 0 0 0 0) sec_cpu=(0 0 0 0 0 0 0 0)
steps_table=""
# print_times: the time table: each step, then each numbered stage (wall s, CPU s: user +
# system of its processes), and the whole run's (printed at the end, or after a failed step)
print_times() {
  echo "== times (wall s, CPU s)$steps_table"
  local titles=("" "release" "ISA caps" "aarch64" "ASan+UBSan" "fuzzing" "wasm" "TSan") n
  total_cpu=0
  for n in 1 2 3 4 5 6 7; do
    want $n || continue
    printf '   %d. %-19s %6d %8s\n' $n "${titles[n]}" "${sec_wall[n]}" "$(cpu_s "${sec_cpu[n]}")"
    total_cpu=$((total_cpu + sec_cpu[n]))
  done
  printf '   %-22s %6d %8s\n' "all" $((SECONDS - t_start)) "$(cpu_s "$(child_cpu_ticks)")"
}
# stage NAME CMD...: runs CMD with its output in $logs/NAME.log; on failure prints the log's end
# and exits. Sets STAGE_SECONDS and STAGE_TIME ("N s, CPU M s") and adds both to the summary.
stage() {
  local name=$1 log=$logs/$1.log t0=$SECONDS rc=0 c0
  c0=$(child_cpu_ticks)
  shift
  if [ "${TFCC_TEST_VERBOSE:-0}" = 1 ]; then
    "$@" 2>&1 | tee "$log" || rc=$?
  else
    "$@" >"$log" 2>&1 || rc=$?
  fi
  if [ $rc -ne 0 ]; then
    echo "   FAILED: $name (exit $rc, $((SECONDS - t0)) s). The last lines of $log:"
    tail -n 60 "$log" | sed 's/^/   | /'
    echo "== test.sh failed in '$name'; whole log: $log"
    print_times
    exit $rc
  fi
  STAGE_SECONDS=$((SECONDS - t0))
  local cpu=$(($(child_cpu_ticks) - c0))
  STAGE_TIME="$STAGE_SECONDS s, CPU $(cpu_s $cpu) s"
  sec_wall[section]=$((sec_wall[section] + STAGE_SECONDS))
  sec_cpu[section]=$((sec_cpu[section] + cpu))
  steps_table+=$(printf '\n   %-22s %6d %8s' "$name" "$STAGE_SECONDS" "$(cpu_s $cpu)")
}
# The sanitizer builds (stages 4, 7): -O2 with line tables only (reports keep file:line; the
# full debug info made the compile about 20% slower), and no bench/ programs in stage 4 (ctest
# runs none; stage 1 builds them with -Werror).
san_opt_flags="-O2 -gline-tables-only -DNDEBUG"
# ctest_summary LOG: "N tests passed, K skipped (names)".
ctest_summary() {
  local passed skipped
  # (no match is not an error: a run with nothing skipped has no "(Skipped)" line)
  passed=$(grep -E '^[0-9]+% tests passed' "$1" | tail -1 || true)
  skipped=$( (grep -E '^[[:space:]]+[0-9]+ - .* \(Skipped\)$' "$1" || true) | sed -E 's/^[[:space:]]+[0-9]+ - ([^ ]+) .*/\1/' | tr '\n' ' ')
  echo "   $passed${skipped:+; skipped: $skipped}"
}

if want 1; then
section=1
echo "== 1. release build (gcc) and all tests"
# formatting first (.clang-format; scripts/format.sh fixes it): clang-format from apt when missing
if ! command -v clang-format >/dev/null && ! command -v clang-format-14 >/dev/null &&
   [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  stage clang-format-install bash -c 'export DEBIAN_FRONTEND=noninteractive; apt-get install -y -q --no-install-recommends clang-format ||
    { apt-get update -q && apt-get install -y -q --no-install-recommends clang-format; }'
fi
stage check-format bash scripts/check-format.sh
echo "   formatting checked ($STAGE_TIME)"
stage configure cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFCC_SHARED_DIR="$shared"
stage build ninja -C build -j "$jobs"
echo "   built ($STAGE_TIME)"
stage ctest ctest --test-dir build --output-on-failure -j "$jobs"
ctest_summary "$logs/ctest.log"
echo "   ($STAGE_TIME)"

fi

if want 2; then
section=2
echo "== 2. kernel and operator tests at each lower ISA cap"
best=$(build/tools/tfcc cpu-info --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["best_isa"])' 2>/dev/null || echo generic)
caps=()
for cap in generic sse4 avx2 avx512 neon; do
  [ "$cap" = "$best" ] && break
  [ "$cap" = neon ] && continue
  caps+=("$cap")
done
[ "$best" = neon ] && caps=(generic)
for cap in "${caps[@]}"; do
  TFCC_ISA=$cap stage "ctest-isa-$cap" ctest --test-dir build --output-on-failure -j "$jobs" -R '^(ops\.|unit\.test_kernel)'
  echo "   TFCC_ISA=$cap: $(grep -E '^[0-9]+% tests passed' "$logs/ctest-isa-$cap.log" | tail -1) ($STAGE_TIME)"
done
[ ${#caps[@]} -gt 0 ] || echo "   (none: the best level here is $best)"

fi

if want 3; then
section=3
echo "== 3. aarch64: NEON kernels cross-compiled, run under qemu"
stage aarch64 bash -c 'sh scripts/check-aarch64.sh; rc=$?; [ $rc -eq 77 ] && echo "aarch64 stage skipped (exit 77)"; [ $rc -eq 0 ] || [ $rc -eq 77 ]'
if grep -q 'aarch64 stage skipped' "$logs/aarch64.log"; then
  echo "   SKIPPED: $(grep -m1 SKIP "$logs/aarch64.log")"
else
  echo "   $(grep -cE ': [0-9]+ checks, 0 failed' "$logs/aarch64.log") test programs passed ($STAGE_TIME)"
fi

fi

if want 4; then
section=4
echo "== 4. clang, ASan + UBSan build and all tests"
stage configure-asan env CC=clang cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$san_opt_flags" -DTFCC_BUILD_BENCH=OFF \
  -DTFCC_SANITIZE=address,undefined -DTFCC_FUZZ=ON -DTFCC_SHARED_DIR="$shared"
stage build-asan ninja -C build-asan -j "$jobs"
echo "   built ($STAGE_TIME)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  stage ctest-asan ctest --test-dir build-asan --output-on-failure -j "$jobs"
ctest_summary "$logs/ctest-asan.log"
echo "   ($STAGE_TIME)"

fi

if want 5; then
section=5
echo "== 5. fuzzing (libFuzzer, ASan + UBSan)"
fz=build-asan/tests/fuzz
# The seed: TFCC_FUZZ_SEED, else the commit's first 7 hex digits (1 outside a git checkout).
# libFuzzer given the same binary, corpus (tests/fuzz/make_corpus.sh), seed and count of inputs
# runs the same inputs, so a CI find is reproduced by this stage on a fresh clone of its commit
# (but fuzz_crypto_container: its seeds are encrypted afresh, with new random nonces, each time).
fuzz_seed=${TFCC_FUZZ_SEED:-}
if [ -z "$fuzz_seed" ]; then
  head_hex=$(git rev-parse --short=7 HEAD 2>/dev/null || true)
  fuzz_seed=$([[ $head_hex =~ ^[0-9a-f]{7}$ ]] && echo $((16#$head_hex)) || echo 1)
fi
# fuzz NAME INPUTS SECONDS CORPUS [libFuzzer options]: INPUTS inputs (SECONDS is about their
# time on CI's machine; four times it bounds a slower one, which then runs only the first of
# the same inputs), or TFCC_FUZZ_SECONDS seconds when that is set. FUZZ_ENV: the target's
# environment (its modes), FUZZ_TAG: the stage's name and log (default NAME)
fuzz() {
  local name=$1 inputs=$2 secs=$3 corpus=$4 tag=${FUZZ_TAG:-$1}
  shift 4
  if [ ! -x "$fz/$name" ]; then
    echo "   $name: not built (needs clang$([ "$name" = fuzz_crypto_container ] && echo ' and OpenSSL'))"
    return
  fi
  local limit=(-runs="$inputs" -max_total_time=$((4 * secs)))
  [ -n "$fuzz_secs" ] && limit=(-max_total_time="$fuzz_secs")
  mkdir -p "$corpus" "$fz/artifacts"
  # -reload=0: libFuzzer otherwise re-reads the corpus folder every second, which makes the
  # inputs depend on the machine's speed
  # shellcheck disable=SC2086 # FUZZ_ENV: VAR=VALUE words
  stage "$tag" env ${FUZZ_ENV:-} "$fz/$name" "${limit[@]}" -seed="$fuzz_seed" -reload=0 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$fz/artifacts/$tag-" "$@" "$corpus"
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_runs: *//p; s/^Done \([0-9]*\) runs.*/\1/p' "$logs/$tag.log" | tail -1)
  echo "   $tag: ${runs:-?} inputs in $STAGE_TIME, no crash, leak or UB"
}
# fuzz_lanes LANE...: runs each lane (a function calling fuzz) in a subshell of its own, all
# at once (one after the other where nproc is 1), each lane's lines printed when all are done;
# the step "fuzz-lanes" holds their wall and CPU time, each fuzzer's line its own. A failed
# fuzzer fails the stage (its log's end is in its lane's lines).
fuzz_lanes() {
  local lane rc=0 t0=$SECONDS c0 pids=() i=0 cpu
  if [ "$jobs" -lt 2 ]; then
    for lane; do "$lane"; done
    return
  fi
  c0=$(child_cpu_ticks)
  for lane; do
    (
      cpu_pid=$BASHPID
      "$lane"
    ) >"$logs/$lane.out" 2>&1 &
    pids+=($!)
  done
  for lane; do
    wait "${pids[i]}" || rc=1
    i=$((i + 1))
  done
  for lane; do cat "$logs/$lane.out"; done
  cpu=$(($(child_cpu_ticks) - c0))
  sec_wall[section]=$((sec_wall[section] + SECONDS - t0))
  sec_cpu[section]=$((sec_cpu[section] + cpu))
  steps_table+=$(printf '\n   %-22s %6d %8s' fuzz-lanes "$((SECONDS - t0))" "$(cpu_s $cpu)")
  echo "   fuzzers: $((SECONDS - t0)) s, CPU $(cpu_s $cpu) s"
  if [ $rc -ne 0 ]; then
    echo "== test.sh failed in stage 5 (fuzzing)"
    print_times
    exit 1
  fi
}
fuzz_secs=${TFCC_FUZZ_SECONDS:-}
if [ "$fuzz_secs" = 0 ]; then
  echo "   skipped (TFCC_FUZZ_SECONDS=0)"
else
  echo "   seed $fuzz_seed (TFCC_FUZZ_SEED=$fuzz_seed repeats these inputs)"
  stage fuzz-corpus sh tests/fuzz/make_corpus.sh build-asan "$shared"
  # Two lanes, each a core's worth (fuzz63; nproc 1: one after the other): every fuzzer runs
  # the same inputs as alone (its count, its seed), only side by side. Balanced by each
  # fuzzer's CPU seconds for its count (docs/format.md, fuzz63): lane 1 the reader, crypto and
  # serve parsers (184 s there), lane 2 the whole-path fuzzers, the cache reader, the planner
  # and the weight update (175 s); one after the other they took 359 s.
  fuzz_lane_1() {
    fuzz fuzz_tflite_reader 2300000 45 "$fz/corpus" -max_len=65536
    fuzz fuzz_crypto_container 1800000 20 "$fz/corpus_crypto" -max_len=65536
    fuzz fuzz_serve_request 60000 20 "$fz/corpus_serve" -dict=tests/fuzz/serve_request.dict
  }
  fuzz_lane_2() {
    # the whole load / plan / run path on mutated models (tests/fuzz/fuzz_model_run.c)
    # (300,000: since its static outputs are bound its operators run, 7,000 inputs a second here)
    fuzz fuzz_model_run 300000 30 "$fz/corpus_run" -max_len=65536 -timeout=20 -rss_limit_mb=3072 \
      -malloc_limit_mb=1000000
    # and loaded from a file whose given back pages trap, resized and run again (fuzz58: the
    # class of stop 57's grouped CONV_2D after the release, the modes in fuzz_model_run.c), and
    # from the buffer: same load status, same output 0 at the file's shapes (review59)
    FUZZ_TAG=fuzz_model_run-file FUZZ_ENV="TFCC_FUZZ_LOAD=both TFCC_FUZZ_RESIZE=1 TFCC_DEBUG_RELEASE_TRAP=1" \
      fuzz fuzz_model_run 30000 30 "$fz/corpus_run" -max_len=65536 -timeout=20 -rss_limit_mb=3072 \
      -malloc_limit_mb=1000000
    fuzz fuzz_weights_cache 5000 20 "$fz/corpus_wcache" -max_len=1048576
    # the arena planner alone, its repair of the best placement order included (fuzz62; no seeds)
    fuzz fuzz_arena_plan 50000 15 "$fz/corpus_plan" -max_len=801
    # the hot weight update of a live model (fuzz63: a base model and a mutated update of it,
    # tests/fuzz/fuzz_weight_update.c), its weights cache a file kept from input to input
    FUZZ_ENV="TFCC_FUZZ_WCACHE=file" fuzz fuzz_weight_update 5000 30 "$fz/corpus_update" \
      -max_len=65536 -timeout=20 -rss_limit_mb=3072 -malloc_limit_mb=1000000
  }
  fuzz_lanes fuzz_lane_1 fuzz_lane_2
fi
fi
if want 6; then
section=6
echo "== 6. WebAssembly: tfcc-wasm (Emscripten, SIMD128) and its Node tests"
stage wasm-build bash -c 'bash scripts/build-wasm.sh; rc=$?; [ $rc -eq 77 ] && echo "wasm stage skipped (exit 77)"; [ $rc -eq 0 ] || [ $rc -eq 77 ]'
if grep -q 'wasm stage skipped' "$logs/wasm-build.log"; then
  echo "   SKIPPED: $(grep -m1 SKIP "$logs/wasm-build.log")"
else
  echo "   $(grep -m1 '^built ' "$logs/wasm-build.log") ($STAGE_TIME)"
  # wasm.browser drives Debian's chromium headless: installed here when missing (the test
  # reports skipped, exit 77, when it cannot be had)
  if ! command -v chromium >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    stage chromium-install bash -c 'export DEBIAN_FRONTEND=noninteractive; apt-get install -y -q --no-install-recommends chromium ||
      { apt-get update -q && apt-get install -y -q --no-install-recommends chromium; } || echo "chromium could not be installed"'
    echo "   chromium: $(command -v chromium || echo 'not installed: wasm.browser will be skipped') ($STAGE_TIME)"
  fi
  TFCC_SHARED_DIR="$shared" stage ctest-wasm ctest --test-dir build-wasm --output-on-failure -j "$jobs"
  ctest_summary "$logs/ctest-wasm.log"
  echo "   ($STAGE_TIME)"
  # i16x60: the SIMD128 kernel drivers (tests/wasm/*_node.c) against the reference kernels in Node
  stage wasm-kernels bash -c 'sh scripts/check-wasm-kernels.sh; rc=$?; [ $rc -eq 0 ] || [ $rc -eq 77 ]'
  echo "   SIMD128 kernel drivers: $(tail -n 1 "$logs/wasm-kernels.log") ($STAGE_TIME)"
  # the threads build (pthreads on Node's worker_threads): 2 threads against 1 and TFLite
  # (its test runs on Node without relaxed SIMD, so no relaxed-SIMD binary: the plain build's
  # relaxed twin above covers those sources)
  stage wasm-threads-build env TFCC_WASM_BUILD_DIR=build-wasm-threads TFCC_WASM_RELAXED_BUILD=0 bash scripts/build-wasm.sh --threads
  echo "   threads build: $(grep -m1 '^built ' "$logs/wasm-threads-build.log") ($STAGE_TIME)"
  TFCC_SHARED_DIR="$shared" stage ctest-wasm-threads ctest --test-dir build-wasm-threads --output-on-failure -R 'wasm\.node_threads'
  ctest_summary "$logs/ctest-wasm-threads.log"
  echo "   ($STAGE_TIME)"
fi
fi

if want 7; then
section=7
echo "== 7. ThreadSanitizer: thread pool, concurrent sessions, hot update, tfcc serve"
# The tests where threads meet: the pool, sessions run concurrently, hot updates and file
# rewrites during runs, sessions racing for the load's plan and the cache's read-ahead thread
# (lifecycle.test_load_plan), and the server's reload, batching, queueing and draining paths.
# (server.test_slowloris measures connection timing against timeouts.receive_s, which the
# sanitizer's slowdown distorts; it runs in stages 1 and 4.)
tsan_tests='^(unit\.test_threadpool|unit\.test_concurrent_sessions|lifecycle\.test_hot_update|lifecycle\.test_model_file|lifecycle\.test_load_plan|server\.test_(hot_update|reload|batching|queue|inplace_rewrite|sigterm|config|endpoints|signatures))$'
stage configure-tsan env CC=clang cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$san_opt_flags" -DTFCC_SANITIZE=thread -DTFCC_SHARED_DIR="$shared"
stage build-tsan ninja -C build-tsan -j "$jobs" tfcc unit_test_threadpool unit_test_concurrent_sessions \
  lifecycle_test_hot_update lifecycle_test_model_file lifecycle_test_load_plan
echo "   built ($STAGE_TIME)"
# Reports go to files (a server's stderr is not always the test's): any file fails the stage.
tsan_dir=$PWD/$logs/tsan
rm -rf "$tsan_dir"
mkdir -p "$tsan_dir"
TSAN_OPTIONS="log_path=$tsan_dir/report second_deadlock_stack=1" \
  stage ctest-tsan ctest --test-dir build-tsan --output-on-failure -j "$jobs" -R "$tsan_tests"
ctest_summary "$logs/ctest-tsan.log"
if compgen -G "$tsan_dir/report*" >/dev/null; then
  echo "   FAILED: ThreadSanitizer reports in $tsan_dir:"
  head -n 60 "$tsan_dir"/report* | sed 's/^/   | /'
  exit 1
fi
echo "   no data race or lock-order report ($STAGE_TIME)"
fi
print_times
echo "== all tests passed ($(( (SECONDS - t_start) / 60 )) min $(( (SECONDS - t_start) % 60 )) s, CPU $(cpu_s $total_cpu) s in the stages; logs in $logs/)"
