/* TOPK_V2: inputs (input rank >= 1, k int32 scalar); outputs values [..., k] (input dtype:
 * float32, uint8, int8, int16, int32, int64) and indices [..., k] (int32, or int64 as newer
 * TFLite) of the k largest entries of each last-dimension row, descending, equal values in order
 * of position (topk_v2.cc). k must be in [0, last dimension]. A k not known at prepare makes
 * the outputs dynamic. */
#include "kernels/ref/select_k.h"
#include "ops/shape_ops_util.h"

#define OP "TOPK_V2"

static tfcc_status topk_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *k;
  tfcc_status st = tfcc_so_open_typed(ctx, OP, 2, 2, 2, tfcc_so_numeric_dtypes, &in);
  if (st || (st = tfcc_so_input(ctx, 1, OP, &k)) ||
      (st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype)))
    return st;
  TFCC_OP_CHECK(ctx, ctx->out[1]->dtype == TFCC_INT32 || ctx->out[1]->dtype == TFCC_INT64,
                TFCC_ERR_DTYPE, OP ": indices output dtype %s, expected int32 or int64",
                tfcc_dtype_name(ctx->out[1]->dtype));
  TFCC_OP_CHECK(ctx, k->dtype == TFCC_INT32 && tfcc_tensor_elements(k) == 1, TFCC_ERR_DTYPE,
                OP ": k must be one int32 value (%s, %lld elements)", tfcc_dtype_name(k->dtype),
                (long long)tfcc_tensor_elements(k));
  TFCC_OP_CHECK(ctx, in->rank >= 1, TFCC_ERR_SHAPE, OP ": input is a scalar (rank >= 1 needed)");
  if (!k->known || !k->data)
    return TFCC_OP_NEEDS_DATA(ctx, k, OP ": the output size depends on k (tensor %d)",
                              (int)k->index);
  const int32_t kv = *(const int32_t *)k->data, n = in->dims[in->rank - 1];
  TFCC_OP_CHECK(ctx, kv >= 0 && kv <= n, TFCC_ERR_INVALID_ARG,
                OP ": k = %d outside [0, %d] (the last dimension)", (int)kv, (int)n);
  int32_t dims[TFCC_MAX_RANK];
  for (int32_t d = 0; d < in->rank; d++) dims[d] = in->dims[d];
  dims[in->rank - 1] = kv;
  ctx->scratch_bytes = sizeof(int64_t) * (size_t)(kv + 1);
  if ((st = tfcc_tensor_set_shape(ctx->out[0], in->rank, dims, ctx->err))) return st;
  return tfcc_tensor_set_shape(ctx->out[1], in->rank, dims, ctx->err);
}

static tfcc_status topk_eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  tfcc_tensor *v = ctx->out[0], *ix = ctx->out[1];
  const int64_t n = in->dims[in->rank - 1], k = v->dims[v->rank - 1];
  tfcc_ref_topk(in->dtype, in->data, tfcc_so_prod(in->dims, 0, in->rank - 1), n, k, v->data,
                ix->data, ix->dtype == TFCC_INT64 ? 8 : 4, ctx->scratch);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_topk_v2 = {.name = OP, .prepare = topk_prepare, .eval = topk_eval};
