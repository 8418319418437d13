#!/bin/sh
# Fills a libFuzzer seed corpus: the hand-assembled tiny model from the robustness test
# (exercises sparsity, per-axis quantization, signatures, metadata, custom ops) and the
# small shared models. Usage: tests/fuzz/make_corpus.sh BUILD_DIR [SHARED_DIR]
set -eu
build=${1:?build dir}
shared=${2:-${TFCC_SHARED_DIR:-}}
# tfcc serve request seeds with binary tensors (fuzz_serve_request: byte 0 picks the parser,
# bytes 1-2 are the Inference-Header-Content-Length, big-endian); the text seeds come from
# tests/fuzz/CMakeLists.txt. Run: fuzz_serve_request -dict=tests/fuzz/serve_request.dict DIR
scorpus="$build/tests/fuzz/corpus_serve"
if [ -d "$scorpus" ]; then
  h='{"inputs":[{"name":"x","datatype":"FP32","shape":[1,1,3],"parameters":{"binary_data_size":12}},{"name":"ids","datatype":"INT8","shape":[2],"parameters":{"binary_data_size":2}},{"name":"flag","datatype":"BOOL","shape":[],"parameters":{"binary_data_size":1}}],"outputs":[{"name":"y","parameters":{"binary_data":true}},{"name":"z"}],"parameters":{"binary_data_output":true}}'
  n=${#h}
  { printf '\000'; printf "\\$(printf %03o $((n >> 8)))\\$(printf %03o $((n & 255)))"; printf '%s' "$h"
    printf '\000\000\200\077\000\000\000\100\000\000\100\100\377\001\001'; } >"$scorpus/kserve_binary"
  hb='{"inputs":[{"name":"x","datatype":"BYTES","shape":[1],"parameters":{"binary_data_size":7}}]}'
  n=${#hb}
  { printf '\000'; printf "\\$(printf %03o $((n >> 8)))\\$(printf %03o $((n & 255)))"; printf '%s' "$hb"
    printf '\003\000\000\000abc'; } >"$scorpus/kserve_bytes_binary"
  ls -l "$scorpus"
fi
corpus="$build/tests/fuzz/corpus"
mkdir -p "$corpus"
# (exit 77: the test ran but skipped its ../shared part; the seed is written either way)
rc=0
TFCC_WRITE_SEED="$corpus/tiny_model.tflite" "$build/tests/unit_test_loader_robustness" >/dev/null || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || exit "$rc"
if [ -n "$shared" ]; then
  for m in hello_world_int8 split_concat_quant keras_lstm_mnist_ptq mnist_lstm_float; do
    [ -f "$shared/models/$m.tflite" ] && cp -f "$shared/models/$m.tflite" "$corpus/"
  done
fi
# opsc operators (StableHLO, LSH_PROJECTION, EMBEDDING_LOOKUP_SPARSE): one conformance model
# each, so that the fuzzer starts from their operator codes, options and operand checks; and
# sparse tensors (review59: DENSIFY cases, every index vector type, blocks, CSR levels)
conf="$(dirname "$0")/../ops/conformance"
for m in stablehlo_add_f32 stablehlo_multiply_i32 stablehlo_maximum_f32_nan stablehlo_minimum_u8 \
         stablehlo_and_bool stablehlo_shift_left_i16 lsh_projection_sparse_i32x2_weighted \
         lsh_projection_dense_f32x40 embedding_lookup_sparse_mean_3d embedding_lookup_sparse_sqrtn_revisit dilate_i8_4d \
         stablehlo_pad_f32_mixed stablehlo_pad_i8_crop_interior stablehlo_composite_f32_add_mul \
         stablehlo_gather_windows_i32 stablehlo_gather_batch2_u8 \
         reduce_window_max_f32_dilated reduce_window_min_i8 \
         stablehlo_reduce_window_max_f32_pool stablehlo_reduce_window_add_f32_dilations \
         stablehlo_scatter_rows_add_i32 stablehlo_scatter_window_min_i8 \
         densify_f32_dss_add densify_f32_b2x2_i32_fc densify_i8_b1x16_fc \
         densify_f32_csr_colmajor_add densify_f32_b1x4_u16_fc; do
  [ -f "$conf/$m.tflite" ] && cp -f "$conf/$m.tflite" "$corpus/"
done
# and their hostile models (modelgen/make_opsc_hostile.py): each fails with a named cause
for m in "$(dirname "$0")"/../ops/data/opsc_hostile/*.tflite; do
  [ -f "$m" ] && cp -f "$m" "$corpus/opsc_hostile_$(basename "$m")"
done
ls -l "$corpus"
# fuzz_model_run: the reader's seeds and every operator conformance model (each a small graph
# that load, session creation and a run take through init, prepare and eval)
rcorpus="$build/tests/fuzz/corpus_run"
mkdir -p "$rcorpus"
cp -f "$corpus"/*.tflite "$rcorpus/"
cp -f "$conf"/*.tflite "$rcorpus/"
# What stop 57's fuzzing found and the code of stops 56-57, for the file-load / resize / bf16 /
# weights-cache modes of fuzz_model_run (its header): the grouped-resize models of
# lifecycle.test_grouped_release, the control-flow and runtime-shape models (WHILE loops of
# hybrid bodies are conformance cases), and modelgen/make_fuzz_seeds.py's single operators whose
# constants hold whole pages (given back by a file load)
src="$(dirname "$0")/../.."
for d in tests/ops/data/grouped_release tests/models/data/control_flow \
  tests/models/data/placeholder_shapes tests/models/data/runtime_shapes \
  tests/models/data/custom_scratch; do
  for m in "$src/$d"/*.tflite; do
    [ -f "$m" ] && cp -f "$m" "$rcorpus/$(basename "$d")_$(basename "$m")"
  done
done
if command -v python3 >/dev/null 2>&1; then
  python3 "$src/modelgen/make_fuzz_seeds.py" --out "$rcorpus" >/dev/null
fi
echo "corpus_run: $(ls "$rcorpus" | wc -l) seeds"
# fuzz_weight_update (fuzz63): a base model and an update of it per file (new weights, each
# change of shape, dtype, quantization, sparsity or buffer count; the control-flow variants)
ucorpus="$build/tests/fuzz/corpus_update"
mkdir -p "$ucorpus"
if command -v python3 >/dev/null 2>&1; then
  python3 "$src/modelgen/make_update_seeds.py" --out "$ucorpus" \
    --control-flow "$src/tests/models/data/control_flow"
fi
# Packed-weights cache seeds (fuzz_weights_cache): the caches of small shared models.
if [ -x "$build/tools/tfcc" ] && [ -n "$shared" ]; then
  wcorpus="$build/tests/fuzz/corpus_wcache"
  mkdir -p "$wcorpus"
  for m in mobilenet_v1_025_128_quant person_detect_int8 face_detection_short_range; do
    [ -f "$shared/models/$m.tflite" ] || continue
    rm -f "$wcorpus/$m.wc"
    "$build/tools/tfcc" bench "$shared/models/$m.tflite" --runs 1 --warmup 0 --profile-runs 0 \
      --weights-cache "$wcorpus/$m.wc" >/dev/null 2>&1 || true
  done
  # cache54: caches holding the newer block kinds (13 q16-gemm, 14 / 15 the constant float
  # BATCH_MATMUL rhs, 16 hybrid q8 packing with column sums)
  for m in conv_2d_i16_3x3_same batch_matmul_f32_const_rhs hybrid_net_bmm_const_rhs_fc_adj_y \
    conv_2d_hybrid_grouped_pc_g4 batch_matmul_hybrid_pt; do
    [ -f "$conf/$m.tflite" ] || continue
    rm -f "$wcorpus/$m.wc"
    "$build/tools/tfcc" bench "$conf/$m.tflite" --runs 1 --warmup 0 --profile-runs 0 \
      --weights-cache "$wcorpus/$m.wc" >/dev/null 2>&1 || true
  done
  # cache55: 17, the hybrid depthwise's q8 row-kernel packing (written where the CPU has the
  # row kernel, AVX512-VNNI; elsewhere the model's cache holds no block)
  for m in depthwise_conv_2d_hybrid_pc_3x3_same; do
    [ -f "$conf/$m.tflite" ] || continue
    rm -f "$wcorpus/$m.wc"
    "$build/tools/tfcc" bench "$conf/$m.tflite" --runs 1 --warmup 0 --profile-runs 0 \
      --weights-cache "$wcorpus/$m.wc" >/dev/null 2>&1 || true
  done
  # cache56: 18 / 19, the float and integer LSTM plans (19 where q8-lstm has a SIMD variant),
  # 13 of a 16x8 FULLY_CONNECTED, 20 q8-fc-small
  for m in unidirectional_sequence_lstm_f32_wide_tm lstm_i8_peephole_proj_clip \
    fully_connected_i16_2d fully_connected_i8_per_channel; do
    [ -f "$conf/$m.tflite" ] || continue
    rm -f "$wcorpus/$m.wc"
    "$build/tools/tfcc" bench "$conf/$m.tflite" --runs 1 --warmup 0 --profile-runs 0 \
      --weights-cache "$wcorpus/$m.wc" >/dev/null 2>&1 || true
  done
  # cache57: 22, a hybrid depthwise filter widened to int32 (depth multiplier 2: every CPU), and
  # 24, precision bf16's packing (where a bf16 kernel runs: AVX512-BF16)
  for m in depthwise_conv_2d_hybrid_pc_3x3_valid_m2_s2 conv_2d_f32_3x3_same; do
    [ -f "$conf/$m.tflite" ] || continue
    rm -f "$wcorpus/$m.wc"
    prec=f32
    [ "$m" = conv_2d_f32_3x3_same ] && prec=bf16
    "$build/tools/tfcc" bench "$conf/$m.tflite" --runs 1 --warmup 0 --profile-runs 0 \
      --precision "$prec" --weights-cache "$wcorpus/$m.wc" >/dev/null 2>&1 || true
  done
  # cache58: 25, per-channel requantization tables (XNNPACK's scales in the int8 CONV_2D's, none
  # in the 16x8 depthwise's) and 27, the 16x8 depthwise's q16-dwconv packing; person_detect_int8
  # above holds 26, the fused expand + depthwise node's second set
  for m in conv_2d_i8_3x3_same depthwise_conv_2d_i16_3x3_same_m1; do
    [ -f "$conf/$m.tflite" ] || continue
    rm -f "$wcorpus/$m.wc"
    "$build/tools/tfcc" bench "$conf/$m.tflite" --runs 1 --warmup 0 --profile-runs 0 \
      --weights-cache "$wcorpus/$m.wc" >/dev/null 2>&1 || true
  done
  ls -l "$wcorpus"
fi
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
