/* SIGN: float32, float64, int32 (TFLite sign.cc): 1 for x > 0, -1 for x < 0, else 0 (NaN -> 0). */
#include "ops/binary_common.h"

#define OP "SIGN"

static tfcc_status sign_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_elem_check_io(ctx, OP, 1, 1);
  if (st) return st;
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(
      ctx, in->dtype == TFCC_FLOAT32 || in->dtype == TFCC_FLOAT64 || in->dtype == TFCC_INT32,
      TFCC_ERR_UNSUPPORTED, OP ": input dtype %s is not supported (float32, float64, int32)",
      tfcc_dtype_name(in->dtype));
  TFCC_OP_CHECK(ctx, out->dtype == in->dtype, TFCC_ERR_DTYPE,
                OP ": output dtype %s differs from input dtype %s", tfcc_dtype_name(out->dtype),
                tfcc_dtype_name(in->dtype));
  return tfcc_tensor_set_shape(out, in->rank, in->dims, ctx->err);
}

#define SIGN_OF(x) ((x) > 0 ? 1 : ((x) < 0 ? -1 : 0))

static tfcc_status sign_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  const int64_t n = tfcc_tensor_elements(in);
  if (in->dtype == TFCC_FLOAT32) {
    const float *x = in->data;
    float *y = out->data;
    for (int64_t i = 0; i < n; i++) y[i] = (float)SIGN_OF(x[i]);
  } else if (in->dtype == TFCC_FLOAT64) {
    const double *x = in->data;
    double *y = out->data;
    for (int64_t i = 0; i < n; i++) y[i] = (double)SIGN_OF(x[i]);
  } else {
    const int32_t *x = in->data;
    int32_t *y = out->data;
    for (int64_t i = 0; i < n; i++) y[i] = SIGN_OF(x[i]);
  }
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_sign = {
    .name = OP, .prepare = sign_prepare, .eval = sign_eval, .inplace_ok = true};
