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
  bool same = x->rank == y->rank;
  for (int32_t i = 0; same && i < y->rank; i++) same = x->dims[i] == y->dims[i];
  if (!same) {
    char sy[96], sx[96];
    tfcc_shape_str(y->rank, y->dims, sy, sizeof sy);
    tfcc_shape_str(x->rank, x->dims, sx, sizeof sx);
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                        OP ": input 0 (y) shape %s and input 1 (x) shape %s differ", sy, sx);
  }
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
