/* BITCAST: the input's bytes reinterpreted as the output's dtype (bitcast.cc). Equal element
 * sizes keep the shape; a larger input element adds a last dimension of size in / out; a
 * smaller one needs a last dimension of out / in, which is removed. Any fixed-size dtype. */
#include "ops/shape_ops_util.h"

#define OP "BITCAST"

static tfcc_status bitcast_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *out = ctx->out[0];
  tfcc_status st = tfcc_so_open(ctx, OP, 1, 1, 1, &in);
  if (st) return st;
  const size_t a = tfcc_so_elem_size(in->dtype), b = tfcc_so_elem_size(out->dtype);
  TFCC_OP_CHECK(ctx, a > 0 && b > 0, TFCC_ERR_UNSUPPORTED, OP ": %s -> %s is not supported",
                tfcc_dtype_name(in->dtype), tfcc_dtype_name(out->dtype));
  int32_t dims[TFCC_MAX_RANK], rank = in->rank;
  for (int32_t d = 0; d < rank; d++) dims[d] = in->dims[d];
  if (a > b) {
    TFCC_OP_CHECK(ctx, rank < TFCC_MAX_RANK, TFCC_ERR_SHAPE, OP ": output rank would exceed %d",
                  TFCC_MAX_RANK);
    dims[rank++] = (int32_t)(a / b);
  } else if (a < b) {
    TFCC_OP_CHECK(ctx, rank >= 1 && (size_t)in->dims[rank - 1] == b / a, TFCC_ERR_SHAPE,
                  OP ": %s -> %s needs a last input dimension of %zu", tfcc_dtype_name(in->dtype),
                  tfcc_dtype_name(out->dtype), b / a);
    rank--;
  }
  return tfcc_tensor_set_shape(out, rank, dims, ctx->err);
}

static tfcc_status bitcast_eval(tfcc_op_ctx *ctx) {
  tfcc_so_copy(ctx->out[0], ctx->in[0]);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_bitcast = {
    .name = OP, .prepare = bitcast_prepare, .eval = bitcast_eval, .inplace_ok = true};
