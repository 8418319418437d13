/* TILE: out dim d = in dim d * multiples[d]; multiples a known int32/int64 vector. */
#include "ops/copy_ops.h"

#define OP "TILE"

static tfcc_status read_multiples(tfcc_op_ctx *ctx, const tfcc_tensor *in, int64_t *m) {
  int64_t n;
  tfcc_status st = tfcc_so_read_ints(ctx, OP, "multiples", ctx->in[1], m, TFCC_MAX_RANK, &n);
  if (st) return st;
  TFCC_OP_CHECK(ctx, n == in->rank, TFCC_ERR_SHAPE,
                OP ": multiples has %lld entries, input rank %d", (long long)n, (int)in->rank);
  for (int32_t d = 0; d < in->rank; d++)
    TFCC_OP_CHECK(ctx, m[d] >= 0, TFCC_ERR_INVALID_MODEL, OP ": multiples[%d] is %lld", (int)d,
                  (long long)m[d]);
  return TFCC_OK;
}

static tfcc_status tile_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *mt;
  static const int accepted[] = {TFCC_COPY_DTYPES, -1};
  tfcc_status st = tfcc_copy_op_open(ctx, OP, accepted, &in, &mt);
  if (st) return st;
  int64_t m[TFCC_MAX_RANK], dims[TFCC_MAX_RANK];
  if ((st = read_multiples(ctx, in, m))) return st;
  for (int32_t d = 0; d < in->rank; d++) {
    TFCC_OP_CHECK(ctx, m[d] <= INT32_MAX, TFCC_ERR_SHAPE, OP ": multiples[%d] too large", (int)d);
    dims[d] = in->dims[d] * m[d];
  }
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], in->rank, dims);
}

static tfcc_status tile_eval(tfcc_op_ctx *ctx) {
  int64_t m[TFCC_MAX_RANK];
  tfcc_status st = read_multiples(ctx, ctx->in[0], m);
  if (st) return st;
  tfcc_ref_tile(ctx->in[0]->data, ctx->in[0]->rank, ctx->in[0]->dims, m,
                tfcc_dtype_size(ctx->in[0]->dtype), ctx->out[0]->data);
  return TFCC_OK;
}

const tfcc_op_def tfcc_op_tile = {.name = OP, .prepare = tile_prepare, .eval = tile_eval};
