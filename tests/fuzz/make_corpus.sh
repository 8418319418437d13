#!/bin/sh
# Fills a libFuzzer seed corpus: the hand-assembled tiny model from the robustness test
# (exercises sparsity, per-axis quantization, signatures, metadata, custom ops) and the
# small shared models. Usage: tests/fuzz/make_corpus.sh BUILD_DIR [SHARED_DIR]
set -eu
build=${1:?build dir}
shared=${2:-${TFCC_SHARED_DIR:-}}
corpus="$build/tests/fuzz/corpus"
mkdir -p "$corpus"
TFCC_WRITE_SEED="$corpus/tiny_model.tflite" "$build/tests/unit_test_loader_robustness" >/dev/null
if [ -n "$shared" ]; then
  for m in hello_world_int8 split_concat_quant keras_lstm_mnist_ptq mnist_lstm_float; do
    [ -f "$shared/models/$m.tflite" ] && cp -f "$shared/models/$m.tflite" "$corpus/"
  done
fi
ls -l "$corpus"
