/* Shared helpers of the convolution-family operators (CONV_2D, DEPTHWISE_CONV_2D,
 * TRANSPOSE_CONV, FULLY_CONNECTED, BATCH_MATMUL, pools, L2_NORMALIZATION): options parsing,
 * TFLite's output-size and padding arithmetic, and quantization parameters computed exactly
 * as tflite::PopulateConvolutionQuantizationParams / GetQuantizedConvolutionMultipler. */
#ifndef TFCC_OPS_CONV_COMMON_H
#define TFCC_OPS_CONV_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "ops/op.h"

/* Padding: TFCC_PAD_SAME, TFCC_PAD_VALID, TFCC_PAD_EXPLICIT (ir/op_options.h) */

/* Output size along one spatial dimension (tflite::ComputeOutSize). Fails on non-positive
 * stride/dilation/filter or an output that would be < 0 or overflow. */
tfcc_status tfcc_conv_out_size(int32_t padding, int32_t in, int32_t filter, int32_t stride,
                               int32_t dilation, int32_t *out, tfcc_err *err);
/* Leading padding for one dimension given the output size
 * (tflite::ComputePaddingWithOffset, the offset is not used by reference kernels). */
int32_t tfcc_conv_pad(int32_t stride, int32_t dilation, int32_t in, int32_t filter, int32_t out);

struct tfcc_conv_geom;
struct tfcc_window_opts;
/* Output size and leading padding of both spatial dimensions of g (from its input, filter,
 * stride and dilation), with the options' padding: SAME, VALID, or TFCC_PAD_EXPLICIT (a fused
 * PAD: VALID over the input padded by o->pad, pad_h/pad_w = top/left). */
tfcc_status tfcc_conv_window(const struct tfcc_window_opts *o, struct tfcc_conv_geom *g,
                             tfcc_err *err);

/* The convolution geometry every 2-D windowed operator shares (its one helper: the operators
 * fill a tfcc_conv_geom only through these), in steps around an operator's own checks:
 *   tfcc_conv_geom_input   batches, in_h, in_w, in_c from the NHWC input's dims;
 *   tfcc_conv_geom_filter  out_c, filter_h, filter_w, filter_in_c from an OHWI filter's dims;
 *   tfcc_conv_geom_strides stride and dilation from o;
 *   tfcc_conv_geom_bias    a bias (NULL: none) has out_c elements;
 *   tfcc_conv_geom_window  stride and dilation from o, output size and padding
 *                          (tfcc_conv_window), then tfcc_conv_geom_fits;
 *   tfcc_conv_geom_fits    the input's and the [batches, out_h, out_w, out_c] output's element
 *                          counts fit ("tensor too large");
 *   tfcc_conv_geom_make    all of it for CONV_2D (filter [out_c, H, W, in_c / groups], in_c a
 *                          multiple of filter_in_c, out_c of the groups) or DEPTHWISE_CONV_2D
 *                          (depthwise: filter [1, H, W, out_c], out_c a multiple of in_c):
 *                          ranks 4, channels, bias, window. */
void tfcc_conv_geom_input(struct tfcc_conv_geom *g, const int32_t dims[4]);
void tfcc_conv_geom_filter(struct tfcc_conv_geom *g, const int32_t dims[4]);
void tfcc_conv_geom_strides(struct tfcc_conv_geom *g, const struct tfcc_window_opts *o);
tfcc_status tfcc_conv_geom_bias(const tfcc_tensor *bias, const struct tfcc_conv_geom *g,
                                tfcc_err *err);
tfcc_status tfcc_conv_geom_window(const struct tfcc_window_opts *o, const tfcc_tensor *in,
                                  struct tfcc_conv_geom *g, tfcc_err *err);
tfcc_status tfcc_conv_geom_fits(const tfcc_tensor *in, const struct tfcc_conv_geom *g,
                                tfcc_err *err);
tfcc_status tfcc_conv_geom_make(const struct tfcc_window_opts *o, const tfcc_tensor *in,
                                const tfcc_tensor *f, const tfcc_tensor *bias, bool depthwise,
                                struct tfcc_conv_geom *g, tfcc_err *err);
/* Sets out's shape to [batches, out_h, out_w, out_c] (the end of a windowed prepare). */
tfcc_status tfcc_conv_geom_set_output(tfcc_tensor *out, const struct tfcc_conv_geom *g,
                                      tfcc_err *err);

