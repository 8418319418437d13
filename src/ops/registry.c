/* Builtin code / custom name → operator definition. */
#include <string.h>

#include "ops/op.h"
#include "ops/op_list.h"

#define TFCC_DECLARE_OP_(code, sym) extern const tfcc_op_def tfcc_op_##sym;
TFCC_OP_LIST(TFCC_DECLARE_OP_)
#undef TFCC_DECLARE_OP_

const tfcc_op_def *tfcc_op_lookup(int32_t builtin) {
  switch (builtin) {
#define TFCC_CASE_OP_(code, sym) \
  case TFCC_OP_##code: return &tfcc_op_##sym;
    TFCC_OP_LIST(TFCC_CASE_OP_)
#undef TFCC_CASE_OP_
    default: return NULL;
  }
}

extern const tfcc_op_def tfcc_op_expand_dwconv;

const tfcc_op_def *tfcc_op_internal(int32_t code) {
  switch (code) {
    case TFCC_OP_EXPAND_DEPTHWISE_CONV_2D: return &tfcc_op_expand_dwconv;
    default: return NULL;
  }
}

#define TFCC_DECLARE_CUSTOM_(name, sym) extern const tfcc_op_def tfcc_op_##sym;
TFCC_CUSTOM_OP_LIST(TFCC_DECLARE_CUSTOM_)
#undef TFCC_DECLARE_CUSTOM_

const tfcc_op_def *tfcc_op_custom(const char *name) {
  if (!name) return NULL;
#define TFCC_MATCH_CUSTOM_(cname, sym) \
  if (strcmp(name, cname) == 0) return &tfcc_op_##sym;
  TFCC_CUSTOM_OP_LIST(TFCC_MATCH_CUSTOM_)
#undef TFCC_MATCH_CUSTOM_
  return NULL;
}

/* The highest version of each operator that tfcc implements: the versions of TFLite's kernels
 * whose semantics the operator follows (TFLite's builtin resolver registers the same ranges).
 * Operators not listed implement version 1 only. A file's newer version may change semantics
 * (new dtypes, attributes), so the model loader refuses it rather than run it differently. */
