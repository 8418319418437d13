/* SPARSE_TO_DENSE: inputs (indices int32/int64: scalar, [n] or [n, rank]; output_shape
 * int32/int64 [rank], rank <= 4; values [n] or a scalar; default_value scalar) (sparse_to_dense.cc).
 * out = default_value everywhere, then values written at the indices in order (a repeated index
 * keeps the last). values dtypes float32, int32, int64, int8, uint8. An index outside the output
 * fails eval (TFLite writes out of bounds); validate_indices is read and not needed. An
 * output_shape not known at prepare makes the output dynamic. */
#include "kernels/ref/rearrange.h"
#include "ops/shape_ops_util.h"

#define OP "SPARSE_TO_DENSE"

static tfcc_status s2d_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *idx, *shape, *vals, *def;
  tfcc_tensor **const ins[] = {&idx, &shape, &vals, &def};
  tfcc_status st = tfcc_so_open_n(ctx, OP, 4, 1, ins);
  if (st) return st;
  static const int allowed[] = {TFCC_FLOAT32, TFCC_INT32, TFCC_INT64, TFCC_INT8, TFCC_UINT8, -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "values (input 2)", vals->dtype, allowed))) return st;
  TFCC_OP_CHECK(ctx, def->dtype == vals->dtype && tfcc_tensor_elements(def) == 1, TFCC_ERR_DTYPE,
                OP ": default_value must be one %s element", tfcc_dtype_name(vals->dtype));
  TFCC_OP_CHECK(ctx, idx->dtype == TFCC_INT32 || idx->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                OP ": indices dtype %s, expected int32 or int64", tfcc_dtype_name(idx->dtype));
  TFCC_OP_CHECK(ctx, idx->rank <= 2, TFCC_ERR_SHAPE, OP ": indices rank %d, expected <= 2",
                (int)idx->rank);
  TFCC_OP_CHECK(ctx, shape->rank == 1, TFCC_ERR_SHAPE, OP ": output_shape rank %d, expected 1",
                (int)shape->rank);
  const int64_t n = idx->rank == 0 ? 1 : idx->dims[0];
  TFCC_OP_CHECK(ctx, vals->rank == 0 || (vals->rank == 1 && vals->dims[0] == n), TFCC_ERR_SHAPE,
                OP ": values must be a scalar or have %lld entries", (long long)n);
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], vals->dtype))) return st;
  int64_t dims[4], rank;
  if ((st = tfcc_so_read_ints(ctx, OP, "output_shape (input 1)", shape, dims, 4, &rank))) return st;
  const int64_t per = idx->rank == 2 ? idx->dims[1] : 1;
  TFCC_OP_CHECK(ctx, per == rank, TFCC_ERR_SHAPE,
                OP ": index tuples have %lld entries for a rank-%lld output", (long long)per,
                (long long)rank);
  ctx->scratch_bytes = sizeof(int64_t) * (size_t)(n + 1);
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], (int32_t)rank, dims);
}

static tfcc_status s2d_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *idx = ctx->in[0], *vals = ctx->in[2];
  tfcc_tensor *out = ctx->out[0];
  const int64_t n = idx->rank == 0 ? 1 : idx->dims[0], rank = out->rank;
  int64_t *flat = ctx->scratch;
  for (int64_t i = 0; i < n; i++) {
    int64_t f = 0;
    for (int64_t k = 0; k < rank; k++) {
      const int64_t at = i * rank + k;
      const int64_t v = idx->dtype == TFCC_INT32 ? ((const int32_t *)idx->data)[at]
                                                 : ((const int64_t *)idx->data)[at];
      TFCC_OP_CHECK(ctx, v >= 0 && v < out->dims[k], TFCC_ERR_RUNTIME,
                    OP ": index %lld, entry %lld is %lld, outside [0, %d)", (long long)i,
                    (long long)k, (long long)v, (int)out->dims[k]);
      f = f * out->dims[k] + v;
    }
    flat[i] = f;
  }
  tfcc_ref_sparse_to_dense(flat, n, vals->data, vals->rank == 0, ctx->in[3]->data,
                           tfcc_tensor_elements(out), tfcc_dtype_size(vals->dtype), out->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_sparse_to_dense = {.name = OP, .prepare = s2d_prepare, .eval = s2d_eval};
