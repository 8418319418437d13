/* BATCH_TO_SPACE_ND: inputs (input rank 3 or 4 NHWC, block_shape [rank-2], crops [rank-2, 2]),
 * both known int32/int64; the batch must be divisible by prod(block_shape). Runs kernels/move's
 * per-block box copies; tfcc_ref_batch_to_space is their reference twin
 * (tests/ops/test_move_ops.c). */
#include "kernels/move/space_batch.h"
#include "ops/shape_ops_util.h"
#include "ops/space_batch_args.h"

#define OP "BATCH_TO_SPACE_ND"

static tfcc_status b2s_compute(tfcc_op_ctx *ctx, const tfcc_tensor *in, tfcc_space_batch *p,
                               int64_t *out_dims) {
  int32_t m;
  tfcc_status st = tfcc_space_batch_args(ctx, OP, in, "crops", p->block, p->pairs, &m);
  if (st) return st;
  int64_t prod = 1;
  for (int32_t i = 0; i < m; i++) {
    prod *= p->block[i];
    int64_t sz = (int64_t)in->dims[i + 1] * p->block[i] - p->pairs[2 * i] - p->pairs[2 * i + 1];
    TFCC_OP_CHECK(ctx, sz >= 0, TFCC_ERR_SHAPE, OP ": crops exceed spatial dimension %d", (int)i);
    out_dims[i + 1] = sz;
  }
  TFCC_OP_CHECK(ctx, in->dims[0] % prod == 0, TFCC_ERR_SHAPE,
                OP ": batch %d is not divisible by the block size product %lld", (int)in->dims[0],
                (long long)prod);
  out_dims[0] = in->dims[0] / prod;
  out_dims[m + 1] = in->dims[m + 1];
  tfcc_space_batch_dims4(in, out_dims, p);
  return TFCC_OK;
}

static tfcc_status b2s_prepare(tfcc_op_ctx *ctx) {
  return tfcc_space_batch_prepare(ctx, OP, b2s_compute);
}

static tfcc_status b2s_eval(tfcc_op_ctx *ctx) {
  tfcc_space_batch p;
  int64_t dims[4];
  tfcc_status st = b2s_compute(ctx, ctx->in[0], &p, dims);
  if (st) return st;
  tfcc_move_batch_to_space(ctx->in[0]->data, p.in4, p.out4, (int32_t)p.block[0],
                           (int32_t)p.block[1], (int32_t)p.pairs[0], (int32_t)p.pairs[2],
                           tfcc_dtype_size(ctx->in[0]->dtype), ctx->out[0]->data);
  return TFCC_OK;
}

/* The planned copy's kind (kernels/move; the reference kernel is its twin). */
static const char *b2s_kernel(const tfcc_op_ctx *ctx) {
  tfcc_op_quiet q;
  tfcc_space_batch p;
  int64_t dims[4];
  if (ctx->n_in < 3 || !ctx->in[0] || !ctx->in[1] || !ctx->in[2] || ctx->n_out < 1 ||
      b2s_compute(tfcc_op_quiet_ctx(ctx, &q), ctx->in[0], &p, dims))
    return "ref";
  return tfcc_move_space_batch_kind(p.out4, p.in4, (int32_t)p.block[0], (int32_t)p.block[1],
                                    tfcc_dtype_size(ctx->in[0]->dtype));
}

const tfcc_op_def tfcc_op_batch_to_space_nd = {
    .name = OP, .prepare = b2s_prepare, .eval = b2s_eval, .kernel = b2s_kernel};
