/* TFLite builtin options tables -> typed operator options (the contract is in
 * tflite_options.h). Field numbers are schema.fbs's, from 0 in declaration order (deprecated
 * fields keep theirs); they appear nowhere else in tfcc. */
#include "format/tflite_options.h"

#include <string.h>

#include "format/fb_verify.h"
#include "ir/builtin_ops.h"

/* BuiltinOptions union types (schema.fbs order, NONE = 0). */
enum {
  OPT_CONV_2D = 1,
  OPT_DEPTHWISE_CONV_2D = 2,
  OPT_POOL_2D = 5,
  OPT_FULLY_CONNECTED = 8,
  OPT_SOFTMAX = 9,
  OPT_CONCATENATION = 10,
  OPT_ADD = 11,
  OPT_L2_NORM = 12,
  OPT_RESIZE_BILINEAR = 15,
  OPT_RESHAPE = 17,
  OPT_SPACE_TO_DEPTH = 19,
  OPT_MUL = 21,
  OPT_GATHER = 23,
  OPT_REDUCER = 27,
  OPT_SUB = 28,
  OPT_DIV = 29,
  OPT_SQUEEZE = 30,
  OPT_STRIDED_SLICE = 32,
  OPT_SPLIT = 35,
  OPT_ARG_MAX = 40,
  OPT_TRANSPOSE_CONV = 49,
  OPT_SHAPE = 55,
  OPT_ARG_MIN = 57,
  OPT_PACK = 59,
  OPT_UNPACK = 64,
  OPT_UNIDIRECTIONAL_SEQUENCE_LSTM = 71,
  OPT_RESIZE_NEAREST_NEIGHBOR = 74,
  OPT_LEAKY_RELU = 75,
  OPT_MIRROR_PAD = 77,
  OPT_DEPTH_TO_SPACE = 94,
  OPT_BATCH_MATMUL = 101,
  OPT_CUMSUM = 102,
  OPT_GELU = 116,
  /* opsa */
  OPT_LRN = 13,
  OPT_SPARSE_TO_DENSE = 50,
  OPT_FAKE_QUANT = 58,
  OPT_ONE_HOT = 61,
  OPT_REVERSE_SEQUENCE = 87,
  OPT_RANDOM = 114,
  OPT_BUCKETIZE = 115,
  /* cflow */
  OPT_CALL = 16,
  OPT_IF = 92,
  OPT_WHILE = 93,
  OPT_CALL_ONCE = 103,
  OPT_VAR_HANDLE = 111,
  /* sequence models (opsb) */
  OPT_SVDF = 6,
  OPT_RNN = 7,
  OPT_LSTM = 14,
  OPT_SEQUENCE_RNN = 31,
  OPT_BIDIRECTIONAL_SEQUENCE_LSTM = 69,
  OPT_BIDIRECTIONAL_SEQUENCE_RNN = 70,
  OPT_CONV_3D = 106,
  /* opsc */
  OPT_LSH_PROJECTION = 4,
  OPT_EMBEDDING_LOOKUP_SPARSE = 20
};

/* One options table being read: the first error sticks, later reads return defaults. */
typedef struct opt_rd {
  const tfcc_fb_table *t; /* NULL: no table (every field reads as its default) */
  const char *table;      /* "Conv2DOptions", for messages */
  tfcc_err *err;
  tfcc_status st;
} opt_rd;

static bool rd_live(const opt_rd *r) { return r->t && r->st == TFCC_OK; }

static void rd_fail(opt_rd *r, tfcc_status st, const char *field) {
  r->st = st;
  tfcc_err_prefix(r->err, "%s.%s", r->table, field);
}

static int32_t rd_i32(opt_rd *r, int field, const char *name, int32_t def) {
  int32_t v = def;
  tfcc_status st;
  if (rd_live(r) && (st = tfcc_fbv_i32(r->t, field, def, &v, r->err)) != TFCC_OK) {
    rd_fail(r, st, name);
    return def;
  }
  return v;
}

/* byte-sized enums (Padding, ActivationFunctionType, TensorType, ...) are int8 in the file */
static int32_t rd_i8(opt_rd *r, int field, const char *name, int8_t def) {
  int8_t v = def;
  tfcc_status st;
  if (rd_live(r) && (st = tfcc_fbv_i8(r->t, field, def, &v, r->err)) != TFCC_OK) {
    rd_fail(r, st, name);
    return def;
  }
  return v;
}

static int32_t rd_u8(opt_rd *r, int field, const char *name, uint8_t def) {
  uint8_t v = def;
  tfcc_status st;
  if (rd_live(r) && (st = tfcc_fbv_u8(r->t, field, def, &v, r->err)) != TFCC_OK) {
    rd_fail(r, st, name);
    return def;
  }
  return v;
}

static bool rd_bool(opt_rd *r, int field, const char *name, bool def) {
  return rd_u8(r, field, name, def ? 1 : 0) != 0;
}

