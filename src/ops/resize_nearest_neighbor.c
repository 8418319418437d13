/* RESIZE_NEAREST_NEIGHBOR: inputs (input NHWC, size int32 [2] known); options align_corners,
 * half_pixel_centers. Runs kernels/move's pixel and row copies; tfcc_ref_resize_nearest is
 * their reference twin (tests/ops/test_resize_move.c). */
#include "ops/resize_common.h"
#include "kernels/move/resize_nearest.h"
#include "ops/shape_ops_util.h"

#define OP "RESIZE_NEAREST_NEIGHBOR"

static tfcc_status rn_prepare(tfcc_op_ctx *ctx) {
  static const int ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16, TFCC_INT32, -1};
  tfcc_status st = tfcc_resize_prepare_common(ctx, OP, ok, ctx->node->opts.resize.align_corners,
                                              ctx->node->opts.resize.half_pixel_centers);
  if (st) return st;
  tfcc_resize_shape s;
  tfcc_resize_shape_of(ctx, &s);
  ctx->scratch_bytes = tfcc_move_resize_nearest_scratch_bytes(&s);
  return TFCC_OK;
}

static tfcc_status rn_eval(tfcc_op_ctx *ctx) {
  tfcc_resize_shape s;
  tfcc_resize_shape_of(ctx, &s);
  const size_t need = tfcc_move_resize_nearest_scratch_bytes(&s);
  TFCC_OP_CHECK(ctx, need == 0 || (ctx->scratch && ctx->scratch_bytes >= need), TFCC_ERR_STATE,
                OP ": scratch missing");
  tfcc_move_resize_nearest(
      &s, ctx->node->opts.resize.align_corners, ctx->node->opts.resize.half_pixel_centers,
      tfcc_dtype_size(ctx->in[0]->dtype), ctx->in[0]->data, ctx->out[0]->data, ctx->scratch);
  return TFCC_OK;
}

static const char *rn_kernel(const tfcc_op_ctx *ctx) { return "move-nearest"; }

const tfcc_op_def tfcc_op_resize_nearest_neighbor = {
    .name = OP, .prepare = rn_prepare, .eval = rn_eval, .kernel = rn_kernel};
