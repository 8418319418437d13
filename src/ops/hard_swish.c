/* HARD_SWISH: float32 (in a model with hybrid nodes: XNNPACK's formula, ops/hybrid.h; the
 * older XNNPACK's in REFERENCE mode; REFERENCE mode where nothing is delegated: the classic
 * interpreter's builtin formula); uint8 / int8 with TFLite's 16-bit fixed-point algorithm
 * (reference_ops::HardSwish, multipliers as HardSwishPrepare). */
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/ref/activation.h"
#include "ops/act_common.h"
#include "ops/act_kernels.h"
#include "ops/hybrid.h"

typedef struct hard_swish_op {
  act_head head;
  tfcc_hard_swish_params q;
  uint8_t lut[256]; /* uint8 / int8: the reference kernel on every byte value */
  bool xnn;         /* float32 in XNNPACK's arithmetic (tfcc_xnn_hswish_f32) */
  bool xnn_old;     /* REFERENCE mode: the older XNNPACK's (tfcc_xnn_hswish_f32_old) */
  bool builtin;     /* REFERENCE mode where the classic interpreter delegates nothing: its
                       builtin kernel's (tfcc_hard_swish_f32_builtin) */
} hard_swish_op;

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  static const tfcc_dtype ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8};
  hard_swish_op *p = (hard_swish_op *)params;
  act_io io;
  tfcc_status st = act_open_io(err, in, out, ok, 3, "float32, uint8, int8", &io);
  if (st || !io.quantized) return st;
  if (!tfcc_hard_swish_params_init(io.s_in, io.z_in, io.s_out, io.z_out, &p->q))
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "output multiplier input_scale/128/output_scale"
                        " = %g has a positive exponent %d (TFLite requires <= 0)",
                        (double)io.s_in / 128.0 / (double)io.s_out, p->q.output_exponent);
  uint8_t all[256];
  for (int i = 0; i < 256; i++) all[i] = (uint8_t)i;
  tfcc_hard_swish_q(in->dtype, all, p->lut, 256, &p->q);
  return TFCC_OK;
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  tfcc_status st = act_unary_init(ctx, sizeof(hard_swish_op), setup);
  if (st == TFCC_OK && ctx->params) {
    hard_swish_op *p = ctx->params;
    p->xnn = p->head.in_type == TFCC_FLOAT32 && tfcc_hybrid_xnn_float(ctx);
    /* the classic interpreter's delegate takes it too, with its older formula */
    p->xnn_old = p->head.in_type == TFCC_FLOAT32 && tfcc_hybrid_ref_delegated_float(ctx);
    p->builtin = p->head.in_type == TFCC_FLOAT32 && tfcc_ref_builtin_float_range(ctx);
  }
  return st;
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const hard_swish_op *p = (const hard_swish_op *)ctx->params;
  if (p->xnn)
    tfcc_xnn_hswish_f32(ctx->in[0]->data, ctx->out[0]->data, act_count(ctx->in[0]));
  else if (p->xnn_old)
    tfcc_xnn_hswish_f32_old(ctx->in[0]->data, ctx->out[0]->data, act_count(ctx->in[0]));
  else if (p->builtin)
    tfcc_hard_swish_f32_builtin(ctx->in[0]->data, ctx->out[0]->data, act_count(ctx->in[0]));
  else if (p->head.in_type == TFCC_FLOAT32)
    act_run_f32(ctx, TFCC_F32VU_HARD_SWISH, 0.f, 0.f, 0.f);
  else
    act_run_lut(ctx, p->lut);
  return TFCC_OK;
}

TFCC_ACT_UNARY_OP_DEF(tfcc_op_hard_swish, "HARD_SWISH", init, eval);
