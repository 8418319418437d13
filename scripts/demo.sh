#!/usr/bin/env bash
# Installs what tfcc needs (Debian 12, as root), builds it, makes the built-in default model with
# tfcc's own model builder and runs it: inspect, one inference, a short benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C build -j "$(nproc)"
model=build/models/mobilenet_v1_025_128_int8.tflite
python3 modelgen/build.py --out build/models --net mobilenet_v1_025_128_int8
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
echo "== tfcc run"
build/tools/tfcc run "$model" -i build/models/demo_input.npy -o build/demo_out
if build/tools/tfcc bench --help >/dev/null 2>&1; then
  echo "== tfcc bench"
  build/tools/tfcc bench "$model" --runs 50
fi
