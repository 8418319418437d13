/* SCATTER_ND: inputs (indices int32 [..., nd], updates, shape int32 [rank]); the output (dtype
 * of updates: float32, uint8, int8, int32, int64) of the given shape is zero except where the
 * updates are summed in (duplicate indices add up; integers wrap) (scatter_nd.cc). Shapes are
 * checked as CheckShapes. A shape that is not constant makes the output dynamic. An index
 * tuple whose flat position falls outside the output fails eval, as TFLite's reference. */
#include "kernels/ref/scatter.h"
#include "ops/shape_ops_util.h"

#define OP "SCATTER_ND"

static tfcc_status scatter_nd_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *idx, *upd, *shape;
  tfcc_status st = tfcc_so_open(ctx, OP, 3, 3, 1, &idx);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &upd)) || (st = tfcc_so_input(ctx, 2, OP, &shape)))
    return st;
  static const int allowed[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT32, TFCC_INT64, -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "updates (input 1)", upd->dtype, allowed))) return st;
  TFCC_OP_CHECK(ctx, idx->dtype == shape->dtype, TFCC_ERR_DTYPE,
                OP ": indices (%s) and shape (%s) must have the same dtype",
                tfcc_dtype_name(idx->dtype), tfcc_dtype_name(shape->dtype));
  TFCC_OP_CHECK(ctx, idx->dtype == TFCC_INT32, TFCC_ERR_UNSUPPORTED,
                OP ": indices dtype %s is not supported (int32 only, as TFLite)",
                tfcc_dtype_name(idx->dtype));
  tfcc_tensor *out = ctx->out[0];
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, out, upd->dtype))) return st;
  TFCC_OP_CHECK(ctx, idx->rank >= 1 && upd->rank >= 1 && shape->rank == 1, TFCC_ERR_SHAPE,
                OP ": indices rank %d, updates rank %d, shape rank %d (need >= 1, >= 1, 1)",
                (int)idx->rank, (int)upd->rank, (int)shape->rank);
  int64_t dims[TFCC_MAX_RANK], n;
  if ((st = tfcc_so_read_ints(ctx, OP, "shape (input 2)", shape, dims, TFCC_MAX_RANK, &n)))
    return st;
  const int32_t outer = idx->rank - 1, nd = idx->dims[outer];
  for (int32_t i = 0; i < outer; i++)
    TFCC_OP_CHECK(ctx, i < upd->rank && idx->dims[i] == upd->dims[i], TFCC_ERR_SHAPE,
                  OP ": indices dimension %d (%d) differs from updates' (%d)", (int)i,
                  (int)idx->dims[i], i < upd->rank ? (int)upd->dims[i] : -1);
  TFCC_OP_CHECK(ctx, nd >= 0 && nd <= n && upd->rank - outer == n - nd, TFCC_ERR_SHAPE,
                OP ": updates rank %d does not fit indices [.., %d] into a rank-%lld output",
                (int)upd->rank, (int)nd, (long long)n);
  for (int32_t i = 0; i + outer < upd->rank; i++)
    TFCC_OP_CHECK(ctx, upd->dims[i + outer] == dims[nd + i], TFCC_ERR_SHAPE,
                  OP ": updates dimension %d is %d, the output's dimension %d is %lld",
                  (int)(i + outer), (int)upd->dims[i + outer], (int)(nd + i),
                  (long long)dims[nd + i]);
  return tfcc_so_set_shape(ctx, OP, out, (int32_t)n, dims);
}

static tfcc_status scatter_nd_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *idx = ctx->in[0], *upd = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  const int32_t outer = idx->rank - 1, nd = idx->dims[outer];
  const int64_t n_slices = tfcc_so_prod(idx->dims, 0, outer);
  const int64_t slice = tfcc_so_prod(upd->dims, outer, upd->rank);
  int64_t to_count[TFCC_MAX_RANK], rem = tfcc_tensor_elements(out);
  for (int32_t k = 0; k < nd; k++) {
    to_count[k] = out->dims[k] ? rem / out->dims[k] : 0;
    rem = to_count[k];
  }
  const int64_t bad = tfcc_ref_scatter_nd(out->dtype, idx->data, nd, to_count, n_slices, slice,
                                          upd->data, out->data, tfcc_tensor_elements(out));
  TFCC_OP_CHECK(ctx, bad < 0, TFCC_ERR_RUNTIME,
                OP ": index tuple %lld (first entry %d) falls outside the output", (long long)bad,
                bad >= 0 && nd > 0 ? (int)((const int32_t *)idx->data)[bad * nd] : 0);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_scatter_nd = {
    .name = OP, .prepare = scatter_nd_prepare, .eval = scatter_nd_eval};
