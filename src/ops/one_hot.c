/* ONE_HOT: inputs (indices int32/int64, depth int32 scalar, on_value, off_value), OneHotOptions
 * axis (-1: last). Output [indices dims with depth inserted at axis], dtype of on_value:
 * float32, int32, int64, int8, uint8, bool (one_hot.cc; its int16 passes prepare but has no
 * kernel, so it is refused here). out = (int)index == position ? on : off; indices outside
 * [0, depth) give an all-off row. A depth that is not constant makes the output dynamic. */
#include "kernels/ref/lookup.h"
#include "ops/shape_ops_util.h"

#define OP "ONE_HOT"

static tfcc_status one_hot_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *idx, *depth, *on, *off;
  tfcc_tensor **const ins[] = {&idx, &depth, &on, &off};
  tfcc_status st = tfcc_so_open_n(ctx, OP, 4, 1, ins);
  if (st) return st;
  tfcc_tensor *out = ctx->out[0];
  static const int allowed[] = {TFCC_FLOAT32, TFCC_INT32, TFCC_INT64, TFCC_INT8,
                                TFCC_UINT8,   TFCC_BOOL,  -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "on_value (input 2)", on->dtype, allowed))) return st;
  TFCC_OP_CHECK(ctx, off->dtype == on->dtype, TFCC_ERR_DTYPE,
                OP ": off_value dtype %s differs from on_value's %s", tfcc_dtype_name(off->dtype),
                tfcc_dtype_name(on->dtype));
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, out, on->dtype))) return st;
  TFCC_OP_CHECK(ctx, idx->dtype == TFCC_INT32 || idx->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                OP ": indices dtype %s, expected int32 or int64", tfcc_dtype_name(idx->dtype));
  TFCC_OP_CHECK(ctx, depth->dtype == TFCC_INT32, TFCC_ERR_DTYPE,
                OP ": depth dtype %s, expected int32", tfcc_dtype_name(depth->dtype));
  TFCC_OP_CHECK(ctx,
                tfcc_tensor_elements(depth) == 1 && tfcc_tensor_elements(on) == 1 &&
                    tfcc_tensor_elements(off) == 1,
                TFCC_ERR_SHAPE, OP ": depth, on_value and off_value must have one element each");
  const int32_t rank = idx->rank;
  TFCC_OP_CHECK(ctx, rank + 1 <= TFCC_MAX_RANK, TFCC_ERR_SHAPE, OP ": indices rank %d too large",
                (int)rank);
  const int32_t axis = ctx->node->opts.one_hot.axis == -1 ? rank : ctx->node->opts.one_hot.axis;
  TFCC_OP_CHECK(ctx, axis >= 0 && axis <= rank, TFCC_ERR_INVALID_MODEL,
                OP ": axis %d out of range for indices rank %d", (int)ctx->node->opts.one_hot.axis,
                (int)rank);
  if (!depth->known || !depth->data)
    return TFCC_OP_NEEDS_DATA(ctx, depth, OP ": the output size depends on depth (tensor %d)",
                              (int)depth->index);
  const int32_t d = *(const int32_t *)depth->data;
  TFCC_OP_CHECK(ctx, d >= 0, TFCC_ERR_SHAPE, OP ": depth %d is negative", (int)d);
  int64_t dims[TFCC_MAX_RANK];
  for (int32_t i = 0, j = 0; i <= rank; i++) dims[i] = i == axis ? d : idx->dims[j++];
  return tfcc_so_set_shape(ctx, OP, out, rank + 1, dims);
}

static tfcc_status one_hot_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *idx = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  const int32_t rank = idx->rank;
  const int32_t axis = ctx->node->opts.one_hot.axis == -1 ? rank : ctx->node->opts.one_hot.axis;
  const int64_t prefix = tfcc_so_prod(idx->dims, 0, axis);
  if (prefix == 0) return TFCC_OK;
  const int64_t suffix = tfcc_so_prod(idx->dims, axis, rank);
  tfcc_ref_one_hot(idx->data, tfcc_dtype_size(idx->dtype), prefix, suffix, out->dims[axis],
                   ctx->in[2]->data, ctx->in[3]->data, tfcc_dtype_size(out->dtype), out->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_one_hot = {.name = OP, .prepare = one_hot_prepare, .eval = one_hot_eval};
