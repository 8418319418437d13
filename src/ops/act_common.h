/* Shared helpers of the activation / softmax / quantize operator family (private to those
 * operator files): I/O checks, per-tensor quantization checks, multipliers. */
#ifndef TFCC_OPS_ACT_COMMON_H
#define TFCC_OPS_ACT_COMMON_H

#include <math.h>
#include <stdlib.h>

#include "kernels/ref/quant_util.h"
#include "ops/op.h"

static inline int32_t act_qmin(tfcc_dtype t) {
  return t == TFCC_UINT8 || t == TFCC_UINT4 ? 0
         : t == TFCC_INT8                   ? -128
         : t == TFCC_INT4                   ? -8
         : t == TFCC_INT2                   ? -2
                                            : -32768;
}
static inline int32_t act_qmax(tfcc_dtype t) {
  return t == TFCC_UINT8   ? 255
         : t == TFCC_INT8  ? 127
         : t == TFCC_INT4  ? 7
         : t == TFCC_INT2  ? 1
         : t == TFCC_UINT4 ? 15
                           : 32767;
}

/* Checks that the node has n_in (required, non-omitted) inputs and one output. */
static inline tfcc_status act_check_io(const tfcc_op_ctx *ctx, int n_in) {
  TFCC_OP_CHECK(ctx, ctx->n_in >= n_in, TFCC_ERR_INVALID_MODEL, "expected %d input(s), got %d",
                n_in, (int)ctx->n_in);
  for (int i = 0; i < n_in; i++)
    TFCC_OP_CHECK(ctx, ctx->in[i] != NULL, TFCC_ERR_INVALID_MODEL, "input %d is missing", i);
  TFCC_OP_CHECK(ctx, ctx->n_out >= 1 && ctx->out[0] != NULL, TFCC_ERR_INVALID_MODEL,
                "expected 1 output, got %d", (int)ctx->n_out);
  return TFCC_OK;
}

/* The per-tensor (scale, zero point) of a quantized tensor, checked: exactly one scale, finite
 * and > 0, zero point inside the storage range. */
static inline tfcc_status act_quant(tfcc_err *err, const char *what, tfcc_dtype t,
                                    const tfcc_quant *q, float *scale, int32_t *zp) {
  if (!q || q->count < 1)
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s (%s) has no quantization parameters", what,
                        tfcc_dtype_name(t));
  if (q->count != 1)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "%s: per-axis quantization (%d scales) not supported here", what,
                        (int)q->count);
  const float s = q->scale[0];
  if (!(s > 0.f) || !isfinite(s))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL,
                        "%s: quantization scale %g is not a positive "
                        "finite number",
                        what, (double)s);
  const int32_t z = q->zero_point[0];
  if (z < act_qmin(t) || z > act_qmax(t))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s: zero point %d out of range for %s", what,
                        (int)z, tfcc_dtype_name(t));
  *scale = s;
  *zp = z;
  return TFCC_OK;
}

/* tflite::QuantizeMultiplier with a range check so that kernels never shift by 31 or more. */
static inline tfcc_status act_multiplier(tfcc_err *err, const char *what, double m, int32_t *qm,
                                         int *shift) {
  if (!isfinite(m))
    return tfcc_err_set(err, TFCC_ERR_INVALID_MODEL, "%s multiplier %g is not finite", what, m);
  tfcc_quantize_multiplier(m, qm, shift);
  if (*shift > 30)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "%s multiplier %g too large (2^%d)", what, m,
                        *shift);
  return TFCC_OK;
}

/* Checks the output dtype the model declares against the one the op produces. */
static inline tfcc_status act_out_dtype(tfcc_err *err, tfcc_dtype got, tfcc_dtype want) {
  if (got != want)
    return tfcc_err_set(err, TFCC_ERR_DTYPE, "output dtype %s, expected %s", tfcc_dtype_name(got),
                        tfcc_dtype_name(want));
  return TFCC_OK;
}

