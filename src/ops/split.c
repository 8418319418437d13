/* SPLIT: inputs (axis, input); SplitOptions.num_splits equal parts along the known axis. */
#include "kernels/ref/copy.h"
#include "ops/shape_ops_util.h"
#include "ops/split_common.h"

#define OP "SPLIT"

static tfcc_status split_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *axis_t, *in;
  tfcc_status st = tfcc_so_open(ctx, OP, 2, 2, -1, &axis_t);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &in))) return st;
  int32_t num = ctx->node->opts.split.num_splits;
  TFCC_OP_CHECK(ctx, num == ctx->n_out, TFCC_ERR_INVALID_MODEL,
                OP ": num_splits %d but the node has %d outputs", (int)num, (int)ctx->n_out);
  int64_t axis_v, cnt;
  TFCC_OP_CHECK(ctx, axis_t->dtype == TFCC_INT32, TFCC_ERR_DTYPE,
                OP ": axis dtype %s, expected int32", tfcc_dtype_name(axis_t->dtype));
  if ((st = tfcc_so_read_ints(ctx, OP, "axis", axis_t, &axis_v, 1, &cnt))) return st;
  TFCC_OP_CHECK(ctx, cnt == 1, TFCC_ERR_SHAPE, OP ": axis has %lld elements, expected 1",
                (long long)cnt);
  int32_t axis;
  if ((st = tfcc_so_axis(ctx, OP, axis_v, in->rank, &axis))) return st;
  TFCC_OP_CHECK(ctx, in->dims[axis] % num == 0, TFCC_ERR_SHAPE,
                OP ": dimension %d of size %d is not divisible by num_splits %d", (int)axis,
                (int)in->dims[axis], (int)num);
  int64_t sizes[TFCC_SPLIT_MAX_OUTPUTS];
  for (int32_t i = 0; i < num; i++) sizes[i] = in->dims[axis] / num;
  return tfcc_split_prepare_common(ctx, OP, in, axis, sizes);
}

static tfcc_status split_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[1];
  int64_t axis_v;
  int64_t cnt;
  tfcc_status st = tfcc_so_read_ints(ctx, OP, "axis", ctx->in[0], &axis_v, 1, &cnt);
  if (st) return st;
  int32_t axis = (int32_t)(axis_v < 0 ? axis_v + in->rank : axis_v);
  return tfcc_split_eval_common(ctx, in, axis);
}

static const char *split_kernel(const tfcc_op_ctx *ctx) {
  (void)ctx;
  return "concat-copy";
}

const tfcc_op_def tfcc_op_split = {
    .name = OP, .prepare = split_prepare, .eval = split_eval, .kernel = split_kernel};
