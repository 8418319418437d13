/* GATHER_ND: inputs (params, indices int16/int32/int64 with last dimension nd <= params rank).
 * Output shape indices[:-1] + params[nd:]. As TFLite's reference GatherNd, an index tuple is
 * rejected (eval error) only when its flat position falls outside params. */
#include "kernels/ref/copy.h"
#include "kernels/ref/gather.h"
#include "ops/shape_ops_util.h"

#define OP "GATHER_ND"

static tfcc_status gather_nd_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *p, *ix;
  tfcc_status st = tfcc_so_gather_inputs(ctx, OP, false, &p, &ix);
  if (st) return st;
  TFCC_OP_CHECK(ctx, p->rank >= 1 && ix->rank >= 1, TFCC_ERR_SHAPE,
                OP ": params rank %d and indices rank %d must be at least 1", (int)p->rank,
                (int)ix->rank);
  int32_t nd = ix->dims[ix->rank - 1];
  TFCC_OP_CHECK(ctx, nd >= 0 && nd <= p->rank, TFCC_ERR_SHAPE,
                OP ": index depth %d exceeds params rank %d", (int)nd, (int)p->rank);
  int64_t dims[TFCC_MAX_RANK * 2];
  int32_t r = 0;
  for (int32_t d = 0; d < ix->rank - 1; d++) dims[r++] = ix->dims[d];
  for (int32_t d = nd; d < p->rank; d++) dims[r++] = p->dims[d];
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], r, dims);
}

static tfcc_status gather_nd_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *p = ctx->in[0], *ix = ctx->in[1];
  int32_t nd = ix->dims[ix->rank - 1];
  int64_t strides[TFCC_MAX_RANK];
  tfcc_ref_strides(p->rank, p->dims, strides);
  int64_t slice = tfcc_so_prod(p->dims, nd, p->rank);
  int64_t n_slices = tfcc_so_prod(ix->dims, 0, ix->rank - 1);
  size_t isz = tfcc_dtype_size(ix->dtype);
  int64_t bad = tfcc_ref_gather_nd(p->data, tfcc_tensor_elements(p), strides, nd, slice, ix->data,
                                   isz, n_slices, tfcc_dtype_size(p->dtype), ctx->out[0]->data);
  if (bad >= 0)
    return tfcc_err_set(ctx->err, TFCC_ERR_RUNTIME,
                        OP ": index tuple %lld (first value %lld) is out of bounds", (long long)bad,
                        (long long)(nd > 0 ? tfcc_ref_index_at(ix->data, isz, bad * nd) : 0));
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_gather_nd = {
    .name = OP, .prepare = gather_nd_prepare, .eval = gather_nd_eval};