/* Output takes the input's shape. */
static inline tfcc_status act_same_shape(tfcc_op_ctx *ctx) {
  return tfcc_tensor_set_shape(ctx->out[0], ctx->in[0]->rank, ctx->in[0]->dims, ctx->err);
}

/* Allocates zeroed params for init. */
static inline tfcc_status act_alloc_params(tfcc_init_ctx *ctx, size_t bytes, void **p) {
  *p = calloc(1, bytes);
  if (!*p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory (%zu bytes)", bytes);
  ctx->params = *p;
  return TFCC_OK;
}

static inline tfcc_status act_params_missing(tfcc_op_ctx *ctx) {
  return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "operator parameters missing (init did not run)");
}

/* Element count of the input, for element-wise eval. */
static inline size_t act_count(const tfcc_tensor *t) { return (size_t)tfcc_tensor_elements(t); }

/* Unary operators keep this header first in their params: the dtypes init accepted. */
typedef struct act_head {
  tfcc_dtype in_type, out_type;
  int quant_compat; /* tfcc_quant_compat of the model (set before setup runs) */
} act_head;

/* Validates dtypes / quantization of one input and one output and fills the params (which
 * start with an act_head). */
typedef tfcc_status (*act_setup_fn)(void *params, const tfcc_ir_node *node,
                                    const tfcc_ir_tensor *in, const tfcc_ir_tensor *out,
                                    tfcc_err *err);

static inline tfcc_status act_unary_init(tfcc_init_ctx *ctx, size_t bytes, act_setup_fn setup) {
  const tfcc_ir_tensor *in = tfcc_init_ir_input(ctx, 0), *out = tfcc_init_ir_output(ctx, 0);
  if (!in || !out)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "expected 1 input and 1 output");
  void *p;
  tfcc_status st = act_alloc_params(ctx, bytes, &p);
  if (st) return st;
  act_head *h = (act_head *)p;
  h->in_type = in->dtype;
  h->out_type = out->dtype;
  h->quant_compat = ctx->quant_compat;
  if ((st = setup(p, ctx->node, in, out, ctx->err))) {
    free(p);
    ctx->params = NULL;
  }
  return st;
}

/* Per-axis quantization of t (its quant): the quantized dimension must index the channels.
 * Splits t's shape into outer x channels x inner around that axis. */
static inline tfcc_status act_per_axis_layout(tfcc_err *err, const tfcc_tensor *t, size_t *outer,
                                              size_t *channels, size_t *inner) {
  const tfcc_quant *q = t->quant;
  if (q->axis < 0 || q->axis >= t->rank || t->dims[q->axis] != q->count)
    return tfcc_err_set(err, TFCC_ERR_SHAPE,
                        "per-axis quantization: axis %d with %d scales does "
                        "not match rank-%d shape",
                        (int)q->axis, (int)q->count, (int)t->rank);
  *outer = 1;
  *inner = 1;
  for (int32_t d = 0; d < q->axis; d++) *outer *= (size_t)t->dims[d];
  for (int32_t d = q->axis + 1; d < t->rank; d++) *inner *= (size_t)t->dims[d];
  *channels = (size_t)q->count;
  return TFCC_OK;
}
/* prepare of a unary element-wise operator: dtypes as at init, output shape = input shape. */
static inline tfcc_status act_unary_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = act_check_io(ctx, 1);
  if (st) return st;
  const act_head *h = (const act_head *)ctx->params;
  if (!h) return act_params_missing(ctx);
  TFCC_OP_CHECK(ctx, ctx->in[0]->dtype == h->in_type, TFCC_ERR_DTYPE,
                "input dtype %s, model declared %s", tfcc_dtype_name(ctx->in[0]->dtype),
                tfcc_dtype_name(h->in_type));
  if ((st = act_out_dtype(ctx->err, ctx->out[0]->dtype, h->out_type))) return st;
  return act_same_shape(ctx);
}

