/* DYNAMIC_UPDATE_SLICE: inputs (operand, update of the same dtype and rank with each dimension
 * <= the operand's, start_indices int32/int64 [rank]). out = operand with update written at
 * the start indices, each clamped to [0, dim - update dim] (XLA semantics, as
 * dynamic_update_slice.cc). Any fixed-size dtype (bytes copied), as current TFLite; the TFLite
 * of the reference runners still refuses uint8, so its conformance cases cover the others. int4
 * (v5; a constant int4 update arrives unpacked as int8, values in [-8, 7]); bfloat16: v6. */
#include "kernels/ref/scatter.h"
#include "ops/shape_ops_util.h"

#define OP "DYNAMIC_UPDATE_SLICE"

static tfcc_status dus_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *x, *u, *s;
  tfcc_status st = tfcc_so_open(ctx, OP, 3, 3, 1, &x);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &u)) || (st = tfcc_so_input(ctx, 2, OP, &s))) return st;
  TFCC_OP_CHECK(
      ctx, (tfcc_so_elem_size(x->dtype) > 0 && x->dtype != TFCC_COMPLEX64) || x->dtype == TFCC_INT4,
      TFCC_ERR_UNSUPPORTED, OP ": operand dtype %s is not supported", tfcc_dtype_name(x->dtype));
  if (x->dtype == TFCC_INT4) { /* v5: a constant int4 update arrives as int8 */
    if ((st = tfcc_so_int4_operand(ctx, OP, "update", u))) return st;
  } else {
    TFCC_OP_CHECK(ctx, u->dtype == x->dtype, TFCC_ERR_DTYPE,
                  OP ": update dtype %s differs from operand's %s", tfcc_dtype_name(u->dtype),
                  tfcc_dtype_name(x->dtype));
  }
  TFCC_OP_CHECK(ctx, s->dtype == TFCC_INT32 || s->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                OP ": start_indices dtype %s, expected int32 or int64", tfcc_dtype_name(s->dtype));
  TFCC_OP_CHECK(ctx, s->rank == 1 && s->dims[0] == x->rank, TFCC_ERR_SHAPE,
                OP ": start_indices must be 1-D with %d entries (the operand's rank)",
                (int)x->rank);
  TFCC_OP_CHECK(ctx, u->rank == x->rank, TFCC_ERR_SHAPE, OP ": update rank %d, operand rank %d",
                (int)u->rank, (int)x->rank);
  for (int32_t d = 0; d < x->rank; d++)
    TFCC_OP_CHECK(ctx, u->dims[d] <= x->dims[d], TFCC_ERR_SHAPE,
                  OP ": update dimension %d is %d, larger than the operand's %d", (int)d,
                  (int)u->dims[d], (int)x->dims[d]);
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], x->dtype))) return st;
  return tfcc_tensor_set_shape(ctx->out[0], x->rank, x->dims, ctx->err);
}

static tfcc_status dus_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *x = ctx->in[0], *u = ctx->in[1], *s = ctx->in[2];
  int64_t start[TFCC_MAX_RANK];
  for (int32_t d = 0; d < x->rank; d++) {
    int64_t v =
        s->dtype == TFCC_INT32 ? ((const int32_t *)s->data)[d] : ((const int64_t *)s->data)[d];
    const int64_t hi = (int64_t)x->dims[d] - u->dims[d];
    start[d] = v < 0 ? 0 : v > hi ? hi : v;
  }
  tfcc_ref_dynamic_update_slice(x->data, x->dims, x->rank, u->data, u->dims, start,
                                tfcc_dtype_size(x->dtype), ctx->out[0]->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_dynamic_update_slice = {
    .name = OP, .prepare = dus_prepare, .eval = dus_eval, .inplace_ok = false};
