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
# Encrypted-container seeds (fuzz_crypto_container's fixed key is 01 02 .. 20).
if [ -x "$build/tools/tfcc" ] && "$build/tools/tfcc" encrypt --help >/dev/null 2>&1; then
  ccorpus="$build/tests/fuzz/corpus_crypto"
  mkdir -p "$ccorpus"
  key=$(mktemp)
  printf '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20' >"$key"
  for m in "$corpus"/*.tflite; do
    "$build/tools/tfcc" encrypt "$m" -o "$ccorpus/$(basename "$m" .tflite).tfcce" --key-file "$key" --key-id fuzz >/dev/null
  done
  rm -f "$key"
  ls -l "$ccorpus"
fi
