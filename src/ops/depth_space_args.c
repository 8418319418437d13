/* Prepare-time checks and the strided copy shared by DEPTH_TO_SPACE and SPACE_TO_DEPTH. */
#include "ops/depth_space_args.h"

#include <string.h>

#include "kernels/move/move.h"
#include "kernels/ref/copy.h"
#include "ops/shape_ops_util.h"

tfcc_status tfcc_depth_space_args(tfcc_op_ctx *ctx, const char *op, tfcc_tensor **in_out,
                                  int32_t *bs_out) {
  tfcc_tensor *in;
  tfcc_status st = tfcc_so_open(ctx, op, 1, 1, 1, &in);
  if (st) return st;
  static const int ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8,    TFCC_INT16,
                           TFCC_INT32,   TFCC_INT64, TFCC_FLOAT16, -1};
  if ((st = tfcc_so_check_dtype(ctx, op, "input", in->dtype, ok))) return st;
  if ((st = tfcc_so_check_out_dtype(ctx, op, 0, ctx->out[0], in->dtype))) return st;
  TFCC_OP_CHECK(ctx, in->rank == 4, TFCC_ERR_SHAPE, "%s: input rank %d, expected 4", op,
                (int)in->rank);
  int32_t bs = ctx->node->opts.block.block_size;
  /* block_size^2 divides the depth (DEPTH_TO_SPACE) or multiplies it (SPACE_TO_DEPTH) in int32,
   * as TFLite's: past 46340 the square overflows (undefined there; a block_size of 65536 did
   * here, fuzz53), and only an empty depth could take such a block */
  TFCC_OP_CHECK(ctx, bs >= 1 && bs <= 46340, TFCC_ERR_INVALID_MODEL,
                "%s: block_size %d (1..46340: its square must fit int32)", op, (int)bs);
  *in_out = in;
  *bs_out = bs;
  return TFCC_OK;
}

/* The copy's plan: the 6-D view of the output (contiguous) and the input's strides over it. */
static void depth_space_plan(const tfcc_op_ctx *ctx, bool d2s, tfcc_move_plan *plan) {
  const tfcc_tensor *in = ctx->in[0];
  const int32_t bs = ctx->node->opts.block.block_size;
  const int32_t B = in->dims[0], H = in->dims[1], W = in->dims[2], C = in->dims[3];
  int32_t dims[6];
  int64_t is[6], os[6];
  if (d2s) {
    /* out[b, h*bs+i, w*bs+j, c] = in[b, h, w, (i*bs + j)*Co + c]: output viewed as
     * [B, H, bs(i), W, bs(j), Co] */
    const int32_t Co = C / (bs * bs);
    const int32_t d[6] = {B, H, bs, W, bs, Co};
    const int64_t s[6] = {(int64_t)H * W * C, (int64_t)W * C, (int64_t)bs * Co, C, Co, 1};
    memcpy(dims, d, sizeof d);
    memcpy(is, s, sizeof s);
  } else {
    /* out[b, h, w, (i*bs + j)*C + c] = in[b, h*bs+i, w*bs+j, c]: output viewed as
     * [B, H/bs, W/bs, bs(i), bs(j), C] */
    const int32_t d[6] = {B, H / bs, W / bs, bs, bs, C};
    const int64_t s[6] = {
        (int64_t)H * W * C, (int64_t)bs * W * C, (int64_t)bs * C, (int64_t)W * C, C, 1};
    memcpy(dims, d, sizeof d);
    memcpy(is, s, sizeof s);
  }
  tfcc_ref_strides(6, dims, os);
  tfcc_move_plan_make(plan, 6, dims, is, os, tfcc_dtype_size(in->dtype));
}

void tfcc_depth_space_copy(tfcc_op_ctx *ctx, bool d2s) {
  tfcc_move_plan plan;
  depth_space_plan(ctx, d2s, &plan);
  tfcc_move_run(&plan, ctx->in[0]->data, 0, ctx->out[0]->data, 0);
}

const char *tfcc_depth_space_kernel(const tfcc_op_ctx *ctx, bool d2s) {
  if (ctx->n_in < 1 || !ctx->in[0] || ctx->in[0]->rank != 4 || !ctx->node ||
      ctx->node->opts.block.block_size < 1)
    return "ref";
  tfcc_move_plan plan;
  depth_space_plan(ctx, d2s, &plan);
  return tfcc_move_kind_name(&plan);
}
