/* LEAKY_RELU: float32, uint8, int8, int16. Quantized: two requantization multipliers,
 * input_scale / output_scale for x >= 0 and input_scale * alpha / output_scale below (both
 * computed in float, as LeakyReluPrepare). int16 needs zero points 0. */
#include "kernels/ref/activation.h"
#include "ops/act_common.h"
#include "ops/act_kernels.h"

typedef struct leaky_relu_op {
  act_head head;
  float alpha;
  tfcc_leaky_relu_params q;
  uint8_t lut[256]; /* uint8 / int8: the reference kernel on every byte value */
} leaky_relu_op;

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  static const tfcc_dtype ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  leaky_relu_op *p = (leaky_relu_op *)params;
  p->alpha = node->opts.leaky_relu.alpha;
  act_io io;
  tfcc_status st = act_open_io(err, in, out, ok, 4, "float32, uint8, int8, int16", &io);
  if (st || !io.quantized) return st;
  if (in->dtype == TFCC_INT16 && (io.z_in != 0 || io.z_out != 0))
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "int16 zero points must be 0 (input %d, "
                        "output %d)",
                        (int)io.z_in, (int)io.z_out);
  const float alpha_mult = io.s_in * p->alpha / io.s_out;
  const float identity_mult = io.s_in / io.s_out;
  if ((st = act_multiplier(err, "alpha", (double)alpha_mult, &p->q.mult_alpha, &p->q.shift_alpha)))
    return st;
  if ((st = act_multiplier(err, "identity", (double)identity_mult, &p->q.mult_identity,
                           &p->q.shift_identity)))
    return st;
  p->q.in_zp = io.z_in;
  p->q.out_zp = io.z_out;
  if (p->head.quant_compat == TFCC_QUANT_COMPAT_TFLITE && in->dtype != TFCC_INT16) {
    /* VisitLeakyReluNode: positive scale in [2^-8, 2^7], negative scale (positive * alpha) in
     * [-127.99609375, 128] and at least 2^-8 in magnitude; all float. */
    const float pos = io.s_in / io.s_out;
    const float neg = pos * p->alpha;
    if (pos >= 0x1.0p-8f && pos <= 0x1.0p+7f && neg >= -127.99609375f && neg <= 128.0f &&
        fabsf(neg) >= 0x1.0p-8f) {
      p->q.xnn = true;
      p->q.xnn_pos_mult = (int32_t)lrintf(256.0f * pos);
      p->q.xnn_neg_mult = (int32_t)lrintf(256.0f * neg);
    }
  }
  if (in->dtype != TFCC_INT16) {
    uint8_t all[256];
    for (int i = 0; i < 256; i++) all[i] = (uint8_t)i;
    tfcc_leaky_relu_q(in->dtype, all, p->lut, 256, &p->q);
  }
  return TFCC_OK;
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  return act_unary_init(ctx, sizeof(leaky_relu_op), setup);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const leaky_relu_op *p = (const leaky_relu_op *)ctx->params;
  const size_t n = act_count(ctx->in[0]);
  if (p->head.in_type == TFCC_FLOAT32)
    act_run_f32(ctx, TFCC_F32VU_LEAKY_RELU, 0.f, 0.f, p->alpha);
  else if (p->head.in_type == TFCC_INT16)
    tfcc_leaky_relu_q(p->head.in_type, ctx->in[0]->data, ctx->out[0]->data, n, &p->q);
  else
    act_run_lut(ctx, p->lut);
  return TFCC_OK;
}

TFCC_ACT_UNARY_OP_DEF(tfcc_op_leaky_relu, "LEAKY_RELU", init, eval);