/* prepare of a unary operator over the input's last axis (SOFTMAX, LOG_SOFTMAX): as
 * act_unary_prepare, and the input has at least one dimension. */
static inline tfcc_status act_last_axis_prepare(tfcc_op_ctx *ctx, const char *op) {
  tfcc_status st = act_unary_prepare(ctx);
  if (st) return st;
  TFCC_OP_CHECK(ctx, ctx->in[0]->rank >= 1, TFCC_ERR_SHAPE, "input rank 0, %s needs >= 1", op);
  return TFCC_OK;
}

/* Common checks: output dtype equal to input dtype, input dtype one of `ok` (n entries). */
static inline tfcc_status act_check_types(tfcc_err *err, const tfcc_ir_tensor *in,
                                          const tfcc_ir_tensor *out, const tfcc_dtype *ok, int n,
                                          const char *list) {
  if (out->dtype != in->dtype)
    return tfcc_err_set(err, TFCC_ERR_DTYPE, "output dtype %s, expected %s (input dtype)",
                        tfcc_dtype_name(out->dtype), tfcc_dtype_name(in->dtype));
  for (int i = 0; i < n; i++)
    if (in->dtype == ok[i]) return TFCC_OK;
  return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "input dtype %s not supported (%s)",
                      tfcc_dtype_name(in->dtype), list);
}

/* Quantization of input 0 and output 0 in one call. */
static inline tfcc_status act_quant_io(tfcc_err *err, const tfcc_ir_tensor *in,
                                       const tfcc_ir_tensor *out, float *s_in, int32_t *z_in,
                                       float *s_out, int32_t *z_out) {
  tfcc_status st = act_quant(err, "input 0", in->dtype, &in->quant, s_in, z_in);
  if (st) return st;
  return act_quant(err, "output 0", out->dtype, &out->quant, s_out, z_out);
}

/* Input and output quantization of a quantized activation (act_open_io). */
typedef struct act_io {
  bool quantized; /* false: float32, nothing below read */
  float s_in, s_out;
  int32_t z_in, z_out;
} act_io;

/* The activations' common start: types checked (act_check_types), then, unless the input is
 * float32, the input's and output's quantization. */
static inline tfcc_status act_open_io(tfcc_err *err, const tfcc_ir_tensor *in,
                                      const tfcc_ir_tensor *out, const tfcc_dtype *ok, int n,
                                      const char *list, act_io *io) {
  *io = (act_io){.quantized = false};
  tfcc_status st = act_check_types(err, in, out, ok, n, list);
  if (st || in->dtype == TFCC_FLOAT32) return st;
  io->quantized = true;
  return act_quant_io(err, in, out, &io->s_in, &io->z_in, &io->s_out, &io->z_out);
}

/* tflite CheckedLog2: rounded log2 of x (float math); true if x is a power of two within
 * 1e-3 in the exponent. */
static inline bool act_checked_log2(float x, int *log2_result) {
  const float x_log2 = logf(x) * (1.0f / logf(2.0f));
  const float x_log2_rounded = roundf(x_log2);
  const float x_log2_fracpart = x_log2 - x_log2_rounded;
  *log2_result = (int)x_log2_rounded;
  return fabsf(x_log2_fracpart) < 1e-3f;
}

/* LOGISTIC and TANH share their quantization logic (src/ops/logistic.c). */
typedef struct sigmoid_like_op {
  act_head head;
  uint8_t lut[256];         /* uint8 / int8 */
  int32_t input_multiplier; /* int16: > 0 selects the table kernel */
  int input_left_shift;     /* int16 */
} sigmoid_like_op;
tfcc_status tfcc_sigmoid_like_setup(sigmoid_like_op *p, bool is_tanh, const tfcc_ir_tensor *in,
                                    const tfcc_ir_tensor *out, tfcc_err *err);

#endif
