/* TANH: float32; uint8 / int8 through a 256-entry float table (default builtin kernel:
 * Register_TANH -> kGenericOptimized; TFLITE mode: XNNPACK's table, ties to even); int16 with zero
 * points 0 and output scale 2^-15: input scale 2^-12 or 2^-13 -> gemmlowp fixed-point tanh, other
 * scales -> TFLite's interpolated sigmoid table. Quantization setup shared with LOGISTIC
 * (logistic.c). */
#include "kernels/ref/activation.h"
#include "ops/act_common.h"
#include "ops/act_kernels.h"

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  (void)node;
  return tfcc_sigmoid_like_setup((sigmoid_like_op *)params, true, in, out, err);
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  return act_unary_init(ctx, sizeof(sigmoid_like_op), setup);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const sigmoid_like_op *p = (const sigmoid_like_op *)ctx->params;
  const size_t n = act_count(ctx->in[0]);
  switch (p->head.in_type) {
    case TFCC_FLOAT32: act_run_f32(ctx, TFCC_F32VU_TANH, 0.f, 0.f, 0.f); break;
    case TFCC_INT16:
      if (p->input_multiplier > 0)
        tfcc_tanh_i16_lut((const int16_t *)ctx->in[0]->data, (int16_t *)ctx->out[0]->data, n,
                          p->input_multiplier, p->input_left_shift);
      else
        tfcc_tanh_i16_fixed((const int16_t *)ctx->in[0]->data, (int16_t *)ctx->out[0]->data, n,
                            p->input_left_shift);
      break;
    default: act_run_lut(ctx, p->lut); break;
  }
  return TFCC_OK;
}

TFCC_ACT_UNARY_OP_DEF(tfcc_op_tanh, "TANH", init, eval);