/* Quantization of a node's tensors, read from the IR at init. */
typedef struct tfcc_conv_qparams {
  int32_t input_offset;  /* -input zero point */
  int32_t filter_offset; /* -filter zero point (per-tensor kernels only) */
  int32_t output_offset; /* output zero point */
  int32_t n_mult;        /* 1 (per-tensor) or the number of output channels */
  const int32_t *mult;   /* [n_mult] Q0.31 multipliers */
  const int32_t *shift;  /* [n_mult] left shifts (negative: right) */
  int32_t act_min, act_max;
  const float *scale; /* [n_mult] XNNPACK float scales (TFCC_QUANT_COMPAT_TFLITE on an op
                             the delegate takes), else NULL */
  bool single_round;  /* ruy's requantization (TFLITE mode, an int8 CONV_2D the delegate leaves to
                        TFLite's builtin kernel, whose GEMM is ruy's): one rounding */
  /* the one allocation mult, shift and scale lie in (a tfcc_conv_qtables block), owned by q and
   * freed by tfcc_conv_qparams_free; NULL where they lie in the weights cache's block (read only,
   * living as long as the model) */
  void *tables;
} tfcc_conv_qparams;

/* IR tensor of node input / output i, or NULL if omitted / invalid index: op.h's
 * tfcc_init_ir_input / _output under the names the conv family's files use. */
const tfcc_ir_tensor *tfcc_conv_ir_input(const tfcc_init_ctx *ctx, int32_t i);
const tfcc_ir_tensor *tfcc_conv_ir_output(const tfcc_init_ctx *ctx, int32_t i);

/* Computes multipliers for a quantized node with inputs `in` (activation), `filter` and
 * output `out`. uint8 activations: one multiplier from GetQuantizedConvolutionMultipler
 * (float product input_scale*filter_scale widened to double, / double output_scale).
 * int8/int16 activations: per filter channel (double)in_scale * (double)f_scale[c] /
 * (double)out_scale, as PopulateConvolutionQuantizationParams; a per-tensor filter gives
 * one entry. `force_per_tensor_float` uses the uint8 formula for every dtype (FC per-tensor,
 * BATCH_MATMUL). Also fills offsets and the activation range for `act`.
 * Allocates q->tables (free with tfcc_conv_qparams_free). */
tfcc_status tfcc_conv_qparams_init(tfcc_conv_qparams *q, const tfcc_ir_tensor *in,
                                   const tfcc_ir_tensor *filter, const tfcc_ir_tensor *out,
                                   int32_t act, bool force_per_tensor_float, tfcc_err *err);
void tfcc_conv_qparams_free(tfcc_conv_qparams *q);

/* The requantization tables of ctx's node as one block of the weights cache (its key: the node,
 * `block`, TFCC_BLOCK_REQUANT or, for a fused node's second set, TFCC_BLOCK_REQUANT_DW): a
 * 16-byte header (channels, whether XNNPACK's scales follow), the multipliers, the shifts, with
 * `xnn` room for XNNPACK's float scales. q as tfcc_conv_qparams_init fills it, then with `xnn`
 * switched to XNNPACK arithmetic where its scales are in range: float scales
 * in_scale * filter_scale[c] / out_scale (float, XNNPACK's expression order) and the activation
 * range quantized as XNNPACK's subgraph does. Per-channel tables (more than one channel) are
 * taken from the store where it holds them (nothing computed per channel: the load that wrote
 * them checked the same scales) or computed and offered to it; per-tensor ones are computed. */
tfcc_status tfcc_conv_qparams_node(tfcc_conv_qparams *q, const tfcc_init_ctx *ctx, uint32_t block,
                                   const tfcc_ir_tensor *in, const tfcc_ir_tensor *filter,
                                   const tfcc_ir_tensor *out, int32_t act,
                                   bool force_per_tensor_float, bool xnn);

/* Quantized activation range of an output dtype (CalculateActivationRangeQuantized). */
tfcc_status tfcc_conv_act_range(tfcc_dtype dt, int32_t act, const tfcc_quant *q, int32_t *lo,
                                int32_t *hi, tfcc_err *err);

/* Validates a fused activation code (NONE, RELU, RELU_N1_TO_1, RELU6). */
tfcc_status tfcc_conv_check_act(int32_t act, tfcc_err *err);

/* Checks for the per-channel arrays: n_mult is 1 or equals channels. */
tfcc_status tfcc_conv_check_channels(const tfcc_conv_qparams *q, int32_t channels, tfcc_err *err);

/* Common dtype check messages. */
tfcc_status tfcc_conv_expect_dtype(const tfcc_tensor *t, const char *what, tfcc_dtype want,
                                   tfcc_err *err);

