/* GELU: float32 (erfc form, or the tanh approximation when GeluOptions.approximate); float16
 * (v3) as LiteRT's default build runs it (XNNPACK's float32 rational interpolant, rounded to
 * half once: kernels/ref/activation.c); uint8 / int8 through a 256-entry table of the same float function (GeluPrepare); int16
 * through TFLite's 513-entry interpolated table (LUTPopulate<int16_t>, as LiteRT). float32 in
 * TFLITE mode, any model (exact53; hybrid models only before): XNNPACK's interpolant (LiteRT's
 * delegate runs every float GELU); in the REFERENCE mode of a hybrid model the classic
 * interpreter's builtin kernel (Eigen's erf or tanh, eigen_f32.h). */
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/tflite-f32/eigen_f32.h"
#include "kernels/ref/activation.h"
#include "kernels/ref/lut.h"
#include "ops/act_common.h"
#include "ops/act_kernels.h"
#include "ops/hybrid.h"

typedef struct gelu_op {
  act_head head;
  bool approximate;
  /* float32 in TFLITE mode (any model): XNNPACK's interpolant (the ISA's
   * variant); NULL: tfcc's */
  const tfcc_tflite_f32_kernel *xnn;
  /* float32 in a hybrid model, REFERENCE mode: the classic interpreter's builtin
   * kernel with Eigen's erf (approximate false; Eigen's tanh, approximate true) */
  bool eigen;
  uint8_t lut[256];
  int16_t lut16[TFCC_LUT16_SIZE];
} gelu_op;

static float gelu_fn(float x, const void *arg) {
  return *(const bool *)arg ? tfcc_act_gelu_approx(x) : tfcc_act_gelu(x);
}

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  static const tfcc_dtype ok[] = {TFCC_FLOAT32, TFCC_FLOAT16, TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  static const char *const list = "float32, float16, uint8, int8, int16";
  gelu_op *p = (gelu_op *)params;
  p->approximate = node->opts.gelu.approximate;
  if (in->dtype == TFCC_FLOAT16) return act_check_types(err, in, out, ok, 5, list);
  act_io io;
  tfcc_status st = act_open_io(err, in, out, ok, 5, list, &io);
  if (st || !io.quantized) return st;
  if (in->dtype == TFCC_INT16) {
    tfcc_lut16_build_fn(io.s_in, io.z_in, io.s_out, io.z_out, gelu_fn, &p->approximate, p->lut16);
    return TFCC_OK;
  }
  tfcc_lut8_build(in->dtype, io.s_in, io.z_in, io.s_out, io.z_out,
                  p->approximate ? tfcc_act_gelu_approx : tfcc_act_gelu, p->lut);
  return TFCC_OK;
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  tfcc_status st = act_unary_init(ctx, sizeof(gelu_op), setup);
  if (st == TFCC_OK && ctx->params) {
    gelu_op *p = ctx->params;
    /* every model (LiteRT's delegate takes any float32 GELU, VisitUnaryNode), not
       only hybrid ones: an int16x8 twin's QUANTIZE after a float GELU turns tfcc's erfc
       ulps into steps (0.05% of the transformer twin's elements 2 LSB off before) */
    if (p->head.in_type == TFCC_FLOAT32 && ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE)
      p->xnn = tfcc_tflite_f32_select(ctx->isa);
    p->eigen = p->head.in_type == TFCC_FLOAT32 && tfcc_hybrid_ref_builtin_float(ctx);
  }
  return st;
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const gelu_op *p = (const gelu_op *)ctx->params;
  const size_t n = act_count(ctx->in[0]);
  if (p->xnn)
    tfcc_xnn_gelu_run(ctx->pool, p->xnn, (const float *)ctx->in[0]->data,
                      (float *)ctx->out[0]->data, n, tfcc_gelu_xnn_rational(p->approximate));
  else if (p->eigen && p->approximate)
    tfcc_eigen_gelu_tanh_f32((const float *)ctx->in[0]->data, (float *)ctx->out[0]->data, n);
  else if (p->eigen)
    tfcc_eigen_gelu_f32((const float *)ctx->in[0]->data, (float *)ctx->out[0]->data, n);
  else if (p->head.in_type == TFCC_FLOAT32)
    tfcc_gelu_f32((const float *)ctx->in[0]->data, (float *)ctx->out[0]->data, n, p->approximate);
  else if (p->head.in_type == TFCC_FLOAT16)
    tfcc_gelu_f16((const uint16_t *)ctx->in[0]->data, (uint16_t *)ctx->out[0]->data, n,
                  p->approximate);
  else if (p->head.in_type == TFCC_INT16)
    tfcc_lut16_apply((const int16_t *)ctx->in[0]->data, (int16_t *)ctx->out[0]->data, n, p->lut16);
  else
    act_run_lut(ctx, p->lut);
  return TFCC_OK;
}

static const char *gelu_kernel(const tfcc_op_ctx *ctx) {
  const gelu_op *p = (const gelu_op *)ctx->params;
  if (p && (p->head.in_type == TFCC_INT8 || p->head.in_type == TFCC_UINT8))
    return ctx->ks->q8_lut->name;
  return p && p->xnn ? p->xnn->name
                     : (p && p->eigen ? (p->approximate ? "eigen-tanh" : "eigen-erf") : "ref");
}

TFCC_OP_DEFINE(tfcc_op_gelu, "GELU", init, act_unary_prepare, eval, .kernel = gelu_kernel);
