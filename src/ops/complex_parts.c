/* REAL, IMAG, COMPLEX_ABS: complex64 input -> float32 output of the same shape (TFLite's
 * complex.cc; its complex128 -> float64 forms are not supported). */
#include "kernels/fft/complex.h"
#include "ops/op.h"

static tfcc_status parts_prepare(tfcc_op_ctx *ctx, const char *op) {
  TFCC_OP_CHECK(ctx, ctx->n_in == 1 && ctx->n_out == 1 && ctx->in[0] && ctx->out[0],
                TFCC_ERR_INVALID_MODEL, "%s: %d inputs and %d outputs, expected 1 and 1", op,
                (int)ctx->n_in, (int)ctx->n_out);
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(ctx, in->dtype == TFCC_COMPLEX64, TFCC_ERR_UNSUPPORTED,
                "%s: input dtype %s, expected complex64", op, tfcc_dtype_name(in->dtype));
  TFCC_OP_CHECK(ctx, out->dtype == TFCC_FLOAT32, TFCC_ERR_DTYPE,
                "%s: output dtype %s, expected float32", op, tfcc_dtype_name(out->dtype));
  return tfcc_tensor_set_shape(out, in->rank, in->dims, ctx->err);
}

static tfcc_status real_prepare(tfcc_op_ctx *ctx) { return parts_prepare(ctx, "REAL"); }
static tfcc_status imag_prepare(tfcc_op_ctx *ctx) { return parts_prepare(ctx, "IMAG"); }
static tfcc_status abs_prepare(tfcc_op_ctx *ctx) { return parts_prepare(ctx, "COMPLEX_ABS"); }

static tfcc_status real_eval(tfcc_op_ctx *ctx) {
  tfcc_complex_real((const float *)ctx->in[0]->data, (float *)ctx->out[0]->data,
                    (size_t)tfcc_tensor_elements(ctx->in[0]));
  return TFCC_OK;
}
static tfcc_status imag_eval(tfcc_op_ctx *ctx) {
  tfcc_complex_imag((const float *)ctx->in[0]->data, (float *)ctx->out[0]->data,
                    (size_t)tfcc_tensor_elements(ctx->in[0]));
  return TFCC_OK;
}
static tfcc_status abs_eval(tfcc_op_ctx *ctx) {
  tfcc_complex_abs((const float *)ctx->in[0]->data, (float *)ctx->out[0]->data,
                   (size_t)tfcc_tensor_elements(ctx->in[0]));
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_real = {.name = "REAL", .prepare = real_prepare, .eval = real_eval};
const tfcc_op_def tfcc_op_imag = {.name = "IMAG", .prepare = imag_prepare, .eval = imag_eval};
const tfcc_op_def tfcc_op_complex_abs = {
    .name = "COMPLEX_ABS", .prepare = abs_prepare, .eval = abs_eval};
