/* LOGISTIC: float32; uint8 / int8 through a 256-entry float table (the default builtin kernel is
 * the LUT one: Register_LOGISTIC -> kGenericOptimized), output scale must be 1/256 (TFLITE mode:
 * XNNPACK's table, sigmoid in double, ties to even); int16 with zero points 0 and output scale
 * 2^-15: power-of-two input scale 2^-12 -> gemmlowp fixed-point logistic (F3), other scales ->
 * TFLite's interpolated sigmoid table. tfcc_sigmoid_like_setup is shared with TANH. */
#include "kernels/ref/activation.h"
#include "ops/act_common.h"
#include "ops/act_kernels.h"
#include "ops/hybrid.h"
#include "kernels/tflite-f32/tflite_f32.h"

/* LOGISTIC's params: the shared sigmoid-like part, and float32 in XNNPACK's exact arithmetic
 * (every float32 LOGISTIC, both modes: both TFLite builds delegate it to XNNPACK). */
typedef struct logistic_op {
  sigmoid_like_op base;
  const tfcc_tflite_f32_kernel *xnn; /* XNNPACK's sigmoid (its ISA's variant); NULL: tfcc's */
  bool eigen; /* REFERENCE mode, an undelegated subgraph: the builtin (Eigen's) logistic */
} logistic_op;

tfcc_status tfcc_sigmoid_like_setup(sigmoid_like_op *p, bool is_tanh, const tfcc_ir_tensor *in,
                                    const tfcc_ir_tensor *out, tfcc_err *err) {
  static const tfcc_dtype ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  act_io io;
  tfcc_status st = act_open_io(err, in, out, ok, 4, "float32, uint8, int8, int16", &io);
  if (st || !io.quantized) return st;
  if (in->dtype != TFCC_INT16) {
    if (!is_tanh && (double)io.s_out != 1. / 256)
      return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "output scale %g, LOGISTIC requires 1/256",
                          (double)io.s_out);
    /* TFLITE mode: the XNNPACK delegate takes every 8-bit LOGISTIC / TANH and builds its table
     * from its reference functions (sigmoid in double), rounding ties to even. */
    if (p->head.quant_compat == TFCC_QUANT_COMPAT_TFLITE)
      tfcc_lut8_build_xnn(in->dtype, io.s_in, io.z_in, io.s_out, io.z_out,
                          is_tanh ? tfcc_act_tanh : tfcc_act_logistic_xnn, p->lut);
    else
      tfcc_lut8_build(in->dtype, io.s_in, io.z_in, io.s_out, io.z_out,
                      is_tanh ? tfcc_act_tanh : tfcc_act_logistic, p->lut);
    return TFCC_OK;
  }
  if (io.z_in != 0 || io.z_out != 0)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "int16 zero points must be 0 (input %d, "
                        "output %d)",
                        (int)io.z_in, (int)io.z_out);
  if (!is_tanh && (double)io.s_out != 1. / 32768)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "output scale %g, int16 LOGISTIC requires "
                        "1/32768",
                        (double)io.s_out);
  int out_log2;
  if (!act_checked_log2(io.s_out, &out_log2) || out_log2 != -15)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "output scale %g, int16 %s requires 2^-15",
                        (double)io.s_out, is_tanh ? "TANH" : "LOGISTIC");
  /* Input integer bits 3: a power-of-two input scale 2^-12 (or 2^-13 for tanh) runs the
   * fixed-point kernel; anything else rescales to 1/(3*4096) for the table kernel. */
  int in_log2;
  bool pot = act_checked_log2(io.s_in, &in_log2);
  p->input_left_shift = (15 - 3) + in_log2;
  pot = pot && (p->input_left_shift == 0 || (is_tanh && p->input_left_shift == 1));
  p->input_multiplier = 0;
  if (!pot) {
    double multiplier = (double)io.s_in * 4096.0 * 3.0;
    p->input_left_shift = 0;
    while (multiplier <= 32767.0 / 2.0 && p->input_left_shift <= 30) {
      p->input_left_shift++;
      multiplier = multiplier * 2.0;
    }
    if (!(multiplier >= 1.0 && multiplier < 2147483648.0))
      return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                          "int16 input scale %g out of the supported "
                          "range",
                          (double)io.s_in);
    p->input_multiplier = (int32_t)multiplier;
  }
  return TFCC_OK;
}

