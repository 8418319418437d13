/* MATRIX_SET_DIAG: inputs (input [..., m, n], diagonal [..., min(m, n)]); out = input with its
 * main diagonal replaced (matrix_set_diag.cc). float32, uint8, int8, int16, int32, int64,
 * (bytes copied; not bool: TFLite treats it as float32). */
#include "kernels/ref/rearrange.h"
#include "ops/shape_ops_util.h"

#define OP "MATRIX_SET_DIAG"

static tfcc_status matrix_set_diag_prepare(tfcc_op_ctx *ctx) {
  /* TFLite's kernel runs any other dtype (bool too) through its float32 path, reading and
   * writing 4-byte elements: no defined result to follow, so those are refused */
  tfcc_tensor *in, *diag;
  tfcc_status st = tfcc_so_open_typed(ctx, OP, 2, 2, 1, tfcc_so_numeric_dtypes, &in);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &diag))) return st;
  TFCC_OP_CHECK(ctx, diag->dtype == in->dtype, TFCC_ERR_DTYPE,
                OP ": diagonal dtype %s differs from input's %s", tfcc_dtype_name(diag->dtype),
                tfcc_dtype_name(in->dtype));
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype))) return st;
  TFCC_OP_CHECK(ctx, in->rank >= 2, TFCC_ERR_SHAPE, OP ": input rank %d, expected >= 2",
                (int)in->rank);
  const int32_t m = in->dims[in->rank - 2], n = in->dims[in->rank - 1];
  bool ok = diag->rank == in->rank - 1 && diag->dims[diag->rank - 1] == (m < n ? m : n);
  for (int32_t d = 0; ok && d < in->rank - 2; d++) ok = diag->dims[d] == in->dims[d];
  TFCC_OP_CHECK(ctx, ok, TFCC_ERR_SHAPE,
                OP ": diagonal must have the input's batch dimensions and %d entries last",
                (int)(m < n ? m : n));
  return tfcc_tensor_set_shape(ctx->out[0], in->rank, in->dims, ctx->err);
}

static tfcc_status matrix_set_diag_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_ref_matrix_set_diag(in->data, ctx->in[1]->data, tfcc_so_prod(in->dims, 0, in->rank - 2),
                           in->dims[in->rank - 2], in->dims[in->rank - 1],
                           tfcc_dtype_size(in->dtype), ctx->out[0]->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_matrix_set_diag = {
    .name = OP, .prepare = matrix_set_diag_prepare, .eval = matrix_set_diag_eval};