int32_t tfcc_op_max_version(int32_t builtin) {
  switch (builtin) {
    case TFCC_OP_DEPTH_TO_SPACE:
    case TFCC_OP_DIV:
    case TFCC_OP_EXP:
    case TFCC_OP_GREATER:
    case TFCC_OP_L2_NORMALIZATION:
    case TFCC_OP_LEAKY_RELU:
    case TFCC_OP_LOG:
    case TFCC_OP_LOG_SOFTMAX:
    case TFCC_OP_SPACE_TO_DEPTH:
    case TFCC_OP_SQUARED_DIFFERENCE:
    case TFCC_OP_SQUEEZE:
    case TFCC_OP_SUM:
    case TFCC_OP_LESS_EQUAL:
    case TFCC_OP_SELECT_V2:
    case TFCC_OP_FLOOR_MOD:
    case TFCC_OP_REDUCE_PROD:
    case TFCC_OP_RANGE: return 2;
    case TFCC_OP_ARG_MAX:
    case TFCC_OP_ARG_MIN:
    case TFCC_OP_AVERAGE_POOL_2D:
    case TFCC_OP_FLOOR_DIV:
    case TFCC_OP_LOGISTIC:
    case TFCC_OP_MAX_POOL_2D:
    case TFCC_OP_MEAN:
    case TFCC_OP_MIRROR_PAD:
    case TFCC_OP_REDUCE_MAX:
    case TFCC_OP_REDUCE_MIN:
    case TFCC_OP_RELU:
    case TFCC_OP_RELU6:
    case TFCC_OP_TANH:
    case TFCC_OP_TILE:
    case TFCC_OP_GREATER_EQUAL:
    case TFCC_OP_LESS: return 3;
    case TFCC_OP_BATCH_MATMUL:
    case TFCC_OP_MAXIMUM:
    case TFCC_OP_MINIMUM:
    case TFCC_OP_RESIZE_BILINEAR:
    case TFCC_OP_RESIZE_NEAREST_NEIGHBOR:
    case TFCC_OP_UNIDIRECTIONAL_SEQUENCE_LSTM:
    case TFCC_OP_SELECT:
    case TFCC_OP_SPACE_TO_BATCH_ND:
    case TFCC_OP_BATCH_TO_SPACE_ND: return 4;
    case TFCC_OP_ABS:
    case TFCC_OP_SUB: return 5;
    case TFCC_OP_DEPTHWISE_CONV_2D: return 7;
    case TFCC_OP_STRIDED_SLICE: return 8;
    /* opsa: TFLite's registered ranges (new versions add dtypes, which the operators check) */
    case TFCC_OP_FAKE_QUANT: return 2;
    case TFCC_OP_SPARSE_TO_DENSE:
    case TFCC_OP_TOPK_V2: return 3;
    /* sequence models (opsb): hybrid from v3, full integer from v4 (LSTM) */
    case TFCC_OP_RNN:
    case TFCC_OP_UNIDIRECTIONAL_SEQUENCE_RNN:
    case TFCC_OP_BIDIRECTIONAL_SEQUENCE_RNN:
    case TFCC_OP_BIDIRECTIONAL_SEQUENCE_LSTM: return 3;
    case TFCC_OP_LSTM:
    case TFCC_OP_SVDF: return 4;
    /* opsc: versions the standard resolver registers whose dtypes these operators already run
     * (SIGN v2: int32; WHERE v2: non-bool conditions; REVERSE_V2 v2: bool, v3: int8) */
    case TFCC_OP_SIGN:
    case TFCC_OP_WHERE: return 2;
    /* ops: versions of the newest standard resolver whose new forms these operators now run:
     * int4 weights (unpacked to int8 at load: CONV_2D v7, FULLY_CONNECTED v10 and v13 with int16,
     * EMBEDDING_LOOKUP v4, CAST v6 int4 -> float32), int32 bias with int16 activations (CONV_2D
     * v8, FULLY_CONNECTED v11, TRANSPOSE_CONV v5), hybrid per-channel FULLY_CONNECTED v12, bfloat16 (CAST v7), bool (PAD / PADV2 v5,
     * GATHER_ND v5), int16 (RSQRT v3, DYNAMIC_UPDATE_SLICE v4) */
    case TFCC_OP_RSQRT: return 3;
    case TFCC_OP_TRANSPOSE_CONV: return 5;
    case TFCC_OP_CONV_2D: return 8;
    /* ops: run-time int4 tensors (one value per byte, docs/operators.md): QUANTIZE v4 (float32
     * -> int4), DEQUANTIZE v6, GATHER v7, TRANSPOSE v7, SLICE v7, CONCATENATION v5,
     * DYNAMIC_UPDATE_SLICE v5 (int4); quantized int16 comparisons (EQUAL v5, NOT_EQUAL v4:
     * rescaled as comparisons.cc); SQRT v2 (int8 / int16); copies of 16-bit floats (SLICE v8,
     * CONCATENATION v6 and TRANSPOSE v9 float16, TRANSPOSE v8 and DYNAMIC_UPDATE_SLICE v6
     * bfloat16, UNPACK v5 float16 / bfloat16) and TRANSPOSE v8's ranks 7-8; float16 ADD v6 and
     * MUL v8 (float32 arithmetic rounded to half) */
    case TFCC_OP_SQRT: return 2;
    case TFCC_OP_NOT_EQUAL: return 4;
    case TFCC_OP_EQUAL: return 5;
    case TFCC_OP_ADD: return 6;
    case TFCC_OP_MUL: return 8;
    case TFCC_OP_DYNAMIC_UPDATE_SLICE: return 6;
    case TFCC_OP_SLICE: return 8;
    case TFCC_OP_TRANSPOSE: return 9;
    /* types: float8 tensors (copies, CAST v9 and DEQUANTIZE v9 as ml_dtypes converts), int2 /
     * uint4 tensors (constants unpacked at load, run-time ones one value per byte: CAST v8,
     * DEQUANTIZE v7 / v8, EMBEDDING_LOOKUP v5, FULLY_CONNECTED v14, QUANTIZE v5), QUANTIZE v6
     * (uint8 -> int16) */
    case TFCC_OP_SPLIT_V: return 3;
    case TFCC_OP_GELU: return 3; /* ops: float16 (v3), as LiteRT's XNNPACK path */
    case TFCC_OP_SOFTMAX:        /* types: float16 (v4) */
    case TFCC_OP_BROADCAST_TO:
    case TFCC_OP_REVERSE_V2: return 4;
    case TFCC_OP_EMBEDDING_LOOKUP:
    case TFCC_OP_FILL:
    case TFCC_OP_PACK:
    case TFCC_OP_SPLIT: return 5;
    case TFCC_OP_GATHER_ND:
    case TFCC_OP_PAD:
    case TFCC_OP_PADV2:
    case TFCC_OP_QUANTIZE:
    case TFCC_OP_UNPACK: return 6;
    case TFCC_OP_CONCATENATION: return 7;
    case TFCC_OP_GATHER: return 8;
    case TFCC_OP_CAST:
    case TFCC_OP_DEQUANTIZE: return 9;
    case TFCC_OP_FULLY_CONNECTED: return 14;
    default: return 1;
  }
}
