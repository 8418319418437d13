/* Prepare-time checks and the strided copy shared by DEPTH_TO_SPACE and SPACE_TO_DEPTH. */
#include "ops/depth_space_args.h"

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
  TFCC_OP_CHECK(ctx, bs >= 1 && bs <= 65536, TFCC_ERR_INVALID_MODEL, "%s: block_size %d", op,
                (int)bs);
  *in_out = in;
  *bs_out = bs;
  return TFCC_OK;
}

void tfcc_depth_space_copy(tfcc_op_ctx *ctx, const int32_t dims[6], const int64_t is[6]) {
  const tfcc_tensor *in = ctx->in[0];
  int64_t os[6];
  tfcc_ref_strides(6, dims, os);
  if (tfcc_tensor_elements(in) > 0)
    tfcc_ref_copy_nd(6, dims, in->data, 0, is, ctx->out[0]->data, 0, os,
                     tfcc_dtype_size(in->dtype));
}
