/* BROADCAST_TO: broadcasts the input to the known shape input (int32/int64), numpy rules
 * aligned at the last dimension; the input rank must not exceed the target's. */
#include "ops/copy_ops.h"

#define OP "BROADCAST_TO"

static tfcc_status bt_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *sh;
  static const int accepted[] = {TFCC_COPY_DTYPES, -1};
  tfcc_status st = tfcc_copy_op_open(ctx, OP, accepted, &in, &sh);
  if (st) return st;
  int64_t dims[TFCC_MAX_RANK], n;
  if ((st = tfcc_so_read_ints(ctx, OP, "shape", sh, dims, TFCC_MAX_RANK, &n))) return st;
  TFCC_OP_CHECK(ctx, in->rank <= n, TFCC_ERR_SHAPE,
                OP ": input rank %d exceeds the target rank %lld", (int)in->rank, (long long)n);
  for (int32_t d = 0; d < in->rank; d++) {
    int32_t od = (int32_t)n - in->rank + d;
    TFCC_OP_CHECK(ctx, in->dims[d] == 1 || in->dims[d] == dims[od], TFCC_ERR_SHAPE,
                  OP ": input dimension %d of size %d cannot broadcast to %lld", (int)d,
                  (int)in->dims[d], (long long)dims[od]);
  }
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], (int32_t)n, dims);
}

static tfcc_status bt_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *out = ctx->out[0];
  int64_t is[TFCC_MAX_RANK], bs[TFCC_MAX_RANK], os[TFCC_MAX_RANK];
  tfcc_ref_strides(in->rank, in->dims, is);
  tfcc_ref_strides(out->rank, out->dims, os);
  for (int32_t d = 0; d < out->rank; d++) {
    int32_t id = d - (out->rank - in->rank);
    bs[d] = (id < 0 || in->dims[id] == 1) ? 0 : is[id];
  }
  if (tfcc_tensor_elements(out) > 0)
    tfcc_ref_copy_nd(out->rank, out->dims, in->data, 0, bs, out->data, 0, os,
                     tfcc_dtype_size(in->dtype));
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_broadcast_to = {.name = OP, .prepare = bt_prepare, .eval = bt_eval};