static tfcc_status setup(void *params, const tfcc_ir_node *node, const tfcc_ir_tensor *in,
                         const tfcc_ir_tensor *out, tfcc_err *err) {
  (void)node;
  return tfcc_sigmoid_like_setup((sigmoid_like_op *)params, false, in, out, err);
}

static tfcc_status init(tfcc_init_ctx *ctx) {
  tfcc_status st = act_unary_init(ctx, sizeof(logistic_op), setup);
  if (st == TFCC_OK && ctx->params) {
    logistic_op *p = ctx->params;
    /* Every float LOGISTIC: both TFLite builds hand it to XNNPACK, whose sigmoid is
       the same function in LiteRT's and the classic interpreter's delegate (the DTLN
       noise suppressors; conformance logistic_f32_expf_probe bit for bit with both). Its
       variants give the same bits at every ISA cap, where the f32-vunary LOGISTIC (an FMA exp
       on AVX2 / AVX-512, libm's on the generic cap) differed by an ulp between caps and from
       TFLite; AVX-512: as fast (docs/operators.md "LOGISTIC"). */
    if (p->base.head.in_type == TFCC_FLOAT32) p->xnn = tfcc_tflite_f32_select(ctx->isa);
    /* ref9: REFERENCE mode where the classic interpreter delegates nothing: its builtin
       logistic, Eigen's (tfcc_logistic_f32_eigen; DPCRN's GRU gates) */
    p->eigen = p->base.head.in_type == TFCC_FLOAT32 && tfcc_ref_builtin_float_range(ctx);
    if (p->eigen) p->xnn = NULL;
  }
  return st;
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const sigmoid_like_op *p = (const sigmoid_like_op *)ctx->params;
  const size_t n = act_count(ctx->in[0]);
  switch (p->head.in_type) {
    case TFCC_FLOAT32:
      if (((const logistic_op *)ctx->params)->eigen) {
        /* the vector kernel's (tfcc_logistic_f32_eigen's bits; exact10) */
        ctx->ks->tflite_f32->logistic_eigen(ctx->in[0]->data, ctx->out[0]->data, n);
        break;
      }
      if (((const logistic_op *)ctx->params)->xnn) { /* threaded by elements: the same bits */
        tfcc_xnn_sigmoid_run(ctx->pool, ((const logistic_op *)ctx->params)->xnn, ctx->in[0]->data,
                             ctx->out[0]->data, n);
        break;
      }
      act_run_f32(ctx, TFCC_F32VU_LOGISTIC, 0.f, 0.f, 0.f);
      break;
    case TFCC_INT16:
      if (p->input_multiplier > 0)
        tfcc_logistic_i16_lut((const int16_t *)ctx->in[0]->data, (int16_t *)ctx->out[0]->data, n,
                              p->input_multiplier, p->input_left_shift);
      else
        tfcc_logistic_i16_fixed((const int16_t *)ctx->in[0]->data, (int16_t *)ctx->out[0]->data, n);
      break;
    default: act_run_lut(ctx, p->lut); break;
  }
  return TFCC_OK;
}

/* The kernel a profile names: XNNPACK's sigmoid where it runs (its ISA's variant), else the
 * shared float / LUT kernels' names. */
static const char *logistic_kernel(const tfcc_op_ctx *ctx) {
  const logistic_op *p = (const logistic_op *)ctx->params;
  if (p && p->base.head.in_type == TFCC_FLOAT32 && p->eigen) return "eigen";
  if (p && p->base.head.in_type == TFCC_FLOAT32 && p->xnn) return p->xnn->name;
  return act_unary_kernel(ctx);
}

const tfcc_op_def tfcc_op_logistic = {.name = "LOGISTIC",
                                      .init = init,
                                      .prepare = act_unary_prepare,
                                      .eval = eval,
                                      .kernel = logistic_kernel,
                                      .inplace_ok = true};
