/* Shared prepare logic of the resize operators; the contract is in resize_common.h. */
#include "ops/resize_common.h"

#include "ops/shape_ops_util.h"

tfcc_status tfcc_resize_prepare_common(tfcc_op_ctx *ctx, const char *op, const int *dtypes,
                                       bool align_corners, bool half_pixel) {
  tfcc_tensor *in, *sz;
  tfcc_status st = tfcc_so_open(ctx, op, 2, 2, 1, &in);
  if (st || (st = tfcc_so_input(ctx, 1, op, &sz))) return st;
  if ((st = tfcc_so_check_dtype(ctx, op, "input", in->dtype, dtypes))) return st;
  if ((st = tfcc_so_check_out_dtype(ctx, op, 0, ctx->out[0], in->dtype))) return st;
  TFCC_OP_CHECK(ctx, in->rank == 4, TFCC_ERR_SHAPE, "%s: input rank %d, expected 4", op,
                (int)in->rank);
  TFCC_OP_CHECK(ctx, !(align_corners && half_pixel), TFCC_ERR_INVALID_MODEL,
                "%s: align_corners and half_pixel_centers are both set", op);
  TFCC_OP_CHECK(ctx, sz->dtype == TFCC_INT32, TFCC_ERR_DTYPE, "%s: size dtype %s, expected int32",
                op, tfcc_dtype_name(sz->dtype));
  TFCC_OP_CHECK(ctx, sz->rank == 1, TFCC_ERR_SHAPE, "%s: size rank %d, expected 1", op,
                (int)sz->rank);
  int64_t v[2], n;
  if ((st = tfcc_so_read_ints(ctx, op, "size", sz, v, 2, &n))) return st;
  TFCC_OP_CHECK(ctx, n == 2, TFCC_ERR_SHAPE, "%s: size has %lld elements, expected 2", op,
                (long long)n);
  TFCC_OP_CHECK(ctx, v[0] > 0 && v[1] > 0, TFCC_ERR_INVALID_MODEL,
                "%s: output size %lldx%lld must be positive", op, (long long)v[0], (long long)v[1]);
  /* Keeps the 10-bit fixed-point coordinates of the integer kernels inside int32. */
  TFCC_OP_CHECK(ctx,
                v[0] <= (1 << 20) && v[1] <= (1 << 20) && in->dims[1] <= (1 << 20) &&
                    in->dims[2] <= (1 << 20),
                TFCC_ERR_UNSUPPORTED, "%s: sizes above 2^20 are not supported", op);
  /* An empty image with a non-empty output has no pixel to take values from (TFLite's kernels
   * would read before the input: its last index, in - 1, is -1) */
  TFCC_OP_CHECK(ctx, (in->dims[1] > 0 && in->dims[2] > 0) || in->dims[0] == 0 || in->dims[3] == 0,
                TFCC_ERR_SHAPE, "%s: input height %d and width %d: no pixel to resize from", op,
                (int)in->dims[1], (int)in->dims[2]);
  int64_t dims[4] = {in->dims[0], v[0], v[1], in->dims[3]};
  return tfcc_so_set_shape(ctx, op, ctx->out[0], 4, dims);
}

void tfcc_resize_shape_of(const tfcc_op_ctx *ctx, tfcc_resize_shape *s) {
  const tfcc_tensor *in = ctx->in[0], *out = ctx->out[0];
  s->batch = in->dims[0];
  s->in_h = in->dims[1];
  s->in_w = in->dims[2];
  s->depth = in->dims[3];
  s->out_h = out->dims[1];
  s->out_w = out->dims[2];
}
