/* MATRIX_DIAG: input [..., n] -> output [..., n, n] with the input on the diagonal and zeros
 * elsewhere (matrix_diag.cc). float32, uint8, int8, int16, int32, int64 (bytes copied;
 * off-diagonal elements are the value 0, not a zero point, as TFLite). */
#include "kernels/ref/rearrange.h"
#include "ops/shape_ops_util.h"

#define OP "MATRIX_DIAG"

static tfcc_status matrix_diag_prepare(tfcc_op_ctx *ctx) {
  /* TFLite's kernel runs any other dtype (bool too) through its float32 path, reading and
   * writing 4-byte elements: no defined result to follow, so those are refused */
  tfcc_tensor *in;
  tfcc_status st = tfcc_so_open_typed(ctx, OP, 1, 1, 1, tfcc_so_numeric_dtypes, &in);
  if (st || (st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype))) return st;
  TFCC_OP_CHECK(ctx, in->rank >= 1 && in->rank < TFCC_MAX_RANK, TFCC_ERR_SHAPE,
                OP ": input rank %d, expected 1 to %d", (int)in->rank, TFCC_MAX_RANK - 1);
  int32_t dims[TFCC_MAX_RANK];
  for (int32_t d = 0; d < in->rank; d++) dims[d] = in->dims[d];
  dims[in->rank] = in->dims[in->rank - 1];
  return tfcc_tensor_set_shape(ctx->out[0], in->rank + 1, dims, ctx->err);
}

static tfcc_status matrix_diag_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  const int64_t n = in->dims[in->rank - 1];
  tfcc_ref_matrix_diag(in->data, tfcc_so_prod(in->dims, 0, in->rank - 1), n,
                       tfcc_dtype_size(in->dtype), ctx->out[0]->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_matrix_diag = {
    .name = OP, .prepare = matrix_diag_prepare, .eval = matrix_diag_eval};
