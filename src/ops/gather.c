/* GATHER: inputs (params, indices int16/int32/int64); GatherOptions: axis, batch_dims (both may
 * be negative). params of any fixed-size dtype or int4 (v7: one value per byte in tfcc, so any
 * slice size; TFLite's kernel copies packed bytes and handles only even slices). Output shape params[:axis] + indices[batch_dims:] + params[axis+1:]. An index
 * outside [0, params.dims[axis]) fails eval, as TFLite. */
#include "kernels/ref/gather.h"
#include "ops/shape_ops_util.h"

#define OP "GATHER"

typedef struct gather_dims {
  int32_t axis, batch_dims;
} gather_dims;

static tfcc_status gather_dims_get(tfcc_op_ctx *ctx, const tfcc_tensor *p, const tfcc_tensor *ix,
                                   gather_dims *g) {
  tfcc_status st = tfcc_so_axis(ctx, OP, ctx->node->opts.gather.axis, p->rank, &g->axis);
  if (st) return st;
  int32_t bd = ctx->node->opts.gather.batch_dims;
  if (bd < 0) bd += ix->rank;
  TFCC_OP_CHECK(ctx, bd >= 0 && bd <= ix->rank && bd <= g->axis, TFCC_ERR_INVALID_MODEL,
                OP ": batch_dims %d out of range (indices rank %d, axis %d)",
                (int)ctx->node->opts.gather.batch_dims, (int)ix->rank, (int)g->axis);
  for (int32_t d = 0; d < bd; d++)
    TFCC_OP_CHECK(ctx, p->dims[d] == ix->dims[d], TFCC_ERR_SHAPE,
                  OP ": batch dimension %d is %d in params and %d in indices", (int)d,
                  (int)p->dims[d], (int)ix->dims[d]);
  g->batch_dims = bd;
  return TFCC_OK;
}

static tfcc_status gather_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *p, *ix;
  tfcc_status st = tfcc_so_gather_inputs(ctx, OP, true, &p, &ix);
  if (st) return st;
  gather_dims g;
  if ((st = gather_dims_get(ctx, p, ix, &g))) return st;
  int64_t dims[TFCC_MAX_RANK * 2];
  int32_t r = 0;
  for (int32_t d = 0; d < g.axis; d++) dims[r++] = p->dims[d];
  for (int32_t d = g.batch_dims; d < ix->rank; d++) dims[r++] = ix->dims[d];
  for (int32_t d = g.axis + 1; d < p->rank; d++) dims[r++] = p->dims[d];
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], r, dims);
}

static tfcc_status gather_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *p = ctx->in[0], *ix = ctx->in[1];
  gather_dims g;
  tfcc_status st = gather_dims_get(ctx, p, ix, &g);
  if (st) return st;
  int64_t batch = tfcc_so_prod(p->dims, 0, g.batch_dims);
  int64_t outer = tfcc_so_prod(p->dims, g.batch_dims, g.axis);
  int64_t inner = tfcc_so_prod(p->dims, g.axis + 1, p->rank);
  int64_t coords = tfcc_so_prod(ix->dims, g.batch_dims, ix->rank);
  size_t isz = tfcc_dtype_size(ix->dtype);
  int64_t bad = tfcc_ref_gather(p->data, batch, outer, p->dims[g.axis], inner, ix->data, isz,
                                coords, tfcc_dtype_size(p->dtype), ctx->out[0]->data);
  if (bad >= 0)
    return tfcc_err_set(
        ctx->err, TFCC_ERR_RUNTIME, OP ": index %lld at position %lld out of range [0, %d)",
        (long long)tfcc_ref_index_at(ix->data, isz, bad), (long long)bad, (int)p->dims[g.axis]);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_gather = {.name = OP, .prepare = gather_prepare, .eval = gather_eval};
