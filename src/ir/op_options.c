/* Typed operator options: kinds per operator code, defaults, field access shared by the
 * passes (the contract is in op_options.h). */
#include "ir/op_options.h"

#include <string.h>

#include "ir/builtin_ops.h"

tfcc_options_kind tfcc_options_kind_of(int32_t builtin) {
  switch (builtin) {
    case TFCC_OP_CONV_2D: return TFCC_OPTIONS_CONV_2D;
    case TFCC_OP_DEPTHWISE_CONV_2D: return TFCC_OPTIONS_DEPTHWISE_CONV_2D;
    case TFCC_OP_EXPAND_DEPTHWISE_CONV_2D: return TFCC_OPTIONS_EXPAND_DWCONV;
    case TFCC_OP_TRANSPOSE_CONV: return TFCC_OPTIONS_TRANSPOSE_CONV;
    case TFCC_OP_AVERAGE_POOL_2D:
    case TFCC_OP_MAX_POOL_2D:
    case TFCC_OP_L2_POOL_2D: return TFCC_OPTIONS_POOL_2D;
    case TFCC_OP_FULLY_CONNECTED: return TFCC_OPTIONS_FULLY_CONNECTED;
    case TFCC_OP_BATCH_MATMUL: return TFCC_OPTIONS_BATCH_MATMUL;
    case TFCC_OP_ADD:
    case TFCC_OP_SUB:
    case TFCC_OP_MUL:
    case TFCC_OP_DIV: return TFCC_OPTIONS_ARITH;
    case TFCC_OP_CONCATENATION: return TFCC_OPTIONS_CONCATENATION;
    case TFCC_OP_L2_NORMALIZATION: return TFCC_OPTIONS_L2_NORM;
    case TFCC_OP_SOFTMAX: return TFCC_OPTIONS_SOFTMAX;
    case TFCC_OP_LEAKY_RELU: return TFCC_OPTIONS_LEAKY_RELU;
    case TFCC_OP_GELU: return TFCC_OPTIONS_GELU;
    case TFCC_OP_DEPTH_TO_SPACE:
    case TFCC_OP_SPACE_TO_DEPTH: return TFCC_OPTIONS_BLOCK;
    case TFCC_OP_GATHER: return TFCC_OPTIONS_GATHER;
    case TFCC_OP_MIRROR_PAD: return TFCC_OPTIONS_MIRROR_PAD;
    case TFCC_OP_PACK:
    case TFCC_OP_UNPACK: return TFCC_OPTIONS_PACK;
    case TFCC_OP_MEAN:
    case TFCC_OP_SUM:
    case TFCC_OP_REDUCE_MAX:
    case TFCC_OP_REDUCE_MIN:
    case TFCC_OP_REDUCE_PROD:
    case TFCC_OP_REDUCE_ANY:
    case TFCC_OP_REDUCE_ALL: return TFCC_OPTIONS_REDUCER;
    case TFCC_OP_ARG_MAX:
    case TFCC_OP_ARG_MIN: return TFCC_OPTIONS_ARG;
    case TFCC_OP_SHAPE: return TFCC_OPTIONS_SHAPE;
    case TFCC_OP_CUMSUM: return TFCC_OPTIONS_CUMSUM;
    case TFCC_OP_WHILE: /* cflow */
    case TFCC_OP_IF:
    case TFCC_OP_CALL_ONCE:
    case TFCC_OP_CALL: return TFCC_OPTIONS_SUBGRAPHS;
    case TFCC_OP_VAR_HANDLE: return TFCC_OPTIONS_VAR_HANDLE;
    case TFCC_OP_RESHAPE: return TFCC_OPTIONS_RESHAPE;
    case TFCC_OP_SQUEEZE: return TFCC_OPTIONS_SQUEEZE;
    case TFCC_OP_RESIZE_BILINEAR:
    case TFCC_OP_RESIZE_NEAREST_NEIGHBOR: return TFCC_OPTIONS_RESIZE;
    case TFCC_OP_SPLIT: return TFCC_OPTIONS_SPLIT;
    case TFCC_OP_STRIDED_SLICE: return TFCC_OPTIONS_STRIDED_SLICE;
    case TFCC_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: return TFCC_OPTIONS_SEQUENCE_LSTM;
    /* opsa */
    case TFCC_OP_ONE_HOT: return TFCC_OPTIONS_ONE_HOT;
    case TFCC_OP_BUCKETIZE: return TFCC_OPTIONS_BUCKETIZE;
    case TFCC_OP_REVERSE_SEQUENCE: return TFCC_OPTIONS_REVERSE_SEQUENCE;
    case TFCC_OP_SPARSE_TO_DENSE: return TFCC_OPTIONS_SPARSE_TO_DENSE;
    case TFCC_OP_LOCAL_RESPONSE_NORMALIZATION: return TFCC_OPTIONS_LRN;
    case TFCC_OP_FAKE_QUANT: return TFCC_OPTIONS_FAKE_QUANT;
    case TFCC_OP_RANDOM_UNIFORM:
    case TFCC_OP_RANDOM_STANDARD_NORMAL:
    case TFCC_OP_MULTINOMIAL: return TFCC_OPTIONS_RANDOM;
    /* sequence models (opsb) */
    case TFCC_OP_LSTM: return TFCC_OPTIONS_LSTM;
    case TFCC_OP_BIDIRECTIONAL_SEQUENCE_LSTM: return TFCC_OPTIONS_BIDI_LSTM;
    case TFCC_OP_RNN:
    case TFCC_OP_UNIDIRECTIONAL_SEQUENCE_RNN:
    case TFCC_OP_BIDIRECTIONAL_SEQUENCE_RNN: return TFCC_OPTIONS_RNN;
    case TFCC_OP_SVDF: return TFCC_OPTIONS_SVDF;
    case TFCC_OP_CONV_3D:
    case TFCC_OP_CONV_3D_TRANSPOSE: return TFCC_OPTIONS_CONV_3D;
    /* opsc */
    case TFCC_OP_LSH_PROJECTION: return TFCC_OPTIONS_LSH_PROJECTION;
    case TFCC_OP_EMBEDDING_LOOKUP_SPARSE: return TFCC_OPTIONS_EMBEDDING_LOOKUP_SPARSE;
    case TFCC_OP_STABLEHLO_PAD: return TFCC_OPTIONS_STABLEHLO_PAD;
    case TFCC_OP_STABLEHLO_GATHER: return TFCC_OPTIONS_STABLEHLO_GATHER;
    case TFCC_OP_REDUCE_WINDOW: return TFCC_OPTIONS_REDUCE_WINDOW;
    case TFCC_OP_STABLEHLO_REDUCE_WINDOW: return TFCC_OPTIONS_STABLEHLO_REDUCE_WINDOW;
    case TFCC_OP_STABLEHLO_SCATTER: return TFCC_OPTIONS_STABLEHLO_SCATTER;
    case TFCC_OP_STABLEHLO_COMPOSITE: return TFCC_OPTIONS_SUBGRAPHS; /* first: the decomposition */
    case TFCC_OP_STABLEHLO_CASE: return TFCC_OPTIONS_STABLEHLO_CASE; /* ops */
    case TFCC_OP_STABLEHLO_RNG_BIT_GENERATOR: return TFCC_OPTIONS_RNG_BIT_GENERATOR; /* ops */
    default: return TFCC_OPTIONS_NONE;
  }
}

