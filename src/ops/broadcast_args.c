/* BROADCAST_ARGS: the broadcast shape of two 1-D shape tensors (int32 or int64, the same dtype
 * as the output), numpy rules aligned at the last entry (broadcast_args.cc). The output has
 * max(len) entries; incompatible shapes (neither entry 1, different) fail eval. */
#include "ops/shape_ops_util.h"

#define OP "BROADCAST_ARGS"

static tfcc_status broadcast_args_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *a, *b;
  tfcc_status st = tfcc_so_open(ctx, OP, 2, 2, 1, &a);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &b))) return st;
  TFCC_OP_CHECK(ctx, a->dtype == TFCC_INT32 || a->dtype == TFCC_INT64, TFCC_ERR_DTYPE,
                OP ": input 0 dtype %s, expected int32 or int64", tfcc_dtype_name(a->dtype));
  TFCC_OP_CHECK(ctx, b->dtype == a->dtype, TFCC_ERR_DTYPE,
                OP ": input 1 dtype %s differs from input 0's %s", tfcc_dtype_name(b->dtype),
                tfcc_dtype_name(a->dtype));
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], a->dtype))) return st;
  TFCC_OP_CHECK(ctx, a->rank == 1 && b->rank == 1, TFCC_ERR_SHAPE,
                OP ": inputs have ranks %d and %d, expected 1-D shapes", (int)a->rank,
                (int)b->rank);
  const int32_t n = a->dims[0] > b->dims[0] ? a->dims[0] : b->dims[0];
  return tfcc_tensor_set_shape(ctx->out[0], 1, &n, ctx->err);
}

static int64_t at(const tfcc_tensor *t, int64_t i) {
  return t->dtype == TFCC_INT32 ? ((const int32_t *)t->data)[i] : ((const int64_t *)t->data)[i];
}

static tfcc_status broadcast_args_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *a = ctx->in[0], *b = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  const int64_t n = out->dims[0], na = a->dims[0], nb = b->dims[0];
  for (int64_t i = 0; i < n; i++) {
    const int64_t ia = i - (n - na), ib = i - (n - nb);
    const int64_t va = ia >= 0 ? at(a, ia) : 1, vb = ib >= 0 ? at(b, ib) : 1;
    int64_t v;
    if (va == 1)
      v = vb;
    else if (vb == 1 || va == vb)
      v = va;
    else
      return tfcc_err_set(
          ctx->err, TFCC_ERR_SHAPE,
          OP ": shapes do not broadcast: entry %lld of input 0 is %lld, of input 1 %lld",
          (long long)ia, (long long)va, (long long)vb);
    if (out->dtype == TFCC_INT32)
      ((int32_t *)out->data)[i] = (int32_t)v;
    else
      ((int64_t *)out->data)[i] = v;
  }
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_broadcast_args = {
    .name = OP, .prepare = broadcast_args_prepare, .eval = broadcast_args_eval};