/* Product of dims with overflow check into *n (int64, limited to INT32_MAX elements). */
bool tfcc_conv_count(int32_t rank, const int32_t *dims, int64_t *n);

#endif

/* ---- helpers shared by the conv-family op files (kept below the main API) */
#include "kernels/ref/conv.h"

/* Kernel requantization view of q for an op whose input dtype is in_dtype (the filter zero
 * point only counts for uint8, as in TFLite's kernels). */
static inline void tfcc_conv_requant_from(const tfcc_conv_qparams *q, tfcc_dtype in_dtype,
                                          tfcc_conv_requant *r) {
  r->input_offset = q->input_offset;
  r->filter_offset = in_dtype == TFCC_UINT8 ? q->filter_offset : 0;
  r->output_offset = q->output_offset;
  r->mult = q->mult;
  r->shift = q->shift;
  r->mult_stride = q->n_mult > 1 ? 1 : 0;
  r->act_min = q->act_min;
  r->act_max = q->act_max;
  r->scale = q->scale;
  r->single_round = q->single_round;
}

/* The integer reference kernels of a convolution-like operator (kernels/ref: tfcc_conv_* or
 * tfcc_dwconv_*), and its packed 8-bit path: q8_fast runs it and returns true when its packing
 * and scratch are there (NULL: none). */
typedef struct tfcc_conv_int_kernels {
  bool (*q8_fast)(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, const tfcc_conv_requant *r);
  void (*u8)(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const uint8_t *in,
             const uint8_t *filter, const int32_t *bias, uint8_t *out);
  void (*i8)(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int8_t *in,
             const int8_t *filter, const int32_t *bias, int8_t *out);
  void (*i16)(const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
              const int8_t *filter, const int64_t *bias64, const int32_t *bias32, int16_t *out);
  /* the int16 results of i16 by a faster kernel (false: not taken; NULL: none) */
  bool (*i16_fast)(tfcc_op_ctx *ctx, const tfcc_conv_geom *g, const tfcc_conv_requant *r);
} tfcc_conv_int_kernels;

/* eval of a convolution-like operator whose input is not float32: uint8 / int8 (the packed
 * path, else the reference kernel) and int16 (int64 or int32 bias) with the requantization
 * of q; any other input dtype is TFCC_ERR_UNSUPPORTED. */
tfcc_status tfcc_conv_eval_int(tfcc_op_ctx *ctx, const tfcc_conv_geom *g,
                               const tfcc_conv_qparams *q, const tfcc_conv_int_kernels *k);

/* Checks the dtypes of (input, filter, bias, output) of a conv-like op and classifies it.
 * Supported: float32/float32/float32, uint8/uint8/int32, int8/int8/int32,
 * int16/int8/(int64|int32). bias may be NULL. */
tfcc_status tfcc_conv_check_types(const tfcc_tensor *in, const tfcc_tensor *filter,
                                  const tfcc_tensor *bias, const tfcc_tensor *out, tfcc_err *err);

/* Options common to the windowed ops (copied from the node's options at init). */
typedef struct tfcc_window_opts {
  int32_t padding, stride_w, stride_h, dil_w, dil_h, act;
  int32_t pad[4]; /* padding TFCC_PAD_EXPLICIT: top, bottom, left, right */
} tfcc_window_opts;

tfcc_status tfcc_window_opts_check(const tfcc_window_opts *o, tfcc_err *err);
/* Fills o from a node's convolution options (Conv2DOptions, DepthwiseConv2DOptions: padding,
 * strides, dilations, fused activation, explicit pad[4]) and checks it (tfcc_window_opts_check). */
tfcc_status tfcc_window_opts_set(tfcc_window_opts *o, int32_t padding, int32_t stride_w,
                                 int32_t stride_h, int32_t dil_w, int32_t dil_h, int32_t act,
                                 const int32_t pad[4], tfcc_err *err);

/* Init of the quantization parameters of a conv-like node (inputs in_idx/filter_idx,
 * output 0) when the input is quantized; leaves q zeroed for float. 16x8 nodes also need
 * zero input/output zero points and shifts <= 14. In TFCC_QUANT_COMPAT_TFLITE mode, 8-bit
 * nodes that TFLite's XNNPACK delegate takes (see tfcc_conv_xnn_applies) also get q->scale
 * and XNNPACK's activation range. Per-channel tables: tfcc_conv_qparams_node's block
 * TFCC_BLOCK_REQUANT. */
tfcc_status tfcc_conv_init_quant(const tfcc_init_ctx *ctx, int32_t in_idx, int32_t filter_idx,
                                 int32_t act, bool force_per_tensor_float, tfcc_conv_qparams *q);