void tfcc_options_default(tfcc_op_options *o, tfcc_options_kind kind) {
  memset(o, 0, sizeof *o);
  o->kind = kind;
  switch (kind) {
    case TFCC_OPTIONS_CONV_2D: o->conv.dilation_w = o->conv.dilation_h = 1; break;
    case TFCC_OPTIONS_DEPTHWISE_CONV_2D:
      o->depthwise.dilation_w = o->depthwise.dilation_h = 1;
      break;
    case TFCC_OPTIONS_EXPAND_DWCONV:
      o->expand_dwconv.dw.dilation_w = o->expand_dwconv.dw.dilation_h = 1;
      o->expand_dwconv.mid = -1;
      break;
    case TFCC_OPTIONS_SHAPE: o->shape.type = TFCC_INT32; break;
    case TFCC_OPTIONS_LSTM: o->lstm.time_major = true; break;
    case TFCC_OPTIONS_BIDI_LSTM: o->lstm.time_major = true; break;
    case TFCC_OPTIONS_CONV_3D:
      o->conv3d.dilation_d = o->conv3d.dilation_h = o->conv3d.dilation_w = 1;
      break;
    default: break;
  }
}

int32_t *tfcc_options_activation(tfcc_op_options *o) {
  switch (o->kind) {
    case TFCC_OPTIONS_CONV_2D: return &o->conv.activation;
    case TFCC_OPTIONS_DEPTHWISE_CONV_2D: return &o->depthwise.activation;
    case TFCC_OPTIONS_EXPAND_DWCONV: return &o->expand_dwconv.dw.activation;
    case TFCC_OPTIONS_TRANSPOSE_CONV: return &o->transpose_conv.activation;
    case TFCC_OPTIONS_POOL_2D: return &o->pool.activation;
    case TFCC_OPTIONS_FULLY_CONNECTED: return &o->fc.activation;
    case TFCC_OPTIONS_ARITH: return &o->arith.activation;
    case TFCC_OPTIONS_CONCATENATION: return &o->concat.activation;
    case TFCC_OPTIONS_L2_NORM: return &o->l2_norm.activation;
    case TFCC_OPTIONS_SEQUENCE_LSTM: return &o->lstm.activation;
    case TFCC_OPTIONS_LSTM:
    case TFCC_OPTIONS_BIDI_LSTM: return &o->lstm.activation;
    case TFCC_OPTIONS_RNN: return &o->rnn.activation;
    case TFCC_OPTIONS_SVDF: return &o->svdf.activation;
    case TFCC_OPTIONS_CONV_3D: return &o->conv3d.activation;
    default: return NULL;
  }
}
