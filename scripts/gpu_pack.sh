#!/usr/bin/env bash
# Packs what scripts/gpu_check.sh needs on a GPU machine that cannot build tfcc's tools (no
# libjpeg / libpng headers) or reach the network: the tfcc command, libtfcc, libtfcc_cuda, the
# CUDA test programs, the device kernels' test, the image libraries the command links, the
# shared models, the zoo's tools and the benchmark scripts. Builds BUILD (Release, TFCC_CUDA=ON)
# first when it has no libtfcc_cuda.
#
#   bash scripts/gpu_pack.sh BUILD PAYLOAD [SHARED] [ZOO]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:?build dir}
P=${2:?payload dir}
SHARED=${3:-../shared}
ZOO=${4:-$HOME/.cache/tfcc-zoo}
if [ ! -e "$B/libtfcc_cuda.so.0" ]; then
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFCC_CUDA=ON -DTFCC_PYTHON=OFF \
    -DTFCC_BUILD_EXAMPLES=OFF -DTFCC_SHARED_DIR="$(cd "$SHARED" && pwd)"
fi
ninja -C "$B" tfcc tfcc_cuda cuda_test_cuda_models cuda_test_device_errors
rm -rf "$P"
mkdir -p "$P"/{bin,lib,shared/models,zoo_tools,bench,zoo_carried}
cp "$B/tools/tfcc" "$B/tests/cuda_test_cuda_models" "$B/tests/cuda_test_device_errors" "$P/bin/"
if [ -f tests/cuda/build_kernels_test.sh ]; then
  bash tests/cuda/build_kernels_test.sh "$P/bin/gpu_kernels_test"
fi
cp -L "$B/libtfcc.so.0" "$B/libtfcc_cuda.so.0" "$P/lib/"
cp -L "$B/libtfcc_cuda.so.0" "$P/lib/libtfcc_cuda.so"
for l in libjpeg.so.62 libpng16.so.16; do
  f=$(ldconfig -p | awk -v l="$l" '$1 == l && !f {print $NF; f = 1}') # reads it all: no SIGPIPE
  [ -n "$f" ] && cp -L "$f" "$P/lib/"
done
strip --strip-unneeded "$P"/bin/* "$P"/lib/* 2>/dev/null || true
# the shared models, less the quantized classifiers that run wholly on the CPU (size)
for m in "$SHARED"/models/*.tflite; do
  case $(basename "$m") in
  mobilenet_v2_224_quant.tflite | tf2_mobilenet_v2_224_ptq.tflite | movenet_lightning_ptq.tflite) ;;
  *) cp "$m" "$P/shared/models/" ;;
  esac
done
cp "$SHARED"/tools/zoo/*.py "$P/zoo_tools/"
cp bench/cuda/*.py tests/server/srv_client.py "$P/bench/"
cp scripts/gpu_check.sh "$P/"
[ -f "$ZOO/mobilenet_v2.tflite" ] && cp "$ZOO/mobilenet_v2.tflite" "$P/zoo_carried/"
du -sh "$P"
