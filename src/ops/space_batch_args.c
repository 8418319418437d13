/* Argument reading and checks shared by BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND. */
#include "ops/space_batch_args.h"

#include "ops/shape_ops_util.h"

tfcc_status tfcc_space_batch_args(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                                  const char *pairs_name, int64_t block[2], int64_t pairs[4],
                                  int32_t *m_out) {
  TFCC_OP_CHECK(ctx, in->rank == 3 || in->rank == 4, TFCC_ERR_SHAPE,
                "%s: input rank %d, expected 3 or 4", op, (int)in->rank);
  const int32_t m = in->rank - 2;
  int64_t nb, np;
  tfcc_status st;
  if ((st = tfcc_so_read_ints(ctx, op, "block_shape", ctx->in[1], block, 2, &nb)) ||
      (st = tfcc_so_read_ints(ctx, op, pairs_name, ctx->in[2], pairs, 4, &np)))
    return st;
  TFCC_OP_CHECK(ctx, nb == m && np == 2 * m, TFCC_ERR_SHAPE,
                "%s: block_shape has %lld and %s %lld entries for %d spatial dimensions", op,
                (long long)nb, pairs_name, (long long)np, (int)m);
  for (int32_t i = 0; i < m; i++) {
    TFCC_OP_CHECK(ctx, block[i] >= 1 && block[i] <= INT32_MAX, TFCC_ERR_INVALID_MODEL,
                  "%s: block_shape[%d] is %lld", op, (int)i, (long long)block[i]);
    TFCC_OP_CHECK(ctx,
                  pairs[2 * i] >= 0 && pairs[2 * i + 1] >= 0 && pairs[2 * i] <= INT32_MAX &&
                      pairs[2 * i + 1] <= INT32_MAX,
                  TFCC_ERR_INVALID_MODEL, "%s: %s of spatial dimension %d are negative", op,
                  pairs_name, (int)i);
  }
  if (m == 1) {
    block[1] = 1;
    pairs[2] = 0;
  }
  *m_out = m;
  return TFCC_OK;
}

tfcc_status tfcc_space_batch_check(tfcc_op_ctx *ctx, const char *op, tfcc_tensor **in) {
  tfcc_tensor *t;
  tfcc_status st = tfcc_so_open(ctx, op, 3, 3, 1, in);
  if (st || (st = tfcc_so_input(ctx, 1, op, &t)) || (st = tfcc_so_input(ctx, 2, op, &t))) return st;
  static const int ok[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8,    TFCC_INT16,
                           TFCC_INT32,   TFCC_INT64, TFCC_FLOAT16, -1};
  if ((st = tfcc_so_check_dtype(ctx, op, "input", (*in)->dtype, ok))) return st;
  return tfcc_so_check_out_dtype(ctx, op, 0, ctx->out[0], (*in)->dtype);
}

void tfcc_space_batch_dims4(const tfcc_tensor *in, const int64_t *out_dims, tfcc_space_batch *p) {
  const int32_t m = in->rank - 2;
  p->in4[0] = in->dims[0];
  p->in4[1] = in->dims[1];
  p->in4[2] = m == 2 ? in->dims[2] : 1;
  p->in4[3] = in->dims[m + 1];
  for (int32_t d = 0; d < 3; d++) {
    const int64_t v = d < m + 1 ? out_dims[d] : 1;
    p->out4[d] = (int32_t)(v <= INT32_MAX ? v : 0);
  }
  p->out4[3] = in->dims[m + 1];
}

tfcc_status tfcc_space_batch_prepare(tfcc_op_ctx *ctx, const char *op,
                                     tfcc_space_batch_fn compute) {
  tfcc_tensor *in;
  tfcc_space_batch p;
  int64_t dims[4];
  tfcc_status st = tfcc_space_batch_check(ctx, op, &in);
  if (st || (st = compute(ctx, in, &p, dims))) return st;
  return tfcc_so_set_shape(ctx, op, ctx->out[0], in->rank, dims);
}
