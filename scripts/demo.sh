#!/usr/bin/env bash
# Installs what tfcc needs (Debian 12, as root), builds the tfcc command, makes the built-in
# default model (MobileNet v1 0.25 int8) with tfcc's own model builder and runs it: inspect,
# one inference, a short benchmark. Each step prints a line or two; the installation and build
# output goes to build/logs/demo-<step>.log, and its end is printed if a step fails.
# TFCC_TEST_VERBOSE=1 prints everything.
set -euo pipefail
cd "$(dirname "$0")/.."
logs=build/logs
mkdir -p "$logs"

# step NAME CMD...: CMD's output to $logs/demo-NAME.log; on failure the log's end, then exit.
step() {
  local name=$1 log=$logs/demo-$1.log t0=$SECONDS rc=0
  shift
  if [ "${TFCC_TEST_VERBOSE:-0}" = 1 ]; then
    "$@" 2>&1 | tee "$log" || rc=$?
  else
    "$@" >"$log" 2>&1 || rc=$?
  fi
  if [ $rc -ne 0 ]; then
    echo "   FAILED (exit $rc). The last lines of $log:"
    tail -n 40 "$log" | sed 's/^/   | /'
    exit $rc
  fi
  echo "   ok ($((SECONDS - t0)) s; log: $log)"
}

echo "== installing build dependencies (apt)"
step deps bash scripts/install-deps.sh
echo "== building the tfcc command (Release)"
step configure cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
step build ninja -C build -j "$(nproc)" tfcc
echo "== making the default model with modelgen/"
model=build/models/mobilenet_v1_025_128_int8.tflite
step model python3 modelgen/build.py --out build/models --net mobilenet_v1_025_128_int8
python3 - <<'PY'
import math, sys
sys.path.insert(0, "modelgen")
import npy
n = 128 * 128 * 3
npy.save("build/models/demo_input.npy", "float32", (1, 128, 128, 3),
         [math.sin(i * 0.001) for i in range(n)])
PY
echo "== tfcc inspect $model"
build/tools/tfcc inspect "$model"
echo "== tfcc run $model -i build/models/demo_input.npy -o build/demo_out"
build/tools/tfcc run "$model" -i build/models/demo_input.npy -o build/demo_out
echo "== tfcc bench $model --runs 50 (per-operator profile: tfcc bench without --profile-runs 0)"
build/tools/tfcc bench "$model" --runs 50 --profile-runs 0
