/* MIRROR_PAD: inputs (input, paddings [rank, 2]); MirrorPadOptions.mode REFLECT (0) or
 * SYMMETRIC (1). Paddings must be at most dim - 1 (REFLECT) or dim (SYMMETRIC). Runs the block
 * copies of kernels/move (tfcc_move_mirror_pad); tfcc_ref_mirror_pad is its reference twin
 * (tests/ops/test_move.c). */
#include "kernels/move/mirror_pad.h"
#include "ops/pad_common.h"
#include "ops/shape_ops_util.h"

#define OP "MIRROR_PAD"

static tfcc_status mirror_pad_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *pd;
  tfcc_status st = tfcc_so_open(ctx, OP, 2, 2, 1, &in);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &pd))) return st;
  static const int ok[] = {TFCC_FLOAT32, TFCC_UINT8,   TFCC_INT8, TFCC_INT16, TFCC_INT32,
                           TFCC_INT64,   TFCC_FLOAT16, TFCC_BOOL, -1};
  if ((st = tfcc_so_check_dtype(ctx, OP, "input", in->dtype, ok))) return st;
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype))) return st;
  int32_t mode = ctx->node->opts.mirror_pad.mode;
  TFCC_OP_CHECK(ctx, mode == 0 || mode == 1, TFCC_ERR_INVALID_MODEL, OP ": mode %d", (int)mode);
  int64_t before[TFCC_MAX_RANK], after[TFCC_MAX_RANK], dims[TFCC_MAX_RANK];
  if ((st = tfcc_pad_read(ctx, OP, in, pd, before, after))) return st;
  for (int32_t d = 0; d < in->rank; d++) {
    int64_t lim = mode == 1 ? in->dims[d] : in->dims[d] - 1;
    TFCC_OP_CHECK(ctx, before[d] <= lim && after[d] <= lim, TFCC_ERR_SHAPE,
                  OP ": paddings (%lld, %lld) of dimension %d exceed %lld for %s mode",
                  (long long)before[d], (long long)after[d], (int)d, (long long)lim,
                  mode == 1 ? "SYMMETRIC" : "REFLECT");
    dims[d] = in->dims[d] + before[d] + after[d];
  }
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], in->rank, dims);
}

static tfcc_status mirror_pad_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  int64_t before[TFCC_MAX_RANK], after[TFCC_MAX_RANK];
  tfcc_status st = tfcc_pad_read(ctx, OP, in, ctx->in[1], before, after);
  if (st) return st;
  bool symmetric = ctx->node->opts.mirror_pad.mode == 1;
  tfcc_move_mirror_pad(in->data, in->rank, in->dims, before, ctx->out[0]->dims, symmetric,
                       tfcc_dtype_size(in->dtype), ctx->out[0]->data);
  return TFCC_OK;
}

static const char *mirror_pad_kernel(const tfcc_op_ctx *ctx) {
  (void)ctx;
  return "move-mirror-pad";
}

const tfcc_op_def tfcc_op_mirror_pad = {.name = OP,
                                        .prepare = mirror_pad_prepare,
                                        .eval = mirror_pad_eval,
                                        .kernel = mirror_pad_kernel};
