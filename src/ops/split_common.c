/* Shared output shapes and copy of SPLIT / SPLIT_V; the contract is in split_common.h. */
#include "ops/split_common.h"

#include "kernels/concat/concat.h"
#include "ops/shape_ops_util.h"

tfcc_status tfcc_split_prepare_common(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                                      int32_t axis, const int64_t *sizes) {
  TFCC_OP_CHECK(ctx, ctx->n_out <= TFCC_SPLIT_MAX_OUTPUTS, TFCC_ERR_UNSUPPORTED,
                "%s: %d outputs, at most %d supported", op, (int)ctx->n_out,
                TFCC_SPLIT_MAX_OUTPUTS);
  TFCC_OP_CHECK(ctx, tfcc_so_copyable(in->dtype), TFCC_ERR_UNSUPPORTED,
                "%s: input dtype %s is not supported", op, tfcc_dtype_name(in->dtype));
  for (int32_t i = 0; i < ctx->n_out; i++) {
    tfcc_tensor *out = ctx->out[i];
    tfcc_status st = tfcc_so_check_out_dtype(ctx, op, i, out, in->dtype);
    if (st) return st;
    int64_t dims[TFCC_MAX_RANK];
    for (int32_t d = 0; d < in->rank; d++) dims[d] = d == axis ? sizes[i] : in->dims[d];
    if ((st = tfcc_so_set_shape(ctx, op, out, in->rank, dims))) return st;
  }
  ctx->scratch_bytes = (size_t)ctx->n_out * (sizeof(void *) + sizeof(size_t));
  return TFCC_OK;
}

tfcc_status tfcc_split_eval_common(tfcc_op_ctx *ctx, const tfcc_tensor *in, int32_t axis) {
  size_t es = tfcc_dtype_size(in->dtype);
  void **ptrs = (void **)ctx->scratch;
  size_t *inner = (size_t *)(void *)((uint8_t *)ctx->scratch + (size_t)ctx->n_out * sizeof(void *));
  for (int32_t i = 0; i < ctx->n_out; i++) {
    ptrs[i] = ctx->out[i]->data;
    inner[i] = (size_t)tfcc_so_prod(ctx->out[i]->dims, axis, ctx->out[i]->rank) * es;
  }
  tfcc_split_copy(in->data, ctx->n_out, ptrs, inner, tfcc_so_prod(in->dims, 0, axis));
  return TFCC_OK;
}
