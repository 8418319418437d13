/* SPACE_TO_DEPTH (NHWC): out[b, h, w, (i*bs + j)*C + c] = in[b, h*bs+i, w*bs+j, c];
 * SpaceToDepthOptions.block_size; H and W must be divisible by it. */
#include "ops/depth_space_args.h"
#include "ops/shape_ops_util.h"

#define OP "SPACE_TO_DEPTH"

static tfcc_status s2d_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in;
  int32_t bs;
  tfcc_status st = tfcc_depth_space_args(ctx, OP, &in, &bs);
  if (st) return st;
  TFCC_OP_CHECK(ctx, in->dims[1] % bs == 0 && in->dims[2] % bs == 0, TFCC_ERR_SHAPE,
                OP ": height %d and width %d must be divisible by block_size %d", (int)in->dims[1],
                (int)in->dims[2], (int)bs);
  int64_t dims[4] = {in->dims[0], in->dims[1] / bs, in->dims[2] / bs,
                     (int64_t)in->dims[3] * bs * bs};
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], 4, dims);
}

static tfcc_status s2d_eval(tfcc_op_ctx *ctx) {
  tfcc_depth_space_copy(ctx, false);
  return TFCC_OK;
}

static const char *s2d_kernel(const tfcc_op_ctx *ctx) {
  return tfcc_depth_space_kernel(ctx, false);
}

const tfcc_op_def tfcc_op_space_to_depth = {
    .name = OP, .prepare = s2d_prepare, .eval = s2d_eval, .kernel = s2d_kernel};
