/* DEPTH_TO_SPACE (NHWC, DCR order as TFLite): out[b, h*bs+i, w*bs+j, c] =
 * in[b, h, w, (i*bs + j)*C_out + c]; DepthToSpaceOptions.block_size. */
#include "ops/depth_space_args.h"
#include "ops/shape_ops_util.h"

#define OP "DEPTH_TO_SPACE"

static tfcc_status d2s_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in;
  int32_t bs;
  tfcc_status st = tfcc_depth_space_args(ctx, OP, &in, &bs);
  if (st) return st;
  TFCC_OP_CHECK(ctx, in->dims[3] % (bs * bs) == 0, TFCC_ERR_SHAPE,
                OP ": depth %d is not divisible by block_size^2 = %d", (int)in->dims[3],
                (int)(bs * bs));
  int64_t dims[4] = {in->dims[0], (int64_t)in->dims[1] * bs, (int64_t)in->dims[2] * bs,
                     in->dims[3] / (bs * bs)};
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], 4, dims);
}

static tfcc_status d2s_eval(tfcc_op_ctx *ctx) {
  tfcc_depth_space_copy(ctx, true);
  return TFCC_OK;
}

static const char *d2s_kernel(const tfcc_op_ctx *ctx) { return tfcc_depth_space_kernel(ctx, true); }

const tfcc_op_def tfcc_op_depth_to_space = {
    .name = OP, .prepare = d2s_prepare, .eval = d2s_eval, .kernel = d2s_kernel};