static float rd_f32(opt_rd *r, int field, const char *name, float def) {
  uint32_t u;
  memcpy(&u, &def, sizeof u);
  tfcc_status st;
  if (rd_live(r) && (st = tfcc_fbv_u32(r->t, field, u, &u, r->err)) != TFCC_OK) {
    rd_fail(r, st, name);
    return def;
  }
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Whether a (well-formed) scalar field is present. */
static bool rd_has(const opt_rd *r, int field) { return rd_live(r) && tfcc_fb_has(r->t, field); }

/* [int] field: *present, *n = its length in the file, dst[0..min(n, cap)) its entries. */
static void rd_ints(opt_rd *r, int field, const char *name, int32_t *dst, uint32_t cap, uint32_t *n,
                    bool *present) {
  *n = 0;
  *present = false;
  if (!rd_live(r)) return;
  tfcc_fb_vec v;
  tfcc_status st = tfcc_fbv_vector(r->t, field, 4, &v, present, r->err);
  if (st != TFCC_OK) {
    rd_fail(r, st, name);
    return;
  }
  *n = v.count;
  for (uint32_t i = 0; i < v.count && i < cap; i++) dst[i] = tfcc_fb_vec_i32(&v, i);
}

/* string field: *s into the file (NULL if absent), *len its length (cflow) */
static void rd_str(opt_rd *r, int field, const char *name, const char **s, uint32_t *len) {
  *s = NULL;
  *len = 0;
  if (!rd_live(r)) return;
  tfcc_status st = tfcc_fbv_string(r->t, field, s, len, r->err);
  if (st != TFCC_OK) rd_fail(r, st, name);
}

/* ---- value checks (after the reads) */

static void check_padding(opt_rd *r, int32_t padding) {
  if (r->st == TFCC_OK && padding != TFCC_PAD_SAME && padding != TFCC_PAD_VALID)
    r->st = tfcc_err_set(r->err, TFCC_ERR_UNSUPPORTED, "%s: padding type %d unknown", r->table,
                         (int)padding);
}

/* ActivationFunctionType: NONE .. SIGN_BIT (which of them an operator runs is its check) */
static void check_activation(opt_rd *r, int32_t act) {
  if (r->st == TFCC_OK && (act < 0 || act > 5))
    r->st = tfcc_err_set(r->err, TFCC_ERR_INVALID_MODEL, "%s: fused_activation_function %d unknown",
                         r->table, (int)act);
}

static void check_pair(opt_rd *r, const char *what, int32_t h, int32_t w) {
  if (r->st == TFCC_OK && (h <= 0 || w <= 0))
    r->st = tfcc_err_set(r->err, TFCC_ERR_INVALID_MODEL, "%s: %s %dx%d must be positive", r->table,
                         what, (int)h, (int)w);
}

static void check_range(opt_rd *r, const char *field, int32_t v, int32_t lo, int32_t hi) {
  if (r->st == TFCC_OK && (v < lo || v > hi))
    r->st = tfcc_err_set(r->err, TFCC_ERR_INVALID_MODEL, "%s.%s %d out of range [%d, %d]", r->table,
                         field, (int)v, (int)lo, (int)hi);
}

/* ---- one reader per options kind */

static void read_conv(opt_rd *r, tfcc_conv_options *o) {
  o->padding = rd_i8(r, 0, "padding", 0);
  o->stride_w = rd_i32(r, 1, "stride_w", 0);
  o->stride_h = rd_i32(r, 2, "stride_h", 0);
  o->activation = rd_i8(r, 3, "fused_activation_function", 0);
  o->dilation_w = rd_i32(r, 4, "dilation_w_factor", 1);
  o->dilation_h = rd_i32(r, 5, "dilation_h_factor", 1);
  check_padding(r, o->padding);
  check_pair(r, "strides", o->stride_h, o->stride_w);
  check_pair(r, "dilations", o->dilation_h, o->dilation_w);
  check_activation(r, o->activation);
}

static void read_depthwise(opt_rd *r, tfcc_depthwise_options *o) {
  o->padding = rd_i8(r, 0, "padding", 0);
  o->stride_w = rd_i32(r, 1, "stride_w", 0);
  o->stride_h = rd_i32(r, 2, "stride_h", 0);
  o->depth_multiplier = rd_i32(r, 3, "depth_multiplier", 0);
  o->activation = rd_i8(r, 4, "fused_activation_function", 0);
  o->dilation_w = rd_i32(r, 5, "dilation_w_factor", 1);
  o->dilation_h = rd_i32(r, 6, "dilation_h_factor", 1);
  check_padding(r, o->padding);
  check_pair(r, "strides", o->stride_h, o->stride_w);
  check_pair(r, "dilations", o->dilation_h, o->dilation_w);
  check_activation(r, o->activation);
}

static void read_transpose_conv(opt_rd *r, tfcc_transpose_conv_options *o) {
  o->padding = rd_i8(r, 0, "padding", 0);
  o->stride_w = rd_i32(r, 1, "stride_w", 0);
  o->stride_h = rd_i32(r, 2, "stride_h", 0);
  o->activation = rd_i8(r, 3, "fused_activation_function", 0);
  check_padding(r, o->padding);
  check_pair(r, "strides", o->stride_h, o->stride_w);
  check_activation(r, o->activation);
}

static void read_pool(opt_rd *r, tfcc_pool_options *o) {
  o->padding = rd_i8(r, 0, "padding", 0);
  o->stride_w = rd_i32(r, 1, "stride_w", 0);
  o->stride_h = rd_i32(r, 2, "stride_h", 0);
  o->filter_w = rd_i32(r, 3, "filter_width", 0);
  o->filter_h = rd_i32(r, 4, "filter_height", 0);
  o->activation = rd_i8(r, 5, "fused_activation_function", 0);
  check_padding(r, o->padding);
  check_pair(r, "strides", o->stride_h, o->stride_w);
  check_activation(r, o->activation);
}

static void read_fully_connected(opt_rd *r, tfcc_fully_connected_options *o) {
  o->activation = rd_i8(r, 0, "fused_activation_function", 0);
  o->weights_format = rd_i8(r, 1, "weights_format", 0);
  o->keep_num_dims = rd_bool(r, 2, "keep_num_dims", false);
  o->asymmetric_quantize_inputs = rd_bool(r, 3, "asymmetric_quantize_inputs", false);
  check_activation(r, o->activation);
}

static void read_batch_matmul(opt_rd *r, tfcc_batch_matmul_options *o) {
  o->adj_x = rd_bool(r, 0, "adj_x", false);
  o->adj_y = rd_bool(r, 1, "adj_y", false);
  o->asymmetric_quantize_inputs = rd_bool(r, 2, "asymmetric_quantize_inputs", false);
}

static void read_arith(opt_rd *r, int32_t builtin, tfcc_arith_options *o) {
  o->activation = rd_i8(r, 0, "fused_activation_function", 0);
  /* pot_scale_int16 (ADD, SUB): schema default true, but false without a table, as TFLite's
   * parser leaves it */
  if (builtin == TFCC_OP_ADD || builtin == TFCC_OP_SUB)
    o->pot_scale_int16 = r->t ? rd_bool(r, 1, "pot_scale_int16", true) : false;
  check_activation(r, o->activation);
}

static void read_sequence_lstm(opt_rd *r, tfcc_sequence_lstm_options *o) {
  o->activation = rd_u8(r, 0, "fused_activation_function", 0);
  o->cell_clip = rd_f32(r, 1, "cell_clip", 0.f);
  o->proj_clip = rd_f32(r, 2, "proj_clip", 0.f);
  o->time_major = rd_bool(r, 3, "time_major", false);
  o->asymmetric_quantize_inputs = rd_bool(r, 4, "asymmetric_quantize_inputs", false);
  /* the activation is the operator's check (it takes TfLiteFusedActivation's sigmoid, 6) */
}

/* opsa: a long field (default 0) */
static int64_t rd_i64(opt_rd *r, int field, const char *name) {
  uint64_t v = 0;
  tfcc_status st;
  if (rd_live(r) && (st = tfcc_fbv_u64(r->t, field, 0, &v, r->err)) != TFCC_OK) {
    rd_fail(r, st, name);
    return 0;
  }
  return (int64_t)v;
}

/* opsa: BucketizeOptions.boundaries [float] (kept as a pointer into the file) */
static void read_bucketize(opt_rd *r, tfcc_bucketize_options *o) {
  o->boundaries = NULL;
  o->n_boundaries = 0;
  if (!rd_live(r)) return;
  tfcc_fb_vec v;
  bool present;
  tfcc_status st = tfcc_fbv_vector(r->t, 0, 4, &v, &present, r->err);
  if (st != TFCC_OK) {
    rd_fail(r, st, "boundaries");
    return;
  }
  o->boundaries = v.data;
  o->n_boundaries = v.count;
}

/* sequence models (opsb): LSTMOptions, BidirectionalSequenceLSTMOptions, the RNN options
 * tables and SVDFOptions. Activations are checked by the operators. */
static void read_lstm(opt_rd *r, tfcc_sequence_lstm_options *o) {
  o->activation = rd_u8(r, 0, "fused_activation_function", 0);
  o->cell_clip = rd_f32(r, 1, "cell_clip", 0.f);
  o->proj_clip = rd_f32(r, 2, "proj_clip", 0.f);
  o->kernel_type = rd_i8(r, 3, "kernel_type", 0);
  o->asymmetric_quantize_inputs = rd_bool(r, 4, "asymmetric_quantize_inputs", false);
  o->time_major = true;
}

static void read_bidi_lstm(opt_rd *r, tfcc_sequence_lstm_options *o) {
  o->activation = rd_u8(r, 0, "fused_activation_function", 0);
  o->cell_clip = rd_f32(r, 1, "cell_clip", 0.f);
  o->proj_clip = rd_f32(r, 2, "proj_clip", 0.f);
  o->merge_outputs = rd_bool(r, 3, "merge_outputs", false);
  o->time_major = rd_bool(r, 4, "time_major", true);
  o->asymmetric_quantize_inputs = rd_bool(r, 5, "asymmetric_quantize_inputs", false);
}

static void read_rnn(opt_rd *r, int32_t builtin, tfcc_rnn_options *o) {
  if (builtin == TFCC_OP_RNN) {
    o->activation = rd_i8(r, 0, "fused_activation_function", 0);
    o->asymmetric_quantize_inputs = rd_bool(r, 1, "asymmetric_quantize_inputs", false);
    return;
  }
  o->time_major = rd_bool(r, 0, "time_major", false);
  o->activation = rd_i8(r, 1, "fused_activation_function", 0);
  if (builtin == TFCC_OP_BIDIRECTIONAL_SEQUENCE_RNN) {
    o->merge_outputs = rd_bool(r, 2, "merge_outputs", false);
    o->asymmetric_quantize_inputs = rd_bool(r, 3, "asymmetric_quantize_inputs", false);
  } else {
    o->asymmetric_quantize_inputs = rd_bool(r, 2, "asymmetric_quantize_inputs", false);
  }
}

static void read_conv3d(opt_rd *r, tfcc_conv3d_options *o) {
  o->padding = rd_i8(r, 0, "padding", 0);
  o->stride_d = rd_i32(r, 1, "stride_d", 0);
  o->stride_w = rd_i32(r, 2, "stride_w", 0);
  o->stride_h = rd_i32(r, 3, "stride_h", 0);
  o->activation = rd_i8(r, 4, "fused_activation_function", 0);
  o->dilation_d = rd_i32(r, 5, "dilation_d_factor", 1);
  o->dilation_w = rd_i32(r, 6, "dilation_w_factor", 1);
  o->dilation_h = rd_i32(r, 7, "dilation_h_factor", 1);
  check_padding(r, o->padding);
  check_pair(r, "strides (h x w)", o->stride_h, o->stride_w);
  check_pair(r, "stride_d x dilation_d", o->stride_d, o->dilation_d);
  check_pair(r, "dilations (h x w)", o->dilation_h, o->dilation_w);
  check_activation(r, o->activation);
}

static void read_kind(opt_rd *r, int32_t builtin, tfcc_op_options *o) {
  switch (o->kind) {
    case TFCC_OPTIONS_NONE:
    case TFCC_OPTIONS_EXPAND_DWCONV: /* made by a pass, never read from a file */ break;
    case TFCC_OPTIONS_DETECTION_POSTPROCESS: /* custom options: tflite_custom_options.c */ break;
    case TFCC_OPTIONS_AUDIO_SPECTROGRAM: /* ops: custom options, likewise */
    case TFCC_OPTIONS_MFCC:
    case TFCC_OPTIONS_NUMERIC_VERIFY:
    case TFCC_OPTIONS_HADAMARD_ROTATION:
    case TFCC_OPTIONS_MOE: break;
    case TFCC_OPTIONS_CONV_2D: read_conv(r, &o->conv); break;
    case TFCC_OPTIONS_DEPTHWISE_CONV_2D: read_depthwise(r, &o->depthwise); break;
    case TFCC_OPTIONS_TRANSPOSE_CONV: read_transpose_conv(r, &o->transpose_conv); break;
    case TFCC_OPTIONS_POOL_2D: read_pool(r, &o->pool); break;
    case TFCC_OPTIONS_FULLY_CONNECTED: read_fully_connected(r, &o->fc); break;
    case TFCC_OPTIONS_BATCH_MATMUL: read_batch_matmul(r, &o->batch_matmul); break;
    case TFCC_OPTIONS_ARITH: read_arith(r, builtin, &o->arith); break;
    case TFCC_OPTIONS_CONCATENATION:
      o->concat.axis = rd_i32(r, 0, "axis", 0);
      o->concat.activation = rd_i8(r, 1, "fused_activation_function", 0);
      check_activation(r, o->concat.activation);
      break;
    case TFCC_OPTIONS_L2_NORM:
      o->l2_norm.activation = rd_i8(r, 0, "fused_activation_function", 0);
      check_activation(r, o->l2_norm.activation);
      break;
    case TFCC_OPTIONS_SOFTMAX: o->softmax.beta = rd_f32(r, 0, "beta", 0.f); break;
    case TFCC_OPTIONS_LEAKY_RELU: o->leaky_relu.alpha = rd_f32(r, 0, "alpha", 0.f); break;
    case TFCC_OPTIONS_GELU: o->gelu.approximate = rd_bool(r, 0, "approximate", false); break;
    case TFCC_OPTIONS_BLOCK: o->block.block_size = rd_i32(r, 0, "block_size", 0); break;
    case TFCC_OPTIONS_GATHER:
      o->gather.axis = rd_i32(r, 0, "axis", 0);
      o->gather.batch_dims = rd_i32(r, 1, "batch_dims", 0);
      break;
    case TFCC_OPTIONS_MIRROR_PAD:
      o->mirror_pad.mode = rd_i8(r, 0, "mode", 0);
      check_range(r, "mode", o->mirror_pad.mode, 0, 1);
      break;
    case TFCC_OPTIONS_PACK: /* PackOptions.values_count / UnpackOptions.num, then axis */
      o->pack.count = rd_i32(r, 0, builtin == TFCC_OP_PACK ? "values_count" : "num", 0);
      o->pack.axis = rd_i32(r, 1, "axis", 0);
      break;
    case TFCC_OPTIONS_REDUCER: o->reducer.keep_dims = rd_bool(r, 0, "keep_dims", false); break;
    case TFCC_OPTIONS_ARG:
      o->arg.type = rd_i8(r, 0, "output_type", 0);
      o->arg.has_type = rd_has(r, 0);
      break;
    case TFCC_OPTIONS_SHAPE:
      o->shape.type = rd_i8(r, 0, "out_type", TFCC_INT32);
      o->shape.has_type = rd_has(r, 0);
      break;
    case TFCC_OPTIONS_RESHAPE:
      rd_ints(r, 0, "new_shape", o->reshape.new_shape, TFCC_MAX_DIMS, &o->reshape.n_new_shape,
              &o->reshape.has_new_shape);
      break;
    case TFCC_OPTIONS_SQUEEZE: {
      bool present;
      rd_ints(r, 0, "squeeze_dims", o->squeeze.dims, TFCC_MAX_DIMS, &o->squeeze.n_dims, &present);
      break;
    }
    case TFCC_OPTIONS_RESIZE: /* ResizeBilinearOptions has two deprecated fields first */
      if (builtin == TFCC_OP_RESIZE_BILINEAR) {
        o->resize.align_corners = rd_bool(r, 2, "align_corners", false);
        o->resize.half_pixel_centers = rd_bool(r, 3, "half_pixel_centers", false);
      } else {
        o->resize.align_corners = rd_bool(r, 0, "align_corners", false);
        o->resize.half_pixel_centers = rd_bool(r, 1, "half_pixel_centers", false);
      }
      break;
    case TFCC_OPTIONS_SPLIT: o->split.num_splits = rd_i32(r, 0, "num_splits", 0); break;
    case TFCC_OPTIONS_STRIDED_SLICE:
      o->strided_slice.begin_mask = rd_i32(r, 0, "begin_mask", 0);
      o->strided_slice.end_mask = rd_i32(r, 1, "end_mask", 0);
      o->strided_slice.ellipsis_mask = rd_i32(r, 2, "ellipsis_mask", 0);
      o->strided_slice.new_axis_mask = rd_i32(r, 3, "new_axis_mask", 0);
      o->strided_slice.shrink_axis_mask = rd_i32(r, 4, "shrink_axis_mask", 0);
      o->strided_slice.offset = rd_bool(r, 5, "offset", false);
      break;
    case TFCC_OPTIONS_SEQUENCE_LSTM: read_sequence_lstm(r, &o->lstm); break;
    case TFCC_OPTIONS_LSTM: read_lstm(r, &o->lstm); break;
    case TFCC_OPTIONS_BIDI_LSTM: read_bidi_lstm(r, &o->lstm); break;
    case TFCC_OPTIONS_RNN: read_rnn(r, builtin, &o->rnn); break;
    case TFCC_OPTIONS_CONV_3D: read_conv3d(r, &o->conv3d); break;
    case TFCC_OPTIONS_SVDF:
      o->svdf.rank = rd_i32(r, 0, "rank", 0);
      o->svdf.activation = rd_i8(r, 1, "fused_activation_function", 0);
      o->svdf.asymmetric_quantize_inputs = rd_bool(r, 2, "asymmetric_quantize_inputs", false);
      break;
    case TFCC_OPTIONS_CUMSUM:
      o->cumsum.exclusive = rd_bool(r, 0, "exclusive", false);
      o->cumsum.reverse = rd_bool(r, 1, "reverse", false);
      break;
    /* opsa */
    case TFCC_OPTIONS_ONE_HOT: o->one_hot.axis = rd_i32(r, 0, "axis", 0); break;
    case TFCC_OPTIONS_BUCKETIZE: read_bucketize(r, &o->bucketize); break;
    case TFCC_OPTIONS_REVERSE_SEQUENCE:
      o->reverse_sequence.seq_dim = rd_i32(r, 0, "seq_dim", 0);
      o->reverse_sequence.batch_dim = rd_i32(r, 1, "batch_dim", 0);
      break;
    case TFCC_OPTIONS_SPARSE_TO_DENSE:
      o->sparse_to_dense.validate_indices = rd_bool(r, 0, "validate_indices", false);
      break;
    case TFCC_OPTIONS_LRN:
      o->lrn.radius = rd_i32(r, 0, "radius", 0);
      o->lrn.bias = rd_f32(r, 1, "bias", 0.f);
      o->lrn.alpha = rd_f32(r, 2, "alpha", 0.f);
      o->lrn.beta = rd_f32(r, 3, "beta", 0.f);
      break;
    case TFCC_OPTIONS_FAKE_QUANT:
      o->fake_quant.min = rd_f32(r, 0, "min", 0.f);
      o->fake_quant.max = rd_f32(r, 1, "max", 0.f);
      o->fake_quant.num_bits = rd_i32(r, 2, "num_bits", 0);
      o->fake_quant.narrow_range = rd_bool(r, 3, "narrow_range", false);
      break;
    case TFCC_OPTIONS_RANDOM:
      o->random.seed = rd_i64(r, 0, "seed");
      o->random.seed2 = rd_i64(r, 1, "seed2");
      break;
    case TFCC_OPTIONS_SUBGRAPHS: /* cflow; indices are checked against the model at load */
      if (builtin == TFCC_OP_WHILE) {
        o->subgraphs.first = rd_i32(r, 0, "cond_subgraph_index", 0);
        o->subgraphs.second = rd_i32(r, 1, "body_subgraph_index", 0);
      } else if (builtin == TFCC_OP_IF) {
        o->subgraphs.first = rd_i32(r, 0, "then_subgraph_index", 0);
        o->subgraphs.second = rd_i32(r, 1, "else_subgraph_index", 0);
      } else if (builtin == TFCC_OP_CALL_ONCE) {
        o->subgraphs.first = rd_i32(r, 0, "init_subgraph_index", 0);
      } else {
        o->subgraphs.first = rd_i32(r, 0, "subgraph", 0); /* uint in the schema */
      }
      break;
    case TFCC_OPTIONS_LSH_PROJECTION: /* opsc; the type is the operator's check */
      o->lsh_projection.type = rd_i8(r, 0, "type", 0);
      break;
    case TFCC_OPTIONS_EMBEDDING_LOOKUP_SPARSE: /* opsc */
      o->els.combiner = rd_i8(r, 0, "combiner", 0);
      check_range(r, "combiner", o->els.combiner, 0, 2);
      break;
    case TFCC_OPTIONS_STABLEHLO_PAD: /* opsc: BuiltinOptions2, read by tfl_read_options2 */
    case TFCC_OPTIONS_STABLEHLO_GATHER:
    case TFCC_OPTIONS_REDUCE_WINDOW:
    case TFCC_OPTIONS_STABLEHLO_REDUCE_WINDOW:
    case TFCC_OPTIONS_STABLEHLO_SCATTER:
    case TFCC_OPTIONS_STABLEHLO_CASE: /* ops */
    case TFCC_OPTIONS_RNG_BIT_GENERATOR: break;
    case TFCC_OPTIONS_VAR_HANDLE: /* cflow */
      rd_str(r, 0, "container", &o->var_handle.container, &o->var_handle.container_len);
      rd_str(r, 1, "shared_name", &o->var_handle.shared_name, &o->var_handle.shared_name_len);
      break;
  }
}

/* The BuiltinOptions type and table name an operator code takes (0 / NULL: none read). */
static uint8_t expected_type(int32_t builtin, const char **name) {
  static const struct {
    int32_t builtin;
    uint8_t type;
    const char *name;
  } map[] = {
      {TFCC_OP_CONV_2D, OPT_CONV_2D, "Conv2DOptions"},
      {TFCC_OP_DEPTHWISE_CONV_2D, OPT_DEPTHWISE_CONV_2D, "DepthwiseConv2DOptions"},
      {TFCC_OP_TRANSPOSE_CONV, OPT_TRANSPOSE_CONV, "TransposeConvOptions"},
      {TFCC_OP_AVERAGE_POOL_2D, OPT_POOL_2D, "Pool2DOptions"},
      {TFCC_OP_MAX_POOL_2D, OPT_POOL_2D, "Pool2DOptions"},
      {TFCC_OP_L2_POOL_2D, OPT_POOL_2D, "Pool2DOptions"},
      {TFCC_OP_FULLY_CONNECTED, OPT_FULLY_CONNECTED, "FullyConnectedOptions"},
      {TFCC_OP_BATCH_MATMUL, OPT_BATCH_MATMUL, "BatchMatMulOptions"},
      {TFCC_OP_ADD, OPT_ADD, "AddOptions"},
      {TFCC_OP_SUB, OPT_SUB, "SubOptions"},
      {TFCC_OP_MUL, OPT_MUL, "MulOptions"},
      {TFCC_OP_DIV, OPT_DIV, "DivOptions"},
      {TFCC_OP_CONCATENATION, OPT_CONCATENATION, "ConcatenationOptions"},
      {TFCC_OP_L2_NORMALIZATION, OPT_L2_NORM, "L2NormOptions"},
      {TFCC_OP_SOFTMAX, OPT_SOFTMAX, "SoftmaxOptions"},
      {TFCC_OP_LEAKY_RELU, OPT_LEAKY_RELU, "LeakyReluOptions"},
      {TFCC_OP_GELU, OPT_GELU, "GeluOptions"},
      {TFCC_OP_DEPTH_TO_SPACE, OPT_DEPTH_TO_SPACE, "DepthToSpaceOptions"},
      {TFCC_OP_SPACE_TO_DEPTH, OPT_SPACE_TO_DEPTH, "SpaceToDepthOptions"},
      {TFCC_OP_GATHER, OPT_GATHER, "GatherOptions"},
      {TFCC_OP_MIRROR_PAD, OPT_MIRROR_PAD, "MirrorPadOptions"},
      {TFCC_OP_PACK, OPT_PACK, "PackOptions"},
      {TFCC_OP_UNPACK, OPT_UNPACK, "UnpackOptions"},
      {TFCC_OP_MEAN, OPT_REDUCER, "ReducerOptions"},
      {TFCC_OP_SUM, OPT_REDUCER, "ReducerOptions"},
      {TFCC_OP_REDUCE_MAX, OPT_REDUCER, "ReducerOptions"},
      {TFCC_OP_REDUCE_MIN, OPT_REDUCER, "ReducerOptions"},
      {TFCC_OP_REDUCE_PROD, OPT_REDUCER, "ReducerOptions"},
      {TFCC_OP_REDUCE_ANY, OPT_REDUCER, "ReducerOptions"},
      {TFCC_OP_CUMSUM, OPT_CUMSUM, "CumsumOptions"},
      {TFCC_OP_REDUCE_ALL, OPT_REDUCER, "ReducerOptions"},
      {TFCC_OP_ARG_MAX, OPT_ARG_MAX, "ArgMaxOptions"},
      {TFCC_OP_ARG_MIN, OPT_ARG_MIN, "ArgMinOptions"},
      {TFCC_OP_SHAPE, OPT_SHAPE, "ShapeOptions"},
      {TFCC_OP_RESHAPE, OPT_RESHAPE, "ReshapeOptions"},
      {TFCC_OP_SQUEEZE, OPT_SQUEEZE, "SqueezeOptions"},
      {TFCC_OP_RESIZE_BILINEAR, OPT_RESIZE_BILINEAR, "ResizeBilinearOptions"},
      {TFCC_OP_RESIZE_NEAREST_NEIGHBOR, OPT_RESIZE_NEAREST_NEIGHBOR,
       "ResizeNearestNeighborOptions"},
      {TFCC_OP_SPLIT, OPT_SPLIT, "SplitOptions"},
      {TFCC_OP_STRIDED_SLICE, OPT_STRIDED_SLICE, "StridedSliceOptions"},
      {TFCC_OP_UNIDIRECTIONAL_SEQUENCE_LSTM, OPT_UNIDIRECTIONAL_SEQUENCE_LSTM,
       "UnidirectionalSequenceLSTMOptions"},
      /* opsa */
      {TFCC_OP_ONE_HOT, OPT_ONE_HOT, "OneHotOptions"},
      {TFCC_OP_BUCKETIZE, OPT_BUCKETIZE, "BucketizeOptions"},
      {TFCC_OP_REVERSE_SEQUENCE, OPT_REVERSE_SEQUENCE, "ReverseSequenceOptions"},
      {TFCC_OP_SPARSE_TO_DENSE, OPT_SPARSE_TO_DENSE, "SparseToDenseOptions"},
      {TFCC_OP_LOCAL_RESPONSE_NORMALIZATION, OPT_LRN, "LocalResponseNormalizationOptions"},
      {TFCC_OP_FAKE_QUANT, OPT_FAKE_QUANT, "FakeQuantOptions"},
      {TFCC_OP_RANDOM_UNIFORM, OPT_RANDOM, "RandomOptions"},
      {TFCC_OP_RANDOM_STANDARD_NORMAL, OPT_RANDOM, "RandomOptions"},
      {TFCC_OP_MULTINOMIAL, OPT_RANDOM, "RandomOptions"},
      /* cflow */
      {TFCC_OP_CALL, OPT_CALL, "CallOptions"},
      {TFCC_OP_IF, OPT_IF, "IfOptions"},
      {TFCC_OP_WHILE, OPT_WHILE, "WhileOptions"},
      {TFCC_OP_CALL_ONCE, OPT_CALL_ONCE, "CallOnceOptions"},
      {TFCC_OP_VAR_HANDLE, OPT_VAR_HANDLE, "VarHandleOptions"},
      /* sequence models (opsb) */
      {TFCC_OP_LSTM, OPT_LSTM, "LSTMOptions"},
      {TFCC_OP_BIDIRECTIONAL_SEQUENCE_LSTM, OPT_BIDIRECTIONAL_SEQUENCE_LSTM,
       "BidirectionalSequenceLSTMOptions"},
      {TFCC_OP_RNN, OPT_RNN, "RNNOptions"},
      {TFCC_OP_UNIDIRECTIONAL_SEQUENCE_RNN, OPT_SEQUENCE_RNN, "SequenceRNNOptions"},
      {TFCC_OP_BIDIRECTIONAL_SEQUENCE_RNN, OPT_BIDIRECTIONAL_SEQUENCE_RNN,
       "BidirectionalSequenceRNNOptions"},
      {TFCC_OP_SVDF, OPT_SVDF, "SVDFOptions"},
      {TFCC_OP_CONV_3D, OPT_CONV_3D, "Conv3DOptions"},
      {TFCC_OP_CONV_3D_TRANSPOSE, OPT_CONV_3D, "Conv3DOptions"},
      /* opsc */
      {TFCC_OP_LSH_PROJECTION, OPT_LSH_PROJECTION, "LSHProjectionOptions"},
      {TFCC_OP_EMBEDDING_LOOKUP_SPARSE, OPT_EMBEDDING_LOOKUP_SPARSE,
       "EmbeddingLookupSparseOptions"},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (map[i].builtin == builtin) {
      *name = map[i].name;
      return map[i].type;
    }
  *name = NULL;
  return 0;
}

tfcc_status tfl_read_options(int32_t builtin, uint8_t type, const tfcc_fb_table *t,
                             tfcc_op_options *out, tfcc_err *err) {
  tfcc_options_default(out, tfcc_options_kind_of(builtin));
  const char *name;
  const uint8_t want = expected_type(builtin, &name);
  if (!want) return TFCC_OK; /* no options tfcc reads */
  if (t && !t->buf) t = NULL;
  if (t && type != 0 && type != want)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "options table has BuiltinOptions type %u, expected %u (%s)",
                        (unsigned)type, (unsigned)want, name);
  opt_rd r = {t, name, err, TFCC_OK};
  read_kind(&r, builtin, out);
  return r.st;
}

/* ---- opsc: BuiltinOptions2 (the StableHLO options tables) */

/* BuiltinOptions2 union types (schema.fbs order, NONE = 0) */
enum {
  OPT2_STABLEHLO_SCATTER = 7,
  OPT2_STABLEHLO_PAD = 10,
  OPT2_STABLEHLO_REDUCE_WINDOW = 13,
  OPT2_STABLEHLO_GATHER = 16,
  OPT2_REDUCE_WINDOW = 20,
  OPT2_STABLEHLO_COMPOSITE = 21,
  OPT2_STABLEHLO_RNG_BIT_GENERATOR = 19, /* ops */
  OPT2_STABLEHLO_CASE = 23               /* ops */
};

/* [long] field: *n = its length in the file, dst[0..min(n, cap)) its entries. */
static void rd_longs(opt_rd *r, int field, const char *name, int64_t *dst, uint32_t cap,
                     uint32_t *n) {
  *n = 0;
  if (!rd_live(r)) return;
  tfcc_fb_vec v;
  bool present;
  tfcc_status st = tfcc_fbv_vector(r->t, field, 8, &v, &present, r->err);
  if (st != TFCC_OK) {
    rd_fail(r, st, name);
    return;
  }
  *n = v.count;
  for (uint32_t i = 0; i < v.count && i < cap; i++) dst[i] = tfcc_fb_vec_i64(&v, i);
}

/* ops: StablehloCaseOptions.branch_subgraph_indices ([int]): at least one branch, at most
 * TFCC_MAX_CASE_BRANCHES. */
static tfcc_status read_case_branches(opt_rd *r, tfcc_stablehlo_case_options *o) {
  o->n_branches = 0;
  if (!rd_live(r)) return r->st;
  tfcc_fb_vec v;
  bool present;
  tfcc_status st = tfcc_fbv_vector(r->t, 0, 4, &v, &present, r->err);
  if (st != TFCC_OK) {
    rd_fail(r, st, "branch_subgraph_indices");
    return r->st;
  }
  if (v.count == 0)
    return tfcc_err_set(r->err, TFCC_ERR_INVALID_MODEL,
                        "%s: branch_subgraph_indices is empty (a CASE needs a branch)", r->table);
  if (v.count > TFCC_MAX_CASE_BRANCHES)
    return tfcc_err_set(r->err, TFCC_ERR_UNSUPPORTED, "%s: %u branches, tfcc runs at most %d",
                        r->table, (unsigned)v.count, TFCC_MAX_CASE_BRANCHES);
  o->n_branches = (int32_t)v.count;
  for (uint32_t i = 0; i < v.count; i++) o->branch[i] = tfcc_fb_vec_i32(&v, i);
  return r->st;
}

tfcc_status tfl_read_options2(int32_t builtin, uint8_t type, const tfcc_fb_table *t,
                              tfcc_op_options *out, tfcc_err *err) {
  uint8_t want;
  const char *name;
  switch (builtin) {
    case TFCC_OP_STABLEHLO_PAD:
      want = OPT2_STABLEHLO_PAD;
      name = "StablehloPadOptions";
      break;
    case TFCC_OP_STABLEHLO_GATHER:
      want = OPT2_STABLEHLO_GATHER;
      name = "StablehloGatherOptions";
      break;
    case TFCC_OP_REDUCE_WINDOW:
      want = OPT2_REDUCE_WINDOW;
      name = "ReduceWindowOptions";
      break;
    case TFCC_OP_STABLEHLO_SCATTER:
      want = OPT2_STABLEHLO_SCATTER;
      name = "StablehloScatterOptions";
      break;
    case TFCC_OP_STABLEHLO_REDUCE_WINDOW:
      want = OPT2_STABLEHLO_REDUCE_WINDOW;
      name = "StablehloReduceWindowOptions";
      break;
    case TFCC_OP_STABLEHLO_COMPOSITE:
      want = OPT2_STABLEHLO_COMPOSITE;
      name = "StableHLOCompositeOptions";
      break;
    case TFCC_OP_STABLEHLO_CASE:
      want = OPT2_STABLEHLO_CASE;
      name = "StablehloCaseOptions";
      break; /* ops */
    case TFCC_OP_STABLEHLO_RNG_BIT_GENERATOR:
      want = OPT2_STABLEHLO_RNG_BIT_GENERATOR;
      name = "StablehloRngBitGeneratorOptions";
      break;
    default: return TFCC_OK; /* no BuiltinOptions2 table tfcc reads */
  }
  if (t && !t->buf) t = NULL;
  if (t && type != 0 && type != want)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "options table has BuiltinOptions2 type %u, expected %u (%s)",
                        (unsigned)type, (unsigned)want, name);
  opt_rd r = {t, name, err, TFCC_OK};
  if (builtin == TFCC_OP_STABLEHLO_COMPOSITE) { /* name, attributes, version: not needed to run */
    out->subgraphs.first = rd_i32(&r, 1, "decomposition_subgraph_index", 0);
    return r.st;
  }
  if (builtin == TFCC_OP_STABLEHLO_CASE) /* ops */
    return read_case_branches(&r, &out->shlo_case);
  if (builtin == TFCC_OP_STABLEHLO_RNG_BIT_GENERATOR) { /* ops */
    out->rng_bits.algorithm = rd_i8(&r, 0, "algorithm", 0);
    check_range(&r, "algorithm", out->rng_bits.algorithm, 0, 2);
    return r.st;
  }
  if (builtin == TFCC_OP_STABLEHLO_SCATTER) { /* indices_are_sorted, unique_indices: not needed */
    tfcc_stablehlo_scatter_options *sc = &out->shlo_scatter;
    rd_longs(&r, 1, "update_window_dims", sc->update_window_dims, TFCC_MAX_DIMS,
             &sc->n_update_window_dims);
    rd_longs(&r, 2, "inserted_window_dims", sc->inserted_window_dims, TFCC_MAX_DIMS,
             &sc->n_inserted_window_dims);
    rd_longs(&r, 3, "scatter_dims_to_operand_dims", sc->scatter_dims_to_operand_dims, TFCC_MAX_DIMS,
             &sc->n_scatter_dims_to_operand_dims);
    sc->index_vector_dim = rd_i64(&r, 4, "index_vector_dim");
    sc->update_computation_subgraph = rd_i32(&r, 6, "update_computation_subgraph_index", 0);
    return r.st;
  }
  if (builtin == TFCC_OP_STABLEHLO_REDUCE_WINDOW) {
    tfcc_stablehlo_reduce_window_options *w = &out->shlo_rw;
    rd_longs(&r, 0, "window_dimensions", w->window, TFCC_MAX_DIMS, &w->n_window);
    rd_longs(&r, 1, "window_strides", w->strides, TFCC_MAX_DIMS, &w->n_strides);
    rd_longs(&r, 2, "base_dilations", w->base_dilations, TFCC_MAX_DIMS, &w->n_base_dilations);
    rd_longs(&r, 3, "window_dilations", w->window_dilations, TFCC_MAX_DIMS, &w->n_window_dilations);
    rd_longs(&r, 4, "padding", w->padding, 2 * TFCC_MAX_DIMS, &w->n_padding);
    w->body_subgraph = rd_i32(&r, 5, "body_subgraph_index", 0);
    return r.st;
  }
  if (builtin == TFCC_OP_REDUCE_WINDOW) {
    out->reduce_window.function = rd_i32(&r, 0, "reduce_function", 0);
    check_range(&r, "reduce_function", out->reduce_window.function, 0, 6);
    return r.st;
  }
  if (builtin == TFCC_OP_STABLEHLO_GATHER) {
    tfcc_stablehlo_gather_options *g = &out->shlo_gather;
    rd_longs(&r, 0, "offset_dims", g->offset_dims, TFCC_MAX_DIMS, &g->n_offset_dims);
    rd_longs(&r, 1, "collapsed_slice_dims", g->collapsed_slice_dims, TFCC_MAX_DIMS,
             &g->n_collapsed_slice_dims);
    rd_longs(&r, 2, "start_index_map", g->start_index_map, TFCC_MAX_DIMS, &g->n_start_index_map);
    g->index_vector_dim = rd_i64(&r, 3, "index_vector_dim");
    rd_longs(&r, 4, "slice_sizes", g->slice_sizes, TFCC_MAX_DIMS, &g->n_slice_sizes);
    g->indices_are_sorted = rd_bool(&r, 5, "indices_are_sorted", false);
    return r.st;
  }
  tfcc_stablehlo_pad_options *o = &out->shlo_pad;
  rd_longs(&r, 0, "edge_padding_low", o->low, TFCC_MAX_DIMS, &o->n_low);
  rd_longs(&r, 1, "edge_padding_high", o->high, TFCC_MAX_DIMS, &o->n_high);
  rd_longs(&r, 2, "interior_padding", o->interior, TFCC_MAX_DIMS, &o->n_interior);
  return r.st;
}
