/* LOG: float32; int8 and quantized int16 through lookup tables as TFLite (ops/unary_lut.h).
 * Float32 in TFLITE mode: XNNPACK's arithmetic (kernels/ref/xnn_log.h), which TensorFlow Lite's
 * default build runs for every float LOG node (its delegate takes them all; exact8 probed 5,000
 * inputs over the whole float range against LiteRT, bit for bit): up to 33 ulp from a correctly
 * rounded logf, which the run-time quantization of hybrid nodes downstream turns into steps, and
 * finite values where logf overflows (88.37627 for inputs at or above 2^127.5 and for inf, the
 * DPCRN speech enhancers' softplus). REFERENCE mode: logf, the classic interpreter's builtin
 * kernel (its older delegate does not take LOG). */
#include "ops/unary_lut.h"

#include <stdlib.h>

#include "kernels/ref/xnn_log.h"
#include "ops/binary_common.h"

/* params of a float32 LOG that runs XNNPACK's log: this tag (unary_lut's params are a table) */
static char xnn_log_tag;

static tfcc_status init(tfcc_init_ctx *ctx) {
  const tfcc_ir_tensor *in = tfcc_init_ir_input(ctx, 0), *out = tfcc_init_ir_output(ctx, 0);
  if (in && out && in->dtype == TFCC_FLOAT32 && out->dtype == TFCC_FLOAT32 &&
      ctx->quant_compat == TFCC_QUANT_COMPAT_TFLITE) {
    ctx->params = &xnn_log_tag;
    return TFCC_OK;
  }
  return tfcc_unary_lut_init(ctx, TFCC_UN_LOG);
}

static void release(void *params) {
  if (params != &xnn_log_tag) free(params);
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  if (ctx->params == &xnn_log_tag) return tfcc_unary_prepare(ctx, TFCC_UN_LOG);
  return tfcc_unary_lut_prepare(ctx, TFCC_UN_LOG);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  if (ctx->params == &xnn_log_tag) {
    tfcc_xnn_log_f32((const float *)ctx->in[0]->data, (float *)ctx->out[0]->data,
                     (size_t)tfcc_tensor_elements(ctx->in[0]));
    return TFCC_OK;
  }
  return tfcc_unary_lut_eval(ctx, TFCC_UN_LOG);
}

static const char *kernel(const tfcc_op_ctx *ctx) {
  return ctx->params == &xnn_log_tag ? "xnn-f32-vlog" : "ref";
}

const tfcc_op_def tfcc_op_log = {.name = "LOG",
                                 .init = init,
                                 .release = release,
                                 .prepare = prepare,
                                 .eval = eval,
                                 .kernel = kernel};
