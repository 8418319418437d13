/* The RELU family, one clamp each: RELU [0, inf) and RELU6 [0, 6] (float, uint8, int8, int16),
 * RELU_N1_TO_1 [-1, 1] and RELU_0_TO_1 [0, 1] (float, uint8, int8: TFLite has no int16 kernel
 * for them; activations.cc Relu1Eval, Relu0to1Eval). */
#include <math.h>

#include "kernels/ref/activation.h"
#include "ops/act_common.h"
#include "ops/act_kernels.h"

typedef struct relux_op {
  act_head head; /* in_type = out_type: the one dtype of input and output */
  float lo, hi;
  tfcc_relux_params q;
  uint8_t lut[256]; /* uint8 / int8: the reference kernel on every byte value */
} relux_op;

/* (int32)roundf(v) saturating, for clamp bounds on tiny scales. */
static int32_t round_sat(float v) {
  float r = roundf(v);
  if (r != r) return 0;
  if (r >= 2147483648.f) return INT32_MAX;
  if (r < -2147483648.f) return INT32_MIN;
  return (int32_t)r;
}

static tfcc_status relux_setup(relux_op *p, const tfcc_ir_tensor *in, const tfcc_ir_tensor *out,
                               bool allow_int16, tfcc_err *err) {
  p->head.in_type = p->head.out_type = in->dtype;
  if (out->dtype != in->dtype)
    return tfcc_err_set(err, TFCC_ERR_DTYPE, "output dtype %s, expected %s (input dtype)",
                        tfcc_dtype_name(out->dtype), tfcc_dtype_name(in->dtype));
  if (in->dtype == TFCC_FLOAT32) return TFCC_OK;
  if (!(in->dtype == TFCC_UINT8 || in->dtype == TFCC_INT8 ||
        (allow_int16 && in->dtype == TFCC_INT16)))
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "input dtype %s not supported (float32, uint8, "
                        "int8%s)",
                        tfcc_dtype_name(in->dtype), allow_int16 ? ", int16" : "");
  float s_in = 0.f, s_out = 0.f;
  int32_t z_in = 0, z_out = 0;
  tfcc_status st = act_quant(err, "input 0", in->dtype, &in->quant, &s_in, &z_in);
  if (st) return st;
  if ((st = act_quant(err, "output 0", out->dtype, &out->quant, &s_out, &z_out))) return st;
  if (in->dtype == TFCC_INT16 && (z_in != 0 || z_out != 0))
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "int16 zero points must be 0 (input %d, "
                        "output %d)",
                        (int)z_in, (int)z_out);
  const float real = s_in / s_out; /* float division, as ReluPrepare */
  if ((st = act_multiplier(err, "input/output scale", (double)real, &p->q.mult, &p->q.shift)))
    return st;
  const int32_t qmin = act_qmin(in->dtype), qmax = act_qmax(in->dtype);
  p->q.in_zp = z_in;
  p->q.out_zp = z_out;
  int64_t lo = (int64_t)z_out + round_sat(p->lo / s_out);
  p->q.act_min = lo > qmin ? (lo > qmax ? qmax : (int32_t)lo) : qmin;
  if (isinf(p->hi)) {
    p->q.act_max = qmax;
  } else {
    int64_t hi = (int64_t)z_out + round_sat(p->hi / s_out);
    p->q.act_max = hi < qmax ? (hi < qmin ? qmin : (int32_t)hi) : qmax;
  }
  if (in->dtype != TFCC_INT16) {
    uint8_t all[256];
    for (int i = 0; i < 256; i++) all[i] = (uint8_t)i;
    tfcc_relux_q(in->dtype, all, p->lut, 256, &p->q);
  }
  return TFCC_OK;
}

/* The float clamp range [lo, hi]; for quantized data a requantization with multiplier
 * input_scale / output_scale (computed in float, as TFLite's ReluPrepare) and the clamp range
 * quantized on the output scale (QuantizedReluX). */
static tfcc_status relux_op_init(tfcc_init_ctx *ctx, float lo, float hi, bool allow_int16) {
  const tfcc_ir_tensor *in = tfcc_init_ir_input(ctx, 0), *out = tfcc_init_ir_output(ctx, 0);
  if (!in || !out)
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "expected 1 input and 1 output");
  relux_op *p;
  tfcc_status st = act_alloc_params(ctx, sizeof *p, (void **)&p);
  if (st) return st;
  p->head.quant_compat = ctx->quant_compat;
  p->lo = lo;
  p->hi = hi;
  if ((st = relux_setup(p, in, out, allow_int16, ctx->err))) {
    free(p);
    ctx->params = NULL;
  }
  return st;
}

static tfcc_status relux_op_prepare(tfcc_op_ctx *ctx) { return act_unary_prepare(ctx); }

static tfcc_status relux_op_eval(tfcc_op_ctx *ctx) {
  const relux_op *p = (const relux_op *)ctx->params;
  const size_t n = act_count(ctx->in[0]);
  if (p->head.in_type == TFCC_FLOAT32) {
    act_run_f32(ctx, TFCC_F32VU_CLAMP, p->lo, p->hi, 0.f);
  } else if (p->head.in_type == TFCC_INT16) {
    tfcc_relux_q(p->head.in_type, ctx->in[0]->data, ctx->out[0]->data, n, &p->q);
  } else {
    act_run_lut(ctx, p->lut);
  }
  return TFCC_OK;
}

static const char *relux_op_kernel(const tfcc_op_ctx *ctx) {
  const relux_op *p = (const relux_op *)ctx->params;
  return p ? act_kernel_name(ctx, p->head.in_type) : "ref";
}

/* One operator of the family: its clamp bounds and whether it takes int16. */
#define RELUX_OP(sym, NAME, lo, hi, int16) \
  static tfcc_status sym##_init(tfcc_init_ctx *ctx) { return relux_op_init(ctx, lo, hi, int16); } \
  const tfcc_op_def tfcc_op_##sym = {.name = NAME, \
                                     .init = sym##_init, \
                                     .prepare = relux_op_prepare, \
                                     .eval = relux_op_eval, \
                                     .kernel = relux_op_kernel, \
                                     .inplace_ok = true};

RELUX_OP(relu, "RELU", 0.0f, INFINITY, true)
RELUX_OP(relu6, "RELU6", 0.0f, 6.0f, true)
RELUX_OP(relu_n1_to_1, "RELU_N1_TO_1", -1.0f, 1.0f, false)
RELUX_OP(relu_0_to_1, "RELU_0_TO_1", 0.0f, 1.0f, false)
