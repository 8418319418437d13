/* TANH: float32; uint8 / int8 through a 256-entry float table (default builtin kernel:
 * Register_TANH -> kGenericOptimized; TFLITE mode: XNNPACK's table, ties to even); int16 with zero
 * points 0 and output scale 2^-15: input scale 2^-12 or 2^-13 -> gemmlowp fixed-point tanh, other
 * scales -> TFLite's interpolated sigmoid table. Quantization setup shared with LOGISTIC
 * (logistic.c). float32 runs one function on every ISA where it matters: TFLITE mode XNNPACK's
 * rational 9/8 as LiteRT runs it (its delegate takes the node; faster than f32-vunary's TANH
 * too); REFERENCE mode in a subgraph with hybrid nodes (whose run-time quantization turns an ulp
 * into a step) Eigen's fast rational tanh (the builtin kernel's); REFERENCE mode elsewhere tfcc's
 * f32-vunary kernel. */
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/ref/activation.h"
#include "ops/act_common.h"
#include "ops/act_kernels.h"
#include "ops/hybrid.h"

/* float32 arithmetic */
enum { TANH_F32_OWN, TANH_F32_XNN, TANH_F32_EIGEN };

typedef struct tanh_op {
  sigmoid_like_op base;
  int f32;                          /* TANH_F32_* */
  const tfcc_tflite_f32_kernel *xk; /* the ISA's variant: XNNPACK's tanh (TANH_F32_XNN) or
                                       Eigen's (TANH_F32_EIGEN: tanh_eigen, ref11) */
} tanh_op;

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  (void)node;
  return tfcc_sigmoid_like_setup((sigmoid_like_op *)params, true, in, out, err);
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  tfcc_status st = act_unary_init(ctx, sizeof(tanh_op), setup);
  if (st == TFCC_OK && ctx->params) {
    tanh_op *p = ctx->params;
    if (p->base.head.in_type == TFCC_FLOAT32 && ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE) {
      p->f32 = TANH_F32_XNN;
      p->xk = tfcc_tflite_f32_select(ctx->isa);
    } else if (p->base.head.in_type == TFCC_FLOAT32 && ctx->sg &&
               (tfcc_hybrid_in_model(ctx->graph, ctx->sg) || tfcc_ref_builtin_float_range(ctx))) {
      p->f32 = TANH_F32_EIGEN;
      p->xk = tfcc_tflite_f32_select(ctx->isa); /* its tanh_eigen: the same bits, vectors */
    }
  }
  return st;
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const sigmoid_like_op *p = (const sigmoid_like_op *)ctx->params;
  const size_t n = act_count(ctx->in[0]);
  switch (p->head.in_type) {
    case TFCC_FLOAT32: {
      const float *x = (const float *)ctx->in[0]->data;
      float *y = (float *)ctx->out[0]->data;
      const tanh_op *t = (const tanh_op *)ctx->params;
      switch (t->f32) {
        case TANH_F32_XNN: tfcc_xnn_tanh_run(ctx->pool, t->xk, x, y, n); break;
        case TANH_F32_EIGEN:
          if (t->xk && t->xk->tanh_eigen)
            t->xk->tanh_eigen(x, y, n);
          else
            tfcc_tanh_f32_eigen(x, y, n);
          break;
        default: act_run_f32(ctx, TFCC_F32VU_TANH, 0.f, 0.f, 0.f); break;
      }
      break;
    }
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

static const char *tanh_kernel(const tfcc_op_ctx *ctx) {
  const tanh_op *p = (const tanh_op *)ctx->params;
  if (p && p->f32 == TANH_F32_XNN) return p->xk->name;
  if (p && p->f32 == TANH_F32_EIGEN) return "ref-eigen";
  return act_unary_kernel(ctx);
}

const tfcc_op_def tfcc_op_tanh = {.name = "TANH",
                                  .init = init,
                                  .prepare = act_unary_prepare,
                                  .eval = eval,
                                  .kernel = tanh_kernel,
                                  .inplace_ok = true};
