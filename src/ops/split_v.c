/* SPLIT_V: inputs (input, size_splits, axis); one size may be -1 (the remainder). */
#include "ops/shape_ops_util.h"
#include "ops/split_common.h"

#define OP "SPLIT_V"

static tfcc_status split_v_axis(tfcc_op_ctx *ctx, const tfcc_tensor *in, int32_t *axis) {
  int64_t axis_v, cnt;
  const tfcc_tensor *axis_t = ctx->in[2];
  TFCC_OP_CHECK(ctx, axis_t->dtype == TFCC_INT32, TFCC_ERR_DTYPE,
                OP ": axis dtype %s, expected int32", tfcc_dtype_name(axis_t->dtype));
  tfcc_status st = tfcc_so_read_ints(ctx, OP, "axis", axis_t, &axis_v, 1, &cnt);
  if (st) return st;
  TFCC_OP_CHECK(ctx, cnt == 1, TFCC_ERR_SHAPE, OP ": axis has %lld elements, expected 1",
                (long long)cnt);
  return tfcc_so_axis(ctx, OP, axis_v, in->rank, axis);
}

static tfcc_status split_v_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *sz, *ax;
  tfcc_status st = tfcc_so_open(ctx, OP, 3, 3, -1, &in);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &sz)) || (st = tfcc_so_input(ctx, 2, OP, &ax)))
    return st;
  int32_t axis;
  if ((st = split_v_axis(ctx, in, &axis))) return st;
  int64_t sizes[TFCC_SPLIT_MAX_OUTPUTS], n;
  if ((st = tfcc_so_read_ints(ctx, OP, "size_splits", sz, sizes, TFCC_SPLIT_MAX_OUTPUTS, &n)))
    return st;
  TFCC_OP_CHECK(ctx, n == ctx->n_out, TFCC_ERR_INVALID_MODEL,
                OP ": size_splits has %lld entries but the node has %d outputs", (long long)n,
                (int)ctx->n_out);
  int32_t minus_one = -1;
  int64_t sum = 0;
  for (int32_t i = 0; i < n; i++) {
    if (sizes[i] == -1) {
      TFCC_OP_CHECK(ctx, minus_one < 0, TFCC_ERR_INVALID_MODEL,
                    OP ": size_splits has more than one -1");
      minus_one = i;
    } else {
      TFCC_OP_CHECK(ctx, sizes[i] >= 0, TFCC_ERR_INVALID_MODEL, OP ": size_splits[%d] is %lld",
                    (int)i, (long long)sizes[i]);
      sum += sizes[i];
    }
  }
  if (minus_one >= 0) {
    TFCC_OP_CHECK(ctx, sum <= in->dims[axis], TFCC_ERR_SHAPE,
                  OP ": size_splits sum %lld exceeds dimension %d of size %d", (long long)sum,
                  (int)axis, (int)in->dims[axis]);
    sizes[minus_one] = in->dims[axis] - sum;
  } else {
    TFCC_OP_CHECK(ctx, sum == in->dims[axis], TFCC_ERR_SHAPE,
                  OP ": size_splits sum %lld differs from dimension %d of size %d", (long long)sum,
                  (int)axis, (int)in->dims[axis]);
  }
  return tfcc_split_prepare_common(ctx, OP, in, axis, sizes);
}

static tfcc_status split_v_eval(tfcc_op_ctx *ctx) {
  int32_t axis;
  tfcc_status st = split_v_axis(ctx, ctx->in[0], &axis);
  if (st) return st;
  return tfcc_split_eval_common(ctx, ctx->in[0], axis);
}

static const char *split_v_kernel(const tfcc_op_ctx *ctx) {
  (void)ctx;
  return "concat-copy";
}

const tfcc_op_def tfcc_op_split_v = {
    .name = OP, .prepare = split_v_prepare, .eval = split_v_eval, .kernel = split_v_kernel};
