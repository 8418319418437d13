#!/usr/bin/env bash
# Checks tfcc against TensorFlow Lite on networks that are not in ../shared: the zoo makes
# torchvision networks (random weights) as float32 and int8 .tflite files; each is run by
# TensorFlow Lite (tflite-ref) and by `tfcc run` on the same input and the outputs compared
# (int8: exact expected; float: 1e-3 + 1e-3*|ref|).
# Needs: python3-torch python3-torchvision python3-onnx python3-numpy (Debian), Node.js, and
# tflite-ref installed (see ../shared/tools/tflite-ref/README.md). Not part of CI (minutes of
# CPU and ~1 GB of packages).
#   scripts/check-zoo.sh [OUTDIR] [ARCH...]     default archs: mobilenet_v2 resnet50
#     mobilenet_v3_large efficientnet_b0 shufflenet_v2_x1_0 squeezenet1_1
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-${TMPDIR:-/tmp}/tfcc-zoo-check}
shift || true
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(mobilenet_v2 resnet50 mobilenet_v3_large efficientnet_b0 shufflenet_v2_x1_0 squeezenet1_1)
zoo=${ZOO_DIR:-$(cd .. && pwd)/shared/tools/zoo}
ref=${TFLITE_REF_DIR:-/tmp/tflite-ref}
tfcc=${TFCC:-build/tools/tfcc}
args=()
for a in "${archs[@]}"; do args+=(--arch "$a"); done
mkdir -p "$out"
/usr/bin/python3 "$zoo/make_pairs.py" "${args[@]}" --outdir "$out" >/dev/null
fail=0
for a in "${archs[@]}"; do
  for m in "$a" "$a.int8"; do
    rm -rf "$out/ref_$m" "$out/ours_$m"
    node "$ref/run_ref.mjs" "$out/$m.tflite" "$out/ref_$m" "$out/$a.input_nhwc.npy" --quiet >/dev/null
    "$tfcc" run "$out/$m.tflite" -i "$out/$a.input_nhwc.npy" -o "$out/ours_$m" >/dev/null
    line=$(python3 tests/cli/npy_tool.py compare "$out/ours_$m/0_output.npy" "$out/ref_$m/output_0.npy") || fail=1
    echo "$m: $line"
  done
done
exit $fail
