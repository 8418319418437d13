/* LOG: float32; int8 and quantized int16 through lookup tables as TFLite (ops/unary_lut.h).
 * Float32 in a hybrid model in TFLITE mode: XNNPACK's arithmetic (kernels/ref/xnn_log.h), which
 * TensorFlow Lite's default build runs, because the run-time input quantization of the hybrid
 * nodes downstream turns its differences from logf into quantization steps; elsewhere logf. */
#include "ops/unary_lut.h"

#include <stdlib.h>

#include "kernels/ref/xnn_log.h"
#include "ops/binary_common.h"
#include "ops/hybrid.h"

/* params of a float32 LOG that runs XNNPACK's log: this tag (unary_lut's params are a table) */
static char xnn_log_tag;

static tfcc_status init(tfcc_init_ctx *ctx) {
  const tfcc_ir_tensor *in = tfcc_init_ir_input(ctx, 0), *out = tfcc_init_ir_output(ctx, 0);
  if (in && out && in->dtype == TFCC_FLOAT32 && out->dtype == TFCC_FLOAT32 &&
      tfcc_hybrid_xnn_float(ctx)) {
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
