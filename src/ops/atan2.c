/* ATAN2: float32, float64 (TFLite atan2.cc): out = atan2(y, x) elementwise, inputs (y, x) of the
 * same shape (TFLite checks only the ranks; tfcc requires equal shapes, no broadcasting). */
#include <math.h>

#include "ops/binary_common.h"

#define OP "ATAN2"

static tfcc_status atan2_prepare(tfcc_op_ctx *ctx) {
  tfcc_status st = tfcc_elem_check_io(ctx, OP, 2, 1);
  if (st) return st;
  const tfcc_tensor *y = ctx->in[0], *x = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(ctx, y->dtype == TFCC_FLOAT32 || y->dtype == TFCC_FLOAT64, TFCC_ERR_UNSUPPORTED,
                OP ": input 0 (y) dtype %s is not supported (float32, float64)",
                tfcc_dtype_name(y->dtype));
  TFCC_OP_CHECK(ctx, x->dtype == y->dtype, TFCC_ERR_DTYPE,
                OP ": input 1 (x) dtype %s differs from input 0 (y) dtype %s",
                tfcc_dtype_name(x->dtype), tfcc_dtype_name(y->dtype));
  TFCC_OP_CHECK(ctx, out->dtype == y->dtype, TFCC_ERR_DTYPE,
                OP ": output dtype %s differs from input dtype %s", tfcc_dtype_name(out->dtype),
                tfcc_dtype_name(y->dtype));
  if ((st = tfcc_elem_same_shape(ctx, OP, y, "input 0 (y)", x, "input 1 (x)", "")) != TFCC_OK)
    return st;
  return tfcc_tensor_set_shape(out, y->rank, y->dims, ctx->err);
}

static tfcc_status atan2_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *y = ctx->in[0], *x = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  const int64_t n = tfcc_tensor_elements(y);
  if (y->dtype == TFCC_FLOAT32) {
    const float *a = y->data, *b = x->data;
    float *o = out->data;
    for (int64_t i = 0; i < n; i++) o[i] = atan2f(a[i], b[i]);
  } else {
    const double *a = y->data, *b = x->data;
    double *o = out->data;
    for (int64_t i = 0; i < n; i++) o[i] = atan2(a[i], b[i]);
  }
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_atan2 = {
    .name = OP, .prepare = atan2_prepare, .eval = atan2_eval, .inplace_ok = true};
